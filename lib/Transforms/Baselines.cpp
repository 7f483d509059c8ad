//===- Baselines.cpp - HMCOS, COSMA, MAGIS and EDA on the DAN IR ----------===//
//
// Every baseline works on the operations: an operation's predecessors are
// the nearest operations above it through buffer nodes, with the implicit
// edges ALLOC(b) -> user of b -> FREE(b) added, so that any order of the
// operations that respects them becomes a legal schedule once each ALLOC is
// pulled in right before the first node that needs it and each FREE is
// emitted as soon as it is ready (materialize). The memory model of the
// searches follows from that: a buffer is live from its first user to its
// last one. The L0 tiers enter every search as the first term of a step's
// score (bytes beyond an L0 tier's capacity), so an order that overflows an
// L0 tier loses against any that does not; what still overflows is spilled
// by DLR's L0 eager flush. docs/Baselines.md describes each method.
//
//===----------------------------------------------------------------------===//

#include "dan/Transforms/Baselines.h"
#include "dan/Analysis/Verifier.h"
#include "llvm/ADT/STLExtras.h"
#include "llvm/ADT/SmallVector.h"
#include <algorithm>
#include <array>
#include <functional>
#include <set>
#include <tuple>

using namespace llvm;

namespace dan {

namespace {

constexpr uint32_t None = UINT32_MAX;

unsigned tierIndex(Tier T) { return static_cast<unsigned>(T); }

using TierBytes = std::array<uint64_t, NumTiers>;

/// The score of one step (an operation with its new buffers placed and its
/// dead ones not yet released): bytes beyond the L0 tiers' capacities
/// first, then live L1+UB bytes (the tiers that count in peak). A schedule
/// scores its worst step.
struct Score {
  uint64_t L0Over = 0;
  uint64_t Upper = 0;
  bool operator<(const Score &O) const {
    return std::tie(L0Over, Upper) < std::tie(O.L0Over, O.Upper);
  }
  bool operator==(const Score &O) const {
    return L0Over == O.L0Over && Upper == O.Upper;
  }
  bool operator<=(const Score &O) const { return !(O < *this); }
};

Score maxScore(Score A, Score B) { return A < B ? B : A; }

/// Buffers still waiting for users, and live bytes per tier.
struct MemState {
  std::vector<uint32_t> Left;
  TierBytes Live{};
};

/// The input graph as the orderings see it.
struct View {
  View(const Graph &G, const TargetDesc &T);

  const Graph &G;
  const TargetDesc &T;
  /// Input and implicit buffer edges of every node, by NodeIdx.
  std::vector<SmallVector<NodeIdx, 4>> Preds, Succs;
  std::vector<uint32_t> InPos;
  /// Operations in input order, and the op index of every node (or None).
  std::vector<NodeIdx> Ops;
  std::vector<uint32_t> OpOf;
  /// Op-level edges (sorted, no duplicates).
  std::vector<std::vector<uint32_t>> OpPreds, OpSuccs;
  /// The distinct buffers (indices into Bufs) of every operation.
  std::vector<SmallVector<uint32_t, 3>> OpBufs;
  struct Buf {
    uint64_t Size = 0;
    unsigned TI = 0;
    uint32_t Users = 0;
  };
  std::vector<Buf> Bufs;
  TierBytes Cap{};
  std::array<bool, NumTiers> IsL0{}, InPeak{};

