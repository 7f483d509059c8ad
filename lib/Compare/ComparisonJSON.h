//===- ComparisonJSON.h - dan-bench's JSON report ---------------*- C++ -*-===//
//
// Private to lib/Compare. printReport (ComparisonReport.cpp) renders text
// and Markdown itself and hands JSON to printJSON (ComparisonJSON.cpp).
//
//===----------------------------------------------------------------------===//

#ifndef DAN_LIB_COMPARE_COMPARISONJSON_H
#define DAN_LIB_COMPARE_COMPARISONJSON_H

#include "dan/Compare/ComparisonReport.h"
#include "llvm/Support/raw_ostream.h"

namespace dan::bench {

/// \p R as one JSON object, with a newline after it.
void printJSON(const BenchReport &R, const ReportOptions &Opts,
               llvm::raw_ostream &OS);

} // namespace dan::bench

#endif // DAN_LIB_COMPARE_COMPARISONJSON_H
