//===- DLR.cpp - Stage 2: deterministic linear repackaging ----------------===//
//
// One scan over the input schedule (Algorithm 2 of the paper, adapted to the
// contest's spill rules; docs/DLR.md maps every equation to this file):
//
//  * ALLOC b: place b in its tier's free list (best or first fit); when no
//    segment fits, spill victims of the same tier until one does.
//  * operation X: every buffer X uses that is spilled out is brought back
//    (SPILL_IN, placed like an ALLOC) before X; X's buffers are pinned.
//  * FREE b: when b is spilled out, it is brought back first (every spill
//    is a SPILL_OUT/SPILL_IN pair and SPILL_IN -> FREE is an edge), then
//    its segment returns to the free list.
//
// A SPILL_OUT goes right before the node that needed the space, so the k-th
// spill created is the k-th SPILL_OUT of the new schedule and gets ids
// N + 2k and N + 2k + 1. After the scan the spill and reuse edges come from
// lib/IR/MemoryPlan.cpp, the same code the verifier checks them with.
//
//===----------------------------------------------------------------------===//

#include "dan/Transforms/DLR.h"
#include "dan/IR/Diagnostic.h"
#include "dan/IR/MemoryPlan.h"
#include "dan/IR/NodeCosts.h"
#include "dan/IR/RangeMap.h"
#include "dan/Schedule/Order.h"
#include "llvm/ADT/DenseMap.h"
#include "llvm/ADT/STLExtras.h"
#include "llvm/ADT/SmallVector.h"
#include <algorithm>

using namespace llvm;

