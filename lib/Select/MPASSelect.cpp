//===- MPASSelect.cpp - dan-mpas's auto selections ------------------------===//
//
// --weights=auto orders under each weighting and keeps the lowest peak;
// --l0=auto (with --order=auto) orders under each candidate of
// mpasCandidates, has default dan-dlr plan each distinct order and the
// replay measure it, and keeps the lowest plan cost (docs/MPAS.md). Both
// run their candidates concurrently: first every order, then every plan.
//
//===----------------------------------------------------------------------===//

#include "Parallel.h"
#include "dan/Analysis/Replay.h"
#include "dan/IR/Components.h"
#include "dan/Schedule/Order.h"
#include "dan/Schedule/TaskOrder.h"
#include "dan/Select/JobRunner.h"
#include "dan/Select/Select.h"
#include "dan/Support/Timing.h"
#include "llvm/ADT/STLExtras.h"
#include "llvm/ADT/SmallVector.h"
#include <atomic>
#include <memory>
#include <numeric>
#include <optional>
#include <tuple>

using namespace llvm;

namespace dan {

namespace {

/// One setting of stage 1 that a selection tries.
struct OrderCandidate {
  Traversal Order;
  L0Mode Mode;
  /// Traversal::Groups: tasks per group, 0 for all of them.
  unsigned Group = 0;
  /// Whether the placement step ends the order.
  bool Place = true;
  /// The weighting to order with; Auto: as the options say.
  MPASWeights Weights = MPASWeights::Auto;
};

/// How many of the best candidates --l0=auto also plans without the
/// placement step.
constexpr size_t UnplacedTries = 2;

/// The group sizes --order=auto tries, in tie-break order (0: all tasks).
constexpr unsigned AutoGroups[] = {1, 2, 4, 0};

/// The weightings --weights=auto tries, in tie-break order (the paper's
/// balanced weights first).
constexpr MPASWeights AutoWeights[] = {
    MPASWeights::Balanced, MPASWeights::MemoryFirst,
    MPASWeights::CriticalityFirst, MPASWeights::InputOrder};

/// The candidates --l0=auto tries, in tie-break order.
SmallVector<OrderCandidate, 9>
orderCandidates(const MPASOptions &Opts,
                const std::optional<TaskOrder> &Tasks) {
  SmallVector<OrderCandidate, 9> List;
  auto BothModes = [&](Traversal O) {
    List.push_back({O, L0Mode::Capacity});
    List.push_back({O, L0Mode::Single});
  };
  switch (Opts.Order) {
  case Traversal::Free:
    BothModes(Traversal::Free);
    break;
  case Traversal::Tasks:
    BothModes(Tasks ? Traversal::Tasks : Traversal::Free);
    break;
  case Traversal::Window:
    List.push_back({Traversal::Window, L0Mode::Capacity});
    break;
  case Traversal::Staged:
    BothModes(Traversal::Staged);
    break;
  case Traversal::Groups:
    if (Tasks)
      List.push_back({Traversal::Groups, L0Mode::Capacity, Opts.Group});
    else
      BothModes(Traversal::Free);
    break;
  case Traversal::Auto:
    // On a reuse grid the blocked order is built to minimize reloads; the
    // others only cost time there (Matmul_Case1: four more plans).
    if (Tasks && Tasks->IsGrid) {
      BothModes(Traversal::Tasks);
      break;
    }
    BothModes(Traversal::Free);
    if (Tasks)
      BothModes(Traversal::Tasks);
    List.push_back({Traversal::Window, L0Mode::Capacity});
    if (Tasks)
      for (unsigned Group : AutoGroups)
        List.push_back({Traversal::Groups, L0Mode::Capacity, Group});
    break;
  }
  for (OrderCandidate &C : List)
    C.Place = Opts.Place;
  return List;
}

/// The options that order under candidate \p C with weights \p W.
MPASOptions settingOf(const MPASOptions &Opts, const OrderCandidate &C,
                      MPASWeights W) {
  MPASOptions One = Opts;
  One.L0 = C.Mode;
  One.Order = C.Order;
  One.Group = C.Group;
  One.Place = C.Place;
  One.Weights = W;
  return One;
}

/// One run of stage 1 under one setting: its order and statistics.
struct Ordered {
  std::vector<NodeIdx> Order;
  /// When asked for: the order before the placement step (orderMPAS).
  std::vector<NodeIdx> Unplaced;
  Expected<MPASStats> Stats = MPASStats();
};

/// The weightings one candidate is ordered with: --weights=auto tries the
/// three on the list scheduler alone; under a task order the task rank
/// comes first and the weights only order nodes inside a task, where the
/// variants reach the same peak on every graph tried, so auto runs the
/// paper's balanced weights alone there (the window and groups orders use
/// no weights).
SmallVector<MPASWeights, 4> weightings(MPASWeights W, Traversal O) {
  if (W != MPASWeights::Auto)
    return {W};
  if (O != Traversal::Free)
    return {MPASWeights::Balanced};
  return SmallVector<MPASWeights, 4>(std::begin(AutoWeights),
                                     std::end(AutoWeights));
}

/// One order job of orderAll: a candidate under one weighting.
struct OrderJob {
  size_t Cand;
  MPASWeights W;
  /// For a list-scheduler job under L0Mode::Single, the job of the same
  /// setting under L0Mode::Capacity, if there is one (else SIZE_MAX).
  size_t Twin = SIZE_MAX;
};

/// The jobs of \p Cands, each candidate's weightings in turn, with their
/// twins.
std::vector<OrderJob> orderJobs(const MPASOptions &Opts,
                                ArrayRef<OrderCandidate> Cands,
                                const std::optional<TaskOrder> &Tasks) {
  std::vector<OrderJob> Jobs;
  std::vector<Traversal> Effective(Cands.size());
  for (size_t C = 0; C != Cands.size(); ++C) {
    // orderMPAS takes Tasks and Groups as Free when there are no tasks.
    Traversal O = Cands[C].Order;
    if ((O == Traversal::Tasks || O == Traversal::Groups) && !Tasks)
      O = Traversal::Free;
    Effective[C] = O;
    MPASWeights Asked =
        Cands[C].Weights != MPASWeights::Auto ? Cands[C].Weights : Opts.Weights;
    for (MPASWeights W : weightings(Asked, O))
      Jobs.push_back({C, W});
  }
  for (OrderJob &J : Jobs) {
    const OrderCandidate &C = Cands[J.Cand];
    Traversal O = Effective[J.Cand];
    if (C.Mode != L0Mode::Single ||
        (O != Traversal::Free && O != Traversal::Tasks))
      continue;
    for (size_t K = 0; K != Jobs.size(); ++K) {
      const OrderCandidate &D = Cands[Jobs[K].Cand];
      if (D.Mode == L0Mode::Capacity && Effective[Jobs[K].Cand] == O &&
          Jobs[K].W == J.W && D.Place == C.Place) {
        J.Twin = K;
        break;
      }
    }
  }
  return Jobs;
}

/// Per candidate, of its jobs' runs \p Runs: the first failure, else the
/// weighting of the lowest peak (ties to the earlier; an empty order, of a
/// graph without nodes, gives way to the next), with the peaks of all in
/// MPASStats::Tried when there were several.
std::vector<Ordered> keepBestWeighting(ArrayRef<OrderJob> Jobs,
                                       std::vector<Ordered> &Runs,
                                       size_t Cands) {
  std::vector<Ordered> Best(Cands);
  for (size_t J = 0, K; J != Jobs.size(); J = K) {
    for (K = J; K != Jobs.size() && Jobs[K].Cand == Jobs[J].Cand;)
      ++K;
    SmallVector<std::pair<MPASWeights, uint64_t>, 4> Tried;
    size_t Kept = K;
    for (size_t I = J; I != K; ++I) {
      if (!Runs[I].Stats) {
        Kept = I;
        break;
      }
      Tried.push_back({Jobs[I].W, Runs[I].Stats->PeakL1UB});
      if (Kept == K || Runs[Kept].Order.empty() ||
          Runs[I].Stats->PeakL1UB < Runs[Kept].Stats->PeakL1UB)
        Kept = I;
    }
    for (size_t I = J; I != K; ++I)
      if (I != Kept && !Runs[I].Stats)
        consumeError(Runs[I].Stats.takeError());
    Ordered &Out = Best[Jobs[J].Cand];
    Out = std::move(Runs[Kept]);
    if (Out.Stats && K - J > 1)
      Out.Stats->Tried = std::move(Tried);
  }
  return Best;
}

/// The orders of \p G under each candidate and each of its weightings
/// (orderMPAS: the jobs share the graph and \p Info, when the caller made
/// it), made concurrently; then keepBestWeighting.
std::vector<Ordered>
orderAll(const Graph &G, const TargetDesc &T, const MPASOptions &Opts,
         ArrayRef<OrderCandidate> Cands, const std::optional<TaskOrder> &Tasks,
         JobRunner &Runner, bool Timed, const MPASGraphInfo *Info,
         bool KeepUnplaced = false) {
  std::vector<OrderJob> Jobs = orderJobs(Opts, Cands, Tasks);
  // The orders of whole operations check their input graph, the same for
  // each of them: once is enough when it passes (when it fails, each
  // candidate reports it as before).
  bool OpOrderInputChecked = false;
  if (llvm::count_if(Cands, [&](const OrderCandidate &C) {
        return C.Order == Traversal::Window || C.Order == Traversal::Staged ||
               (C.Order == Traversal::Groups && Tasks);
      }) > 1) {
    Error E = checkOrderInput(G, T);
    OpOrderInputChecked = !E;
    consumeError(std::move(E));
  }
  std::vector<Ordered> Runs(Jobs.size());
  std::optional<PhaseTimer> Timer;
  if (Timed)
    Timer.emplace("mpas-order", "dan-mpas: ordering the candidates");
  // The jobs without a twin first, then those under Single that have one,
  // all in one batch. A job under Single whose twin under Capacity has
  // finished and made every L0 test as Single would takes the twin's order
  // (MPASStats::SameUnderSingle); otherwise, its twin unfinished (a thread
  // was free) or different, it runs. Either way its result is the same.
  // The window search, the slowest candidate by far on large graphs, starts
  // first, so that the other threads share out the rest meanwhile.
  SmallVector<size_t, 16> Sequence;
  for (size_t J = 0; J != Jobs.size(); ++J)
    if (Cands[Jobs[J].Cand].Order == Traversal::Window)
      Sequence.push_back(J);
  for (size_t J = 0; J != Jobs.size(); ++J)
    if (Jobs[J].Twin == SIZE_MAX &&
        Cands[Jobs[J].Cand].Order != Traversal::Window)
      Sequence.push_back(J);
  for (size_t J = 0; J != Jobs.size(); ++J)
    if (Jobs[J].Twin != SIZE_MAX)
      Sequence.push_back(J);
  std::unique_ptr<std::atomic<bool>[]> Finished(
      new std::atomic<bool>[Jobs.size()]);
  for (size_t J = 0; J != Jobs.size(); ++J)
    Finished[J].store(false, std::memory_order_relaxed);
  Runner.run(Sequence.size(), [&](size_t K) {
    size_t J = Sequence[K];
    size_t Twin = Jobs[J].Twin;
    if (Twin != SIZE_MAX && Finished[Twin].load(std::memory_order_acquire) &&
        Runs[Twin].Stats && Runs[Twin].Stats->SameUnderSingle) {
      Runs[J].Order = Runs[Twin].Order;
      Runs[J].Unplaced = Runs[Twin].Unplaced;
      Runs[J].Stats = *Runs[Twin].Stats;
      Runs[J].Stats->L0Chosen = L0Mode::Single;
      Runs[J].Stats->SameUnderSingle = false;
      return;
    }
    MPASOptions One = settingOf(Opts, Cands[Jobs[J].Cand], Jobs[J].W);
    One.OpOrderInputChecked = OpOrderInputChecked;
    Runs[J].Stats = orderMPAS(G, T, One, Runs[J].Order, &Tasks,
                              KeepUnplaced ? &Runs[J].Unplaced : nullptr, Info);
    Finished[J].store(true, std::memory_order_release);
  });
  return keepBestWeighting(Jobs, Runs, Cands.size());
}

/// The weighting a run ordered with (Balanced for the orders that use
/// none).
MPASWeights chosenWeights(const MPASStats &S) {
  return S.Chosen && *S.Chosen != MPASWeights::Auto ? *S.Chosen
                                                    : MPASWeights::Balanced;
}

/// What default dan-dlr's plan of one order measured.
struct PlanResult {
  bool Ok = false;
  uint64_t Traffic = 0, Makespan = 0, Cost = 0;
};

PlanResult planAndMeasure(const Graph &G, const TargetDesc &T,
                          ArrayRef<NodeIdx> Order, bool InputChecked) {
  Graph Copy = copyForPlan(G);
  Copy.Order.assign(Order.begin(), Order.end());
  Expected<DLRStats> D = runDLR(Copy, T, DLROptions(), InputChecked);
  if (!D) {
    consumeError(D.takeError());
    return {};
  }
  ReplayResult R = replay(Copy, T);
  return {true, R.ExtraTraffic, R.Makespan, planCost(R, T)};
}

/// How the selections rank a candidate: by plan cost, then the least
/// traffic, the lower makespan and the lower peak; a failed plan after
/// every successful one.
using RankKey = std::tuple<bool, uint64_t, uint64_t, uint64_t, uint64_t>;
RankKey rankKey(const PlanResult &P, uint64_t PeakL1UB) {
  return {!P.Ok, P.Cost, P.Traffic, P.Makespan, PeakL1UB};
}

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

/// The plans of a list of orders (planOrders).
struct PlannedOrders {
  /// Per order: its plan in Plans.
  std::vector<size_t> PlanOf;
  /// Per plan: the first order it is the plan of.
  std::vector<size_t> Unique;
  std::vector<PlanResult> Plans;
  /// Whether dan-dlr's input checks passed (they pass for every order made
  /// here once they pass for one).
  bool InputChecked = false;
};

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
  std::optional<PhaseTimer> Timer;
  if (Timed)
    Timer.emplace(Phase, PhaseDesc);
  Runner.run(P.Unique.size(), [&](size_t U) {
    P.Plans[U] = planAndMeasure(G, T, *Orders[P.Unique[U]], P.InputChecked);
  });
  return P;
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
  std::optional<PhaseTimer> Timer;
  if (Timed)
    Timer.emplace("mpas-unplaced", "dan-mpas: planning the best unplaced");
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

/// --l0=auto: a bounded candidate selection across the stage boundary. Each
/// candidate (an order and an L0 mode, orderCandidates) orders the graph;
/// default dan-dlr plans each distinct order on a copy and the replay
/// measures it; the lowest
/// planCost (makespan plus beta cycles per byte of extra traffic) wins, then
/// the least traffic, the lower makespan and the lower peak, ties to the
/// earlier candidate. Orders whose plan fails are kept only if every plan
/// fails. Candidates often reach the same order (both L0 modes on a reuse
/// grid), and a plan depends on the order alone, so it is made once.
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

/// The fewest tasks a sample holds: two groups of the largest group size
/// --order=auto tries (4), and more than "all" of them.
constexpr unsigned MinSampleTasks = 8;

/// How many of the settings a sample ranks first order and plan the whole
/// graph.
constexpr size_t SampledBest = 2;

/// A trial's figures as a plan result.
PlanResult resultOf(const MPASStats::L0Trial &Trial, const TargetDesc &T) {
  ReplayResult R;
  R.ExtraTraffic = Trial.Traffic;
  R.Makespan = Trial.Makespan;
  return {Trial.Planned, Trial.Traffic, Trial.Makespan, planCost(R, T)};
}

} // namespace

static Expected<MPASStats> selectWhole(Graph &G, const TargetDesc &T,
                                       const MPASOptions &Opts,
                                       const SelectOptions &Select);

namespace {

/// The settings the selection ranks best on a sample of \p G (its first
/// tasks, leadingTasks; without tasks, its first operations, leadingNodes):
/// at most SampledBest, each with its placement flag and its weighting,
/// with the sample's figures in \p Out. Nothing when \p G yields no sample
/// or the selection fails on it.
std::optional<SmallVector<OrderCandidate, 2>>
rankOnSample(const Graph &G, const TargetDesc &T, const MPASOptions &Opts,
             const std::optional<TaskOrder> &Tasks, const SelectOptions &Select,
             MPASStats &Out) {
  unsigned Taken = 0;
  std::vector<NodeIdx> Nodes =
      Tasks ? leadingTasks(G, *Tasks, Select.SampleAbove / 2, MinSampleTasks,
                           Taken)
            : leadingNodes(G, Select.SampleAbove);
  if (Nodes.empty())
    return std::nullopt;
  std::unique_ptr<Graph> Sample = extractPart(G, Nodes);
  SelectOptions Inner = Select;
  Inner.SampleAbove = 0;
  Inner.TimePhases = false;
  Expected<MPASStats> S = selectWhole(*Sample, T, Opts, Inner);
  if (!S) {
    consumeError(S.takeError());
    return std::nullopt;
  }
  const auto &Tried = S->L0Tried;
  std::vector<RankKey> Keys;
  for (const MPASStats::L0Trial &Trial : Tried)
    Keys.push_back(rankKey(resultOf(Trial, T), Trial.PeakL1UB));
  std::vector<size_t> Ranked(Tried.size());
  std::iota(Ranked.begin(), Ranked.end(), 0);
  llvm::stable_sort(Ranked,
                    [&](size_t A, size_t B) { return Keys[A] < Keys[B]; });
  // The same figures: plan cost, traffic (so makespan) and peak.
  auto SameFigures = [&](size_t A, size_t B) {
    return std::get<1>(Keys[A]) == std::get<1>(Keys[B]) &&
           std::get<2>(Keys[A]) == std::get<2>(Keys[B]) &&
           std::get<4>(Keys[A]) == std::get<4>(Keys[B]);
  };
  // A sample can have tasks that its graph has not (the first operations
  // of a graph without tasks): there the task and groups orders are the
  // list scheduler's, as orderMPAS takes them on the whole graph.
  auto OnWhole = [&](MPASStats::L0Trial Trial) {
    if (!Tasks &&
        (Trial.Order == Traversal::Tasks || Trial.Order == Traversal::Groups)) {
      Trial.Order = Traversal::Free;
      Trial.Group = 0;
    }
    return Trial;
  };
  SmallVector<MPASStats::L0Trial, 16> Settings;
  for (const MPASStats::L0Trial &Trial : Tried)
    Settings.push_back(OnWhole(Trial));
  SmallVector<OrderCandidate, 2> Best;
  SmallVector<size_t, 2> BestTrials;
  for (size_t K : Ranked) {
    // One variant of each setting, the better with or without the
    // placement step: the sample tells group sizes apart less surely than
    // it does those (its first and last groups weigh more than in the whole
    // graph). Equal figures are almost surely one order (both L0 modes
    // often reach the same), which the whole graph would plan only once.
    if (llvm::any_of(BestTrials, [&](size_t B) {
          return (Settings[B].Mode == Settings[K].Mode &&
                  Settings[B].Order == Settings[K].Order &&
                  Settings[B].Group == Settings[K].Group) ||
                 SameFigures(B, K);
        }))
      continue;
    BestTrials.push_back(K);
    Best.push_back({Settings[K].Order, Settings[K].Mode, Settings[K].Group,
                    Settings[K].Placed, Settings[K].Weights});
    if (Best.size() == SampledBest)
      break;
  }
  Out.SampleTasks = Taken;
  Out.SampleNodes = Nodes.size();
  Out.SampleTried = std::move(S->L0Tried);
  return Best;
}

/// --l0=auto on a large graph: the settings rankOnSample chose, \p
/// Settings (no two of the same L0 mode, order and group size), order the
/// whole graph (a setting without the placement step takes the order its
/// run had before it), default dan-dlr plans each distinct order, and the
/// lowest planCost wins as in autoL0, ties to the earlier setting. Nothing
/// when a setting cannot order the whole graph: then the whole selection
/// runs.
std::optional<MPASStats>
autoL0Sampled(Graph &G, const TargetDesc &T, const MPASOptions &Opts,
              const std::optional<TaskOrder> &Tasks,
              const SelectOptions &Select, JobRunner &Runner,
              const MPASGraphInfo *Info, ArrayRef<OrderCandidate> Settings,
              MPASStats &Sampled) {
  SmallVector<OrderCandidate, 2> Cands(Settings.begin(), Settings.end());
  for (OrderCandidate &C : Cands)
    C.Place = Opts.Place;
  std::vector<Ordered> Runs =
      orderAll(G, T, Opts, Cands, Tasks, Runner, Select.TimePhases, Info,
               /*KeepUnplaced=*/true);
  bool AllOrdered = true;
  for (Ordered &R : Runs)
    if (!R.Stats) {
      consumeError(R.Stats.takeError());
      AllOrdered = false;
    }
  if (!AllOrdered)
    return std::nullopt;
  // Each setting's order and figures.
  std::vector<std::vector<NodeIdx> *> Orders;
  SmallVector<MPASStats, 2> Stats;
  for (size_t K = 0; K != Settings.size(); ++K) {
    Ordered &R = Runs[K];
    if (Settings[K].Place || !R.Stats->Placed) {
      Orders.push_back(&R.Order);
      Stats.push_back(*R.Stats);
    } else {
      Orders.push_back(&R.Unplaced);
      Stats.push_back(withoutPlacement(*R.Stats));
    }
  }
  PlannedOrders P =
      planOrders(G, T, Orders, Select.MeasureSoleOrder, Select.TimePhases,
                 "mpas-plan", "dan-mpas: planning the candidates", Runner);
  size_t BestK = 0;
  RankKey BestKey;
  SmallVector<MPASStats::L0Trial, 9> Tried;
  for (size_t K = 0; K != Settings.size(); ++K) {
    const PlanResult &Plan = P.Plans[P.PlanOf[K]];
    Tried.push_back(trialOf(Settings[K], Plan, Stats[K]));
    RankKey Key = rankKey(Plan, Stats[K].PeakL1UB);
    if (K == 0 || Key < BestKey) {
      BestKey = Key;
      BestK = K;
    }
  }
  MPASStats Best = std::move(Stats[BestK]);
  Best.L0Tried = std::move(Tried);
  Best.L0Chosen = Settings[BestK].Mode;
  Best.OrderChosen = Settings[BestK].Order;
  Best.GroupChosen = Settings[BestK].Group;
  Best.SampleTasks = Sampled.SampleTasks;
  Best.SampleNodes = Sampled.SampleNodes;
  Best.SampleTried = std::move(Sampled.SampleTried);
  Best.Tasks.reset();
  G.Order = *Orders[BestK];
  return Best;
}

/// The stage-1 result of a graph ordered part by part: the parts' orders
/// one after another; the figures of the part with the highest peak (the
/// first such), the peak and the fallbacks of all.
MPASStats joinPartStats(Graph &G, ArrayRef<std::vector<NodeIdx>> Parts,
                        std::vector<PartResult<MPASStats>> &Results) {
  size_t Binding = 0;
  uint64_t Fallbacks = 0;
  for (size_t K = 0; K != Results.size(); ++K) {
    Fallbacks += Results[K].Stats.Fallbacks;
    if (Results[K].Stats.PeakL1UB > Results[Binding].Stats.PeakL1UB)
      Binding = K;
  }
  MPASStats All = std::move(Results[Binding].Stats);
  All.Fallbacks = Fallbacks;
  All.Parts = Results.size();
  All.Tried.clear();
  All.L0Tried.clear();
  All.Tasks.reset();
  // Each part's order, in the indices of the whole.
  G.Order.clear();
  for (size_t K = 0; K != Results.size(); ++K)
    for (NodeIdx I : Results[K].Part->Order)
      G.Order.push_back(Parts[K][I]);
  return All;
}

} // namespace

/// The graph's tasks, unless the order needs none.
static std::optional<TaskOrder> findTasks(const Graph &G, const TargetDesc &T,
                                          const MPASOptions &Opts,
                                          const SelectOptions &Select,
                                          JobRunner &Runner) {
  if (Opts.Order == Traversal::Free || Opts.Order == Traversal::Window)
    return std::nullopt;
  std::optional<PhaseTimer> Timer;
  if (Select.TimePhases)
    Timer.emplace("mpas-tasks", "dan-mpas: finding the tasks");
  return findTaskOrder(G, T, [&](size_t N, function_ref<void(size_t)> Job) {
    Runner.run(N, Job);
  });
}

/// The selection on a graph of one part.
static Expected<MPASStats> selectWhole(Graph &G, const TargetDesc &T,
                                       const MPASOptions &Opts,
                                       const SelectOptions &Select) {
  JobRunner Runner(Select.Threads);
  std::optional<TaskOrder> Tasks = findTasks(G, T, Opts, Select, Runner);
  // What the list scheduler knows of the graph, made once for every
  // candidate that runs it (the others order whole operations).
  std::shared_ptr<const MPASGraphInfo> Info;
  // (Groups is the list scheduler on a graph with fewer than two tasks.)
  bool ListScheduled = Opts.Order == Traversal::Auto ||
                       Opts.Order == Traversal::Free ||
                       Opts.Order == Traversal::Tasks ||
                       (Opts.Order == Traversal::Groups && !Tasks);
  auto MakeInfo = [&] {
    if (!Info)
      Info = analyzeForMPAS(G, T);
  };
  Expected<MPASStats> S = [&]() -> Expected<MPASStats> {
    // A large graph whose tasks form no grid, or that has no tasks, tries
    // every candidate (about fifteen orders, eight plans) on a sample of its
    // tasks or its first operations, and only the best two settings, each
    // with the weighting it won with, on the whole (docs/MPAS.md, "Large
    // graphs").
    if (Opts.L0 == L0Mode::Auto && Opts.Order == Traversal::Auto &&
        Select.SampleAbove && G.size() > Select.SampleAbove &&
        (!Tasks || !Tasks->IsGrid)) {
      MPASStats Sampled;
      std::optional<SmallVector<OrderCandidate, 2>> Settings;
      {
        std::optional<PhaseTimer> Timer;
        if (Select.TimePhases)
          Timer.emplace("mpas-sample",
                        "dan-mpas: ranking the candidates on a sample");
        Settings = rankOnSample(G, T, Opts, Tasks, Select, Sampled);
      }
      if (Settings) {
        // Only a setting of the list scheduler needs its view of the graph.
        if (llvm::any_of(*Settings, [](const OrderCandidate &C) {
              return C.Order == Traversal::Free || C.Order == Traversal::Tasks;
            }))
          MakeInfo();
        if (std::optional<MPASStats> S =
                autoL0Sampled(G, T, Opts, Tasks, Select, Runner, Info.get(),
                              *Settings, Sampled))
          return std::move(*S);
      }
    }
    if (ListScheduled)
      MakeInfo();
    if (Opts.L0 == L0Mode::Auto)
      return autoL0(G, T, Opts, Tasks, Select, Runner, Info.get());
    // One L0 mode: --order=auto is the list scheduler alone; under
    // --l0=single (stage 1's contest rule, judged by its peak) also the
    // orders of whole operations a group of tasks at a time and the staged
    // one, the lowest peak kept, ties to the earlier (docs/MPAS.md,
    // "--order=auto").
    Traversal O = Opts.Order == Traversal::Auto ? Traversal::Free : Opts.Order;
    SmallVector<OrderCandidate, 6> Cands = {
        {O, Opts.L0, Opts.Group, Opts.Place}};
    if (Opts.Order == Traversal::Auto &&
        (Opts.L0 == L0Mode::Single || Opts.L0 == L0Mode::Ignore)) {
      if (Tasks)
        for (unsigned Group : AutoGroups)
          Cands.push_back({Traversal::Groups, Opts.L0, Group, Opts.Place});
      if (Opts.L0 == L0Mode::Single)
        Cands.push_back({Traversal::Staged, L0Mode::Single, 0, Opts.Place});
    }
    std::vector<Ordered> Runs = orderAll(G, T, Opts, Cands, Tasks, Runner,
                                         Select.TimePhases, Info.get());
    size_t Kept = 0;
    for (size_t C = 1; C != Runs.size(); ++C) {
      if (!Runs[C].Stats) {
        consumeError(Runs[C].Stats.takeError());
        continue;
      }
      if (Runs[Kept].Stats &&
          Runs[C].Stats->PeakL1UB < Runs[Kept].Stats->PeakL1UB)
        Kept = C;
    }
    if (Kept != 0 && !Runs[0].Stats)
      consumeError(Runs[0].Stats.takeError());
    if (Runs[Kept].Stats)
      G.Order = std::move(Runs[Kept].Order);
    return std::move(Runs[Kept].Stats);
  }();
  if (S && Tasks) {
    S->Tasks = std::move(Tasks);
    S->Tasks->Rank.clear();
  }
  return S;
}

Expected<MPASStats> selectMPAS(Graph &G, const TargetDesc &T,
                               const MPASOptions &Opts,
                               const SelectOptions &Select) {
  if (Opts.KeepInputOrder)
    return runMPAS(G, T, Opts);
  if (Error E = checkMPASInput(G))
    return E;
  std::vector<std::vector<NodeIdx>> Parts = independentParts(G);
  if (!partsAreKernels(G, Parts))
    return selectWhole(G, T, Opts, Select);
  // Several kernels: each is ordered as it would be alone, the parts at
  // once, and the orders follow one another, so the peak is the largest
  // part's (docs/MPAS.md, "Several kernels").
  SelectOptions Inner = insideJob(Select);
  // The parts run at once, and a timer is not for two threads.
  Inner.TimePhases = false;
  Expected<std::vector<PartResult<MPASStats>>> Ordered =
      runOnParts<MPASStats>(G, Parts, Select, [&](Graph &Part) {
        return selectWhole(Part, T, Opts, Inner);
      });
  if (!Ordered)
    return Ordered.takeError();
  return joinPartStats(G, Parts, *Ordered);
}

} // namespace dan
