//===- Parallel.h - Run independent candidates on a thread pool -*- C++ -*-===//
//
// Private to lib/Select.
//
//===----------------------------------------------------------------------===//

#ifndef DAN_LIB_SELECT_PARALLEL_H
#define DAN_LIB_SELECT_PARALLEL_H

#include "dan/Analysis/Replay.h"
#include "dan/IR/Components.h"
#include "dan/Select/JobRunner.h"
#include "dan/Select/Select.h"
#include "llvm/ADT/STLFunctionalExtras.h"
#include "llvm/Support/Error.h"
#include <cstddef>
#include <memory>
#include <optional>
#include <vector>

namespace dan {

/// A copy of \p G for a candidate plan to add its spill nodes to: room for
/// a quarter more nodes, so that the first spill does not copy every node
/// into a list twice the size.
inline Graph copyForPlan(const Graph &G) {
  Graph Copy;
  Copy.Nodes.reserve(G.size() + G.size() / 4);
  Copy.Order.reserve(G.Order.size() + G.Order.size() / 4);
  Copy = G; // (vector assignment keeps the room)
  return Copy;
}

/// Runs Job(0) ... Job(N - 1) on Select.Threads threads (JobRunner::run).
void runConcurrently(const SelectOptions &Select, size_t N,
                     llvm::function_ref<void(size_t)> Job);

/// \p Select for a pass run inside one of its jobs: on one thread.
inline SelectOptions insideJob(const SelectOptions &Select) {
  SelectOptions Inner = Select;
  Inner.Threads = 1;
  return Inner;
}

/// For each part of \p Map, with ids \p Ids and hashes \p Shapes
/// (partShapeHash), the first part of its hash when the two are alike
/// (partsAlike), else itself; itself for every part when
/// Select.ReuseAlikeParts is off. Parts of one hash that are not alike (a
/// collision) each run the pass.
std::vector<size_t> findAlikeParts(const PartMap &Map,
                                   llvm::ArrayRef<PartIds> Ids,
                                   llvm::ArrayRef<uint64_t> Shapes,
                                   const SelectOptions &Select);

/// What a caller of runOnParts reads of each part's result: the whole graph
/// the pass made, or only its order (stages 1 and 3 reorder, and read the
/// order back onto the graph's nodes).
enum class PartUse { Graph, Order };

/// One part of a graph after a pass ran on it alone: the part's graph (the
/// pass's result) and the pass's figures.
template <typename StatsT> struct PartResult {
  /// Null for a part that took an alike part's result.
  std::unique_ptr<Graph> Part;
  StatsT Stats;
  /// Whether the part took an alike part's result renamed.
  bool Renamed = false;
  /// A renamed part's order under PartUse::Order.
  std::vector<NodeIdx> RenamedOrder;
  /// A renamed part's result under PartUse::Graph, which reads the alike
  /// part's graph (joinPartResults writes it).
  std::optional<RenamedPart> RenamedGraph;

  /// The part's schedule, by its own indices (the part's nodes in the
  /// order runOnParts was given them).
  llvm::ArrayRef<NodeIdx> order() const {
    if (RenamedGraph)
      return RenamedGraph->Result->Order;
    return Part ? llvm::ArrayRef<NodeIdx>(Part->Order)
                : llvm::ArrayRef<NodeIdx>(RenamedOrder);
  }
};

/// How many of \p Results took an alike part's result renamed.
template <typename StatsT>
size_t countRenamed(llvm::ArrayRef<PartResult<StatsT>> Results) {
  return llvm::count_if(Results,
                        [](const PartResult<StatsT> &R) { return R.Renamed; });
}

/// Runs \p Pass on each of \p Parts of \p G cut out (extractPart, then
/// \p Prepare when given), the parts at once as \p Select runs candidates.
/// A part alike an earlier one up to its ids (partsAlike, found in place:
/// copies of a kernel, a kernel in each layer of a model) is not cut out
/// but takes that part's result renamed to its ids (renamePart), or
/// under PartUse::Order that part's order when the pass kept the nodes of
/// its input at their indices, instead of running \p Pass again; unless
/// Select.ReuseAlikeParts is off. The same bytes for a pass that reads ids
/// only by their order (docs/Kernels.md, "Parts alike"). \p Prepare, which
/// renames ids, goes only with PartUse::Order, whose parts are compared by
/// G's ids: it must keep the ranks of a part's ids. The results in part
/// order, or the first failing part's error (the others' consumed).
template <typename StatsT>
llvm::Expected<std::vector<PartResult<StatsT>>>
runOnParts(const Graph &G, llvm::ArrayRef<std::vector<NodeIdx>> Parts,
           const SelectOptions &Select,
           llvm::function_ref<llvm::Expected<StatsT>(Graph &Part)> Pass,
           PartUse Use = PartUse::Graph,
           llvm::function_ref<void(Graph &Part)> Prepare = nullptr) {
  assert((!Prepare || Use == PartUse::Order) &&
         "a renamed graph would carry the ids before Prepare");
  size_t N = Parts.size();
  PartMap Map(G, Parts);
  std::vector<PartIds> Ids(N);
  std::vector<uint64_t> Shapes(N);
  runConcurrently(Select, N, [&](size_t K) {
    Ids[K] = partIds(Map, K);
    Shapes[K] = partShapeHash(Map, K, Ids[K]);
  });
  std::vector<size_t> FirstAlike = findAlikeParts(Map, Ids, Shapes, Select);
  std::vector<size_t> Firsts, Copies;
  for (size_t K = 0; K != N; ++K)
    (FirstAlike[K] == K ? Firsts : Copies).push_back(K);
  std::vector<std::unique_ptr<Graph>> Graphs(N);
  std::vector<std::optional<llvm::Expected<StatsT>>> Stats(N);
  // Per part that ran the pass, whether its result holds the nodes of its
  // input at their indices, as they were (PartUse::Order). (Not
  // vector<bool>: the parts set their entries at once.)
  std::vector<char> Kept(N, 0), Renamed(N, 0);
  auto RunPass = [&](size_t K) {
    Graphs[K] = extractPart(G, Parts[K]);
    if (Prepare)
      Prepare(*Graphs[K]);
    std::vector<uint64_t> InputIds;
    if (Use == PartUse::Order)
      for (const Node &Nd : Graphs[K]->Nodes)
        InputIds.push_back(Nd.Id);
    Stats[K].emplace(Pass(*Graphs[K]));
    const std::vector<Node> &Result = Graphs[K]->Nodes;
    bool Same = Use == PartUse::Order && Result.size() == InputIds.size();
    for (size_t I = 0; Same && I != Result.size(); ++I)
      Same = Result[I].Id == InputIds[I];
    Kept[K] = Same;
  };
  runConcurrently(Select, Firsts.size(), [&](size_t I) { RunPass(Firsts[I]); });
  std::vector<std::vector<NodeIdx>> Orders(N);
  std::vector<std::optional<RenamedPart>> Renamings(N);
  runConcurrently(Select, Copies.size(), [&](size_t I) {
    size_t K = Copies[I], First = FirstAlike[K];
    // A failed first part's error stands for its copies, which come later.
    if (!*Stats[First])
      return;
    bool Taken = false;
    if (Use == PartUse::Order) {
      Taken = Kept[First];
      if (Taken)
        Orders[K] = Graphs[First]->Order;
    } else {
      Renamings[K] = renamePart(*Graphs[First], Ids[First], Map, K, Ids[K]);
      Taken = Renamings[K].has_value();
    }
    if (Taken) {
      Stats[K].emplace(**Stats[First]);
      Renamed[K] = 1;
    } else {
      RunPass(K);
    }
  });
  std::vector<PartResult<StatsT>> Out;
  std::optional<llvm::Error> First;
  for (size_t K = 0; K != N; ++K) {
    if (!Stats[K])
      continue;
    llvm::Expected<StatsT> &S = *Stats[K];
    if (!S) {
      if (!First)
        First = S.takeError();
      else
        llvm::consumeError(S.takeError());
    } else if (!First) {
      Out.push_back({std::move(Graphs[K]), std::move(*S), Renamed[K] != 0,
                     std::move(Orders[K]), std::move(Renamings[K])});
    }
  }
  if (First)
    return std::move(*First);
  return Out;
}

/// Refines planned graph \p G in place as dan-cpe's defaults do (the pipe's
/// next stage; \p G is a plan made here, not checked again) and measures
/// it; std::nullopt if stage 3 fails.
std::optional<ReplayResult> refineAndMeasure(Graph &G, const TargetDesc &T,
                                             const SelectOptions &Select);

/// Whether a plan measured \p R is kept over the kernels planned in turn,
/// measured \p Floor: no worse in extra traffic, spills and makespan, and
/// of a strictly lower plan cost (docs/Kernels.md).
inline bool beatsFloor(const ReplayResult &R, const ReplayResult &Floor,
                       const TargetDesc &T) {
  return R.ExtraTraffic <= Floor.ExtraTraffic &&
         R.SpillCount <= Floor.SpillCount && R.Makespan <= Floor.Makespan &&
         planCost(R, T) < planCost(Floor, T);
}

/// Plans a graph (or a part of it): the whole graph when \p Whole is set.
/// The graph passed checkPlannableInput: planSegmented checks it first,
/// and a segment of a graph that passes (scheduleSegments) passes too, as
/// it holds every node of its buffers and every path between those.
using PlanFn =
    llvm::function_ref<llvm::Expected<DLRStats>(Graph &, bool Whole)>;

/// Plans \p G as dan-dlr does: a schedule that runs several kernels in turn
/// (scheduleSegments, dan/IR/Kernels.h) has each of its segments planned
/// by \p PlanOne as it would be alone, the segments at once, and the plans
/// joined, the figures the sum of the segments'; up to Select.SampleAbove
/// nodes, the plan of the whole schedule is kept instead when it beats that
/// floor (beatsFloor). Any other schedule is planned whole by \p PlanOne.
llvm::Expected<DLRStats> planSegmented(Graph &G, const TargetDesc &T,
                                       const SelectOptions &Select,
                                       PlanFn PlanOne);

/// Replaces \p G, the graph runOnParts cut \p Results from, with them
/// joined (joinParts, which moves what no renamed part reads).
template <typename StatsT>
void joinPartResults(Graph &G, llvm::ArrayRef<PartResult<StatsT>> Results) {
  std::vector<JoinPart> Parts;
  for (const PartResult<StatsT> &R : Results)
    Parts.push_back(
        {R.Part.get(), R.RenamedGraph ? &*R.RenamedGraph : nullptr});
  G = std::move(*joinParts(Parts, G));
}

} // namespace dan

#endif // DAN_LIB_SELECT_PARALLEL_H
