//===- Races.h - Two buffers on the same bytes at the same time -*- C++ -*-===//
//
// The net under the memory plan: with the times of a replay, no buffer's
// data may be on bytes of its tier while another buffer's data is. The
// verifier runs it on every planned graph; docs/Verifier.md states the rule.
//
//===----------------------------------------------------------------------===//

#ifndef DAN_ANALYSIS_RACES_H
#define DAN_ANALYSIS_RACES_H

#include "dan/Analysis/Replay.h"
#include "dan/IR/Graph.h"
#include <optional>

namespace dan {

/// Two placements of buffers that share bytes of a tier and whose data is
/// there at once: Later's first access starts before Earlier's last one
/// finishes.
struct Race {
  /// The last node to access the earlier placement, and its buffer.
  NodeIdx EarlierNode;
  uint64_t EarlierBuf;
  /// The first node to access the later placement, and its buffer.
  NodeIdx LaterNode;
  uint64_t LaterBuf;
  Tier BufTier;
  /// The bytes the two share, [Begin, End).
  uint64_t Begin, End;
};

/// The first race of \p G's memory plan under the times of \p R, in the
/// order of the later placement's start (ties by tier, then offset), or
/// std::nullopt.
///
/// A placement is a stay of a buffer at its offset: from an alloc or a
/// spill_in with an offset to the buffer's next spill_out or free. Its data
/// is there from the start of its first access to the finish of its last:
/// the operations that use the buffer during the stay, the spill_in that
/// writes it back and the spill_out that reads it out. Nodes of no cycles
/// (alloc, free, a clean spill_out) move no data and are not accesses.
/// Reads and writes are not told apart: the IR does not say which an
/// operation does, and a buffer's bytes are its own while its data is
/// there. O(P log P) for P placements.
std::optional<Race> findRace(const Graph &G, const ReplayResult &R);

} // namespace dan

#endif // DAN_ANALYSIS_RACES_H
