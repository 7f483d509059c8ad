//===- CPEList.cpp - List schedules that keep the memory plan -------------===//
//
// Stage 3's other starting points (docs/CPE.md, "List schedules"): a
// non-delay list schedule of the whole graph on the pipes, under every
// stored edge, that keeps the memory plan by keeping the order of the
// buffer nodes (of each tier, or of all of them) and keeping every
// operation between the same nodes of each buffer it uses.
//
//===----------------------------------------------------------------------===//

#include "CPESearch.h"
#include <queue>

namespace dan {
namespace cpe {

namespace {

/// The tier of every buffer that has an ALLOC, for its spill nodes.
DenseMap<uint64_t, Tier> tiersOfBuffers(const Graph &G) {
  DenseMap<uint64_t, Tier> TierOf;
  for (const Node &N : G.Nodes)
    if (N.Kind == NodeKind::Alloc)
      TierOf.try_emplace(N.Buf, N.BufTier);
  return TierOf;
}

/// The constraints of a list schedule, beside the graph's stored edges
/// (which delay a node until its predecessor finishes): "order" edges,
/// which only ask that a node not start before, nor be listed before, its
/// predecessor.
struct Constraints {
  std::vector<SmallVector<NodeIdx, 4>> FinishSuccs, OrderSuccs;
  std::vector<uint32_t> Waiting; // predecessors of either kind not listed
};

Constraints buildConstraints(const Graph &G, ListChains Chains) {
  size_t V = G.size();
  Constraints C;
  C.FinishSuccs.resize(V);
  C.OrderSuccs.resize(V);
  C.Waiting.assign(V, 0);
  auto Finish = [&](NodeIdx P, NodeIdx S) {
    C.FinishSuccs[P].push_back(S);
    ++C.Waiting[S];
  };
  auto Order = [&](NodeIdx P, NodeIdx S) {
    C.OrderSuccs[P].push_back(S);
    ++C.Waiting[S];
  };
  for (NodeIdx I = 0; I != V; ++I) {
    for (NodeIdx P : G[I].Preds)
      Finish(P, I);
    for (NodeIdx P : G[I].ReusePreds)
      Finish(P, I);
  }
  DenseMap<uint64_t, Tier> TierOf = tiersOfBuffers(G);
  // The buffer nodes in chains; each operation after the last node of each
  // of its buffers before it, and before the next one.
  std::array<NodeIdx, MaxTiers + 1> LastOfChain;
  LastOfChain.fill(None);
  NodeIdx LastSpill = None;
  DenseMap<uint64_t, NodeIdx> LastOfBuffer;
  DenseMap<uint64_t, SmallVector<NodeIdx, 4>> UsersSinceLast;
  for (NodeIdx I : G.Order) {
    const Node &N = G[I];
    if (N.Kind == NodeKind::Op) {
      for (uint64_t B : N.Bufs) {
        auto It = LastOfBuffer.find(B);
        if (It != LastOfBuffer.end())
          Order(It->second, I);
        UsersSinceLast[B].push_back(I);
      }
      continue;
    }
    // Spill nodes are numbered in schedule order, so they keep their order
    // among themselves too.
    auto T = TierOf.find(N.Buf);
    unsigned Chain = Chains == ListChains::All || T == TierOf.end()
                         ? MaxTiers
                         : static_cast<unsigned>(T->second);
    if (LastOfChain[Chain] != None)
      Order(LastOfChain[Chain], I);
    LastOfChain[Chain] = I;
    if (N.isSpill() && Chains == ListChains::Tier) {
      if (LastSpill != None && LastSpill != LastOfChain[Chain] &&
          !is_contained(C.OrderSuccs[LastSpill], I))
        Order(LastSpill, I);
      LastSpill = I;
    }
    LastOfBuffer[N.Buf] = I;
    auto Users = UsersSinceLast.find(N.Buf);
    if (Users != UsersSinceLast.end()) {
      for (NodeIdx U : Users->second)
        if (!is_contained(C.OrderSuccs[U], I))
          Order(U, I);
      Users->second.clear();
    }
  }
  return C;
}

/// One list schedule (listSchedule), a decision a method: when a node may
/// start (arrive), whether it may be listed under the peak bound (mayList),
/// what listing it releases (list), and what runs at each moment (step).
class ListScheduler {
public:
  ListScheduler(const Graph &G, const TargetDesc &T, ListChains Chains,
                ListPriority Priority, uint64_t PeakBound)
      : G(G), T(T), PeakBound(PeakBound), V(G.size()),
        C(buildConstraints(G, Chains)), Costs(bufferCosts(G)), Cycles(V),
        PipeOf(V, NoPipe), Pos(G.positions()), Level(V, 0), Earliest(V, 0),
        Finish(V, 0), TierOf(tiersOfBuffers(G)) {
    for (NodeIdx I = 0; I != V; ++I) {
      Cycles[I] = nodeCycles(G, I, T, Costs);
      if (std::optional<Pipe> P = nodePipe(G, I, T, Costs))
        PipeOf[I] = static_cast<uint8_t>(*P);
    }
    if (Priority == ListPriority::CriticalPath)
      computeLevels();
  }