  MemState initial() const {
    MemState S;
    S.Left.reserve(Bufs.size());
    for (const Buf &B : Bufs)
      S.Left.push_back(B.Users);
    return S;
  }
  Score score(const TierBytes &Live) const {
    Score S;
    for (unsigned TI = 0; TI != NumTiers; ++TI) {
      if (IsL0[TI] && Live[TI] > Cap[TI])
        S.L0Over += Live[TI] - Cap[TI];
      if (InPeak[TI])
        S.Upper += Live[TI];
    }
    return S;
  }
  /// Live bytes while op \p O runs in \p S (its new buffers placed).
  TierBytes transient(const MemState &S, uint32_t O) const {
    TierBytes Tr = S.Live;
    for (uint32_t B : OpBufs[O])
      if (S.Left[B] == Bufs[B].Users)
        Tr[Bufs[B].TI] += Bufs[B].Size;
    return Tr;
  }
  /// Bytes op \p O releases in \p S (buffers it is the last user of).
  uint64_t released(const MemState &S, uint32_t O, bool UpperOnly) const {
    uint64_t R = 0;
    for (uint32_t B : OpBufs[O])
      if (S.Left[B] == 1 && (!UpperOnly || InPeak[Bufs[B].TI]))
        R += Bufs[B].Size;
    return R;
  }
  /// Runs op \p O in \p S; returns its step score. \p Undo, when given,
  /// collects what undo() needs.
  Score apply(MemState &S, uint32_t O,
              SmallVectorImpl<uint32_t> *Undo = nullptr) const {
    S.Live = transient(S, O);
    Score Sc = score(S.Live);
    for (uint32_t B : OpBufs[O]) {
      if (Undo)
        Undo->push_back(B);
      if (--S.Left[B] == 0)
        S.Live[Bufs[B].TI] -= Bufs[B].Size;
    }
    return Sc;
  }
  void undo(MemState &S, ArrayRef<uint32_t> Undo, const TierBytes &Live) const {
    for (uint32_t B : Undo)
      ++S.Left[B];
    S.Live = Live;
  }
  /// The worst step of \p Order from the initial state, and the position
  /// (in \p Order) where it first occurs.
  std::pair<Score, size_t> evaluate(ArrayRef<uint32_t> Order) const {
    MemState S = initial();
    Score Worst;
    size_t At = 0;
    for (size_t I = 0; I != Order.size(); ++I) {
      Score Sc = apply(S, Order[I]);
      if (Worst < Sc) {
        Worst = Sc;
        At = I;
      }
    }
    return {Worst, At};
  }
};

View::View(const Graph &G, const TargetDesc &T) : G(G), T(T) {
  size_t N = G.size();
  Preds.resize(N);
  Succs.resize(N);
  InPos.assign(N, 0);
  OpOf.assign(N, None);
  for (unsigned TI = 0; TI != NumTiers; ++TI) {
    Tier Tr = static_cast<Tier>(TI);
    Cap[TI] = T.capacity(Tr);
    IsL0[TI] = T.isL0(Tr);
    InPeak[TI] = T.countsInPeak(Tr);
  }
  DenseMap<uint64_t, uint32_t> BufIdx;
  std::vector<NodeIdx> AllocOf, FreeOf;
  for (uint32_t P = 0; P != G.Order.size(); ++P) {
    NodeIdx I = G.Order[P];
    InPos[I] = P;
    const Node &Nd = G[I];
    if (Nd.Kind == NodeKind::Alloc && !BufIdx.count(Nd.Buf)) {
      BufIdx[Nd.Buf] = Bufs.size();
      Buf B;
      B.Size = Nd.Size;
      B.TI = tierIndex(Nd.BufTier);
      Bufs.push_back(B);
      AllocOf.push_back(I);
      FreeOf.push_back(None);
    }
    if (Nd.Kind == NodeKind::Op) {
      OpOf[I] = Ops.size();
      Ops.push_back(I);
    }
  }
  for (NodeIdx I : G.Order)
    if (G[I].Kind == NodeKind::Free) {
      auto It = BufIdx.find(G[I].Buf);
      if (It != BufIdx.end() && FreeOf[It->second] == None)
        FreeOf[It->second] = I;
    }
  for (NodeIdx I = 0; I != N; ++I)
    for (NodeIdx P : G[I].Preds) {
      Preds[I].push_back(P);
      Succs[P].push_back(I);
    }
  OpBufs.resize(Ops.size());
  for (uint32_t O = 0; O != Ops.size(); ++O) {
    NodeIdx I = Ops[O];
    for (uint64_t Id : G[I].Bufs) {
      auto It = BufIdx.find(Id);
      if (It == BufIdx.end() || is_contained(OpBufs[O], It->second))
        continue;
      uint32_t B = It->second;
      OpBufs[O].push_back(B);
      ++Bufs[B].Users;
      // The execution model's implicit edges: a buffer is used inside its
      // lifetime.
      Preds[I].push_back(AllocOf[B]);
      Succs[AllocOf[B]].push_back(I);
      if (FreeOf[B] != None) {
        Preds[FreeOf[B]].push_back(I);
        Succs[I].push_back(FreeOf[B]);
      }
    }
  }
  // A buffer no operation uses has no use to order its FREE after its
  // ALLOC, so that edge is added directly.
  for (uint32_t B = 0; B != Bufs.size(); ++B)
    if (!Bufs[B].Users && FreeOf[B] != None &&
        !is_contained(Preds[FreeOf[B]], AllocOf[B])) {
      Preds[FreeOf[B]].push_back(AllocOf[B]);
      Succs[AllocOf[B]].push_back(FreeOf[B]);
    }
  // The op ancestors of every buffer node, in input order (a topological
  // order, since the input verifies), then the op-level edges.
  std::vector<std::vector<uint32_t>> Anc(N);
  auto Collect = [&](NodeIdx I, std::vector<uint32_t> &Out) {
    for (NodeIdx P : Preds[I]) {
      if (OpOf[P] != None)
        Out.push_back(OpOf[P]);
      else
        Out.insert(Out.end(), Anc[P].begin(), Anc[P].end());
    }
    llvm::sort(Out);
    Out.erase(std::unique(Out.begin(), Out.end()), Out.end());
  };
  OpPreds.resize(Ops.size());
  OpSuccs.resize(Ops.size());
  for (NodeIdx I : G.Order) {
    if (OpOf[I] == None) {
      // Only buffer nodes with successors need their ancestors.
      if (!Succs[I].empty())
        Collect(I, Anc[I]);
      continue;
    }
    Collect(I, OpPreds[OpOf[I]]);
  }
  for (uint32_t O = 0; O != Ops.size(); ++O)
    for (uint32_t P : OpPreds[O])
      OpSuccs[P].push_back(O);
}

//===----------------------------------------------------------------------===//
// From an order of the operations to a schedule and a plan
//===----------------------------------------------------------------------===//

/// The schedule of \p OpOrder (a topological order of the op-level graph):
/// every node an operation needs and that is not yet emitted is pulled in
/// right before it (depth first, so the result is legal), and a FREE goes
/// out as soon as its predecessors have. What is left at the end follows
/// in input order.
std::vector<NodeIdx> materialize(const View &V, ArrayRef<uint32_t> OpOrder) {
  const Graph &G = V.G;
  size_t N = G.size();
  std::vector<NodeIdx> Out;
  Out.reserve(N);
  std::vector<uint8_t> Emitted(N, 0);
  std::vector<uint32_t> Left(N);
  for (NodeIdx I = 0; I != N; ++I)
    Left[I] = V.Preds[I].size();
  SmallVector<NodeIdx, 8> Work;
  auto Emit = [&](NodeIdx I) {
    Work.push_back(I);
    while (!Work.empty()) {
      NodeIdx X = Work.pop_back_val();
      if (Emitted[X])
        continue;
      Emitted[X] = 1;
      Out.push_back(X);
      for (NodeIdx S : V.Succs[X])
        if (--Left[S] == 0 && G[S].Kind == NodeKind::Free && !Emitted[S])
          Work.push_back(S);
    }
  };
  std::vector<std::pair<NodeIdx, uint32_t>> Stack;
  auto Pull = [&](NodeIdx Root) {
    if (Emitted[Root])
      return;
    Stack.push_back({Root, 0});
    while (!Stack.empty()) {
      auto &[I, Next] = Stack.back();
      if (Emitted[I]) {
        Stack.pop_back();
        continue;
      }
      if (Next < V.Preds[I].size()) {
        NodeIdx P = V.Preds[I][Next++];
        if (!Emitted[P])
          Stack.push_back({P, 0});
        continue;
      }
      NodeIdx Done = I;
      Stack.pop_back();
      Emit(Done);
    }
  };
  for (uint32_t O : OpOrder)
    Pull(V.Ops[O]);
  for (NodeIdx I : G.Order)
    Pull(I);
  return Out;
}

/// Reverse post-order of a depth-first search of the op-level graph, with
/// roots and successors taken so that ties follow the input order.
std::vector<uint32_t> reversePostOrder(const View &V) {
  size_t N = V.Ops.size();
  std::vector<uint32_t> Post;
  Post.reserve(N);
  std::vector<uint8_t> Seen(N, 0);
  std::vector<std::pair<uint32_t, uint32_t>> Stack;
  for (uint32_t R = N; R-- != 0;) {
    if (!V.OpPreds[R].empty() || Seen[R])
      continue;
    Seen[R] = 1;
    Stack.push_back({R, 0});
    while (!Stack.empty()) {
      auto &[O, Next] = Stack.back();
      const std::vector<uint32_t> &S = V.OpSuccs[O];
      if (Next < S.size()) {
        uint32_t C = S[S.size() - 1 - Next++];
        if (!Seen[C]) {
          Seen[C] = 1;
          Stack.push_back({C, 0});
        }
        continue;
      }
      Post.push_back(O);
      Stack.pop_back();
    }
  }
  std::reverse(Post.begin(), Post.end());
  return Post;
}

//===----------------------------------------------------------------------===//
// Exact DP over the subsets of a few units
//===----------------------------------------------------------------------===//

/// Orders \p Units (each a list of operations run back to back) from memory
/// state \p S0 so that the worst step is as low as possible: a DP over the
/// frontiers (the sets of units already run), exact for that objective
/// because the memory state after a set of units does not depend on their
/// order. \p PredMask[j] lists the units j must follow. At most 2^|Units|
/// states; the caller keeps |Units| within the caps. Returns the unit order;
/// the given order (0, 1, ...) is kept unless another is strictly better.
std::vector<unsigned> subsetDP(const View &V, const MemState &S0,
                               ArrayRef<std::vector<uint32_t>> Units,
                               ArrayRef<uint32_t> PredMask) {
  unsigned W = Units.size();
  assert(W <= 16 && "the caps keep subset DPs small");
  // The buffers the units touch, numbered locally.
  DenseMap<uint32_t, uint32_t> Local;
  std::vector<uint32_t> Global;
  for (const std::vector<uint32_t> &U : Units)
    for (uint32_t O : U)
      for (uint32_t B : V.OpBufs[O])
        if (Local.try_emplace(B, Global.size()).second)
          Global.push_back(B);
  size_t L = Global.size();
  size_t NS = size_t(1) << W;
  std::vector<uint8_t> Reached(NS, 0);
  std::vector<Score> Cost(NS);
  std::vector<uint8_t> Parent(NS, 0);
  std::vector<uint32_t> Left(NS * L);
  std::vector<TierBytes> Live(NS);
  // The local op buffer lists.
  std::vector<std::vector<SmallVector<uint32_t, 3>>> UnitBufs(W);
  for (unsigned J = 0; J != W; ++J)
    for (uint32_t O : Units[J]) {
      SmallVector<uint32_t, 3> Bs;
      for (uint32_t B : V.OpBufs[O])
        Bs.push_back(Local[B]);
      UnitBufs[J].push_back(std::move(Bs));
    }
  Reached[0] = 1;
  for (size_t K = 0; K != L; ++K)
    Left[K] = S0.Left[Global[K]];
  Live[0] = S0.Live;
  std::vector<uint32_t> Scratch(L);
  // Runs unit J from state Sub into Scratch / LiveOut; returns its worst
  // step.
  auto Run = [&](size_t Sub, unsigned J, TierBytes &LiveOut) {
    // Pointer arithmetic, not &Left[...]: L is 0 when the units use no
    // buffer, and Left is then empty.
    std::copy_n(Left.data() + Sub * L, L, Scratch.begin());
    LiveOut = Live[Sub];
    Score Worst;
    for (const SmallVector<uint32_t, 3> &Bs : UnitBufs[J]) {
      for (uint32_t K : Bs)
        if (Scratch[K] == V.Bufs[Global[K]].Users)
          LiveOut[V.Bufs[Global[K]].TI] += V.Bufs[Global[K]].Size;
      Worst = maxScore(Worst, V.score(LiveOut));
      for (uint32_t K : Bs)
        if (--Scratch[K] == 0)
          LiveOut[V.Bufs[Global[K]].TI] -= V.Bufs[Global[K]].Size;
    }
    return Worst;
  };
  TierBytes LiveOut;
  for (size_t Sub = 0; Sub != NS; ++Sub) {
    if (!Reached[Sub])
      continue;
    for (unsigned J = 0; J != W; ++J) {
      if ((Sub >> J & 1) || (PredMask[J] & ~Sub))
        continue;
      Score C = maxScore(Cost[Sub], Run(Sub, J, LiveOut));
      size_t Next = Sub | (size_t(1) << J);
      if (!Reached[Next]) {
        Reached[Next] = 1;
        Cost[Next] = C;
        Parent[Next] = J;
        std::copy_n(Scratch.begin(), L, Left.data() + Next * L);
        Live[Next] = LiveOut;
      } else if (C < Cost[Next]) {
        Cost[Next] = C;
        Parent[Next] = J;
      }
    }
  }
  std::vector<unsigned> Given(W);
  for (unsigned J = 0; J != W; ++J)
    Given[J] = J;
  size_t Full = NS - 1;
  if (!Reached[Full])
    return Given; // cannot happen for an acyclic PredMask
  // The given order's worst step: kept on a tie.
  Score GivenCost;
  bool GivenLegal = true;
  for (size_t Sub = 0, J = 0; J != W; ++J) {
    if (PredMask[J] & ~Sub) {
      GivenLegal = false;
      break;
    }
    GivenCost = maxScore(GivenCost, Run(Sub, J, LiveOut));
    Sub |= size_t(1) << J;
  }
  if (GivenLegal && GivenCost <= Cost[Full])
    return Given;
  std::vector<unsigned> Order;
  for (size_t Sub = Full; Sub;) {
    unsigned J = Parent[Sub];
    Order.push_back(J);
    Sub &= ~(size_t(1) << J);
  }
  std::reverse(Order.begin(), Order.end());
  return Order;
}

//===----------------------------------------------------------------------===//
// MAGIS: reverse post-order, then an exact DP on sliding windows
//===----------------------------------------------------------------------===//

std::vector<uint32_t> legalizeL0(const View &V, std::vector<uint32_t> Pref);

std::vector<uint32_t> orderMAGIS(const View &V) {
  std::vector<uint32_t> Order = legalizeL0(V, reversePostOrder(V));
  size_t N = Order.size();
  MemState S = V.initial();
  std::vector<uint32_t> PosInWindow(V.Ops.size(), None);
  for (size_t I = 0; I < N;) {
    size_t W = std::min<size_t>(baseline::MAGISWindow, N - I);
    std::vector<std::vector<uint32_t>> Units(W);
    std::vector<uint32_t> Mask(W, 0);
    for (size_t J = 0; J != W; ++J) {
      Units[J] = {Order[I + J]};
      PosInWindow[Order[I + J]] = J;
    }
    for (size_t J = 0; J != W; ++J)
      for (uint32_t P : V.OpPreds[Order[I + J]])
        if (PosInWindow[P] != None)
          Mask[J] |= uint32_t(1) << PosInWindow[P];
    std::vector<unsigned> Best = subsetDP(V, S, Units, Mask);
    for (size_t J = 0; J != W; ++J)
      PosInWindow[Order[I + J]] = None;
    for (size_t J = 0; J != W; ++J)
      Order[I + J] = Units[Best[J]][0];
    size_t Commit = I + W == N ? W : std::min<size_t>(baseline::MAGISStride, W);
    for (size_t J = 0; J != Commit; ++J)
      V.apply(S, Order[I + J]);
    I += Commit;
  }
  return Order;
}

//===----------------------------------------------------------------------===//
// The L0 gate: dan-mpas's per-consumer reservation, at the operation level
//===----------------------------------------------------------------------===//

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
  bool admit(const MemState &S, ArrayRef<uint8_t> Done, uint32_t O);
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
    /// Refused for lack of room while Released equals this plus one.
    uint64_t NoRoomAt = 0;
  };
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
  /// Counts the runs that released L0 bytes.
  uint64_t Released = 0;
};

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

