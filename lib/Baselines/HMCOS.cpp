//===- HMCOS.cpp - hierarchical memory-constrained ordering ---------------===//
//
// HMCOS: sequences, groups by post-dominators, DP per group, a bounded DP
// over the top-level frontiers, and the budget iteration (docs/Baselines.md).
//
//===----------------------------------------------------------------------===//

#include "HMCOS.h"
#include "Orders.h"

using namespace llvm;

namespace dan {
namespace sched {

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

std::vector<uint32_t> orderHMCOS(const View &V) { return HMCOS(V).run(); }

} // namespace sched
} // namespace dan
