//===- COSMA.cpp - the min-peak greedy ------------------------------------===//

#include "Orders.h"
#include "dan/Schedule/L0Gate.h"

using namespace llvm;

namespace dan {
namespace sched {

std::vector<uint32_t> orderCOSMA(const View &V) {
  // Min-peak greedy: bytes beyond the L0 tiers, then bytes beyond L1 and UB
  // (what would have to be replaced), then live L1+UB bytes during the
  // operation, then its net change of L1+UB bytes, then input order.
  return listSchedule(V, [&](const MemState &S, uint32_t O, uint64_t) {
    TierBytes Tr = V.transient(S, O);
    Score Sc = V.score(Tr);
    uint64_t UpperOver = 0;
    for (unsigned TI = 0; TI != V.T.numTiers(); ++TI)
      if (!V.IsL0[TI] && Tr[TI] > V.Cap[TI])
        UpperOver += Tr[TI] - V.Cap[TI];
    uint64_t Before = V.score(S.Live).Upper;
    int64_t Net = int64_t(Sc.Upper - Before) -
                  int64_t(V.released(S, O, /*UpperOnly=*/true));
    return ListKey{Sc.L0Over, UpperOver, Sc.Upper, Net, V.InPos[V.Ops[O]]};
  });
}

} // namespace sched
} // namespace dan
