//===- L0Gate.h - The L0 rule and list scheduling over operations ---------===//
//
// dan-mpas's per-consumer L0 reservation in op space (docs/MPAS.md, "L0
// awareness"), and the list scheduler and L0 legalization that the
// baselines and dan-mpas's --order=window and --order=groups build on.
//
//===----------------------------------------------------------------------===//

#ifndef DAN_SCHEDULE_L0GATE_H
#define DAN_SCHEDULE_L0GATE_H

#include "dan/Schedule/OpView.h"
#include "llvm/ADT/STLExtras.h"
#include <algorithm>
#include <functional>

namespace dan {
namespace sched {

using llvm::ArrayRef;
using llvm::SmallVector;
using llvm::SmallVectorImpl;

/// An operation that starts an L0 buffer (its first user) may run only once
/// the buffer's group is open. The consumer of an L0 buffer is its first
/// user (in input order) that also uses another L0 buffer, else its last
/// user; a group is the set of L0 buffers with one consumer, its writers
/// the other users of those buffers that come before the consumer. A group
/// opens when its consumer and writers wait on nothing but each other and
/// its unstarted bytes fit next to what is live and reserved in each L0
/// tier (or the tier is empty: a group larger than its tier still runs and
/// DLR spills). This is docs/MPAS.md's "L0 awareness" in op space.
class L0Gate {
public:
  explicit L0Gate(const View &V);
  /// Whether op \p O may run in \p S; opens the groups it needs if they
  /// can open.
  bool admit(const MemState &S, ArrayRef<uint8_t> Done, uint32_t O) {
    return admitOrWhy(S, Done, O).Admitted;
  }
  /// Why admit() refused an operation. Until one of these changes, it
  /// refuses it again: with \p WaitGroup set, that group waits on
  /// waitOn(WaitGroup), which has not run; else there was no room, which
  /// only comes with a run that releases L0 bytes (releases() grows). In
  /// both cases an operation on a buffer of one of \p Groups (the groups
  /// the refused operation would have to open) changes what it needs:
  /// one that runs without admission and starts such a group's buffer
  /// also ends the group's verdict of no room (willRun).
  struct Verdict {
    bool Admitted = false;
    uint32_t WaitGroup = None;
    SmallVector<uint32_t, 2> Groups;
    /// Refused for room: a tier that lacks it, and the most held() there
    /// may be before the operation can be admitted (a release that leaves
    /// more held there changes nothing for it).
    unsigned RoomTier = 0;
    uint64_t RoomLimit = 0;
  };
  Verdict admitOrWhy(const MemState &S, ArrayRef<uint8_t> Done, uint32_t O);
  uint32_t waitOn(uint32_t Group) const { return Groups[Group].WaitOn; }
  /// The group of an L0 buffer (None for other buffers).
  uint32_t groupOf(uint32_t B) const { return GroupOf[B]; }
  size_t numGroups() const { return Groups.size(); }
  /// How many runs released L0 bytes so far.
  uint64_t releases() const { return Released; }
  /// What tier \p TI holds in \p S, live and reserved, as the room check
  /// counts it: bytes, or buffers with View::SingleL0.
  uint64_t held(const MemState &S, unsigned TI) const {
    return V.SingleL0 ? LiveCount[TI] + ReservedCount[TI]
                      : S.Live[TI] + Reserved[TI];
  }
  /// Whether admit() is known to refuse \p O (a cheap test: a group it
  /// needs still waits on the operation that blocked it last time, or did
  /// not fit and no L0 bytes were released since).
  bool knownRefused(const MemState &S, ArrayRef<uint8_t> Done,
                    uint32_t O) const;
  /// Call right before op \p O runs in \p S.
  void willRun(const MemState &S, uint32_t O);

private:
  struct Grp {
    uint32_t Consumer = 0;
    SmallVector<uint32_t, 4> Bufs;
    SmallVector<uint32_t, 4> Writers;
    bool Open = false;
    /// Refused until this operation has run (None: no such operation).
    uint32_t WaitOn = None;
    /// Refused for lack of room while Released equals this plus one, in
    /// tier NoRoomTier, until held() there is at most NoRoomLimit.
    uint64_t NoRoomAt = 0;
    unsigned NoRoomTier = 0;
    uint64_t NoRoomLimit = 0;
  };
  /// The groups whose buffers op \p O would start and that are not open.
  SmallVector<uint32_t, 2> groupsToOpen(const MemState &S, uint32_t O) const;
  bool openable(Grp &Gp, ArrayRef<uint8_t> Done) const;
  bool blocked(const Grp &Gp, ArrayRef<uint8_t> Done) const {
    return (Gp.WaitOn != None && !Done[Gp.WaitOn]) ||
           Gp.NoRoomAt == Released + 1;
  }
  bool starts(const MemState &S, uint32_t B) const {
    return V.IsL0[V.Bufs[B].TI] && S.Left[B] == V.Bufs[B].Users;
  }

