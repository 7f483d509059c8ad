//===- MPASDemand.cpp - which ALLOC runs when only ALLOCs are ready -------===//
//
// MPAS's demand-driven alloc choice (--allocs=demand, docs/MPAS.md): the
// operations whose missing predecessors are ready ALLOCs, kept scored, and
// the one whose allocs run next.
//
//===----------------------------------------------------------------------===//

#include "MPASScheduler.h"

using namespace llvm;

namespace dan {

void MPASGraphInfo::buildDemandCounts(const Graph &G, const TargetDesc &T) {
  DemandSlot.assign(V, None);
  NeedBegin.assign(1, 0);
  // (At most an operation a slot: growing the list copied it, in fresh
  // memory.)
  size_t Ops = llvm::count_if(
      G.Nodes, [](const Node &N) { return N.Kind == NodeKind::Op; });
  DemandStart.reserve(Ops);
  NeedBegin.reserve(Ops + 1);
  for (NodeIdx I = 0; I != V; ++I) {
    if (G[I].Kind != NodeKind::Op)
      continue;
    DemandCounts C;
    for (NodeIdx P : Preds[I]) {
      if (G[P].Kind == NodeKind::Alloc && Preds[P].empty()) {
        NeedAllocs.push_back(P);
        ++C.NeedLeft;
        // Every needed ALLOC is ready from the start unless the L0 rule
        // holds it back (Scheduler::admit counts it down).
        C.HeldLeft += GroupAlloc[P];
        C.Cost += Delta[P];
        if (T.countsInPeak(G[P].BufTier))
          C.Add[static_cast<unsigned>(G[P].BufTier)] += int64_t(G[P].Size);
      } else {
        ++C.HardLeft;
      }
    }
    if (!C.NeedLeft)
      continue;
    DemandSlot[I] = DemandStart.size();
    DemandStart.push_back(C);
    NeedBegin.push_back(NeedAllocs.size());
  }
  // A FREE with one predecessor becomes ready when that one runs.
  for (NodeIdx F = 0; F != V; ++F)
    if (G[F].Kind == NodeKind::Free && InDeg[F] == 1 && Delta[F])
      if (uint32_t S = DemandSlot[Preds[F].front()]; S != None)
        DemandStart[S].FreeGain += Delta[F];
}

namespace mpas {

void Scheduler::startDemand() {
  Counts = Info.DemandStart;
  // Without an L0 rule nothing is held back.
  if (!Gating)
    for (DemandCounts &C : Counts)
      C.HeldLeft = 0;
  for (NodeIdx I = 0; I != V; ++I)
    if (const DemandCounts *C = countsOf(I))
      listDemand(I, *C);
}

std::pair<int64_t, Scheduler::AddBytes>
Scheduler::demandBucket(NodeIdx Op, const DemandCounts &C) const {
  return {Rank ? int64_t((*Rank)[Op]) : 0,
          Opts.Objective == MPASObjective::Overflow ? C.Add : AddBytes{}};
}

void Scheduler::unlistDemand(NodeIdx Op, const DemandCounts &C) {
  if (!demandListed(C))
    return;
  auto It = Demand.find(demandBucket(Op, C));
  It->second.erase({C.Cost + C.FreeGain, C.Cost, KeyPos[Op], Op});
  if (It->second.empty())
    Demand.erase(It);
}

void Scheduler::listDemand(NodeIdx Op, const DemandCounts &C) {
  if (demandListed(C))
    Demand[demandBucket(Op, C)].insert(
        {C.Cost + C.FreeGain, C.Cost, KeyPos[Op], Op});
}

void Scheduler::admit(NodeIdx A) {
  // A needed ALLOC the L0 rule held back is ready now.
  if (Opts.Allocs != AllocChoice::Demand || !Preds[A].empty())
    return;
  for (uint32_t S = SuccBegin[A]; S != SuccBegin[A + 1]; ++S) {
    NodeIdx Op = Succs[S];
    if (G[Op].Kind != NodeKind::Op)
      continue;
    // (An operation after a needed ALLOC has a slot.)
    DemandCounts &C = *countsOf(Op);
    unlistDemand(Op, C);
    --C.HeldLeft;
    listDemand(Op, C);
  }
}

NodeIdx Scheduler::demandAlloc() {
  // Keep feeding the operation chosen last time while it still needs allocs.
  auto NextNeeded = [&](NodeIdx Op) -> NodeIdx {
    for (NodeIdx A : Info.needAllocs(DemandSlot[Op]))
      if (!Done[A] && IsReady[A])
        return A;
    return None;
  };
  if (Committed != None && !Done[Committed] && countsOf(Committed)->NeedLeft) {
    NodeIdx A = NextNeeded(Committed);
    if (A != None)
      return A;
  }
  Committed = None;
  if (Demand.empty())
    return None;
  // The score of a candidate, compared left to right: its task rank (in a
  // reuse-grid order), the bytes its allocs would push beyond their tiers'
  // capacities (with the overflow objective: what stage 2 would have to
  // spill), the net change of live L1+UB bytes (the bytes of its missing
  // allocs minus those of the FREEs it makes ready), the bytes allocated
  // (the paper's smallest delta), then its key and index. Only candidates
  // whose missing allocs are all ready are listed. The overflow term
  // depends on the live bytes, so it is computed here, once per bucket of
  // the lowest rank; each bucket's first entry is its best.
  bool ByOverflow = Opts.Objective == MPASObjective::Overflow;
  int64_t FirstRank = Demand.begin()->first.first;
  std::optional<std::pair<int64_t, DemandEntry>> Best;
  for (auto It = Demand.begin();
       It != Demand.end() && It->first.first == FirstRank; ++It) {
    const AddBytes &Bytes = It->first.second;
    int64_t Over = 0;
    if (ByOverflow)
      for (unsigned TI = 0; TI != T.numTiers(); ++TI) {
        Tier Tr = static_cast<Tier>(TI);
        if (!Bytes[TI] || !T.countsInPeak(Tr))
          continue;
        int64_t Cap = T.capacity(Tr), Live = TierLive[TI];
        Over += std::max<int64_t>(0, Live + Bytes[TI] - Cap) -
                std::max<int64_t>(0, Live - Cap);
      }
    std::pair<int64_t, DemandEntry> Score = {Over, *It->second.begin()};
    if (!Best || Score < *Best)
      Best = Score;
  }
  Committed = std::get<3>(Best->second);
  return NextNeeded(Committed);
}

} // namespace mpas

} // namespace dan
