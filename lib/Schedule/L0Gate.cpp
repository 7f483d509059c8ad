//===- L0Gate.cpp - The L0 rule over operations, and L0 legalization ------===//

#include "dan/Schedule/L0Gate.h"
#include "llvm/ADT/DenseMap.h"
#include <cstdint>
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

SmallVector<uint32_t, 2> L0Gate::groupsToOpen(const MemState &S,
                                              uint32_t O) const {
  SmallVector<uint32_t, 2> Out;
  for (uint32_t B : V.OpBufs[O])
    if (starts(S, B) && !Groups[GroupOf[B]].Open &&
        !is_contained(Out, GroupOf[B]))
      Out.push_back(GroupOf[B]);
  return Out;
}

bool L0Gate::knownRefused(const MemState &S, ArrayRef<uint8_t> Done,
                          uint32_t O) const {
  return llvm::any_of(groupsToOpen(S, O),
                      [&](uint32_t Gi) { return blocked(Groups[Gi], Done); });
}

L0Gate::Verdict L0Gate::admitOrWhy(const MemState &S, ArrayRef<uint8_t> Done,
                                   uint32_t O) {
  Verdict V0;
  V0.Groups = groupsToOpen(S, O);
  for (uint32_t Gi : V0.Groups)
    if (blocked(Groups[Gi], Done)) {
      const Grp &Gp = Groups[Gi];
      if (Gp.WaitOn != None && !Done[Gp.WaitOn])
        V0.WaitGroup = Gi;
      // The group alone found no room; O, which needs it, needs as much.
      V0.RoomTier = Gp.NoRoomTier;
      V0.RoomLimit = Gp.NoRoomLimit;
      return V0;
    }
  TierBytes Need{}, NeedCount{};
  for (uint32_t Gi : V0.Groups) {
    if (!openable(Groups[Gi], Done)) {
      V0.WaitGroup = Gi;
      return V0;
    }
    for (uint32_t X : Groups[Gi].Bufs)
      if (starts(S, X)) {
        Need[V.Bufs[X].TI] += V.Bufs[X].Size;
        ++NeedCount[V.Bufs[X].TI];
      }
  }
  for (unsigned TI = 0; TI != V.T.numTiers(); ++TI) {
    // Bytes within capacity, or one buffer (--l0=single); a group larger
    // than that still opens in an empty tier.
    uint64_t Held = held(S, TI);
    uint64_t Adds = V.SingleL0 ? NeedCount[TI] : Need[TI];
    uint64_t Cap = V.SingleL0 ? 1 : V.Cap[TI];
    if (Adds && Held && Held + Adds > Cap) {
      V0.RoomTier = TI;
      V0.RoomLimit = Cap > Adds ? Cap - Adds : 0;
      // Live and reserved bytes only grow until some run releases L0
      // bytes: until then this group cannot open alone either.
      if (V0.Groups.size() == 1) {
        Grp &Gp = Groups[V0.Groups[0]];
        Gp.NoRoomAt = Released + 1;
        Gp.NoRoomTier = TI;
        Gp.NoRoomLimit = V0.RoomLimit;
      }
      return V0;
    }
  }
  for (uint32_t Gi : V0.Groups)
    Groups[Gi].Open = true;
  for (unsigned TI = 0; TI != V.T.numTiers(); ++TI) {
    Reserved[TI] += Need[TI];
    ReservedCount[TI] += NeedCount[TI];
  }
  V0.Admitted = true;
  return V0;
}

void L0Gate::willRun(const MemState &S, uint32_t O) {
  bool Releases = false;
  for (uint32_t B : V.OpBufs[O]) {
    unsigned TI = V.Bufs[B].TI;
    if (starts(S, B)) {
      ++LiveCount[TI];
      Grp &Gp = Groups[GroupOf[B]];
      if (Gp.Open) {
        Reserved[TI] -= V.Bufs[B].Size;
        --ReservedCount[TI];
      } else {
        // Run without the gate (the fallback): the group needs less room
        // than when it found none, so that verdict no longer holds.
        Gp.NoRoomAt = 0;
      }
    }
    if (V.IsL0[TI] && S.Left[B] == 1) {
      Releases = true;
      --LiveCount[TI];
    }
  }
  Released += Releases;
}
namespace {
/// A value per position (-1: none), and the first position from a given
/// one whose value is at least a bound: a tree of maxima, O(log N) a call.
class FirstAtLeast {
public:
  static constexpr size_t NotFound = SIZE_MAX;

  explicit FirstAtLeast(size_t N) {
    while (Leaves < N)
      Leaves *= 2;
    Max.assign(2 * Leaves, -1);
  }

  void set(size_t I, int64_t Value) {
    I += Leaves;
    Max[I] = Value;
    for (I /= 2; I; I /= 2)
      Max[I] = std::max(Max[2 * I], Max[2 * I + 1]);
  }

  size_t find(size_t From, int64_t Bound) const {
    return find(1, 0, Leaves, From, Bound);
  }

private:
  size_t find(size_t Node, size_t Lo, size_t Hi, size_t From,
              int64_t Bound) const {
    if (Hi <= From || Max[Node] < Bound)
      return NotFound;
    if (Hi - Lo == 1)
      return Lo;
    size_t Mid = (Lo + Hi) / 2;
    size_t Left = find(2 * Node, Lo, Mid, From, Bound);
    return Left != NotFound ? Left : find(2 * Node + 1, Mid, Hi, From, Bound);
  }

