//===- HMCOSGroups.cpp - HMCOS's sequences and groups ---------------------===//
//
// HMCOS's hierarchy: chains of operations (sequences), groups by
// post-dominators (one per cell output), and the exact DP over each group's
// members within the caps.
//
//===----------------------------------------------------------------------===//

#include "HMCOS.h"
#include "llvm/ADT/DenseMap.h"

using namespace llvm;

namespace dan {
namespace sched {

void HMCOS::buildSequences() {
  size_t N = V.Ops.size();
  SeqOf.assign(N, None);
  auto Joinable = [&](uint32_t U) {
    return V.OpSuccs[U].size() == 1 && V.OpPreds[V.OpSuccs[U][0]].size() == 1;
  };
  for (uint32_t O : Rpo) {
    if (SeqOf[O] != None)
      continue;
    // O heads a chain unless its only predecessor continues into it; that
    // predecessor comes earlier in reverse post-order and has taken it.
    std::vector<uint32_t> Chain = {O};
    SeqOf[O] = Seqs.size();
    for (uint32_t U = O; Joinable(U);) {
      U = V.OpSuccs[U][0];
      SeqOf[U] = Seqs.size();
      Chain.push_back(U);
    }
    Seqs.push_back(std::move(Chain));
  }
  SeqPreds.resize(Seqs.size());
  SeqSuccs.resize(Seqs.size());
  for (uint32_t O = 0; O != N; ++O)
    for (uint32_t P : V.OpPreds[O])
      if (SeqOf[P] != SeqOf[O]) {
        SeqPreds[SeqOf[O]].push_back(SeqOf[P]);
        SeqSuccs[SeqOf[P]].push_back(SeqOf[O]);
      }
  for (auto *L : {&SeqPreds, &SeqSuccs})
    for (std::vector<uint32_t> &E : *L) {
      llvm::sort(E);
      E.erase(std::unique(E.begin(), E.end()), E.end());
    }
}

void HMCOS::buildGroups() {
  size_t NS = Seqs.size();
  // Sequences are numbered in reverse post-order of their heads, which is
  // topological. Post-dominators (Cooper, Harvey and Kennedy; one pass in
  // reverse topological order suffices on a DAG) with a virtual sink NS.
  uint32_t Sink = NS;
  std::vector<uint32_t> IPDom(NS + 1, Sink), Depth(NS + 1, 0);
  for (uint32_t S = NS; S-- != 0;) {
    uint32_t P = None;
    for (uint32_t Q : SeqSuccs[S]) {
      if (P == None) {
        P = Q;
        continue;
      }
      uint32_t A = P, B = Q;
      while (A != B) {
        while (Depth[A] > Depth[B])
          A = IPDom[A];
        while (Depth[B] > Depth[A])
          B = IPDom[B];
        if (A != B) {
          A = IPDom[A];
          B = IPDom[B];
        }
      }
      P = A;
    }
    IPDom[S] = P == None ? Sink : P;
    Depth[S] = Depth[IPDom[S]] + 1;
  }
  // The innermost cell output post-dominating each sequence (itself
  // included); post-dominators come later in topological order.
  std::vector<uint32_t> Cell(NS + 1, None), GroupOf(NS, None);
  for (uint32_t S = NS; S-- != 0;) {
    if (SeqPreds[S].size() >= 2) {
      Cell[S] = S;
      GroupOf[S] = Groups.size();
      Groups.push_back({S, {}, {}});
    } else {
      Cell[S] = Cell[IPDom[S]];
    }
  }
  // Members: sequences whose innermost cell is the group's, and the groups
  // of the cells directly below it. Sequences in topological order, so a
  // member list is ordered by reverse post-order.
  for (uint32_t S = 0; S != NS; ++S) {
    uint32_t Outer = Cell[S];
    if (Outer == S) {
      uint32_t Parent = Cell[IPDom[S]];
      uint32_t Gr = GroupOf[S];
      Groups[Gr].Members.push_back(S);
      if (Parent == None)
        Top.push_back(NS + Gr);
      else
        Groups[GroupOf[Parent]].Members.push_back(NS + Gr);
    } else if (Outer == None) {
      Top.push_back(S);
    } else {
      Groups[GroupOf[Outer]].Members.push_back(S);
    }
  }
  // Children are upstream of their parent, so groups in topological order
  // of their cells (increasing cell) are solved bottom-up.
  std::vector<uint32_t> ByCell(Groups.size());
  for (uint32_t Gr = 0; Gr != Groups.size(); ++Gr)
    ByCell[Gr] = Gr;
  llvm::sort(ByCell, [&](uint32_t A, uint32_t B) {
    return Groups[A].Cell < Groups[B].Cell;
  });
  for (uint32_t Gr : ByCell)
    solveGroup(Gr);
}

std::vector<uint32_t> HMCOS::unitOps(uint32_t U) const {
  return U < Seqs.size() ? Seqs[U] : Groups[U - Seqs.size()].Ops;
}

void HMCOS::solveGroup(uint32_t Gr) {
  Group &Gp = Groups[Gr];
  size_t M = Gp.Members.size();
  std::vector<std::vector<uint32_t>> Units;
  size_t NumOps = 0;
  for (uint32_t U : Gp.Members) {
    Units.push_back(unitOps(U));
    NumOps += Units.back().size();
  }
  // The member DAG, and a topological order of it by the least reverse
  // post-order rank (the fallback, and the order the DP keeps on a tie).
  DenseMap<uint32_t, uint32_t> MemberOf;
  std::vector<uint32_t> Least(M, None);
  for (uint32_t K = 0; K != M; ++K)
    for (uint32_t O : Units[K]) {
      MemberOf[O] = K;
      Least[K] = std::min(Least[K], Rank[O]);
    }
  std::vector<std::vector<uint32_t>> MPreds(M);
  for (uint32_t K = 0; K != M; ++K)
    for (uint32_t O : Units[K])
      for (uint32_t P : V.OpPreds[O]) {
        auto It = MemberOf.find(P);
        if (It != MemberOf.end() && It->second != K &&
            !is_contained(MPreds[K], It->second))
          MPreds[K].push_back(It->second);
      }
  std::vector<uint32_t> Topo;
  {
    std::vector<uint32_t> Left(M), Ready;
    std::vector<std::vector<uint32_t>> MSuccs(M);
    for (uint32_t K = 0; K != M; ++K) {
      Left[K] = MPreds[K].size();
      for (uint32_t P : MPreds[K])
        MSuccs[P].push_back(K);
      if (!Left[K])
        Ready.push_back(K);
    }
    while (!Ready.empty()) {
      auto It = llvm::min_element(
          Ready, [&](uint32_t A, uint32_t B) { return Least[A] < Least[B]; });
      uint32_t K = *It;
      Ready.erase(It);
      Topo.push_back(K);
      for (uint32_t S : MSuccs[K])
        if (--Left[S] == 0)
          Ready.push_back(S);
    }
  }
  std::vector<unsigned> Chosen(Topo.begin(), Topo.end());
  if (M <= baseline::HMCOSGroupMembers && NumOps <= baseline::HMCOSGroupOps &&
      M > 1) {
    // DP over the group's frontiers, in the context-free memory model:
    // nothing started, so a buffer counts from its first use in the group
    // and is released only when its last user is inside.
    std::vector<std::vector<uint32_t>> TopoUnits;
    std::vector<uint32_t> PosOf(M), Mask(M, 0);
    for (uint32_t I = 0; I != M; ++I) {
      PosOf[Topo[I]] = I;
      TopoUnits.push_back(Units[Topo[I]]);
    }
    for (uint32_t I = 0; I != M; ++I)
      for (uint32_t P : MPreds[Topo[I]])
        Mask[I] |= uint32_t(1) << PosOf[P];
    std::vector<unsigned> Best = subsetDP(V, Init, TopoUnits, Mask);
    for (uint32_t I = 0; I != M; ++I)
      Chosen[I] = Topo[Best[I]];
  }
  for (unsigned K : Chosen)
    Gp.Ops.insert(Gp.Ops.end(), Units[K].begin(), Units[K].end());
}

} // namespace sched
} // namespace dan
