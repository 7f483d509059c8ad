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
// reaches the current makespan. A wide wave of changes is finished by a
// forward walk over the positions, which retimes the same nodes without
// the queue.
//
//===----------------------------------------------------------------------===//

#include "dan/Transforms/CPE.h"
#include "dan/Analysis/Replay.h"
#include "dan/Analysis/Verifier.h"
#include "dan/IR/Diagnostic.h"
#include "dan/IR/MemoryPlan.h"
#include "dan/IR/NodeCosts.h"
#include "llvm/ADT/DenseMap.h"
#include "llvm/ADT/DenseSet.h"
#include "llvm/ADT/STLExtras.h"
#include "llvm/Support/MathExtras.h"
#include <algorithm>
#include <array>
#include <chrono>
#include <functional>

using namespace llvm;

namespace dan {

namespace {

constexpr NodeIdx None = UINT32_MAX;
constexpr uint8_t NoPipe = 0xff;

/// The local search over one graph. The graph itself is only read; the
/// search works on its own copy of the order.
class Search {
public:
  /// \p WithReuse: whether reuse edges constrain the timing (false for
  /// --mode=ignore).
  /// \p MoveBuffers: whether buffer nodes may move (across operations).
  Search(const Graph &G, const TargetDesc &T, bool WithReuse, bool MoveBuffers);

  void run(const CPEOptions &Opts, CPEStats &S);

  uint64_t makespan() const { return Makespan; }
  const std::vector<NodeIdx> &order() const { return Order; }
  /// When \p I starts: the latest finish of its predecessors and of its
  /// pipe predecessor (derived, so that a retiming writes one time per node).
  uint64_t start(NodeIdx I) const {
    uint64_t S = ready(I);
    if (NodeIdx P = pipePrev(I); P != None)
      S = std::max(S, Finish[P]);
    return S;
  }
  uint64_t finish(NodeIdx I) const { return Finish[I]; }

private:
  // The graph, in arrays.
  const Graph &G;
  size_t V;
  bool MoveBuffers;
  std::vector<uint64_t> Cycles;
  std::vector<uint8_t> PipeOf;
  /// Edges as compressed lists: predecessors, successors, and barriers:
  /// for an operation, the buffer nodes of the buffers it uses; for a
  /// buffer node, the operations that use its buffer.
  std::vector<uint32_t> PredBegin, SuccBegin, BarBegin;
  std::vector<NodeIdx> PredList, SuccList, BarList;
  /// The buffer nodes in schedule order (fixed: they never pass each
  /// other), and each buffer node's index there.
  std::vector<NodeIdx> BufSeq;
  std::vector<uint32_t> BufIdx;

  // The current schedule.
  std::vector<NodeIdx> Order;
  std::vector<uint32_t> Pos;
  /// The nodes of each pipe in schedule order, and each node's index there.
  std::array<std::vector<NodeIdx>, NumPipes> PipeSeq;
  std::vector<uint32_t> PipeIdx;
  /// Each node's neighbours in PipeSeq (None at the ends and off the
  /// pipes), kept beside it: the retiming reads them for every node.
  std::vector<NodeIdx> PipePrev, PipeNext;
  void linkPipe(const std::vector<NodeIdx> &Seq, uint32_t J);
  /// Per node, a position at or after each of its successors and its pipe
  /// successor: where the wave of a changed node may end. An upper bound,
  /// raised when a move takes a successor later and never lowered, so that
  /// a move updates it in O(moved range * in-degree).
  std::vector<uint32_t> Horizon;
  void raiseHorizon(NodeIdx Of, NodeIdx Succ) {
    Horizon[Of] = std::max(Horizon[Of], Pos[Succ]);
  }

