//===- ComparisonJSON.cpp - dan-bench's report as JSON --------------------===//
//
// dan-bench's report written directly as JSON: the target, every graph's
// table 2, the averages, the ablations and the sweep. The keys are listed
// in docs/CommandGuide/dan-bench.md.
//
//===----------------------------------------------------------------------===//

#include "ComparisonJSON.h"
#include "llvm/ADT/STLExtras.h"
#include "llvm/Support/JSON.h"

using namespace llvm;

namespace dan::bench {

static void jsonMeasurement(json::OStream &J, const Measurement &M) {
  J.attribute("ok", M.ok());
  if (!M.ok()) {
    J.attribute("error", M.Error);
    return;
  }
  writeMetricsJSON(J, M.Values);
}

static void jsonTarget(json::OStream &J, const TargetDesc &T) {
  J.attributeObject("target", [&] {
    J.attributeObject("capacity", [&] {
      for (unsigned I = 0; I != T.numTiers(); ++I)
        J.attribute(T.tierName(Tier(I)), T.capacity(Tier(I)));
    });
    J.attributeObject("spill_cost", [&] {
      J.attribute("alpha", T.spillAlpha());
      J.attribute("beta", T.spillBeta());
    });
  });
}

/// One graph of table 2: each method's figures, the best external method,
/// DAN's margin and its reduction against base.
static void jsonWorkload(json::OStream &J, const Workload &W, bool Timings) {
  J.attribute("graph", W.Name);
  J.attribute("nodes", uint64_t(W.Nodes));
  J.attribute("makespan_lb", W.MakespanBound);
  J.attributeObject("results", [&] {
    for (size_t I = 0; I != W.Cells.size(); ++I) {
      const Cell &C = W.Cells[I];
      J.attributeObject(methodName(C.M), [&] {
        jsonMeasurement(J, C.Result);
        if (C.Result.ok()) {
          J.attribute("critical_path_lb", C.Result.CriticalPathLB);
          J.attribute("pipe_lb", C.Result.PipeLB);
          J.attribute("l0_single", C.Result.L0Single);
          writePerMetricJSON(J, "normalized", [&](unsigned K) {
            return jsonRatio(W.Table.Normalized[I][K]);
          });
        }
        if (Timings)
          J.attribute("seconds", C.Seconds);
      });
    }
  });
  writePerMetricJSON(J, "best_external", [&](unsigned K) -> json::Value {
    if (const std::optional<Method> &B = W.Table.BestExternal[K])
      return methodName(*B);
    return nullptr;
  });
  writePerMetricJSON(J, "dan_margin",
                     [&](unsigned K) { return jsonRatio(W.Table.Margin[K]); });
  writePerMetricJSON(J, "dan_vs_base", [&](unsigned K) {
    return jsonRatio(W.Table.VersusBase[K]);
  });
}

static void jsonAverage(json::OStream &J, const BenchReport &R) {
  J.attributeObject("average", [&] {
    auto Mean = [&](StringRef Key, const auto &Values, const auto &Counts) {
      J.attributeObject(Key, [&] {
        for (Metric M : allMetrics())
          J.attributeObject(metricKey(M), [&] {
            J.attribute("mean", jsonRatio(Values[unsigned(M)]));
            J.attribute("graphs", Counts[unsigned(M)]);
          });
      });
    };
    Mean("dan_vs_base", R.MeanVersusBase, R.VersusBaseCount);
    Mean("dan_margin", R.MeanMargin, R.MarginCount);
    J.attribute("dan_best_cells", R.DANBestCells);
    J.attribute("compared_cells", R.ComparedCells);
  });
}

/// The stage ablations of one graph (tables 3 to 5, figure 7).
static void jsonAblation(json::OStream &J, const Ablation &A) {
  J.attribute("graph", A.Name);
  J.attributeObject("stage1", [&] {
    J.attribute("ok", A.Stage1Error.empty());
    if (!A.Stage1Error.empty())
      return J.attribute("error", A.Stage1Error);
    J.attribute("input_peak_l1ub", A.InputPeak);
    J.attribute("mpas_peak_l1ub", A.MPASPeak);
    J.attribute("auto_keeps", A.AutoChosen
                                  ? json::Value(weightsName(*A.AutoChosen))
                                  : json::Value(nullptr));
  });
  J.attributeObject("weights", [&] {
    for (const Ablation::Weighting &W : A.Weightings)
      J.attributeObject(weightsName(W.W), [&] {
        J.attribute("ok", W.Error.empty());
        if (!W.Error.empty())
          J.attribute("error", W.Error);
        else
          J.attribute("peak_l1ub", W.Peak);
      });
  });
  J.attributeObject("dlr_cost_aware", [&] { jsonMeasurement(J, A.CostAware); });
  J.attributeObject("dlr_lru", [&] { jsonMeasurement(J, A.LRU); });
  J.attributeObject("stage3", [&] {
    J.attribute("ok", A.Stage3Error.empty());
    if (!A.Stage3Error.empty())
      return J.attribute("error", A.Stage3Error);
    J.attribute("reuse_edges", A.ReuseEdges);
    J.attribute("freeze_makespan", A.FreezeMakespan);
    J.attribute("cpe_makespan", A.CPEMakespan);
    J.attribute("ignore_claimed_makespan", A.IgnoreClaimed);
    J.attribute("ignore_real_makespan", A.IgnoreReal);
    J.attribute("ignore_violations", A.IgnoreViolations);
    J.attribute("cpe_verifies", A.CPEVerify.empty());
    J.attribute("ignore_verifies", A.IgnoreVerify.empty());
  });
}

/// One graph under sweep setting \p Si: each method's figures and ranks,
/// and tau against the default setting.
static void jsonSweepWorkload(json::OStream &J, const BenchReport &R, size_t Si,
                              size_t Wi) {
  const SweepResult &S = *R.Sweep;
  J.attribute("graph", R.Workloads[Wi].Name);
  J.attributeObject("values", [&] {
    for (size_t Mi = 0; Mi != R.Methods.size(); ++Mi) {
      const std::optional<Metrics> &V = S.Values[Si][Wi][Mi];
      if (!V) {
        J.attribute(methodName(R.Methods[Mi]), nullptr);
        continue;
      }
      J.attributeObject(methodName(R.Methods[Mi]),
                        [&] { writeMetricsJSON(J, *V); });
    }
  });
  J.attributeObject("ranks", [&] {
    for (Metric M : allMetrics())
      J.attributeObject(metricKey(M), [&] {
        const auto &Rk = S.Ranks[Si][Wi][unsigned(M)];
        for (size_t Mi = 0; Mi != R.Methods.size(); ++Mi)
          J.attribute(methodName(R.Methods[Mi]),
                      Rk[Mi] ? json::Value(*Rk[Mi]) : json::Value(nullptr));
      });
  });
  writePerMetricJSON(J, "tau",
                     [&](unsigned K) { return jsonRatio(S.Tau[Si][Wi][K]); });
}

/// Sweep setting \p Si: the target it sets, the summary of its rankings,
/// and every graph.
static void jsonSweepSetting(json::OStream &J, const BenchReport &R,
                             size_t Si) {
  const SweepResult &S = *R.Sweep;
  const SweepSetting &Set = S.Settings[Si];
  J.attribute("label", Set.Label);
  J.attribute("default", Set.IsDefault);
  J.attribute("capacity_scale", double(Set.ScaleNum) / double(Set.ScaleDen));
  J.attribute("alpha", Set.Alpha);
  J.attribute("beta", Set.Beta);
  writePerMetricJSON(J, "mean_tau",
                     [&](unsigned K) { return jsonRatio(S.MeanTau[Si][K]); });
  writePerMetricJSON(J, "min_tau",
                     [&](unsigned K) { return jsonRatio(S.MinTau[Si][K]); });
  if (is_contained(R.Methods, Method::DAN))
    writePerMetricJSON(J, "dan_first",
                       [&](unsigned K) { return S.DANFirst[Si][K]; });
  J.attributeArray("workloads", [&] {
    for (size_t Wi = 0; Wi != R.Workloads.size(); ++Wi)
      J.object([&] { jsonSweepWorkload(J, R, Si, Wi); });
  });
}

void printJSON(const BenchReport &R, const ReportOptions &Opts,
               raw_ostream &OS) {
  json::OStream J(OS, 2);
  J.object([&] {
    jsonTarget(J, R.Target);
    J.attributeArray("methods", [&] {
      for (Method M : R.Methods)
        J.value(methodName(M));
    });
    J.attributeArray("workloads", [&] {
      for (const Workload &W : R.Workloads)
        J.object([&] { jsonWorkload(J, W, Opts.Timings); });
    });
    jsonAverage(J, R);
    J.attribute("failures", R.Failures);
    if (!R.Ablations.empty()) {
      J.attributeArray("ablations", [&] {
        for (const Ablation &A : R.Ablations)
          J.object([&] { jsonAblation(J, A); });
      });
      J.attribute("ablation_failures", R.AblationFailures);
    }
    if (R.Sweep)
      J.attributeObject("sweep", [&] {
        J.attributeArray("settings", [&] {
          for (size_t Si = 0; Si != R.Sweep->Settings.size(); ++Si)
            J.object([&] { jsonSweepSetting(J, R, Si); });
        });
        J.attribute("failures", R.Sweep->Failures);
        J.attribute("not_verified", R.Sweep->NotVerified);
      });
  });
  OS << '\n';
}

} // namespace dan::bench