//===----------------------------------------------------------------------===//
// List schedulers: EDA (depth first while the working set fits), COSMA
// (min-peak greedy), and the L0 legalization of the other two orders
//===----------------------------------------------------------------------===//

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

std::vector<uint32_t> orderEDA(const View &V) {
  // Depth first (the most recently readied operation, so a producer's
  // consumers follow it and its intermediates stay on chip) among the
  // operations whose working set still fits every tier; when none fits,
  // the one that overflows the tiers by the fewest bytes (those bytes are
  // what must go to DDR), then depth first.
  return listSchedule(V, [&](const MemState &S, uint32_t O, uint64_t Stamp) {
    TierBytes Tr = V.transient(S, O);
    uint64_t Over = 0;
    for (unsigned TI = 0; TI != NumTiers; ++TI)
      if (Tr[TI] > V.Cap[TI])
        Over += Tr[TI] - V.Cap[TI];
    return ListKey{Over != 0, Over, UINT64_MAX - Stamp, 0, 0};
  });
}

std::vector<uint32_t> orderCOSMA(const View &V) {
  // Min-peak greedy: bytes beyond the L0 tiers, then bytes beyond L1 and UB
  // (what would have to be replaced), then live L1+UB bytes during the
  // operation, then its net change of L1+UB bytes, then input order.
  return listSchedule(V, [&](const MemState &S, uint32_t O, uint64_t) {
    TierBytes Tr = V.transient(S, O);
    Score Sc = V.score(Tr);
    uint64_t UpperOver = 0;
    for (unsigned TI = 0; TI != NumTiers; ++TI)
      if (!V.IsL0[TI] && Tr[TI] > V.Cap[TI])
        UpperOver += Tr[TI] - V.Cap[TI];
    uint64_t Before = V.score(S.Live).Upper;
    int64_t Net = int64_t(Sc.Upper - Before) -
                  int64_t(V.released(S, O, /*UpperOnly=*/true));
    return ListKey{Sc.L0Over, UpperOver, Sc.Upper, Net, V.InPos[V.Ops[O]]};
  });
}

