//===- Bounds.h - Lower bounds that hold for every schedule -----*- C++ -*-===//
//
// Certified lower bounds on the metrics of docs/ExecutionModel.md: values no
// schedule of a graph can beat, each with the method that proves it
// (docs/Bounds.md gives each method's argument). dan-bound prints them, and
// a heuristic's figure against the best of them is its gap to optimal.
//
//===----------------------------------------------------------------------===//

#ifndef DAN_ANALYSIS_BOUNDS_H
#define DAN_ANALYSIS_BOUNDS_H

#include "dan/IR/Graph.h"
#include "dan/Support/EnumTable.h"
#include "dan/Target/Target.h"
#include "llvm/Support/Error.h"
#include <string>
#include <vector>

namespace dan {

/// One lower bound: its value, the method that proves it, and what the
/// proof rests on (a node, a set of operations).
struct LowerBound {
  std::string Method;
  uint64_t Value = 0;
  std::string Where;
};

/// Which schedules a stage-1 bound holds for: those that keep the L0 rule
/// (one live buffer per L0 tier, the contest's stage 1), those whose live
/// L0 bytes stay within each tier, or every schedule.
enum class L0Rule { Single, Capacity, Ignore };
llvm::ArrayRef<EnumEntry<L0Rule>> l0RuleTable();

struct PeakBoundOptions {
  L0Rule L0 = L0Rule::Single;
  /// Operations in each subproblem solved exactly (at most 64).
  unsigned WindowOps = 40;
  /// States the exact search of one subproblem may expand; a search cut
  /// off still proves the value it reached.
  uint64_t StatesPerWindow = 5000;
  /// Work the must-be-live method may do, in 64-bit words of reachability
  /// sets (about V * E * buffers / 64); above it the method is skipped.
  uint64_t MustLiveWords = uint64_t(1) << 31;
};

/// Lower bounds on the peak L1+UB of every schedule of \p G's nodes (spill
/// nodes and reuse edges aside) that keeps Opts.L0, one per method, in the
/// order: per operation, must be live, exact subproblems. An error when
/// the graph's edges (with each buffer's uses between its ALLOC and FREE)
/// have a cycle.
llvm::Expected<std::vector<LowerBound>>
peakLowerBounds(const Graph &G, const TargetDesc &T,
                const PeakBoundOptions &Opts = {});

/// Lower bounds on the makespan of every schedule that respects \p G's
/// edges (its reuse and spill edges included): the busiest pipe and the
/// critical path. On a graph without a plan they hold for every plan too,
/// since a plan only adds nodes and edges.
std::vector<LowerBound> makespanLowerBounds(const Graph &G,
                                            const TargetDesc &T);

/// A lower bound on the extra DDR traffic of every memory plan that keeps
/// \p G's order of its non-spill nodes (as stage 2 does): per tier, the
/// fewest bytes that must be out of the tier at each node to keep it within
/// its capacity, each byte out for a whole stretch between two events of its
/// buffer (its ALLOC, its uses, its FREE), chosen by the furthest end first
/// (optimal for this byte-granular relaxation), priced at the least that a
/// byte of a spill of that tier moves (docs/Bounds.md). Fragmentation and
/// whole-buffer spills are ignored, so a plan may need more.
LowerBound trafficLowerBound(const Graph &G, const TargetDesc &T);

/// The bounds of every plan that keeps \p G's order of its non-spill nodes:
/// the traffic (trafficLowerBound), and the makespan, the busiest pipe once
/// the spill transfers the traffic bound implies are added (spill nodes
/// already in \p G count as they are).
struct OrderBounds {
  LowerBound Traffic, Makespan;
};
OrderBounds orderLowerBounds(const Graph &G, const TargetDesc &T);

/// The largest value of \p Bounds (0 when empty).
uint64_t bestOf(llvm::ArrayRef<LowerBound> Bounds);

} // namespace dan

#endif // DAN_ANALYSIS_BOUNDS_H
