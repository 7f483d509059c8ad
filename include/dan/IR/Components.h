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
#include <cstdint>
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

/// The node ids and the buffer ids of a part, each in increasing order. A
/// pass that reads ids only by their order (compares them, numbers new
/// nodes after them) sees an id as its rank here.
struct PartIds {
  std::vector<uint64_t> Nodes;
  std::vector<uint64_t> Buffers;
  /// Node by node in storage order, the rank of its id and then of each
  /// buffer id it names (a buffer node's Buf, an operation's Bufs).
  std::vector<uint32_t> Ranks;
};

/// The ids of \p Part (its spill nodes' too) and their ranks. O(V log V).
PartIds partIds(const Graph &Part);

/// A hash of \p Part, whose ids are \p Ids, that reads its ids by rank:
/// parts alike (partsAlike) hash alike. O(V).
uint64_t partShapeHash(const Graph &Part, const PartIds &Ids);

/// Whether \p B, a part of the same graph as \p A (extractPart), is \p A
/// with its node ids and buffer ids renamed in a way that keeps their
/// order, and the same in all else a pass reads (kinds, op names, pipes,
/// tiers, sizes, cycles, offsets, edges, schedule); the nodes may differ in
/// source locations, tile and attribute sets. A kernel and its copies, or
/// one kernel in each layer of a model, are alike. O(V + E).
bool partsAlike(const Graph &A, const PartIds &IdsA, const Graph &B,
                const PartIds &IdsB);

/// Makes \p Part, alike the part whose ids were \p ResultIds and from
/// which a pass made \p Result, into Result renamed to Part's ids: the nodes
/// of the input with Part's ids, locations, tile and attribute sets, the
/// nodes the pass added with ids as far past Part's last id as theirs are
/// past the input's, buffer ids by rank. What a pass that reads ids only by
/// their order and keeps the nodes of its input at their indices makes of
/// Part. False, leaving Part as it was, when Result did not keep them there,
/// names an id it cannot rename, has other op names, or an id would pass
/// the IR's limit. O(V log V).
bool takeRenamedResult(const Graph &Result, const PartIds &ResultIds,
                       Graph &Part, const PartIds &Ids);

/// The schedule of takeRenamedResult alone, for a caller that reads only
/// the order of a pass's result: Part's order becomes Result's, when the
/// pass kept exactly the nodes of its input at their indices (it only
/// reordered them); Part's nodes stay as they are. False, leaving Part as
/// it was, otherwise. O(V).
bool takeRenamedOrder(const Graph &Result, const PartIds &ResultIds,
                      Graph &Part, const PartIds &Ids);

} // namespace dan

#endif // DAN_IR_COMPONENTS_H
