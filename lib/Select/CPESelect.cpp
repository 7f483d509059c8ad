//===- CPESelect.cpp - dan-cpe on kernels run in turn ---------------------===//
//
// Stage 3 of a graph whose kernels run one after another (the segments of
// its schedule, dan/IR/Kernels.h): each segment refined alone, the
// segments joined, and the joined graph searched whole from there (so the
// result is never slower than running the refined kernels in turn).
//
//===----------------------------------------------------------------------===//

#include "Parallel.h"
#include "dan/Analysis/Replay.h"
#include "dan/Analysis/Verifier.h"
#include "dan/IR/Kernels.h"
#include "dan/IR/MemoryPlan.h"
#include "dan/Select/Select.h"
#include "dan/Support/Timing.h"
#include <utility>

using namespace llvm;

namespace dan {

/// Adds the search counts of \p S to \p All.
static void addSearchCounts(CPEStats &All, const CPEStats &S) {
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

/// Refines each of \p Parts of \p G alone (the parts at once) and joins
/// their orders into \p Joined, an order of G's nodes; the counts of all
/// parts. \p G, which verifies, is only read. A segment of a graph that
/// verifies verifies (it holds every node of its buffers and every path
/// between those), so the parts are not checked again.
static Expected<CPEStats> refinePartByPart(const Graph &G, const TargetDesc &T,
                                           const CPEOptions &Opts,
                                           const SelectOptions &Select,
                                           ArrayRef<std::vector<NodeIdx>> Parts,
                                           std::vector<NodeIdx> &Joined) {
  Expected<std::vector<PartResult<CPEStats>>> Refined = runOnParts<CPEStats>(
      G, Parts, Select,
      [&](Graph &Part) { return runCPE(Part, T, Opts, /*InputChecked=*/true); },
      PartUse::Order,
      // A kernel alone numbers its spills after its own nodes.
      renumberSpills);
  if (!Refined)
    return Refined.takeError();
  CPEStats All;
  for (const PartResult<CPEStats> &R : *Refined)
    addSearchCounts(All, R.Stats);
  // Stage 3 moves nodes and keeps the plan, and with it each kernel's order
  // of buffer nodes: the parts joined are G under their orders, mapped
  // back to G's nodes (a part holds its segment's nodes in segment order),
  // with G's ids, edges and reuse edges, which joinParts would compute
  // again.
  Joined.clear();
  Joined.reserve(G.Order.size());
  for (size_t P = 0; P != Parts.size(); ++P)
    for (NodeIdx I : (*Refined)[P].order())
      Joined.push_back(Parts[P][I]);
  All.Parts = Parts.size();
  All.AlikeParts = countRenamed<CPEStats>(*Refined);
  return All;
}

Expected<CPEStats> selectCPE(Graph &G, const TargetDesc &T,
                             const CPEOptions &Opts,
                             const SelectOptions &Select) {
  // The input checked once, first, for every path below; the check's
  // replay, when it made one, measures the input.
  std::optional<ReplayResult> Replayed;
  if (!Select.InputVerified)
    if (Error E =
            verifyPassInput(G, T, "dan-cpe", /*Scheduled=*/true, &Replayed))
      return Expected<CPEStats>(std::move(E));
  // Called once on each path below: it may move the check's replay out.
  auto TakeReplay = [&] {
    return Replayed ? std::move(*Replayed) : replay(G, T);
  };
  if (Opts.Mode != CPEMode::Refine)
    return runCPEOnVerified(G, T, Opts, TakeReplay());
  // Kernels as the plan left them: the reuse edges between kernels are
  // the plan's address handoffs, not part of either.
  KernelSplit K = splitKernels(G, /*ByReuseEdges=*/false);
  std::vector<std::vector<NodeIdx>> Parts;
  if (K.NumKernels > 1)
    Parts = scheduleSegments(G, K);
  if (Parts.size() < 2)
    return runCPEOnVerified(G, T, Opts, TakeReplay());
  uint64_t Before = TakeReplay().Makespan;
  std::vector<NodeIdx> ByParts;
  Expected<CPEStats> Joined = [&] {
    PhaseTimer Timer("cpe-kernels", "dan-cpe: refining each kernel alone",
                     Select.TimePhases);
    return refinePartByPart(G, T, Opts, Select, Parts, ByParts);
  }();
  if (!Joined)
    return Joined;
  // Then the joined refinements searched as one graph, from their order:
  // the moves across a kernel boundary. The search keeps only moves that
  // lower the makespan, so the result is never slower than the kernels
  // refined alone and joined. (Each kernel's list schedule was tried
  // alone; one of the whole would cost more than the search.)
  CPEOptions Across = Opts;
  Across.Start = CPEStart::Input;
  std::vector<NodeIdx> InputOrder = std::exchange(G.Order, std::move(ByParts));
  Expected<CPEStats> Whole = [&] {
    PhaseTimer Timer("cpe-whole", "dan-cpe: refining the joined kernels whole",
                     Select.TimePhases);
    return runCPE(G, T, Across, /*InputChecked=*/true);
  }();
  if (!Whole) {
    G.Order = std::move(InputOrder);
    return Whole;
  }
  addSearchCounts(*Joined, *Whole);
  Joined->JoinedMakespan = Whole->MakespanBefore;
  Joined->MakespanBefore = Before;
  Joined->MakespanAfter = Whole->MakespanAfter;
  Joined->ReuseEdges = Whole->ReuseEdges;
  // Each part refined alone may end a pipe later than the input did, and
  // the part after it wait: the stage is never slower than its input, so
  // the input stands then.
  if (Joined->MakespanAfter > Before) {
    G.Order = std::move(InputOrder);
    Joined->MakespanAfter = Before;
    Joined->KeptInput = true;
  }
  return Joined;
}

} // namespace dan
