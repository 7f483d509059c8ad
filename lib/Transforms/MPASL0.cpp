//===- MPASL0.cpp - when an L0 ALLOC may run ------------------------------===//
//
// MPAS's L0 awareness (docs/MPAS.md): the consumers of the L0 buffers and
// their groups, the reservation that opens a consumer when its group fits,
// and the fallback when the ready queue runs dry.
//
//===----------------------------------------------------------------------===//

#include "MPASScheduler.h"
#include "dan/Support/CSR.h"

using namespace llvm;

namespace dan {

void MPASGraphInfo::buildL0Groups(const Graph &G, const TargetDesc &T) {
  GroupAlloc.assign(V, 0);
  auto IsL0Buf = [&](uint64_t B) {
    const BufInfo *Info = Bufs.find(B);
    return Info && Info->Alloc != None && T.isL0(Info->BufTier);
  };
  // The consumer of an L0 buffer: its first user that also uses another L0
  // buffer (a MATMUL for its operands), else its last user; for a buffer no
  // operation uses, its FREE, so that the L0 rule holds its ALLOC back too.
  DenseMap<NodeIdx, uint32_t> GroupOf;
  for (NodeIdx I : G.Order) {
    const Node &N = G[I];
    if (N.Kind != NodeKind::Alloc || !T.isL0(N.BufTier))
      continue;
    const BufInfo &B = *Bufs.find(N.Buf);
    if (B.Users.empty() && B.Free == None)
      continue;
    NodeIdx Cons = B.Users.empty() ? B.Free : B.Users.back();
    for (NodeIdx U : B.Users)
      if (any_of(G[U].Bufs,
                 [&](uint64_t O) { return O != N.Buf && IsL0Buf(O); })) {
        Cons = U;
        break;
      }
    auto [It, New] = GroupOf.try_emplace(Cons, Groups.size());
    if (New)
      Groups.push_back({Cons, {}, {}, {}, 0, 0});
    L0Group &C = Groups[It->second];
    C.Allocs.push_back(I);
    C.Bytes[static_cast<unsigned>(N.BufTier)] += N.Size;
    C.Count[static_cast<unsigned>(N.BufTier)] += 1;
    GroupAlloc[I] = 1;
  }
  // A consumer waits for its predecessors and those of its group's writers
  // (users of a group buffer that come before it), except the group itself.
  std::map<
      std::pair<std::array<uint64_t, MaxTiers>, std::array<uint32_t, MaxTiers>>,
      uint32_t>
      ShapeOf;
  // (waited-for node, group), in group order.
  std::vector<std::pair<NodeIdx, uint32_t>> Waits;
  for (uint32_t CI = 0; CI != Groups.size(); ++CI) {
    L0Group &C = Groups[CI];
    C.Shape =
        ShapeOf.try_emplace({C.Bytes, C.Count}, ShapeOf.size()).first->second;
    SmallVector<NodeIdx, 8> Inside(C.Allocs.begin(), C.Allocs.end());
    Inside.push_back(C.Op);
    SmallVector<NodeIdx, 8> Writers;
    for (NodeIdx A : C.Allocs)
      for (NodeIdx U : Bufs.find(G[A].Buf)->Users)
        if (Ord[U] < Ord[C.Op] && !is_contained(Inside, U)) {
          Inside.push_back(U);
          Writers.push_back(U);
        }
    // An ALLOC without predecessors can be taken at any time, so it never
    // keeps a consumer from opening.
    SmallVector<NodeIdx, 16> Outside;
    auto AddPreds = [&](NodeIdx W) {
      for (NodeIdx P : Preds[W])
        if (!is_contained(Inside, P) && !is_contained(Outside, P) &&
            !(G[P].Kind == NodeKind::Alloc && Preds[P].empty()))
          Outside.push_back(P);
    };
    AddPreds(C.Op);
    for (NodeIdx W : Writers)
      AddPreds(W);
    for (NodeIdx A : C.Allocs)
      AddPreds(A);
    C.External = Outside.size();
    for (NodeIdx P : Outside)
      Waits.push_back({P, CI});
  }
  Shapes = ShapeOf.size();
  CSRBuilder<uint32_t> WaiterLists(V);
  for (const auto &W : Waits)
    WaiterLists.count(W.first);
  WaiterLists.startAdding();
  for (const auto &[P, CI] : Waits)
    WaiterLists.add(P, CI);
  WaiterLists.finish(WaitersBegin, Waiters);
}

namespace mpas {

void Scheduler::startGroups() {
  Gating = Opts.L0 != L0Mode::Ignore;
  Admitted.assign(V, 0);
  if (!Gating)
    return;
  Consumers = Info.Groups;
  External.resize(Consumers.size());
  Opened.assign(Consumers.size(), 0);
  Openable.resize(Info.Shapes);
  for (uint32_t CI = 0; CI != Consumers.size(); ++CI) {
    External[CI] = Consumers[CI].External;
    if (External[CI] == 0)
      addOpenable(CI);
  }
}

bool Scheduler::fits(uint32_t CI) const {
  bool Fits = fitsUnder(CI, Opts.L0);
  if (Opts.L0 == L0Mode::Capacity && !SingleDiffers &&
      fitsUnder(CI, L0Mode::Single) != Fits)
    SingleDiffers = true;
  return Fits;
}

bool Scheduler::fitsUnder(uint32_t CI, L0Mode Mode) const {
  const MPASGraphInfo::L0Group &C = Consumers[CI];
  for (unsigned K = 0; K != T.numTiers(); ++K) {
    if (!C.Count[K])
      continue;
    if (Mode == L0Mode::Single) {
      if (LiveCount[K] + ReservedCount[K] + C.Count[K] > 1)
        return false;
    } else if (LiveBytes[K] + ReservedBytes[K] + C.Bytes[K] >
               T.capacity(static_cast<Tier>(K))) {
      return false;
    }
  }
  return true;
}

void Scheduler::open(uint32_t CI) {
  const MPASGraphInfo::L0Group &C = Consumers[CI];
  Opened[CI] = 1;
  for (unsigned K = 0; K != T.numTiers(); ++K) {
    ReservedBytes[K] += C.Bytes[K];
    ReservedCount[K] += C.Count[K];
  }
  for (NodeIdx A : C.Allocs) {
    Admitted[A] = 1;
    if (IsPending[A]) {
      IsPending[A] = 0;
      addReady(A);
      admit(A);
    }
  }
}

uint32_t Scheduler::firstOpenable() const {
  const std::pair<uint32_t, uint32_t> *Best = nullptr;
  for (const auto &Shape : Openable)
    if (!Shape.empty() && (!Best || *Shape.begin() < *Best))
      Best = &*Shape.begin();
  return Best ? Best->second : None;
}

void Scheduler::tryOpen() {
  // In priority order, every consumer whose group fits now; one that does
  // not fit waits without blocking those behind it.
  if (!ScanAllOpenable) {
    llvm::sort(NewlyOpenable, [&](uint32_t A, uint32_t B) {
      return std::make_pair(KeyPos[Consumers[A].Op], A) <
             std::make_pair(KeyPos[Consumers[B].Op], B);
    });
    for (uint32_t CI : NewlyOpenable)
      if (!Opened[CI] && fits(CI)) {
        Openable[Consumers[CI].Shape].erase({KeyPos[Consumers[CI].Op], CI});
        open(CI);
      }
    NewlyOpenable.clear();
    return;
  }
  ScanAllOpenable = false;
  NewlyOpenable.clear();
  // Opening only adds reservations, so a consumer that does not fit stays
  // so for the rest of the scan, and so do the others of its shape: the
  // scan takes the best first consumer among the shapes that fit until
  // none does, which opens what a walk over every consumer would.
  SmallVector<uint32_t, 8> Fitting;
  for (uint32_t Shape = 0; Shape != Openable.size(); ++Shape)
    if (!Openable[Shape].empty() && fits(Openable[Shape].begin()->second))
      Fitting.push_back(Shape);
  while (!Fitting.empty()) {
    auto Best = llvm::min_element(Fitting, [&](uint32_t A, uint32_t B) {
      return *Openable[A].begin() < *Openable[B].begin();
    });
    uint32_t CI = Openable[*Best].begin()->second;
    Openable[*Best].erase(Openable[*Best].begin());
    open(CI);
    llvm::erase_if(Fitting, [&](uint32_t Shape) {
      return Openable[Shape].empty() || !fits(Openable[Shape].begin()->second);
    });
  }
}

bool Scheduler::fallback() {
  // Nothing may run under the L0 rule: open the best consumer that waits
  // only for room, else admit the best held-back ALLOC on its own.
  ++Stats.Fallbacks;
  if (uint32_t CI = firstOpenable(); CI != None) {
    Openable[Consumers[CI].Shape].erase({KeyPos[Consumers[CI].Op], CI});
    open(CI);
    return true;
  }
  if (uint32_t Place = Pending.first(NodeAt, IsPending); Place != None) {
    NodeIdx A = NodeAt[Place];
    IsPending[A] = 0;
    Admitted[A] = 1;
    addReady(A);
    admit(A);
    return true;
  }
  return false;
}

} // namespace mpas

} // namespace dan
