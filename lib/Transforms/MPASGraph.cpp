//===- MPASGraph.cpp - what the list scheduler knows of the graph ---------===//
//
// MPAS's view of the graph: the input edges with the implicit ALLOC -> use
// -> FREE orderings, the criticality h of every node, and the buffers with
// their pressure deltas and users.
//
//===----------------------------------------------------------------------===//

#include "MPASScheduler.h"
#include "dan/IR/IdIndex.h"
#include "dan/Support/CSR.h"

using namespace llvm;

namespace dan {

MPASGraphInfo::MPASGraphInfo(const Graph &G, const TargetDesc &T) {
  buildEdges(G);
  buildBuffers(G, T);
  computeCriticality(G);
  sortByBalancedKey();
  buildL0Groups(G, T);
  buildDemandCounts(G, T);
}

void MPASGraphInfo::buildEdges(const Graph &G) {
  V = G.size();
  Ord.assign(V, 0);
  for (uint32_t P = 0; P != G.Order.size(); ++P)
    Ord[G.Order[P]] = P;
  // A buffer's use must come between its ALLOC and its FREE whether or not
  // the graph says so with edges (traces do; a hand-written graph may not),
  // so the scheduler adds those orderings to the graph's edges.
  Preds.assign(V, {});
  // Each buffer's first ALLOC and first FREE, and whether an operation uses
  // it.
  struct Ends {
    NodeIdx Alloc = None, Free = None;
    bool Used = false;
  };
  IdTable<Ends> BufEnds(V);
  for (NodeIdx I : G.Order) {
    const Node &N = G[I];
    Preds[I].append(N.Preds.begin(), N.Preds.end());
    if (N.Kind == NodeKind::Alloc) {
      Ends &E = BufEnds[N.Buf];
      if (E.Alloc == None)
        E.Alloc = I;
    } else if (N.Kind == NodeKind::Free) {
      Ends &E = BufEnds[N.Buf];
      if (E.Free == None)
        E.Free = I;
    }
  }
  // An operation is a predecessor of a FREE already when the graph says so
  // or when it named the buffer before. The FREEs that list each node as a
  // predecessor (CSR), so that the test looks at that node's few FREEs;
  // looking in the FREE's list instead made a buffer with U users cost
  // O(U^2).
  CSRBuilder<NodeIdx> FreeLists(V);
  for (NodeIdx F = 0; F != V; ++F)
    if (G[F].Kind == NodeKind::Free)
      for (NodeIdx P : G[F].Preds)
        FreeLists.count(P);
  FreeLists.startAdding();
  for (NodeIdx F = 0; F != V; ++F)
    if (G[F].Kind == NodeKind::Free)
      for (NodeIdx P : G[F].Preds)
        FreeLists.add(P, F);
  std::vector<uint32_t> FreesOfBegin;
  std::vector<NodeIdx> FreesOf;
  FreeLists.finish(FreesOfBegin, FreesOf);
  auto ListsAsFree = [&](NodeIdx I, NodeIdx F) {
    return is_contained(
        ArrayRef(FreesOf).slice(FreesOfBegin[I],
                                FreesOfBegin[I + 1] - FreesOfBegin[I]),
        F);
  };
  for (NodeIdx I : G.Order) {
    const Node &N = G[I];
    if (N.Kind != NodeKind::Op)
      continue;
    for (size_t K = 0; K != N.Bufs.size(); ++K) {
      uint64_t B = N.Bufs[K];
      Ends *E = BufEnds.find(B);
      if (!E)
        continue;
      E->Used = true;
      if (E->Alloc != None && !is_contained(Preds[I], E->Alloc))
        Preds[I].push_back(E->Alloc);
      if (E->Free != None && !ListsAsFree(I, E->Free) &&
          !is_contained(ArrayRef(N.Bufs).take_front(K), B))
        Preds[E->Free].push_back(I);
    }
  }
  // A buffer no operation uses has no use to order its FREE after its
  // ALLOC, so that edge is added directly.
  for (NodeIdx F : G.Order) {
    if (G[F].Kind != NodeKind::Free)
      continue;
    const Ends *E = BufEnds.find(G[F].Buf);
    if (E->Free == F && !E->Used && E->Alloc != None &&
        !is_contained(Preds[F], E->Alloc))
      Preds[F].push_back(E->Alloc);
  }
  CSRBuilder<NodeIdx> SuccLists(V);
  InDeg.assign(V, 0);
  for (NodeIdx I = 0; I != V; ++I) {
    InDeg[I] = Preds[I].size();
    for (NodeIdx P : Preds[I])
      SuccLists.count(P);
  }
  SuccLists.startAdding();
  // Successors in input order keep everything below deterministic.
  for (NodeIdx I : G.Order)
    for (NodeIdx P : Preds[I])
      SuccLists.add(P, I);
  SuccLists.finish(SuccBegin, Succs);
}

void MPASGraphInfo::computeCriticality(const Graph &G) {
  // h(v) = c_v + max over successors; a reverse topological order comes
  // from Kahn's algorithm on the predecessors.
  std::vector<uint32_t> Deg = InDeg;
  std::vector<NodeIdx> Topo;
  Topo.reserve(V);
  for (NodeIdx I : G.Order)
    if (Deg[I] == 0)
      Topo.push_back(I);
  for (size_t K = 0; K != Topo.size(); ++K)
    for (uint32_t S = SuccBegin[Topo[K]]; S != SuccBegin[Topo[K] + 1]; ++S)
      if (--Deg[Succs[S]] == 0)
        Topo.push_back(Succs[S]);
  H.assign(V, 0);
  for (size_t K = Topo.size(); K-- > 0;) {
    NodeIdx I = Topo[K];
    int64_t Best = 0;
    for (uint32_t S = SuccBegin[I]; S != SuccBegin[I + 1]; ++S)
      Best = std::max(Best, H[Succs[S]]);
    H[I] = Best + (G[I].Kind == NodeKind::Op ? int64_t(G[I].Cycles) : 0);
  }
}

void MPASGraphInfo::sortByBalancedKey() {
  // (lambda, delta_pk, -h, ord): lambda takes three values, so a bucket
  // each, then a sort of small records inside them.
  struct Entry {
    int64_t Delta, NegH;
    uint32_t Ord;
    NodeIdx Node;
    bool operator<(const Entry &O) const {
      return std::tie(Delta, NegH, Ord, Node) <
             std::tie(O.Delta, O.NegH, O.Ord, O.Node);
    }
  };
  // (One array, placed by lambda: three growing ones copied themselves a
  // few times, in fresh memory.)
  CSRBuilder<Entry> ByLambda(3);
  for (NodeIdx I = 0; I != V; ++I)
    ByLambda.count(Lambda[I]);
  ByLambda.startAdding();
  for (NodeIdx I = 0; I != V; ++I)
    ByLambda.add(Lambda[I], {Delta[I], -H[I], Ord[I], I});
  std::vector<uint32_t> Begin;
  std::vector<Entry> Entries;
  ByLambda.finish(Begin, Entries);
  BalancedOrder.resize(V);
  for (unsigned L = 0; L != 3; ++L)
    llvm::sort(Entries.begin() + Begin[L], Entries.begin() + Begin[L + 1]);
  for (NodeIdx P = 0; P != V; ++P)
    BalancedOrder[P] = Entries[P].Node;
}

void MPASGraphInfo::buildBuffers(const Graph &G, const TargetDesc &T) {
  Bufs = IdTable<BufInfo>(V);
  // (A buffer a node: growing the table copied every buffer's users.)
  Bufs.reserve(llvm::count_if(
      G.Nodes, [](const Node &N) { return N.Kind == NodeKind::Alloc; }));
  Delta.assign(V, 0);
  Lambda.assign(V, 1);
  for (NodeIdx I : G.Order) {
    const Node &N = G[I];
    switch (N.Kind) {
    case NodeKind::Alloc: {
      BufInfo &B = Bufs[N.Buf];
      B.Alloc = I;
      B.BufTier = N.BufTier;
      B.Size = N.Size;
      Lambda[I] = 2;
      if (T.countsInPeak(N.BufTier))
        Delta[I] = int64_t(N.Size);
      break;
    }
    case NodeKind::Free:
      Bufs[N.Buf].Free = I;
      Lambda[I] = 0;
      if (T.countsInPeak(N.BufTier))
        Delta[I] = -int64_t(N.Size);
      break;
    case NodeKind::Op:
      for (uint64_t B : N.Bufs) {
        auto &Users = Bufs[B].Users;
        if (Users.empty() || Users.back() != I)
          Users.push_back(I);
      }
      break;
    default:
      break;
    }
  }
}

} // namespace dan