  // The timing of the current schedule.
  std::vector<uint64_t> Finish;
  uint64_t Makespan = 0;
  /// How many nodes finish at Makespan.
  uint64_t AtMax = 0;
  /// The latest finish in each block of BlockSize consecutive node
  /// indices, and how many nodes of the block finish then: a commit
  /// recomputes the blocks it touched and takes the maximum over the
  /// blocks, O(changed + touched blocks * BlockSize + V / BlockSize),
  /// instead of rescanning every node.
  static constexpr uint32_t BlockSize = 256;
  std::vector<uint64_t> BlockMax;
  std::vector<uint32_t> BlockAtMax;
  std::vector<uint8_t> BlockDirty;
  std::vector<uint32_t> DirtyBlocks;
  void recountBlock(uint32_t B);
  /// Nodes retimed so far (every candidate's, accepted or not), and the
  /// most the search may retime (0: no limit); a candidate that would pass
  /// the limit is dropped and ends the search.
  uint64_t Retimed = 0, RetimeLimit = 0;
  bool OverLimit = false;

  // A candidate is timed in place, in Finish; Changed lists the
  // nodes it retimed with their times before, so that a rejected candidate
  // is undone and an accepted one only updates the blocks.
  struct OldTimes {
    NodeIdx I;
    uint64_t Finish;
  };
  std::vector<OldTimes> Changed;
  size_t ChangedCount = 0;
  void undoTimes();
  /// The positions waiting to be retimed, as a bit set: a candidate's
  /// nodes are retimed in schedule order by scanning it forward (every
  /// node a retimed node reaches comes later in the order), O(retimed +
  /// span / 64) instead of a heap's O(retimed log retimed). A node is
  /// queued at most once per candidate: whatever could queue it again
  /// comes before it, and has been retimed already.
  std::vector<uint64_t> Waiting;
  /// When a candidate has changed this many times, the rest of its wave is
  /// retimed by a forward walk instead of through Waiting.
  uint64_t DenseAfter = CPEOptions().DenseAfter;
  /// Per node, the last candidate (by Epoch) that changed its time.
  std::vector<uint32_t> Stamp;
  uint32_t Epoch = 0;
  /// The first word of Waiting a candidate that stopped early may have left
  /// bits in (from it to the end; Waiting.size() when none).
  uint32_t StaleFrom = 0;

  ArrayRef<NodeIdx> preds(NodeIdx I) const {
    return ArrayRef(PredList).slice(PredBegin[I],
                                    PredBegin[I + 1] - PredBegin[I]);
  }
  ArrayRef<NodeIdx> succs(NodeIdx I) const {
    return ArrayRef(SuccList).slice(SuccBegin[I],
                                    SuccBegin[I + 1] - SuccBegin[I]);
  }
  ArrayRef<NodeIdx> barriers(NodeIdx I) const {
    return ArrayRef(BarList).slice(BarBegin[I], BarBegin[I + 1] - BarBegin[I]);
  }
  NodeIdx pipePrev(NodeIdx I) const { return PipePrev[I]; }
  /// The latest finish of the predecessors (eq. 32's max), and which one.
  uint64_t ready(NodeIdx I, NodeIdx *Which = nullptr) const;

