//===- Kernels.cpp - The kernels of a graph and their order ---------------===//

#include "dan/IR/Kernels.h"
#include "dan/IR/IdIndex.h"
#include "dan/Support/UnionFind.h"
#include "llvm/ADT/STLExtras.h"
#include <algorithm>
#include <functional>
#include <queue>
#include <utility>

using namespace llvm;

namespace dan {

namespace {

/// The edges between the units of \p UnitOf, each once, sorted.
std::vector<std::pair<uint32_t, uint32_t>>
unitEdges(const Graph &G, ArrayRef<uint32_t> UnitOf, bool ByReuseEdges) {
  std::vector<std::pair<uint32_t, uint32_t>> Edges;
  for (NodeIdx I = 0, E = G.size(); I != E; ++I) {
    auto Add = [&](const EdgeList &L) {
      for (NodeIdx P : L)
        if (UnitOf[P] != UnitOf[I])
          Edges.push_back({UnitOf[P], UnitOf[I]});
    };
    Add(G[I].Preds);
    if (ByReuseEdges)
      Add(G[I].ReusePreds);
  }
  llvm::sort(Edges);
  Edges.erase(std::unique(Edges.begin(), Edges.end()), Edges.end());
  return Edges;
}

/// Per unit of a graph of \p N units and \p Edges (sorted by source): the
/// strongly connected component it belongs to (Tarjan's algorithm, without
/// recursion).
std::vector<uint32_t>
components(uint32_t N, ArrayRef<std::pair<uint32_t, uint32_t>> Edges) {
  std::vector<uint32_t> First(N + 1, 0);
  for (auto [From, To] : Edges)
    ++First[From + 1];
  for (uint32_t U = 0; U != N; ++U)
    First[U + 1] += First[U];
  constexpr uint32_t Unseen = UINT32_MAX;
  std::vector<uint32_t> Index(N, Unseen), Low(N, 0), Comp(N, Unseen);
  std::vector<uint32_t> Stack, Next(N, 0);
  std::vector<char> OnStack(N, 0);
  std::vector<uint32_t> Path;
  uint32_t Counter = 0, Comps = 0;
  for (uint32_t Root = 0; Root != N; ++Root) {
    if (Index[Root] != Unseen)
      continue;
    Path.push_back(Root);
    Index[Root] = Low[Root] = Counter++;
    Stack.push_back(Root);
    OnStack[Root] = 1;
    Next[Root] = First[Root];
    while (!Path.empty()) {
      uint32_t U = Path.back();
      if (Next[U] != First[U + 1]) {
        uint32_t V = Edges[Next[U]++].second;
        if (Index[V] == Unseen) {
          Index[V] = Low[V] = Counter++;
          Stack.push_back(V);
          OnStack[V] = 1;
          Next[V] = First[V];
          Path.push_back(V);
        } else if (OnStack[V]) {
          Low[U] = std::min(Low[U], Index[V]);
        }
        continue;
      }
      Path.pop_back();
      if (!Path.empty())
        Low[Path.back()] = std::min(Low[Path.back()], Low[U]);
      if (Low[U] != Index[U])
        continue;
      uint32_t V;
      do {
        V = Stack.back();
        Stack.pop_back();
        OnStack[V] = 0;
        Comp[V] = Comps;
      } while (V != U);
      ++Comps;
    }
  }
  return Comp;
}

/// Numbers the sets \p SetOf of \p G's nodes as units in the order of
/// their first node in the schedule, filling \p K's UnitOf and Units.
void numberUnits(const Graph &G, ArrayRef<uint32_t> SetOf, KernelSplit &K) {
  std::vector<uint32_t> UnitOfSet(G.size(), IdIndex::None);
  K.UnitOf.assign(G.size(), 0);
  K.Units.clear();
  for (NodeIdx I : G.Order) {
    uint32_t &U = UnitOfSet[SetOf[I]];
    if (U == IdIndex::None) {
      U = K.Units.size();
      K.Units.emplace_back();
    }
    K.UnitOf[I] = U;
    K.Units[U].push_back(I);
  }
}

} // namespace

KernelSplit splitKernels(const Graph &G, bool ByReuseEdges) {
  KernelSplit K;
  UnionFind Sets(G.size());
  IdIndex FirstUser(G.size());
  std::vector<char> HasBuffer(G.size(), 0);
  auto JoinBuffer = [&](uint64_t Buf, NodeIdx I) {
    HasBuffer[I] = 1;
    uint32_t First = FirstUser.lookup(Buf);
    if (First == IdIndex::None)
      FirstUser.set(Buf, I);
    else
      Sets.join(First, I);
  };
  for (NodeIdx I = 0, E = G.size(); I != E; ++I) {
    const Node &N = G[I];
    if (N.isBufferNode())
      JoinBuffer(N.Buf, I);
    for (uint64_t B : N.Bufs)
      JoinBuffer(B, I);
  }
  std::vector<uint32_t> SetOf(G.size());
  for (NodeIdx I = 0, E = G.size(); I != E; ++I)
    SetOf[I] = Sets.find(I);
  numberUnits(G, SetOf, K);

  // Units that edges join both ways are one: each strongly connected
  // component of the edges between units becomes a unit.
  std::vector<std::pair<uint32_t, uint32_t>> Edges =
      unitEdges(G, K.UnitOf, ByReuseEdges);
  std::vector<uint32_t> Comp = components(K.Units.size(), Edges);
  bool Merged = false;
  for (auto [From, To] : Edges)
    Merged |= Comp[From] == Comp[To];
  if (Merged) {
    std::vector<uint32_t> UnitSet(G.size());
    for (NodeIdx I = 0, E = G.size(); I != E; ++I)
      UnitSet[I] = Comp[K.UnitOf[I]];
    numberUnits(G, UnitSet, K);
    Edges = unitEdges(G, K.UnitOf, ByReuseEdges);
  }

  uint32_t N = K.Units.size();
  K.IsKernel.assign(N, 0);
  for (uint32_t U = 0; U != N; ++U) {
    K.IsKernel[U] =
        llvm::any_of(K.Units[U], [&](NodeIdx I) { return HasBuffer[I] != 0; });
    K.NumKernels += K.IsKernel[U];
  }

  // Kahn's algorithm, the ready unit whose first node comes first in the
  // schedule first: units are numbered so, so the least number.
  std::vector<uint32_t> InDegree(N, 0);
  for (auto [From, To] : Edges)
    ++InDegree[To];
  std::priority_queue<uint32_t, std::vector<uint32_t>, std::greater<uint32_t>>
      Ready;
  for (uint32_t U = 0; U != N; ++U)
    if (!InDegree[U])
      Ready.push(U);
  std::vector<uint32_t> FirstEdge(N + 1, 0);
  for (auto [From, To] : Edges)
    ++FirstEdge[From + 1];
  for (uint32_t U = 0; U != N; ++U)
    FirstEdge[U + 1] += FirstEdge[U];
  while (!Ready.empty()) {
    uint32_t U = Ready.top();
    Ready.pop();
    K.Topo.push_back(U);
    for (uint32_t E = FirstEdge[U]; E != FirstEdge[U + 1]; ++E)
      if (!--InDegree[Edges[E].second])
        Ready.push(Edges[E].second);
  }
  return K;
}

std::vector<std::vector<NodeIdx>> scheduleSegments(const Graph &G,
                                                   const KernelSplit &K) {
  std::vector<size_t> Left(K.Units.size());
  for (size_t U = 0; U != K.Units.size(); ++U)
    Left[U] = K.Units[U].size();
  std::vector<std::vector<NodeIdx>> Segments;
  std::vector<NodeIdx> Current;
  bool CurrentHasKernel = false;
  size_t Open = 0;
  for (NodeIdx I : G.Order) {
    uint32_t U = K.UnitOf[I];
    bool InKernel = K.IsKernel[U];
    // A run of nodes without buffers ends where a kernel begins.
    if (InKernel && !Open && !Current.empty() && !CurrentHasKernel) {
      Segments.push_back(std::move(Current));
      Current.clear();
    }
    Current.push_back(I);
    if (!InKernel)
      continue;
    CurrentHasKernel = true;
    if (Left[U] == K.Units[U].size())
      ++Open;
    if (!--Left[U])
      --Open;
    if (!Open) {
      Segments.push_back(std::move(Current));
      Current.clear();
      CurrentHasKernel = false;
    }
  }
  if (!Current.empty())
    Segments.push_back(std::move(Current));
  return Segments;
}

} // namespace dan
