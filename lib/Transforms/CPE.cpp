//===- CPE.cpp - Stage 3: critical path enhancement -----------------------===//
//
// A first-improvement local search on the order of the operation nodes
// (the paper's Algorithm 3, adapted; docs/CPE.md):
//
//  1. time the schedule (replay's rules: a node starts at the latest finish
//     of its predecessors and of the previous node on its pipe);
//  2. walk the critical chain back from the node that finishes last;
//  3. at each chain node, try to reorder its pipe within a window of
//     schedule positions: when the pipe holds the node back, put it ahead
//     of an earlier node of the pipe; when the pipe waits idle for it, put
//     a later node of the pipe that is ready ahead of it;
//  4. take the first move that keeps every constraint and strictly lowers
//     the makespan (eq. 36); a pass that takes nothing ends the search.
//
// No node crosses a predecessor or a successor. An operation never crosses
// a buffer node (ALLOC, FREE, SPILL_OUT, SPILL_IN) of a buffer it uses, and
// (with --move=ops-and-buffers, the default) a buffer node may move across
// operations but never across another buffer node. The sequence of
// placements and releases is therefore the input's, and with it the memory
// plan: kept by construction. A move may carry a group: an operation with
// the buffer nodes that would otherwise block it (its output's ALLOC when
// it is hoisted, an input's FREE when it is sunk).
//
// The timing of a candidate is updated incrementally: only the nodes whose
// pipe predecessor changed, and what their new finish times reach, are
// retimed, in schedule order, and a candidate is dropped as soon as a node
// reaches the current makespan, or once no node left can finish earlier. A wide
// wave of changes is finished by a forward walk over the positions, which
// retimes the same nodes without the queue.
//
//===----------------------------------------------------------------------===//

#include "CPESearch.h"
#include <optional>

using namespace llvm;