//===----------------------------------------------------------------------===//
// HMCOS: sequences, groups by post-dominators, DP per group, a bounded DP
// over the top-level frontiers, budget iteration
//===----------------------------------------------------------------------===//

class HMCOS {
public:
  explicit HMCOS(const View &V) : V(V) {}
  std::vector<uint32_t> run();

private:
  void buildSequences();
  void buildGroups();
  void solveGroup(uint32_t Gr);
  std::vector<uint32_t> unitOps(uint32_t U) const;
  bool beam(Score Budget, std::vector<uint32_t> &Out);

  const View &V;
  /// Nothing run yet: the context of the group DPs.
  MemState Init;
  std::vector<uint32_t> Rpo, Rank; // Rank: position of an op in Rpo
  // Sequences: chains of operations.
  std::vector<std::vector<uint32_t>> Seqs;
  std::vector<uint32_t> SeqOf;
  std::vector<std::vector<uint32_t>> SeqPreds, SeqSuccs;
  // Groups: one per cell output (a sequence with two or more
  // predecessors), the sequences it post-dominates, nested groups as
  // members. A unit is a sequence (U < Seqs.size()) or a group
  // (U - Seqs.size()).
  struct Group {
    uint32_t Cell = 0;
    std::vector<uint32_t> Members; // units
    std::vector<uint32_t> Ops;     // the solved order
  };
  std::vector<Group> Groups;
  // The units at the top level, in the order they were formed.
  std::vector<uint32_t> Top;
};

