//===- MPAS.cpp - Stage 1: memory-pressure-aware ordering -----------------===//
//
// A ready-set list scheduler (paper eqs. 17-21). The priority of a node is
// static, so one ordered set serves as the ready queue: (lambda, delta_pk,
// -h, ord) for the balanced weights, where lambda is 0 for FREE, 1 for an
// operation and 2 for ALLOC; delta_pk is the node's change of live L1+UB
// bytes; h is the longest cycle path from the node to a sink; ord is the
// input position.
//
// L0 awareness (not in the paper). Left alone, the greedy takes ALLOCs of L0
// buffers whenever nothing better is ready and piles them up. Here an L0
// ALLOC is held back until the operation that consumes the buffer can be
// "opened": that operation's other predecessors are done, except the
// allocs and writers of its own L0 buffers (its group), and the whole group
// fits in the L0 tiers next to what is live and reserved (--l0=capacity:
// bytes within capacity; --l0=single: one buffer per tier). Opening reserves
// the space; the group's ALLOCs then compete in the ready queue as usual.
// Because a consumer opens only when nothing outside its group can block
// it, the reservations never wait on each other. Should the ready queue
// still run dry, the fallback admits the best held-back work regardless of
// the L0 rule and counts it (--stats).
//
// Demand-driven allocs (--allocs=demand, not in the paper). When only
// ALLOCs are ready, the paper takes the one with the smallest key, i.e. the
// smallest buffer, whatever it unlocks. Instead MPAS looks at the
// operations whose other predecessors are all done and whose missing
// predecessors are ready ALLOCs, and takes the allocs of the one with the
// smallest net change of live L1+UB bytes: the bytes it must allocate minus
// the bytes of the FREEs it makes ready (ties: the fewest bytes allocated,
// then the key). Its allocs are then taken back to back, so the operation
// runs next.
//
//===----------------------------------------------------------------------===//

#include "dan/Transforms/MPAS.h"
#include "dan/Analysis/Verifier.h"
#include "dan/IR/Diagnostic.h"
#include "dan/Schedule/Order.h"
#include "llvm/ADT/DenseMap.h"
#include "llvm/ADT/DenseSet.h"
#include "llvm/ADT/STLExtras.h"
#include <array>
#include <map>
#include <set>
#include <tuple>

using namespace llvm;

namespace dan {

namespace {

constexpr uint32_t None = UINT32_MAX;

/// The peak of live L1+UB bytes along the schedule as it stands.
uint64_t peakL1UB(const Graph &G, const TargetDesc &T) {
  int64_t Live = 0, Peak = 0;
  for (NodeIdx I : G.Order) {
    const Node &N = G[I];
    if (!T.countsInPeak(N.BufTier))
      continue;
    if (N.Kind == NodeKind::Alloc)
      Peak = std::max(Peak, Live += int64_t(N.Size));
    else if (N.Kind == NodeKind::Free)
      Live -= int64_t(N.Size);
  }
  return Peak;
}

/// The task rank of a reuse-grid order (0 without one), then the weights.
using Key = std::array<int64_t, 5>;

class Scheduler {
public:
  Scheduler(Graph &G, const TargetDesc &T, const MPASOptions &Opts,
            const std::vector<uint32_t> *Rank = nullptr)
      : G(G), T(T), Opts(Opts), Rank(Rank) {}
  Expected<MPASStats> run();

private:
  Error buildEdges();
  void computeCriticality();
  void buildBuffers();
  void buildGroups();
  Key key(NodeIdx V) const;
  bool gated(NodeIdx V) const { return GatedAlloc[V] && !Admitted[V]; }
  void makeReady(NodeIdx V);
  bool fits(uint32_t Consumer) const;
  void open(uint32_t Consumer);
  void tryOpen();
  void schedule(NodeIdx V);
  bool fallback();
  void buildDemand();
  NodeIdx demandAlloc();

  Graph &G;
  const TargetDesc &T;
  const MPASOptions &Opts;
  /// Per node, the rank of its task in a reuse-grid order, or null.
  const std::vector<uint32_t> *Rank;
  MPASStats Stats;

  size_t V = 0;
  std::vector<uint32_t> Ord; // input position
  /// The graph's edges plus the implicit ALLOC -> use -> FREE orderings.
  std::vector<SmallVector<NodeIdx, 4>> Preds;
  std::vector<uint32_t> SuccBegin; // CSR successors
  std::vector<NodeIdx> Succs;
  std::vector<uint32_t> InDeg;
  std::vector<int64_t> H;     // criticality
  std::vector<int64_t> Delta; // change of live L1+UB bytes
  std::vector<uint8_t> Lambda;

