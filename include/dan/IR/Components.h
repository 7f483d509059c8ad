//===- Components.h - Parts of a graph cut out and joined back --*- C++ -*-===//
//
// A pass may plan each part of a graph on its own (a kernel, a segment of
// its schedule: dan/IR/Kernels.h), the parts at once, and join the
// results; these functions cut a part out and join the parts back.
//
//===----------------------------------------------------------------------===//

#ifndef DAN_IR_COMPONENTS_H
#define DAN_IR_COMPONENTS_H

#include "dan/IR/Graph.h"
#include "llvm/ADT/ArrayRef.h"
#include <memory>
#include <vector>

namespace dan {

/// The graph of \p Nodes of \p G, in that order as its storage and its
/// schedule, with the same ids, name, target and op names; edge lists
/// follow the new indices, and edges from nodes left out are dropped
/// (joinParts adds them back).
std::unique_ptr<Graph> extractPart(const Graph &G,
                                   llvm::ArrayRef<NodeIdx> Nodes);

/// The nodes within \p Depth edges of \p Center (dependence and reuse
/// edges, followed either way), in schedule order: what a picture of a
/// large graph around one node shows. O(V + E).
std::vector<NodeIdx> neighbourhood(const Graph &G, NodeIdx Center,
                                   unsigned Depth);

/// The inverse of extractPart after each part was planned on its own:
/// \p Parts are graphs made from the parts of \p Shape (in schedule order)
/// and then ordered or planned; the result has Shape's name and target,
/// every part's nodes and edges, the edges of Shape between nodes of two
/// parts (the parts may follow one another, as segments of a schedule),
/// the parts' schedules one after another, the spill nodes renumbered for the
/// whole (each part's spills keep their order, the parts' spills follow one
/// another), and the reuse edges the whole plan implies (a part may now wait on
/// the addresses an earlier part releases). Parts must not share a non-spill
/// id. The parts' nodes and schedules are moved into the result, which
/// leaves the parts empty. O(V + E) plus the reuse-edge computation.
std::unique_ptr<Graph> joinParts(llvm::ArrayRef<Graph *> Parts,
                                 const Graph &Shape);

} // namespace dan

#endif // DAN_IR_COMPONENTS_H