  std::vector<NodeIdx> run() {
    Order.reserve(V);
    for (NodeIdx I : G.Order)
      if (!C.Waiting[I])
        arrive(I);
    while (Order.size() != V)
      if (!step())
        break; // a cycle of constraints: cannot happen on a verified input
    return std::move(Order);
  }

private:
  /// Higher level first, then the earlier input position.
  using Key = std::pair<uint64_t, uint32_t>;
  using Entry = std::pair<Key, NodeIdx>;
  using MinHeap =
      std::priority_queue<Entry, std::vector<Entry>, std::greater<Entry>>;

  void computeLevels();
  Key keyOf(NodeIdx I) const { return {~Level[I], Pos[I]}; }
  MinHeap &queueOf(NodeIdx I) {
    return Queue[PipeOf[I] == NoPipe ? MaxPipes : PipeOf[I]];
  }
  void enqueue(NodeIdx I) { queueOf(I).push({keyOf(I), I}); }
  void arrive(NodeIdx I) {
    if (Earliest[I] <= Now)
      enqueue(I);
    else
      Future.push({Earliest[I], I});
  }
  uint64_t counted(NodeIdx I) const;
  bool mayList(NodeIdx I);
  void list(NodeIdx I, uint64_t Start);
  bool listNow();
  bool step();