  // Buffers.
  struct BufInfo {
    NodeIdx Alloc = None, Free = None;
    Tier BufTier = Tier::L1;
    uint64_t Size = 0;
    SmallVector<NodeIdx, 4> Users; // operations, in input order
  };
  DenseMap<uint64_t, BufInfo> Bufs;

  // L0 gating.
  std::vector<uint8_t> GatedAlloc, Admitted, Done;
  struct Consumer {
    NodeIdx Op;
    SmallVector<NodeIdx, 3> Allocs; // the group's ALLOCs
    std::array<uint64_t, NumTiers> Bytes{};
    std::array<uint32_t, NumTiers> Count{};
    uint32_t External = 0; // predecessors outside the group not yet done
    bool Opened = false;
  };
  std::vector<Consumer> Consumers;
  std::vector<SmallVector<uint32_t, 1>> WaitersOf; // node -> consumers
  std::set<std::pair<Key, uint32_t>> Openable;
  /// Consumers that joined Openable since tryOpen last looked. The others
  /// did not fit then, and L0 room only grows at an L0 FREE, which sets
  /// ScanAllOpenable; until then tryOpen checks the newcomers alone.
  std::vector<uint32_t> NewlyOpenable;
  bool ScanAllOpenable = true;
  void addOpenable(uint32_t CI) {
    Openable.insert({key(Consumers[CI].Op), CI});
    NewlyOpenable.push_back(CI);
  }
  std::array<uint64_t, NumTiers> LiveBytes{}, ReservedBytes{};
  std::array<uint32_t, NumTiers> LiveCount{}, ReservedCount{};
  std::set<std::pair<Key, NodeIdx>> Pending; // ready but gated L0 allocs

  std::set<std::pair<Key, NodeIdx>> Ready;
  /// Whether a node is in Ready; the demand scan asks this often.
  std::vector<uint8_t> IsReady;
  void addReady(NodeIdx I) {
    Ready.insert({key(I), I});
    IsReady[I] = 1;
  }
  std::vector<NodeIdx> Order;

