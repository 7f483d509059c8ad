//===- HMCOS.h - The HMCOS baseline's state, shared by its parts ----------===//
//
// Private to lib/Baselines: HMCOS (docs/Baselines.md) split by the decision
// each part makes: the hierarchy of sequences and groups and the exact DP of
// each group (HMCOSGroups.cpp), the bounded DP over the top-level frontiers
// (HMCOSBeam.cpp), and the budget iteration that ungroups where the peak is
// (HMCOS.cpp).
//
//===----------------------------------------------------------------------===//

#ifndef DAN_LIB_BASELINES_HMCOS_H
#define DAN_LIB_BASELINES_HMCOS_H

#include "dan/Baselines/Baselines.h"
#include "dan/Schedule/L0Gate.h"

namespace dan {
namespace sched {

class HMCOS {
public:
  explicit HMCOS(const View &V) : V(V) {}
  std::vector<uint32_t> run();

private:
  // The hierarchy (HMCOSGroups.cpp): sequences, groups, each group's DP.
  void buildSequences();
  void buildGroups();
  void solveGroup(uint32_t Gr);
  std::vector<uint32_t> unitOps(uint32_t U) const;
  // The top level (HMCOSBeam.cpp): a bounded DP over its frontiers.
  /// The top-level units: their operations, their least reverse post-order
  /// rank, their successors and number of predecessors among the units, and
  /// a Zobrist key each (a frontier's hash is the xor of its units' keys).
  struct TopUnits {
    std::vector<std::vector<uint32_t>> UOps, USuccs;
    std::vector<uint32_t> URank, NumPreds;
    std::vector<uint64_t> Key;
  };
  TopUnits topUnits() const;
  bool beam(Score Budget, std::vector<uint32_t> &Out);

  const View &V;
  /// Nothing run yet: the context of the group DPs.
  MemState Init;
  std::vector<uint32_t> Rpo, Rank; // Rank: position of an op in Rpo
  // Sequences: chains of operations.
  std::vector<std::vector<uint32_t>> Seqs;
  std::vector<uint32_t> SeqOf;
  std::vector<std::vector<uint32_t>> SeqPreds, SeqSuccs;
  // Groups: one per cell output (a sequence with two or more
  // predecessors), the sequences it post-dominates, nested groups as
  // members. A unit is a sequence (U < Seqs.size()) or a group
  // (U - Seqs.size()).
  struct Group {
    uint32_t Cell = 0;
    std::vector<uint32_t> Members; // units
    std::vector<uint32_t> Ops;     // the solved order
  };
  std::vector<Group> Groups;
  // The units at the top level, in the order they were formed.
  std::vector<uint32_t> Top;
};

} // namespace sched
} // namespace dan

#endif // DAN_LIB_BASELINES_HMCOS_H
