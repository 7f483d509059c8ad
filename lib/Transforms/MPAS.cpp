//===- MPAS.cpp - Stage 1: memory-pressure-aware ordering -----------------===//
//
// A ready-set list scheduler (paper eqs. 17-21). The priority of a node is
// static, so one binary heap serves as the ready queue: (lambda, delta_pk,
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

#include "MPASScheduler.h"
#include "dan/Support/CSR.h"

using namespace llvm;

namespace dan {
namespace mpas {

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
  case MPASWeights::InputOrder:
    return {R, O, 0, 0, 0};
  }
  return {R, L, D, NegH, O};
}

void Scheduler::makeReady(NodeIdx I) {
  if (gated(I))
    addPending(I);
  else
    addReady(I);
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
        if (groupAlloc(I)) {
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
    // (Only an operation with needed ALLOCs is ever a candidate: the
    // counts of the others are not kept.)
    if (InDeg[Succ] == 1 && G[Succ].Kind == NodeKind::Free && Delta[Succ])
      for (NodeIdx P : Preds[Succ])
        if (!Done[P]) {
          if (DemandCounts *C = countsOf(P)) {
            unlistDemand(P, *C);
            C->FreeGain += Delta[Succ];
            listDemand(P, *C);
          }
          break;
        }
    DemandCounts *C = countsOf(Succ);
    if (!C)
      continue;
    unlistDemand(Succ, *C);
    if (IsNeededAlloc) {
      --C->NeedLeft;
      C->Cost -= Delta[I];
      if (T.countsInPeak(N.BufTier))
        C->Add[static_cast<unsigned>(N.BufTier)] -= int64_t(N.Size);
    } else {
      --C->HardLeft;
    }
    listDemand(Succ, *C);
  }
  if (Gating)
    for (uint32_t CI : Info.waitersOf(I))
      if (--External[CI] == 0 && !Opened[CI])
        addOpenable(CI);
}

/// Base: the input order as it is, if it is legal.
static Expected<MPASStats> keepInputOrder(const Graph &G, const TargetDesc &T,
                                          std::vector<NodeIdx> &Out) {
  std::vector<uint32_t> Pos = G.positions();
  for (NodeIdx I = 0, V = G.size(); I != V; ++I)
    for (NodeIdx P : G[I].Preds)
      if (Pos[P] > Pos[I]) {
        DiagList Diags;
        Diags.error(G[I].Loc,
                    "the input order is not a schedule: " + describeNode(G, I) +
                        " runs before its predecessor " + describeNode(G, P));
        Diags.note(G[P].Loc, describeNode(G, P) + " is scheduled here");
        return Diags.takeError();
      }
  MPASStats Stats;
  Stats.PeakL1UB = peakL1UB(G, T, G.Order);
  Out = G.Order;
  return Stats;
}

void Scheduler::rankByKey() {
  KeyPos.resize(V);
  if (Opts.Weights == MPASWeights::Auto ||
      Opts.Weights == MPASWeights::Balanced) {
    // The balanced key is the task rank, then what MPASGraphInfo sorted
    // by: a stable sort of its order by rank is the order of the keys (a
    // list per rank, the ranks' lists one after another).
    auto RankOf = [&](NodeIdx I) { return Rank ? (*Rank)[I] : 0; };
    CSRBuilder<NodeIdx> ByRank(Rank ? V + 1 : 1);
    for (NodeIdx I = 0; I != V; ++I)
      ByRank.count(RankOf(I));
    ByRank.startAdding();
    for (NodeIdx I : Info.BalancedOrder)
      ByRank.add(RankOf(I), I);
    std::vector<uint32_t> RankBegin;
    ByRank.finish(RankBegin, NodeAt);
  } else {
    NodeAt.resize(V);
    std::vector<std::pair<Key, NodeIdx>> Keys(V);
    for (NodeIdx I = 0; I != V; ++I)
      Keys[I] = {key(I), I};
    llvm::sort(Keys);
    for (uint32_t P = 0; P != V; ++P)
      NodeAt[P] = Keys[P].second;
  }
  for (uint32_t P = 0; P != V; ++P)
    KeyPos[NodeAt[P]] = P;
}

