//===- Replay.h - The ruler: timing and the four metrics --------*- C++ -*-===//
//
// Replays a graph under the execution model of semantics.md (docs/Replay.md
// states the exact rules): peak L1+UB residency, extra DDR traffic, spill
// count and makespan, with per-tier peaks, the L0 single-residency status,
// two makespan lower bounds and each pipe's busy time. Every DAN tool and
// every baseline is measured by this one function.
//
//===----------------------------------------------------------------------===//

#ifndef DAN_ANALYSIS_REPLAY_H
#define DAN_ANALYSIS_REPLAY_H

#include "dan/IR/Graph.h"
#include "dan/IR/NodeCosts.h"
#include "dan/Target/Target.h"
#include "llvm/ADT/DenseMap.h"
#include "llvm/ADT/DenseSet.h"
#include <array>
#include <optional>
#include <vector>

namespace dan {

struct ReplayResult {
  /// Metric 1: the peak of live L1 + UB bytes (tiers that count in peak).
  uint64_t PeakL1UB = 0;
  /// The peak of live bytes in each tier.
  std::array<uint64_t, MaxTiers> TierPeak{};
  /// Whether no L0 tier ever holds two live buffers. A spilled-out buffer
  /// does not hold its tier, so it is not live here.
  bool L0Single = true;
  /// The first node (in schedule order) that made an L0 tier hold two live
  /// buffers; set exactly when L0Single is false.
  std::optional<NodeIdx> L0Violation;
  /// Metric 2: bytes moved to and from DDR by spills.
  uint64_t ExtraTraffic = 0;
  /// Metric 3: the number of spills (SPILL_OUT nodes).
  uint64_t SpillCount = 0;
  /// Metric 4: the largest finish time.
  uint64_t Makespan = 0;
  /// Lower bounds on the makespan: the longest path (node cycles along
  /// edges, reuse edges included) and the busiest pipe's total cycles.
  uint64_t CriticalPathLB = 0;
  uint64_t PipeLB = 0;
  /// Total cycles each pipe is busy.
  std::array<uint64_t, MaxPipes> PipeBusy{};
  /// Start and finish time of every node, indexed by NodeIdx.
  std::vector<uint64_t> Start, Finish;
};

/// Replays \p G in its schedule order. Each node starts at the latest finish
/// of its predecessors (input, spill and reuse edges) and of the previous
/// node on its pipe. O(V + E).
///
/// Meaningful on graphs that verify, but safe on anything the parser
/// accepts: an edge from a node scheduled later (or from the node itself)
/// is ignored, a buffer node changes residency only when it changes the
/// buffer's state (a FREE without an ALLOC releases nothing), and sums
/// saturate at 2^64 - 1.
ReplayResult replay(const Graph &G, const TargetDesc &T);

/// The score by which the bounded candidate selections of dan-mpas
/// (--order=auto) and dan-dlr (--horizon=auto, --fit=auto) rank plans,
/// lower first: the makespan plus the cycles the plan's extra traffic keeps
/// a transfer pipe busy, beta (the spill cost's cycles per byte) per byte.
/// It prices traffic in the makespan's unit, so a plan may trade a few
/// bytes for many cycles, but not the other way round. Saturates.
inline uint64_t planCost(const ReplayResult &R, const TargetDesc &T) {
  return llvm::SaturatingMultiplyAdd(T.spillBeta(), R.ExtraTraffic, R.Makespan);
}

} // namespace dan

#endif // DAN_ANALYSIS_REPLAY_H