  const View &V;
  std::vector<uint32_t> GroupOf; // per buffer
  std::vector<Grp> Groups;
  TierBytes Reserved{};
  /// With View::SingleL0: live and reserved L0 buffers per tier.
  TierBytes LiveCount{}, ReservedCount{};
  /// Counts the runs that released L0 bytes.
  uint64_t Released = 0;
};

using ListKey = std::tuple<uint64_t, uint64_t, uint64_t, int64_t, uint64_t>;

/// A list scheduler over the op-level graph: among the ready operations the
/// L0 gate admits, the one with the least key; when the gate admits none,
/// the least key anyway. \p KeyOf(S, O, Stamp) gets the stamp at which O
/// became ready: a successor of the operation just run gets a higher stamp
/// than anything older, its first successor the highest.
template <typename KeyFn>
std::vector<uint32_t> listSchedule(const View &V, KeyFn KeyOf) {
  size_t N = V.Ops.size();
  std::vector<uint32_t> Order;
  Order.reserve(N);
  std::vector<uint32_t> Left(N);
  std::vector<uint64_t> Stamp(N, 0);
  std::vector<uint8_t> Done(N, 0);
  uint64_t Clock = 0;
  std::vector<uint32_t> Ready;
  for (uint32_t O = N; O-- != 0;) {
    Left[O] = V.OpPreds[O].size();
    if (!Left[O]) {
      Stamp[O] = ++Clock;
      Ready.push_back(O);
    }
  }
  MemState S = V.initial();
  L0Gate Gate(V);
  std::vector<std::pair<ListKey, uint32_t>> Keys;
  while (!Ready.empty()) {
    // Those the gate is known to refuse are left out of the search; when
    // it admits none, the least key of all runs anyway.
    Keys.clear();
    for (uint32_t K = 0; K != Ready.size(); ++K)
      if (!Gate.knownRefused(S, Done, Ready[K]))
        Keys.push_back({KeyOf(S, Ready[K], Stamp[Ready[K]]), K});
    size_t Pick = None;
    if (!Keys.empty()) {
      size_t Tried = llvm::min_element(Keys)->second;
      if (Gate.admit(S, Done, Ready[Tried])) {
        Pick = Tried;
      } else {
        // The others in key order (a heap: usually only a few are tried).
        std::make_heap(Keys.begin(), Keys.end(), std::greater<>());
        for (auto End = Keys.end(); End != Keys.begin(); --End) {
          std::pop_heap(Keys.begin(), End, std::greater<>());
          uint32_t K = (End - 1)->second;
          if (K != Tried && Gate.admit(S, Done, Ready[K])) {
            Pick = K;
            break;
          }
        }
      }
    }
    if (Pick == None) {
      Keys.clear();
      for (uint32_t K = 0; K != Ready.size(); ++K)
        Keys.push_back({KeyOf(S, Ready[K], Stamp[Ready[K]]), K});
      Pick = llvm::min_element(Keys)->second;
    }
    uint32_t O = Ready[Pick];
    Ready[Pick] = Ready.back();
    Ready.pop_back();
    Order.push_back(O);
    Done[O] = 1;
    Gate.willRun(S, O);
    V.apply(S, O);
    const std::vector<uint32_t> &Su = V.OpSuccs[O];
    for (size_t J = Su.size(); J-- != 0;)
      if (--Left[Su[J]] == 0) {
        Stamp[Su[J]] = ++Clock;
        Ready.push_back(Su[J]);
      }
  }
  return Order;
}

/// \p Pref re-listed through the L0 gate with its own positions as the
/// keys (the ready operations kept sorted by position), when it overflows
/// an L0 tier; else \p Pref itself.
std::vector<uint32_t> legalizeL0(const View &V, std::vector<uint32_t> Pref);

} // namespace sched
} // namespace dan

#endif // DAN_SCHEDULE_L0GATE_H
