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
#include <optional>
#include <vector>

namespace dan {

/// The graph of \p Nodes of \p G, in that order as its storage and its
/// schedule, with the same ids, name, target and op names, and the tiles
/// and attributes of its own nodes; edge lists follow the new indices, and
/// edges from nodes left out are dropped (joinParts adds them back).
/// O(part size), whatever the size of G.
std::unique_ptr<Graph> extractPart(const Graph &G,
                                   llvm::ArrayRef<NodeIdx> Nodes);

/// The nodes within \p Depth edges of \p Center (dependence and reuse
/// edges, followed either way), in schedule order: what a picture of a
/// large graph around one node shows. O(V + E).
std::vector<NodeIdx> neighbourhood(const Graph &G, NodeIdx Center,
                                   unsigned Depth);

struct RenamedPart;

/// One part for joinParts, exactly one of: a graph made from a part of the
/// shape and then ordered or planned, or an alike part's result renamed to
/// this part's ids.
struct JoinPart {
  Graph *Planned = nullptr;
  const RenamedPart *Renamed = nullptr;
};

/// The inverse of extractPart after each part was planned on its own:
/// \p Parts come from the parts of \p Shape (in schedule order); the result
/// has Shape's name and target, every part's nodes (with their tiles and
/// attributes) and edges, the edges of Shape between nodes of two parts
/// (the parts may follow one another, as segments of a schedule), the
/// parts' schedules one after another, the spill nodes renumbered for the
/// whole (each part's spills keep their order, the parts' spills follow one
/// another), and the reuse edges the whole plan implies (a part may now
/// wait on the addresses an earlier part releases). Parts must not share a
/// non-spill id; a renamed part's Inputs are nodes of Shape (the graph
/// its PartMap was made on). The nodes, schedules, tiles and attributes of
/// a planned part are moved into the result, which leaves it empty, unless
/// a renamed part of \p Parts reads it: then they are copied, as a renamed
/// part is, so a kernel and its copies are written once each. O(V + E)
/// plus the reuse-edge computation.
std::unique_ptr<Graph> joinParts(llvm::ArrayRef<JoinPart> Parts,
                                 const Graph &Shape);

/// Parts of one graph in place, without cutting them out: each part's
/// nodes (indices into the graph, in part order: a part's storage and
/// schedule as extractPart would make them) and, for every node of the
/// graph, its part and its index there. Parts must not share a node.
class PartMap {
public:
  static constexpr uint32_t None = UINT32_MAX;

  PartMap(const Graph &G, llvm::ArrayRef<std::vector<NodeIdx>> Parts);

  const Graph &graph() const { return G; }
  size_t size() const { return Parts.size(); }
  llvm::ArrayRef<NodeIdx> nodes(size_t K) const { return Parts[K]; }
  /// Node \p I's index in part \p K, or None when it is not in K.
  uint32_t localIndex(size_t K, NodeIdx I) const {
    return PartOf[I] == K ? Local[I] : None;
  }

private:
  const Graph &G;
  llvm::ArrayRef<std::vector<NodeIdx>> Parts;
  std::vector<uint32_t> PartOf, Local;
};

/// The node ids and the buffer ids of a part, each in increasing order. A
/// pass that reads ids only by their order (compares them, numbers new
/// nodes after them) sees an id as its rank here.
struct PartIds {
  std::vector<uint64_t> Nodes;
  std::vector<uint64_t> Buffers;
  /// Node by node in part order, the rank of its id and then of each
  /// buffer id it names (a buffer node's Buf, an operation's Bufs).
  std::vector<uint32_t> Ranks;
};

/// The ids of part \p K of \p Map (its spill nodes' too) and their ranks.
/// O(V log V) in the part's size.
PartIds partIds(const PartMap &Map, size_t K);

/// A hash of part \p K of \p Map, whose ids are \p Ids, that reads its ids
/// by rank: parts alike (partsAlike) hash alike. O(V + E) in the part's
/// size.
uint64_t partShapeHash(const PartMap &Map, size_t K, const PartIds &Ids);

/// Whether part \p B of \p Map is part \p A with its node ids and buffer
/// ids renamed in a way that keeps their order, and the same in all else a
/// pass reads (kinds, op names, pipes, tiers, sizes, cycles, offsets, edges
/// inside the part, schedule); the nodes may differ in source locations,
/// tile and attribute sets. A kernel and its copies, or one kernel in each
/// layer of a model, are alike. O(V + E) in the parts' size.
bool partsAlike(const PartMap &Map, size_t A, const PartIds &IdsA, size_t B,
                const PartIds &IdsB);

/// Part \p K of \p Map, alike the part whose ids were \p ResultIds and
/// from which a pass made \p Result, as Result renamed to part K's ids:
/// what a pass that reads ids only by their order and keeps the nodes of
/// its input at their indices makes of part K cut out (extractPart). It
/// holds the renamed ids; joinParts writes the nodes, the input's with K's
/// ids and their own locations, tiles and attributes (from the graph), the
/// nodes the pass added with ids as far past K's last id as theirs are past
/// the input's, buffer ids by rank. Result and Map's parts must outlive it.
struct RenamedPart {
  const Graph *Result = nullptr;
  /// Part K's nodes in the graph: Result's node I < Inputs.size() is the
  /// input's node Inputs[I].
  llvm::ArrayRef<NodeIdx> Inputs;
  /// Result's node I's id in part K.
  std::vector<uint64_t> NodeIds;
  /// The buffer ids Result's nodes name (a buffer node's Buf, then an
  /// operation's Bufs), node after node, in part K.
  std::vector<uint64_t> BufferIds;
};

/// Part \p K renamed (RenamedPart), or nullopt when Result did not keep
/// the nodes of its input at their indices, names an id it cannot rename,
/// has other op names than the graph, or an id would pass the IR's limit.
/// O(V log V).
std::optional<RenamedPart> renamePart(const Graph &Result,
                                      const PartIds &ResultIds,
                                      const PartMap &Map, size_t K,
                                      const PartIds &Ids);

} // namespace dan

#endif // DAN_IR_COMPONENTS_H
