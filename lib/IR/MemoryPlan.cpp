//===- MemoryPlan.cpp - Edges a memory plan implies -----------------------===//

#include "dan/IR/MemoryPlan.h"
#include "dan/IR/Diagnostic.h"
#include "dan/IR/RangeMap.h"
#include "llvm/ADT/DenseSet.h"
#include "llvm/ADT/STLExtras.h"

using namespace llvm;

namespace dan {

namespace {
/// A use of a buffer: an operation or one of its spill nodes. The kind is
/// kept beside the index so that the walk over a buffer's uses does not
/// reach into the (large, randomly placed) nodes.
struct BufferUse {
  NodeIdx I;
  NodeKind Kind;
  bool isSpill() const {
    return Kind == NodeKind::SpillOut || Kind == NodeKind::SpillIn;
  }
};

/// Where a spilled buffer's nodes are, by schedule position.
struct BufferNodes {
  NodeIdx Alloc = UINT32_MAX;
  NodeIdx Free = UINT32_MAX;
  /// Operations using the buffer and its spill nodes, in schedule order.
  SmallVector<BufferUse, 4> Uses;
  /// Whether the buffer is in the list of spilled buffers yet.
  bool Listed = false;
};
} // namespace

/// The nodes of every buffer that has a spill node, and those buffers in
/// order of their first spill node in the schedule. Other buffers need no
/// spill edge, so their uses are not collected.
static IdTable<BufferNodes>
collectSpilledBuffers(const Graph &G, ArrayRef<NodeIdx> Spills,
                      std::vector<BufferNodes *> &BufOrder) {
  IdTable<BufferNodes> Buffers(G.size());
  for (NodeIdx I : Spills)
    Buffers.tryEmplace(G[I].Buf);
  if (!Buffers.size())
    return Buffers;
  for (NodeIdx I : G.Order) {
    const Node &N = G[I];
    if (N.Kind == NodeKind::Op) {
      for (uint64_t Id : N.Bufs)
        if (BufferNodes *B = Buffers.find(Id)) {
          // An op listing a buffer twice uses it once.
          if (B->Uses.empty() || B->Uses.back().I != I)
            B->Uses.push_back({I, N.Kind});
        }
      continue;
    }
    BufferNodes *B = Buffers.find(N.Buf);
    if (!B)
      continue;
    switch (N.Kind) {
    case NodeKind::Alloc:
      if (B->Alloc == UINT32_MAX)
        B->Alloc = I;
      break;
    case NodeKind::Free:
      if (B->Free == UINT32_MAX)
        B->Free = I;
      break;
    case NodeKind::SpillOut:
    case NodeKind::SpillIn:
      if (!B->Listed) {
        B->Listed = true;
        BufOrder.push_back(B);
      }
      B->Uses.push_back({I, N.Kind});
      break;
    case NodeKind::Op:
      break;
    }
  }
  return Buffers;
}

/// The partner of spill node \p I by the numbering rule (spill_out N+2k
/// and spill_in N+2k+1, same buffer), or UINT32_MAX. \p SpillIds holds the
/// spill nodes by Id - N0 (every id from N0 on is a spill node's).
static NodeIdx partnerOf(const Graph &G, NodeIdx I, uint64_t N0,
                         const IdIndex &SpillIds) {
  const Node &S = G[I];
  bool IsOut = S.Kind == NodeKind::SpillOut;
  if (S.Id < N0 || ((S.Id - N0) % 2 == 0) != IsOut)
    return UINT32_MAX;
  NodeIdx Partner = SpillIds.lookup((IsOut ? S.Id + 1 : S.Id - 1) - N0);
  if (Partner == IdIndex::None)
    return UINT32_MAX;
  const Node &P = G[Partner];
  NodeKind Want = IsOut ? NodeKind::SpillIn : NodeKind::SpillOut;
  if (P.Kind != Want || P.Buf != S.Buf)
    return UINT32_MAX;
  return Partner;
}

// Why the reduced set is enough (docs/LangRef.md, "Spill edges"). In a graph
// that verifies, a spilled buffer has one alloc before all its uses and one
// free after them, its spill nodes alternate OUT1 IN1 OUT2 IN2 ... with each
// IN the well-numbered partner of the OUT before it, and no operation uses
// it between an OUT and its IN. So the anchor of OUTk+1 is INk, and by
// induction on k every edge of the full set (alloc and every earlier use ->
// OUT, IN -> free and every later operation) is a path of required edges:
//  * a use U before OUTk+1 is either in [INk, OUTk+1), a required edge, or
//    before OUTk, which reaches OUTk -> INk -> OUTk+1; alloc -> OUT1 is
//    required and reaches the later ones the same way;
//  * an operation X after INk is either before OUTk+1, a required edge, or
//    after INk+1 (none lies between), reached by INk -> OUTk+1 -> INk+1;
//  * INk -> free goes INk -> OUTk+1 -> ... -> INlast -> free.
// Every segment is scanned once: O(uses + spills) per buffer.
std::vector<RequiredEdge> computeSpillEdges(const Graph &G) {
  std::vector<RequiredEdge> Edges;
  // One walk over the nodes: the first spill id (Graph::firstSpillId) and
  // the spill nodes.
  uint64_t N0 = 0;
  std::vector<NodeIdx> Spills;
  for (NodeIdx I = 0, E = G.size(); I != E; ++I) {
    const Node &N = G[I];
    if (N.isSpill())
      Spills.push_back(I);
    else
      N0 = std::max(N0, N.Id + 1);
  }
  if (Spills.empty())
    return Edges;
  IdIndex SpillIds(Spills.size());
  for (NodeIdx I : Spills)
    if (G[I].Id >= N0)
      SpillIds.insert(G[I].Id - N0, I);
  // Buffers in order of first appearance keep the result deterministic.
  std::vector<BufferNodes *> BufOrder;
  IdTable<BufferNodes> Buffers = collectSpilledBuffers(G, Spills, BufOrder);

  constexpr size_t NoPos = SIZE_MAX;
  // Spill_ins whose spill_out has been seen: they anchor the next spill_out.
  std::vector<bool> AfterOwnOut(G.size());
  for (const BufferNodes *BP : BufOrder) {
    const BufferNodes &B = *BP;
    ArrayRef<BufferUse> Uses = B.Uses;
    size_t E = Uses.size();
    size_t LastOut = NoPos;
    for (size_t P = 0; P != E; ++P)
      if (Uses[P].Kind == NodeKind::SpillOut)
        LastOut = P;
    // The latest spill_in that follows its own spill_out, or the latest
    // spill_out: the uses before it reach the next spill_out through it.
    size_t Anchor = NoPos;
    for (size_t P = 0; P != E; ++P) {
      NodeIdx S = Uses[P].I;
      NodeKind K = Uses[P].Kind;
      if (K == NodeKind::SpillOut) {
        if (Anchor == NoPos && B.Alloc != UINT32_MAX)
          Edges.push_back({B.Alloc, S, RequiredEdge::AllocToOut});
        for (size_t Q = Anchor == NoPos ? 0 : Anchor; Q != P; ++Q)
          Edges.push_back({Uses[Q].I, S, RequiredEdge::UserToOut});
        NodeIdx In = partnerOf(G, S, N0, SpillIds);
        if (In != UINT32_MAX) {
          Edges.push_back({S, In, RequiredEdge::OutToIn});
          AfterOwnOut[In] = true;
        }
        Anchor = P;
        continue;
      }
      if (K != NodeKind::SpillIn || partnerOf(G, S, N0, SpillIds) == UINT32_MAX)
        continue;
      if (AfterOwnOut[S])
        Anchor = P;
      // A later spill_out carries the free's order on to the next spill_in.
      if (B.Free != UINT32_MAX && (LastOut == NoPos || LastOut < P))
        Edges.push_back({S, B.Free, RequiredEdge::InToFree});
      // Uses after the next spill node are reached through it.
      for (size_t Q = P + 1; Q != E && !Uses[Q].isSpill(); ++Q)
        Edges.push_back({S, Uses[Q].I, RequiredEdge::InToUser});
    }
  }
  return Edges;
}

void addSpillEdges(Graph &G) {
  // Mark[P] == To: P is already a predecessor of To. Required edges come
  // grouped by target, so the marks are refreshed once per group.
  std::vector<NodeIdx> Mark(G.size(), UINT32_MAX);
  NodeIdx Marked = UINT32_MAX;
  for (const RequiredEdge &E : computeSpillEdges(G)) {
    auto &Preds = G[E.To].Preds;
    if (E.To != Marked) {
      for (NodeIdx P : Preds)
        Mark[P] = E.To;
      Marked = E.To;
    }
    if (Mark[E.From] != E.To) {
      Preds.push_back(E.From);
      Mark[E.From] = E.To;
    }
  }
  G.sortEdges();
}

void renumberSpills(Graph &G) {
  IdIndex SpillIds(G.size());
  for (NodeIdx I = 0, E = G.size(); I != E; ++I)
    if (G[I].isSpill())
      SpillIds.insert(G[I].Id, I);
  constexpr uint64_t Unset = UINT64_MAX;
  std::vector<uint64_t> NewId(G.size(), Unset);
  uint64_t Next = G.firstSpillId();
  for (NodeIdx I : G.Order) {
    const Node &N = G[I];
    if (N.Kind != NodeKind::SpillOut)
      continue;
    NewId[I] = Next;
    NodeIdx In = SpillIds.lookup(N.Id + 1);
    if (In != IdIndex::None && G[In].Kind == NodeKind::SpillIn &&
        G[In].Buf == N.Buf && NewId[In] == Unset)
      NewId[In] = Next + 1;
    Next += 2;
  }
  // A spill_in whose id names no partner (a hand-edited plan) pairs with
  // the last spill_out of its buffer before it that has no spill_in yet.
  DenseMap<uint64_t, NodeIdx> OpenOut;
  for (NodeIdx I : G.Order) {
    const Node &N = G[I];
    if (N.Kind == NodeKind::SpillOut) {
      NodeIdx In = SpillIds.lookup(N.Id + 1);
      bool Paired = In != IdIndex::None && G[In].Kind == NodeKind::SpillIn &&
                    NewId[In] == NewId[I] + 1;
      if (Paired)
        OpenOut.erase(N.Buf);
      else
        OpenOut[N.Buf] = I;
    } else if (N.Kind == NodeKind::SpillIn && NewId[I] == Unset) {
      auto It = OpenOut.find(N.Buf);
      if (It != OpenOut.end()) {
        NewId[I] = NewId[It->second] + 1;
        OpenOut.erase(It);
      }
    }
  }
  for (NodeIdx I : G.Order)
    if (G[I].isSpill() && NewId[I] == Unset)
      NewId[I] = Next++;
  for (NodeIdx I = 0, E = G.size(); I != E; ++I)
    if (NewId[I] != Unset)
      G[I].Id = NewId[I];
  G.sortEdges();
}

Error fixMemoryPlan(Graph &G) {
  if (!G.hasMemoryPlan())
    return Error::success();
  std::vector<uint64_t> Ids;
  for (const Node &N : G.Nodes)
    Ids.push_back(N.Id);
  uint64_t LastOther = G.firstSpillId() - 1;
  renumberSpills(G);
  auto Past = find_if(G.Order, [&](NodeIdx I) { return G[I].Id > MaxValue; });
  if (Past != G.Order.end()) {
    for (size_t I = 0; I != Ids.size(); ++I)
      G[I].Id = Ids[I];
    G.sortEdges();
    DiagList Diags;
    Diags.error(G[*Past].Loc,
                "cannot renumber the spills: " + describeNode(G, *Past) +
                    " would take an id past the IR's limit of 2^40 (spill "
                    "ids follow n" +
                    Twine(LastOther) + ", the largest other id)");
    return Diags.takeError();
  }
  addSpillEdges(G);
  setReuseEdges(G);
  return Error::success();
}

/// Released address ranges of one tier, each with the node that released it.
using ReleaseMap = RangeMap<NodeIdx>;

void forEachImpliedReuse(const Graph &G, ReuseReading Reading,
                         function_ref<void(NodeIdx, ArrayRef<NodeIdx>)> Visit) {
  bool Literal = Reading == ReuseReading::Literal;
  ReleaseMap Released[MaxTiers];
  // A buffer's tier and size (from its first alloc) and where it is placed.
  struct BufPlace {
    Tier T;
    uint64_t Size;
    uint64_t Begin = 0, End = 0;
    bool Valid = false;
  };
  IdTable<BufPlace> Bufs(G.size());
  for (const Node &N : G.Nodes)
    if (N.Kind == NodeKind::Alloc)
      Bufs.tryEmplace(N.Buf, BufPlace{N.BufTier, N.Size});

  // One placement's list at a time: most nodes have none, and a list per
  // node of a large graph cost more than the sweep.
  SmallVector<NodeIdx, 8> List;
  auto ById = [&G](NodeIdx A, NodeIdx B) { return G[A].Id < G[B].Id; };
  for (NodeIdx I : G.Order) {
    List.clear();
    const Node &N = G[I];
    BufPlace *B = N.isBufferNode() ? Bufs.find(N.Buf) : nullptr;
    if (B && N.isPlacement() && N.HasOffset) {
      uint64_t Begin = N.Offset, End = N.Offset + B->Size;
      // The literal reading gives a SPILL_IN no edge.
      if (!Literal || N.Kind == NodeKind::Alloc)
        Released[static_cast<unsigned>(B->T)].forEachOverlap(
            Begin, End, [&](uint64_t, uint64_t, NodeIdx By) {
              if (G[By].Buf != N.Buf && !is_contained(List, By))
                List.push_back(By);
            });
      B->Begin = Begin;
      B->End = End;
      B->Valid = true;
      llvm::sort(List, ById);
    } else if (B && B->Valid &&
               // The literal reading releases bytes at FREE only, never at
               // SPILL_OUT.
               (N.Kind == NodeKind::Free ||
                (N.Kind == NodeKind::SpillOut && !Literal))) {
      Released[static_cast<unsigned>(B->T)].assign(B->Begin, B->End, I);
      B->Valid = false;
    }
    Visit(I, List);
  }
}

std::vector<EdgeList> computeReuseEdges(const Graph &G, ReuseReading Reading) {
  std::vector<EdgeList> Reuse(G.size());
  forEachImpliedReuse(G, Reading, [&](NodeIdx I, ArrayRef<NodeIdx> Preds) {
    Reuse[I].assign(Preds.begin(), Preds.end());
  });
  return Reuse;
}

void setReuseEdges(Graph &G, ReuseReading Reading) {
  for (Node &N : G.Nodes)
    N.ReusePreds.clear();
  forEachImpliedReuse(G, Reading, [&](NodeIdx I, ArrayRef<NodeIdx> Preds) {
    G[I].ReusePreds.assign(Preds.begin(), Preds.end());
  });
}

void stripMemoryPlan(Graph &G) {
  std::vector<NodeIdx> NewIndex(G.size(), UINT32_MAX);
  std::vector<Node> Kept;
  for (NodeIdx I = 0, E = G.size(); I != E; ++I)
    if (!G[I].isSpill()) {
      NewIndex[I] = Kept.size();
      Kept.push_back(std::move(G[I]));
    }
  for (Node &N : Kept) {
    N.HasOffset = false;
    N.Offset = 0;
    N.ReusePreds.clear();
    EdgeList Preds;
    for (NodeIdx P : N.Preds)
      if (NewIndex[P] != UINT32_MAX)
        Preds.push_back(NewIndex[P]);
    N.Preds = std::move(Preds);
  }
  std::vector<NodeIdx> Order;
  for (NodeIdx I : G.Order)
    if (NewIndex[I] != UINT32_MAX)
      Order.push_back(NewIndex[I]);
  G.Nodes = std::move(Kept);
  G.Order = std::move(Order);
}

} // namespace dan