Expected<MPASStats> Scheduler::run(std::vector<NodeIdx> &Out) {
  rankByKey();
  startGroups();
  Done.assign(V, 0);
  IsReady.assign(V, 0);
  IsPending.assign(V, 0);
  if (Opts.Allocs == AllocChoice::Demand)
    startDemand();
  for (NodeIdx I : G.Order)
    if (InDeg[I] == 0)
      makeReady(I);
  Order.reserve(V);
  while (Order.size() != V) {
    tryOpen();
    if (firstReady() == None && !fallback()) {
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
    NodeIdx I = firstReady();
    if (I == None)
      continue;
    if (G[I].Kind == NodeKind::Alloc && Opts.Allocs == AllocChoice::Demand) {
      NodeIdx A = demandAlloc();
      if (A != None)
        I = A;
    }
    IsReady[I] = 0; // (its heap entry goes when it comes to the top)
    schedule(I);
  }
  Out = std::move(Order);
  Stats.SameUnderSingle = Opts.L0 == L0Mode::Capacity && !SingleDiffers;
  return Stats;
}

} // namespace mpas

static const EnumEntry<L0Mode> L0Modes[] = {
    {L0Mode::Auto, "auto",
     "order with capacity and with single, plan each with one dan-dlr setting "
     "(no release horizon), keep the least makespan + beta * extra traffic, "
     "then the least traffic (default)"},
    {L0Mode::Capacity, "capacity", "live L0 bytes never exceed the tier"},
    {L0Mode::Single, "single",
     "at most one live buffer per L0 tier (the contest's stage-1 rule)"},
    {L0Mode::Ignore, "ignore", "no L0 rule (the paper as written)"},
};

static const EnumEntry<MPASWeights> Weightings[] = {
    {MPASWeights::Auto, "auto",
     "order with each of the four below and keep the lowest peak (of the "
     "tiers that count in it), ties to the first (default)"},
    {MPASWeights::Balanced, "balanced",
     "FREE first, then the smallest pressure delta (of the tiers that "
     "count in the peak), the largest "
     "criticality, input order (the paper's eq. 21)"},
    {MPASWeights::MemoryFirst, "memory-first",
     "pressure delta, then FREE first, input order"},
    {MPASWeights::CriticalityFirst, "criticality-first",
     "criticality, then FREE first, pressure delta, input order"},
    {MPASWeights::InputOrder, "input-order",
     "the input order, as far as the edges and the L0 rule allow"},
};

static const EnumEntry<AllocChoice> AllocChoices[] = {
    {AllocChoice::Demand, "demand",
     "the allocs of the operation with the smallest net change of live "
     "bytes in the tiers that count in the peak (default)"},
    {AllocChoice::Priority, "priority",
     "the ALLOC with the best priority (the paper as written)"},
};

static const EnumEntry<MPASObjective> Objectives[] = {
    {MPASObjective::Overflow, "overflow",
     "bytes beyond each tier's capacity, what stage 2 would have to spill; "
     "then live bytes in the tiers that count in the peak (default)"},
    {MPASObjective::Peak, "peak",
     "live bytes in the tiers that count in the peak only (the contest's "
     "stage-1 objective)"},
};

static const EnumEntry<Traversal> Traversals[] = {
    {Traversal::Auto, "auto",
     "with --l0=auto, a candidate selection: the tasks order alone on a "
     "reuse grid, else free, tasks, window and groups; with --l0=single, "
     "free, groups and staged, with --l0=ignore, free and groups, the lowest "
     "peak; with --l0=capacity, free (default)"},
    {Traversal::Free, "free", "the list scheduler alone (the paper)"},
    {Traversal::Tasks, "tasks",
     "one task at a time: cache-blocked on a reuse grid, else in input "
     "order"},
    {Traversal::Window, "window",
     "the windowed exact search over operations (the magis baseline's "
     "order); L0 within capacity"},
    {Traversal::Groups, "groups",
     "the input order of the operations, the tasks taken --group at a time; "
     "L0 within capacity (with --l0=single, one live buffer per L0 tier; "
     "with --l0=ignore, every input tile moved into L0 first)"},
    {Traversal::Staged, "staged",
     "the input order of the operations in two stages: first those that need "
     "no vector result (attention's score matmuls), then the rest; with "
     "--l0=single a result waits in L0 until the tier is needed; L0 within "
     "capacity or one live buffer per tier, so not with --l0=ignore"},
    {Traversal::Input, "input",
     "keep the input order (the Base schedule); an input order that breaks "
     "an edge is an error"},
};

