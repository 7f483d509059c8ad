//===- Report.h - dan-bench's report as text, JSON or Markdown ---*- C++
//-*-===//
//
// Prints a BenchReport. The output depends only on the report (and
// Timings), so two runs on the same inputs print the same bytes; wall times
// appear only when Timings is set.
//
//===----------------------------------------------------------------------===//

#ifndef DAN_BENCH_REPORT_H
#define DAN_BENCH_REPORT_H

#include "dan/Bench/Bench.h"
#include "llvm/Support/raw_ostream.h"

namespace dan::bench {

enum class ReportFormat { Text, JSON, Markdown };

struct ReportOptions {
  ReportFormat Format = ReportFormat::Text;
  /// Add each run's wall time (a "seconds" column or key).
  bool Timings = false;
};

void printReport(const BenchReport &R, const ReportOptions &Opts,
                 llvm::raw_ostream &OS);

/// "0.340", "inf": a ratio with three decimals.
std::string formatRatio(double X);
/// "53.7%", "-4.0%", "-inf%": a fraction as a percentage, one decimal.
std::string formatPercent(double X);
/// "dan < magis = eda < base": methods by rank, ties joined by "=".
std::string formatRanking(llvm::ArrayRef<Method> Methods,
                          llvm::ArrayRef<std::optional<unsigned>> Ranks);

} // namespace dan::bench

#endif // DAN_BENCH_REPORT_H