void HMCOS::buildSequences() {
  size_t N = V.Ops.size();
  SeqOf.assign(N, None);
  auto Joinable = [&](uint32_t U) {
    return V.OpSuccs[U].size() == 1 && V.OpPreds[V.OpSuccs[U][0]].size() == 1;
  };
  for (uint32_t O : Rpo) {
    if (SeqOf[O] != None)
      continue;
    // O heads a chain unless its only predecessor continues into it; that
    // predecessor comes earlier in reverse post-order and has taken it.
    std::vector<uint32_t> Chain = {O};
    SeqOf[O] = Seqs.size();
    for (uint32_t U = O; Joinable(U);) {
      U = V.OpSuccs[U][0];
      SeqOf[U] = Seqs.size();
      Chain.push_back(U);
    }
    Seqs.push_back(std::move(Chain));
  }
  SeqPreds.resize(Seqs.size());
  SeqSuccs.resize(Seqs.size());
  for (uint32_t O = 0; O != N; ++O)
    for (uint32_t P : V.OpPreds[O])
      if (SeqOf[P] != SeqOf[O]) {
        SeqPreds[SeqOf[O]].push_back(SeqOf[P]);
        SeqSuccs[SeqOf[P]].push_back(SeqOf[O]);
      }
  for (auto *L : {&SeqPreds, &SeqSuccs})
    for (std::vector<uint32_t> &E : *L) {
      llvm::sort(E);
      E.erase(std::unique(E.begin(), E.end()), E.end());
    }
}

void HMCOS::buildGroups() {
  size_t NS = Seqs.size();
  // Sequences are numbered in reverse post-order of their heads, which is
  // topological. Post-dominators (Cooper, Harvey and Kennedy; one pass in
  // reverse topological order suffices on a DAG) with a virtual sink NS.
  uint32_t Sink = NS;
  std::vector<uint32_t> IPDom(NS + 1, Sink), Depth(NS + 1, 0);
  for (uint32_t S = NS; S-- != 0;) {
    uint32_t P = None;
    for (uint32_t Q : SeqSuccs[S]) {
      if (P == None) {
        P = Q;
        continue;
      }
      uint32_t A = P, B = Q;
      while (A != B) {
        while (Depth[A] > Depth[B])
          A = IPDom[A];
        while (Depth[B] > Depth[A])
          B = IPDom[B];
        if (A != B) {
          A = IPDom[A];
          B = IPDom[B];
        }
      }
      P = A;
    }
    IPDom[S] = P == None ? Sink : P;
    Depth[S] = Depth[IPDom[S]] + 1;
  }
  // The innermost cell output post-dominating each sequence (itself
  // included); post-dominators come later in topological order.
  std::vector<uint32_t> Cell(NS + 1, None), GroupOf(NS, None);
  for (uint32_t S = NS; S-- != 0;) {
    if (SeqPreds[S].size() >= 2) {
      Cell[S] = S;
      GroupOf[S] = Groups.size();
      Groups.push_back({S, {}, {}});
    } else {
      Cell[S] = Cell[IPDom[S]];
    }
  }
  // Members: sequences whose innermost cell is the group's, and the groups
  // of the cells directly below it. Sequences in topological order, so a
  // member list is ordered by reverse post-order.
  for (uint32_t S = 0; S != NS; ++S) {
    uint32_t Outer = Cell[S];
    if (Outer == S) {
      uint32_t Parent = Cell[IPDom[S]];
      uint32_t Gr = GroupOf[S];
      Groups[Gr].Members.push_back(S);
      if (Parent == None)
        Top.push_back(NS + Gr);
      else
        Groups[GroupOf[Parent]].Members.push_back(NS + Gr);
    } else if (Outer == None) {
      Top.push_back(S);
    } else {
      Groups[GroupOf[Outer]].Members.push_back(S);
    }
  }
  // Children are upstream of their parent, so groups in topological order
  // of their cells (increasing cell) are solved bottom-up.
  std::vector<uint32_t> ByCell(Groups.size());
  for (uint32_t Gr = 0; Gr != Groups.size(); ++Gr)
    ByCell[Gr] = Gr;
  llvm::sort(ByCell, [&](uint32_t A, uint32_t B) {
    return Groups[A].Cell < Groups[B].Cell;
  });
  for (uint32_t Gr : ByCell)
    solveGroup(Gr);
}

