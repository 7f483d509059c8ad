//===- Link.h - Joining graphs into one -------------------------*- C++ -*-===//
//
// Several kernels scheduled together are one graph. The linker joins graphs
// as llvm-link joins modules: each part keeps its nodes, edges and buffers,
// renumbered so that no id of one part meets an id of another, and the
// schedule is the parts' schedules one after another. How consecutive parts
// are joined is the caller's choice: side by side (nothing connects them),
// one after another (a SYNC between them, as a compiler emits a kernel
// boundary), or streamed (the next part's first nodes wait on the last
// part's final nodes, as tile-level dataflow between kernels does).
//
//===----------------------------------------------------------------------===//

#ifndef DAN_IR_LINK_H
#define DAN_IR_LINK_H

#include "dan/IR/Graph.h"
#include "dan/Support/EnumTable.h"
#include "llvm/ADT/ArrayRef.h"
#include "llvm/Support/Error.h"
#include <memory>

namespace dan {

/// How consecutive parts of a link are joined.
enum class LinkJoin {
  Parallel, ///< side by side: no edge between two parts
  Series,   ///< one after another: an operation SYNC on VECTOR, 1 cycle, no
            ///< buffers, after every node of the part before that has no
            ///< successor and before every node of the next part that has
            ///< no predecessor
  Stream,   ///< streamed: of the next part's N nodes without predecessors
            ///< (by id), the j-th waits for the (j * S / N)-th of the S nodes
            ///< without successors of the part before (by id)
};

/// The spellings of LinkJoin (dan-link --join).
llvm::ArrayRef<EnumEntry<LinkJoin>> linkJoinTable();

/// Joins \p Parts, in this order (a graph may appear several times: one
/// copy each time), into one graph named \p Name with the target of the
/// first part, consecutive parts joined as \p Join says. The node ids of
/// each part are shifted by one past the largest node id of the parts
/// before it (and past the SYNC before it, which takes the id after the
/// part before), its buffer ids by one past the largest buffer id of the
/// parts before, so that the first part keeps its ids; the nodes are
/// stored and scheduled part after part, each SYNC after the part before
/// it. Parts must have no memory plan: the spill numbering and the
/// addresses of two plans do not compose. Errors: no part, a part with a
/// plan (a DiagError at its first planned node), ids past 2^40. O(V + E) in
/// the size of the result.
llvm::Expected<std::unique_ptr<Graph>>
linkGraphs(llvm::ArrayRef<const Graph *> Parts, llvm::StringRef Name,
           LinkJoin Join = LinkJoin::Parallel);

} // namespace dan

#endif // DAN_IR_LINK_H
