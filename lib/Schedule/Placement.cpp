//===- Placement.cpp - Allocate late, free early around a fixed order -----===//

#include "dan/Schedule/Placement.h"
#include "dan/IR/IdIndex.h"
#include "dan/Support/CSR.h"
#include "llvm/ADT/STLExtras.h"
#include "llvm/ADT/SmallVector.h"
#include <array>
#include <cassert>

using namespace llvm;

namespace dan {

namespace {

/// How the placement treats a node.
enum class Role : uint8_t {
  /// Keeps its place relative to the other anchors.
  Anchor,
  /// An ALLOC or COPY_IN emitted right before the first node needing it.
  Lazy,
  /// A FREE emitted right after its last predecessor.
  Eager,
};

/// A buffer's ALLOC and FREE (the first of each) and how many there are.
struct BufNodes {
  NodeIdx Alloc = UINT32_MAX, Free = UINT32_MAX;
  /// The first operation in the order that uses it.
  NodeIdx FirstUse = UINT32_MAX;
  uint32_t Allocs = 0, Frees = 0;
  bool Used = false;
};

/// The placement of one order (placeLate), a step a method: the buffers'
/// ends, the edges, each node's role, then the emission.
class LatePlacement {
public:
  LatePlacement(const Graph &G, ArrayRef<NodeIdx> Order,
                const TargetDesc *DrainL0)
      : G(G), Order(Order), DrainL0(DrainL0), V(G.size()), Bufs(V) {}

  std::vector<NodeIdx> run() {
    findBuffers();
    if (DrainL0)
      findNextL0Allocs();
    buildEdges();
    assignRoles();
    return emitAll();
  }

private:
  void findBuffers();
  void findNextL0Allocs();
  template <typename VisitFn> void forEachEdge(VisitFn Visit) const;
  void buildEdges();
  bool single(uint64_t Id) const {
    const BufNodes &B = *Bufs.find(Id);
    return B.Allocs == 1 && B.Frees <= 1;
  }
  bool isDrain(NodeIdx I) const;
  void assignRoles();
  void emit(NodeIdx I);
  void pull(NodeIdx Root);
  std::vector<NodeIdx> emitAll();