std::vector<uint32_t> HMCOS::unitOps(uint32_t U) const {
  return U < Seqs.size() ? Seqs[U] : Groups[U - Seqs.size()].Ops;
}

void HMCOS::solveGroup(uint32_t Gr) {
  Group &Gp = Groups[Gr];
  size_t M = Gp.Members.size();
  std::vector<std::vector<uint32_t>> Units;
  size_t NumOps = 0;
  for (uint32_t U : Gp.Members) {
    Units.push_back(unitOps(U));
    NumOps += Units.back().size();
  }
  // The member DAG, and a topological order of it by the least reverse
  // post-order rank (the fallback, and the order the DP keeps on a tie).
  DenseMap<uint32_t, uint32_t> MemberOf;
  std::vector<uint32_t> Least(M, None);
  for (uint32_t K = 0; K != M; ++K)
    for (uint32_t O : Units[K]) {
      MemberOf[O] = K;
      Least[K] = std::min(Least[K], Rank[O]);
    }
  std::vector<std::vector<uint32_t>> MPreds(M);
  for (uint32_t K = 0; K != M; ++K)
    for (uint32_t O : Units[K])
      for (uint32_t P : V.OpPreds[O]) {
        auto It = MemberOf.find(P);
        if (It != MemberOf.end() && It->second != K &&
            !is_contained(MPreds[K], It->second))
          MPreds[K].push_back(It->second);
      }
  std::vector<uint32_t> Topo;
  {
    std::vector<uint32_t> Left(M), Ready;
    std::vector<std::vector<uint32_t>> MSuccs(M);
    for (uint32_t K = 0; K != M; ++K) {
      Left[K] = MPreds[K].size();
      for (uint32_t P : MPreds[K])
        MSuccs[P].push_back(K);
      if (!Left[K])
        Ready.push_back(K);
    }
    while (!Ready.empty()) {
      auto It = llvm::min_element(
          Ready, [&](uint32_t A, uint32_t B) { return Least[A] < Least[B]; });
      uint32_t K = *It;
      Ready.erase(It);
      Topo.push_back(K);
      for (uint32_t S : MSuccs[K])
        if (--Left[S] == 0)
          Ready.push_back(S);
    }
  }
  std::vector<unsigned> Chosen(Topo.begin(), Topo.end());
  if (M <= baseline::HMCOSGroupMembers && NumOps <= baseline::HMCOSGroupOps &&
      M > 1) {
    // DP over the group's frontiers, in the context-free memory model:
    // nothing started, so a buffer counts from its first use in the group
    // and is released only when its last user is inside.
    std::vector<std::vector<uint32_t>> TopoUnits;
    std::vector<uint32_t> PosOf(M), Mask(M, 0);
    for (uint32_t I = 0; I != M; ++I) {
      PosOf[Topo[I]] = I;
      TopoUnits.push_back(Units[Topo[I]]);
    }
    for (uint32_t I = 0; I != M; ++I)
      for (uint32_t P : MPreds[Topo[I]])
        Mask[I] |= uint32_t(1) << PosOf[P];
    std::vector<unsigned> Best = subsetDP(V, Init, TopoUnits, Mask);
    for (uint32_t I = 0; I != M; ++I)
      Chosen[I] = Topo[Best[I]];
  }
  for (unsigned K : Chosen)
    Gp.Ops.insert(Gp.Ops.end(), Units[K].begin(), Units[K].end());
}

