//===- MPASSample.cpp - --l0=auto ranked on a sample of a large graph -----===//
//
// On a large graph the candidates are ranked on its first tasks (or first
// operations), and only the best settings order and plan the whole graph
// (docs/MPAS.md, "Large graphs").
//
//===----------------------------------------------------------------------===//

#include "MPASSelect.h"
#include "Parallel.h"
#include "dan/Analysis/Replay.h"
#include "dan/Analysis/Verifier.h"
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
  // A FREE whose last users stayed out of the sample needs the edges from
  // the users inside it (the lifetime rule every stage checks). They close
  // no cycle (the graph's paths imply them), but a sample is only a guess.
  if (Expected<unsigned> Added = addLifetimeEdges(*Sample); !Added) {
    consumeError(Added.takeError());
    return std::nullopt;
  }
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
/// run had before it), dan-dlr under one setting plans each distinct order, and
/// the lowest planCost wins as in autoL0, ties to the earlier setting. Nothing
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

} // namespace dan::mpas_select