  size_t Leaves = 1;
  std::vector<int64_t> Max;
};
} // namespace

std::vector<uint32_t> legalizeL0(const View &V, std::vector<uint32_t> Pref) {
  // (Bytes within capacity say nothing of the one-buffer rule.)
  if (V.IgnoreL0 || (!V.SingleL0 && V.evaluate(Pref).first.L0Over == 0))
    return Pref;
  size_t N = V.Ops.size();
  std::vector<uint32_t> Pos(N);
  for (uint32_t I = 0; I != Pref.size(); ++I)
    Pos[Pref[I]] = I;
  std::vector<uint32_t> Left(N), Order;
  Order.reserve(N);
  std::vector<uint8_t> Done(N, 0);
  // Each step runs the first ready operation, by position, that the gate
  // admits (else the first one). An operation the gate refuses is parked
  // out of Active until something it was refused for changes (the
  // Verdict's events), so that each step looks at few refused operations;
  // the result is the same as asking the gate about every ready one.
  using Entry = std::pair<uint32_t, uint32_t>;
  std::set<Entry> Ready, Active;
  std::vector<uint32_t> Parked(N, 0); // the parking's number, 0: active
  uint32_t Parkings = 0;
  L0Gate Gate(V);
  std::vector<std::vector<Entry>> ParkedOnGroup(Gate.numGroups());
  std::vector<SmallVector<uint32_t, 1>> GroupsWaitingFor(N);
  // An operation refused for room in tier T waits in Room[T] at its
  // position, with the most T may hold before it can be admitted; a step
  // asks it again only while T holds no more than that. (Waking every one
  // at each release asked them all again after each release: quadratic
  // when many wait for the room one group frees.)
  std::vector<FirstAtLeast> Room(V.T.numTiers(), FirstAtLeast(0));
  std::vector<uint8_t> RoomUsed(V.T.numTiers(), 0);
  std::vector<uint32_t> RoomTierOf(N, None);
  auto LeaveRoom = [&](uint32_t O) {
    if (RoomTierOf[O] != None) {
      Room[RoomTierOf[O]].set(Pos[O], -1);
      RoomTierOf[O] = None;
    }
  };
  auto Wake = [&](std::vector<Entry> &List) {
    for (auto [O, Parking] : List)
      if (Parked[O] == Parking) {
        Parked[O] = 0;
        LeaveRoom(O);
        Active.insert({Pos[O], O});
      }
    List.clear();
  };
  auto MakeReady = [&](uint32_t O) {
    Ready.insert({Pos[O], O});
    Active.insert({Pos[O], O});
  };
  for (uint32_t O = 0; O != N; ++O)
    if (!(Left[O] = V.OpPreds[O].size()))
      MakeReady(O);
  MemState S = V.initial();
  while (!Ready.empty()) {
    uint32_t Pick = None;
    auto It = Active.begin();
    for (size_t From = 0;;) {
      // The next operation by position: the next active one, or one
      // waiting for room in a tier that now has room for it.
      size_t At = It != Active.end() ? It->first : FirstAtLeast::NotFound;
      bool InRoom = false;
      for (unsigned TI = 0; TI != Room.size(); ++TI) {
        if (!RoomUsed[TI])
          continue;
        size_t R = Room[TI].find(From, int64_t(Gate.held(S, TI)));
        if (R < At) {
          At = R;
          InRoom = true;
        }
      }
      if (At == FirstAtLeast::NotFound)
        break;
      uint32_t O = Pref[At];
      From = At + 1;
      L0Gate::Verdict Why = Gate.admitOrWhy(S, Done, O);
      if (Why.Admitted) {
        Pick = O;
        break;
      }
      if (InRoom)
        LeaveRoom(O);
      else
        It = Active.erase(It);
      Parked[O] = ++Parkings;
      for (uint32_t Gi : Why.Groups)
        ParkedOnGroup[Gi].push_back({O, Parkings});
      if (Why.WaitGroup == None) {
        if (!RoomUsed[Why.RoomTier]) {
          Room[Why.RoomTier] = FirstAtLeast(N);
          RoomUsed[Why.RoomTier] = 1;
        }
        Room[Why.RoomTier].set(At, int64_t(Why.RoomLimit));
        RoomTierOf[O] = Why.RoomTier;
        continue;
      }
      SmallVector<uint32_t, 1> &Waiting =
          GroupsWaitingFor[Gate.waitOn(Why.WaitGroup)];
      if (!is_contained(Waiting, Why.WaitGroup))
        Waiting.push_back(Why.WaitGroup);
    }
    if (Pick == None)
      Pick = Ready.begin()->second;
    Ready.erase({Pos[Pick], Pick});
    Active.erase({Pos[Pick], Pick});
    Parked[Pick] = 0;
    LeaveRoom(Pick);
    Order.push_back(Pick);
    Done[Pick] = 1;
    Gate.willRun(S, Pick);
    V.apply(S, Pick);
    for (uint32_t Gi : GroupsWaitingFor[Pick])
      Wake(ParkedOnGroup[Gi]);
    GroupsWaitingFor[Pick].clear();
    for (uint32_t B : V.OpBufs[Pick])
      if (Gate.groupOf(B) != None)
        Wake(ParkedOnGroup[Gate.groupOf(B)]);
    for (uint32_t Su : V.OpSuccs[Pick])
      if (--Left[Su] == 0)
        MakeReady(Su);
  }
  return Order;
}

} // namespace sched
} // namespace dan
