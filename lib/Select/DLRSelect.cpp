//===- DLRSelect.cpp - dan-dlr's auto selections --------------------------===//
//
// --fit=auto and --horizon=auto: one plan per fit and horizon, each
// replayed, made concurrently; the lowest plan cost wins (docs/DLR.md).
//
//===----------------------------------------------------------------------===//

#include "Parallel.h"
#include "dan/Analysis/Replay.h"
#include "dan/IR/Components.h"
#include "dan/IR/Kernels.h"
#include "dan/Schedule/Order.h"
#include "dan/Select/Select.h"
#include "llvm/ADT/SmallVector.h"
#include <mutex>
#include <optional>
#include <tuple>

using namespace llvm;

namespace dan {

/// The selection on a graph of one part, or of parts planned together; \p G
/// passed checkPlannableInput already (planSegmented).
static Expected<DLRStats> selectWhole(Graph &G, const TargetDesc &T,
                                      const DLROptions &Opts,
                                      const SelectOptions &Select) {
  bool AutoFit = Opts.Fit == FitPolicy::Auto;
  if (!Opts.AutoHorizon && !AutoFit)
    return runDLR(G, T, Opts, /*InputChecked=*/true);
  SmallVector<FitPolicy, 3> Fits = {Opts.Fit};
  if (AutoFit)
    Fits = {FitPolicy::Timed, FitPolicy::Best, FitPolicy::Next};
  SmallVector<uint32_t, 4> Horizons = {Opts.Horizon};
  if (Opts.AutoHorizon)
    Horizons.assign(std::begin(AutoHorizons), std::end(AutoHorizons));
  // The ranking: the lowest planCost wins, then the least traffic, then
  // the lowest makespan, ties to the earlier plan; a strict order on
  // (key, index), so its least element does not depend on the order the
  // plans finish in.
  using Rank = std::tuple<uint64_t, uint64_t, uint64_t, size_t>;
  struct Plan {
    FitPolicy Fit;
    uint32_t Horizon;
    Expected<DLRStats> Stats = DLRStats();
    ReplayResult Measured;
  };
  std::vector<Plan> Plans;
  for (FitPolicy F : Fits)
    for (uint32_t H : Horizons)
      Plans.push_back({F, H, DLRStats(), ReplayResult()});
  // Only the best planned graph so far is kept (a graph per plan would hold
  // twelve copies of a large graph at once).
  std::mutex Lock;
  std::optional<Rank> BestRank;
  std::optional<Graph> BestGraph;
  runConcurrently(Select, Plans.size(), [&](size_t I) {
    Plan &P = Plans[I];
    DLROptions One = Opts;
    One.AutoHorizon = false;
    One.Horizon = P.Horizon;
    One.Fit = P.Fit;
    Graph Copy = copyForPlan(G);
    P.Stats = runDLR(Copy, T, One, /*InputChecked=*/true);
    if (!P.Stats)
      return;
    const ReplayResult &R = P.Measured = replay(Copy, T);
    Rank Key = {planCost(R, T), R.ExtraTraffic, R.Makespan, I};
    std::lock_guard<std::mutex> Guard(Lock);
    if (!BestRank || Key < *BestRank) {
      BestRank = Key;
      BestGraph = std::move(Copy);
    }
  });
  // Every plan's figures, in candidate order. When every plan fails, the
  // first error stands.
  SmallVector<DLRStats::HorizonTrial, 8> Tried;
  std::optional<size_t> FirstFailed;
  for (size_t I = 0; I != Plans.size(); ++I) {
    Plan &P = Plans[I];
    if (P.Stats)
      Tried.push_back({P.Fit, P.Horizon, P.Measured.ExtraTraffic,
                       P.Measured.Makespan, true});
    else {
      Tried.push_back({P.Fit, P.Horizon, 0, 0, false});
      if (!FirstFailed)
        FirstFailed = I;
    }
  }
  for (size_t I = 0; I != Plans.size(); ++I)
    if (!Plans[I].Stats && (BestRank || I != *FirstFailed))
      consumeError(Plans[I].Stats.takeError());
  if (!BestRank)
    return Plans[*FirstFailed].Stats.takeError();
  DLRStats S = std::move(*Plans[std::get<3>(*BestRank)].Stats);
  G = std::move(*BestGraph);
  S.HorizonTried = std::move(Tried);
  return S;
}

/// The sum of the parts' figures; the fit and horizon of the first part.
static DLRStats addPartStats(ArrayRef<PartResult<DLRStats>> Parts) {
  DLRStats All = Parts.front().Stats;
  All.HorizonTried.clear();
  for (const PartResult<DLRStats> &P : Parts.drop_front()) {
    const DLRStats &S = P.Stats;
    All.Spills += S.Spills;
    All.ExtraTraffic += S.ExtraTraffic;
    All.SpillCycles += S.SpillCycles;
    for (unsigned TI = 0; TI != MaxTiers; ++TI)
      All.Evictions[TI] += S.Evictions[TI];
    All.ReloadsBeforeFree += S.ReloadsBeforeFree;
    All.PinnedSpills += S.PinnedSpills;
  }
  All.Parts = Parts.size();
  All.AlikeParts = countRenamed(Parts);
  return All;
}

std::optional<ReplayResult> refineAndMeasure(Graph &G, const TargetDesc &T,
                                             const SelectOptions &Select) {
  SelectOptions Refine = Select;
  Refine.InputVerified = true; // A plan made here.
  Expected<CPEStats> S = selectCPE(G, T, CPEOptions(), Refine);
  if (!S) {
    consumeError(S.takeError());
    return std::nullopt;
  }
  return replay(G, T);
}

/// Whether the plan of the whole schedule, \p Whole, is kept over
/// \p Joined, the segments' plans joined (the floor): it beats the floor
/// (beatsFloor) as planned, and again once stage 3 refines both. Stage 3
/// never raises a makespan, but it may lower the floor's more than the
/// whole's, and the floor must hold after the pipe's last stage
/// (docs/Kernels.md, "The guarantee").
static bool keepsWholePlan(const Graph &Whole, const Graph &Joined,
                           const TargetDesc &T, const SelectOptions &Select) {
  if (!beatsFloor(replay(Whole, T), replay(Joined, T), T))
    return false;
  Graph WholeCopy = Whole, JoinedCopy = Joined;
  std::optional<ReplayResult> W = refineAndMeasure(WholeCopy, T, Select);
  std::optional<ReplayResult> F = refineAndMeasure(JoinedCopy, T, Select);
  return W && F && beatsFloor(*W, *F, T);
}

Expected<DLRStats> planSegmented(Graph &G, const TargetDesc &T,
                                 const SelectOptions &Select, PlanFn PlanOne) {
  // The input checks depend on the graph alone: once, for every plan. (A
  // verified graph may still carry a plan, cpe's result, which DLR cannot
  // take.)
  if (Error E = checkPlannableInput(G, T, Select.InputVerified))
    return E;
  KernelSplit K = splitKernels(G);
  std::vector<std::vector<NodeIdx>> Segments;
  if (K.NumKernels > 1)
    Segments = scheduleSegments(G, K);
  if (Segments.size() < 2)
    return PlanOne(G, /*Whole=*/true);
  // Kernels scheduled in turn: each segment is planned as it would be
  // alone, the segments at once, and the plans joined: no worse than
  // running the kernels in turn, each with its own plan (docs/Kernels.md).
  // The same schedule planned whole competes, up to the size at which a
  // selection samples: a plan of the whole may place a kernel's buffers
  // where the kernel before it frees bytes first.
  std::optional<Graph> Whole;
  std::optional<Expected<DLRStats>> WholeStats;
  if (!Select.SampleAbove || G.size() <= Select.SampleAbove) {
    Whole.emplace(copyForPlan(G));
    WholeStats.emplace(PlanOne(*Whole, /*Whole=*/true));
  }
  Expected<std::vector<PartResult<DLRStats>>> Planned =
      runOnParts<DLRStats>(G, Segments, Select, [&](Graph &Part) {
        return PlanOne(Part, /*Whole=*/false);
      });
  if (!Planned) {
    if (WholeStats && !*WholeStats)
      consumeError(WholeStats->takeError());
    return Planned.takeError();
  }
  joinPartResults<DLRStats>(G, *Planned);
  if (WholeStats && *WholeStats && keepsWholePlan(*Whole, G, T, Select)) {
    G = std::move(*Whole);
    return std::move(**WholeStats);
  }
  if (WholeStats && !*WholeStats)
    consumeError(WholeStats->takeError());
  return addPartStats(*Planned);
}

Expected<DLRStats> selectDLR(Graph &G, const TargetDesc &T,
                             const DLROptions &Opts,
                             const SelectOptions &Select) {
  SelectOptions Inner = insideJob(Select);
  return planSegmented(G, T, Select, [&](Graph &Part, bool Whole) {
    // The whole graph on the caller's threads; a segment, run beside
    // the others, on one.
    return selectWhole(Part, T, Opts, Whole ? Select : Inner);
  });
}

} // namespace dan
