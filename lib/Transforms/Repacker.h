//===- Repacker.h - DLR's scan state, shared by its parts -------*- C++ -*-===//
//
// Private to lib/Transforms: the Repacker, stage 2's one scan, whose work is
// split by the decision each part makes: the scan itself (DLR.cpp), where a
// placement goes (DLRFit.cpp) and which buffers make room (DLRVictims.cpp).
//
//===----------------------------------------------------------------------===//

#ifndef DAN_LIB_TRANSFORMS_REPACKER_H
#define DAN_LIB_TRANSFORMS_REPACKER_H

#include "dan/IR/Diagnostic.h"
#include "dan/IR/MemoryPlan.h"
#include "dan/IR/NodeCosts.h"
#include "dan/IR/RangeMap.h"
#include "dan/Schedule/Order.h"
#include "dan/Transforms/DLR.h"
#include "llvm/ADT/DenseMap.h"
#include "llvm/ADT/STLExtras.h"
#include "llvm/ADT/SmallVector.h"
#include <algorithm>

namespace dan {

namespace dlr {

using namespace llvm;

constexpr uint32_t None = UINT32_MAX;

enum class BufState : uint8_t { Unborn, Resident, Out, Dead };

/// When each byte of one tier was last released (by a FREE or SPILL_OUT)
/// in the estimated timeline of --fit=timed, as the release's finish time.
/// Bytes never released are free from time 0.
using ReleaseTimes = RangeMap<uint64_t>;

/// The latest release of a byte in [Begin, End).
inline uint64_t latestRelease(const ReleaseTimes &R, uint64_t Begin,
                              uint64_t End) {
  uint64_t Latest = 0;
  R.forEachOverlap(Begin, End, [&](uint64_t, uint64_t, uint64_t Time) {
    Latest = std::max(Latest, Time);
  });
  return Latest;
}

/// What the scan knows about one buffer.
struct Buffer {
  uint64_t Id = 0;
  Tier BufTier{};
  uint64_t Size = 0;
  /// The bytes it takes in its tier: its size rounded up to the tier's
  /// alignment. A tier's capacity is a multiple of its alignment, so
  /// placing and releasing spans only keeps every free segment aligned, and
  /// every fit lands on an aligned offset.
  uint64_t Span = 0;
  /// T(b,k) and S(b,k) of one spill: they do not depend on k.
  uint64_t Traffic = 0;
  uint64_t Cycles = 0;
  /// Input positions of the operations using the buffer, ascending, and the
  /// first of them not yet passed (the next-use cursor of eq. 26).
  std::vector<uint32_t> Uses;
  uint32_t Cursor = 0;
  /// Input position of the buffer's FREE.
  uint32_t FreePos = None;
  /// Input position of the last ALLOC, use or SPILL_IN (for LRU).
  uint32_t LastUse = 0;
  BufState State = BufState::Unborn;
  uint64_t Offset = 0;
  /// Index in its tier's resident list, while resident with a positive size.
  uint32_t Slot = None;
  /// Equal to the scan's stamp while the current node uses the buffer.
  uint32_t PinStamp = 0;
  /// The SPILL_IN of the buffer's open spill, while spilled out.
  NodeIdx PendingIn = None;
  /// Estimated timeline (--fit=timed): when the data is ready (the finish
  /// of the ALLOC or of the last SPILL_IN), the latest finish of a node
  /// using it, and the finish of the open spill's SPILL_OUT.
  uint64_t ReadyAt = 0;
  uint64_t UsersDone = 0;
  uint64_t OutDone = 0;
  bool Backed = false;
};

class Repacker {
public:
  Repacker(Graph &G, const TargetDesc &T, const DLROptions &Opts)
      : G(G), T(T), Opts(Opts), BufIndex(G.size()) {}

  /// \p Checked: checkInput() already passed on this graph (the plans of a
  /// selection share one input).
  Error run(bool Checked = false);
  const DLRStats &stats() const { return Stats; }

private:
  void collectBuffers();
  Error scan();

  bool place(unsigned B, uint64_t Base);
  std::optional<uint64_t> findTimed(const Buffer &B, uint64_t Base) const;
  uint64_t predsDone(const Node &N) const;
  uint64_t allocBase(NodeIdx Alloc, const Buffer &B) const;
  void timeOp(NodeIdx I, ArrayRef<unsigned> Operands);
  bool reload(unsigned B);
  Error reloadOperands(ArrayRef<unsigned> Operands);
  void makeResident(unsigned B);
  void spillOut(unsigned B);
  unsigned pickVictim(Tier Tr);
  unsigned pickBeyondHorizon(Tier Tr);
  uint32_t nextUse(Buffer &B);
  double penalty(Buffer &V, Tier Tr);
  SmallVector<unsigned, 4> pickWindow(Tier Tr, uint64_t Size);
  bool isPinned(const Buffer &B) const { return B.PinStamp == Stamp; }
  unsigned bufferOf(uint64_t Id) const { return BufIndex.lookup(Id); }
  /// The distinct buffers an operation uses, in list order.
  SmallVector<unsigned, 4> operands(const Node &N) const;

  Graph &G;
  const TargetDesc &T;
  const DLROptions &Opts;
  DLRStats Stats;

  std::vector<Buffer> Bufs;
  /// Buffer id -> index in Bufs.
  IdIndex BufIndex;
  std::vector<FreeList> Free;
  std::array<std::vector<unsigned>, MaxTiers> Resident;
  std::vector<NodeIdx> NewOrder;
  uint64_t NextSpillId = 0;
  /// The input position being processed.
  uint32_t Pos = 0;
  uint32_t Stamp = 0;
  std::vector<NodeIdx> InOrder;

  /// The estimated timeline of the plan so far, kept only under
  /// --fit=timed: the ASAP finish of every node scheduled so far in the
  /// safe reading (docs/LangRef.md), each pipe's last finish, and each
  /// tier's release times.
  bool Timed = false;
  /// Set while an operation's buffers are brought back into an emptied
  /// tier: they must pack from offset 0, so timed fit gives way to best fit.
  bool Packing = false;
  std::vector<uint64_t> Finish;
  std::array<uint64_t, MaxPipes> PipeFree{};
  std::vector<ReleaseTimes> Released;
};

inline unsigned tierIndex(Tier T) { return static_cast<unsigned>(T); }

/// Removes a buffer from its tier's resident list in O(1); the order of the
/// list carries no meaning (victims are chosen by key, ties by buffer id).
inline void removeResident(std::vector<unsigned> &List,
                           std::vector<Buffer> &Bufs, unsigned BI) {
  uint32_t Slot = Bufs[BI].Slot;
  if (Slot == None)
    return;
  unsigned Last = List.back();
  List[Slot] = Last;
  Bufs[Last].Slot = Slot;
  List.pop_back();
  Bufs[BI].Slot = None;
}

} // namespace dlr

} // namespace dan

#endif // DAN_LIB_TRANSFORMS_REPACKER_H
