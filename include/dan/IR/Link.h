//===- Link.h - Joining graphs into one -------------------------*- C++ -*-===//
//
// Several kernels scheduled together are one graph of disjoint parts. The
// linker joins graphs as llvm-link joins modules: each part keeps its nodes,
// edges and buffers, renumbered so that no id of one part meets an id of
// another, and the schedule is the parts' schedules one after another.
//
//===----------------------------------------------------------------------===//

#ifndef DAN_IR_LINK_H
#define DAN_IR_LINK_H

#include "dan/IR/Graph.h"
#include "llvm/ADT/ArrayRef.h"
#include "llvm/Support/Error.h"
#include <memory>

namespace dan {

/// Joins \p Parts, in this order (a graph may appear several times: one
/// copy each time), into one graph named \p Name with the target of the
/// first part. The node ids of each part are shifted by one past the
/// largest node id of the parts before it, and its buffer ids likewise, so
/// that the first part keeps its ids. Parts must have no memory plan: the
/// spill numbering and the addresses of two plans do not compose. Errors:
/// no part, a part with a plan (a DiagError at its first planned node), ids
/// past 2^40. O(V + E) in the size of the result.
llvm::Expected<std::unique_ptr<Graph>>
linkGraphs(llvm::ArrayRef<const Graph *> Parts, llvm::StringRef Name);

} // namespace dan

#endif // DAN_IR_LINK_H
