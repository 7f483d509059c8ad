//===- DLRFit.cpp - where a placement goes --------------------------------===//
//
// DLR's fit: a placement's segment in its tier's free list (best, first or
// next fit), or, under --fit=timed, the room whose bytes were released early
// enough in the plan's estimated timeline (docs/DLR.md).
//
//===----------------------------------------------------------------------===//

#include "Repacker.h"

using namespace llvm;

namespace dan {
namespace dlr {

uint64_t Repacker::predsDone(const Node &N) const {
  // Nodes not scheduled yet still read 0.
  uint64_t Done = 0;
  for (NodeIdx P : N.Preds)
    Done = std::max(Done, Finish[P]);
  return Done;
}

uint64_t Repacker::allocBase(NodeIdx Alloc, const Buffer &B) const {
  // The ALLOC itself takes no time; what the placement must not delay is
  // its first user, which waits at least for its pipe and its predecessors
  // scheduled so far.
  uint64_t Base = predsDone(G[Alloc]);
  if (!B.Uses.empty()) {
    const Node &User = G[InOrder[B.Uses.front()]];
    Base = std::max(
        {Base, PipeFree[static_cast<unsigned>(User.OpPipe)], predsDone(User)});
  }
  return Base;
}

void Repacker::timeOp(NodeIdx I, ArrayRef<unsigned> Operands) {
  const Node &N = G[I];
  uint64_t &PipeDone = PipeFree[static_cast<unsigned>(N.OpPipe)];
  uint64_t Start = std::max(PipeDone, predsDone(N));
  for (unsigned BI : Operands)
    Start = std::max(Start, Bufs[BI].ReadyAt);
  Finish[I] = PipeDone = Start + N.Cycles;
  for (unsigned BI : Operands)
    Bufs[BI].UsersDone = std::max(Bufs[BI].UsersDone, Finish[I]);
}

std::optional<uint64_t> Repacker::findTimed(const Buffer &B,
                                            uint64_t Base) const {
  // Every free segment that fits, at its two ends and at each boundary of
  // its release ranges (the window with the earliest latest release starts
  // or ends at one of them). Least start, then best fit: the smallest
  // segment, then the lowest offset.
  unsigned TI = tierIndex(B.BufTier);
  const ReleaseTimes &R = Released[TI];
  uint64_t Size = B.Span;
  std::optional<uint64_t> Best;
  uint64_t BestStart = 0, BestSeg = 0;
  for (auto [Begin, End] : Free[TI].segments()) {
    uint64_t Seg = End - Begin;
    if (Seg < Size)
      continue;
    auto Try = [&](uint64_t Off) {
      uint64_t Start = std::max(Base, latestRelease(R, Off, Off + Size));
      if (!Best ||
          std::tie(Start, Seg, Off) < std::tie(BestStart, BestSeg, *Best)) {
        Best = Off;
        BestStart = Start;
        BestSeg = Seg;
      }
    };
    Try(Begin);
    Try(End - Size);
    // Every release range boundary strictly inside the segment.
    auto TryAround = [&](uint64_t X) {
      if (X <= End - Size)
        Try(X);
      if (X >= Begin + Size)
        Try(X - Size);
    };
    R.forEachOverlap(Begin, End, [&](uint64_t From, uint64_t To, uint64_t) {
      if (From > Begin)
        TryAround(From);
      if (To < End)
        TryAround(To);
    });
  }
  return Best;
}

bool Repacker::place(unsigned BI, uint64_t Base) {
  Buffer &B = Bufs[BI];
  if (B.Size == 0) {
    // Takes no bytes and overlaps nothing; offset 0 lies in every tier.
    B.Offset = 0;
    makeResident(BI);
    return true;
  }
  FreeList &F = Free[tierIndex(B.BufTier)];
  for (;;) {
    // Eqs. 23-24: the candidate segments and the chosen one.
    // Refilling an emptied tier (Packing) must place the operands one after
    // another from offset 0; next fit would start at its cursor.
    FitPolicy Fit =
        Packing && Opts.Fit == FitPolicy::Next ? FitPolicy::First : Opts.Fit;
    std::optional<uint64_t> Off =
        Timed && !Packing ? findTimed(B, Base) : F.find(B.Span, Fit);
    if (Off) {
      F.take(*Off, B.Span);
      B.Offset = *Off;
      makeResident(BI);
      return true;
    }
    if (Opts.Horizon) {
      unsigned V = pickBeyondHorizon(B.BufTier);
      if (V != None) {
        spillOut(V);
        continue;
      }
    }
    if (Opts.Victims == VictimSet::Window) {
      // Evict the cheapest contiguous range that makes room at once.
      SmallVector<unsigned, 4> Victims = pickWindow(B.BufTier, B.Span);
      if (Victims.empty())
        return false;
      for (unsigned V : Victims)
        spillOut(V);
      continue;
    }
    // Algorithm 2, lines 5-10: evict until a segment fits.
    unsigned V = pickVictim(B.BufTier);
    if (V == None)
      return false;
    spillOut(V);
  }
}

} // namespace dlr

} // namespace dan