ArrayRef<EnumEntry<L0Mode>> l0ModeTable() { return L0Modes; }

ArrayRef<EnumEntry<MPASWeights>> weightsTable() { return Weightings; }

ArrayRef<EnumEntry<AllocChoice>> allocChoiceTable() { return AllocChoices; }

ArrayRef<EnumEntry<MPASObjective>> objectiveTable() { return Objectives; }

ArrayRef<EnumEntry<Traversal>> traversalTable() { return Traversals; }

StringRef l0ModeName(L0Mode M) { return enumName(l0ModeTable(), M); }

StringRef traversalName(Traversal O) { return enumName(traversalTable(), O); }

StringRef weightsName(MPASWeights W) { return enumName(weightsTable(), W); }

/// The moves of input tiles into L0, each with the load it reads: an
/// operation on two buffers, one in an L0 tier and one filled from DDR (its
/// first use loads it).
static std::vector<std::pair<NodeIdx, NodeIdx>>
inputMoves(const Graph &G, const TargetDesc &T) {
  DenseMap<uint64_t, NodeIdx> FirstUse;
  DenseMap<uint64_t, Tier> TierOf;
  for (NodeIdx I : G.Order) {
    const Node &N = G[I];
    if (N.Kind == NodeKind::Alloc)
      TierOf.try_emplace(N.Buf, N.BufTier);
    else if (N.Kind == NodeKind::Op)
      for (uint64_t B : N.Bufs)
        FirstUse.try_emplace(B, I);
  }
  std::vector<std::pair<NodeIdx, NodeIdx>> Out;
  for (NodeIdx I : G.Order) {
    const Node &N = G[I];
    if (N.Kind != NodeKind::Op || N.Bufs.size() != 2)
      continue;
    NodeIdx Load = UINT32_MAX;
    bool ToL0 = false;
    for (uint64_t B : N.Bufs) {
      auto T0 = TierOf.find(B);
      if (T0 == TierOf.end())
        break;
      if (T.isL0(T0->second)) {
        ToL0 = true;
        continue;
      }
      NodeIdx First = FirstUse.lookup(B);
      if (First != I && T.loadsFromDDR(G.opName(G[First])))
        Load = First;
    }
    if (ToL0 && Load != UINT32_MAX)
      Out.push_back({I, Load});
  }
  return Out;
}

/// Keys for Traversal::Groups: the group of the node's task (of the first
/// task reading its buffer, for a COPY_IN), then its input position. With
/// \p MovesFirst (the target; under --l0=ignore, where L0 holds anything),
/// the input tiles come before every group, one at a time: each load, then
/// every move of its tile into L0, so that the tile's FREE follows at once.
static std::vector<uint64_t> groupKeys(const Graph &G, const TaskOrder &Tasks,
                                       unsigned Group,
                                       const TargetDesc *MovesFirst) {
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
  if (MovesFirst) {
    for (uint64_t &K : Key)
      K += uint64_t(1) << 32;
    for (auto [Move, Load] : inputMoves(G, *MovesFirst))
      Key[Move] = Key[Load] = Pos[Load];
  }
  return Key;
}

