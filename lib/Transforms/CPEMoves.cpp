//===- CPEMoves.cpp - where a move puts its nodes -------------------------===//
//
// CPE's moves: how far a node may go (earliest, latest), the group of
// buffer nodes a move carries, and the move itself on the order and the
// pipe sequences (docs/CPE.md, "Why the plan is kept").
//
//===----------------------------------------------------------------------===//

#include "CPESearch.h"
#include "dan/IR/IdIndex.h"
#include "dan/Support/CSR.h"

using namespace llvm;

namespace dan {
namespace cpe {

void Search::buildBarriers() {
  // Barriers kept by buffer: a node's are the lists of its buffers, so
  // they take O(nodes + uses), not O(uses * buffer nodes) as one list per
  // node would (a buffer that many operations use and that spills often).
  // Buffers are numbered densely as they first appear.
  IdIndex BufferOf(V);
  uint32_t Buffers = 0;
  auto Number = [&](uint64_t Id) {
    if (BufferOf.insert(Id, Buffers))
      ++Buffers;
    return BufferOf.lookup(Id);
  };
  // Each node's buffers: an operation's, each once, in id order; a buffer
  // node's own.
  auto ForEachNodeBuffer = [&](auto Visit) {
    for (NodeIdx I = 0; I != V; ++I) {
      if (G[I].isBufferNode()) {
        Visit(I, Number(G[I].Buf));
        continue;
      }
      SmallVector<uint64_t, 3> Bufs(G[I].Bufs.begin(), G[I].Bufs.end());
      llvm::sort(Bufs);
      Bufs.erase(std::unique(Bufs.begin(), Bufs.end()), Bufs.end());
      for (uint64_t B : Bufs)
        Visit(I, Number(B));
    }
  };
  CSRBuilder<uint32_t> NodeBufs(V);
  ForEachNodeBuffer([&](NodeIdx I, uint32_t) { NodeBufs.count(I); });
  NodeBufs.startAdding();
  ForEachNodeBuffer([&](NodeIdx I, uint32_t B) { NodeBufs.add(I, B); });
  NodeBufs.finish(NodeBufBegin, NodeBufList);
  // Each buffer's buffer nodes and users, in node index order.
  CSRBuilder<NodeIdx> Nodes(Buffers), Users(Buffers);
  for (NodeIdx I = 0; I != V; ++I)
    for (uint32_t B : bufferNumbers(I))
      (isBuf(I) ? Nodes : Users).count(B);
  Nodes.startAdding();
  Users.startAdding();
  for (NodeIdx I = 0; I != V; ++I)
    for (uint32_t B : bufferNumbers(I))
      (isBuf(I) ? Nodes : Users).add(B, I);
  Nodes.finish(BufNodesBegin, BufNodesList);
  Users.finish(BufUsersBegin, BufUsersList);
}

bool Search::barrier(NodeIdx A, NodeIdx B) const {
  if (isBuf(A) == isBuf(B))
    return false;
  const Node &Op = isBuf(A) ? G[B] : G[A];
  return is_contained(Op.Bufs, isBuf(A) ? G[A].Buf : G[B].Buf);
}

/// The first position \p I may take alone: after every predecessor and
/// every barrier scheduled before it, and for a buffer node after the
/// previous buffer node.
uint32_t Search::earliest(NodeIdx I) const {
  uint32_t E = 0;
  auto After = [&](ArrayRef<NodeIdx> L) {
    for (NodeIdx P : L)
      if (Pos[P] < Pos[I])
        E = std::max(E, Pos[P] + 1);
  };
  After(preds(I));
  forEachBarrierList(I, After);
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
  auto Before = [&](ArrayRef<NodeIdx> List) {
    for (NodeIdx S : List)
      if (Pos[S] > Pos[I])
        L = std::min(L, Pos[S] - 1);
  };
  Before(succs(I));
  forEachBarrierList(I, Before);
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
    return barrier(Z, Y);
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

void Search::linkPipe(const std::vector<NodeIdx> &Seq, uint32_t J) {
  PipePrev[Seq[J]] = J ? Seq[J - 1] : None;
  PipeNext[Seq[J]] = J + 1 < Seq.size() ? Seq[J + 1] : None;
  if (J + 1 < Seq.size())
    raiseHorizon(Seq[J], Seq[J + 1]);
}

} // namespace cpe

} // namespace dan