  const Graph &G;
  const TargetDesc &T;
  uint64_t PeakBound;
  size_t V;
  Constraints C;
  BufferCosts Costs;
  std::vector<uint64_t> Cycles;
  std::vector<uint8_t> PipeOf;
  std::vector<uint32_t> Pos;
  /// The longest path from a node's start to the end (its "bottom level").
  std::vector<uint64_t> Level;
  std::array<MinHeap, MaxPipes + 1> Queue; // MaxPipes: no pipe
  /// Listed-ready nodes by their earliest start.
  std::priority_queue<std::pair<uint64_t, NodeIdx>,
                      std::vector<std::pair<uint64_t, NodeIdx>>,
                      std::greater<std::pair<uint64_t, NodeIdx>>>
      Future;
  std::vector<uint64_t> Earliest, Finish;
  std::array<uint64_t, MaxPipes> PipeFree{};
  uint64_t Now = 0;
  DenseMap<uint64_t, Tier> TierOf;
  /// Live L1+UB bytes in listing order; a placement that would pass
  /// PeakBound waits in Held for a release, unless Forced.
  uint64_t Live = 0;
  std::vector<NodeIdx> Held;
  NodeIdx Forced = None;
  std::vector<NodeIdx> Order;
};

void ListScheduler::computeLevels() {
  // Every stored edge and the order edges counted; the input order lists
  // every constraint's predecessor first, so its reverse is a reverse
  // topological order.
  for (size_t K = G.Order.size(); K-- != 0;) {
    NodeIdx I = G.Order[K];
    uint64_t After = 0, Along = 0;
    for (NodeIdx S : C.FinishSuccs[I])
      After = std::max(After, Level[S]);
    for (NodeIdx S : C.OrderSuccs[I])
      Along = std::max(Along, Level[S]);
    Level[I] = std::max(SaturatingAdd(After, Cycles[I]), Along);
  }
}

uint64_t ListScheduler::counted(NodeIdx I) const {
  const Node &N = G[I];
  if (N.Kind == NodeKind::Op)
    return 0;
  auto It = TierOf.find(N.Buf);
  if (It == TierOf.end() || !T.countsInPeak(It->second))
    return 0;
  const BufferCost *Cost = Costs.find(N.Buf);
  return Cost ? Cost->Size : 0;
}

bool ListScheduler::mayList(NodeIdx I) {
  if (!G[I].isPlacement() || I == Forced || Live + counted(I) <= PeakBound)
    return true;
  Held.push_back(I);
  return false;
}

void ListScheduler::list(NodeIdx I, uint64_t Start) {
  Order.push_back(I);
  if (G[I].isPlacement()) {
    Live += counted(I);
  } else if (uint64_t Bytes = counted(I)) {
    Live -= std::min(Live, Bytes);
    for (NodeIdx H : Held)
      enqueue(H);
    Held.clear();
  }
  Finish[I] = SaturatingAdd(Start, Cycles[I]);
  for (NodeIdx S : C.OrderSuccs[I]) {
    Earliest[S] = std::max(Earliest[S], Start);
    if (--C.Waiting[S] == 0)
      arrive(S);
  }
  for (NodeIdx S : C.FinishSuccs[I]) {
    Earliest[S] = std::max(Earliest[S], Finish[I]);
    if (--C.Waiting[S] == 0)
      arrive(S);
  }
}

/// Lists a node that takes no pipe, else one for the first idle pipe that
/// has one, each the best that may start now; whether it listed one.
bool ListScheduler::listNow() {
  while (!Queue[MaxPipes].empty()) {
    NodeIdx I = Queue[MaxPipes].top().second;
    Queue[MaxPipes].pop();
    if (mayList(I)) {
      list(I, Now);
      return true;
    }
  }
  for (unsigned P = 0; P != T.numPipes(); ++P)
    while (PipeFree[P] <= Now && !Queue[P].empty()) {
      NodeIdx I = Queue[P].top().second;
      Queue[P].pop();
      if (!mayList(I))
        continue;
      PipeFree[P] = SaturatingAdd(Now, Cycles[I]);
      list(I, Now);
      return true;
    }
  return false;
}

/// Lists what may start now, else moves on to the next time something can
/// (or lets the best held placement pass the bound); false when nothing
/// ever can.
bool ListScheduler::step() {
  while (!Future.empty() && Future.top().first <= Now) {
    NodeIdx I = Future.top().second;
    Future.pop();
    enqueue(I);
  }
  if (listNow())
    return true;
  uint64_t Next = UINT64_MAX;
  if (!Future.empty())
    Next = Future.top().first;
  for (unsigned P = 0; P != T.numPipes(); ++P)
    if (!Queue[P].empty())
      Next = std::min(Next, PipeFree[P]);
  if (Next != UINT64_MAX) {
    Now = Next;
    return true;
  }
  if (Held.empty())
    return false;
  // Every placement that may run waits for room that only a later
  // placement's consumers release: the best of them passes the bound.
  auto Best = llvm::min_element(
      Held, [&](NodeIdx A, NodeIdx B) { return keyOf(A) < keyOf(B); });
  Forced = *Best;
  Held.erase(Best);
  enqueue(Forced);
  return true;
}

} // namespace

std::vector<NodeIdx> listSchedule(const Graph &G, const TargetDesc &T,
                                  ListChains Chains, ListPriority Priority,
                                  uint64_t PeakBound) {
  return ListScheduler(G, T, Chains, Priority, PeakBound).run();
}

std::vector<NodeIdx> bestListSchedule(Graph &G, ArrayRef<NodeIdx> Input,
                                      const TargetDesc &T, uint64_t PeakBound,
                                      uint64_t &Makespan) {
  G.Order.assign(Input.begin(), Input.end());
  // Without a plan the L1+UB peak in schedule order is stage 1's metric,
  // which only the order of all buffer nodes keeps.
  ListChains Chains = G.hasMemoryPlan() ? ListChains::Tier : ListChains::All;
  std::vector<NodeIdx> Best;
  Makespan = UINT64_MAX;
  for (ListPriority P : {ListPriority::CriticalPath, ListPriority::Input}) {
    std::vector<NodeIdx> Order = listSchedule(G, T, Chains, P, PeakBound);
    std::swap(G.Order, Order);
    uint64_t M = replay(G, T).Makespan;
    std::swap(G.Order, Order);
    if (M < Makespan) {
      Makespan = M;
      Best = std::move(Order);
    }
  }
  return Best;
}

bool keepsPlanOrder(const Graph &G, ArrayRef<NodeIdx> A, ArrayRef<NodeIdx> B,
                    bool AllBufferNodes) {
  DenseMap<uint64_t, Tier> TierOf = tiersOfBuffers(G);
  // Per tier, then the spill nodes (index MaxTiers); with AllBufferNodes,
  // every buffer node in the first sequence.
  using Sequences = std::array<std::vector<NodeIdx>, MaxTiers + 1>;
  auto Split = [&](ArrayRef<NodeIdx> Order) {
    Sequences Seq;
    for (NodeIdx I : Order) {
      const Node &N = G[I];
      if (!N.isBufferNode())
        continue;
      auto It = TierOf.find(N.Buf);
      Seq[AllBufferNodes || It == TierOf.end()
              ? 0
              : static_cast<unsigned>(It->second)]
          .push_back(I);
      if (N.isSpill())
        Seq[MaxTiers].push_back(I);
    }
    return Seq;
  };
  return Split(A) == Split(B);
}

} // namespace cpe
} // namespace dan