/// Keys for Traversal::Staged: 1 for an operation on the target's vector
/// pipe or after one (through the edges), else 0; then the input position.
static std::vector<uint64_t> stagedKeys(const Graph &G) {
  size_t V = G.size();
  // The input order is a schedule (checkOrderInput), so one pass in it
  // sees every predecessor first.
  std::vector<uint8_t> AfterVector(V, 0);
  std::vector<uint64_t> Key(V);
  uint64_t Pos = 0;
  for (NodeIdx I : G.Order) {
    const Node &N = G[I];
    uint8_t &Late = AfterVector[I];
    Late = N.Kind == NodeKind::Op && N.OpPipe == G.Target.vectorPipe();
    for (NodeIdx P : N.Preds)
      Late |= AfterVector[P];
    Key[I] = (uint64_t(Late) << 32) | Pos++;
  }
  return Key;
}

/// The part of checkMPASInput that every candidate of a selection checks.
static Error checkNoPlan(const Graph &G) {
  return verifyNoMemoryPlan(G, "dan-mpas",
                            "orders a graph before memory planning (a trace)");
}

Error checkMPASInput(const Graph &G, const TargetDesc &T, bool Verified) {
  // Located, and the same in every mode. (The input order itself need not
  // be a schedule: MPAS makes one.)
  if (Error E = checkNoPlan(G))
    return E;
  if (Verified)
    return Error::success();
  return verifyPassInput(G, T, "dan-mpas", /*Scheduled=*/false);
}

/// The ALLOCs of \p Order that break the L0 rule (\p Single: a second live
/// buffer in an L0 tier; else bytes beyond the tier's capacity).
static uint64_t l0RuleBreaks(const Graph &G, const TargetDesc &T,
                             ArrayRef<NodeIdx> Order, bool Single) {
  std::array<uint64_t, MaxTiers> Bytes{};
  std::array<uint32_t, MaxTiers> Count{};
  uint64_t Breaks = 0;
  for (NodeIdx I : Order) {
    const Node &N = G[I];
    if ((N.Kind != NodeKind::Alloc && N.Kind != NodeKind::Free) ||
        !T.isL0(N.BufTier))
      continue;
    unsigned K = static_cast<unsigned>(N.BufTier);
    if (N.Kind == NodeKind::Free) {
      Bytes[K] -= std::min(Bytes[K], N.Size);
      Count[K] -= Count[K] ? 1 : 0;
      continue;
    }
    Bytes[K] += N.Size;
    ++Count[K];
    if (Single ? Count[K] > 1 : Bytes[K] > T.capacity(N.BufTier))
      ++Breaks;
  }
  return Breaks;
}

/// The order of one setting into \p Out; \p Tasks holds the graph's tasks
/// when the traversal is Tasks or Groups.
static Expected<MPASStats> orderOne(const Graph &G, const TargetDesc &T,
                                    const MPASOptions &Opts,
                                    const std::optional<TaskOrder> &Tasks,
                                    const MPASGraphInfo *Info,
                                    std::vector<NodeIdx> &Out) {
  if (Opts.Order == Traversal::Groups || Opts.Order == Traversal::Window ||
      Opts.Order == Traversal::Staged) {
    bool Single = Opts.L0 == L0Mode::Single;
    Expected<std::vector<NodeIdx>> Order =
        Opts.Order == Traversal::Groups
            ? orderOperationsByKey(
                  G, T,
                  groupKeys(G, *Tasks, Opts.Group,
                            Opts.L0 == L0Mode::Ignore ? &T : nullptr),
                  Opts.OpOrderInputChecked, Single, Opts.L0 == L0Mode::Ignore)
        : Opts.Order == Traversal::Staged
            ? orderOperationsByKey(G, T, stagedKeys(G),
                                   Opts.OpOrderInputChecked, Single)
            : orderWindowed(G, T, Opts.OpOrderInputChecked);
    if (!Order)
      return Order.takeError();
    Out = std::move(*Order);
    MPASStats S;
    S.PeakL1UB = mpas::peakL1UB(G, T, Out);
    if (Opts.Order == Traversal::Groups)
      S.GroupChosen = Opts.Group;
    return S;
  }
  // Under a task order the task rank comes first and the weights only order
  // nodes inside a task.
  bool ByTask = Opts.Order == Traversal::Tasks;
  std::optional<MPASGraphInfo> Own;
  if (!Info)
    Info = &Own.emplace(G, T);
  Expected<MPASStats> S =
      mpas::Scheduler(*Info, G, T, Opts, ByTask ? &Tasks->Rank : nullptr)
          .run(Out);
  if (S)
    S->Chosen = Opts.Weights;
  return S;
}

