//===- MemoryPlan.cpp - Edges a memory plan implies -----------------------===//

#include "dan/IR/MemoryPlan.h"
#include "llvm/ADT/DenseSet.h"
#include "llvm/ADT/STLExtras.h"
#include <map>

using namespace llvm;

namespace dan {

namespace {
/// Where a buffer's nodes are, by schedule position.
struct BufferNodes {
  NodeIdx Alloc = UINT32_MAX;
  NodeIdx Free = UINT32_MAX;
  Tier BufTier = Tier::L1;
  uint64_t Size = 0;
  /// Operations using the buffer and its spill nodes, in schedule order.
  SmallVector<NodeIdx, 4> Uses;
};
} // namespace

static DenseMap<uint64_t, BufferNodes> collectBuffers(const Graph &G) {
  DenseMap<uint64_t, BufferNodes> Buffers;
  for (NodeIdx I : G.Order) {
    const Node &N = G[I];
    switch (N.Kind) {
    case NodeKind::Alloc: {
      BufferNodes &B = Buffers[N.Buf];
      if (B.Alloc == UINT32_MAX) {
        B.Alloc = I;
        B.BufTier = N.BufTier;
        B.Size = N.Size;
      }
      break;
    }
    case NodeKind::Free: {
      BufferNodes &B = Buffers[N.Buf];
      if (B.Free == UINT32_MAX)
        B.Free = I;
      break;
    }
    case NodeKind::SpillOut:
    case NodeKind::SpillIn:
      Buffers[N.Buf].Uses.push_back(I);
      break;
    case NodeKind::Op:
      for (uint64_t B : N.Bufs) {
        auto &Uses = Buffers[B].Uses;
        // An op listing a buffer twice uses it once.
        if (Uses.empty() || Uses.back() != I)
          Uses.push_back(I);
      }
      break;
    }
  }
  return Buffers;
}

std::vector<RequiredEdge> computeSpillEdges(const Graph &G) {
  std::vector<RequiredEdge> Edges;
  DenseMap<uint64_t, BufferNodes> Buffers = collectBuffers(G);
  uint64_t N0 = G.firstSpillId();
  DenseMap<uint64_t, NodeIdx> SpillIns;
  for (NodeIdx I = 0, E = G.size(); I != E; ++I)
    if (G[I].Kind == NodeKind::SpillIn)
      SpillIns.try_emplace(G[I].Id, I);

  // Buffers in order of first appearance keep the result deterministic.
  SmallVector<uint64_t, 0> BufOrder;
  DenseSet<uint64_t> Seen;
  for (NodeIdx I : G.Order) {
    const Node &N = G[I];
    if (N.isSpill() && Seen.insert(N.Buf).second)
      BufOrder.push_back(N.Buf);
  }

  for (uint64_t BufId : BufOrder) {
    const BufferNodes &B = Buffers[BufId];
    ArrayRef<NodeIdx> Uses = B.Uses;
    for (size_t P = 0, E = Uses.size(); P != E; ++P) {
      NodeIdx Out = Uses[P];
      if (G[Out].Kind != NodeKind::SpillOut)
        continue;
      if (B.Alloc != UINT32_MAX)
        Edges.push_back({B.Alloc, Out, RequiredEdge::AllocToOut});
      for (size_t Q = 0; Q != P; ++Q)
        Edges.push_back({Uses[Q], Out, RequiredEdge::UserToOut});
      // The pair's spill_in has the next id (the spill numbering rule).
      uint64_t OutId = G[Out].Id;
      if (OutId < N0 || (OutId - N0) % 2 != 0)
        continue;
      auto InIt = SpillIns.find(OutId + 1);
      if (InIt == SpillIns.end() || G[InIt->second].Buf != BufId)
        continue;
      NodeIdx In = InIt->second;
      Edges.push_back({Out, In, RequiredEdge::OutToIn});
      if (B.Free != UINT32_MAX)
        Edges.push_back({In, B.Free, RequiredEdge::InToFree});
      size_t InPos = find(Uses, In) - Uses.begin();
      for (size_t Q = InPos + 1; Q < E; ++Q)
        if (G[Uses[Q]].Kind == NodeKind::Op)
          Edges.push_back({In, Uses[Q], RequiredEdge::InToUser});
    }
  }
  return Edges;
}

void addSpillEdges(Graph &G) {
  for (const RequiredEdge &E : computeSpillEdges(G)) {
    auto &Preds = G[E.To].Preds;
    if (!is_contained(Preds, E.From))
      Preds.push_back(E.From);
  }
  G.sortEdges();
}

namespace {
/// Released address ranges of one tier, each with the node that released it.
/// Segments are disjoint and keyed by their start.
class ReleaseMap {
public:
  void release(uint64_t Begin, uint64_t End, NodeIdx By) {
    if (Begin >= End)
      return;
    splitAt(Begin);
    splitAt(End);
    Segs.erase(Segs.lower_bound(Begin), Segs.lower_bound(End));
    Segs.emplace(Begin, Seg{End, By});
  }
  template <typename Fn>
  void forEachOverlap(uint64_t Begin, uint64_t End, Fn F) const {
    auto It = Segs.upper_bound(Begin);
    if (It != Segs.begin())
      --It;
    for (; It != Segs.end() && It->first < End; ++It)
      if (It->second.End > Begin)
        F(It->second.By);
  }

private:
  struct Seg {
    uint64_t End;
    NodeIdx By;
  };
  void splitAt(uint64_t At) {
    auto It = Segs.upper_bound(At);
    if (It == Segs.begin())
      return;
    --It;
    if (It->first < At && It->second.End > At) {
      Seg Tail{It->second.End, It->second.By};
      It->second.End = At;
      Segs.emplace(At, Tail);
    }
  }
  std::map<uint64_t, Seg> Segs;
};
} // namespace

std::vector<EdgeList> computeReuseEdges(const Graph &G, ReuseReading Reading) {
  bool Literal = Reading == ReuseReading::Literal;
  std::vector<EdgeList> Reuse(G.size());
  ReleaseMap Released[NumTiers];
  struct Placed {
    Tier T;
    uint64_t Begin, End;
    bool Valid = false;
  };
  DenseMap<uint64_t, Placed> Where;
  DenseMap<uint64_t, std::pair<Tier, uint64_t>> Info;
  for (const Node &N : G.Nodes)
    if (N.Kind == NodeKind::Alloc)
      Info.try_emplace(N.Buf, N.BufTier, N.Size);

  for (NodeIdx I : G.Order) {
    const Node &N = G[I];
    auto InfoIt = Info.find(N.Buf);
    if (!N.isBufferNode() || InfoIt == Info.end())
      continue;
    auto [T, Size] = InfoIt->second;
    if (N.isPlacement()) {
      if (!N.HasOffset)
        continue;
      uint64_t Begin = N.Offset, End = N.Offset + Size;
      auto &List = Reuse[I];
      // The literal reading gives a SPILL_IN no edge.
      if (!Literal || N.Kind == NodeKind::Alloc)
        Released[static_cast<unsigned>(T)].forEachOverlap(
            Begin, End, [&](NodeIdx By) {
              if (G[By].Buf != N.Buf && !is_contained(List, By))
                List.push_back(By);
            });
      Where[N.Buf] = {T, Begin, End, true};
      continue;
    }
    // The literal reading releases bytes at FREE only, never at SPILL_OUT.
    if (N.Kind == NodeKind::Free ||
        (N.Kind == NodeKind::SpillOut && !Literal)) {
      auto It = Where.find(N.Buf);
      if (It == Where.end() || !It->second.Valid)
        continue;
      Released[static_cast<unsigned>(T)].release(It->second.Begin,
                                                 It->second.End, I);
      It->second.Valid = false;
    }
  }
  auto ById = [&G](NodeIdx A, NodeIdx B) { return G[A].Id < G[B].Id; };
  for (auto &List : Reuse)
    llvm::sort(List, ById);
  return Reuse;
}

void setReuseEdges(Graph &G) {
  std::vector<EdgeList> Reuse = computeReuseEdges(G);
  for (NodeIdx I = 0, E = G.size(); I != E; ++I)
    G[I].ReusePreds = std::move(Reuse[I]);
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

DenseSet<uint64_t> ddrBackedBuffers(const Graph &G) {
  DenseSet<uint64_t> Backed;
  for (const Node &N : G.Nodes)
    if (N.Kind == NodeKind::Op && G.opName(N) == "COPY_IN")
      Backed.insert(N.Bufs.begin(), N.Bufs.end());
  return Backed;
}

} // namespace dan
