//===- CPESelect.cpp - dan-cpe on kernels run in turn ---------------------===//
//
// Stage 3 of a graph whose kernels run one after another (the segments of
// its schedule, dan/IR/Kernels.h): the refinement of the whole graph
// against each segment refined alone and joined (so the result is never
// slower than running the refined kernels in turn); the lower makespan
// wins, ties to the whole.
//
//===----------------------------------------------------------------------===//

#include "Parallel.h"
#include "dan/Analysis/Replay.h"
#include "dan/IR/Components.h"
#include "dan/IR/Kernels.h"
#include "dan/IR/MemoryPlan.h"
#include "dan/Select/Select.h"
#include "dan/Support/Timing.h"
#include <optional>

using namespace llvm;

namespace dan {

/// Refines each of \p Parts of \p G alone (the parts at once) and joins
/// them into \p Joined; the counts of all parts. \p G is only read, and
/// of it only its nodes and edges, not its schedule.
static Expected<CPEStats> refinePartByPart(const Graph &G, const TargetDesc &T,
                                           const CPEOptions &Opts,
                                           const SelectOptions &Select,
                                           ArrayRef<std::vector<NodeIdx>> Parts,
                                           std::unique_ptr<Graph> &Joined) {
  Expected<std::vector<PartResult<CPEStats>>> Refined =
      runOnParts<CPEStats>(G, Parts, Select, [&](Graph &Part) {
        // A kernel alone numbers its spills after its own nodes.
        renumberSpills(Part);
        return runCPE(Part, T, Opts);
      });
  if (!Refined)
    return Refined.takeError();
  CPEStats All;
  for (const PartResult<CPEStats> &R : *Refined) {
    const CPEStats &S = R.Stats;
    All.Passes += S.Passes;
    All.Moves += S.Moves;
    All.Candidates += S.Candidates;
    All.Illegal += S.Illegal;
    All.BufferMoves += S.BufferMoves;
    All.BufferNodesMoved += S.BufferNodesMoved;
    All.Retimed += S.Retimed;
    All.HitCandidateLimit |= S.HitCandidateLimit;
    All.HitEffortLimit |= S.HitEffortLimit;
    All.HitTimeBudget |= S.HitTimeBudget;
  }
  std::vector<Graph *> Graphs;
  for (const PartResult<CPEStats> &R : *Refined)
    Graphs.push_back(R.Part.get());
  Joined = joinParts(Graphs, G);
  All.Parts = Parts.size();
  return All;
}

Expected<CPEStats> selectCPE(Graph &G, const TargetDesc &T,
                             const CPEOptions &Opts,
                             const SelectOptions &Select) {
  if (Opts.Mode != CPEMode::Refine)
    return runCPE(G, T, Opts);
  // Kernels as the plan left them: the reuse edges between kernels are
  // the plan's address handoffs, not part of either.
  KernelSplit K = splitKernels(G, /*ByReuseEdges=*/false);
  std::vector<std::vector<NodeIdx>> Parts;
  if (K.NumKernels > 1)
    Parts = scheduleSegments(G, K);
  if (Parts.size() < 2)
    return runCPE(G, T, Opts);
  // The whole refined first, in place: a refinement changes the schedule
  // only (docs/CPE.md), and the parts are cut by node and joined without
  // it, so they are cut from the refined graph and no copy of the input is
  // needed.
  size_t Nodes = G.size();
  std::optional<PhaseTimer> Timer;
  if (Select.TimePhases)
    Timer.emplace("cpe-whole", "dan-cpe: refining the whole graph");
  Expected<CPEStats> Whole = runCPE(G, T, Opts);
  Timer.reset();
  if (!Whole) // the input does not verify: the parts would not either
    return Whole;
  assert(G.size() == Nodes && "a refinement added or removed nodes");
  (void)Nodes;
  std::unique_ptr<Graph> ByParts;
  if (Select.TimePhases)
    Timer.emplace("cpe-kernels", "dan-cpe: refining each kernel alone");
  Expected<CPEStats> Joined =
      refinePartByPart(G, T, Opts, Select, Parts, ByParts);
  Timer.reset();
  if (!Joined) {
    consumeError(Joined.takeError());
    return Whole;
  }
  uint64_t JoinedMakespan = replay(*ByParts, T).Makespan;
  if (Whole->MakespanAfter <= JoinedMakespan)
    return Whole;
  Joined->MakespanBefore = Whole->MakespanBefore;
  Joined->MakespanAfter = JoinedMakespan;
  G = std::move(*ByParts);
  return Joined;
}

} // namespace dan
