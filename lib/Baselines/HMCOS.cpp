//===- HMCOS.cpp - hierarchical memory-constrained ordering
//-----------------===//

#include "Orders.h"
#include "dan/Baselines/Baselines.h"
#include "dan/Schedule/L0Gate.h"
#include "llvm/ADT/DenseMap.h"

using namespace llvm;

namespace dan {
namespace sched {

namespace {

//===----------------------------------------------------------------------===//
// HMCOS: sequences, groups by post-dominators, DP per group, a bounded DP
// over the top-level frontiers, budget iteration
//===----------------------------------------------------------------------===//

class HMCOS {
public:
  explicit HMCOS(const View &V) : V(V) {}
  std::vector<uint32_t> run();

private:
  void buildSequences();
  void buildGroups();
  void solveGroup(uint32_t Gr);
  std::vector<uint32_t> unitOps(uint32_t U) const;
  bool beam(Score Budget, std::vector<uint32_t> &Out);

  const View &V;
  /// Nothing run yet: the context of the group DPs.
  MemState Init;
  std::vector<uint32_t> Rpo, Rank; // Rank: position of an op in Rpo
  // Sequences: chains of operations.
  std::vector<std::vector<uint32_t>> Seqs;
  std::vector<uint32_t> SeqOf;
  std::vector<std::vector<uint32_t>> SeqPreds, SeqSuccs;
  // Groups: one per cell output (a sequence with two or more
  // predecessors), the sequences it post-dominates, nested groups as
  // members. A unit is a sequence (U < Seqs.size()) or a group
  // (U - Seqs.size()).
  struct Group {
    uint32_t Cell = 0;
    std::vector<uint32_t> Members; // units
    std::vector<uint32_t> Ops;     // the solved order
  };
  std::vector<Group> Groups;
  // The units at the top level, in the order they were formed.
  std::vector<uint32_t> Top;
};

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

bool HMCOS::beam(Score Budget, std::vector<uint32_t> &Out) {
  size_t NU = Top.size();
  std::vector<std::vector<uint32_t>> UOps(NU);
  std::vector<uint32_t> UnitOf(V.Ops.size(), None), URank(NU, None);
  for (uint32_t U = 0; U != NU; ++U) {
    UOps[U] = unitOps(Top[U]);
    for (uint32_t O : UOps[U]) {
      UnitOf[O] = U;
      URank[U] = std::min(URank[U], Rank[O]);
    }
  }
  std::vector<std::vector<uint32_t>> USuccs(NU);
  std::vector<uint32_t> NumPreds(NU, 0);
  for (uint32_t U = 0; U != NU; ++U) {
    std::vector<uint32_t> P;
    for (uint32_t O : UOps[U])
      for (uint32_t Q : V.OpPreds[O])
        if (UnitOf[Q] != U)
          P.push_back(UnitOf[Q]);
    llvm::sort(P);
    P.erase(std::unique(P.begin(), P.end()), P.end());
    NumPreds[U] = P.size();
    for (uint32_t Q : P)
      USuccs[Q].push_back(U);
  }
  // Zobrist keys identify a frontier (the set of units run) across
  // partial schedules; splitmix64 of the unit's first operation makes them
  // deterministic.
  std::vector<uint64_t> Key(NU);
  for (uint32_t U = 0; U != NU; ++U) {
    uint64_t Z = uint64_t(UOps[U].front()) * 0x9E3779B97F4A7C15ull + 1;
    Z = (Z ^ (Z >> 30)) * 0xBF58476D1CE4E5B9ull;
    Z = (Z ^ (Z >> 27)) * 0x94D049BB133111EBull;
    Key[U] = Z ^ (Z >> 31);
  }
  struct State {
    MemState Mem;
    std::vector<uint32_t> Left;  // predecessors not yet run, per unit
    std::vector<uint32_t> Ready; // by URank
    uint64_t Hash = 0;
    Score Peak;
    uint32_t Trace = None;
  };
  std::vector<std::pair<uint32_t, uint32_t>> Trace; // (parent, unit)
  auto ByRank = [&](uint32_t A, uint32_t B) { return URank[A] < URank[B]; };
  std::vector<State> States(1);
  States[0].Mem = V.initial();
  States[0].Left = NumPreds;
  for (uint32_t U = 0; U != NU; ++U)
    if (!NumPreds[U])
      States[0].Ready.push_back(U);
  llvm::sort(States[0].Ready, ByRank);
  struct Cand {
    Score Peak;
    uint64_t Live;
    uint32_t From, Pick;
    uint64_t Hash;
  };
  std::vector<Cand> Cands;
  SmallVector<uint32_t, 64> Undo;
  for (size_t Step = 0; Step != NU; ++Step) {
    Cands.clear();
    for (uint32_t R = 0; R != States.size(); ++R) {
      State &St = States[R];
      size_t Tries =
          std::min<size_t>(St.Ready.size(), baseline::HMCOSCandidates);
      for (uint32_t Q = 0; Q != Tries; ++Q) {
        uint32_t U = St.Ready[Q];
        TierBytes Saved = St.Mem.Live;
        Undo.clear();
        Score Worst;
        for (uint32_t O : UOps[U])
          Worst = maxScore(Worst, V.apply(St.Mem, O, &Undo));
        uint64_t Live = V.score(St.Mem.Live).Upper;
        V.undo(St.Mem, Undo, Saved);
        if (Budget < Worst)
          continue; // memory-constrained: over the budget
        Cands.push_back(
            {maxScore(St.Peak, Worst), Live, R, Q, St.Hash ^ Key[U]});
      }
    }
    if (Cands.empty())
      return false;
    llvm::sort(Cands, [](const Cand &A, const Cand &B) {
      return std::tie(A.Peak.L0Over, A.Peak.Upper, A.Live, A.From, A.Pick) <
             std::tie(B.Peak.L0Over, B.Peak.Upper, B.Live, B.From, B.Pick);
    });
    SmallVector<const Cand *, 8> Kept;
    SmallVector<uint64_t, 8> Hashes;
    for (const Cand &C : Cands) {
      if (Kept.size() == baseline::HMCOSBeam)
        break;
      if (is_contained(Hashes, C.Hash))
        continue; // the same frontier, reached at a higher cost
      Hashes.push_back(C.Hash);
      Kept.push_back(&C);
    }
    // A state's last successor takes it over instead of a copy: copying
    // every state at every step was quadratic (minutes on a long chain).
    SmallVector<uint32_t, 8> Uses(States.size(), 0);
    for (const Cand *C : Kept)
      ++Uses[C->From];
    std::vector<State> Next;
    for (const Cand *CP : Kept) {
      const Cand &C = *CP;
      State St = --Uses[C.From] ? States[C.From] : std::move(States[C.From]);
      uint32_t U = St.Ready[C.Pick];
      for (uint32_t O : UOps[U])
        V.apply(St.Mem, O);
      St.Ready.erase(St.Ready.begin() + C.Pick);
      for (uint32_t S : USuccs[U])
        if (--St.Left[S] == 0)
          St.Ready.insert(llvm::upper_bound(St.Ready, S, ByRank), S);
      St.Hash = C.Hash;
      St.Peak = C.Peak;
      Trace.push_back({St.Trace, U});
      St.Trace = Trace.size() - 1;
      Next.push_back(std::move(St));
    }
    States = std::move(Next);
  }
  std::vector<uint32_t> Units;
  for (uint32_t T = States[0].Trace; T != None; T = Trace[T].first)
    Units.push_back(Trace[T].second);
  std::reverse(Units.begin(), Units.end());
  Out.clear();
  for (uint32_t U : Units)
    Out.insert(Out.end(), UOps[U].begin(), UOps[U].end());
  return true;
}

std::vector<uint32_t> HMCOS::run() {
  Init = V.initial();
  Rpo = reversePostOrder(V);
  Rank.assign(V.Ops.size(), 0);
  for (uint32_t I = 0; I != Rpo.size(); ++I)
    Rank[Rpo[I]] = I;
  buildSequences();
  buildGroups();
  // Budget iteration (as in HMCOS): each round schedules within the best
  // worst step so far (a partial schedule whose step exceeds it is dropped)
  // and keeps its result when it is lower; then the top-level group holding
  // the round's worst step is dissolved into its members, so that the next
  // round may interleave them with the rest. It stops when a round finds no
  // schedule within the budget, when the worst step lies in no group, or
  // after the cap.
  Score Budget{UINT64_MAX, UINT64_MAX};
  std::vector<uint32_t> Best, Cur;
  Score BestPeak;
  for (unsigned Round = 0; Round != baseline::HMCOSRounds; ++Round) {
    // A round whose budget prunes every partial schedule (the beam is not
    // a complete search) runs again without it, for the next ungrouping.
    if (!beam(Budget, Cur) && !beam(Score{UINT64_MAX, UINT64_MAX}, Cur))
      break;
    // Rounds compare after the L0 legalization that the result gets.
    Cur = legalizeL0(V, std::move(Cur));
    auto [Peak, At] = V.evaluate(Cur);
    if (Best.empty() || Peak < BestPeak) {
      Best = Cur;
      BestPeak = Peak;
      Budget = Peak;
    }
    // The unit holding the worst step; if it is a group, dissolve it, else
    // dissolve the groups that follow it (HMCOS's tryUngroupSucc).
    std::vector<uint32_t> UnitOf(V.Ops.size(), None);
    for (uint32_t K = 0; K != Top.size(); ++K)
      for (uint32_t O : unitOps(Top[K]))
        UnitOf[O] = K;
    uint32_t PeakUnit = UnitOf[Cur[At]];
    std::vector<uint32_t> Dissolve;
    if (Top[PeakUnit] >= Seqs.size()) {
      Dissolve.push_back(PeakUnit);
    } else {
      for (uint32_t O : unitOps(Top[PeakUnit]))
        for (uint32_t S : V.OpSuccs[O])
          if (Top[UnitOf[S]] >= Seqs.size() &&
              !is_contained(Dissolve, UnitOf[S]))
            Dissolve.push_back(UnitOf[S]);
    }
    if (Dissolve.empty())
      break;
    llvm::sort(Dissolve);
    std::vector<uint32_t> NewTop;
    for (uint32_t K = 0; K != Top.size(); ++K)
      if (!std::binary_search(Dissolve.begin(), Dissolve.end(), K))
        NewTop.push_back(Top[K]);
    for (uint32_t K : Dissolve) {
      const std::vector<uint32_t> &M = Groups[Top[K] - Seqs.size()].Members;
      NewTop.insert(NewTop.end(), M.begin(), M.end());
    }
    Top = std::move(NewTop);
  }
  return Best;
}

} // namespace

std::vector<uint32_t> orderHMCOS(const View &V) { return HMCOS(V).run(); }

} // namespace sched
} // namespace dan
