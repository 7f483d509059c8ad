//===- Residency.h - When each buffer holds its bytes -----------*- C++ -*-===//
//
// Private to lib/Report: the residency intervals of a replayed graph, which
// the occupancy chart draws and the Chrome trace counts per tier.
//
//===----------------------------------------------------------------------===//

#ifndef DAN_LIB_REPORT_RESIDENCY_H
#define DAN_LIB_REPORT_RESIDENCY_H

#include "dan/Analysis/Replay.h"
#include "dan/IR/Graph.h"
#include <optional>
#include <vector>

namespace dan {

/// How a residency interval began and ended.
enum IntervalClass : uint8_t {
  Resident, // ALLOC to FREE (or to the end)
  Evicted,  // ALLOC to SPILL_OUT
  Reloaded, // SPILL_IN to FREE or SPILL_OUT
  NumIntervalClasses
};

struct Interval {
  uint64_t Buf = 0, Offset = 0, Size = 0, T0 = 0, T1 = 0;
  NodeIdx Placer = 0;
  std::optional<NodeIdx> Releaser;
  Tier BufTier{};
  IntervalClass Class = Resident;
  bool HasOffset = false;
};

/// R's time of node \p I, or 0 when R does not cover it.
uint64_t timeOf(const std::vector<uint64_t> &V, NodeIdx I);

/// The schedule without repeated or out-of-range entries (the replay skips
/// them the same way).
std::vector<NodeIdx> scheduled(const Graph &G);

/// Every residency interval, in the order their placements run, following
/// the replay's state transitions (docs/Replay.md, Residency).
std::vector<Interval> residencyIntervals(const Graph &G, const ReplayResult &R);

} // namespace dan

#endif // DAN_LIB_REPORT_RESIDENCY_H