bool HMCOS::beam(Score Budget, std::vector<uint32_t> &Out) {
  size_t NU = Top.size();
  std::vector<std::vector<uint32_t>> UOps(NU);
  std::vector<uint32_t> UnitOf(V.Ops.size(), None), URank(NU, None);
  for (uint32_t U = 0; U != NU; ++U) {
    UOps[U] = unitOps(Top[U]);
    for (uint32_t O : UOps[U]) {
      UnitOf[O] = U;
      URank[U] = std::min(URank[U], Rank[O]);
    }
  }
  std::vector<std::vector<uint32_t>> USuccs(NU);
  std::vector<uint32_t> NumPreds(NU, 0);
  for (uint32_t U = 0; U != NU; ++U) {
    std::vector<uint32_t> P;
    for (uint32_t O : UOps[U])
      for (uint32_t Q : V.OpPreds[O])
        if (UnitOf[Q] != U)
          P.push_back(UnitOf[Q]);
    llvm::sort(P);
    P.erase(std::unique(P.begin(), P.end()), P.end());
    NumPreds[U] = P.size();
    for (uint32_t Q : P)
      USuccs[Q].push_back(U);
  }
  // Zobrist keys identify a frontier (the set of units run) across
  // partial schedules; splitmix64 of the unit's first operation makes them
  // deterministic.
  std::vector<uint64_t> Key(NU);
  for (uint32_t U = 0; U != NU; ++U) {
    uint64_t Z = uint64_t(UOps[U].front()) * 0x9E3779B97F4A7C15ull + 1;
    Z = (Z ^ (Z >> 30)) * 0xBF58476D1CE4E5B9ull;
    Z = (Z ^ (Z >> 27)) * 0x94D049BB133111EBull;
    Key[U] = Z ^ (Z >> 31);
  }
  struct State {
    MemState Mem;
    std::vector<uint32_t> Left;  // predecessors not yet run, per unit
    std::vector<uint32_t> Ready; // by URank
    uint64_t Hash = 0;
    Score Peak;
    uint32_t Trace = None;
  };
  std::vector<std::pair<uint32_t, uint32_t>> Trace; // (parent, unit)
  auto ByRank = [&](uint32_t A, uint32_t B) { return URank[A] < URank[B]; };
  std::vector<State> States(1);
  States[0].Mem = V.initial();
  States[0].Left = NumPreds;
  for (uint32_t U = 0; U != NU; ++U)
    if (!NumPreds[U])
      States[0].Ready.push_back(U);
  llvm::sort(States[0].Ready, ByRank);
  struct Cand {
    Score Peak;
    uint64_t Live;
    uint32_t From, Pick;
    uint64_t Hash;
  };
  std::vector<Cand> Cands;
  SmallVector<uint32_t, 64> Undo;
  for (size_t Step = 0; Step != NU; ++Step) {
    Cands.clear();
    for (uint32_t R = 0; R != States.size(); ++R) {
      State &St = States[R];
      size_t Tries =
          std::min<size_t>(St.Ready.size(), baseline::HMCOSCandidates);
      for (uint32_t Q = 0; Q != Tries; ++Q) {
        uint32_t U = St.Ready[Q];
        TierBytes Saved = St.Mem.Live;
        Undo.clear();
        Score Worst;
        for (uint32_t O : UOps[U])
          Worst = maxScore(Worst, V.apply(St.Mem, O, &Undo));
        uint64_t Live = V.score(St.Mem.Live).Upper;
        V.undo(St.Mem, Undo, Saved);
        if (Budget < Worst)
          continue; // memory-constrained: over the budget
        Cands.push_back(
            {maxScore(St.Peak, Worst), Live, R, Q, St.Hash ^ Key[U]});
      }
    }
    if (Cands.empty())
      return false;
    llvm::sort(Cands, [](const Cand &A, const Cand &B) {
      return std::tie(A.Peak.L0Over, A.Peak.Upper, A.Live, A.From, A.Pick) <
             std::tie(B.Peak.L0Over, B.Peak.Upper, B.Live, B.From, B.Pick);
    });
    SmallVector<const Cand *, 8> Kept;
    SmallVector<uint64_t, 8> Hashes;
    for (const Cand &C : Cands) {
      if (Kept.size() == baseline::HMCOSBeam)
        break;
      if (is_contained(Hashes, C.Hash))
        continue; // the same frontier, reached at a higher cost
      Hashes.push_back(C.Hash);
      Kept.push_back(&C);
    }
    // A state's last successor takes it over instead of a copy: copying
    // every state at every step was quadratic (minutes on a long chain).
    SmallVector<uint32_t, 8> Uses(States.size(), 0);
    for (const Cand *C : Kept)
      ++Uses[C->From];
    std::vector<State> Next;
    for (const Cand *CP : Kept) {
      const Cand &C = *CP;
      State St = --Uses[C.From] ? States[C.From] : std::move(States[C.From]);
      uint32_t U = St.Ready[C.Pick];
      for (uint32_t O : UOps[U])
        V.apply(St.Mem, O);
      St.Ready.erase(St.Ready.begin() + C.Pick);
      for (uint32_t S : USuccs[U])
        if (--St.Left[S] == 0)
          St.Ready.insert(llvm::upper_bound(St.Ready, S, ByRank), S);
      St.Hash = C.Hash;
      St.Peak = C.Peak;
      Trace.push_back({St.Trace, U});
      St.Trace = Trace.size() - 1;
      Next.push_back(std::move(St));
    }
    States = std::move(Next);
  }
  std::vector<uint32_t> Units;
  for (uint32_t T = States[0].Trace; T != None; T = Trace[T].first)
    Units.push_back(Trace[T].second);
  std::reverse(Units.begin(), Units.end());
  Out.clear();
  for (uint32_t U : Units)
    Out.insert(Out.end(), UOps[U].begin(), UOps[U].end());
  return true;
}

std::vector<uint32_t> HMCOS::run() {
  Init = V.initial();
  Rpo = reversePostOrder(V);
  Rank.assign(V.Ops.size(), 0);
  for (uint32_t I = 0; I != Rpo.size(); ++I)
    Rank[Rpo[I]] = I;
  buildSequences();
  buildGroups();
  // Budget iteration (as in HMCOS): each round schedules within the best
  // worst step so far (a partial schedule whose step exceeds it is dropped)
  // and keeps its result when it is lower; then the top-level group holding
  // the round's worst step is dissolved into its members, so that the next
  // round may interleave them with the rest. It stops when a round finds no
  // schedule within the budget, when the worst step lies in no group, or
  // after the cap.
  Score Budget{UINT64_MAX, UINT64_MAX};
  std::vector<uint32_t> Best, Cur;
  Score BestPeak;
  for (unsigned Round = 0; Round != baseline::HMCOSRounds; ++Round) {
    // A round whose budget prunes every partial schedule (the beam is not
    // a complete search) runs again without it, for the next ungrouping.
    if (!beam(Budget, Cur) && !beam(Score{UINT64_MAX, UINT64_MAX}, Cur))
      break;
    // Rounds compare after the L0 legalization that the result gets.
    Cur = legalizeL0(V, std::move(Cur));
    auto [Peak, At] = V.evaluate(Cur);
    if (Best.empty() || Peak < BestPeak) {
      Best = Cur;
      BestPeak = Peak;
      Budget = Peak;
    }
    // The unit holding the worst step; if it is a group, dissolve it, else
    // dissolve the groups that follow it (HMCOS's tryUngroupSucc).
    std::vector<uint32_t> UnitOf(V.Ops.size(), None);
    for (uint32_t K = 0; K != Top.size(); ++K)
      for (uint32_t O : unitOps(Top[K]))
        UnitOf[O] = K;
    uint32_t PeakUnit = UnitOf[Cur[At]];
    std::vector<uint32_t> Dissolve;
    if (Top[PeakUnit] >= Seqs.size()) {
      Dissolve.push_back(PeakUnit);
    } else {
      for (uint32_t O : unitOps(Top[PeakUnit]))
        for (uint32_t S : V.OpSuccs[O])
          if (Top[UnitOf[S]] >= Seqs.size() &&
              !is_contained(Dissolve, UnitOf[S]))
            Dissolve.push_back(UnitOf[S]);
    }
    if (Dissolve.empty())
      break;
    llvm::sort(Dissolve);
    std::vector<uint32_t> NewTop;
    for (uint32_t K = 0; K != Top.size(); ++K)
      if (!std::binary_search(Dissolve.begin(), Dissolve.end(), K))
        NewTop.push_back(Top[K]);
    for (uint32_t K : Dissolve) {
      const std::vector<uint32_t> &M = Groups[Top[K] - Seqs.size()].Members;
      NewTop.insert(NewTop.end(), M.begin(), M.end());
    }
    Top = std::move(NewTop);
  }
  return Best;
}

