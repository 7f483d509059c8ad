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

#include "Repacker.h"

using namespace llvm;

namespace dan {
namespace dlr {

//===----------------------------------------------------------------------===//
// The scan
//===----------------------------------------------------------------------===//

void Repacker::collectBuffers() {
  DenseSet<uint64_t> Backed = ddrBackedBuffers(G);
  // A buffer has an ALLOC, a FREE and a use at least: room for all at once.
  Bufs.reserve(G.size() / 3 + 1);
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
      B.Span = alignTo(N.Size, T.alignment(N.BufTier));
      bool IsBacked = Backed.count(N.Buf);
      B.Backed = IsBacked;
      B.Traffic = TargetDesc::spillTraffic(N.Size, IsBacked);
      B.Cycles = T.spillCycles(N.BufTier, N.Size, IsBacked);
    } else if (N.Kind == NodeKind::Free)
      Bufs[bufferOf(N.Buf)].FreePos = P;
    else if (N.Kind == NodeKind::Op)
      for (uint64_t Id : N.Bufs) {
        std::vector<uint32_t> &Uses = Bufs[bufferOf(Id)].Uses;
        if (Uses.empty() || Uses.back() != P)
          Uses.push_back(P);
      }
  }
  for (unsigned TI = 0; TI != T.numTiers(); ++TI)
    Free.emplace_back(T.capacity(static_cast<Tier>(TI)));
  if (Timed) {
    Released.resize(T.numTiers());
    Finish.assign(G.size(), 0);
  }
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

bool Repacker::reload(unsigned BI) {
  uint64_t &InPipeDone = PipeFree[index(T.spillPath(Bufs[BI].BufTier).In)];
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
                                             B.Offset, B.Offset + B.Span)});
    Finish[B.PendingIn] = InPipeDone =
        Start + T.spillInCycles(B.BufTier, B.Size);
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
    uint64_t &OutPipeDone = PipeFree[index(T.spillPath(B.BufTier).Out)];
    uint64_t Start = std::max(OutPipeDone, B.UsersDone);
    Finish[OutIdx] = OutPipeDone =
        Start + T.spillOutCycles(B.BufTier, B.Size, B.Backed);
    B.OutDone = Finish[OutIdx];
    B.UsersDone = std::max(B.UsersDone, B.OutDone);
    Released[TI].assign(B.Offset, B.Offset + B.Span, B.OutDone);
  }
  Free[TI].release(B.Offset, B.Span);
  removeResident(Resident[TI], Bufs, BI);
  B.State = BufState::Out;
  ++Stats.Spills;
  ++Stats.Evictions[TI];
  Stats.ExtraTraffic += B.Traffic;
  Stats.SpillCycles += B.Cycles;
}

Error Repacker::reloadOperands(ArrayRef<unsigned> Operands) {
  std::array<bool, MaxTiers> Flushed{};
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
                                           B.Offset, B.Offset + B.Span));
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
        Released[TI].assign(R.Offset, R.Offset + R.Span, Finish[I]);
      }
      Free[TI].release(R.Offset, R.Span);
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

} // namespace dlr

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
    // The baselines' rules, not offered by --evict (UserEvictPolicies).
    {EvictPolicy::CostPerByte, "cost-per-byte",
     "the least spill traffic per byte freed (the cosma baseline)"},
    {EvictPolicy::Traffic, "traffic",
     "the least spill traffic (the eda baseline)"},
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
  dlr::Repacker R(G, T, Opts);
  if (Error E = R.run(InputChecked))
    return E;
  DLRStats S = R.stats();
  S.Horizon = Opts.Horizon;
  S.Fit = Opts.Fit;
  return S;
}

} // namespace dan
