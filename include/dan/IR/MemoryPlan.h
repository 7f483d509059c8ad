//===- MemoryPlan.h - Edges a memory plan implies ---------------*- C++ -*-===//
//
// A memory plan (offsets and spill nodes) implies two kinds of edges, as the
// execution model (docs/LangRef.md, "Memory plan") defines them:
//
//  * spill edges, only those no other required edge implies: OUT -> IN;
//    every use of b (spill nodes of b included) since the previous SPILL_IN
//    of b -> OUT, or ALLOC(b) and every earlier use -> the first OUT;
//    IN -> every operation using b up to the next SPILL_OUT of b, and
//    IN -> FREE(b) after the last one;
//  * address-reuse edges: when a placement (ALLOC or SPILL_IN) takes bytes
//    last held by another buffer, the node that released them (FREE or
//    SPILL_OUT) -> the placing node.
//
// Both are computed from the schedule in one walk. Importers and the memory
// planner add them; the verifier checks that a file carries exactly them.
//
//===----------------------------------------------------------------------===//

#ifndef DAN_IR_MEMORYPLAN_H
#define DAN_IR_MEMORYPLAN_H

#include "dan/IR/Graph.h"
#include "llvm/ADT/ArrayRef.h"
#include "llvm/ADT/STLFunctionalExtras.h"
#include <utility>
#include <vector>

namespace dan {

/// An edge From -> To with a reason, for messages.
struct RequiredEdge {
  enum Reason : uint8_t {
    AllocToOut, // ALLOC(b) -> SPILL_OUT(b)
    OutToIn,    // SPILL_OUT(b) -> SPILL_IN(b) of the same spill
    InToFree,   // SPILL_IN(b) -> FREE(b)
    UserToOut,  // a node using b before SPILL_OUT(b) -> SPILL_OUT(b)
    InToUser,   // SPILL_IN(b) -> an operation using b after it
  };
  NodeIdx From, To;
  Reason Why;
};

/// The spill edges that the rule of docs/LangRef.md ("Spill edges")
/// requires of \p G: the transitive reduction along each buffer's chain of
/// spills, which in a graph that verifies implies every edge from a use to
/// a later SPILL_OUT and from a SPILL_IN to a later use or the FREE.
/// Grouped by buffer (buffers in order of their first spill node, edges in
/// schedule order of their spill node); the edges into one node come
/// together.
/// Buffers without an alloc or free get no alloc or free edge.
/// O(V + U + K): at most one edge into and one out of each use per spill
/// chain.
std::vector<RequiredEdge> computeSpillEdges(const Graph &G);

/// Adds the spill edges of \p G that are missing to the nodes' Preds.
void addSpillEdges(Graph &G);

/// Gives the spill nodes the ids the numbering rule asks for: the pair of
/// the k-th spill_out in the schedule gets N + 2k and N + 2k + 1 (N is
/// Graph::firstSpillId()). Pairs are found by the ids the nodes have now
/// (spill_in = spill_out + 1, same buffer); a spill_in that pairs with none
/// that way pairs with the last unpaired spill_out of its buffer before it
/// in the schedule; a spill node left without a partner gets an unused id
/// after them. Sorts the edge lists again.
void renumberSpills(Graph &G);

/// Makes a hand-edited memory plan consistent with its offsets, spill nodes
/// and schedule: renumbers the spills (renumberSpills), adds the missing
/// spill edges (addSpillEdges) and replaces the reuse edges with those the
/// plan implies (setReuseEdges). Does nothing to a graph without a plan.
/// What it cannot repair (an overlap, a buffer outside its tier) the
/// verifier still reports. Fails, changing nothing, when a spill id would
/// pass the IR's limit of 2^40 (the largest other id is too near it).
llvm::Error fixMemoryPlan(Graph &G);

/// How address reuse is read. Safe: every placement (ALLOC or SPILL_IN)
/// waits for the release (FREE or SPILL_OUT) of the bytes it takes; DAN's
/// ruler. Literal: the contest statement's own words, from ALLOC offsets
/// and FREE nodes only; offered to compare with published figures.
enum class ReuseReading { Safe, Literal };

/// The reuse edges implied by the plan of \p G: calls \p Visit(I, Preds)
/// for each node I of the schedule, in schedule order, with the nodes whose
/// release last freed bytes I takes, sorted by id (empty but for a
/// placement). A placement never gets an edge from the release of its own
/// buffer (the spill pair already orders them). Nodes without an offset
/// place nothing. Preds is valid during the call only. O(V log V + reuse
/// edges), with no memory per node.
void forEachImpliedReuse(
    const Graph &G, ReuseReading Reading,
    llvm::function_ref<void(NodeIdx, llvm::ArrayRef<NodeIdx>)> Visit);

/// The reuse edges implied by the plan (forEachImpliedReuse), as a list
/// for every node (indexed by NodeIdx; empty for a node off the schedule).
std::vector<EdgeList>
computeReuseEdges(const Graph &G, ReuseReading Reading = ReuseReading::Safe);

/// Replaces the reuse edges of \p G with those its plan implies under
/// \p Reading (none for a node off the schedule).
void setReuseEdges(Graph &G, ReuseReading Reading = ReuseReading::Safe);

/// Removes the memory plan of \p G: spill nodes and every edge touching
/// them, offsets and reuse edges. What is left is the input graph in the
/// same order.
void stripMemoryPlan(Graph &G);

} // namespace dan

#endif // DAN_IR_MEMORYPLAN_H
