//===- Bounds.cpp - What the lower bounds share ---------------------------===//
//
// The best of a list of bounds, and the graph that the peak bounds
// (BoundsPeak.cpp) and the critical path (BoundsTiming.cpp) walk.
// docs/Bounds.md states each method and why it is valid.
//
//===----------------------------------------------------------------------===//

#include "dan/Analysis/Bounds.h"
#include "BoundGraph.h"
#include "llvm/ADT/DenseMap.h"
#include "llvm/ADT/STLExtras.h"
#include <algorithm>

using namespace llvm;

namespace dan {

uint64_t bestOf(ArrayRef<LowerBound> Bounds) {
  uint64_t Best = 0;
  for (const LowerBound &B : Bounds)
    Best = std::max(Best, B.Value);
  return Best;
}

namespace detail {

Expected<BoundGraph> buildBoundGraph(const Graph &G, bool Timing) {
  size_t V = G.size();
  BoundGraph BG;
  BG.Preds.resize(V);
  BG.Succs.resize(V);
  BG.BufsOf.resize(V);
  DenseMap<uint64_t, uint32_t> IndexOf;
  std::vector<NodeIdx> AllocOf, FreeOf;
  auto BufferOf = [&](uint64_t Id) {
    auto [It, New] = IndexOf.try_emplace(Id, BG.Buffers.size());
    if (New) {
      BG.Buffers.emplace_back();
      AllocOf.push_back(None);
      FreeOf.push_back(None);
    }
    return It->second;
  };
  auto AddEdge = [&](NodeIdx From, NodeIdx To) {
    BG.Preds[To].push_back(From);
    BG.Succs[From].push_back(To);
  };
  for (NodeIdx I : G.Order) {
    const Node &N = G[I];
    if (N.Kind == NodeKind::Alloc || N.Kind == NodeKind::Free) {
      uint32_t B = BufferOf(N.Buf);
      (N.Kind == NodeKind::Alloc ? AllocOf : FreeOf)[B] = I;
      if (N.Kind == NodeKind::Alloc) {
        BG.Buffers[B].Size = N.Size;
        BG.Buffers[B].BufTier = N.BufTier;
      }
    } else if (N.Kind == NodeKind::Op) {
      for (uint64_t Id : N.Bufs) {
        uint32_t B = BufferOf(Id);
        if (!is_contained(BG.BufsOf[I], B)) {
          BG.BufsOf[I].push_back(B);
          BG.Buffers[B].Users.push_back(I);
        }
      }
    }
  }
  auto Skip = [&](NodeIdx I) { return !Timing && G[I].isSpill(); };
  for (NodeIdx I : G.Order) {
    if (Skip(I))
      continue;
    for (NodeIdx P : G[I].Preds)
      if (!Skip(P))
        AddEdge(P, I);
    if (Timing)
      for (NodeIdx P : G[I].ReusePreds)
        AddEdge(P, I);
    for (uint32_t B : BG.BufsOf[I]) {
      if (AllocOf[B] != None)
        AddEdge(AllocOf[B], I);
      if (FreeOf[B] != None)
        AddEdge(I, FreeOf[B]);
    }
  }
  // Kahn's algorithm, ties in schedule order.
  std::vector<uint32_t> InDeg(V, 0);
  size_t Count = 0;
  for (NodeIdx I : G.Order)
    if (!Skip(I)) {
      InDeg[I] = BG.Preds[I].size();
      ++Count;
    }
  for (NodeIdx I : G.Order)
    if (!Skip(I) && InDeg[I] == 0)
      BG.Topo.push_back(I);
  for (size_t K = 0; K != BG.Topo.size(); ++K)
    for (NodeIdx S : BG.Succs[BG.Topo[K]])
      if (--InDeg[S] == 0)
        BG.Topo.push_back(S);
  if (BG.Topo.size() != Count)
    return createStringError(
        inconvertibleErrorCode(),
        "the graph's edges, with each buffer's uses between its ALLOC and "
        "its FREE, have a cycle: no schedule exists (dan-verify shows it)");
  return BG;
}

} // namespace detail

} // namespace dan