namespace dan {

namespace {

constexpr uint32_t None = UINT32_MAX;

enum class BufState : uint8_t { Unborn, Resident, Out, Dead };

/// When each byte of one tier was last released (by a FREE or SPILL_OUT)
/// in the estimated timeline of --fit=timed, as the release's finish time.
/// Bytes never released are free from time 0.
using ReleaseTimes = RangeMap<uint64_t>;

/// The latest release of a byte in [Begin, End).
uint64_t latestRelease(const ReleaseTimes &R, uint64_t Begin, uint64_t End) {
  uint64_t Latest = 0;
  R.forEachOverlap(Begin, End, [&](uint64_t, uint64_t, uint64_t Time) {
    Latest = std::max(Latest, Time);
  });
  return Latest;
}

/// What the scan knows about one buffer.
struct Buffer {
  uint64_t Id = 0;
  Tier BufTier = Tier::L1;
  uint64_t Size = 0;
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
  std::array<std::vector<unsigned>, NumTiers> Resident;
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
  std::array<uint64_t, NumPipes> PipeFree{};
  std::vector<ReleaseTimes> Released;
};

} // namespace

static unsigned tierIndex(Tier T) { return static_cast<unsigned>(T); }

//===----------------------------------------------------------------------===//
// The scan
//===----------------------------------------------------------------------===//

void Repacker::collectBuffers() {
  DenseSet<uint64_t> Backed = ddrBackedBuffers(G);
  // One walk: the input verified, so a buffer's ALLOC comes before its uses
  // and its FREE.
  for (uint32_t P = 0, E = G.Order.size(); P != E; ++P) {
    const Node &N = G[G.Order[P]];
    if (N.Kind == NodeKind::Alloc) {
      BufIndex.set(N.Buf, Bufs.size());
      Buffer &B = Bufs.emplace_back();
      B.Id = N.Buf;
      B.BufTier = N.BufTier;
      B.Size = N.Size;
      bool IsBacked = Backed.count(N.Buf);
      B.Backed = IsBacked;
      B.Traffic = TargetDesc::spillTraffic(N.Size, IsBacked);
      B.Cycles = T.spillCycles(N.Size, IsBacked);
    } else if (N.Kind == NodeKind::Free)
      Bufs[bufferOf(N.Buf)].FreePos = P;
    else if (N.Kind == NodeKind::Op)
      for (uint64_t Id : N.Bufs) {
        std::vector<uint32_t> &Uses = Bufs[bufferOf(Id)].Uses;
        if (Uses.empty() || Uses.back() != P)
          Uses.push_back(P);
      }
  }
  for (unsigned TI = 0; TI != NumTiers; ++TI)
    Free.emplace_back(T.capacity(static_cast<Tier>(TI)));
  if (Timed) {
    Released.resize(NumTiers);
    Finish.assign(G.size(), 0);
  }
}

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

SmallVector<unsigned, 4> Repacker::operands(const Node &N) const {
  SmallVector<unsigned, 4> Out;
  for (uint64_t Id : N.Bufs) {
    unsigned B = bufferOf(Id);
    if (!is_contained(Out, B))
      Out.push_back(B);
  }
  return Out;
}

uint32_t Repacker::nextUse(Buffer &B) {
  // Eq. 26. Positions only grow, so the cursor only moves forward: every
  // query together costs O(uses).
  while (B.Cursor < B.Uses.size() && B.Uses[B.Cursor] < Pos)
    ++B.Cursor;
  return B.Cursor < B.Uses.size() ? B.Uses[B.Cursor] : None;
}

void Repacker::makeResident(unsigned BI) {
  Buffer &B = Bufs[BI];
  B.State = BufState::Resident;
  B.LastUse = Pos;
  if (B.Size == 0)
    return;
  auto &List = Resident[tierIndex(B.BufTier)];
  B.Slot = List.size();
  List.push_back(BI);
}

/// Removes a buffer from its tier's resident list in O(1); the order of the
/// list carries no meaning (victims are chosen by key, ties by buffer id).
static void removeResident(std::vector<unsigned> &List,
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

std::optional<uint64_t> Repacker::findTimed(const Buffer &B,
                                            uint64_t Base) const {
  // Every free segment that fits, at its two ends and at each boundary of
  // its release ranges (the window with the earliest latest release starts
  // or ends at one of them). Least start, then best fit: the smallest
  // segment, then the lowest offset.
  unsigned TI = tierIndex(B.BufTier);
  const ReleaseTimes &R = Released[TI];
  uint64_t Size = B.Size;
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
        Timed && !Packing ? findTimed(B, Base) : F.find(B.Size, Fit);
    if (Off) {
      F.take(*Off, B.Size);
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
      SmallVector<unsigned, 4> Victims = pickWindow(B.BufTier, B.Size);
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
    Here.push_back({V.Offset, V.Offset + V.Size, VI, isPinned(V),
                    isPinned(V) ? 0.0 : penalty(V, Tr)});
  }
  llvm::sort(Here,
             [](const Held &A, const Held &B) { return A.Begin < B.Begin; });
  SmallVector<uint64_t, 32> Starts = {0};
  for (const Held &H : Here) {
    Starts.push_back(H.Begin);
    Starts.push_back(H.End);
  }
  llvm::sort(Starts);
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

bool Repacker::reload(unsigned BI) {
  uint64_t &InPipeDone = PipeFree[static_cast<unsigned>(T.spillInPipe())];
  if (!place(BI, std::max(Bufs[BI].OutDone, InPipeDone)))
    return false;
  Buffer &B = Bufs[BI];
  Node &In = G[B.PendingIn];
  In.HasOffset = true;
  In.Offset = B.Offset;
  NewOrder.push_back(B.PendingIn);
  if (Timed) {
    uint64_t Start = std::max({InPipeDone, B.OutDone,
                               latestRelease(Released[tierIndex(B.BufTier)],
                                             B.Offset, B.Offset + B.Size)});
    Finish[B.PendingIn] = InPipeDone = Start + T.spillInCycles(B.Size);
    B.ReadyAt = Finish[B.PendingIn];
    B.UsersDone = std::max(B.UsersDone, B.ReadyAt);
  }
  B.PendingIn = None;
  return true;
}

void Repacker::spillOut(unsigned BI) {
  Buffer &B = Bufs[BI];
  Node Out, In;
  Out.Kind = NodeKind::SpillOut;
  In.Kind = NodeKind::SpillIn;
  Out.Buf = In.Buf = B.Id;
  Out.Id = NextSpillId;
  In.Id = NextSpillId + 1;
  NextSpillId += 2;
  NodeIdx OutIdx = G.Nodes.size();
  G.Nodes.push_back(std::move(Out));
  B.PendingIn = G.Nodes.size();
  G.Nodes.push_back(std::move(In));
  NewOrder.push_back(OutIdx);

  unsigned TI = tierIndex(B.BufTier);
  if (Timed) {
    Finish.resize(G.size(), 0);
    uint64_t &OutPipeDone = PipeFree[static_cast<unsigned>(T.spillOutPipe())];
    uint64_t Start = std::max(OutPipeDone, B.UsersDone);
    Finish[OutIdx] = OutPipeDone = Start + T.spillOutCycles(B.Size, B.Backed);
    B.OutDone = Finish[OutIdx];
    B.UsersDone = std::max(B.UsersDone, B.OutDone);
    Released[TI].assign(B.Offset, B.Offset + B.Size, B.OutDone);
  }
  Free[TI].release(B.Offset, B.Size);
  removeResident(Resident[TI], Bufs, BI);
  B.State = BufState::Out;
  ++Stats.Spills;
  ++Stats.Evictions[TI];
  Stats.ExtraTraffic += B.Traffic;
  Stats.SpillCycles += B.Cycles;
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

Error Repacker::reloadOperands(ArrayRef<unsigned> Operands) {
  std::array<bool, NumTiers> Flushed{};
  for (;;) {
    bool Done = true;
    for (unsigned BI : Operands) {
      if (Bufs[BI].State != BufState::Out || reload(BI))
        continue;
      // Only pinned buffers are left in the tier and they split its free
      // bytes so that none of the gaps fits. Spill them too and bring every
      // operand back from an empty tier: placed one after another they are
      // contiguous, and checkInput made sure that their sizes add up to at
      // most the capacity.
      unsigned TI = tierIndex(Bufs[BI].BufTier);
      if (Flushed[TI])
        return createStringError("internal error: dan-dlr could not place b" +
                                 Twine(Bufs[BI].Id) +
                                 " even in an otherwise empty tier");
      Flushed[TI] = true;
      SmallVector<unsigned, 4> Pinned(Resident[TI].begin(), Resident[TI].end());
      llvm::sort(Pinned, [&](unsigned A, unsigned B) {
        return Bufs[A].Id < Bufs[B].Id;
      });
      for (unsigned P : Pinned) {
        spillOut(P);
        ++Stats.PinnedSpills;
      }
      Packing = true;
      Done = false;
      break;
    }
    if (Done) {
      Packing = false;
      return Error::success();
    }
  }
}

Error Repacker::scan() {
  InOrder = G.Order;
  NewOrder.reserve(InOrder.size() + InOrder.size() / 8);
  for (Pos = 0; Pos != InOrder.size(); ++Pos) {
    NodeIdx I = InOrder[Pos];
    // G.Nodes grows as spills are made: look nodes up by index each time.
    ++Stamp;
    switch (G[I].Kind) {
    case NodeKind::Alloc: {
      unsigned BI = bufferOf(G[I].Buf);
      Bufs[BI].PinStamp = Stamp;
      // Alone in an emptied tier it fits: checkInput checked its size.
      if (!place(BI, Timed ? allocBase(I, Bufs[BI]) : 0))
        return createStringError("internal error: dan-dlr could not place " +
                                 describeNode(G, I));
      Buffer &B = Bufs[BI];
      G[I].HasOffset = true;
      G[I].Offset = B.Offset;
      NewOrder.push_back(I);
      if (Timed) {
        Finish[I] = std::max(predsDone(G[I]),
                             latestRelease(Released[tierIndex(B.BufTier)],
                                           B.Offset, B.Offset + B.Size));
        B.ReadyAt = B.UsersDone = Finish[I];
      }
      break;
    }
    case NodeKind::Op: {
      SmallVector<unsigned, 4> Operands = operands(G[I]);
      for (unsigned BI : Operands)
        Bufs[BI].PinStamp = Stamp;
      if (Error E = reloadOperands(Operands))
        return E;
      NewOrder.push_back(I);
      for (unsigned BI : Operands)
        Bufs[BI].LastUse = Pos;
      if (Timed)
        timeOp(I, Operands);
      break;
    }
    case NodeKind::Free: {
      unsigned BI = bufferOf(G[I].Buf);
      Buffer &B = Bufs[BI];
      B.PinStamp = Stamp;
      if (B.State == BufState::Out) {
        // The contest pairs every SPILL_OUT with a SPILL_IN and orders the
        // SPILL_IN before the FREE, so a buffer evicted after its last use
        // still comes back once, here.
        if (!reload(BI))
          return createStringError("internal error: dan-dlr could not reload " +
                                   describeNode(G, I));
        ++Stats.ReloadsBeforeFree;
      }
      NewOrder.push_back(I);
      Buffer &R = Bufs[BI];
      unsigned TI = tierIndex(R.BufTier);
      if (Timed) {
        Finish[I] = std::max({predsDone(G[I]), R.ReadyAt, R.UsersDone});
        Released[TI].assign(R.Offset, R.Offset + R.Size, Finish[I]);
      }
      Free[TI].release(R.Offset, R.Size);
      removeResident(Resident[TI], Bufs, BI);
      R.State = BufState::Dead;
      break;
    }
    case NodeKind::SpillOut:
    case NodeKind::SpillIn:
      llvm_unreachable("checkInput rejects a graph with a memory plan");
    }
  }
  G.Order = std::move(NewOrder);
  return Error::success();
}

Error Repacker::run(bool Checked) {
  if (!Checked)
    if (Error E = checkPlannableInput(G, T))
      return E;
  NextSpillId = G.firstSpillId();
  Timed = Opts.Fit == FitPolicy::Timed;
  collectBuffers();
  if (Error E = scan())
    return E;
  // The IR holds ids up to 2^40; a plan whose spill ids pass it could not
  // be read back.
  if (NextSpillId > MaxValue + 1)
    return createStringError("the spill nodes need ids up to n" +
                             Twine(NextSpillId - 1) +
                             ", above the IR's limit of 2^40; renumber the "
                             "graph's nodes from 0");
  // Algorithm 2, line 16: the edges the plan implies.
  addSpillEdges(G);
  setReuseEdges(G);
  return Error::success();
}

static const EnumEntry<FitPolicy> Fits[] = {
    {FitPolicy::Auto, "auto",
     "plan with timed, best and next fit (each under every --horizon tried) "
     "and keep the least makespan + beta * extra traffic, then the least "
     "traffic, then the lowest makespan"},
    {FitPolicy::Best, "best",
     "the smallest segment that fits, ties to the lowest offset"},
    {FitPolicy::First, "first", "the lowest offset that fits"},
    {FitPolicy::Next, "next",
     "the first room at or after the end of the last placement in the tier, "
     "wrapping around"},
    {FitPolicy::Timed, "timed",
     "the room whose bytes were released early enough that the placement "
     "can start soonest in the plan's estimated timeline; ties to best fit "
     "(default)"},
};

static const EnumEntry<EvictPolicy> Evicts[] = {
    {EvictPolicy::Cost, "cost",
     "largest reuse distance per spill cost (default)"},
    {EvictPolicy::LRU, "lru", "least recently used"},
    {EvictPolicy::Belady, "belady",
     "no further use first, then the farthest next use"},
};

static const EnumEntry<VictimSet> VictimSets[] = {
    {VictimSet::Window, "window",
     "the contiguous range whose victims cost least in total under the "
     "--evict rule (default)"},
    {VictimSet::Single, "single",
     "the best buffer under the --evict rule, again until a segment fits "
     "(the paper's Algorithm 2)"},
};

ArrayRef<EnumEntry<FitPolicy>> fitPolicyTable() { return Fits; }
ArrayRef<EnumEntry<EvictPolicy>> evictPolicyTable() { return Evicts; }
ArrayRef<EnumEntry<VictimSet>> victimSetTable() { return VictimSets; }
StringRef fitName(FitPolicy F) { return enumName(fitPolicyTable(), F); }

Expected<DLRStats> runDLR(Graph &G, const TargetDesc &T, const DLROptions &Opts,
                          bool InputChecked) {
  if (Opts.Fit == FitPolicy::Auto || Opts.AutoHorizon)
    return createStringError(inconvertibleErrorCode(),
                             "internal error: runDLR plans under one fit and "
                             "horizon; the search layer resolves 'auto'");
  Repacker R(G, T, Opts);
  if (Error E = R.run(InputChecked))
    return E;
  DLRStats S = R.stats();
  S.Horizon = Opts.Horizon;
  S.Fit = Opts.Fit;
  return S;
}

} // namespace dan
