//===- L0Gate.cpp - The L0 rule over operations, and L0 legalization ------===//

#include "dan/Schedule/L0Gate.h"
#include "llvm/ADT/DenseMap.h"
#include <set>

using namespace llvm;

namespace dan {
namespace sched {

L0Gate::L0Gate(const View &V) : V(V) {
  std::vector<std::vector<uint32_t>> Users(V.Bufs.size());
  for (uint32_t O = 0; O != V.Ops.size(); ++O)
    for (uint32_t B : V.OpBufs[O])
      if (V.IsL0[V.Bufs[B].TI])
        Users[B].push_back(O); // ops are in input order
  GroupOf.assign(V.Bufs.size(), None);
  DenseMap<uint32_t, uint32_t> GroupOfConsumer;
  for (uint32_t B = 0; B != V.Bufs.size(); ++B) {
    if (Users[B].empty())
      continue;
    uint32_t C = Users[B].back();
    for (uint32_t O : Users[B])
      if (llvm::any_of(V.OpBufs[O], [&](uint32_t X) {
            return X != B && V.IsL0[V.Bufs[X].TI];
          })) {
        C = O;
        break;
      }
    auto [It, New] = GroupOfConsumer.try_emplace(C, Groups.size());
    if (New) {
      Groups.emplace_back();
      Groups.back().Consumer = C;
    }
    GroupOf[B] = It->second;
    Grp &Gp = Groups[It->second];
    Gp.Bufs.push_back(B);
    for (uint32_t O : Users[B])
      if (O < C && !is_contained(Gp.Writers, O))
        Gp.Writers.push_back(O);
  }
}

bool L0Gate::openable(Grp &Gp, ArrayRef<uint8_t> Done) const {
  auto Inside = [&](uint32_t P) {
    return P == Gp.Consumer || is_contained(Gp.Writers, P);
  };
  auto Waits = [&](uint32_t O) {
    for (uint32_t P : V.OpPreds[O])
      if (!Done[P] && !Inside(P)) {
        Gp.WaitOn = P;
        return true;
      }
    return false;
  };
  if (Waits(Gp.Consumer) || llvm::any_of(Gp.Writers, Waits))
    return false;
  Gp.WaitOn = None;
  return true;
}

bool L0Gate::knownRefused(const MemState &S, ArrayRef<uint8_t> Done,
                          uint32_t O) const {
  for (uint32_t B : V.OpBufs[O])
    if (starts(S, B) && !Groups[GroupOf[B]].Open &&
        blocked(Groups[GroupOf[B]], Done))
      return true;
  return false;
}

bool L0Gate::admit(const MemState &S, ArrayRef<uint8_t> Done, uint32_t O) {
  if (knownRefused(S, Done, O))
    return false;
  SmallVector<uint32_t, 2> ToOpen;
  TierBytes Need{};
  for (uint32_t B : V.OpBufs[O]) {
    if (!starts(S, B))
      continue;
    uint32_t Gi = GroupOf[B];
    if (Groups[Gi].Open || is_contained(ToOpen, Gi))
      continue;
    if (!openable(Groups[Gi], Done))
      return false;
    ToOpen.push_back(Gi);
    for (uint32_t X : Groups[Gi].Bufs)
      if (starts(S, X))
        Need[V.Bufs[X].TI] += V.Bufs[X].Size;
  }
  for (unsigned TI = 0; TI != NumTiers; ++TI) {
    uint64_t Held = S.Live[TI] + Reserved[TI];
    if (Need[TI] && Held && Held + Need[TI] > V.Cap[TI]) {
      // Live and reserved bytes only grow until some run releases L0
      // bytes: until then this group cannot open alone either.
      if (ToOpen.size() == 1)
        Groups[ToOpen[0]].NoRoomAt = Released + 1;
      return false;
    }
  }
  for (uint32_t Gi : ToOpen)
    Groups[Gi].Open = true;
  for (unsigned TI = 0; TI != NumTiers; ++TI)
    Reserved[TI] += Need[TI];
  return true;
}

void L0Gate::willRun(const MemState &S, uint32_t O) {
  bool Releases = false;
  for (uint32_t B : V.OpBufs[O]) {
    if (starts(S, B) && Groups[GroupOf[B]].Open)
      Reserved[V.Bufs[B].TI] -= V.Bufs[B].Size;
    if (V.IsL0[V.Bufs[B].TI] && S.Left[B] == 1)
      Releases = true;
  }
  Released += Releases;
}
std::vector<uint32_t> legalizeL0(const View &V, std::vector<uint32_t> Pref) {
  if (V.evaluate(Pref).first.L0Over == 0)
    return Pref;
  size_t N = V.Ops.size();
  std::vector<uint32_t> Pos(N);
  for (uint32_t I = 0; I != Pref.size(); ++I)
    Pos[Pref[I]] = I;
  std::vector<uint32_t> Left(N), Order;
  std::vector<uint8_t> Done(N, 0);
  std::set<std::pair<uint32_t, uint32_t>> Ready;
  for (uint32_t O = 0; O != N; ++O)
    if (!(Left[O] = V.OpPreds[O].size()))
      Ready.insert({Pos[O], O});
  MemState S = V.initial();
  L0Gate Gate(V);
  while (!Ready.empty()) {
    auto It = llvm::find_if(
        Ready, [&](const auto &R) { return Gate.admit(S, Done, R.second); });
    if (It == Ready.end())
      It = Ready.begin();
    uint32_t O = It->second;
    Ready.erase(It);
    Order.push_back(O);
    Done[O] = 1;
    Gate.willRun(S, O);
    V.apply(S, O);
    for (uint32_t Su : V.OpSuccs[O])
      if (--Left[Su] == 0)
        Ready.insert({Pos[Su], Su});
  }
  return Order;
}

} // namespace sched
} // namespace dan
