//===- HMCOSBeam.cpp - HMCOS's top-level search ---------------------------===//
//
// HMCOS's top level: a DP over the frontiers of the top-level units, kept
// bounded as a beam (HMCOSBeam partial schedules, HMCOSCandidates units
// tried each), memory-constrained by the round's budget.
//
//===----------------------------------------------------------------------===//

#include "HMCOS.h"

using namespace llvm;

namespace dan {
namespace sched {

HMCOS::TopUnits HMCOS::topUnits() const {
  size_t NU = Top.size();
  TopUnits TU;
  std::vector<std::vector<uint32_t>> &UOps = TU.UOps;
  UOps.resize(NU);
  std::vector<uint32_t> UnitOf(V.Ops.size(), None);
  std::vector<uint32_t> &URank = TU.URank;
  URank.assign(NU, None);
  for (uint32_t U = 0; U != NU; ++U) {
    UOps[U] = unitOps(Top[U]);
    for (uint32_t O : UOps[U]) {
      UnitOf[O] = U;
      URank[U] = std::min(URank[U], Rank[O]);
    }
  }
  TU.USuccs.resize(NU);
  TU.NumPreds.assign(NU, 0);
  for (uint32_t U = 0; U != NU; ++U) {
    std::vector<uint32_t> P;
    for (uint32_t O : UOps[U])
      for (uint32_t Q : V.OpPreds[O])
        if (UnitOf[Q] != U)
          P.push_back(UnitOf[Q]);
    llvm::sort(P);
    P.erase(std::unique(P.begin(), P.end()), P.end());
    TU.NumPreds[U] = P.size();
    for (uint32_t Q : P)
      TU.USuccs[Q].push_back(U);
  }
  // Zobrist keys identify a frontier (the set of units run) across
  // partial schedules; splitmix64 of the unit's first operation makes them
  // deterministic.
  TU.Key.resize(NU);
  for (uint32_t U = 0; U != NU; ++U) {
    uint64_t Z = uint64_t(UOps[U].front()) * 0x9E3779B97F4A7C15ull + 1;
    Z = (Z ^ (Z >> 30)) * 0xBF58476D1CE4E5B9ull;
    Z = (Z ^ (Z >> 27)) * 0x94D049BB133111EBull;
    TU.Key[U] = Z ^ (Z >> 31);
  }
  return TU;
}

bool HMCOS::beam(Score Budget, std::vector<uint32_t> &Out) {
  size_t NU = Top.size();
  const TopUnits TU = topUnits();
  const std::vector<std::vector<uint32_t>> &UOps = TU.UOps, &USuccs = TU.USuccs;
  const std::vector<uint32_t> &URank = TU.URank, &NumPreds = TU.NumPreds;
  const std::vector<uint64_t> &Key = TU.Key;
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

} // namespace sched
} // namespace dan
