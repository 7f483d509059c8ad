//===- ComparisonReport.h - dan-bench's report ------------------*- C++ -*-===//
//
// Prints a BenchReport through lib/Report (dan/Report/Document.h, Metrics.h).
// The output depends only on the report (and Timings), so two runs on the same
// inputs print the same bytes; wall times appear only when Timings is set.
//
//===----------------------------------------------------------------------===//

#ifndef DAN_COMPARE_COMPARISONREPORT_H
#define DAN_COMPARE_COMPARISONREPORT_H

#include "dan/Compare/Comparison.h"
#include "dan/Report/Document.h"
#include "llvm/Support/raw_ostream.h"

namespace dan::bench {

struct ReportOptions {
  ReportFormat Format = ReportFormat::Text;
  /// Add each run's wall time (a "seconds" column or key).
  bool Timings = false;
};

void printReport(const BenchReport &R, const ReportOptions &Opts,
                 llvm::raw_ostream &OS);

/// A progress line of a run: "dan-bench: [I/N] GRAPH WHAT ..." when it
/// starts, " 1.23 s" or " error: WHY" and a newline when it ends.
void printProgress(const Progress &P, llvm::raw_ostream &OS);

/// Why \p R failed, for the tool's error line: "2 cells failed, 1 ablation
/// failed"; empty when it did not (BenchReport::failed).
std::string failureSummary(const BenchReport &R);

/// "dan < magis = eda < base": methods by rank, ties joined by "=".
std::string formatRanking(llvm::ArrayRef<Method> Methods,
                          llvm::ArrayRef<std::optional<unsigned>> Ranks);

} // namespace dan::bench

#endif // DAN_COMPARE_COMPARISONREPORT_H
