//===- Components.h - The independent parts of a graph ----------*- C++ -*-===//
//
// A graph of several kernels falls apart into parts that share no edge and
// no buffer. A pass may plan each part on its own (and the parts at once)
// and join the results; these functions find the parts and cut one out.
//
//===----------------------------------------------------------------------===//

#ifndef DAN_IR_COMPONENTS_H
#define DAN_IR_COMPONENTS_H

#include "dan/IR/Graph.h"
#include "llvm/ADT/ArrayRef.h"
#include <memory>
#include <vector>

namespace dan {

/// The parts of \p G: nodes joined by an edge (dependence, or reuse unless
/// \p ByReuseEdges is false, either way) or by a buffer (a buffer node's
/// buffer, an operation's operands) are in one part. Without the reuse
/// edges the parts of a planned graph are its kernels, which the plan
/// chained only through addresses (joinParts computes those edges anew). Each
/// part lists its node indices in schedule order; the parts come in the order
/// of their first node in the schedule. O((V + E + U) alpha(V)), U the
/// operands.
std::vector<std::vector<NodeIdx>> independentParts(const Graph &G,
                                                   bool ByReuseEdges = true);

/// The graph of \p Nodes of \p G, in that order as its storage and its
/// schedule, with the same ids, name, target and op names; edge lists
/// follow the new indices, and edges from nodes left out are dropped (none
/// are when \p Nodes is a union of parts).
std::unique_ptr<Graph> extractPart(const Graph &G,
                                   llvm::ArrayRef<NodeIdx> Nodes);

/// Whether the schedule of \p G runs \p Parts (of independentParts) one
/// after another, each whole before the next begins.
bool partsRunInTurn(const Graph &G, llvm::ArrayRef<std::vector<NodeIdx>> Parts);

/// The nodes within \p Depth edges of \p Center (dependence and reuse
/// edges, followed either way), in schedule order: what a picture of a
/// large graph around one node shows. O(V + E).
std::vector<NodeIdx> neighbourhood(const Graph &G, NodeIdx Center,
                                   unsigned Depth);

/// The inverse of extractPart after each part was planned on its own:
/// \p Parts are graphs made from the parts of \p Shape (in schedule order)
/// and then ordered or planned; the result has Shape's name and target,
/// every part's nodes and edges, the parts' schedules one after another,
/// the spill nodes renumbered for the whole (each part's spills keep their
/// order, the parts' spills follow one another), and the reuse edges the
/// whole plan implies (a part may now wait on the addresses an earlier
/// part releases). Parts must not share a non-spill id. O(V + E) plus the
/// reuse-edge computation.
std::unique_ptr<Graph> joinParts(llvm::ArrayRef<const Graph *> Parts,
                                 const Graph &Shape);

} // namespace dan

#endif // DAN_IR_COMPONENTS_H
