//===- OpView.h - A graph as the operation-level orderings see it ---------===//
//
// The shared machinery of the orderings that work on operations (the four
// baselines, and dan-mpas's --order=window and --order=groups): an
// operation's predecessors are the nearest operations above it through
// buffer nodes, with the implicit edges ALLOC(b) -> user of b -> FREE(b)
// added, so that any order of the operations that respects them becomes a
// legal schedule once each ALLOC is pulled in right before the first node
// that needs it and each FREE is emitted as soon as it is ready
// (materialize). The memory model follows from that: a buffer is live from
// its first user to its last one. The L0 tiers enter as the first term of a
// step's score (bytes beyond an L0 tier's capacity), so an order that
// overflows an L0 tier loses against any that does not.
//
//===----------------------------------------------------------------------===//

#ifndef DAN_SCHEDULE_OPVIEW_H
#define DAN_SCHEDULE_OPVIEW_H

#include "dan/IR/Graph.h"
#include "dan/Target/Target.h"
#include "llvm/ADT/ArrayRef.h"
#include "llvm/ADT/SmallVector.h"
#include <array>
#include <cstdint>
#include <tuple>
#include <vector>

namespace dan {
namespace sched {

using llvm::ArrayRef;
using llvm::SmallVector;
using llvm::SmallVectorImpl;

/// No operation, buffer or group.
constexpr uint32_t None = UINT32_MAX;

using TierBytes = std::array<uint64_t, MaxTiers>;

/// The score of one step (an operation with its new buffers placed and its
/// dead ones not yet released): bytes beyond the L0 tiers' capacities
/// first, then live L1+UB bytes (the tiers that count in peak). A schedule
/// scores its worst step.
struct Score {
  uint64_t L0Over = 0;
  uint64_t Upper = 0;
  bool operator<(const Score &O) const {
    return std::tie(L0Over, Upper) < std::tie(O.L0Over, O.Upper);
  }
  bool operator==(const Score &O) const {
    return L0Over == O.L0Over && Upper == O.Upper;
  }
  bool operator<=(const Score &O) const { return !(O < *this); }
};

inline Score maxScore(Score A, Score B) { return A < B ? B : A; }

/// Buffers still waiting for users, and live bytes per tier.
struct MemState {
  std::vector<uint32_t> Left;
  TierBytes Live{};
};

/// The input graph as the orderings see it.
struct View {
  View(const Graph &G, const TargetDesc &T);

  const Graph &G;
  const TargetDesc &T;
  /// Input and implicit buffer edges of every node, by NodeIdx.
  std::vector<SmallVector<NodeIdx, 4>> Preds, Succs;
  std::vector<uint32_t> InPos;
  /// Operations in input order, and the op index of every node (or None).
  std::vector<NodeIdx> Ops;
  std::vector<uint32_t> OpOf;
  /// Op-level edges (sorted, no duplicates).
  std::vector<std::vector<uint32_t>> OpPreds, OpSuccs;
  /// The distinct buffers (indices into Bufs) of every operation.
  std::vector<SmallVector<uint32_t, 3>> OpBufs;
  struct Buf {
    uint64_t Size = 0;
    unsigned TI = 0;
    uint32_t Users = 0;
  };
  std::vector<Buf> Bufs;
  TierBytes Cap{};
  /// The L0 gate's rule: at most one live buffer per L0 tier (stage 1's
  /// --l0=single) instead of live bytes within capacity.
  bool SingleL0 = false;
  /// No L0 rule at all (stage 1's --l0=ignore): legalizeL0 keeps the
  /// preferred order.
  bool IgnoreL0 = false;
  std::array<bool, MaxTiers> IsL0{}, InPeak{};

  MemState initial() const {
    MemState S;
    S.Left.reserve(Bufs.size());
    for (const Buf &B : Bufs)
      S.Left.push_back(B.Users);
    return S;
  }
  Score score(const TierBytes &Live) const {
    Score S;
    for (unsigned TI = 0; TI != T.numTiers(); ++TI) {
      if (IsL0[TI] && Live[TI] > Cap[TI])
        S.L0Over += Live[TI] - Cap[TI];
      if (InPeak[TI])
        S.Upper += Live[TI];
    }
    return S;
  }
  /// Live bytes while op \p O runs in \p S (its new buffers placed).
  TierBytes transient(const MemState &S, uint32_t O) const {
    TierBytes Tr = S.Live;
    for (uint32_t B : OpBufs[O])
      if (S.Left[B] == Bufs[B].Users)
        Tr[Bufs[B].TI] += Bufs[B].Size;
    return Tr;
  }
  /// Bytes op \p O releases in \p S (buffers it is the last user of).
  uint64_t released(const MemState &S, uint32_t O, bool UpperOnly) const {
    uint64_t R = 0;
    for (uint32_t B : OpBufs[O])
      if (S.Left[B] == 1 && (!UpperOnly || InPeak[Bufs[B].TI]))
        R += Bufs[B].Size;
    return R;
  }
  /// Runs op \p O in \p S; returns its step score. \p Undo, when given,
  /// collects what undo() needs.
  Score apply(MemState &S, uint32_t O,
              SmallVectorImpl<uint32_t> *Undo = nullptr) const {
    S.Live = transient(S, O);
    Score Sc = score(S.Live);
    for (uint32_t B : OpBufs[O]) {
      if (Undo)
        Undo->push_back(B);
      if (--S.Left[B] == 0)
        S.Live[Bufs[B].TI] -= Bufs[B].Size;
    }
    return Sc;
  }
  void undo(MemState &S, ArrayRef<uint32_t> Undo, const TierBytes &Live) const {
    for (uint32_t B : Undo)
      ++S.Left[B];
    S.Live = Live;
  }
  /// The worst step of \p Order from the initial state, and the position
  /// (in \p Order) where it first occurs.
  std::pair<Score, size_t> evaluate(ArrayRef<uint32_t> Order) const {
    MemState S = initial();
    Score Worst;
    size_t At = 0;
    for (size_t I = 0; I != Order.size(); ++I) {
      Score Sc = apply(S, Order[I]);
      if (Worst < Sc) {
        Worst = Sc;
        At = I;
      }
    }
    return {Worst, At};
  }
};

/// The schedule of \p OpOrder (a topological order of the op-level graph):
/// every node an operation needs and that is not yet emitted is pulled in
/// right before it (depth first, so the result is legal), and a FREE goes
/// out as soon as its predecessors have. What is left at the end follows
/// in input order.
std::vector<NodeIdx> materialize(const View &V,
                                 llvm::ArrayRef<uint32_t> OpOrder);

/// Reverse post-order of a depth-first search of the op-level graph, with
/// roots and successors taken so that ties follow the input order.
std::vector<uint32_t> reversePostOrder(const View &V);

/// Orders \p Units (each a list of operations run back to back) from memory
/// state \p S0 so that the worst step is as low as possible: a DP over the
/// frontiers (the sets of units already run), exact for that objective
/// because the memory state after a set of units does not depend on their
/// order. \p PredMask[j] lists the units j must follow. At most 2^|Units|
/// states; the caller keeps |Units| within its caps (at most 16). Returns
/// the unit order; the given order (0, 1, ...) is kept unless another is
/// strictly better.
std::vector<unsigned> subsetDP(const View &V, const MemState &S0,
                               llvm::ArrayRef<std::vector<uint32_t>> Units,
                               llvm::ArrayRef<uint32_t> PredMask);

} // namespace sched
} // namespace dan

#endif // DAN_SCHEDULE_OPVIEW_H
