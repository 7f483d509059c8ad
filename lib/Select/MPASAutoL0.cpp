//===- MPASAutoL0.cpp - --l0=auto: each order planned and ranked ----------===//
//
// Default dan-dlr plans each distinct order of the candidates, the replay
// measures it, and the lowest plan cost wins (docs/MPAS.md, "L0 modes");
// the best placed orders are also planned without the placement step.
//
//===----------------------------------------------------------------------===//

#include "MPASSelect.h"
#include "Parallel.h"
#include "dan/Analysis/Replay.h"
#include "dan/IR/Components.h"
#include "dan/Schedule/Order.h"
#include "dan/Support/Timing.h"
#include "llvm/ADT/STLExtras.h"
#include <atomic>
#include <memory>
#include <numeric>

using namespace llvm;

namespace dan::mpas_select {

namespace {

/// How many of the best candidates --l0=auto also plans without the
/// placement step.
constexpr size_t UnplacedTries = 2;

/// The weighting a run ordered with (Balanced for the orders that use
/// none).
MPASWeights chosenWeights(const MPASStats &S) {
  return S.Chosen && *S.Chosen != MPASWeights::Auto ? *S.Chosen
                                                    : MPASWeights::Balanced;
}

PlanResult planAndMeasure(const Graph &G, const TargetDesc &T,
                          ArrayRef<NodeIdx> Order, bool InputChecked) {
  Graph Copy = copyForPlan(G);
  Copy.Order.assign(Order.begin(), Order.end());
  Expected<DLRStats> D =
      runDLR(Copy, T, DLROptions::oneSetting(), InputChecked);
  if (!D) {
    consumeError(D.takeError());
    return {};
  }
  ReplayResult R = replay(Copy, T);
  return {true, R.ExtraTraffic, R.Makespan, planCost(R, T)};
}

/// Drops the candidates that could not order the graph (the orders of
/// whole operations need a legal input order, the list scheduler does
/// not), with their runs; when none could, the first one's error.
Error dropUnordered(SmallVectorImpl<OrderCandidate> &Cands,
                    std::vector<Ordered> &Runs) {
  if (!Runs.empty() &&
      llvm::none_of(Runs, [](Ordered &R) { return bool(R.Stats); })) {
    for (size_t D = 1; D < Runs.size(); ++D)
      consumeError(Runs[D].Stats.takeError());
    return Runs.front().Stats.takeError();
  }
  SmallVector<OrderCandidate, 9> KeptCands;
  std::vector<Ordered> Kept;
  for (size_t C = 0; C != Runs.size(); ++C) {
    if (!Runs[C].Stats) {
      consumeError(Runs[C].Stats.takeError());
      continue;
    }
    KeptCands.push_back(Cands[C]);
    Kept.push_back(std::move(Runs[C]));
  }
  Cands.assign(KeptCands.begin(), KeptCands.end());
  Runs = std::move(Kept);
  return Error::success();
}

/// Later loads can lengthen a plan's makespan or add traffic: the orders of
/// the best UnplacedTries candidates of \p Runs (planned as \p P) are also
/// planned without the placement step, each recorded in \p Tried and kept
/// (in \p Runs, with \p BestC and \p BestKey) if it ranks strictly better
/// than all before it (not every candidate's: each plan is the selection's
/// main cost, and the unplaced orders of the lower-ranked candidates have
/// not won on the workloads; Conv_Case0's winner is the second placed
/// one's unplaced).
void tryUnplaced(const Graph &G, const TargetDesc &T,
                 ArrayRef<OrderCandidate> Cands, std::vector<Ordered> &Runs,
                 const PlannedOrders &P, bool Timed, JobRunner &Runner,
                 SmallVectorImpl<MPASStats::L0Trial> &Tried, size_t &BestC,
                 RankKey &BestKey) {
  PhaseTimer Timer("mpas-unplaced", "dan-mpas: planning the best unplaced",
                   Timed);
  std::vector<size_t> Ranked(P.Unique.begin(), P.Unique.end());
  llvm::stable_sort(Ranked, [&](size_t A, size_t B) {
    return rankKey(P.Plans[P.PlanOf[A]], Runs[A].Stats->PeakL1UB) <
           rankKey(P.Plans[P.PlanOf[B]], Runs[B].Stats->PeakL1UB);
  });
  Ranked.resize(std::min<size_t>(Ranked.size(), UnplacedTries));
  std::vector<Ordered> Unplaced(Ranked.size());
  std::vector<PlanResult> UnplacedPlans(Ranked.size());
  // Each is the candidate's order before its placement step, which is what
  // the same setting makes without it.
  for (size_t K = 0; K != Ranked.size(); ++K) {
    Ordered &Placed = Runs[Ranked[K]];
    Unplaced[K].Order = std::move(Placed.Unplaced);
    MPASStats S = withoutPlacement(*Placed.Stats);
    S.Tried.clear();
    Unplaced[K].Stats = std::move(S);
  }
  // (Compared once, in the jobs: an order the placement left as it was
  // needs no plan of its own.)
  std::vector<char> Differs(Ranked.size(), 0);
  Runner.run(Ranked.size(), [&](size_t K) {
    Differs[K] = Unplaced[K].Order != Runs[Ranked[K]].Order;
    if (Differs[K])
      UnplacedPlans[K] = planAndMeasure(G, T, Unplaced[K].Order, true);
  });
  for (size_t K = 0; K != Ranked.size(); ++K) {
    if (!Unplaced[K].Stats) {
      consumeError(Unplaced[K].Stats.takeError());
      continue;
    }
    size_t C = Ranked[K];
    if (!Differs[K])
      continue;
    const PlanResult &Plan = UnplacedPlans[K];
    MPASStats &S = *Unplaced[K].Stats;
    Tried.push_back(trialOf(Cands[C], Plan, S));
    RankKey Key = rankKey(Plan, S.PeakL1UB);
    if (Key < BestKey) {
      BestKey = Key;
      BestC = C;
      S.Tried = std::move(Runs[C].Stats->Tried);
      Runs[C] = std::move(Unplaced[K]);
    }
  }
}

} // namespace

/// What --stats reports of candidate setting \p C, ordered with \p S and
/// planned as \p P.
MPASStats::L0Trial trialOf(const OrderCandidate &C, const PlanResult &P,
                           const MPASStats &S) {
  return {C.Mode,     C.Order, C.Group,  P.Traffic,       P.Makespan,
          S.PeakL1UB, P.Ok,    S.Placed, chosenWeights(S)};
}

/// \p S of a placed order as the figures of the order before its placement
/// step.
MPASStats withoutPlacement(MPASStats S) {
  S.PeakL1UB = S.UnplacedPeakL1UB;
  S.Placed = false;
  S.UnplacedPeakL1UB = 0;
  return S;
}

/// Default dan-dlr's plan of each distinct order of \p Orders, made
/// concurrently and measured by the replay; an order equal to an earlier
/// one shares its plan. With a single distinct order nothing is planned
/// unless \p MeasureSole (the plan cannot change a choice). Timed as phase
/// \p Phase when \p Timed.
PlannedOrders planOrders(Graph &G, const TargetDesc &T,
                         ArrayRef<std::vector<NodeIdx> *> Orders,
                         bool MeasureSole, bool Timed, StringRef Phase,
                         StringRef PhaseDesc, JobRunner &Runner) {
  PlannedOrders P;
  P.PlanOf.resize(Orders.size());
  for (size_t C = 0; C != Orders.size(); ++C) {
    auto Same = llvm::find_if(
        P.Unique, [&](size_t U) { return *Orders[U] == *Orders[C]; });
    P.PlanOf[C] = Same - P.Unique.begin();
    if (Same == P.Unique.end())
      P.Unique.push_back(C);
  }
  P.Plans.resize(P.Unique.size());
  if (P.Unique.size() < 2 && !MeasureSole)
    return P;
  if (P.Unique.size() > 1) {
    // The graph under the first order, without copying it.
    std::swap(G.Order, *Orders[P.Unique[0]]);
    Error E = checkPlannableInput(G, T);
    std::swap(G.Order, *Orders[P.Unique[0]]);
    P.InputChecked = !E;
    consumeError(std::move(E));
  }
  PhaseTimer Timer(Phase, PhaseDesc, Timed);
  Runner.run(P.Unique.size(), [&](size_t U) {
    P.Plans[U] = planAndMeasure(G, T, *Orders[P.Unique[U]], P.InputChecked);
  });
  return P;
}

/// --l0=auto: a bounded candidate selection across the stage boundary. Each
/// candidate (an order and an L0 mode, orderCandidates) orders the graph;
/// dan-dlr under one setting (DLROptions::oneSetting()) plans each distinct
/// order on a copy and the replay measures it; the lowest planCost (makespan
/// plus beta cycles per byte of extra traffic) wins, then the least traffic,
/// the lower makespan and the lower peak, ties to the earlier candidate. Orders
/// whose plan fails are kept only if every plan fails. Candidates often reach
/// the same order (both L0 modes on a reuse grid), and a plan depends on the
/// order alone, so it is made once.
Expected<MPASStats> autoL0(Graph &G, const TargetDesc &T,
                           const MPASOptions &Opts,
                           const std::optional<TaskOrder> &Tasks,
                           const SelectOptions &Select, JobRunner &Runner,
                           const MPASGraphInfo *Info) {
  SmallVector<OrderCandidate, 9> Cands = orderCandidates(Opts, Tasks);
  std::vector<Ordered> Runs =
      orderAll(G, T, Opts, Cands, Tasks, Runner, Select.TimePhases, Info,
               /*KeepUnplaced=*/true);
  if (Error E = dropUnordered(Cands, Runs))
    return E;
  std::vector<std::vector<NodeIdx> *> Orders;
  for (Ordered &R : Runs)
    Orders.push_back(&R.Order);
  PlannedOrders P =
      planOrders(G, T, Orders, Select.MeasureSoleOrder, Select.TimePhases,
                 "mpas-plan", "dan-mpas: planning the candidates", Runner);
  std::vector<size_t> &PlanOf = P.PlanOf;
  std::vector<PlanResult> &Plans = P.Plans;
  bool InputChecked = P.InputChecked;
  MPASStats Best;
  size_t BestC = 0;
  RankKey BestKey;
  for (size_t C = 0; C != Runs.size(); ++C) {
    const PlanResult &P = Plans[PlanOf[C]];
    MPASStats &S = *Runs[C].Stats;
    Best.L0Tried.push_back(trialOf(Cands[C], P, S));
    RankKey Key = rankKey(P, S.PeakL1UB);
    // (An empty order, of a graph without nodes, gives way to the next.)
    if (C == 0 || Runs[BestC].Order.empty() || Key < BestKey) {
      BestKey = Key;
      BestC = C;
    }
  }
  if (Plans.size() > 1 && InputChecked && Runs[BestC].Stats->Placed)
    tryUnplaced(G, T, Cands, Runs, P, Select.TimePhases, Runner, Best.L0Tried,
                BestC, BestKey);
  SmallVector<MPASStats::L0Trial, 9> Tried = std::move(Best.L0Tried);
  Best = std::move(*Runs[BestC].Stats);
  Best.L0Tried = std::move(Tried);
  Best.L0Chosen = Cands[BestC].Mode;
  Best.OrderChosen = Cands[BestC].Order;
  Best.GroupChosen = Cands[BestC].Group;
  Best.Tasks.reset();
  G.Order = std::move(Runs[BestC].Order);
  return Best;
}

} // namespace dan::mpas_select