namespace dan {
namespace cpe {

/// The candidate moves at critical node \p C, in the order they are tried.
/// Only a node on a pipe can start earlier by a move, and only in one of
/// two ways:
///
///  * its pipe holds it back (its local slack, start minus the latest
///    finish of its predecessors, is positive): put C ahead of each node X
///    of the pipe in the window before C, nearest first;
///  * its pipe waits idle for it: put each node Z of the pipe that may move
///    (an operation, or a spill node when buffer nodes move) in the window
///    after C, nearest first, whose predecessors finish before C starts,
///    ahead of C, into the idle time.
void Search::candidates(NodeIdx C, unsigned W,
                        SmallVectorImpl<Move> &Out) const {
  if (PipeOf[C] == NoPipe)
    return;
  const std::vector<NodeIdx> &Seq = PipeSeq[PipeOf[C]];
  uint32_t PosC = Pos[C];
  NodeIdx Prev = pipePrev(C);
  uint64_t PrevFinish = Prev == None ? 0 : Finish[Prev];
  if (PrevFinish > ready(C)) {
    for (uint32_t J = PipeIdx[C]; J-- != 0;) {
      if (Pos[Seq[J]] + uint64_t(W) < PosC)
        break;
      Out.push_back({Seq[J], C});
    }
    return;
  }
  uint64_t StartC = start(C);
  if (StartC <= PrevFinish)
    return;
  for (uint32_t J = PipeIdx[C] + 1; J < Seq.size(); ++J) {
    NodeIdx Z = Seq[J];
    if (Pos[Z] > PosC + uint64_t(W))
      break;
    if (!isBuf(Z) && ready(Z) < StartC)
      Out.push_back({C, Z});
  }
}

/// How to put M.B ahead of M.A with the fewest nodes moved, if it can be
/// done without crossing a constraint (\p Group: the buffer nodes that move
/// along, see group()):
///
///  * Hoist: B, with the buffer nodes blocking it, moves to just before A;
///  * Sink: A, with the buffer nodes blocking it, moves to just after B;
///  * Both: A sinks as far as it may and B hoists as far as it may, alone,
///    which puts B first when B's last blocker comes before A's first
///    blocker and A does not block B (no edge, no barrier, not two buffer
///    nodes).
Search::Way Search::way(const Move &M, SmallVectorImpl<NodeIdx> &Group) {
  bool MA = movable(M.A), MB = movable(M.B);
  if (MB && group(M.B, M.A, /*Up=*/true, Group))
    return Way::Hoist;
  if (MA && group(M.A, M.B, /*Up=*/false, Group))
    return Way::Sink;
  Group.clear();
  if (MA && MB && !(isBuf(M.A) && isBuf(M.B)) &&
      !is_contained(preds(M.B), M.A) && !barrier(M.B, M.A) &&
      earliest(M.B) <= uint64_t(latest(M.A)) + 1)
    return Way::Both;
  return Way::Illegal;
}

/// Makes move \p M if that strictly lowers the makespan; otherwise puts
/// every node back.
bool Search::tryMove(const Move &M, Way W, ArrayRef<NodeIdx> Group) {
  SmallVector<NodeIdx, 8> Seeds;
  /// The nodes moved, each with the position it left, in move order.
  SmallVector<std::pair<NodeIdx, uint32_t>, 8> Done;
  auto Move = [&](NodeIdx I, uint32_t To) {
    Done.push_back({I, Pos[I]});
    moveTo(I, To, Seeds);
  };
  switch (W) {
  case Way::Hoist:
    // Nearest to A first, each to just before A: the group keeps its order.
    for (NodeIdx X : Group)
      Move(X, Pos[M.A]);
    Move(M.B, Pos[M.A]);
    break;
  case Way::Sink:
    for (NodeIdx X : Group)
      Move(X, Pos[M.B]);
    Move(M.A, Pos[M.B]);
    break;
  case Way::Both:
    Move(M.A, latest(M.A));
    Move(M.B, earliest(M.B));
    assert(Pos[M.B] < Pos[M.A] && "Both did not reorder the pair");
    break;
  case Way::Illegal:
    return false;
  }
  if (improves(Seeds)) {
    commit();
    return true;
  }
  Seeds.clear();
  for (auto [I, From] : llvm::reverse(Done))
    moveTo(I, From, Seeds);
  return false;
}

void Search::commit() {
  // A wave over a quarter of the nodes or more (an accepted move typically
  // shifts everything after it) leaves few blocks clean: recounting all of
  // them costs less than finding the dirty ones.
  if (ChangedCount * 4 >= V) {
    ChangedCount = 0;
    for (uint32_t B = 0, E = BlockMax.size(); B != E; ++B)
      recountBlock(B);
    recountMax();
    return;
  }
  for (const OldTimes &O : ArrayRef(Changed).take_front(ChangedCount)) {
    uint32_t B = O.I / BlockSize;
    if (!BlockDirty[B]) {
      BlockDirty[B] = 1;
      DirtyBlocks.push_back(B);
    }
  }
  ChangedCount = 0;
  for (uint32_t B : DirtyBlocks) {
    recountBlock(B);
    BlockDirty[B] = 0;
  }
  DirtyBlocks.clear();
  recountMax();
}

void Search::run(const CPEOptions &Opts, CPEStats &S) {
  using Clock = std::chrono::steady_clock;
  Clock::time_point Deadline = Clock::now();
  // A budget beyond what the clock can count from now (about 292 years of
  // nanoseconds) is no limit; converting it would overflow.
  std::chrono::duration<double> ClockLeft = Clock::time_point::max() - Deadline;
  bool HasDeadline = Opts.TimeBudget > 0 && Opts.TimeBudget < ClockLeft.count();
  if (HasDeadline)
    Deadline += std::chrono::duration_cast<Clock::duration>(
        std::chrono::duration<double>(Opts.TimeBudget));
  if (Opts.Effort) {
    uint64_t Edges = PredList.size();
    RetimeLimit = std::max(
        Opts.MinRetimes, SaturatingMultiply(Opts.Effort, uint64_t(V) + Edges));
  }
  DenseAfter = Opts.DenseAfter;
  bool Stop = false;
  for (unsigned Pass = 0; Pass != Opts.Passes && !Stop; ++Pass) {
    std::vector<NodeIdx> Chain = criticalChain();
    uint64_t Accepted = 0, Tried = 0;
    bool Limit = false;
    auto Budget = [&] {
      if (OverLimit) {
        S.HitEffortLimit = Stop = true;
        return false;
      }
      if (HasDeadline && Clock::now() >= Deadline) {
        S.HitTimeBudget = Stop = true;
        return false;
      }
      if (Opts.MaxCandidates && Tried >= Opts.MaxCandidates) {
        Limit = true;
        return false;
      }
      ++Tried;
      ++S.Candidates;
      return true;
    };
    SmallVector<Move, 16> Moves;
    SmallVector<NodeIdx, 8> Group;
    for (NodeIdx C : Chain) {
      Moves.clear();
      candidates(C, Opts.Window, Moves);
      bool Moved = false;
      for (const Move &M : Moves) {
        Way W = way(M, Group);
        if (W == Way::Illegal) {
          ++S.Illegal;
          continue;
        }
        if (!Budget())
          break;
        if (tryMove(M, W, Group)) {
          Moved = true;
          uint64_t Carried =
              count_if(Group, [&](NodeIdx X) { return isBuf(X); }) +
              (isBuf(M.A) && W != Way::Hoist) + (isBuf(M.B) && W != Way::Sink);
          S.BufferMoves += Carried != 0;
          S.BufferNodesMoved += Carried;
          break;
        }
      }
      Accepted += Moved;
      if (Limit || Stop)
        break;
    }
    ++S.Passes;
    S.Moves += Accepted;
    S.HitCandidateLimit |= Limit;
    if (!Accepted)
      break;
  }
  S.Retimed = Retimed;
}

/// Reuse edges whose placement starts before its release has finished, in
/// the timing of \p S.
static uint64_t ownershipViolations(const Graph &G, const Search &S) {
  uint64_t N = 0;
  for (NodeIdx I = 0, E = G.size(); I != E; ++I)
    for (NodeIdx R : G[I].ReusePreds)
      N += S.start(I) < S.finish(R);
  return N;
}

} // namespace cpe

static const EnumEntry<CPEMode> Modes[] = {
    {CPEMode::Refine, "refine",
     "move operations while the makespan strictly drops; the memory plan is "
     "kept (default)"},
    {CPEMode::Freeze, "freeze",
     "move nothing: the output is the input (the Freeze variant)"},
    {CPEMode::Ignore, "ignore",
     "the Ignore diagnostic: search on a timing without the plan's reuse "
     "edges and count the ownership violations; the output is NOT a stage-3 "
     "result"},
};

static const EnumEntry<CPEMoveSet> MoveSets[] = {
    {CPEMoveSet::Ops, "ops",
     "only operations, never across a node of a buffer they use (default)"},
    {CPEMoveSet::OpsAndBuffers, "ops-and-buffers",
     "operations, and ALLOC, FREE, SPILL_OUT and SPILL_IN nodes across "
     "operations, never across another buffer node"},
};

ArrayRef<EnumEntry<CPEMode>> cpeModeTable() { return Modes; }

ArrayRef<EnumEntry<CPEMoveSet>> cpeMoveSetTable() { return MoveSets; }

static const EnumEntry<CPEStart> Starts[] = {
    {CPEStart::Best, "best",
     "search from the input and, when it is faster than that result, from "
     "the best list schedule that keeps the plan; keep the lower makespan "
     "(default)"},
    {CPEStart::Input, "input", "search from the input order alone"},
};

ArrayRef<EnumEntry<CPEStart>> cpeStartTable() { return Starts; }

Expected<CPEStats> runCPE(Graph &G, const TargetDesc &T, const CPEOptions &Opts,
                          bool InputChecked) {
  // The search relies on a legal schedule (every edge respected, every use
  // inside its buffer's lifetime), and keeps a plan only if there is one to
  // keep.
  std::optional<ReplayResult> Replayed;
  if (!InputChecked)
    if (Error E =
            verifyPassInput(G, T, "dan-cpe", /*Scheduled=*/true, &Replayed))
      return Expected<CPEStats>(std::move(E));
  return runCPEOnVerified(G, T, Opts,
                          Replayed ? std::move(*Replayed) : replay(G, T));
}

Expected<CPEStats> runCPEOnVerified(Graph &G, const TargetDesc &T,
                                    const CPEOptions &Opts,
                                    ReplayResult RBefore) {
  CPEStats S;
  S.MakespanBefore = RBefore.Makespan;
  for (const Node &N : G.Nodes)
    S.ReuseEdges += N.ReusePreds.size();
  if (Opts.Mode == CPEMode::Freeze) {
    S.MakespanAfter = S.MakespanBefore;
    return S;
  }

  bool Ignore = Opts.Mode == CPEMode::Ignore;
  bool MoveBuffers = Opts.Moves == CPEMoveSet::OpsAndBuffers;
  cpe::Search Local(G, T, /*WithReuse=*/!Ignore, MoveBuffers);
  uint64_t SearchBefore = Local.makespan();
  if (Ignore) {
    S.IgnoreMakespanBefore = SearchBefore;
    S.ViolationsBefore = cpe::ownershipViolations(G, Local);
  }
  Local.run(Opts, S);
  std::vector<NodeIdx> Input = std::move(G.Order);
  G.Order = Local.order();
  // What the search that made the output timed before and after it, and
  // what replay measured before it; they must agree (below).
  uint64_t TimedAfter = Local.makespan(), Measured = RBefore.Makespan;
  if (!Ignore && Opts.Start == CPEStart::Best) {
    // The best list schedule that keeps the plan, and the search from it
    // when it beats the search from the input; ties to the input. Both use
    // the graph under another order, not a copy of it (only the order
    // differs).
    std::vector<NodeIdx> Searched = std::move(G.Order);
    G.Order =
        cpe::bestListSchedule(G, Input, T, RBefore.PeakL1UB, S.ListMakespan);
    if (S.ListMakespan < TimedAfter) {
      cpe::Search Again(G, T, /*WithReuse=*/true, MoveBuffers);
      uint64_t AgainBefore = Again.makespan();
      CPEStats Counts;
      Again.run(Opts, Counts);
      if (Again.makespan() < TimedAfter) {
        Counts.MakespanBefore = S.MakespanBefore;
        Counts.ListMakespan = S.ListMakespan;
        Counts.ReuseEdges = S.ReuseEdges;
        Counts.FromList = true;
        S = Counts;
        Searched = Again.order();
        SearchBefore = AgainBefore;
        TimedAfter = Again.makespan();
        Measured = S.ListMakespan;
      }
    }
    G.Order = std::move(Searched);
  }
  // An order that came back as it went in replays as it did before.
  bool Moved = G.Order != Input;
  std::optional<ReplayResult> Replayed;
  if (Moved)
    Replayed = replay(G, T);
  const ReplayResult &RAfter = Moved ? *Replayed : RBefore;
  S.MakespanAfter = RAfter.Makespan;
  // The plan, and the peaks that follow each tier's order of buffer nodes,
  // must be the input's; so must the order of all buffer nodes and the
  // L1+UB peak, unless a list schedule of a plan made the output (docs/CPE.md,
  // "Contract"). Checked, not assumed, when the order moved.
  bool KeepsAll = !S.FromList || !G.hasMemoryPlan();
  if ((Moved && !cpe::keepsPlanOrder(G, Input, G.Order, KeepsAll)) ||
      RBefore.TierPeak != RAfter.TierPeak ||
      (KeepsAll && RBefore.PeakL1UB != RAfter.PeakL1UB)) {
    G.Order = std::move(Input);
    return createStringError(inconvertibleErrorCode(),
                             "internal error: dan-cpe changed the order of "
                             "the buffer nodes or a peak of @%s",
                             G.Name.c_str());
  }
  if (Ignore) {
    S.IgnoreMakespanAfter = Local.makespan();
    S.Violations = cpe::ownershipViolations(G, Local);
    std::vector<uint32_t> Pos = G.positions();
    for (NodeIdx I = 0, E = G.size(); I != E; ++I)
      for (NodeIdx R : G[I].ReusePreds)
        S.OrderViolations += Pos[I] < Pos[R];
  } else if (SearchBefore != Measured || TimedAfter != S.MakespanAfter) {
    // Each accepted move lowered the makespan as the search times it, which
    // must be replay's timing; if the ruler disagrees, the input is the safe
    // answer.
    G.Order = std::move(Input);
    return createStringError(
        inconvertibleErrorCode(),
        "internal error: dan-cpe timed @%s at %llu before and %llu after, "
        "but replay measures %llu and %llu",
        G.Name.c_str(), (unsigned long long)SearchBefore,
        (unsigned long long)TimedAfter, (unsigned long long)Measured,
        (unsigned long long)S.MakespanAfter);
  }
  return S;
}

} // namespace dan