  void timeAll();
  void recountMax();
  std::vector<NodeIdx> criticalChain() const;
  bool isBuf(NodeIdx I) const { return G[I].isBufferNode(); }
  bool movable(NodeIdx I) const { return MoveBuffers || !isBuf(I); }
  /// The buffer node before and after buffer node \p I, or None.
  NodeIdx bufPrev(NodeIdx I) const {
    return BufIdx[I] == 0 ? None : BufSeq[BufIdx[I] - 1];
  }
  NodeIdx bufNext(NodeIdx I) const {
    return BufIdx[I] + 1 == BufSeq.size() ? None : BufSeq[BufIdx[I] + 1];
  }
  uint32_t earliest(NodeIdx I) const;
  uint32_t latest(NodeIdx I) const;
  bool group(NodeIdx I, NodeIdx Stop, bool Up, SmallVectorImpl<NodeIdx> &Group);
  void moveTo(NodeIdx I, uint32_t To, SmallVectorImpl<NodeIdx> &Seeds);
  void raiseHorizons(uint32_t From, uint32_t To);
  bool improves(ArrayRef<NodeIdx> Seeds);
  void commit();
  /// A candidate: put B ahead of A on their pipe (A runs before B now).
  struct Move {
    NodeIdx A, B;
  };
  /// How a move is made in the global order.
  enum class Way { Illegal, Hoist, Sink, Both };
  Way way(const Move &M, SmallVectorImpl<NodeIdx> &Group);
  bool tryMove(const Move &M, Way W, ArrayRef<NodeIdx> Group);
  void candidates(NodeIdx C, unsigned W, SmallVectorImpl<Move> &Out) const;
};

} // namespace

/// The cycles and pipe of each node, as replay() counts them.
static void nodeTiming(const Graph &G, const TargetDesc &T,
                       std::vector<uint64_t> &Cycles,
                       std::vector<uint8_t> &PipeOf) {
  BufferCosts Costs = bufferCosts(G);
  Cycles.assign(G.size(), 0);
  PipeOf.assign(G.size(), NoPipe);
  for (NodeIdx I = 0, E = G.size(); I != E; ++I) {
    Cycles[I] = nodeCycles(G, I, T, Costs);
    if (std::optional<Pipe> P = nodePipe(G[I], T))
      PipeOf[I] = static_cast<uint8_t>(*P);
  }
}

Search::Search(const Graph &G, const TargetDesc &T, bool WithReuse,
               bool MoveBuffers)
    : G(G), V(G.size()), MoveBuffers(MoveBuffers) {
  nodeTiming(G, T, Cycles, PipeOf);

  // Predecessors and successors: input and spill edges, and reuse edges
  // unless the timing ignores them.
  PredBegin.assign(V + 1, 0);
  SuccBegin.assign(V + 1, 0);
  for (NodeIdx I = 0; I != V; ++I) {
    auto Count = [&](const EdgeList &L) {
      PredBegin[I + 1] += L.size();
      for (NodeIdx P : L)
        ++SuccBegin[P + 1];
    };
    Count(G[I].Preds);
    if (WithReuse)
      Count(G[I].ReusePreds);
  }
  for (size_t I = 0; I != V; ++I) {
    PredBegin[I + 1] += PredBegin[I];
    SuccBegin[I + 1] += SuccBegin[I];
  }
  PredList.resize(PredBegin[V]);
  SuccList.resize(SuccBegin[V]);
  {
    std::vector<uint32_t> PredFill(PredBegin.begin(), PredBegin.end() - 1);
    std::vector<uint32_t> SuccFill(SuccBegin.begin(), SuccBegin.end() - 1);
    for (NodeIdx I = 0; I != V; ++I) {
      auto Fill = [&](const EdgeList &L) {
        for (NodeIdx P : L) {
          PredList[PredFill[I]++] = P;
          SuccList[SuccFill[P]++] = I;
        }
      };
      Fill(G[I].Preds);
      if (WithReuse)
        Fill(G[I].ReusePreds);
    }
  }

  // Barriers: every buffer node of every buffer an operation uses, and
  // for a buffer node every operation that uses its buffer.
  DenseMap<uint64_t, SmallVector<NodeIdx, 2>> BufNodes, BufUsers;
  auto UniqueBufs = [&](NodeIdx I) {
    SmallVector<uint64_t, 3> Bufs(G[I].Bufs.begin(), G[I].Bufs.end());
    llvm::sort(Bufs);
    Bufs.erase(std::unique(Bufs.begin(), Bufs.end()), Bufs.end());
    return Bufs;
  };
  for (NodeIdx I = 0; I != V; ++I) {
    if (G[I].isBufferNode())
      BufNodes[G[I].Buf].push_back(I);
    else
      for (uint64_t B : UniqueBufs(I))
        BufUsers[B].push_back(I);
  }
  BarBegin.assign(V + 1, 0);
  auto Append = [&](NodeIdx I,
                    const DenseMap<uint64_t, SmallVector<NodeIdx, 2>> &Map,
                    uint64_t B) {
    auto It = Map.find(B);
    if (It == Map.end())
      return;
    BarList.insert(BarList.end(), It->second.begin(), It->second.end());
    BarBegin[I + 1] += It->second.size();
  };
  for (NodeIdx I = 0; I != V; ++I) {
    BarBegin[I + 1] = BarBegin[I];
    if (G[I].isBufferNode()) {
      Append(I, BufUsers, G[I].Buf);
      continue;
    }
    for (uint64_t B : UniqueBufs(I))
      Append(I, BufNodes, B);
  }

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
  uint64_t Max = 0;
  uint32_t Count = 0;
  for (NodeIdx I = B * BlockSize, E = std::min<size_t>(V, I + BlockSize);
       I != E; ++I) {
    if (Finish[I] > Max) {
      Max = Finish[I];
      Count = 0;
    }
    Count += Finish[I] == Max;
  }
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

/// The first position \p I may take alone: after every predecessor and
/// every barrier scheduled before it, and for a buffer node after the
/// previous buffer node.
uint32_t Search::earliest(NodeIdx I) const {
  uint32_t E = 0;
  for (ArrayRef<NodeIdx> L : {preds(I), barriers(I)})
    for (NodeIdx P : L)
      if (Pos[P] < Pos[I])
        E = std::max(E, Pos[P] + 1);
  if (isBuf(I))
    if (NodeIdx P = bufPrev(I); P != None)
      E = std::max(E, Pos[P] + 1);
  return E;
}

/// The last position \p I may take alone: before every successor and
/// every barrier scheduled after it, and for a buffer node before the next
/// buffer node.
uint32_t Search::latest(NodeIdx I) const {
  uint32_t L = V - 1;
  for (ArrayRef<NodeIdx> List : {succs(I), barriers(I)})
    for (NodeIdx S : List)
      if (Pos[S] > Pos[I])
        L = std::min(L, Pos[S] - 1);
  if (isBuf(I))
    if (NodeIdx S = bufNext(I); S != None)
      L = std::min(L, Pos[S] - 1);
  return L;
}

/// The buffer nodes that must move with \p I for it to pass \p Stop:
/// with \p Up (a hoist, Stop before I), every node from Stop to I that
/// blocks I (a predecessor, a barrier, or any buffer node when I is one),
/// and transitively what blocks those; without (a sink, Stop after I), the
/// same from I to Stop. One walk over the range (at most about the window),
/// from I outwards: whatever blocks a moving node lies beyond it. Fails when
/// such a blocker is Stop itself or an operation, or buffer nodes may not move.
/// On success \p Group holds them, nearest to Stop first; empty when I may pass
/// Stop alone.
///
/// Moving I and the group past the other nodes of the range, keeping their
/// own relative order, crosses no constraint: every node of the range that
/// is a blocker of a moving node moves too. In particular a buffer node of
/// the range before (after) a moving buffer node is in the group, so the
/// buffer nodes keep their relative order.
bool Search::group(NodeIdx I, NodeIdx Stop, bool Up,
                   SmallVectorImpl<NodeIdx> &Group) {
  Group.clear();
  // Walk the range from I towards Stop; a node must move when it blocks a
  // node that moves (all of which lie between it and I, so are known).
  auto Blocks = [&](NodeIdx Z, NodeIdx Y) {
    if (isBuf(Z) && isBuf(Y))
      return true;
    // An edge Z -> Y (Up) or Y -> Z: search the shorter list.
    ArrayRef<NodeIdx> FromZ = Up ? succs(Z) : preds(Z);
    ArrayRef<NodeIdx> FromY = Up ? preds(Y) : succs(Y);
    if (FromZ.size() <= FromY.size() ? is_contained(FromZ, Y)
                                     : is_contained(FromY, Z))
      return true;
    if (isBuf(Z) == isBuf(Y))
      return false;
    const Node &Op = isBuf(Z) ? G[Y] : G[Z];
    return is_contained(Op.Bufs, isBuf(Z) ? G[Z].Buf : G[Y].Buf);
  };
  uint32_t P = Pos[I], Edge = Pos[Stop];
  while (P != Edge) {
    P = Up ? P - 1 : P + 1;
    NodeIdx Z = Order[P];
    if (!Blocks(Z, I) &&
        none_of(Group, [&](NodeIdx Y) { return Blocks(Z, Y); }))
      continue;
    if (Z == Stop || !isBuf(Z) || !MoveBuffers)
      return false;
    Group.push_back(Z);
  }
  // Nearest to Stop first.
  std::reverse(Group.begin(), Group.end());
  return true;
}

/// Moves node \p I to position \p To, shifting the nodes between, and
/// collects the nodes whose pipe predecessor changed in \p Seeds.
void Search::moveTo(NodeIdx I, uint32_t To, SmallVectorImpl<NodeIdx> &Seeds) {
  uint32_t From = Pos[I];
  if (To < From) {
    for (uint32_t Q = From; Q != To; --Q) {
      Order[Q] = Order[Q - 1];
      Pos[Order[Q]] = Q;
    }
  } else {
    for (uint32_t Q = From; Q != To; ++Q) {
      Order[Q] = Order[Q + 1];
      Pos[Order[Q]] = Q;
    }
  }
  Order[To] = I;
  Pos[I] = To;

  Seeds.push_back(I);
  if (PipeOf[I] == NoPipe) {
    raiseHorizons(From, To);
    return;
  }
  std::vector<NodeIdx> &Seq = PipeSeq[PipeOf[I]];
  uint32_t Old = PipeIdx[I], Idx = Old;
  while (Idx > 0 && Pos[Seq[Idx - 1]] > To) {
    Seq[Idx] = Seq[Idx - 1];
    PipeIdx[Seq[Idx]] = Idx;
    --Idx;
  }
  while (Idx + 1 < Seq.size() && Pos[Seq[Idx + 1]] < To) {
    Seq[Idx] = Seq[Idx + 1];
    PipeIdx[Seq[Idx]] = Idx;
    ++Idx;
  }
  Seq[Idx] = I;
  PipeIdx[I] = Idx;
  // The neighbours change only around where I left and where it landed.
  uint32_t Lo = std::min(Old, Idx), Hi = std::max(Old, Idx);
  for (uint32_t J : {Lo - 1, Lo, Lo + 1, Hi - 1, Hi, Hi + 1})
    if (J < Seq.size()) // Lo - 1 wraps around at 0
      linkPipe(Seq, J);
  // The new pipe successor of I, and whatever now sits where I was and
  // after it: each may have a new pipe predecessor.
  for (uint32_t J : {Idx + 1, Old, Old + 1})
    if (J < Seq.size() && Seq[J] != I)
      Seeds.push_back(Seq[J]);
  raiseHorizons(From, To);
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

void Search::linkPipe(const std::vector<NodeIdx> &Seq, uint32_t J) {
  PipePrev[Seq[J]] = J ? Seq[J - 1] : None;
  PipeNext[Seq[J]] = J + 1 < Seq.size() ? Seq[J + 1] : None;
  if (J + 1 < Seq.size())
    raiseHorizon(Seq[J], Seq[J + 1]);
}

/// Retimes what the move changed (the seeds and everything their new finish
/// times reach), in schedule order, in place. Returns whether the makespan
/// strictly drops; stops early when it cannot, with the times undone.
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
  OldTimes *Log = Changed.data();
  size_t Logged = 0;
  const uint64_t Limit = RetimeLimit ? RetimeLimit : UINT64_MAX;
  const uint64_t Max = Makespan;
  uint64_t Count = Retimed;

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
  for (NodeIdx I : Seeds) {
    Push(I);
    Cursor = std::min(Cursor, PosOf[I]);
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
    Retimed = Count;
    ChangedCount = Logged;
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
    if (++Count > Limit) {
      OverLimit = true;
      return false;
    }
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
    Log[Logged++] = {I, Old};
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
      WaitBits[Word] &= ~(uint64_t(1) << (P % 64));
      Cursor = P;
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
      if (MayWalk && Logged >= DenseAfter)
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
    size_t WalkLogFrom = Logged;
    uint64_t Slack = 4 * DenseAfter, Hits = 0, Passed = 0;
    bool Thinned = false;
    for (uint32_t P = Cursor + 1; P <= Reach; ++P) {
      Cursor = P;
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
    for (const OldTimes &O : ArrayRef(Log + WalkLogFrom, Log + Logged)) {
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

void Search::commit() {
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
      !is_contained(preds(M.B), M.A) && !is_contained(barriers(M.B), M.A) &&
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

Expected<CPEStats> runCPE(Graph &G, const TargetDesc &T,
                          const CPEOptions &Opts) {
  // The search relies on a legal schedule (every edge respected, every use
  // inside its buffer's lifetime), and keeps a plan only if there is one to
  // keep.
  if (Error E = verifyPassInput(G, T, "dan-cpe"))
    return Expected<CPEStats>(std::move(E));
  CPEStats S;
  ReplayResult RBefore = replay(G, T);
  S.MakespanBefore = RBefore.Makespan;
  for (const Node &N : G.Nodes)
    S.ReuseEdges += N.ReusePreds.size();
  if (Opts.Mode == CPEMode::Freeze) {
    S.MakespanAfter = S.MakespanBefore;
    return S;
  }

  bool Ignore = Opts.Mode == CPEMode::Ignore;
  Search Local(G, T, /*WithReuse=*/!Ignore,
               /*MoveBuffers=*/Opts.Moves == CPEMoveSet::OpsAndBuffers);
  uint64_t SearchBefore = Local.makespan();
  if (Ignore) {
    S.IgnoreMakespanBefore = SearchBefore;
    S.ViolationsBefore = ownershipViolations(G, Local);
  }
  Local.run(Opts, S);
  std::vector<NodeIdx> Input = std::move(G.Order);
  G.Order = Local.order();
  ReplayResult RAfter = replay(G, T);
  S.MakespanAfter = RAfter.Makespan;
  // The plan, and the peaks that follow the order of the buffer nodes, must
  // be the input's; checked, not assumed.
  auto BufferOrder = [&](ArrayRef<NodeIdx> Order) {
    std::vector<NodeIdx> B;
    for (NodeIdx I : Order)
      if (G[I].isBufferNode())
        B.push_back(I);
    return B;
  };
  if (BufferOrder(Input) != BufferOrder(G.Order) ||
      RBefore.PeakL1UB != RAfter.PeakL1UB ||
      RBefore.TierPeak != RAfter.TierPeak) {
    G.Order = std::move(Input);
    return createStringError(inconvertibleErrorCode(),
                             "internal error: dan-cpe changed the order of "
                             "the buffer nodes or a peak of @%s",
                             G.Name.c_str());
  }
  if (Ignore) {
    S.IgnoreMakespanAfter = Local.makespan();
    S.Violations = ownershipViolations(G, Local);
    std::vector<uint32_t> Pos = G.positions();
    for (NodeIdx I = 0, E = G.size(); I != E; ++I)
      for (NodeIdx R : G[I].ReusePreds)
        S.OrderViolations += Pos[I] < Pos[R];
  } else if (SearchBefore != S.MakespanBefore ||
             Local.makespan() != S.MakespanAfter) {
    // Each accepted move lowered the makespan as the search times it, which
    // must be replay's timing; if the ruler disagrees, the input is the safe
    // answer.
    G.Order = std::move(Input);
    return createStringError(
        inconvertibleErrorCode(),
        "internal error: dan-cpe timed @%s at %llu before and %llu after, "
        "but replay measures %llu and %llu",
        G.Name.c_str(), (unsigned long long)SearchBefore,
        (unsigned long long)Local.makespan(),
        (unsigned long long)S.MakespanBefore,
        (unsigned long long)S.MakespanAfter);
  }
  return S;
}

} // namespace dan
