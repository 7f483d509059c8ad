//===- Kernels.h - The kernels of a graph and their order -------*- C++ -*-===//
//
// A compiler hands DAN a model: kernels side by side, one after another
// (a SYNC between them) or streamed (tile-level edges from one to the
// next). A kernel is what its buffers hold together: the nodes that share
// a buffer, transitively. The kernels, and the nodes without buffers
// between them, are the units of a graph; the edges between units order
// them. The stages plan each kernel as it would be alone and join the
// plans in turn (the floor that no plan of the whole may be worse than),
// and cut a schedule where no kernel is open into segments that can be
// planned apart (docs/Kernels.md).
//
//===----------------------------------------------------------------------===//

#ifndef DAN_IR_KERNELS_H
#define DAN_IR_KERNELS_H

#include "dan/IR/Graph.h"
#include <cstdint>
#include <vector>

namespace dan {

/// The units of a graph: its kernels and its nodes without buffers.
struct KernelSplit {
  /// Per node index: its unit.
  std::vector<uint32_t> UnitOf;
  /// Per unit: its nodes, in schedule order.
  std::vector<std::vector<NodeIdx>> Units;
  /// Per unit: whether it is a kernel (else one node without buffers).
  std::vector<char> IsKernel;
  /// Every unit once, in a topological order of the edges between units
  /// (ties: the unit whose first node comes first in the schedule).
  std::vector<uint32_t> Topo;
  /// How many units are kernels.
  unsigned NumKernels = 0;
};

/// The units of \p G. Nodes that name a common buffer (a buffer node's
/// buffer, an operation's operands) are in one kernel; an operation without
/// buffers is a unit of its own. Units that edges join both ways (a cycle
/// through several) merge into one, so the edges between units form a DAG.
/// Dependence edges order units, and so do reuse edges unless
/// \p ByReuseEdges is false. O((V + E + U) alpha(V) + V log V).
KernelSplit splitKernels(const Graph &G, bool ByReuseEdges = true);

/// The schedule of \p G cut into segments: a cut falls where no kernel has
/// nodes on both sides, and consecutive nodes without buffers between such
/// cuts form one segment. Each segment lists its nodes in schedule order;
/// joined in turn, the segments are the schedule. Kernels that the
/// schedule runs in turn are segments of their own; kernels it interleaves
/// share one. O(V).
std::vector<std::vector<NodeIdx>> scheduleSegments(const Graph &G,
                                                   const KernelSplit &K);

} // namespace dan

#endif // DAN_IR_KERNELS_H