  // Demand-driven allocs: for each operation, its predecessors that are
  // ALLOCs without predecessors, and how many other predecessors remain.
  std::vector<SmallVector<NodeIdx, 2>> NeedAllocs;
  std::vector<uint32_t> HardLeft, NeedLeft;
  // The candidates (HardLeft 0, NeedLeft not 0) whose missing allocs are
  // all ready are kept scored, so that an ALLOC choice reads the best one
  // instead of rescanning every candidate. Per operation: its missing
  // allocs still held back by the L0 rule; the bytes its missing allocs add
  // per tier that counts in peak (their delta_pk, summed: Cost); and the
  // delta_pk of the FREEs it alone still keeps from being ready (FreeGain;
  // the net change is Cost + FreeGain).
  std::vector<uint32_t> HeldLeft;
  std::vector<int64_t> Cost, FreeGain;
  using AddBytes = std::array<int64_t, NumTiers>;
  std::vector<AddBytes> Add;
  /// Candidates that share a task rank and the bytes they add per tier
  /// also share the overflow term of the score, so each such bucket keeps
  /// its candidates by the rest of the score: (net, cost, key, node).
  using DemandEntry = std::tuple<int64_t, int64_t, Key, NodeIdx>;
  std::map<std::pair<int64_t, AddBytes>, std::set<DemandEntry>> Demand;
  bool demandListed(NodeIdx Op) const {
    return HardLeft[Op] == 0 && NeedLeft[Op] != 0 && HeldLeft[Op] == 0;
  }
  std::pair<int64_t, AddBytes> demandBucket(NodeIdx Op) const;
  void unlistDemand(NodeIdx Op);
  void listDemand(NodeIdx Op);
  void admit(NodeIdx A);
  NodeIdx Committed = None;
  uint64_t LiveL1UB = 0;
  /// Live bytes per tier.
  std::array<int64_t, NumTiers> TierLive{};
};

Error Scheduler::buildEdges() {
  V = G.size();
  Ord.assign(V, 0);
  for (uint32_t P = 0; P != G.Order.size(); ++P)
    Ord[G.Order[P]] = P;
  // A buffer's use must come between its ALLOC and its FREE whether or not
  // the graph says so with edges (traces do; a hand-written graph may not),
  // so the scheduler adds those orderings to the graph's edges.
  Preds.assign(V, {});
  DenseMap<uint64_t, NodeIdx> AllocOf, FreeOf;
  for (NodeIdx I : G.Order) {
    const Node &N = G[I];
    Preds[I].append(N.Preds.begin(), N.Preds.end());
    if (N.Kind == NodeKind::Alloc)
      AllocOf.try_emplace(N.Buf, I);
    else if (N.Kind == NodeKind::Free)
      FreeOf.try_emplace(N.Buf, I);
  }
  DenseSet<uint64_t> Used;
  for (NodeIdx I : G.Order) {
    const Node &N = G[I];
    if (N.Kind != NodeKind::Op)
      continue;
    for (uint64_t B : N.Bufs) {
      Used.insert(B);
      auto A = AllocOf.find(B);
      if (A != AllocOf.end() && !is_contained(Preds[I], A->second))
        Preds[I].push_back(A->second);
      auto F = FreeOf.find(B);
      if (F != FreeOf.end() && !is_contained(Preds[F->second], I))
        Preds[F->second].push_back(I);
    }
  }
  // A buffer no operation uses has no use to order its FREE after its
  // ALLOC, so that edge is added directly.
  for (auto [B, F] : FreeOf) {
    auto A = AllocOf.find(B);
    if (!Used.count(B) && A != AllocOf.end() &&
        !is_contained(Preds[F], A->second))
      Preds[F].push_back(A->second);
  }
  SuccBegin.assign(V + 1, 0);
  InDeg.assign(V, 0);
  for (NodeIdx I = 0; I != V; ++I) {
    InDeg[I] = Preds[I].size();
    for (NodeIdx P : Preds[I])
      ++SuccBegin[P + 1];
  }
  for (size_t I = 0; I != V; ++I)
    SuccBegin[I + 1] += SuccBegin[I];
  Succs.assign(SuccBegin[V], 0);
  std::vector<uint32_t> Fill(SuccBegin.begin(), SuccBegin.end() - 1);
  // Successors in input order keep everything below deterministic.
  for (NodeIdx I : G.Order)
    for (NodeIdx P : Preds[I])
      Succs[Fill[P]++] = I;
  return Error::success();
}

void Scheduler::computeCriticality() {
  // h(v) = c_v + max over successors; a reverse topological order comes
  // from Kahn's algorithm on the predecessors.
  std::vector<uint32_t> Deg = InDeg;
  std::vector<NodeIdx> Topo;
  Topo.reserve(V);
  for (NodeIdx I : G.Order)
    if (Deg[I] == 0)
      Topo.push_back(I);
  for (size_t K = 0; K != Topo.size(); ++K)
    for (uint32_t S = SuccBegin[Topo[K]]; S != SuccBegin[Topo[K] + 1]; ++S)
      if (--Deg[Succs[S]] == 0)
        Topo.push_back(Succs[S]);
  H.assign(V, 0);
  for (size_t K = Topo.size(); K-- > 0;) {
    NodeIdx I = Topo[K];
    int64_t Best = 0;
    for (uint32_t S = SuccBegin[I]; S != SuccBegin[I + 1]; ++S)
      Best = std::max(Best, H[Succs[S]]);
    H[I] = Best + (G[I].Kind == NodeKind::Op ? int64_t(G[I].Cycles) : 0);
  }
}

void Scheduler::buildBuffers() {
  Delta.assign(V, 0);
  Lambda.assign(V, 1);
  for (NodeIdx I : G.Order) {
    const Node &N = G[I];
    switch (N.Kind) {
    case NodeKind::Alloc: {
      BufInfo &B = Bufs[N.Buf];
      B.Alloc = I;
      B.BufTier = N.BufTier;
      B.Size = N.Size;
      Lambda[I] = 2;
      if (T.countsInPeak(N.BufTier))
        Delta[I] = int64_t(N.Size);
      break;
    }
    case NodeKind::Free:
      Bufs[N.Buf].Free = I;
      Lambda[I] = 0;
      if (T.countsInPeak(N.BufTier))
        Delta[I] = -int64_t(N.Size);
      break;
    case NodeKind::Op:
      for (uint64_t B : N.Bufs) {
        auto &Users = Bufs[B].Users;
        if (Users.empty() || Users.back() != I)
          Users.push_back(I);
      }
      break;
    default:
      break;
    }
  }
}

void Scheduler::buildGroups() {
  GatedAlloc.assign(V, 0);
  Admitted.assign(V, 0);
  WaitersOf.assign(V, {});
  if (Opts.L0 == L0Mode::Ignore)
    return;
  auto IsL0Buf = [&](uint64_t B) {
    auto It = Bufs.find(B);
    return It != Bufs.end() && It->second.Alloc != None &&
           T.isL0(It->second.BufTier);
  };
  // The consumer of an L0 buffer: its first user that also uses another L0
  // buffer (a MATMUL for its operands), else its last user; for a buffer no
  // operation uses, its FREE, so that the L0 rule holds its ALLOC back too.
  DenseMap<NodeIdx, uint32_t> ConsumerOf;
  for (NodeIdx I : G.Order) {
    const Node &N = G[I];
    if (N.Kind != NodeKind::Alloc || !T.isL0(N.BufTier))
      continue;
    const BufInfo &B = Bufs[N.Buf];
    if (B.Users.empty() && B.Free == None)
      continue;
    NodeIdx Cons = B.Users.empty() ? B.Free : B.Users.back();
    for (NodeIdx U : B.Users)
      if (any_of(G[U].Bufs,
                 [&](uint64_t O) { return O != N.Buf && IsL0Buf(O); })) {
        Cons = U;
        break;
      }
    auto [It, New] = ConsumerOf.try_emplace(Cons, Consumers.size());
    if (New)
      Consumers.push_back({Cons, {}, {}, {}, 0, false});
    Consumer &C = Consumers[It->second];
    C.Allocs.push_back(I);
    C.Bytes[static_cast<unsigned>(N.BufTier)] += N.Size;
    C.Count[static_cast<unsigned>(N.BufTier)] += 1;
    GatedAlloc[I] = 1;
  }
  // A consumer waits for its predecessors and those of its group's writers
  // (users of a group buffer that come before it), except the group itself.
  for (uint32_t CI = 0; CI != Consumers.size(); ++CI) {
    Consumer &C = Consumers[CI];
    SmallVector<NodeIdx, 8> Inside(C.Allocs.begin(), C.Allocs.end());
    Inside.push_back(C.Op);
    SmallVector<NodeIdx, 8> Writers;
    for (NodeIdx A : C.Allocs)
      for (NodeIdx U : Bufs[G[A].Buf].Users)
        if (Ord[U] < Ord[C.Op] && !is_contained(Inside, U)) {
          Inside.push_back(U);
          Writers.push_back(U);
        }
    // An ALLOC without predecessors can be taken at any time, so it never
    // keeps a consumer from opening.
    SmallVector<NodeIdx, 16> External;
    auto AddPreds = [&](NodeIdx W) {
      for (NodeIdx P : Preds[W])
        if (!is_contained(Inside, P) && !is_contained(External, P) &&
            !(G[P].Kind == NodeKind::Alloc && Preds[P].empty()))
          External.push_back(P);
    };
    AddPreds(C.Op);
    for (NodeIdx W : Writers)
      AddPreds(W);
    for (NodeIdx A : C.Allocs)
      AddPreds(A);
    C.External = External.size();
    for (NodeIdx P : External)
      WaitersOf[P].push_back(CI);
    if (C.External == 0)
      addOpenable(CI);
  }
}

Key Scheduler::key(NodeIdx I) const {
  int64_t L = Lambda[I], D = Delta[I], NegH = -H[I], O = Ord[I];
  int64_t R = Rank ? (*Rank)[I] : 0;
  switch (Opts.Weights) {
  case MPASWeights::Auto:
  case MPASWeights::Balanced:
    return {R, L, D, NegH, O};
  case MPASWeights::MemoryFirst:
    return {R, D, L, O, 0};
  case MPASWeights::CriticalityFirst:
    return {R, NegH, L, D, O};
  }
  return {R, L, D, NegH, O};
}

void Scheduler::makeReady(NodeIdx I) {
  if (gated(I))
    Pending.insert({key(I), I});
  else
    addReady(I);
}

bool Scheduler::fits(uint32_t CI) const {
  const Consumer &C = Consumers[CI];
  for (unsigned K = 0; K != NumTiers; ++K) {
    if (!C.Count[K])
      continue;
    if (Opts.L0 == L0Mode::Single) {
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
  Consumer &C = Consumers[CI];
  C.Opened = true;
  for (unsigned K = 0; K != NumTiers; ++K) {
    ReservedBytes[K] += C.Bytes[K];
    ReservedCount[K] += C.Count[K];
  }
  for (NodeIdx A : C.Allocs) {
    Admitted[A] = 1;
    auto It = Pending.find({key(A), A});
    if (It != Pending.end()) {
      Pending.erase(It);
      addReady(A);
      admit(A);
    }
  }
}

void Scheduler::tryOpen() {
  // In priority order, every consumer whose group fits now; one that does
  // not fit waits without blocking those behind it.
  if (!ScanAllOpenable) {
    llvm::sort(NewlyOpenable, [&](uint32_t A, uint32_t B) {
      return std::make_pair(key(Consumers[A].Op), A) <
             std::make_pair(key(Consumers[B].Op), B);
    });
    for (uint32_t CI : NewlyOpenable)
      if (!Consumers[CI].Opened && fits(CI)) {
        Openable.erase({key(Consumers[CI].Op), CI});
        open(CI);
      }
    NewlyOpenable.clear();
    return;
  }
  ScanAllOpenable = false;
  NewlyOpenable.clear();
  for (auto It = Openable.begin(); It != Openable.end();) {
    if (!fits(It->second)) {
      ++It;
      continue;
    }
    uint32_t CI = It->second;
    It = Openable.erase(It);
    open(CI);
  }
}

void Scheduler::schedule(NodeIdx I) {
  Order.push_back(I);
  const Node &N = G[I];
  if (N.Kind == NodeKind::Alloc || N.Kind == NodeKind::Free) {
    unsigned K = static_cast<unsigned>(N.BufTier);
    bool IsAlloc = N.Kind == NodeKind::Alloc;
    TierLive[K] += IsAlloc ? int64_t(N.Size) : -int64_t(N.Size);
    if (T.countsInPeak(N.BufTier)) {
      LiveL1UB = IsAlloc ? LiveL1UB + N.Size : LiveL1UB - N.Size;
      Stats.PeakL1UB = std::max(Stats.PeakL1UB, LiveL1UB);
    }
    if (T.isL0(N.BufTier)) {
      if (IsAlloc) {
        LiveBytes[K] += N.Size;
        ++LiveCount[K];
        if (GatedAlloc[I]) {
          ReservedBytes[K] -= N.Size;
          --ReservedCount[K];
        }
      } else {
        LiveBytes[K] -= std::min(LiveBytes[K], N.Size);
        LiveCount[K] -= LiveCount[K] ? 1 : 0;
        ScanAllOpenable = true;
      }
    }
  }
  Done[I] = 1;
  bool ByDemand = Opts.Allocs == AllocChoice::Demand;
  bool IsNeededAlloc = N.Kind == NodeKind::Alloc && Preds[I].empty();
  for (uint32_t S = SuccBegin[I]; S != SuccBegin[I + 1]; ++S) {
    NodeIdx Succ = Succs[S];
    if (--InDeg[Succ] == 0)
      makeReady(Succ);
    if (!ByDemand)
      continue;
    // A FREE waiting for one last predecessor now counts in that
    // operation's net change.
    if (InDeg[Succ] == 1 && G[Succ].Kind == NodeKind::Free && Delta[Succ])
      for (NodeIdx P : Preds[Succ])
        if (!Done[P]) {
          unlistDemand(P);
          FreeGain[P] += Delta[Succ];
          listDemand(P);
          break;
        }
    if (G[Succ].Kind != NodeKind::Op)
      continue;
    unlistDemand(Succ);
    if (IsNeededAlloc) {
      --NeedLeft[Succ];
      Cost[Succ] -= Delta[I];
      if (T.countsInPeak(N.BufTier))
        Add[Succ][static_cast<unsigned>(N.BufTier)] -= int64_t(N.Size);
    } else {
      --HardLeft[Succ];
    }
    listDemand(Succ);
  }
  for (uint32_t CI : WaitersOf[I])
    if (--Consumers[CI].External == 0 && !Consumers[CI].Opened)
      addOpenable(CI);
}

bool Scheduler::fallback() {
  // Nothing may run under the L0 rule: open the best consumer that waits
  // only for room, else admit the best held-back ALLOC on its own.
  ++Stats.Fallbacks;
  if (!Openable.empty()) {
    uint32_t CI = Openable.begin()->second;
    Openable.erase(Openable.begin());
    open(CI);
    return true;
  }
  if (!Pending.empty()) {
    NodeIdx A = Pending.begin()->second;
    Pending.erase(Pending.begin());
    Admitted[A] = 1;
    addReady(A);
    admit(A);
    return true;
  }
  return false;
}

void Scheduler::buildDemand() {
  NeedAllocs.assign(V, {});
  HardLeft.assign(V, 0);
  NeedLeft.assign(V, 0);
  HeldLeft.assign(V, 0);
  Cost.assign(V, 0);
  FreeGain.assign(V, 0);
  Add.assign(V, AddBytes{});
  for (NodeIdx I = 0; I != V; ++I) {
    if (G[I].Kind != NodeKind::Op)
      continue;
    for (NodeIdx P : Preds[I]) {
      if (G[P].Kind == NodeKind::Alloc && Preds[P].empty()) {
        NeedAllocs[I].push_back(P);
        // Every needed ALLOC is ready from the start unless the L0 rule
        // holds it back (admit() counts it down).
        HeldLeft[I] += gated(P);
        Cost[I] += Delta[P];
        if (T.countsInPeak(G[P].BufTier))
          Add[I][static_cast<unsigned>(G[P].BufTier)] += int64_t(G[P].Size);
      } else {
        ++HardLeft[I];
      }
    }
    NeedLeft[I] = NeedAllocs[I].size();
  }
  // A FREE with one predecessor becomes ready when that one runs.
  for (NodeIdx F = 0; F != V; ++F)
    if (G[F].Kind == NodeKind::Free && InDeg[F] == 1 && Delta[F])
      FreeGain[Preds[F].front()] += Delta[F];
  for (NodeIdx I = 0; I != V; ++I)
    if (G[I].Kind == NodeKind::Op)
      listDemand(I);
}

std::pair<int64_t, Scheduler::AddBytes>
Scheduler::demandBucket(NodeIdx Op) const {
  return {Rank ? int64_t((*Rank)[Op]) : 0,
          Opts.Objective == MPASObjective::Overflow ? Add[Op] : AddBytes{}};
}

void Scheduler::unlistDemand(NodeIdx Op) {
  if (!demandListed(Op))
    return;
  auto It = Demand.find(demandBucket(Op));
  It->second.erase({Cost[Op] + FreeGain[Op], Cost[Op], key(Op), Op});
  if (It->second.empty())
    Demand.erase(It);
}

void Scheduler::listDemand(NodeIdx Op) {
  if (demandListed(Op))
    Demand[demandBucket(Op)].insert(
        {Cost[Op] + FreeGain[Op], Cost[Op], key(Op), Op});
}

void Scheduler::admit(NodeIdx A) {
  // A needed ALLOC the L0 rule held back is ready now.
  if (Opts.Allocs != AllocChoice::Demand || !Preds[A].empty())
    return;
  for (uint32_t S = SuccBegin[A]; S != SuccBegin[A + 1]; ++S) {
    NodeIdx Op = Succs[S];
    if (G[Op].Kind != NodeKind::Op)
      continue;
    unlistDemand(Op);
    --HeldLeft[Op];
    listDemand(Op);
  }
}

NodeIdx Scheduler::demandAlloc() {
  // Keep feeding the operation chosen last time while it still needs allocs.
  auto NextNeeded = [&](NodeIdx Op) -> NodeIdx {
    for (NodeIdx A : NeedAllocs[Op])
      if (!Done[A] && IsReady[A])
        return A;
    return None;
  };
  if (Committed != None && !Done[Committed] && NeedLeft[Committed]) {
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
      for (unsigned TI = 0; TI != NumTiers; ++TI) {
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

Expected<MPASStats> Scheduler::run() {
  if (Error E = buildEdges())
    return E;
  buildBuffers();
  if (Opts.KeepInputOrder) {
    // Base: the input order as it is, if it is legal.
    std::vector<uint32_t> Pos = G.positions();
    for (NodeIdx I = 0; I != V; ++I)
      for (NodeIdx P : G[I].Preds)
        if (Pos[P] > Pos[I])
          return createStringError(
              inconvertibleErrorCode(),
              "the input order is not a schedule: %s runs before its "
              "predecessor %s",
              describeNode(G, I).c_str(), describeNode(G, P).c_str());
    Stats.PeakL1UB = peakL1UB(G, T);
    return Stats;
  }
  computeCriticality();
  buildGroups();
  Done.assign(V, 0);
  IsReady.assign(V, 0);
  if (Opts.Allocs == AllocChoice::Demand)
    buildDemand();
  for (NodeIdx I : G.Order)
    if (InDeg[I] == 0)
      makeReady(I);
  Order.reserve(V);
  while (Order.size() != V) {
    tryOpen();
    if (Ready.empty() && !fallback()) {
      // Located at the first node in input order that can never run.
      NodeIdx Stuck =
          *llvm::find_if(G.Order, [&](NodeIdx I) { return !Done[I]; });
      DiagList Diags;
      Diags.error(G[Stuck].Loc,
                  describeNode(G, Stuck) + " waits on a cycle of edges (" +
                      Twine(V - Order.size()) +
                      " nodes can never run); dan-verify shows the cycle");
      return Diags.takeError();
    }
    if (Ready.empty())
      continue;
    NodeIdx I = Ready.begin()->second;
    if (G[I].Kind == NodeKind::Alloc && Opts.Allocs == AllocChoice::Demand) {
      NodeIdx A = demandAlloc();
      if (A != None)
        I = A;
    }
    Ready.erase({key(I), I});
    IsReady[I] = 0;
    schedule(I);
  }
  G.Order = std::move(Order);
  return Stats;
}

} // namespace

static const EnumEntry<L0Mode> L0Modes[] = {
    {L0Mode::Auto, "auto",
     "order with capacity and with single, plan each with default dan-dlr, "
     "keep the least makespan + beta * extra traffic, then the least "
     "traffic (default)"},
    {L0Mode::Capacity, "capacity", "live L0 bytes never exceed the tier"},
    {L0Mode::Single, "single",
     "at most one live buffer per L0 tier (the contest's stage-1 rule)"},
    {L0Mode::Ignore, "ignore", "no L0 rule (the paper as written)"},
};

static const EnumEntry<MPASWeights> Weightings[] = {
    {MPASWeights::Auto, "auto",
     "order with each of the three below and keep the lowest peak L1+UB, "
     "ties to the first (default)"},
    {MPASWeights::Balanced, "balanced",
     "FREE first, then the smallest L1+UB pressure delta, the largest "
     "criticality, input order (the paper's eq. 21)"},
    {MPASWeights::MemoryFirst, "memory-first",
     "pressure delta, then FREE first, input order"},
    {MPASWeights::CriticalityFirst, "criticality-first",
     "criticality, then FREE first, pressure delta, input order"},
};

static const EnumEntry<AllocChoice> AllocChoices[] = {
    {AllocChoice::Demand, "demand",
     "the allocs of the operation with the smallest net change of live "
     "L1+UB bytes (default)"},
    {AllocChoice::Priority, "priority",
     "the ALLOC with the best priority (the paper as written)"},
};

static const EnumEntry<MPASObjective> Objectives[] = {
    {MPASObjective::Overflow, "overflow",
     "bytes beyond each tier's capacity, what stage 2 would have to spill; "
     "then live L1+UB bytes (default)"},
    {MPASObjective::Peak, "peak",
     "live L1+UB bytes only (the contest's stage-1 objective)"},
};

static const EnumEntry<Traversal> Traversals[] = {
    {Traversal::Auto, "auto",
     "with --l0=auto, a candidate selection: the tasks order alone on a "
     "reuse grid, else free, tasks, window and groups; otherwise free "
     "(default)"},
    {Traversal::Free, "free", "the list scheduler alone (the paper)"},
    {Traversal::Tasks, "tasks",
     "one task at a time: cache-blocked on a reuse grid, else in input "
     "order"},
    {Traversal::Window, "window",
     "the windowed exact search over operations (the magis baseline's "
     "order); L0 within capacity"},
    {Traversal::Groups, "groups",
     "the input order of the operations, the tasks taken --group at a time; "
     "L0 within capacity"},
};

ArrayRef<EnumEntry<L0Mode>> l0ModeTable() { return L0Modes; }
ArrayRef<EnumEntry<MPASWeights>> weightsTable() { return Weightings; }
ArrayRef<EnumEntry<AllocChoice>> allocChoiceTable() { return AllocChoices; }
ArrayRef<EnumEntry<MPASObjective>> objectiveTable() { return Objectives; }
ArrayRef<EnumEntry<Traversal>> traversalTable() { return Traversals; }

StringRef l0ModeName(L0Mode M) { return enumName(l0ModeTable(), M); }
StringRef traversalName(Traversal O) { return enumName(traversalTable(), O); }
StringRef weightsName(MPASWeights W) { return enumName(weightsTable(), W); }

/// Keys for Traversal::Groups: the group of the node's task (of the first
/// task reading its buffer, for a COPY_IN), then its input position.
static std::vector<uint64_t> groupKeys(const Graph &G, const TaskOrder &Tasks,
                                       unsigned Group) {
  constexpr uint32_t NoTask = UINT32_MAX;
  size_t V = G.size();
  auto GroupOf = [&](uint32_t Task) -> uint64_t {
    return Group ? Task / Group : 0;
  };
  DenseMap<uint64_t, uint64_t> GroupOfBuf;
  for (NodeIdx I : G.Order)
    if (Tasks.TaskOf[I] != NoTask && G[I].Kind == NodeKind::Op)
      for (uint64_t B : G[I].Bufs)
        GroupOfBuf.try_emplace(B, GroupOf(Tasks.TaskOf[I]));
  std::vector<uint32_t> Pos = G.positions();
  std::vector<uint64_t> Key(V);
  for (NodeIdx I = 0; I != V; ++I) {
    uint64_t Gr = 0;
    if (Tasks.TaskOf[I] != NoTask) {
      Gr = GroupOf(Tasks.TaskOf[I]);
    } else if (G[I].Kind == NodeKind::Op && !G[I].Bufs.empty()) {
      auto It = GroupOfBuf.find(G[I].Bufs.front());
      if (It != GroupOfBuf.end())
        Gr = It->second;
    }
    Key[I] = (Gr << 32) | Pos[I];
  }
  return Key;
}

Error checkMPASInput(const Graph &G) {
  // Located, and the same in every mode. (The input order itself need not
  // be a schedule: MPAS makes one.)
  return verifyNoMemoryPlan(G, "dan-mpas",
                            "orders a graph before memory planning (a trace)");
}

/// The order of one setting; \p Tasks holds the graph's tasks when the
/// traversal is Tasks or Groups.
static Expected<MPASStats> orderOne(Graph &G, const TargetDesc &T,
                                    const MPASOptions &Opts,
                                    const std::optional<TaskOrder> &Tasks) {
  if (Opts.Order == Traversal::Groups) {
    if (Error E = orderOperationsByKey(G, T, groupKeys(G, *Tasks, Opts.Group)))
      return E;
    MPASStats S;
    S.PeakL1UB = peakL1UB(G, T);
    S.GroupChosen = Opts.Group;
    return S;
  }
  if (Opts.Order == Traversal::Window) {
    if (Error E = orderWindowed(G, T))
      return E;
    MPASStats S;
    S.PeakL1UB = peakL1UB(G, T);
    return S;
  }
  // Under a task order the task rank comes first and the weights only order
  // nodes inside a task.
  bool ByTask = Opts.Order == Traversal::Tasks;
  Expected<MPASStats> S =
      Scheduler(G, T, Opts, ByTask ? &Tasks->Rank : nullptr).run();
  if (S)
    S->Chosen = Opts.Weights;
  return S;
}

Expected<MPASStats> runMPAS(Graph &G, const TargetDesc &T,
                            const MPASOptions &Opts,
                            const std::optional<TaskOrder> *Known) {
  if (Error E = checkMPASInput(G))
    return E;
  if (Opts.KeepInputOrder) {
    // Base: the input order as it is, if it is legal; no setting applies.
    Expected<MPASStats> S = Scheduler(G, T, Opts).run();
    if (S)
      S->L0Chosen = Opts.L0;
    return S;
  }
  if (Opts.L0 == L0Mode::Auto || Opts.Weights == MPASWeights::Auto ||
      Opts.Order == Traversal::Auto)
    return createStringError(inconvertibleErrorCode(),
                             "internal error: runMPAS orders under one "
                             "setting; the search layer resolves 'auto'");
  if ((Opts.Order == Traversal::Window || Opts.Order == Traversal::Groups) &&
      Opts.L0 != L0Mode::Capacity)
    return createStringError(
        inconvertibleErrorCode(),
        "--order=%s keeps the L0 tiers within capacity; it cannot follow "
        "--l0=%s",
        traversalName(Opts.Order).str().c_str(),
        l0ModeName(Opts.L0).str().c_str());
  std::optional<TaskOrder> Found;
  bool NeedsTasks =
      Opts.Order == Traversal::Tasks || Opts.Order == Traversal::Groups;
  if (!Known && NeedsTasks)
    Found = findTaskOrder(G, T);
  const std::optional<TaskOrder> &Tasks = Known ? *Known : Found;
  MPASOptions One = Opts;
  if (NeedsTasks && !Tasks)
    One.Order = Traversal::Free;
  Expected<MPASStats> S = orderOne(G, T, One, Tasks);
  if (!S)
    return S;
  S->L0Chosen = Opts.L0;
  S->OrderChosen = One.Order;
  if (Found) {
    S->Tasks = std::move(Found);
    S->Tasks->Rank.clear();
  }
  return S;
}

} // namespace dan
