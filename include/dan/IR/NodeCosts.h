//===- NodeCosts.h - A graph's nodes under the execution model --*- C++ -*-===//
//
// The target (dan/Target/Target.h) states the execution model's rules on
// plain facts: an operation's name, a node's kind, a buffer's size. These
// functions find those facts in a graph and ask the target; they hold no
// rule of their own.
//
//===----------------------------------------------------------------------===//

#ifndef DAN_IR_NODECOSTS_H
#define DAN_IR_NODECOSTS_H

#include "dan/IR/Graph.h"
#include "llvm/ADT/DenseSet.h"
#include <optional>

namespace dan {

/// Calls \p Fn with each buffer of each operation that loads from DDR
/// (TargetDesc::loadsFromDDR of the graph's target; a buffer once per such
/// operation using it): such a buffer's data still lives in DDR, so
/// spilling it writes nothing back ("clean" spills).
template <typename FnT> void forEachDDRBackedBuffer(const Graph &G, FnT Fn) {
  for (const Node &N : G.Nodes)
    if (N.Kind == NodeKind::Op && G.Target.loadsFromDDR(G.opName(N)))
      for (uint64_t B : N.Bufs)
        Fn(B);
}

/// The DDR-backed buffers of \p G (forEachDDRBackedBuffer).
llvm::DenseSet<uint64_t> ddrBackedBuffers(const Graph &G);

/// What a spill node's cycles depend on: the size of its buffer, from the
/// buffer's first ALLOC in schedule order (0 without one), and whether the
/// buffer is DDR-backed.
struct BufferCost {
  uint64_t Size = 0;
  bool Backed = false;
  /// The buffer's tier, whose spill path its spill nodes take.
  Tier BufTier{};
};
using BufferCosts = IdTable<BufferCost>;

/// The BufferCost of every buffer that has an ALLOC or is DDR-backed.
BufferCosts bufferCosts(const Graph &G);

/// The cycles of \p N (TargetDesc::nodeCycles) with its buffer's cost
/// \p Cost (null: size 0, not DDR-backed).
inline uint64_t nodeCycles(const Node &N, const TargetDesc &T,
                           const BufferCost *Cost) {
  return T.nodeCycles(N.Kind, N.Cycles, Cost ? Cost->BufTier : Tier{},
                      Cost ? Cost->Size : 0, Cost && Cost->Backed);
}

/// The cycles node \p I takes: its own for an operation, the target's
/// transfer cost for a spill node (0 for a SPILL_OUT of a DDR-backed
/// buffer), 0 for ALLOC and FREE. A buffer missing from \p Costs has size 0
/// and is not DDR-backed. A transfer cost above 2^64 - 1 saturates instead
/// of wrapping.
uint64_t nodeCycles(const Graph &G, NodeIdx I, const TargetDesc &T,
                    const BufferCosts &Costs);

/// The pipe a node occupies (TargetDesc::nodePipe), a spill node by its
/// buffer's cost \p Cost (null: the first tier's path), or std::nullopt
/// for ALLOC and FREE.
inline std::optional<Pipe> nodePipe(const Node &N, const TargetDesc &T,
                                    const BufferCost *Cost) {
  return T.nodePipe(N.Kind, N.OpPipe, Cost ? Cost->BufTier : Tier{});
}

/// The pipe node \p I occupies, its buffer's cost looked up in \p Costs.
std::optional<Pipe> nodePipe(const Graph &G, NodeIdx I, const TargetDesc &T,
                             const BufferCosts &Costs);

} // namespace dan

#endif // DAN_IR_NODECOSTS_H
