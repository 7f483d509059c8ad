//===- Components.h - The independent parts of a graph ------------*- C++
//-*-===//
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

/// The parts of \p G: nodes joined by an edge (dependence or reuse, either
/// way) or by a buffer (a buffer node's buffer, an operation's operands)
/// are in one part. Each part lists its node indices in schedule order;
/// the parts come in the order of their first node in the schedule.
/// O((V + E + U) alpha(V)), U the operands.
std::vector<std::vector<NodeIdx>> independentParts(const Graph &G);

/// The graph of \p Nodes of \p G (a union of parts: no edge leaves it), in
/// that order as its storage and its schedule, with the same ids, name,
/// target and op names; edge lists follow the new indices.
std::unique_ptr<Graph> extractPart(const Graph &G,
                                   llvm::ArrayRef<NodeIdx> Nodes);

} // namespace dan

#endif // DAN_IR_COMPONENTS_H
