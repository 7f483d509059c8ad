//===- BoundGraph.h - The graph as the lower bounds see it ------*- C++ -*-===//
//
// Private to lib/Analysis: the graph that the peak bounds (BoundsPeak.cpp)
// and the critical path (BoundsTiming.cpp) walk, built by Bounds.cpp.
//
//===----------------------------------------------------------------------===//

#ifndef DAN_LIB_ANALYSIS_BOUNDGRAPH_H
#define DAN_LIB_ANALYSIS_BOUNDGRAPH_H

#include "dan/IR/Graph.h"
#include "dan/Target/Enums.h"
#include "llvm/ADT/SmallVector.h"
#include "llvm/Support/Error.h"
#include <cstdint>
#include <vector>

namespace dan::detail {

inline constexpr uint32_t None = UINT32_MAX;

/// The graph as the peak bounds see it: its nodes but the spill nodes, its
/// edges (reuse edges aside) plus each buffer's ALLOC before and FREE after
/// every operation that uses it, in one topological order; and each buffer
/// with the operations that use it.
struct BoundGraph {
  struct Buffer {
    uint64_t Size = 0;
    Tier BufTier{};
    std::vector<NodeIdx> Users;
  };
  std::vector<llvm::SmallVector<NodeIdx, 4>> Preds, Succs;
  std::vector<NodeIdx> Topo;
  std::vector<Buffer> Buffers;
  /// Each operation's buffers, distinct, as indices into Buffers.
  std::vector<llvm::SmallVector<uint32_t, 4>> BufsOf;
};

/// Builds \p G's BoundGraph: as above for the peak bounds, and with
/// \p Timing (for the critical path) with the spill nodes and the reuse
/// edges too. An error when the edges have a cycle.
llvm::Expected<BoundGraph> buildBoundGraph(const Graph &G, bool Timing);

} // namespace dan::detail

#endif // DAN_LIB_ANALYSIS_BOUNDGRAPH_H
