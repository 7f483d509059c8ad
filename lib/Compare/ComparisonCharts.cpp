//===- ComparisonCharts.cpp - dan-bench's charts as SVG -------------------===//

#include "dan/Compare/ComparisonCharts.h"
#include "dan/Report/Charts.h"
#include "dan/Report/PlanViews.h"
#include "llvm/ADT/STLExtras.h"
#include "llvm/Support/FormatVariadic.h"
#include "llvm/Support/Path.h"
#include <cmath>

using namespace llvm;

namespace dan::bench {

static double orNaN(const std::optional<double> &X) {
  return X && std::isfinite(*X) ? *X : NAN;
}

template <typename T, typename Fn> static std::string draw(const T &C, Fn F) {
  std::string S;
  raw_string_ostream OS(S);
  F(C, OS);
  OS.flush();
  return S;
}

static std::string targetSubtitle(const TargetDesc &T) {
  std::string S;
  for (unsigned I = 0; I != T.numTiers(); ++I)
    S += (I ? ", " : "") + T.tierName(Tier(I)).str() + " " +
         std::to_string(T.capacity(Tier(I)));
  return S +
         formatv("; spill cost {0} + {1} * size", T.spillAlpha(), T.spillBeta())
             .str();
}

/// One bar chart per metric: groups are the graphs, bars the methods other
/// than base (base is the reference line at 1).
static void normalizedCharts(const BenchReport &R,
                             std::vector<ChartFile> &Out) {
  for (Metric M : allMetrics()) {
    svg::BarChart C;
    C.Title = metricTitle(M, R.Target) + " normalized to base";
    C.Subtitle = targetSubtitle(R.Target);
    C.YLabel = metricTitle(M, R.Target) + " / base";
    C.ReferenceLine = 1.0;
    C.ReferenceLabel = "base";
    C.ValueFormat = "%.2f";
    std::vector<size_t> Shown;
    for (size_t I = 0; I != R.Methods.size(); ++I)
      if (R.Methods[I] != Method::Base) {
        Shown.push_back(I);
        C.Series.push_back(methodName(R.Methods[I]).str());
      }
    for (const Workload &W : R.Workloads) {
      svg::BarGroup G;
      G.Label = W.Name;
      for (size_t I : Shown)
        G.Values.push_back(orNaN(W.Table.Normalized[I][unsigned(M)]));
      C.Groups.push_back(std::move(G));
    }
    Out.push_back({("normalized-" + metricKey(M) + ".svg").str(),
                   draw(C, svg::writeBarChart)});
  }
}

static void ablationCharts(const BenchReport &R, std::vector<ChartFile> &Out) {
  {
    svg::BarChart C;
    C.Title = "Peak " + R.Target.peakTierNames() +
              " after stage 1 per priority weighting";
    C.Subtitle = "normalized to the input order's peak (figure 7)";
    C.YLabel = "peak " + R.Target.peakTierNames() + " / input order";
    C.ReferenceLine = NAN;
    for (MPASWeights W : {MPASWeights::Balanced, MPASWeights::MemoryFirst,
                          MPASWeights::CriticalityFirst})
      C.Series.push_back(weightsName(W).str());
    for (const Ablation &A : R.Ablations) {
      svg::BarGroup G;
      G.Label = A.Name;
      for (const Ablation::Weighting &W : A.Weightings)
        G.Values.push_back(W.Error.empty() && A.Stage1Error.empty()
                               ? orNaN(normalized(W.Peak, A.InputPeak))
                               : NAN);
      C.Groups.push_back(std::move(G));
    }
    Out.push_back({"ablation-weights.svg", draw(C, svg::writeBarChart)});
  }
  {
    svg::BarChart C;
    C.Title = "Stage 2: cost-aware victims against LRU victims";
    C.Subtitle = "cost-aware / LRU, after stage 2 on DAN's stage-1 order "
                 "(table 4)";
    C.YLabel = "cost-aware / LRU";
    C.ReferenceLine = 1.0;
    C.ReferenceLabel = "LRU";
    for (Metric M : {Metric::Traffic, Metric::Spills, Metric::Makespan})
      C.Series.push_back(metricTitle(M, R.Target));
    for (const Ablation &A : R.Ablations) {
      svg::BarGroup G;
      G.Label = A.Name;
      for (Metric M : {Metric::Traffic, Metric::Spills, Metric::Makespan})
        G.Values.push_back(A.CostAware.ok() && A.LRU.ok()
                               ? orNaN(normalized(get(A.CostAware.Values, M),
                                                  get(A.LRU.Values, M)))
                               : NAN);
      C.Groups.push_back(std::move(G));
    }
    Out.push_back({"ablation-eviction.svg", draw(C, svg::writeBarChart)});
  }
  {
    svg::BarChart C;
    C.Title = "Makespan of Ignore, Freeze and CPE";
    C.Subtitle = "normalized to Freeze, the stage-2 plan (table 5 and the "
                 "review's diagnostic)";
    C.YLabel = "makespan / Freeze";
    C.ReferenceLine = 1.0;
    C.ReferenceLabel = "Freeze";
    C.ValueFormat = "%.3f";
    C.Series = {"Ignore (claimed)", "Ignore (real)", "CPE"};
    for (const Ablation &A : R.Ablations) {
      svg::BarGroup G;
      G.Label = A.Name;
      bool OK = A.Stage3Error.empty();
      for (uint64_t V : {A.IgnoreClaimed, A.IgnoreReal, A.CPEMakespan})
        G.Values.push_back(OK ? orNaN(normalized(V, A.FreezeMakespan)) : NAN);
      C.Groups.push_back(std::move(G));
    }
    Out.push_back(
        {"ablation-ignore-freeze-cpe.svg", draw(C, svg::writeBarChart)});
  }
}

static void sweepCharts(const BenchReport &R, std::vector<ChartFile> &Out) {
  const SweepResult &S = *R.Sweep;
  svg::HeatMap H;
  H.Title = "Ranking stability: Kendall tau-b against the default setting";
  H.Subtitle = "mean over the graphs; 1 = the same ranking of the methods";
  H.RowLabel = "setting";
  H.ColLabel = "metric";
  for (Metric M : allMetrics())
    H.Cols.push_back(metricTitle(M, R.Target));
  for (size_t Si = 0; Si != S.Settings.size(); ++Si) {
    H.Rows.push_back(S.Settings[Si].Label);
    std::vector<double> Row;
    for (unsigned K = 0; K != NumMetrics; ++K)
      Row.push_back(orNaN(S.MeanTau[Si][K]));
    H.Values.push_back(std::move(Row));
  }
  Out.push_back({"sweep-tau.svg", draw(H, svg::writeHeatMap)});

  if (!is_contained(R.Methods, Method::DAN))
    return;
  svg::HeatMap F;
  F.Title = "Share of graphs where DAN ranks first (ties included)";
  F.Subtitle = "per setting and metric";
  F.RowLabel = "setting";
  F.ColLabel = "metric";
  F.Cols = H.Cols;
  F.Rows = H.Rows;
  for (size_t Si = 0; Si != S.Settings.size(); ++Si) {
    std::vector<double> Row;
    for (unsigned K = 0; K != NumMetrics; ++K)
      Row.push_back(S.DANRanked[Si][K]
                        ? double(S.DANFirst[Si][K]) / double(S.DANRanked[Si][K])
                        : NAN);
    F.Values.push_back(std::move(Row));
  }
  Out.push_back({"sweep-dan-first.svg", draw(F, svg::writeHeatMap)});
}

static void planCharts(const BenchReport &R, std::vector<ChartFile> &Out) {
  for (size_t Wi = 0; Wi != R.Workloads.size(); ++Wi) {
    const Workload &W = R.Workloads[Wi];
    const Cell *C = W.cell(Method::DAN);
    if (!C || !C->Plan)
      continue;
    auto Draw = [&](const Graph &G, const ReplayResult &RR, auto Writer) {
      std::string S;
      raw_string_ostream OS(S);
      Writer(G, RR, R.Target, OS);
      OS.flush();
      return S;
    };
    ReplayResult RR = replay(*C->Plan, R.Target);
    Out.push_back(
        {W.Name + "-occupancy.svg", Draw(*C->Plan, RR, svg::writeOccupancy)});
    Out.push_back(
        {W.Name + "-pipes.svg", Draw(*C->Plan, RR, svg::writePipeTimeline)});
    if (Wi < R.Ablations.size() && R.Ablations[Wi].Stage2Plan) {
      const Graph &Before = *R.Ablations[Wi].Stage2Plan;
      Out.push_back(
          {W.Name + "-pipes-before-cpe.svg",
           Draw(Before, replay(Before, R.Target), svg::writePipeTimeline)});
    }
  }
}

std::vector<ChartFile> drawCharts(const BenchReport &R) {
  std::vector<ChartFile> Out;
  normalizedCharts(R, Out);
  if (!R.Ablations.empty())
    ablationCharts(R, Out);
  if (R.Sweep)
    sweepCharts(R, Out);
  planCharts(R, Out);
  return Out;
}

std::vector<std::pair<std::string, std::string>>
chartFiles(const BenchReport &R, StringRef Dir) {
  std::vector<std::pair<std::string, std::string>> Files;
  for (ChartFile &F : drawCharts(R)) {
    SmallString<128> Path(Dir);
    sys::path::append(Path, F.Name);
    Files.emplace_back(std::string(Path), std::move(F.SVG));
  }
  return Files;
}

} // namespace dan::bench
