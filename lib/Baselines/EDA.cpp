//===- EDA.cpp - depth first while the working set fits -------------------===//

#include "Orders.h"
#include "dan/Schedule/L0Gate.h"

using namespace llvm;

namespace dan {
namespace sched {

std::vector<uint32_t> orderEDA(const View &V) {
  // Depth first (the most recently readied operation, so a producer's
  // consumers follow it and its intermediates stay on chip) among the
  // operations whose working set still fits every tier; when none fits,
  // the one that overflows the tiers by the fewest bytes (those bytes are
  // what must go to DDR), then depth first.
  return listSchedule(V, [&](const MemState &S, uint32_t O, uint64_t Stamp) {
    TierBytes Tr = V.transient(S, O);
    uint64_t Over = 0;
    for (unsigned TI = 0; TI != V.T.numTiers(); ++TI)
      if (Tr[TI] > V.Cap[TI])
        Over += Tr[TI] - V.Cap[TI];
    return ListKey{Over != 0, Over, UINT64_MAX - Stamp, 0, 0};
  });
}

} // namespace sched
} // namespace dan
