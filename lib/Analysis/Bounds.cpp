//===- Bounds.cpp - Lower bounds that hold for every schedule -------------===//
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

#include "dan/Analysis/Bounds.h"
#include "dan/IR/NodeCosts.h"
#include "llvm/ADT/DenseMap.h"
#include "llvm/ADT/DenseSet.h"
#include "llvm/ADT/SmallVector.h"
#include "llvm/ADT/Twine.h"
#include "llvm/Support/MathExtras.h"
#include <algorithm>
#include <map>
#include <numeric>
#include <queue>
#include <set>
#include <unordered_map>

using namespace llvm;

namespace dan {

static const EnumEntry<L0Rule> L0Rules[] = {
    {L0Rule::Single, "single",
     "schedules with at most one live buffer per L0 tier (the contest's stage "
     "1; default)"},
    {L0Rule::Capacity, "capacity",
     "schedules whose live L0 bytes stay within each tier"},
    {L0Rule::Ignore, "ignore", "every schedule"},
};

ArrayRef<EnumEntry<L0Rule>> l0RuleTable() { return L0Rules; }

uint64_t bestOf(ArrayRef<LowerBound> Bounds) {
  uint64_t Best = 0;
  for (const LowerBound &B : Bounds)
    Best = std::max(Best, B.Value);
  return Best;
}

namespace {

constexpr uint32_t None = UINT32_MAX;

/// The graph as the peak bounds see it: its nodes but the spill nodes, its
/// edges (reuse edges aside) plus each buffer's ALLOC before and FREE after
/// every operation that uses it, in one topological order; and each buffer
/// with the operations that use it.
struct BoundGraph {
  struct Buffer {
    uint64_t Size = 0;
    Tier BufTier = Tier::L1;
    std::vector<NodeIdx> Users;
  };
  std::vector<SmallVector<NodeIdx, 4>> Preds, Succs;
  std::vector<NodeIdx> Topo;
  std::vector<Buffer> Buffers;
  /// Each operation's buffers, distinct, as indices into Buffers.
  std::vector<SmallVector<uint32_t, 4>> BufsOf;
};

Expected<BoundGraph> buildBoundGraph(const Graph &G, bool Timing) {
  size_t V = G.size();
  BoundGraph BG;
  BG.Preds.resize(V);
  BG.Succs.resize(V);
  BG.BufsOf.resize(V);
  DenseMap<uint64_t, uint32_t> IndexOf;
  std::vector<NodeIdx> AllocOf, FreeOf;
  auto BufferOf = [&](uint64_t Id) {
    auto [It, New] = IndexOf.try_emplace(Id, BG.Buffers.size());
    if (New) {
      BG.Buffers.emplace_back();
      AllocOf.push_back(None);
      FreeOf.push_back(None);
    }
    return It->second;
  };
  auto AddEdge = [&](NodeIdx From, NodeIdx To) {
    BG.Preds[To].push_back(From);
    BG.Succs[From].push_back(To);
  };
  for (NodeIdx I : G.Order) {
    const Node &N = G[I];
    if (N.Kind == NodeKind::Alloc || N.Kind == NodeKind::Free) {
      uint32_t B = BufferOf(N.Buf);
      (N.Kind == NodeKind::Alloc ? AllocOf : FreeOf)[B] = I;
      if (N.Kind == NodeKind::Alloc) {
        BG.Buffers[B].Size = N.Size;
        BG.Buffers[B].BufTier = N.BufTier;
      }
    } else if (N.Kind == NodeKind::Op) {
      for (uint64_t Id : N.Bufs) {
        uint32_t B = BufferOf(Id);
        if (!is_contained(BG.BufsOf[I], B)) {
          BG.BufsOf[I].push_back(B);
          BG.Buffers[B].Users.push_back(I);
        }
      }
    }
  }
  auto Skip = [&](NodeIdx I) { return !Timing && G[I].isSpill(); };
  for (NodeIdx I : G.Order) {
    if (Skip(I))
      continue;
    for (NodeIdx P : G[I].Preds)
      if (!Skip(P))
        AddEdge(P, I);
    if (Timing)
      for (NodeIdx P : G[I].ReusePreds)
        AddEdge(P, I);
    for (uint32_t B : BG.BufsOf[I]) {
      if (AllocOf[B] != None)
        AddEdge(AllocOf[B], I);
      if (FreeOf[B] != None)
        AddEdge(I, FreeOf[B]);
    }
  }
  // Kahn's algorithm, ties in schedule order.
  std::vector<uint32_t> InDeg(V, 0);
  size_t Count = 0;
  for (NodeIdx I : G.Order)
    if (!Skip(I)) {
      InDeg[I] = BG.Preds[I].size();
      ++Count;
    }
  for (NodeIdx I : G.Order)
    if (!Skip(I) && InDeg[I] == 0)
      BG.Topo.push_back(I);
  for (size_t K = 0; K != BG.Topo.size(); ++K)
    for (NodeIdx S : BG.Succs[BG.Topo[K]])
      if (--InDeg[S] == 0)
        BG.Topo.push_back(S);
  if (BG.Topo.size() != Count)
    return createStringError(
        inconvertibleErrorCode(),
        "the graph's edges, with each buffer's uses between its ALLOC and "
        "its FREE, have a cycle: no schedule exists (dan-verify shows it)");
  return BG;
}

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
  std::array<bool, NumTiers> FedTier{};
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
      std::array<bool, NumTiers> Reads{};
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
  std::array<uint64_t, NumTiers> L0Open{};
  std::array<uint64_t, NumTiers> L0Count{};
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
      for (unsigned TI = 0; TI != NumTiers; ++TI) {
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

/// One stretch a buffer may spend out of its tier: the positions strictly
/// between two consecutive events of the buffer.
struct Stretch {
  uint32_t First, Last; ///< positions, inclusive
  uint64_t Size;
};

/// The fewest bytes of \p Stretches that cover the demand at every
/// position (\p Demand: bytes above the capacity), each byte out for all
/// of its stretch's positions. Left to right, the demand still uncovered
/// at a position is taken from the open stretches that end last: a stretch
/// open at a position covers the later positions of any stretch open there
/// that ends sooner, and the positions before it are covered already, so
/// the greedy is ahead of any cover at every position (the interval matrix
/// is greedy in the sense of Hoffman, Kolen and Sakarovitch).
/// unittests/BoundsTest.cpp checks it against exhaustive search.
uint64_t leastBytesOut(std::vector<Stretch> &Stretches,
                       ArrayRef<uint64_t> Demand) {
  llvm::sort(Stretches, [](const Stretch &A, const Stretch &B) {
    return A.First < B.First;
  });
  using Open = std::pair<uint32_t, size_t>; // (last position, stretch)
  std::priority_queue<Open> Ends;
  std::vector<uint64_t> Left(Stretches.size());
  std::vector<uint64_t> Expire(Demand.size() + 1, 0);
  uint64_t Covered = 0, Total = 0;
  size_t Next = 0;
  for (uint32_t P = 0; P != Demand.size(); ++P) {
    Covered -= Expire[P];
    for (; Next != Stretches.size() && Stretches[Next].First <= P; ++Next) {
      Left[Next] = Stretches[Next].Size;
      Ends.push({Stretches[Next].Last, Next});
    }
    while (Covered < Demand[P] && !Ends.empty()) {
      auto [Last, K] = Ends.top();
      if (Last < P || Left[K] == 0) {
        Ends.pop();
        continue;
      }
      uint64_t Take = std::min(Left[K], Demand[P] - Covered);
      Left[K] -= Take;
      Covered += Take;
      Total += Take;
      Expire[Last + 1] += Take;
    }
  }
  return Total;
}

/// One tier's part of trafficLowerBound: its demand at each position and
/// its stretches, those of DDR-backed buffers (a byte out moves once) and
/// the others (a byte out moves twice, out and back).
struct TierStretches {
  std::vector<uint64_t> Demand;
  std::vector<Stretch> All, Written;
  std::vector<int64_t> BackedDelta; ///< backed stretch bytes, as differences
};

/// The least traffic of \p S: every cover takes at least the fewest bytes
/// out of all stretches at the backed price, and at least the fewest bytes
/// out of the written-back ones (for the demand the backed ones cannot
/// meet) at the difference of the prices.
uint64_t tierTraffic(TierStretches &S, uint64_t &BytesOut,
                     uint64_t &WrittenOut) {
  BytesOut = leastBytesOut(S.All, S.Demand);
  std::vector<uint64_t> Rest(S.Demand.size());
  int64_t Backed = 0;
  for (size_t P = 0; P != Rest.size(); ++P) {
    Backed += S.BackedDelta[P];
    Rest[P] = S.Demand[P] > uint64_t(Backed) ? S.Demand[P] - Backed : 0;
  }
  WrittenOut = leastBytesOut(S.Written, Rest);
  uint64_t Once = TargetDesc::spillTraffic(1, true);
  uint64_t Twice = TargetDesc::spillTraffic(1, false);
  return SaturatingAdd(SaturatingMultiply(BytesOut, Once),
                       SaturatingMultiply(WrittenOut, Twice - Once));
}

/// trafficLowerBound's value and text, with the bytes that must move in
/// and out (all tiers).
struct TrafficParts {
  LowerBound Bound;
  uint64_t In = 0, Out = 0;
};

TrafficParts trafficParts(const Graph &G, const TargetDesc &T) {
  // Positions of the non-spill nodes in schedule order; each buffer's
  // events there.
  std::vector<uint32_t> Pos(G.size(), None);
  uint32_t Count = 0;
  for (NodeIdx I : G.Order)
    if (!G[I].isSpill())
      Pos[I] = Count++;
  DenseMap<uint64_t, std::vector<uint32_t>> Events;
  DenseMap<uint64_t, NodeIdx> AllocOf;
  for (NodeIdx I : G.Order) {
    const Node &N = G[I];
    if (N.Kind == NodeKind::Alloc)
      AllocOf.try_emplace(N.Buf, I);
    if (N.Kind == NodeKind::Alloc || N.Kind == NodeKind::Free)
      Events[N.Buf].push_back(Pos[I]);
    else if (N.Kind == NodeKind::Op)
      for (uint64_t B : N.Bufs)
        Events[B].push_back(Pos[I]);
  }
  DenseSet<uint64_t> Backed = ddrBackedBuffers(G);
  std::array<TierStretches, NumTiers> Tiers;
  std::vector<std::vector<int64_t>> Live(NumTiers);
  for (TierStretches &S : Tiers)
    S.BackedDelta.assign(Count + 1, 0);
  for (auto &V : Live)
    V.assign(Count + 1, 0);
  for (auto &[B, List] : Events) {
    auto A = AllocOf.find(B);
    if (A == AllocOf.end())
      continue;
    unsigned TI = static_cast<unsigned>(G[A->second].BufTier);
    TierStretches &S = Tiers[TI];
    llvm::sort(List);
    uint64_t Size = G[A->second].Size;
    Live[TI][List.front()] += Size;
    Live[TI][List.back() + 1] -= Size;
    for (size_t K = 0; K + 1 < List.size(); ++K) {
      if (List[K] + 1 == List[K + 1])
        continue;
      Stretch St{List[K] + 1, List[K + 1] - 1, Size};
      S.All.push_back(St);
      if (Backed.contains(B)) {
        S.BackedDelta[St.First] += Size;
        S.BackedDelta[St.Last + 1] -= Size;
      } else {
        S.Written.push_back(St);
      }
    }
  }
  uint64_t Total = 0, In = 0, WrittenBack = 0;
  std::string Where;
  for (unsigned TI = 0; TI != NumTiers; ++TI) {
    TierStretches &S = Tiers[TI];
    uint64_t Cap = T.capacity(static_cast<Tier>(TI));
    int64_t Bytes = 0;
    S.Demand.assign(Count, 0);
    for (uint32_t P = 0; P != Count; ++P) {
      Bytes += Live[TI][P];
      S.Demand[P] = uint64_t(Bytes) > Cap ? uint64_t(Bytes) - Cap : 0;
    }
    if (llvm::all_of(S.Demand, [](uint64_t D) { return D == 0; }))
      continue;
    uint64_t Out = 0, Written = 0;
    Total = SaturatingAdd(Total, tierTraffic(S, Out, Written));
    In = SaturatingAdd(In, Out);
    WrittenBack = SaturatingAdd(WrittenBack, Written);
    Where += (Where.empty() ? "" : ", ") +
             tierName(static_cast<Tier>(TI)).str() + ": " +
             std::to_string(Out) + " bytes out, " + std::to_string(Written) +
             " of them written back";
  }
  return {{"byte-granular", Total, Where.empty() ? "no tier overflows" : Where},
          In,
          WrittenBack};
}

/// Each node's cycles and each pipe's total.
struct PipeLoads {
  std::vector<uint64_t> Cycles;
  std::array<uint64_t, NumPipes> Busy{};
};

PipeLoads pipeLoads(const Graph &G, const TargetDesc &T) {
  BufferCosts Costs = bufferCosts(G);
  PipeLoads L;
  L.Cycles.resize(G.size());
  for (NodeIdx I = 0; I != G.size(); ++I) {
    L.Cycles[I] = nodeCycles(G, I, T, Costs);
    if (std::optional<Pipe> P = nodePipe(G[I], T))
      L.Busy[static_cast<unsigned>(*P)] =
          SaturatingAdd(L.Busy[static_cast<unsigned>(*P)], L.Cycles[I]);
  }
  return L;
}

/// The busiest pipe of \p Busy as bound \p Method, the pipe's name
/// followed by \p Note as where it rests.
LowerBound busiestPipe(StringRef Method,
                       const std::array<uint64_t, NumPipes> &Busy,
                       StringRef Note = "") {
  unsigned Most = std::max_element(Busy.begin(), Busy.end()) - Busy.begin();
  return {Method.str(), Busy[Most],
          (pipeName(static_cast<Pipe>(Most)) + Note).str()};
}

} // namespace

LowerBound trafficLowerBound(const Graph &G, const TargetDesc &T) {
  return trafficParts(G, T).Bound;
}

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

std::vector<LowerBound> makespanLowerBounds(const Graph &G,
                                            const TargetDesc &T) {
  PipeLoads Loads = pipeLoads(G, T);
  std::vector<LowerBound> Out = {busiestPipe("busiest pipe", Loads.Busy)};
  // The longest path, over the graph's edges and each buffer's uses
  // between its ALLOC and its FREE (Kahn's order; a cycle leaves nodes
  // out, and the verifier reports it).
  Expected<BoundGraph> BG = buildBoundGraph(G, /*Timing=*/true);
  if (!BG) {
    consumeError(BG.takeError());
    return Out;
  }
  std::vector<uint64_t> Finish(G.size(), 0);
  uint64_t Longest = 0;
  NodeIdx End = None;
  for (NodeIdx I : BG->Topo) {
    uint64_t Start = 0;
    for (NodeIdx P : BG->Preds[I])
      Start = std::max(Start, Finish[P]);
    Finish[I] = SaturatingAdd(Start, Loads.Cycles[I]);
    if (Finish[I] > Longest || End == None) {
      Longest = Finish[I];
      End = I;
    }
  }
  Out.push_back({"critical path", Longest,
                 End == None ? "" : "ending at " + describeNode(G, End)});
  return Out;
}

OrderBounds orderLowerBounds(const Graph &G, const TargetDesc &T) {
  std::array<uint64_t, NumPipes> Busy = pipeLoads(G, T).Busy;
  // A plan of this order moves at least the traffic bound's bytes: back in
  // on the spill-in pipe, and out on the spill-out pipe for the buffers DDR
  // does not hold, costing at least one transfer's fixed cycles each way.
  TrafficParts P = trafficParts(G, T);
  auto Add = [&](NodeKind K, uint64_t Cycles) {
    unsigned Pi = static_cast<unsigned>(*T.nodePipe(K, Pipe::MTE1));
    Busy[Pi] = SaturatingAdd(Busy[Pi], Cycles);
  };
  if (P.In)
    Add(NodeKind::SpillIn, T.spillInCycles(P.In));
  if (P.Out)
    Add(NodeKind::SpillOut, T.spillOutCycles(P.Out, false));
  return {std::move(P.Bound),
          busiestPipe("with least spills", Busy,
                      ", with the transfers of the traffic bound")};
}

} // namespace dan