//===----------------------------------------------------------------------===//
// Entry points
//===----------------------------------------------------------------------===//

Error checkInput(Graph &G, const TargetDesc &T, Method M) {
  bool Bad = G.hasMemoryPlan();
  if (!Bad) {
    VerifyOptions Opts;
    Opts.ErrorLimit = 1;
    Bad = verifyGraph(G, T, Opts,
                      [](SMLoc, SourceMgr::DiagKind, const Twine &) {}) != 0;
  }
  if (!Bad)
    return Error::success();
  // DLR refuses such an input with its diagnostics and leaves it unchanged.
  Expected<DLRStats> S = runDLR(G, T, baselineDLROptions(M));
  if (!S)
    return S.takeError();
  return createStringError(inconvertibleErrorCode(),
                           "internal error: an input DLR accepts was refused");
}

} // namespace

DLROptions baselineDLROptions(Method M) {
  DLROptions Opts;
  Opts.Fit = FitPolicy::Best;
  Opts.Victims = VictimSet::Single;
  switch (M) {
  case Method::HMCOS:
    Opts.Evict = EvictPolicy::LRU;
    break;
  case Method::COSMA:
    Opts.Evict = EvictPolicy::CostPerByte;
    break;
  case Method::MAGIS:
    Opts.Evict = EvictPolicy::Belady;
    break;
  case Method::EDA:
    Opts.Evict = EvictPolicy::Traffic;
    Opts.Victims = VictimSet::Window;
    break;
  case Method::Base:
    Opts.Fit = FitPolicy::First;
    Opts.Evict = EvictPolicy::LRU;
    break;
  case Method::DAN:
    Opts = DLROptions();
    break;
  }
  return Opts;
}

Error orderOperationsByKey(Graph &G, const TargetDesc &T,
                           ArrayRef<uint64_t> KeyOfNode) {
  if (Error E = checkInput(G, T, Method::MAGIS))
    return E;
  std::vector<NodeIdx> Order;
  {
    View V(G, T);
    // A list schedule of the operations: the ready one with the smallest
    // key (then the earlier in input order) runs next, so edges always win.
    size_t N = V.Ops.size();
    std::vector<uint32_t> Left(N), Ops;
    Ops.reserve(N);
    std::set<std::pair<uint64_t, uint32_t>> Ready;
    for (uint32_t O = 0; O != N; ++O)
      if (!(Left[O] = V.OpPreds[O].size()))
        Ready.insert({KeyOfNode[V.Ops[O]], O});
    while (!Ready.empty()) {
      uint32_t O = Ready.begin()->second;
      Ready.erase(Ready.begin());
      Ops.push_back(O);
      for (uint32_t S : V.OpSuccs[O])
        if (--Left[S] == 0)
          Ready.insert({KeyOfNode[V.Ops[S]], S});
    }
    Order = materialize(V, legalizeL0(V, std::move(Ops)));
  }
  G.Order = std::move(Order);
  return Error::success();
}

Error orderBaseline(Graph &G, const TargetDesc &T, Method M) {
  if (M == Method::DAN || M == Method::Base)
    return createStringError(inconvertibleErrorCode(),
                             "'%s' is not one of the external baselines",
                             methodName(M).str().c_str());
  if (Error E = checkInput(G, T, M))
    return E;
  std::vector<NodeIdx> Order;
  {
    View V(G, T);
    std::vector<uint32_t> Ops;
    // With no operation there is one order of them, the empty one; the
    // searches below assume at least one step.
    if (!V.Ops.empty())
      switch (M) {
      case Method::HMCOS:
        Ops = HMCOS(V).run();
        break;
      case Method::COSMA:
        Ops = orderCOSMA(V);
        break;
      case Method::MAGIS:
        Ops = orderMAGIS(V);
        break;
      case Method::EDA:
        Ops = orderEDA(V);
        break;
      case Method::DAN:
      case Method::Base:
        llvm_unreachable("refused above");
      }
    Order = materialize(V, Ops);
  }
  G.Order = std::move(Order);
  return Error::success();
}

Error runBaseline(Graph &G, const TargetDesc &T, Method M) {
  if (Error E = orderBaseline(G, T, M))
    return E;
  Expected<DLRStats> S = runDLR(G, T, baselineDLROptions(M));
  if (!S)
    return S.takeError();
  return Error::success();
}

} // namespace dan
