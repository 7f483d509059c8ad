//===- Metrics.h - The four metrics and how they print ----------*- C++ -*-===//
//
// The one list of the contest's metrics, with their JSON keys and column
// titles, and the one place that decides how a metric's figures are
// printed: a value normalized to a baseline (a ratio), a reduction (a
// percentage), and either as JSON. dan-replay's report and dan-bench's both
// use them.
//
//===----------------------------------------------------------------------===//

#ifndef DAN_REPORT_METRICS_H
#define DAN_REPORT_METRICS_H

#include "dan/Analysis/Replay.h"
#include "llvm/ADT/ArrayRef.h"
#include "llvm/ADT/StringRef.h"
#include "llvm/Support/JSON.h"
#include <array>
#include <cstdint>
#include <optional>
#include <string>

namespace dan {

/// The four metrics of the contest, in the order tables list them.
enum class Metric : unsigned { Peak, Traffic, Spills, Makespan };
constexpr unsigned NumMetrics = 4;
llvm::ArrayRef<Metric> allMetrics();
/// The JSON key: "peak_l1ub", "extra_ddr_traffic", "spill_count", "makespan".
llvm::StringRef metricKey(Metric M);
/// The column title: "peak L1+UB", "extra DDR traffic", ...
std::string metricTitle(Metric M, const TargetDesc &T);

/// One value per metric, indexed by Metric.
using Metrics = std::array<uint64_t, NumMetrics>;
Metrics metricsOf(const ReplayResult &R);
inline uint64_t get(const Metrics &V, Metric M) {
  return V[static_cast<unsigned>(M)];
}

/// Value / Base with 0 / 0 = 1 and X / 0 = +infinity for X > 0.
double normalized(uint64_t Value, uint64_t Base);
/// 1 - Value / Reference with 0 / 0 counted as 1 (a tie, 0) and X / 0 as
/// +infinity (-infinity) for X > 0: the fraction by which Value is below
/// Reference, negative when it is above.
double reduction(uint64_t Value, uint64_t Reference);
/// Part / Whole; 0 when Whole is 0 (a pipe's busy time over the makespan).
double fraction(uint64_t Part, uint64_t Whole);

/// "0.340", "inf": a ratio with three decimals.
std::string formatRatio(double X);
/// "53.7%", "-4.0%", "-inf%": a fraction as a percentage, one decimal.
std::string formatPercent(double X);
/// A ratio or fraction as JSON: a number, or null when absent or infinite.
llvm::json::Value jsonRatio(std::optional<double> X);

/// The four values as attributes of the current JSON object, one per
/// metric key in table order.
void writeMetricsJSON(llvm::json::OStream &J, const Metrics &V);

/// An attribute \p Key holding an object of one attribute per metric key,
/// each \p Value(the metric's index).
template <typename Fn>
void writePerMetricJSON(llvm::json::OStream &J, llvm::StringRef Key, Fn Value) {
  J.attributeObject(Key, [&] {
    for (Metric M : allMetrics())
      J.attribute(metricKey(M), Value(static_cast<unsigned>(M)));
  });
}

} // namespace dan

#endif // DAN_REPORT_METRICS_H
