//===- SubsetDP.cpp - Exact DP over the subsets of a few units ------------===//

#include "dan/Schedule/OpView.h"
#include "llvm/ADT/DenseMap.h"
#include <algorithm>
#include <cassert>

using namespace llvm;

namespace dan {
namespace sched {

std::vector<unsigned> subsetDP(const View &V, const MemState &S0,
                               ArrayRef<std::vector<uint32_t>> Units,
                               ArrayRef<uint32_t> PredMask) {
  unsigned W = Units.size();
  assert(W <= 16 && "the caps keep subset DPs small");
  // The buffers the units touch, numbered locally.
  DenseMap<uint32_t, uint32_t> Local;
  std::vector<uint32_t> Global;
  for (const std::vector<uint32_t> &U : Units)
    for (uint32_t O : U)
      for (uint32_t B : V.OpBufs[O])
        if (Local.try_emplace(B, Global.size()).second)
          Global.push_back(B);
  size_t L = Global.size();
  size_t NS = size_t(1) << W;
  std::vector<uint8_t> Reached(NS, 0);
  std::vector<Score> Cost(NS);
  std::vector<uint8_t> Parent(NS, 0);
  std::vector<uint32_t> Left(NS * L);
  std::vector<TierBytes> Live(NS);
  // The local op buffer lists.
  std::vector<std::vector<SmallVector<uint32_t, 3>>> UnitBufs(W);
  for (unsigned J = 0; J != W; ++J)
    for (uint32_t O : Units[J]) {
      SmallVector<uint32_t, 3> Bs;
      for (uint32_t B : V.OpBufs[O])
        Bs.push_back(Local[B]);
      UnitBufs[J].push_back(std::move(Bs));
    }
  Reached[0] = 1;
  for (size_t K = 0; K != L; ++K)
    Left[K] = S0.Left[Global[K]];
  Live[0] = S0.Live;
  std::vector<uint32_t> Scratch(L);
  // Runs unit J from state Sub into Scratch / LiveOut; returns its worst
  // step.
  auto Run = [&](size_t Sub, unsigned J, TierBytes &LiveOut) {
    // Pointer arithmetic, not &Left[...]: L is 0 when the units use no
    // buffer, and Left is then empty.
    std::copy_n(Left.data() + Sub * L, L, Scratch.begin());
    LiveOut = Live[Sub];
    Score Worst;
    for (const SmallVector<uint32_t, 3> &Bs : UnitBufs[J]) {
      for (uint32_t K : Bs)
        if (Scratch[K] == V.Bufs[Global[K]].Users)
          LiveOut[V.Bufs[Global[K]].TI] += V.Bufs[Global[K]].Size;
      Worst = maxScore(Worst, V.score(LiveOut));
      for (uint32_t K : Bs)
        if (--Scratch[K] == 0)
          LiveOut[V.Bufs[Global[K]].TI] -= V.Bufs[Global[K]].Size;
    }
    return Worst;
  };
  TierBytes LiveOut;
  for (size_t Sub = 0; Sub != NS; ++Sub) {
    if (!Reached[Sub])
      continue;
    for (unsigned J = 0; J != W; ++J) {
      if ((Sub >> J & 1) || (PredMask[J] & ~Sub))
        continue;
      Score C = maxScore(Cost[Sub], Run(Sub, J, LiveOut));
      size_t Next = Sub | (size_t(1) << J);
      if (!Reached[Next]) {
        Reached[Next] = 1;
        Cost[Next] = C;
        Parent[Next] = J;
        std::copy_n(Scratch.begin(), L, Left.data() + Next * L);
        Live[Next] = LiveOut;
      } else if (C < Cost[Next]) {
        Cost[Next] = C;
        Parent[Next] = J;
      }
    }
  }
  std::vector<unsigned> Given(W);
  for (unsigned J = 0; J != W; ++J)
    Given[J] = J;
  size_t Full = NS - 1;
  if (!Reached[Full])
    return Given; // cannot happen for an acyclic PredMask
  // The given order's worst step: kept on a tie.
  Score GivenCost;
  bool GivenLegal = true;
  for (size_t Sub = 0, J = 0; J != W; ++J) {
    if (PredMask[J] & ~Sub) {
      GivenLegal = false;
      break;
    }
    GivenCost = maxScore(GivenCost, Run(Sub, J, LiveOut));
    Sub |= size_t(1) << J;
  }
  if (GivenLegal && GivenCost <= Cost[Full])
    return Given;
  std::vector<unsigned> Order;
  for (size_t Sub = Full; Sub;) {
    unsigned J = Parent[Sub];
    Order.push_back(J);
    Sub &= ~(size_t(1) << J);
  }
  std::reverse(Order.begin(), Order.end());
  return Order;
}

} // namespace sched
} // namespace dan
