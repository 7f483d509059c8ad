//===- Metrics.cpp - The four metrics and how a report prints them --------===//

#include "dan/Report/Metrics.h"
#include "llvm/Support/ErrorHandling.h"
#include "llvm/Support/FormatVariadic.h"
#include <cmath>
#include <limits>

using namespace llvm;

namespace dan {

namespace {
struct MetricInfo {
  Metric M;
  StringLiteral Key, Title;
};
} // namespace

static const MetricInfo MetricTable[] = {
    {Metric::Peak, "peak_l1ub", "peak"},
    {Metric::Traffic, "extra_ddr_traffic", "extra DDR traffic"},
    {Metric::Spills, "spill_count", "spill count"},
    {Metric::Makespan, "makespan", "makespan"},
};

static const Metric AllMetrics[] = {Metric::Peak, Metric::Traffic,
                                    Metric::Spills, Metric::Makespan};

ArrayRef<Metric> allMetrics() { return AllMetrics; }

static const MetricInfo &info(Metric M) {
  for (const MetricInfo &I : MetricTable)
    if (I.M == M)
      return I;
  llvm_unreachable("metric without an entry in its table");
}

StringRef metricKey(Metric M) { return info(M).Key; }
std::string metricTitle(Metric M, const TargetDesc &T) {
  // The peak is of the tiers that count in it: "peak L1+UB" on Davinci.
  if (M == Metric::Peak)
    return "peak " + T.peakTierNames();
  return info(M).Title.str();
}

Metrics metricsOf(const ReplayResult &R) {
  return {R.PeakL1UB, R.ExtraTraffic, R.SpillCount, R.Makespan};
}

double normalized(uint64_t Value, uint64_t Base) {
  if (Base == 0)
    return Value == 0 ? 1.0 : std::numeric_limits<double>::infinity();
  return double(Value) / double(Base);
}

double reduction(uint64_t Value, uint64_t Reference) {
  return 1.0 - normalized(Value, Reference);
}

double fraction(uint64_t Part, uint64_t Whole) {
  return Whole == 0 ? 0.0 : double(Part) / double(Whole);
}

std::string formatRatio(double X) {
  if (std::isinf(X))
    return X > 0 ? "inf" : "-inf";
  return formatv("{0:F3}", X).str();
}

std::string formatPercent(double X) {
  if (std::isinf(X))
    return X > 0 ? "inf%" : "-inf%";
  // -0.04% rounds to "-0.0%": print the sign only when it shows.
  std::string S = formatv("{0:F1}", X * 100).str();
  if (S == "-0.0")
    S = "0.0";
  return S + "%";
}

json::Value jsonRatio(std::optional<double> X) {
  if (!X || std::isinf(*X))
    return nullptr;
  return *X;
}

void writeMetricsJSON(json::OStream &J, const Metrics &V) {
  for (Metric M : allMetrics())
    J.attribute(metricKey(M), get(V, M));
}

} // namespace dan