std::shared_ptr<const MPASGraphInfo> analyzeForMPAS(const Graph &G,
                                                    const TargetDesc &T) {
  return std::make_shared<const MPASGraphInfo>(G, T);
}

Expected<MPASStats>
orderMPAS(const Graph &G, const TargetDesc &T, const MPASOptions &Opts,
          std::vector<NodeIdx> &Order, const std::optional<TaskOrder> *Known,
          std::vector<NodeIdx> *Unplaced, const MPASGraphInfo *Info) {
  if (Error E = checkNoPlan(G))
    return E;
  if (Opts.Order == Traversal::Input) {
    // Base: the input order as it is, if it is legal; no setting applies.
    Expected<MPASStats> S = mpas::keepInputOrder(G, T, Order);
    if (S)
      S->L0Chosen = Opts.L0;
    return S;
  }
  if (Opts.L0 == L0Mode::Auto || Opts.Weights == MPASWeights::Auto ||
      Opts.Order == Traversal::Auto)
    return createStringError(inconvertibleErrorCode(),
                             "internal error: orderMPAS orders under one "
                             "setting; the search layer resolves 'auto'");
  if ((Opts.Order == Traversal::Window && Opts.L0 != L0Mode::Capacity) ||
      (Opts.Order == Traversal::Staged && Opts.L0 != L0Mode::Capacity &&
       Opts.L0 != L0Mode::Single))
    return createStringError(inconvertibleErrorCode(),
                             "--order=%s keeps the L0 tiers %s; it cannot "
                             "follow --l0=%s",
                             traversalName(Opts.Order).str().c_str(),
                             Opts.Order == Traversal::Window
                                 ? "within capacity"
                                 : "within capacity or to one live buffer each",
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
  Expected<MPASStats> S = orderOne(G, T, One, Tasks, Info, Order);
  if (!S)
    return S;
  // The placement step (docs/MPAS.md): whatever ordered the graph, every
  // ALLOC and its COPY_IN as late and every FREE as early as the order of
  // the other nodes allows; the peak is that of the placed order.
  if (Opts.Place) {
    S->UnplacedPeakL1UB = S->PeakL1UB;
    if (Unplaced)
      *Unplaced = Order;
    // The staged order under the one-buffer rule also leaves each result in
    // L0 until the tier is needed (placeLate's drains).
    bool Drain = One.Order == Traversal::Staged && Opts.L0 == L0Mode::Single;
    Order = placeLate(G, Order, Drain ? &T : nullptr);
    S->PeakL1UB = mpas::peakL1UB(G, T, Order);
    S->Placed = true;
  }
  // The orders of whole operations run an operation the L0 legalization
  // refuses when nothing else can run (one whose own buffers break the
  // rule): those count as fallbacks.
  bool ByOps = One.Order == Traversal::Groups ||
               One.Order == Traversal::Window || One.Order == Traversal::Staged;
  if (ByOps && Opts.L0 != L0Mode::Ignore)
    S->Fallbacks = l0RuleBreaks(G, T, Order, Opts.L0 == L0Mode::Single);
  S->L0Chosen = Opts.L0;
  S->OrderChosen = One.Order;
  if (Found) {
    S->Tasks = std::move(Found);
    S->Tasks->Rank.clear();
  }
  return S;
}

Expected<MPASStats> runMPAS(Graph &G, const TargetDesc &T,
                            const MPASOptions &Opts,
                            const std::optional<TaskOrder> *Known) {
  if (Error E = checkMPASInput(G, T))
    return E;
  std::vector<NodeIdx> Order;
  Expected<MPASStats> S = orderMPAS(G, T, Opts, Order, Known);
  if (S)
    G.Order = std::move(Order);
  return S;
}

} // namespace dan
