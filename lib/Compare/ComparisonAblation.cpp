//===- ComparisonAblation.cpp - dan-bench's stage ablations ---------------===//
//
// The stage ablations of one graph (tables 3 to 5, figure 7, the review's
// Ignore / Freeze / CPE), each from DAN's default options with one thing
// changed. docs/CommandGuide/dan-bench.md defines every figure.
//
//===----------------------------------------------------------------------===//

#include "ComparisonRuns.h"
#include "dan/Select/Select.h"
#include "dan/Transforms/CPE.h"
#include "dan/Transforms/DLR.h"

using namespace llvm;

namespace dan::bench {

Ablation runAblation(const Graph &G, const TargetDesc &T, Reporter &Rep,
                     bool KeepPlans) {
  Ablation A;
  A.Name = G.Name;
  auto Err = [](Error E) { return firstLine(std::move(E)); };

  // Table 3 and figure 7: stage 1 alone.
  Graph S1 = G;
  Rep.step(G.Name, "ablation: stage 1 (MPAS)", [&]() -> std::string {
    A.InputPeak = replay(G, T).PeakL1UB;
    Expected<MPASStats> S = selectMPAS(S1, T, MPASOptions());
    if (!S)
      return A.Stage1Error = Err(S.takeError());
    A.MPASPeak = replay(S1, T).PeakL1UB;
    A.AutoChosen = S->Chosen;
    return "";
  });
  for (MPASWeights W : {MPASWeights::Balanced, MPASWeights::MemoryFirst,
                        MPASWeights::CriticalityFirst}) {
    Ablation::Weighting R;
    R.W = W;
    std::string What = ("ablation: MPAS --weights=" + weightsName(W)).str();
    Rep.step(G.Name, What, [&]() -> std::string {
      Graph Copy = G;
      MPASOptions Opts;
      Opts.Weights = W;
      Expected<MPASStats> S = selectMPAS(Copy, T, Opts);
      if (!S)
        return R.Error = Err(S.takeError());
      R.Peak = replay(Copy, T).PeakL1UB;
      return "";
    });
    A.Weightings.push_back(std::move(R));
  }

  // Table 4: stage 2's victims, on the stage-1 order.
  Graph S2 = S1;
  for (bool LRU : {false, true}) {
    Measurement &M = LRU ? A.LRU : A.CostAware;
    Rep.step(G.Name, LRU ? "ablation: DLR --evict=lru" : "ablation: DLR",
             [&]() -> std::string {
               if (!A.Stage1Error.empty())
                 return M.Error = "stage 1 failed";
               Graph Copy = S1;
               DLROptions Opts; // dan-dlr's defaults, the victim rule apart
               if (LRU)
                 Opts.Evict = EvictPolicy::LRU;
               Expected<DLRStats> S = selectDLR(Copy, T, Opts);
               if (!S)
                 return M.Error = Err(S.takeError());
               M = measure(Copy, T);
               if (!LRU)
                 S2 = std::move(Copy);
               return M.Error;
             });
  }

  // Table 5 and Ignore / Freeze / CPE, on the cost-aware stage-2 plan.
  Rep.step(G.Name, "ablation: CPE, freeze, ignore", [&]() -> std::string {
    if (!A.CostAware.ok())
      return A.Stage3Error = "stage 2 failed";
    A.FreezeMakespan = get(A.CostAware.Values, Metric::Makespan);
    Graph Refined = S2;
    Expected<CPEStats> R = runCPE(Refined, T, CPEOptions());
    if (!R)
      return A.Stage3Error = Err(R.takeError());
    Measurement MR = measure(Refined, T, &S2);
    A.CPEVerify = MR.Error;
    A.CPEMakespan = R->MakespanAfter;
    Graph Ignored = S2;
    CPEOptions IO;
    IO.Mode = CPEMode::Ignore;
    Expected<CPEStats> I = runCPE(Ignored, T, IO);
    if (!I)
      return A.Stage3Error = Err(I.takeError());
    Measurement MI = measure(Ignored, T, &S2);
    A.IgnoreVerify = MI.Error;
    A.ReuseEdges = I->ReuseEdges;
    A.IgnoreClaimed = I->IgnoreMakespanAfter;
    A.IgnoreReal = I->MakespanAfter;
    A.IgnoreViolations = I->Violations;
    if (MR.ok())
      A.CPEMakespan = get(MR.Values, Metric::Makespan);
    if (MI.ok())
      A.IgnoreReal = get(MI.Values, Metric::Makespan);
    if (KeepPlans)
      A.Stage2Plan = std::make_unique<Graph>(S2);
    return !A.CPEVerify.empty() ? A.CPEVerify : A.IgnoreVerify;
  });
  return A;
}

unsigned ablationFailures(const Ablation &A) {
  unsigned N = !A.Stage1Error.empty() + !A.CostAware.ok() + !A.LRU.ok() +
               !A.Stage3Error.empty() + !A.CPEVerify.empty() +
               !A.IgnoreVerify.empty();
  for (const Ablation::Weighting &W : A.Weightings)
    N += !W.Error.empty();
  return N;
}

} // namespace dan::bench
