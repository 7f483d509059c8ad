//===- DLRVictims.cpp - which buffers make room ---------------------------===//
//
// DLR's victim choice: the next use of a buffer, the paper's cost score and
// the other --evict rules, the contiguous window of --victims=window, and the
// release horizon (docs/DLR.md).
//
//===----------------------------------------------------------------------===//

#include "Repacker.h"

using namespace llvm;

namespace dan {
namespace dlr {

uint32_t Repacker::nextUse(Buffer &B) {
  // Eq. 26. Positions only grow, so the cursor only moves forward: every
  // query together costs O(uses).
  while (B.Cursor < B.Uses.size() && B.Uses[B.Cursor] < Pos)
    ++B.Cursor;
  return B.Cursor < B.Uses.size() ? B.Uses[B.Cursor] : None;
}

double Repacker::penalty(Buffer &V, Tier Tr) {
  // The inverse of each rule's preference, so that a range's victims add
  // up: the cost rule's 1 / score (eq. 31), Belady's 1 / distance to the
  // next use (a buffer without one is nearly free to evict), LRU's
  // 1 / time since the last use.
  EvictPolicy Rule = T.isL0(Tr) ? EvictPolicy::Belady : Opts.Evict;
  uint32_t Next = nextUse(V);
  switch (Rule) {
  case EvictPolicy::Belady:
    return Next == None ? 1e-9 : 1.0 / double(Next - Pos);
  case EvictPolicy::LRU:
    return 1.0 / double(Pos - V.LastUse + 1);
  case EvictPolicy::Cost: {
    uint64_t Distance = (Next != None ? Next : V.FreePos) - Pos;
    return 1.0 / spillScore(std::max<uint64_t>(Distance, 1), V.Traffic,
                            V.Cycles, Opts);
  }
  case EvictPolicy::CostPerByte:
  case EvictPolicy::Traffic: {
    // The traffic term first (per byte or in bytes); the distance to the
    // reload only breaks near-ties: 1 / distance is at most 1, below one
    // byte of traffic (and below the 1-or-2 of traffic per byte).
    uint64_t Distance = (Next != None ? Next : V.FreePos) - Pos;
    double Cost = Rule == EvictPolicy::Traffic
                      ? double(V.Traffic)
                      : double(V.Traffic) / double(V.Size);
    return Cost + 1.0 / double(std::max<uint64_t>(Distance, 1));
  }
  }
  return 0;
}

SmallVector<unsigned, 4> Repacker::pickWindow(Tier Tr, uint64_t Size) {
  // The resident buffers of the tier by offset. A window [O, O + Size) that
  // starts inside free bytes can slide left to the end of the previous
  // buffer (or 0) without taking a new victim, and one that starts inside a
  // victim can slide to the victim's start; so the starts worth trying are
  // 0 and every resident buffer's start and end.
  struct Held {
    uint64_t Begin, End;
    unsigned BI;
    bool Pinned;
    double Penalty;
  };
  SmallVector<Held, 16> Here;
  for (unsigned VI : Resident[tierIndex(Tr)]) {
    Buffer &V = Bufs[VI];
    Here.push_back({V.Offset, V.Offset + V.Span, VI, isPinned(V),
                    isPinned(V) ? 0.0 : penalty(V, Tr)});
  }
  llvm::sort(Here,
             [](const Held &A, const Held &B) { return A.Begin < B.Begin; });
  SmallVector<uint64_t, 32> Starts = {0};
  for (const Held &H : Here) {
    Starts.push_back(H.Begin);
    Starts.push_back(H.End);
  }
  // Sorted already when the held ranges are disjoint, as they are in a
  // legal plan (llvm::sort of plain integers is qsort: checking is cheaper).
  if (!std::is_sorted(Starts.begin(), Starts.end()))
    std::sort(Starts.begin(), Starts.end());
  Starts.erase(std::unique(Starts.begin(), Starts.end()), Starts.end());

  uint64_t Cap = T.capacity(Tr);
  bool Found = false;
  double BestPenalty = 0;
  uint64_t BestBytes = 0, BestStart = 0;
  for (uint64_t O : Starts) {
    if (O > Cap || Size > Cap - O)
      break;
    // The held ranges overlapping [O, O + Size): they are disjoint and
    // sorted, so they form one run.
    auto It =
        llvm::partition_point(Here, [&](const Held &H) { return H.End <= O; });
    double Penalty = 0;
    uint64_t Bytes = 0;
    bool Feasible = true;
    for (; It != Here.end() && It->Begin < O + Size; ++It) {
      if (It->Pinned) {
        Feasible = false;
        break;
      }
      Penalty += It->Penalty;
      Bytes += It->End - It->Begin;
    }
    if (!Feasible)
      continue;
    // Least penalty, then fewest bytes evicted, then the lowest offset.
    if (!Found || Penalty < BestPenalty ||
        (Penalty == BestPenalty && Bytes < BestBytes)) {
      Found = true;
      BestPenalty = Penalty;
      BestBytes = Bytes;
      BestStart = O;
    }
  }
  SmallVector<unsigned, 4> Victims;
  if (!Found)
    return Victims;
  for (const Held &H : Here)
    if (H.Begin < BestStart + Size && H.End > BestStart)
      Victims.push_back(H.BI);
  return Victims;
}

unsigned Repacker::pickBeyondHorizon(Tier Tr) {
  // The release horizon: of the buffers not needed for Opts.Horizon
  // positions, the least recently used. Its release (the SPILL_OUT the
  // reload's reuse edge waits for) follows its last use, which lies
  // furthest in the past. Ties: the smaller buffer id.
  unsigned Best = None;
  for (unsigned VI : Resident[tierIndex(Tr)]) {
    Buffer &V = Bufs[VI];
    if (isPinned(V))
      continue;
    uint32_t Next = nextUse(V);
    if (Next != None && Next - Pos < Opts.Horizon)
      continue;
    const Buffer *W = Best == None ? nullptr : &Bufs[Best];
    if (!W || V.LastUse < W->LastUse ||
        (V.LastUse == W->LastUse && V.Id < W->Id))
      Best = VI;
  }
  return Best;
}

unsigned Repacker::pickVictim(Tier Tr) {
  // Eq. 25: resident buffers of the same tier that the current node does
  // not use. Every rule breaks ties by the smaller buffer id, so the result
  // does not depend on the order of the resident list.
  EvictPolicy Rule = T.isL0(Tr) ? EvictPolicy::Belady : Opts.Evict;
  unsigned Best = None;
  // Belady / eager flush: (has a next use, -next use), smallest first.
  bool BestLive = false;
  uint32_t BestNext = 0;
  double BestScore = 0;
  // CostPerByte, Traffic: the reload position of the best so far.
  uint32_t BestReload = 0;
  for (unsigned VI : Resident[tierIndex(Tr)]) {
    Buffer &V = Bufs[VI];
    if (isPinned(V))
      continue;
    bool Better = false;
    switch (Rule) {
    case EvictPolicy::Belady: {
      uint32_t Next = nextUse(V);
      bool Live = Next != None;
      if (Best == None || (BestLive && !Live))
        Better = true;
      else if (Live == BestLive && (!Live || Next == BestNext))
        Better = V.Id < Bufs[Best].Id;
      else if (Live == BestLive)
        Better = Next > BestNext;
      if (Better) {
        BestLive = Live;
        BestNext = Next;
      }
      break;
    }
    case EvictPolicy::LRU: {
      const Buffer *W = Best == None ? nullptr : &Bufs[Best];
      Better = !W || V.LastUse < W->LastUse ||
               (V.LastUse == W->LastUse && V.Id < W->Id);
      break;
    }
    case EvictPolicy::Cost: {
      // Eq. 27 with the contest's pairing: without a further use, the
      // reload still happens, right before the FREE.
      uint32_t Next = nextUse(V);
      uint64_t Distance = (Next != None ? Next : V.FreePos) - Pos;
      double Score = spillScore(Distance, V.Traffic, V.Cycles, Opts);
      Better = Best == None || Score > BestScore ||
               (Score == BestScore && V.Id < Bufs[Best].Id);
      if (Better)
        BestScore = Score;
      break;
    }
    case EvictPolicy::CostPerByte:
    case EvictPolicy::Traffic: {
      // The least traffic (per byte: compare T_v * S_w with T_w * S_v
      // exactly), then the farthest reload (next use, else the FREE), then
      // the smaller id.
      uint32_t Next = nextUse(V);
      uint32_t Reload = Next != None ? Next : V.FreePos;
      if (Best == None) {
        Better = true;
      } else {
        const Buffer &W = Bufs[Best];
        unsigned __int128 CV = V.Traffic, CW = W.Traffic;
        if (Rule == EvictPolicy::CostPerByte) {
          CV *= W.Size;
          CW *= V.Size;
        }
        Better =
            CV < CW || (CV == CW && (Reload > BestReload ||
                                     (Reload == BestReload && V.Id < W.Id)));
      }
      if (Better)
        BestReload = Reload;
      break;
    }
    }
    if (Better)
      Best = VI;
  }
  return Best;
}

} // namespace dlr

} // namespace dan
