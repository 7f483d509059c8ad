//===- Placement.h - Allocate late, free early around a fixed order -------===//
//
// The final placement step of stage 1 (docs/MPAS.md, "The placement
// step"): given a legal order, every ALLOC (and the COPY_IN that fills its
// buffer from DDR) moves to right before the first node that needs it and
// every FREE to right after its last predecessor, while every other node
// keeps its place relative to the others. Live ranges only shrink, so the
// peak of every tier can only fall and the L0 rules stay met. (With the
// drains below, an L0 buffer may live longer, within the one-buffer rule.)
//
//===----------------------------------------------------------------------===//

#ifndef DAN_SCHEDULE_PLACEMENT_H
#define DAN_SCHEDULE_PLACEMENT_H

#include "dan/IR/Graph.h"
#include "dan/Target/Target.h"
#include "llvm/ADT/ArrayRef.h"
#include <vector>

namespace dan {

/// \p Order (a legal schedule of \p G: every node once, after its input
/// edges and the implicit ALLOC -> users -> FREE edges) with the buffer
/// nodes placed around the other nodes:
///
/// - the anchors (every operation but a movable COPY_IN, and every node of
///   another kind: a spill, the ALLOC and FREE of a buffer allocated or
///   freed twice, an ALLOC or COPY_IN only FREEs follow) keep their
///   relative order;
/// - an ALLOC, and a COPY_IN (an operation that loads from DDR), that some
///   node other than a FREE follows is emitted lazily: right before the
///   first node that needs it, its own unplaced predecessors first (depth
///   first, in edge order);
/// - a FREE is emitted right after its last predecessor, and no later than
///   its place in \p Order (pulled there, with the lazy nodes it waits
///   for, if it is not out yet), so no buffer lives longer.
///
/// With \p DrainL0 (the target; for an order that keeps one live buffer per
/// L0 tier), a drain is lazy too: an operation that is the last use of its
/// one L0 buffer and writes only tiers that count in the peak (FIXP's COPY
/// of a matmul's result from L0C to UB). It runs right before its first
/// consumer or before the next ALLOC of that L0 tier, whichever comes
/// first, so that the result waits in L0, which the peak does not count; an
/// edge from each L0 FREE to the next ALLOC of its tier in \p Order keeps
/// the one-buffer rule.
///
/// Every predecessor of a node pulled in before an anchor is an ancestor of
/// that anchor, so the result keeps every edge. O(V + E), deterministic.
std::vector<NodeIdx> placeLate(const Graph &G, llvm::ArrayRef<NodeIdx> Order,
                               const TargetDesc *DrainL0 = nullptr);

} // namespace dan

#endif // DAN_SCHEDULE_PLACEMENT_H
