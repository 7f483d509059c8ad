//===- MPASSelect.h - The pieces of dan-mpas's selections -------*- C++ -*-===//
//
// Private to lib/Select: the candidates and their orders
// (MPASCandidates.cpp), --l0=auto's plans and ranking (MPASAutoL0.cpp), the
// selection on a sample of a large graph (MPASSample.cpp), the selection on
// a graph of several kernels (MPASKernels.cpp), and the selection on one
// part (MPASSelect.cpp), which uses them all.
//
//===----------------------------------------------------------------------===//

#ifndef DAN_LIB_SELECT_MPASSELECT_H
#define DAN_LIB_SELECT_MPASSELECT_H

#include "dan/IR/Kernels.h"
#include "dan/Schedule/TaskOrder.h"
#include "dan/Select/JobRunner.h"
#include "dan/Select/Select.h"
#include "llvm/ADT/ArrayRef.h"
#include "llvm/ADT/SmallVector.h"
#include "llvm/Support/Error.h"
#include <optional>
#include <tuple>
#include <vector>

namespace dan::mpas_select {

using llvm::ArrayRef;
using llvm::Expected;
using llvm::SmallVector;
using llvm::StringRef;

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

/// The group sizes --order=auto tries, in tie-break order (0: all tasks).
inline constexpr unsigned AutoGroups[] = {1, 2, 4, 0};

/// One run of stage 1 under one setting: its order and statistics.
struct Ordered {
  std::vector<NodeIdx> Order;
  /// When asked for: the order before the placement step (orderMPAS).
  std::vector<NodeIdx> Unplaced;
  Expected<MPASStats> Stats = MPASStats();
};

/// The candidates --l0=auto tries, in tie-break order.
SmallVector<OrderCandidate, 9>
orderCandidates(const MPASOptions &Opts, const std::optional<TaskOrder> &Tasks);

/// The orders of \p G under each candidate and each of its weightings
/// (orderMPAS: the jobs share the graph and \p Info, when the caller made
/// it), made concurrently; then keepBestWeighting.
std::vector<Ordered>
orderAll(const Graph &G, const TargetDesc &T, const MPASOptions &Opts,
         ArrayRef<OrderCandidate> Cands, const std::optional<TaskOrder> &Tasks,
         JobRunner &Runner, bool Timed, const MPASGraphInfo *Info,
         bool KeepUnplaced = false);

/// What dan-dlr's plan of one order, under one setting, measured.
struct PlanResult {
  bool Ok = false;
  uint64_t Traffic = 0, Makespan = 0, Cost = 0;
};

/// How the selections rank a candidate: by plan cost, then the least
/// traffic, the lower makespan and the lower peak; a failed plan after
/// every successful one.
using RankKey = std::tuple<bool, uint64_t, uint64_t, uint64_t, uint64_t>;
inline RankKey rankKey(const PlanResult &P, uint64_t PeakL1UB) {
  return {!P.Ok, P.Cost, P.Traffic, P.Makespan, PeakL1UB};
}

/// What --stats reports of candidate setting \p C, ordered with \p S and
/// planned as \p P.
MPASStats::L0Trial trialOf(const OrderCandidate &C, const PlanResult &P,
                           const MPASStats &S);

/// \p S of a placed order as the figures of the order before its placement
/// step.
MPASStats withoutPlacement(MPASStats S);

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
                         StringRef PhaseDesc, JobRunner &Runner);

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
                           const MPASGraphInfo *Info);

/// The settings the selection ranks best on a sample of \p G (its first
/// tasks, leadingTasks; without tasks, its first operations, leadingNodes):
/// at most SampledBest, each with its placement flag and its weighting,
/// with the sample's figures in \p Out. Nothing when \p G yields no sample
/// or the selection fails on it.
std::optional<SmallVector<OrderCandidate, 2>>
rankOnSample(const Graph &G, const TargetDesc &T, const MPASOptions &Opts,
             const std::optional<TaskOrder> &Tasks, const SelectOptions &Select,
             MPASStats &Out);

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
              MPASStats &Sampled);

/// The selection on a graph of the kernels \p K, at least two: each kernel
/// ordered alone and the kernels in turn (the floor), against the whole
/// graph ordered as one (MPASKernels.cpp).
Expected<MPASStats> selectKernels(Graph &G, const TargetDesc &T,
                                  const MPASOptions &Opts,
                                  const SelectOptions &Select,
                                  const KernelSplit &K);

/// The selection on a graph of one part.
Expected<MPASStats> selectWhole(Graph &G, const TargetDesc &T,
                                const MPASOptions &Opts,
                                const SelectOptions &Select);

} // namespace dan::mpas_select

#endif // DAN_LIB_SELECT_MPASSELECT_H
