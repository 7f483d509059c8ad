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

/// One part of a graph after a pass ran on it alone: the part's graph (the
/// pass's result) and the pass's figures.
template <typename StatsT> struct PartResult {
  std::unique_ptr<Graph> Part;
  StatsT Stats;
};

/// Cuts each of \p Parts out of \p G (extractPart) and runs \p Pass on it,
/// the parts at once as \p Select runs candidates. The results in part
/// order, or the first failing part's error (the others' consumed).
template <typename StatsT>
llvm::Expected<std::vector<PartResult<StatsT>>>
runOnParts(const Graph &G, llvm::ArrayRef<std::vector<NodeIdx>> Parts,
           const SelectOptions &Select,
           llvm::function_ref<llvm::Expected<StatsT>(Graph &Part)> Pass) {
  std::vector<std::unique_ptr<Graph>> Graphs(Parts.size());
  std::vector<std::optional<llvm::Expected<StatsT>>> Stats(Parts.size());
  runConcurrently(Select, Parts.size(), [&](size_t K) {
    Graphs[K] = extractPart(G, Parts[K]);
    Stats[K].emplace(Pass(*Graphs[K]));
  });
  std::vector<PartResult<StatsT>> Out;
  std::optional<llvm::Error> First;
  for (size_t K = 0; K != Parts.size(); ++K) {
    llvm::Expected<StatsT> &S = *Stats[K];
    if (!S) {
      if (!First)
        First = S.takeError();
      else
        llvm::consumeError(S.takeError());
    } else if (!First) {
      Out.push_back({std::move(Graphs[K]), std::move(*S)});
    }
  }
  if (First)
    return std::move(*First);
  return Out;
}

/// Whether a plan measured \p R is kept over the kernels planned in turn,
/// measured \p Floor: no worse in extra traffic, spills and makespan, and
/// of a strictly lower plan cost (docs/Kernels.md).
inline bool beatsFloor(const ReplayResult &R, const ReplayResult &Floor,
                       const TargetDesc &T) {
  return R.ExtraTraffic <= Floor.ExtraTraffic &&
         R.SpillCount <= Floor.SpillCount && R.Makespan <= Floor.Makespan &&
         planCost(R, T) < planCost(Floor, T);
}

/// Plans a graph (or a part of it): the whole graph when \p Whole is set;
/// \p Checked says that it passed checkPlannableInput (a segment of a
/// graph that passed them, scheduleSegments, passes them too: it holds
/// every node of its buffers and every path between those).
using PlanFn = llvm::function_ref<llvm::Expected<DLRStats>(Graph &, bool Whole,
                                                           bool Checked)>;

/// Plans \p G as dan-dlr does: a schedule that runs several kernels in turn
/// (scheduleSegments, dan/IR/Kernels.h) has each of its segments planned
/// by \p PlanOne as it would be alone, the segments at once, and the plans
/// joined, the figures the sum of the segments'; up to Select.SampleAbove
/// nodes, the plan of the whole schedule is kept instead when it beats that
/// floor (beatsFloor). Any other schedule is planned whole by \p PlanOne.
llvm::Expected<DLRStats> planSegmented(Graph &G, const TargetDesc &T,
                                       const SelectOptions &Select,
                                       PlanFn PlanOne);

/// Replaces \p G with the parts of \p Results joined (joinParts, which
/// empties them).
template <typename StatsT>
void joinPartResults(Graph &G, llvm::ArrayRef<PartResult<StatsT>> Results) {
  std::vector<Graph *> Parts;
  for (const PartResult<StatsT> &R : Results)
    Parts.push_back(R.Part.get());
  G = std::move(*joinParts(Parts, G));
}

} // namespace dan

#endif // DAN_LIB_SELECT_PARALLEL_H
