//===- CPETiming.cpp - the timing and its update --------------------------===//
//
// CPE's retiming: the timing of the whole order, the critical chain, and
// the incremental retiming of a candidate move (improves), undone when the
// move is rejected (docs/CPE.md, decision 7).
//
//===----------------------------------------------------------------------===//

#include "CPESearch.h"
#include "dan/Support/CSR.h"

using namespace llvm;

namespace dan {
namespace cpe {

/// The cycles and pipe of each node, as replay() counts them.
static void nodeTiming(const Graph &G, const TargetDesc &T,
                       std::vector<uint64_t> &Cycles,
                       std::vector<uint8_t> &PipeOf) {
  BufferCosts Costs = bufferCosts(G);
  Cycles.assign(G.size(), 0);
  PipeOf.assign(G.size(), NoPipe);
  for (NodeIdx I = 0, E = G.size(); I != E; ++I) {
    Cycles[I] = nodeCycles(G, I, T, Costs);
    if (std::optional<Pipe> P = nodePipe(G, I, T, Costs))
      PipeOf[I] = static_cast<uint8_t>(*P);
  }
}

Search::Search(const Graph &G, const TargetDesc &T, bool WithReuse,
               bool MoveBuffers)
    : G(G), V(G.size()), MoveBuffers(MoveBuffers) {
  nodeTiming(G, T, Cycles, PipeOf);

  buildEdges(WithReuse);
  buildBarriers();
  buildSequences();
  Horizon.assign(V, 0);
  for (NodeIdx I = 0; I != V; ++I) {
    Horizon[I] = Pos[I];
    for (NodeIdx S : succs(I))
      raiseHorizon(I, S);
    if (PipeNext[I] != None)
      raiseHorizon(I, PipeNext[I]);
  }
  Waiting.assign(V / 64 + 1, 0);
  Stamp.assign(V, 0);
  StaleFrom = Waiting.size();
  Changed.resize(V);
  timeAll();
}

void Search::buildEdges(bool WithReuse) {
  // Predecessors and successors: input and spill edges, and reuse edges
  // unless the timing ignores them.
  auto ForEachEdge = [&](auto Visit) {
    for (NodeIdx I = 0; I != V; ++I) {
      for (NodeIdx P : G[I].Preds)
        Visit(P, I);
      if (WithReuse)
        for (NodeIdx P : G[I].ReusePreds)
          Visit(P, I);
    }
  };
  buildEdgeLists<NodeIdx>(V, ForEachEdge, PredBegin, PredList, SuccBegin,
                          SuccList);
}

void Search::buildSequences() {
  Order = G.Order;
  Pos = G.positions();
  PipeIdx.assign(V, 0);
  PipePrev.assign(V, None);
  PipeNext.assign(V, None);
  BufIdx.assign(V, 0);
  for (NodeIdx I : Order) {
    if (PipeOf[I] != NoPipe) {
      std::vector<NodeIdx> &Seq = PipeSeq[PipeOf[I]];
      PipeIdx[I] = Seq.size();
      if (!Seq.empty()) {
        PipePrev[I] = Seq.back();
        PipeNext[Seq.back()] = I;
      }
      Seq.push_back(I);
    }
    if (isBuf(I)) {
      BufIdx[I] = BufSeq.size();
      BufSeq.push_back(I);
    }
  }
}

uint64_t Search::ready(NodeIdx I, NodeIdx *Which) const {
  uint64_t R = 0;
  NodeIdx W = None;
  for (NodeIdx P : preds(I))
    if (W == None || Finish[P] > R) {
      R = Finish[P];
      W = P;
    }
  if (Which)
    *Which = W;
  return R;
}

void Search::timeAll() {
  Finish.assign(V, 0);
  for (NodeIdx I : Order)
    Finish[I] = SaturatingAdd(start(I), Cycles[I]);
  uint32_t Blocks = (V + BlockSize - 1) / BlockSize;
  BlockMax.assign(Blocks, 0);
  BlockAtMax.assign(Blocks, 0);
  BlockDirty.assign(Blocks, 0);
  for (uint32_t B = 0; B != Blocks; ++B)
    recountBlock(B);
  recountMax();
}

void Search::recountBlock(uint32_t B) {
  // Two passes without a branch on the data: the times of a block mostly
  // rise, and a running maximum's branch was mispredicted half the time.
  ArrayRef<uint64_t> Times = ArrayRef(Finish).slice(
      size_t(B) * BlockSize,
      std::min<size_t>(BlockSize, V - size_t(B) * BlockSize));
  uint64_t Max = 0;
  for (uint64_t F : Times)
    Max = std::max(Max, F);
  uint32_t Count = 0;
  for (uint64_t F : Times)
    Count += F == Max;
  BlockMax[B] = Max;
  BlockAtMax[B] = Count;
}

void Search::recountMax() {
  Makespan = 0;
  AtMax = 0;
  for (uint32_t B = 0, E = BlockMax.size(); B != E; ++B) {
    if (BlockMax[B] > Makespan) {
      Makespan = BlockMax[B];
      AtMax = 0;
    }
    AtMax += BlockMax[B] == Makespan ? BlockAtMax[B] : 0;
  }
}

/// The critical chain C* (eq. 34), in time order: from the first node (in
/// schedule order) that finishes at the makespan, back through whichever
/// fixed each node's start: its pipe predecessor when that finished strictly
/// later than every edge predecessor, else the first edge predecessor
/// (in edge-list order) that finished last.
std::vector<NodeIdx> Search::criticalChain() const {
  std::vector<NodeIdx> Chain;
  NodeIdx End = None;
  for (NodeIdx I : Order)
    if (Finish[I] == Makespan) {
      End = I;
      break;
    }
  for (NodeIdx I = End; I != None && Finish[I] != 0;) {
    Chain.push_back(I);
    if (start(I) == 0)
      break;
    NodeIdx Edge;
    uint64_t R = ready(I, &Edge);
    NodeIdx P = pipePrev(I);
    I = P != None && Finish[P] > R ? P : Edge;
  }
  std::reverse(Chain.begin(), Chain.end());
  return Chain;
}

/// Keeps Horizon an upper bound after the nodes between positions \p From
/// and \p To moved: each may now lie later than before, behind its edge
/// predecessors and its pipe predecessor.
void Search::raiseHorizons(uint32_t From, uint32_t To) {
  for (uint32_t Q = std::min(From, To), E = std::max(From, To); Q <= E; ++Q) {
    NodeIdx Y = Order[Q];
    for (NodeIdx P : preds(Y))
      raiseHorizon(P, Y);
    if (PipePrev[Y] != None)
      raiseHorizon(PipePrev[Y], Y);
  }
}

/// Retimes what the move changed (the seeds and everything their new finish
/// times reach), in schedule order, in place. Returns whether the makespan
/// strictly drops; stops early when it cannot, with the times undone.
///
/// A documented hot loop, long on purpose: every candidate move of the
/// search runs it (Matmul_Case1 retimes 23.4 million nodes), and its two
/// walks (the queue, and the forward walk over positions it switches to
/// when the wave of changes grows wide) share their per-node state and the
/// early exit in local variables that calls between helpers would have to
/// pass around on every node.
bool Search::improves(ArrayRef<NodeIdx> Seeds) {
  // Bits a candidate that stopped early left behind.
  std::fill(Waiting.begin() + StaleFrom, Waiting.end(), 0);
  StaleFrom = Waiting.size();
  // The loop below runs for every retimed node (tens of millions on the
  // largest workload): it works on local copies of the arrays and counters,
  // which the compiler need not reload after each store to a time.
  uint64_t *WaitBits = Waiting.data();
  uint64_t *FinishOf = Finish.data();
  const uint64_t *CyclesOf = Cycles.data();
  const uint32_t *PosOf = Pos.data();
  const NodeIdx *OrderAt = Order.data();
  const uint32_t *PredAt = PredBegin.data(), *SuccAt = SuccBegin.data();
  const NodeIdx *PredsOf = PredList.data(), *SuccsOf = SuccList.data();
  const NodeIdx *PrevOf = PipePrev.data(), *NextOf = PipeNext.data();
  const uint32_t *HorizonOf = Horizon.data();
  // Each node is retimed at most once per candidate, so V entries suffice.
  // (The loop has more values than registers: the log is one pointer, and
  // the budget one count down, so that fewer of them live on the stack.)
  OldTimes *const Log = Changed.data();
  OldTimes *LogEnd = Log;
  const uint64_t Limit = RetimeLimit ? RetimeLimit : UINT64_MAX;
  const uint64_t Max = Makespan;
  // Retimings the budget still allows (Retimed never passes Limit but by
  // the one that ends the search).
  uint64_t Left = Retimed < Limit ? Limit - Retimed : 0;

  // Stamp[I] == Epoch: I's time changed in this candidate.
  if (++Epoch == 0) {
    std::fill(Stamp.begin(), Stamp.end(), 0);
    Epoch = 1;
  }
  uint32_t *StampOf = Stamp.data();
  const uint32_t Now = Epoch;

  uint32_t Cursor = UINT32_MAX, Pending = 0, Reach = 0;
  // Every node a retimed node reaches lies after it in the order, and
  // positions are taken in increasing order: a node not waiting now was
  // never queued, or was retimed already and cannot be reached again. So
  // only the seeds can lie before the cursor.
  auto Push = [&](NodeIdx I) {
    uint32_t P = PosOf[I];
    uint64_t Bit = uint64_t(1) << (P % 64);
    if (WaitBits[P / 64] & Bit)
      return;
    WaitBits[P / 64] |= Bit;
    ++Pending;
    Reach = std::max(Reach, P);
  };
  // The last position a node may still finish earlier at: a seed, or a
  // node after one that finished earlier. Past it every node keeps its
  // inputs or sees them finish later, so it cannot finish earlier either;
  // once the nodes at the makespan are not all earlier by then, the
  // candidate is rejected without retiming the rest of its wave.
  uint32_t MayDrop = 0;
  for (NodeIdx I : Seeds) {
    Push(I);
    Cursor = std::min(Cursor, PosOf[I]);
    MayDrop = std::max(MayDrop, PosOf[I]);
  }
  // Where the walk below started, if it did.
  uint32_t DenseFrom = UINT32_MAX;
  // Ends the candidate: the counters go back to the search, and a rejected
  // candidate's times are undone.
  auto Done = [&](bool Accept) {
    // A walk leaves the bits it passed (and those before a cursor it
    // stopped at): the next candidate clears them.
    if (DenseFrom != UINT32_MAX)
      StaleFrom = std::min<uint32_t>(StaleFrom, DenseFrom / 64);
    Retimed = Limit - Left + OverLimit;
    ChangedCount = LogEnd - Log;
    if (!Accept)
      undoTimes();
    return Accept;
  };
  // On an early stop the positions after the cursor may still be waiting.
  auto Reject = [&] {
    StaleFrom = Cursor / 64;
    return Done(false);
  };
  uint64_t Reduced = 0;
  // Counts a queued node retimed to \p F (from \p Old) against the limit;
  // false when the candidate is rejected: the limit is passed, a node that
  // finished at the makespan still does, or a node reaches it.
  auto Admit = [&](uint64_t F, uint64_t Old) {
    if (Left == 0) {
      OverLimit = true;
      return false;
    }
    --Left;
    return F == Old ? F != Max : F < Max;
  };
  // The finish time of I after the latest finish of its predecessors and
  // of its pipe predecessor, as timeAll() computes it.
  auto Retime = [&](NodeIdx I) {
    uint64_t S = 0;
    for (uint32_t E = PredAt[I], End = PredAt[I + 1]; E != End; ++E)
      S = std::max(S, FinishOf[PredsOf[E]]);
    if (NodeIdx Prev = PrevOf[I]; Prev != None)
      S = std::max(S, FinishOf[Prev]);
    return SaturatingAdd(S, CyclesOf[I]);
  };
  auto Record = [&](NodeIdx I, uint64_t F, uint64_t Old) {
    Reduced += Old == Max;
    *LogEnd++ = {I, Old};
    FinishOf[I] = F;
    StampOf[I] = Now;
  };
  uint32_t Word = Cursor / 64;
  bool MayWalk = true;
  for (;;) {
    while (Pending) {
      // The next waiting position at or after the cursor.
      uint64_t Bits = WaitBits[Word] & (~uint64_t(0) << (Cursor % 64));
      while (!Bits)
        Bits = WaitBits[++Word];
      uint32_t P = Word * 64 + llvm::countr_zero(Bits);
      Cursor = P;
      if (P > MayDrop && Reduced != AtMax)
        return Reject();
      WaitBits[Word] &= ~(uint64_t(1) << (P % 64));
      --Pending;
      NodeIdx I = OrderAt[P];
      uint64_t F = Retime(I), Old = FinishOf[I];
      if (!Admit(F, Old))
        return Reject();
      if (F == Old)
        continue;
      Record(I, F, Old);
      for (uint32_t E = SuccAt[I], End = SuccAt[I + 1]; E != End; ++E)
        Push(SuccsOf[E]);
      if (NodeIdx Next = NextOf[I]; Next != None)
        Push(Next);
      if (F < Old)
        MayDrop = std::max(MayDrop, HorizonOf[I]);
      if (MayWalk && size_t(LogEnd - Log) >= DenseAfter)
        break;
    }
    if (!Pending)
      return Done(Reduced == AtMax);

    // A wide wave (an accepted move typically shifts everything after it):
    // walk every position up to the farthest one a changed node may reach,
    // and retime the nodes that would have been queued above, in the same
    // order with the same results, without the queue. Recomputing any node
    // is safe: one that was not queued (not a seed, no predecessor or pipe
    // predecessor changed) keeps its time. So a node whose time changes was
    // queued, and only a node whose time stays needs the check. The walk
    // passes no more than 4 * DenseAfter positions beyond those it retimes:
    // past that the wave has thinned out, and the rest goes back to the
    // queue, so a candidate's cost stays within a constant of its retimed
    // nodes (the budget) plus that slack.
    MayWalk = false;
    DenseFrom = Cursor;
    OldTimes *WalkLogFrom = LogEnd;
    uint64_t Slack = 4 * DenseAfter, Hits = 0, Passed = 0;
    bool Thinned = false;
    for (uint32_t P = Cursor + 1; P <= Reach; ++P) {
      Cursor = P;
      if (P > MayDrop && Reduced != AtMax)
        return Reject();
      NodeIdx I = OrderAt[P];
      uint64_t F = Retime(I), Old = FinishOf[I];
      if (F == Old) {
        NodeIdx Prev = PrevOf[I];
        bool Queued = WaitBits[P / 64] & (uint64_t(1) << (P % 64)) ||
                      (Prev != None && StampOf[Prev] == Now);
        for (uint32_t E = PredAt[I], End = PredAt[I + 1]; E != End && !Queued;
             ++E)
          Queued = StampOf[PredsOf[E]] == Now;
        if (!Queued) {
          if (++Passed > Hits + Slack) {
            Thinned = true;
            break;
          }
          continue;
        }
        ++Hits;
        if (!Admit(F, Old))
          return Reject();
        continue;
      }
      ++Hits;
      if (!Admit(F, Old))
        return Reject();
      Record(I, F, Old);
      Reach = std::max(Reach, HorizonOf[I]);
      if (F < Old)
        MayDrop = std::max(MayDrop, HorizonOf[I]);
    }
    if (!Thinned)
      return Done(Reduced == AtMax);

    // Back to the queue after the cursor (a position that was not queued):
    // the bits the walk passed stay behind it (the next candidate clears
    // them), those after it still wait, and the nodes the walk changed queue
    // their successors and pipe successors that lie after it.
    Pending = 0;
    Word = Cursor / 64;
    Pending += llvm::popcount(WaitBits[Word] & (~uint64_t(0) << (Cursor % 64)));
    for (uint32_t W = Word + 1, E = Waiting.size(); W != E; ++W)
      Pending += llvm::popcount(WaitBits[W]);
    auto PushAfter = [&](NodeIdx Y) {
      if (PosOf[Y] > Cursor)
        Push(Y);
    };
    for (const OldTimes &O : ArrayRef(WalkLogFrom, LogEnd)) {
      for (uint32_t E = SuccAt[O.I], End = SuccAt[O.I + 1]; E != End; ++E)
        PushAfter(SuccsOf[E]);
      if (NodeIdx Next = NextOf[O.I]; Next != None)
        PushAfter(Next);
    }
  }
}

void Search::undoTimes() {
  for (const OldTimes &O : ArrayRef(Changed).take_front(ChangedCount))
    Finish[O.I] = O.Finish;
  ChangedCount = 0;
}

} // namespace cpe

} // namespace dan
