//===- BoundsPeak.cpp - Lower bounds on the peak of every schedule --------===//
//
// docs/Bounds.md states each method and why it is valid. In short, for the
// peak: when an operation runs, every buffer with a use at or before it and
// a use at or after it (in every schedule: by the edges) is live, so their
// bytes bound the peak; and the exact optimum of a subproblem (some
// operations, the precedence among them, only their own buffers, each live
// from its first to its last use among them) bounds it too, since every
// schedule of the graph restricted to those operations is a schedule of the
// subproblem whose live bytes are never more.
//
//===----------------------------------------------------------------------===//

#include "BoundGraph.h"
#include "dan/Analysis/Bounds.h"
#include "llvm/ADT/DenseMap.h"
#include "llvm/ADT/SmallVector.h"
#include "llvm/ADT/Twine.h"
#include "llvm/Support/MathExtras.h"
#include <algorithm>
#include <array>
#include <map>
#include <numeric>
#include <queue>
#include <set>
#include <unordered_map>

using namespace llvm;

namespace dan {

using detail::BoundGraph;
using detail::buildBoundGraph;
using detail::None;

static const EnumEntry<L0Rule> L0Rules[] = {
    {L0Rule::Single, "single",
     "schedules with at most one live buffer per L0 tier (the contest's stage "
     "1; default)"},
    {L0Rule::Capacity, "capacity",
     "schedules whose live L0 bytes stay within each tier"},
    {L0Rule::Ignore, "ignore", "every schedule"},
};

ArrayRef<EnumEntry<L0Rule>> l0RuleTable() { return L0Rules; }

namespace {

/// Per operation: the buffers an operation uses are live while it runs.
/// A buffer no operation uses is live alone at its ALLOC.
LowerBound perOperation(const Graph &G, const TargetDesc &T,
                        const BoundGraph &BG) {
  LowerBound Best{"per operation", 0, ""};
  for (NodeIdx I : BG.Topo) {
    uint64_t Sum = 0;
    for (uint32_t B : BG.BufsOf[I])
      if (T.countsInPeak(BG.Buffers[B].BufTier))
        Sum += BG.Buffers[B].Size;
    if (Sum > Best.Value)
      Best = {Best.Method, Sum, describeNode(G, I)};
  }
  for (const BoundGraph::Buffer &B : BG.Buffers)
    if (B.Users.empty() && T.countsInPeak(B.BufTier) && B.Size > Best.Value)
      Best = {Best.Method, B.Size, "a buffer no operation uses"};
  return Best;
}

/// Must be live: when operation X runs, a buffer with a use u and a use v
/// such that u reaches X and X reaches v (u or v may be X) is live in every
/// schedule. Reachability sets over the buffers, a block of them at a time.
std::optional<LowerBound> mustBeLive(const Graph &G, const TargetDesc &T,
                                     const BoundGraph &BG, uint64_t Budget) {
  std::vector<uint32_t> Counted;
  for (uint32_t B = 0; B != BG.Buffers.size(); ++B)
    if (T.countsInPeak(BG.Buffers[B].BufTier) && !BG.Buffers[B].Users.empty())
      Counted.push_back(B);
  size_t V = G.size(), E = 0;
  for (NodeIdx I : BG.Topo)
    E += BG.Preds[I].size();
  // Words per node and block: at most 64, and at most 256 MiB for both
  // directions.
  size_t Words =
      std::clamp<size_t>((size_t(256) << 20) / (16 * (V + 1)), 1, 64);
  size_t Blocks = (Counted.size() + 64 * Words - 1) / (64 * Words);
  if (Blocks * (V + E) * Words > Budget)
    return LowerBound{
        "must be live", 0,
        "not computed: " + std::to_string(Blocks * (V + E) * Words) +
            " words of work, above the budget of " + std::to_string(Budget)};
  std::vector<uint64_t> Sum(V, 0), Anc, Desc;
  std::vector<SmallVector<uint32_t, 4>> Own(V);
  for (size_t Block = 0; Block != Blocks; ++Block) {
    size_t First = Block * 64 * Words;
    size_t Last = std::min(Counted.size(), First + 64 * Words);
    for (auto &O : Own)
      O.clear();
    for (size_t K = First; K != Last; ++K)
      for (NodeIdx U : BG.Buffers[Counted[K]].Users)
        Own[U].push_back(K - First);
    Anc.assign(V * Words, 0);
    Desc.assign(V * Words, 0);
    auto Mark = [&](std::vector<uint64_t> &Set, NodeIdx I) {
      for (uint32_t Bit : Own[I])
        Set[I * Words + Bit / 64] |= uint64_t(1) << (Bit % 64);
    };
    for (NodeIdx I : BG.Topo) {
      for (NodeIdx P : BG.Preds[I])
        for (size_t W = 0; W != Words; ++W)
          Anc[I * Words + W] |= Anc[P * Words + W];
      Mark(Anc, I);
    }
    for (auto It = BG.Topo.rbegin(); It != BG.Topo.rend(); ++It) {
      NodeIdx I = *It;
      for (NodeIdx S : BG.Succs[I])
        for (size_t W = 0; W != Words; ++W)
          Desc[I * Words + W] |= Desc[S * Words + W];
      Mark(Desc, I);
    }
    for (NodeIdx I : BG.Topo) {
      if (G[I].Kind != NodeKind::Op)
        continue;
      for (size_t W = 0; W != Words; ++W)
        for (uint64_t M = Anc[I * Words + W] & Desc[I * Words + W]; M;
             M &= M - 1)
          Sum[I] += BG.Buffers[Counted[First + W * 64 + countr_zero(M)]].Size;
    }
  }
  LowerBound Best{"must be live", 0, ""};
  for (NodeIdx I : BG.Topo)
    if (Sum[I] > Best.Value)
      Best = {Best.Method, Sum[I], "while " + describeNode(G, I) + " runs"};
  return Best;
}

/// The tasks and lines of a task grid (taskGrid): which buffers are fed to
/// the L0 rule's tasks and which tasks each line of buffers feeds.
struct TaskLines {
  /// Per line (buffers fed to the same tasks): its tasks and its bytes.
  std::map<std::vector<uint32_t>, uint64_t> Lines;
  uint32_t Tasks = 0;
};

/// The lines of \p G under the L0 rule, or nothing when its shape is not
/// the one taskGrid's argument needs: task buffers (L0 buffers no single
/// load fills, all in one tier) each used by the operations of one task; fed
/// buffers (L0 buffers filled by one operation from one L1 or UB buffer,
/// read by the operations of one task, which read one fed buffer of every
/// fed tier); and lines, the L1 and UB buffers whose uses are such fills and
/// operations on them alone.
std::optional<TaskLines> findTaskLines(const Graph &G, const TargetDesc &T,
                                       const BoundGraph &BG) {
  size_t NB = BG.Buffers.size();
  auto IsL0 = [&](uint32_t B) { return T.isL0(BG.Buffers[B].BufTier); };
  std::vector<uint32_t> FedBy(NB, None), FedFrom(NB, None);
  DenseMap<NodeIdx, uint32_t> FillOf; // filling operation -> fed buffer
  for (uint32_t X = 0; X != NB; ++X) {
    if (!IsL0(X))
      continue;
    for (NodeIdx U : BG.Buffers[X].Users) {
      const auto &Bufs = BG.BufsOf[U];
      if (Bufs.size() != 2)
        continue;
      uint32_t Src = Bufs[0] == X ? Bufs[1] : Bufs[0];
      if (IsL0(Src) || !T.countsInPeak(BG.Buffers[Src].BufTier))
        continue;
      if (FedBy[X] != None)
        return std::nullopt; // filled twice
      FedBy[X] = U;
      FedFrom[X] = Src;
    }
    if (FedBy[X] != None)
      FillOf[FedBy[X]] = X;
  }
  // Tasks: the unfed L0 buffers, one tier, an operation in at most one.
  TaskLines Out;
  std::vector<uint32_t> TaskOfOp(G.size(), None);
  std::optional<Tier> TaskTier;
  for (uint32_t X = 0; X != NB; ++X) {
    if (!IsL0(X) || FedBy[X] != None || BG.Buffers[X].Users.empty())
      continue;
    if (TaskTier && *TaskTier != BG.Buffers[X].BufTier)
      return std::nullopt;
    TaskTier = BG.Buffers[X].BufTier;
    for (NodeIdx U : BG.Buffers[X].Users) {
      if (TaskOfOp[U] != None)
        return std::nullopt;
      TaskOfOp[U] = Out.Tasks;
    }
    ++Out.Tasks;
  }
  // Fed buffers: read within one task; a reader reads every fed tier.
  std::array<bool, MaxTiers> FedTier{};
  for (uint32_t X = 0; X != NB; ++X)
    if (FedBy[X] != None)
      FedTier[static_cast<unsigned>(BG.Buffers[X].BufTier)] = true;
  std::vector<uint32_t> TaskOfFed(NB, None);
  for (uint32_t X = 0; X != NB; ++X) {
    if (FedBy[X] == None)
      continue;
    for (NodeIdx U : BG.Buffers[X].Users) {
      if (U == FedBy[X])
        continue;
      if (TaskOfOp[U] == None ||
          (TaskOfFed[X] != None && TaskOfFed[X] != TaskOfOp[U]))
        return std::nullopt;
      TaskOfFed[X] = TaskOfOp[U];
      std::array<bool, MaxTiers> Reads{};
      for (uint32_t B : BG.BufsOf[U])
        if (FedBy[B] != None)
          Reads[static_cast<unsigned>(BG.Buffers[B].BufTier)] = true;
      if (Reads != FedTier)
        return std::nullopt;
    }
    if (TaskOfFed[X] == None)
      return std::nullopt;
  }
  // Lines.
  for (uint32_t B = 0; B != NB; ++B) {
    if (IsL0(B) || !T.countsInPeak(BG.Buffers[B].BufTier))
      continue;
    std::vector<uint32_t> Tasks;
    bool Line = true;
    for (NodeIdx U : BG.Buffers[B].Users) {
      if (BG.BufsOf[U].size() == 1)
        continue; // a load or a store of the buffer alone
      auto It = FillOf.find(U);
      if (It == FillOf.end() || FedFrom[It->second] != B) {
        Line = false;
        break;
      }
      Tasks.push_back(TaskOfFed[It->second]);
    }
    if (!Line || Tasks.empty())
      continue;
    llvm::sort(Tasks);
    Tasks.erase(std::unique(Tasks.begin(), Tasks.end()), Tasks.end());
    Out.Lines[Tasks] += BG.Buffers[B].Size;
  }
  return Out;
}

/// Task grid: under the L0 rule the tasks run one after another (their
/// buffers share one L0 tier), and at the boundary after a task's last
/// read of a fed buffer every line with tasks on both sides holds all its
/// buffers (each was filled for an earlier task and is filled again for a
/// later one, after that boundary since the fed tiers hold one buffer
/// each). When the lines form an n x m grid of the tasks (a row line and a
/// column line per task, every pair one task, n and m at least 3), take
/// the first prefix of tasks that completes a line. If it completes a row
/// alone, every column is started and none complete, and either another
/// row is started or the next task starts one without completing its
/// column (which has only two tasks done): all columns and one row are
/// split. Likewise for a column; if its task completes a row and a column
/// at once, every other row and column is split. docs/Bounds.md says more.
std::optional<LowerBound> taskGrid(const Graph &G, const TargetDesc &T,
                                   const BoundGraph &BG, L0Rule Rule) {
  if (Rule != L0Rule::Single)
    return std::nullopt;
  std::optional<TaskLines> TL = findTaskLines(G, T, BG);
  if (!TL || TL->Tasks == 0)
    return std::nullopt;
  // Each task on exactly two lines; the lines two-coloured into rows and
  // columns.
  std::vector<std::vector<uint32_t>> LinesOf(TL->Tasks);
  std::vector<uint64_t> Bytes;
  for (auto &[Tasks, Size] : TL->Lines) {
    for (uint32_t K : Tasks)
      LinesOf[K].push_back(Bytes.size());
    Bytes.push_back(Size);
  }
  std::vector<std::vector<uint32_t>> Adjacent(Bytes.size());
  for (auto &L : LinesOf) {
    if (L.size() != 2)
      return std::nullopt;
    Adjacent[L[0]].push_back(L[1]);
    Adjacent[L[1]].push_back(L[0]);
  }
  std::vector<int> Colour(Bytes.size(), -1);
  Colour[0] = 0;
  std::vector<uint32_t> Work = {0};
  while (!Work.empty()) {
    uint32_t L = Work.back();
    Work.pop_back();
    for (uint32_t M : Adjacent[L]) {
      if (Colour[M] == Colour[L])
        return std::nullopt;
      if (Colour[M] == -1) {
        Colour[M] = 1 - Colour[L];
        Work.push_back(M);
      }
    }
  }
  std::array<uint64_t, 2> Sum{}, Least = {UINT64_MAX, UINT64_MAX}, Most{};
  std::array<size_t, 2> Count{};
  for (size_t L = 0; L != Bytes.size(); ++L) {
    if (Colour[L] == -1)
      return std::nullopt; // not one grid
    unsigned C = Colour[L];
    ++Count[C];
    Sum[C] += Bytes[L];
    Least[C] = std::min(Least[C], Bytes[L]);
    Most[C] = std::max(Most[C], Bytes[L]);
  }
  std::set<std::pair<uint32_t, uint32_t>> Pairs;
  for (auto &L : LinesOf)
    Pairs.insert(Colour[L[0]] == 0 ? std::pair(L[0], L[1])
                                   : std::pair(L[1], L[0]));
  if (Count[0] < 3 || Count[1] < 3 || Pairs.size() != TL->Tasks ||
      Count[0] * Count[1] != TL->Tasks)
    return std::nullopt;
  uint64_t Value = std::min({Sum[1] + Least[0], Sum[0] + Least[1],
                             Sum[0] + Sum[1] - Most[0] - Most[1]});
  return LowerBound{"task grid", Value,
                    (Twine(Count[0]) + " x " + Twine(Count[1]) +
                     " tasks, each line's buffers live while it is split")
                        .str()};
}

/// One subproblem: up to 64 operations, the precedence among them, and the
/// buffers they use, each with the set of its users among them.
struct Window {
  std::vector<NodeIdx> Ops;
  std::vector<uint64_t> PredMask; ///< per operation: the ones before it
  struct Buf {
    uint64_t Size;
    uint64_t Users;
    bool Counted;
    int L0Tier; ///< -1 for a tier that is not L0
  };
  std::vector<Buf> Bufs;
  std::vector<SmallVector<uint32_t, 4>> BufsOf; ///< per operation
};

/// The window of operations Ops (contiguous in the topological order
/// \p TopoPos ranks): precedence through any node between them.
Window makeWindow(const Graph &G, const TargetDesc &T, const BoundGraph &BG,
                  ArrayRef<NodeIdx> Ops, ArrayRef<uint32_t> TopoPos) {
  Window W;
  W.Ops.assign(Ops.begin(), Ops.end());
  DenseMap<NodeIdx, unsigned> Local;
  for (unsigned K = 0; K != Ops.size(); ++K)
    Local[Ops[K]] = K;
  // A path between two of them only passes nodes between them in the
  // topological order.
  uint32_t Lo = TopoPos[Ops.front()], Hi = TopoPos[Ops.back()];
  DenseMap<NodeIdx, uint64_t> Before;
  for (uint32_t P = Lo; P <= Hi; ++P) {
    NodeIdx I = BG.Topo[P];
    uint64_t M = 0;
    for (NodeIdx Q : BG.Preds[I]) {
      if (TopoPos[Q] < Lo)
        continue;
      auto It = Before.find(Q);
      if (It != Before.end())
        M |= It->second;
      auto L = Local.find(Q);
      if (L != Local.end())
        M |= uint64_t(1) << L->second;
    }
    if (M)
      Before[I] = M;
  }
  W.PredMask.resize(Ops.size());
  W.BufsOf.resize(Ops.size());
  DenseMap<uint32_t, uint32_t> BufLocal;
  for (unsigned K = 0; K != Ops.size(); ++K) {
    auto It = Before.find(Ops[K]);
    W.PredMask[K] = It == Before.end() ? 0 : It->second;
    for (uint32_t B : BG.BufsOf[Ops[K]]) {
      auto [BL, New] = BufLocal.try_emplace(B, W.Bufs.size());
      if (New) {
        Tier Tr = BG.Buffers[B].BufTier;
        W.Bufs.push_back({BG.Buffers[B].Size, 0, T.countsInPeak(Tr),
                          T.isL0(Tr) ? int(Tr) : -1});
      }
      W.Bufs[BL->second].Users |= uint64_t(1) << K;
      W.BufsOf[K].push_back(BL->second);
    }
  }
  return W;
}

/// The least peak of the window's operations over the orders that keep
/// \p Rule, each buffer live from its first to its last use among them: a
/// best-first search over the sets of operations done, ordered by the peak
/// so far. Returns the least peak and whether the search finished; cut
/// off after \p Budget states it returns the peak it had reached, which no
/// order beats (every order passes through a state not yet expanded).
std::optional<std::pair<uint64_t, bool>> solveWindow(const Window &W,
                                                     const TargetDesc &T,
                                                     L0Rule Rule,
                                                     uint64_t Budget) {
  unsigned N = W.Ops.size();
  uint64_t All = N == 64 ? ~uint64_t(0) : (uint64_t(1) << N) - 1;
  using State = std::pair<uint64_t, uint64_t>; // (peak so far, done)
  std::priority_queue<State, std::vector<State>, std::greater<State>> Queue;
  // Done -> least peak pushed. Not a DenseMap: with 64 operations every
  // 64-bit value is a state, its reserved keys included.
  std::unordered_map<uint64_t, uint64_t> Seen;
  Queue.push({0, 0});
  Seen[0] = 0;
  uint64_t Expanded = 0;
  std::array<uint64_t, MaxTiers> L0Open{};
  std::array<uint64_t, MaxTiers> L0Count{};
  while (!Queue.empty()) {
    auto [Peak, Done] = Queue.top();
    Queue.pop();
    if (Done == All)
      return std::make_pair(Peak, true);
    if (Seen[Done] < Peak)
      continue;
    if (++Expanded > Budget)
      return std::make_pair(Peak, false);
    // What is open once the done operations ran: started, not finished.
    uint64_t Open = 0;
    L0Open.fill(0);
    L0Count.fill(0);
    for (const Window::Buf &B : W.Bufs) {
      if (!(B.Users & Done) || !(B.Users & ~Done))
        continue;
      if (B.Counted)
        Open += B.Size;
      if (B.L0Tier >= 0) {
        L0Open[B.L0Tier] += B.Size;
        ++L0Count[B.L0Tier];
      }
    }
    for (unsigned K = 0; K != N; ++K) {
      uint64_t Bit = uint64_t(1) << K;
      if ((Done & Bit) || (W.PredMask[K] & ~Done))
        continue;
      uint64_t Live = Open;
      auto Bytes = L0Open;
      auto Count = L0Count;
      for (uint32_t BI : W.BufsOf[K]) {
        const Window::Buf &B = W.Bufs[BI];
        if (B.Users & Done)
          continue; // already open
        if (B.Counted)
          Live += B.Size;
        if (B.L0Tier >= 0) {
          Bytes[B.L0Tier] += B.Size;
          ++Count[B.L0Tier];
        }
      }
      bool Legal = true;
      for (unsigned TI = 0; TI != T.numTiers(); ++TI) {
        if (Rule == L0Rule::Single && Count[TI] > 1)
          Legal = false;
        if (Rule == L0Rule::Capacity && Count[TI] &&
            Bytes[TI] > T.capacity(static_cast<Tier>(TI)))
          Legal = false;
      }
      if (!Legal)
        continue;
      uint64_t Next = std::max(Peak, Live);
      auto [It, New] = Seen.try_emplace(Done | Bit, Next);
      if (!New && It->second <= Next)
        continue;
      It->second = Next;
      Queue.push({Next, Done | Bit});
    }
  }
  return std::nullopt; // no order keeps the rule
}

/// Exact subproblems: windows of consecutive operations in the topological
/// order, centred on the operations with the most bytes in use first, until
/// the budget of states is spent.
std::optional<LowerBound> exactWindows(const Graph &G, const TargetDesc &T,
                                       const BoundGraph &BG,
                                       const PeakBoundOptions &Opts) {
  std::vector<NodeIdx> Ops;
  std::vector<uint32_t> TopoPos(G.size(), None);
  for (uint32_t P = 0; P != BG.Topo.size(); ++P) {
    TopoPos[BG.Topo[P]] = P;
    if (G[BG.Topo[P]].Kind == NodeKind::Op)
      Ops.push_back(BG.Topo[P]);
  }
  size_t Size = std::min<size_t>({Opts.WindowOps, 64, Ops.size()});
  if (Size == 0)
    return std::nullopt;
  // Centres: operations by the bytes they use, most first (ties: earlier).
  std::vector<uint64_t> Uses(Ops.size(), 0);
  for (size_t K = 0; K != Ops.size(); ++K)
    for (uint32_t B : BG.BufsOf[Ops[K]])
      if (T.countsInPeak(BG.Buffers[B].BufTier))
        Uses[K] += BG.Buffers[B].Size;
  std::vector<size_t> Centres(Ops.size());
  std::iota(Centres.begin(), Centres.end(), 0);
  llvm::stable_sort(Centres,
                    [&](size_t A, size_t B) { return Uses[A] > Uses[B]; });
  std::vector<uint8_t> Covered(Ops.size(), 0), Solved(Ops.size(), 0);
  uint64_t Spent = 0, TotalBudget = Opts.StatesPerWindow * 16;
  LowerBound Best{"exact subproblem", 0, ""};
  for (size_t C : Centres) {
    if (Covered[C] || Spent >= TotalBudget)
      continue;
    size_t First = C >= Size / 2 ? C - Size / 2 : 0;
    First = std::min(First, Ops.size() - Size);
    if (Solved[First]) // the same window as an earlier centre's
      continue;
    Solved[First] = 1;
    for (size_t K = First + Size / 4; K < First + Size - Size / 4; ++K)
      Covered[K] = 1;
    Covered[C] = 1;
    Window W = makeWindow(G, T, BG, ArrayRef(Ops).slice(First, Size), TopoPos);
    uint64_t Budget = std::min(Opts.StatesPerWindow, TotalBudget - Spent);
    std::optional<std::pair<uint64_t, bool>> R =
        solveWindow(W, T, Opts.L0, Budget);
    Spent += Budget; // counted in full: a bound on the work, not a measure
    if (!R || R->first <= Best.Value)
      continue;
    Best = {Best.Method, R->first,
            (Twine(Size) + " operations from " + describeNode(G, Ops[First]) +
             " to " + describeNode(G, Ops[First + Size - 1]) +
             (R->second ? ", optimal" : ", search cut off"))
                .str()};
  }
  return Best;
}

} // namespace

Expected<std::vector<LowerBound>>
peakLowerBounds(const Graph &G, const TargetDesc &T,
                const PeakBoundOptions &Opts) {
  Expected<BoundGraph> BG = buildBoundGraph(G, /*Timing=*/false);
  if (!BG)
    return BG.takeError();
  std::vector<LowerBound> Out = {perOperation(G, T, *BG)};
  if (std::optional<LowerBound> M = mustBeLive(G, T, *BG, Opts.MustLiveWords))
    Out.push_back(*M);
  if (std::optional<LowerBound> X = exactWindows(G, T, *BG, Opts))
    Out.push_back(*X);
  if (std::optional<LowerBound> X = taskGrid(G, T, *BG, Opts.L0))
    Out.push_back(*X);
  return Out;
}

} // namespace dan