  const Graph &G;
  ArrayRef<NodeIdx> Order;
  const TargetDesc *DrainL0;
  size_t V;
  IdTable<BufNodes> Bufs;
  /// With DrainL0: the first ALLOC of the same L0 tier after each L0 FREE.
  std::vector<NodeIdx> NextL0Alloc;
  /// The edges as CSR lists of predecessors and successors.
  std::vector<uint32_t> PredBegin, SuccBegin;
  std::vector<NodeIdx> Preds, Succs;
  std::vector<Role> Roles;
  /// With DrainL0: each node's place in Order.
  std::vector<uint32_t> Pos;
  std::vector<NodeIdx> Out;
  std::vector<uint8_t> Emitted;
  /// Predecessors not yet emitted.
  std::vector<uint32_t> Left;
  SmallVector<NodeIdx, 8> Work;
  std::vector<std::pair<NodeIdx, uint32_t>> Stack;
};

void LatePlacement::findBuffers() {
  // The buffers' ALLOC and FREE, in order (the first of each, as MPAS's
  // implicit edges take them).
  for (NodeIdx I : Order) {
    const Node &N = G[I];
    if (N.Kind == NodeKind::Alloc) {
      BufNodes &B = Bufs[N.Buf];
      if (!B.Allocs++)
        B.Alloc = I;
    } else if (N.Kind == NodeKind::Free) {
      BufNodes &B = Bufs[N.Buf];
      if (!B.Frees++)
        B.Free = I;
    }
  }
  for (NodeIdx I : Order)
    if (G[I].Kind == NodeKind::Op)
      for (uint64_t Id : G[I].Bufs) {
        if (BufNodes *B = Bufs.find(Id)) {
          if (!B->Used)
            B->FirstUse = I;
          B->Used = true;
        }
      }
}

void LatePlacement::findNextL0Allocs() {
  NextL0Alloc.assign(V, UINT32_MAX);
  std::array<NodeIdx, MaxTiers> Next;
  Next.fill(UINT32_MAX);
  for (NodeIdx I : llvm::reverse(Order)) {
    const Node &N = G[I];
    if (N.Kind != NodeKind::Alloc && N.Kind != NodeKind::Free)
      continue;
    if (!DrainL0->isL0(N.BufTier))
      continue;
    NodeIdx &NextOfTier = Next[static_cast<unsigned>(N.BufTier)];
    if (N.Kind == NodeKind::Free)
      NextL0Alloc[I] = NextOfTier;
    else
      NextOfTier = I;
  }
}

/// The edges: the input edges and the implicit ALLOC -> user -> FREE ones
/// (ALLOC -> FREE for a buffer no operation uses); with DrainL0, each L0
/// FREE -> the next ALLOC of its tier. A duplicate edge is harmless: it is
/// counted on both sides.
template <typename VisitFn>
void LatePlacement::forEachEdge(VisitFn Visit) const {
  for (NodeIdx I : Order) {
    const Node &N = G[I];
    for (NodeIdx P : N.Preds)
      Visit(P, I);
    if (N.Kind != NodeKind::Op)
      continue;
    for (size_t K = 0; K != N.Bufs.size(); ++K) {
      uint64_t Id = N.Bufs[K];
      // A buffer named twice by one operation gives one edge each way.
      if (is_contained(ArrayRef(N.Bufs).take_front(K), Id))
        continue;
      const BufNodes *B = Bufs.find(Id);
      if (!B)
        continue;
      if (B->Alloc != UINT32_MAX)
        Visit(B->Alloc, I);
      if (B->Free != UINT32_MAX)
        Visit(I, B->Free);
    }
  }
  // (Each such edge is the last of its two nodes' lists whatever order
  // the buffers come in.)
  for (NodeIdx I : Order) {
    if (G[I].Kind != NodeKind::Alloc)
      continue;
    const BufNodes *B = Bufs.find(G[I].Buf);
    if (B->Alloc == I && !B->Used && B->Free != UINT32_MAX)
      Visit(B->Alloc, B->Free);
  }
  if (DrainL0)
    for (NodeIdx I : Order)
      if (NextL0Alloc[I] != UINT32_MAX)
        Visit(I, NextL0Alloc[I]);
}

void LatePlacement::buildEdges() {
  buildEdgeLists<NodeIdx>(
      V, [&](auto Visit) { forEachEdge(Visit); }, PredBegin, Preds, SuccBegin,
      Succs);
}

/// A drain: an operation on two buffers, the last use of one in an L0 tier
/// (its FREE follows) and the first use of one in a tier that counts in the
/// peak: it moves a result out of L0 into a new buffer.
bool LatePlacement::isDrain(NodeIdx I) const {
  if (!DrainL0)
    return false;
  const Node &N = G[I];
  if (N.Bufs.size() != 2)
    return false;
  const BufNodes *L0Buf = nullptr, *Out = nullptr;
  for (uint64_t Id : N.Bufs) {
    const BufNodes *B = Bufs.find(Id);
    if (!B || B->Alloc == UINT32_MAX)
      return false;
    Tier BufTier = G[B->Alloc].BufTier;
    if (DrainL0->isL0(BufTier))
      L0Buf = B;
    else if (DrainL0->countsInPeak(BufTier))
      Out = B;
  }
  if (!L0Buf || !Out || Out->FirstUse != I || L0Buf->Free == UINT32_MAX ||
      !single(G[L0Buf->Alloc].Buf))
    return false;
  for (uint32_t E = PredBegin[L0Buf->Free]; E != PredBegin[L0Buf->Free + 1];
       ++E) {
    NodeIdx P = Preds[E];
    if (P != I && G[P].Kind == NodeKind::Op && Pos[P] > Pos[I])
      return false;
  }
  return true;
}

void LatePlacement::assignRoles() {
  // An ALLOC or FREE of a buffer allocated or freed more than once stays
  // an anchor: its edges above are incomplete.
  Roles.assign(V, Role::Anchor);
  if (DrainL0) {
    Pos.resize(V);
    for (size_t K = 0; K != V; ++K)
      Pos[Order[K]] = K;
  }
  for (NodeIdx I : Order) {
    const Node &N = G[I];
    bool Movable = false;
    if (N.Kind == NodeKind::Free) {
      if (single(N.Buf))
        Roles[I] = Role::Eager;
      continue;
    }
    if (N.Kind == NodeKind::Alloc)
      Movable = single(N.Buf);
    else if (N.Kind == NodeKind::Op)
      Movable = G.Target.loadsFromDDR(G.opName(N)) || isDrain(I);
    if (!Movable)
      continue;
    // Pulled in only by a successor that is not a FREE: one that only FREEs
    // follow stays where it is (else it would wait for the end).
    for (uint32_t E = SuccBegin[I]; E != SuccBegin[I + 1]; ++E)
      if (G[Succs[E]].Kind != NodeKind::Free) {
        Roles[I] = Role::Lazy;
        break;
      }
  }
}

/// Emits a node, then every FREE that thereby has all its predecessors,
/// first in first out: FREEs that one node makes ready keep their order in
/// Order, so placing a placed order again changes nothing.
void LatePlacement::emit(NodeIdx I) {
  Work.assign(1, I);
  for (size_t Head = 0; Head != Work.size(); ++Head) {
    NodeIdx X = Work[Head];
    if (Emitted[X])
      continue;
    Emitted[X] = 1;
    Out.push_back(X);
    for (uint32_t E = SuccBegin[X]; E != SuccBegin[X + 1]; ++E) {
      NodeIdx S = Succs[E];
      if (--Left[S] == 0 && Roles[S] == Role::Eager && !Emitted[S])
        Work.push_back(S);
    }
  }
}

/// Emits an anchor after its unemitted predecessors, depth first. Those are
/// lazy nodes and FREEs waiting for lazy nodes: an anchor among them would
/// come after this anchor in Order, which is legal.
void LatePlacement::pull(NodeIdx Root) {
  Stack.push_back({Root, PredBegin[Root]});
  while (!Stack.empty()) {
    auto &[I, Next] = Stack.back();
    if (Emitted[I]) {
      Stack.pop_back();
      continue;
    }
    if (Next != PredBegin[I + 1]) {
      NodeIdx P = Preds[Next++];
      if (!Emitted[P]) {
        assert(Roles[P] != Role::Anchor && "Order is not legal");
        Stack.push_back({P, PredBegin[P]});
      }
      continue;
    }
    NodeIdx Done = I;
    Stack.pop_back();
    emit(Done);
  }
}

std::vector<NodeIdx> LatePlacement::emitAll() {
  Out.reserve(V);
  Emitted.assign(V, 0);
  Left.resize(V);
  for (NodeIdx I = 0; I != V; ++I)
    Left[I] = PredBegin[I + 1] - PredBegin[I];
  // A FREE not yet emitted when the order reaches it is pulled there too,
  // with the lazy nodes it waits for: it may wait for one that only a later
  // anchor would pull (a COPY_IN that no operation of its buffer follows,
  // another buffer's ALLOC or FREE named by an edge), and must not come
  // later than in Order, or its buffer would live longer. (With drains, an
  // L0 buffer lives longer on purpose, and the FREE -> next ALLOC edges
  // keep its tier's rule.)
  for (NodeIdx I : Order)
    if (Roles[I] == Role::Anchor ||
        (Roles[I] == Role::Eager && !(DrainL0 && DrainL0->isL0(G[I].BufTier))))
      pull(I);
  // Every lazy node precedes an anchor and every FREE follows its
  // predecessors; anything left (only on an order that is not legal) keeps
  // its place at the end.
  if (Out.size() != V)
    for (NodeIdx I : Order)
      if (!Emitted[I])
        pull(I);
  return std::move(Out);
}

} // namespace

std::vector<NodeIdx> placeLate(const Graph &G, ArrayRef<NodeIdx> Order,
                               const TargetDesc *DrainL0) {
  assert(Order.size() == G.size() && "placeLate wants every node once");
  return LatePlacement(G, Order, DrainL0).run();
}

} // namespace dan
