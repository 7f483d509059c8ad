//===- ComparisonCharts.h - dan-bench's charts as SVG -----------*- C++ -*-===//
//
// The pictures of a BenchReport, drawn with the charts of lib/Report
// (dan/Report/Charts.h, PlanViews.h): the normalized metrics per method and
// graph, the ablations, the sweep's heat maps, and for DAN's plan of each
// graph the offset-by-time occupancy of every tier (the paper's figure 9)
// and the pipe timeline (figure 10, before and after CPE when the
// ablations ran).
//
//===----------------------------------------------------------------------===//

#ifndef DAN_COMPARE_COMPARISONCHARTS_H
#define DAN_COMPARE_COMPARISONCHARTS_H

#include "dan/Compare/Comparison.h"
#include <string>
#include <vector>

namespace dan::bench {

/// One chart: a file name (no directory) and its SVG text.
struct ChartFile {
  std::string Name;
  std::string SVG;
};

/// Every chart \p R has data for, in a fixed order. The per-graph charts
/// need the plans (BenchOptions::KeepPlans).
std::vector<ChartFile> drawCharts(const BenchReport &R);

/// drawCharts as the files dan-bench --charts writes: each path under
/// \p Dir with its SVG text.
std::vector<std::pair<std::string, std::string>>
chartFiles(const BenchReport &R, llvm::StringRef Dir);

} // namespace dan::bench

#endif // DAN_COMPARE_COMPARISONCHARTS_H
