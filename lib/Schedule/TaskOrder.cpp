//===- TaskOrder.cpp - One task at a time, cache-blocked on a grid --------===//
//
// Cost: O(V + E) to find tasks and lines, then one simulation per candidate
// blocking, at most 32 + O(log(Rows + Cols)) candidates (stripWidths) of
// O(U log U) each, U being the reads of DDR-backed buffers.
//
//===----------------------------------------------------------------------===//

#include "dan/Schedule/TaskOrder.h"
#include "dan/IR/NodeCosts.h"
#include "dan/Support/UnionFind.h"
#include "llvm/ADT/DenseMap.h"
#include "llvm/ADT/DenseSet.h"
#include "llvm/ADT/STLFunctionalExtras.h"
#include "llvm/ADT/SmallVector.h"
#include <algorithm>
#include <map>
#include <numeric>
#include <queue>

using namespace llvm;

namespace dan {

namespace {

constexpr uint32_t None = UINT32_MAX;

/// The reads of DDR-backed buffers, task by task, and what the simulation
/// needs to know about each buffer.
struct Workload {
  std::vector<std::vector<uint32_t>> TaskReads; // source indices
  std::vector<uint64_t> Size;
  std::vector<Tier> BufTier;
  std::array<uint64_t, MaxTiers> Capacity{};
};

/// Reload bytes of a task order under farthest-next-use eviction per tier
/// (Belady's rule; optimal when sizes are equal, a good estimate otherwise).
uint64_t simulate(const Workload &W, ArrayRef<uint32_t> TaskOrder) {
  std::vector<uint32_t> Seq;
  for (uint32_t Task : TaskOrder)
    Seq.insert(Seq.end(), W.TaskReads[Task].begin(), W.TaskReads[Task].end());
  std::vector<uint32_t> Next(Seq.size());
  std::vector<uint32_t> Last(W.Size.size(), None);
  for (size_t K = Seq.size(); K-- > 0;) {
    Next[K] = Last[Seq[K]];
    Last[Seq[K]] = K;
  }
  std::vector<uint32_t> ResidentUntil(W.Size.size(), None);
  std::vector<uint8_t> Seen(W.Size.size(), 0);
  // Per tier, the resident buffers by next use, (use << 32 | buffer), in a
  // max-heap. An entry whose buffer has since been read again or evicted
  // (its ResidentUntil no longer that use) is stale and skipped when it
  // comes to the top; no two entries share a use, so the first live one is
  // the buffer an ordered set would evict. (A std::set cost an allocation
  // per read, two thirds of the simulation.)
  std::array<std::priority_queue<uint64_t>, MaxTiers> Resident;
  std::array<uint64_t, MaxTiers> Used{};
  uint64_t Reloads = 0;
  for (size_t K = 0; K != Seq.size(); ++K) {
    uint32_t B = Seq[K];
    unsigned TI = static_cast<unsigned>(W.BufTier[B]);
    std::priority_queue<uint64_t> &Heap = Resident[TI];
    if (ResidentUntil[B] == None) {
      if (Seen[B])
        Reloads += W.Size[B];
      Seen[B] = 1;
      Used[TI] += W.Size[B];
      while (Used[TI] > W.Capacity[TI] && !Heap.empty()) {
        uint64_t Top = Heap.top();
        Heap.pop();
        uint32_t Victim = static_cast<uint32_t>(Top);
        if (ResidentUntil[Victim] != Top >> 32)
          continue; // stale
        Used[TI] -= W.Size[Victim];
        ResidentUntil[Victim] = None;
      }
    }
    if (Next[K] == None) { // last read: the buffer is freed
      Used[TI] -= W.Size[B];
      ResidentUntil[B] = None;
    } else {
      ResidentUntil[B] = Next[K];
      Heap.push(uint64_t(Next[K]) << 32 | B);
    }
  }
  return Reloads;
}

/// Strips of Width inner lines; inside a strip the outer lines are walked
/// back and forth, and so are the inner lines of each step, so that every
/// turn starts on the lines the last task read.
std::vector<uint32_t> blockedOrder(const std::vector<uint32_t> &TaskAt,
                                   unsigned Rows, unsigned Cols, unsigned Width,
                                   bool StripsOfColumns) {
  unsigned Outer = StripsOfColumns ? Rows : Cols;
  unsigned Inner = StripsOfColumns ? Cols : Rows;
  std::vector<uint32_t> Order;
  Order.reserve(size_t(Rows) * Cols);
  bool Forward = true;
  for (unsigned S = 0, Strip = 0; S < Inner; S += Width, ++Strip) {
    unsigned End = std::min(Inner, S + Width);
    for (unsigned O = 0; O != Outer; ++O) {
      unsigned OuterLine = Strip % 2 == 0 ? O : Outer - 1 - O;
      for (unsigned I = 0; I != End - S; ++I) {
        unsigned InnerLine = Forward ? S + I : End - 1 - I;
        unsigned R = StripsOfColumns ? OuterLine : InnerLine;
        unsigned C = StripsOfColumns ? InnerLine : OuterLine;
        Order.push_back(TaskAt[size_t(R) * Cols + C]);
      }
      Forward = !Forward;
    }
  }
  return Order;
}

/// The task at each (row, column) of the grid the tasks form, row-major,
/// with Grid.Rows and Grid.Cols set; nothing if they form no grid: every
/// task reads exactly two lines (buffers with the same readers), the lines
/// two-colour into rows and columns, and each pair is one task.
std::optional<std::vector<uint32_t>>
placeOnGrid(const Workload &W,
            const std::vector<std::vector<uint32_t>> &Readers,
            TaskOrder &Grid) {
  size_t NumTasks = W.TaskReads.size();
  if (NumTasks < 4)
    return std::nullopt;
  // Lines: buffers with the same readers (readers are in increasing order,
  // since tasks are numbered in input order, but a task may read a buffer
  // again after another buffer; sort to be sure). Each buffer's line is
  // found once, when a task first reads it: a buffer that every task reads
  // (a bias tile) would otherwise cost its readers' count for each reader.
  std::map<std::vector<uint32_t>, uint32_t> LineOfReaders;
  constexpr uint32_t NoLine = UINT32_MAX;
  std::vector<uint32_t> LineOfBuffer(Readers.size(), NoLine);
  auto LineOf = [&](uint32_t S) {
    if (LineOfBuffer[S] == NoLine) {
      std::vector<uint32_t> R = Readers[S];
      std::sort(R.begin(), R.end());
      R.erase(std::unique(R.begin(), R.end()), R.end());
      LineOfBuffer[S] =
          LineOfReaders.try_emplace(std::move(R), LineOfReaders.size())
              .first->second;
    }
    return LineOfBuffer[S];
  };
  std::vector<std::vector<uint32_t>> LinesOfTask(NumTasks);
  for (uint32_t Task = 0; Task != NumTasks; ++Task)
    for (uint32_t S : W.TaskReads[Task]) {
      uint32_t Line = LineOf(S);
      auto &Lines = LinesOfTask[Task];
      if (std::find(Lines.begin(), Lines.end(), Line) == Lines.end())
        Lines.push_back(Line);
    }
  size_t NumLines = LineOfReaders.size();
  // Two-colour the lines: every task joins a row line and a column line.
  std::vector<std::vector<uint32_t>> Adjacent(NumLines);
  for (auto &Lines : LinesOfTask) {
    if (Lines.size() != 2)
      return std::nullopt;
    Adjacent[Lines[0]].push_back(Lines[1]);
    Adjacent[Lines[1]].push_back(Lines[0]);
  }
  std::vector<int> Colour(NumLines, -1);
  for (uint32_t Start = 0; Start != NumLines; ++Start) {
    if (Colour[Start] != -1)
      continue;
    if (Start != 0) // the lines must form one grid
      return std::nullopt;
    Colour[Start] = 0;
    std::vector<uint32_t> Work = {Start};
    while (!Work.empty()) {
      uint32_t L = Work.back();
      Work.pop_back();
      for (uint32_t M : Adjacent[L]) {
        if (Colour[M] == -1) {
          Colour[M] = 1 - Colour[L];
          Work.push_back(M);
        } else if (Colour[M] == Colour[L]) {
          return std::nullopt;
        }
      }
    }
  }
  std::vector<uint32_t> Index(NumLines);
  unsigned Count[2] = {0, 0};
  for (uint32_t L = 0; L != NumLines; ++L)
    Index[L] = Count[Colour[L]]++;
  Grid.Rows = Count[0];
  Grid.Cols = Count[1];
  if (Grid.Rows < 2 || Grid.Cols < 2 ||
      size_t(Grid.Rows) * Grid.Cols != NumTasks)
    return std::nullopt;
  std::vector<uint32_t> TaskAt(NumTasks, None);
  for (uint32_t Task = 0; Task != NumTasks; ++Task) {
    uint32_t A = LinesOfTask[Task][0], B = LinesOfTask[Task][1];
    if (Colour[A] != 0)
      std::swap(A, B);
    uint32_t &Slot = TaskAt[size_t(Index[A]) * Grid.Cols + Index[B]];
    if (Slot != None)
      return std::nullopt;
    Slot = Task;
  }
  return TaskAt;
}

/// What the tasks keep of each tier for themselves is not available to the
/// shared buffers: W.Capacity is each tier less the most one task keeps.
void reserveTaskTiers(const Graph &G, const TargetDesc &T,
                      const std::vector<uint32_t> &TaskOf, Workload &W) {
  std::vector<std::array<uint64_t, MaxTiers>> Private(W.TaskReads.size());
  for (NodeIdx I = 0, V = G.size(); I != V; ++I)
    if (TaskOf[I] != None && G[I].Kind == NodeKind::Alloc)
      Private[TaskOf[I]][static_cast<unsigned>(G[I].BufTier)] += G[I].Size;
  for (unsigned TI = 0; TI != T.numTiers(); ++TI) {
    uint64_t Most = 0;
    for (auto &P : Private)
      Most = std::max(Most, P[TI]);
    uint64_t Cap = T.capacity(static_cast<Tier>(TI));
    W.Capacity[TI] = Cap > Most ? Cap - Most : 0;
  }
}

/// The strip widths tried across \p Inner lines, in increasing order: every
/// width up to 16 and the whole (the row-by-row walk), and beyond 16 a
/// quarter wider each time. Each width costs a simulation of every read, so
/// trying every one made finding the blocking grow as V^1.5 on square
/// grids; the blockings that win have been 1 to 3 lines wide, and the
/// grids up to 16 lines a side (the contest matmuls) try every width.
std::vector<unsigned> stripWidths(unsigned Inner) {
  std::vector<unsigned> Widths;
  for (unsigned W = 1; W <= Inner; W = W < 16 ? W + 1 : W + (W + 3) / 4)
    Widths.push_back(W);
  if (Widths.back() != Inner)
    Widths.push_back(Inner);
  return Widths;
}

/// The grid's blocked order, or nothing if the tasks do not form a grid.
std::optional<std::vector<uint32_t>>
gridOrder(const Graph &G, const TargetDesc &T, Workload &W,
          const std::vector<std::vector<uint32_t>> &Readers,
          const std::vector<uint32_t> &TaskOf, TaskOrder &Grid,
          ForEachIndex ForEach) {
  std::optional<std::vector<uint32_t>> Placed = placeOnGrid(W, Readers, Grid);
  if (!Placed)
    return std::nullopt;
  const std::vector<uint32_t> &TaskAt = *Placed;
  reserveTaskTiers(G, T, TaskOf, W);
  // Candidates: both orientations, and the strip widths stripWidths gives;
  // the fewest reload bytes wins, ties to strips of columns, then to the
  // narrower strip. The simulations are independent: ForEach may run them
  // at once.
  struct Blocking {
    bool OfColumns;
    unsigned Width;
    std::vector<uint32_t> Order;
    uint64_t Cost = 0;
  };
  std::vector<Blocking> Cands;
  for (bool OfColumns : {true, false})
    for (unsigned Width : stripWidths(OfColumns ? Grid.Cols : Grid.Rows))
      Cands.push_back({OfColumns, Width, {}, 0});
  ForEach(Cands.size(), [&](size_t K) {
    Blocking &B = Cands[K];
    B.Order = blockedOrder(TaskAt, Grid.Rows, Grid.Cols, B.Width, B.OfColumns);
    B.Cost = simulate(W, B.Order);
  });
  uint64_t Best = UINT64_MAX;
  std::vector<uint32_t> BestOrder;
  for (Blocking &B : Cands) {
    if (B.OfColumns && B.Width == Grid.Cols)
      Grid.RowWalkReloadBytes = B.Cost;
    if (B.Cost < Best) {
      Best = B.Cost;
      BestOrder = std::move(B.Order);
      Grid.StripWidth = B.Width;
      Grid.StripsOfColumns = B.OfColumns;
    }
  }
  Grid.SimulatedReloadBytes = Best;
  return BestOrder;
}

/// The rank of every node in the task order \p Order: task nodes take their
/// task's rank, a DDR-backed buffer's ALLOC and COPY_IN the rank of its
/// first reader; FREEs keep 0 and run when ready.
void assignRanks(const Graph &G, const Workload &W,
                 const DenseMap<uint64_t, uint32_t> &SourceOf,
                 ArrayRef<uint32_t> Order, TaskOrder &Result) {
  size_t V = G.size(), NumTasks = Result.Tasks;
  const std::vector<uint32_t> &TaskOf = Result.TaskOf;
  std::vector<uint32_t> RankOfTask(NumTasks);
  for (uint32_t P = 0; P != NumTasks; ++P)
    RankOfTask[Order[P]] = P + 1;
  Result.Rank.assign(V, 0);
  std::vector<uint32_t> FirstReader(W.Size.size(), None);
  for (uint32_t Task = 0; Task != NumTasks; ++Task)
    for (uint32_t S : W.TaskReads[Task])
      FirstReader[S] = std::min(FirstReader[S], RankOfTask[Task]);
  for (NodeIdx I = 0; I != V; ++I) {
    const Node &N = G[I];
    if (N.Kind == NodeKind::Free)
      continue;
    if (TaskOf[I] != None) {
      Result.Rank[I] = RankOfTask[TaskOf[I]];
      continue;
    }
    uint64_t B = N.Kind == NodeKind::Op ? N.Bufs.front() : N.Buf;
    auto S = SourceOf.find(B);
    if (S != SourceOf.end() && FirstReader[S->second] != None)
      Result.Rank[I] = FirstReader[S->second];
  }
}

} // namespace

namespace {
/// What findTaskOrder and splitTasks share: the DDR-backed buffers, each
/// buffer's ALLOC, and each node's task.
struct Decomposition {
  DenseSet<uint64_t> Backed;
  DenseMap<uint64_t, NodeIdx> AllocOf;
  TaskSplit Split;
};

/// The tasks of \p G (see findTaskOrder), or nothing when it has spills.
std::optional<Decomposition> decompose(const Graph &G) {
  size_t V = G.size();
  Decomposition D;
  D.Backed = ddrBackedBuffers(G);
  DenseMap<uint64_t, NodeIdx> FreeOf;
  for (NodeIdx I = 0; I != V; ++I) {
    if (G[I].Kind == NodeKind::Alloc)
      D.AllocOf.try_emplace(G[I].Buf, I);
    else if (G[I].Kind == NodeKind::Free)
      FreeOf.try_emplace(G[I].Buf, I);
  }
  // Take out the DDR-backed buffers' ALLOC and FREE and the operations that
  // touch nothing else (their COPY_INs); what stays connected is a task.
  std::vector<uint8_t> Out(V, 0);
  for (NodeIdx I = 0; I != V; ++I) {
    const Node &N = G[I];
    if (N.isSpill())
      return std::nullopt;
    if (N.Kind == NodeKind::Op)
      Out[I] = !N.Bufs.empty() &&
               all_of(N.Bufs, [&](uint64_t B) { return D.Backed.contains(B); });
    else
      Out[I] = D.Backed.contains(N.Buf);
  }
  UnionFind UF(V);
  for (NodeIdx I = 0; I != V; ++I) {
    if (Out[I])
      continue;
    for (NodeIdx P : G[I].Preds)
      if (!Out[P])
        UF.join(I, P);
    if (G[I].Kind != NodeKind::Op)
      continue;
    for (uint64_t B : G[I].Bufs) {
      if (D.Backed.contains(B))
        continue;
      for (auto *M : {&D.AllocOf, &FreeOf}) {
        auto It = M->find(B);
        if (It != M->end())
          UF.join(I, It->second);
      }
    }
  }
  // Tasks are numbered in schedule order.
  D.Split.TaskOf.assign(V, None);
  DenseMap<uint32_t, uint32_t> TaskOfRoot;
  for (NodeIdx I : G.Order) {
    if (Out[I])
      continue;
    auto [It, New] = TaskOfRoot.try_emplace(UF.find(I), D.Split.NumTasks);
    if (New)
      ++D.Split.NumTasks;
    D.Split.TaskOf[I] = It->second;
  }
  return D;
}
} // namespace

std::optional<TaskSplit> splitTasks(const Graph &G) {
  std::optional<Decomposition> D = decompose(G);
  if (!D)
    return std::nullopt;
  return std::move(D->Split);
}

std::optional<TaskOrder> findTaskOrder(const Graph &G, const TargetDesc &T,
                                       ForEachIndex ForEach) {
  if (!ForEach)
    ForEach = [](size_t N, function_ref<void(size_t)> Job) {
      for (size_t K = 0; K != N; ++K)
        Job(K);
    };
  std::optional<Decomposition> D = decompose(G);
  if (!D)
    return std::nullopt;
  const std::vector<uint32_t> &TaskOf = D->Split.TaskOf;
  // DDR-backed buffers are numbered in input order.
  DenseMap<uint64_t, uint32_t> SourceOf;
  Workload W;
  W.TaskReads.resize(D->Split.NumTasks);
  std::vector<std::vector<uint32_t>> Readers; // source -> tasks
  for (NodeIdx I : G.Order) {
    uint32_t Task = TaskOf[I];
    if (Task == None || G[I].Kind != NodeKind::Op)
      continue;
    for (uint64_t B : G[I].Bufs) {
      if (!D->Backed.contains(B))
        continue;
      auto A = D->AllocOf.find(B);
      if (A == D->AllocOf.end())
        return std::nullopt;
      auto [S, NewSource] = SourceOf.try_emplace(B, W.Size.size());
      if (NewSource) {
        W.Size.push_back(G[A->second].Size);
        W.BufTier.push_back(G[A->second].BufTier);
        Readers.emplace_back();
      }
      W.TaskReads[Task].push_back(S->second);
      if (Readers[S->second].empty() || Readers[S->second].back() != Task)
        Readers[S->second].push_back(Task);
    }
  }
  size_t NumTasks = W.TaskReads.size();
  if (NumTasks < 2)
    return std::nullopt;
  TaskOrder Result;
  Result.Tasks = NumTasks;
  Result.TaskOf = TaskOf;
  std::optional<std::vector<uint32_t>> Order =
      gridOrder(G, T, W, Readers, TaskOf, Result, ForEach);
  Result.IsGrid = Order.has_value();
  if (!Order) { // one task after the other, in input order
    Order.emplace(NumTasks);
    std::iota(Order->begin(), Order->end(), 0);
  }
  assignRanks(G, W, SourceOf, *Order, Result);
  return Result;
}

namespace {
/// The nodes of each buffer a sample takes whole when it names the buffer.
using NodesByBuffer = DenseMap<uint64_t, SmallVector<NodeIdx, 3>>;

/// Grows a sample to what its nodes need: takes the nodes on \p Work one at
/// a time and offers \p Add each one's predecessors (but a FREE's: it waits
/// for its buffer's last users, and the sample keeps those it holds;
/// extractPart drops the other edges) and the nodes \p Of lists for each
/// buffer it names the first time (\p Named), until \p Work is empty or
/// \p Stop holds.
void closeSample(const Graph &G, const NodesByBuffer &Of,
                 DenseSet<uint64_t> &Named, std::vector<NodeIdx> &Work,
                 function_ref<void(NodeIdx)> Add, function_ref<bool()> Stop) {
  auto Name = [&](uint64_t B) {
    if (Named.insert(B).second)
      if (auto It = Of.find(B); It != Of.end())
        for (NodeIdx X : It->second)
          Add(X);
  };
  while (!Work.empty() && !Stop()) {
    NodeIdx I = Work.back();
    Work.pop_back();
    const Node &N = G[I];
    if (N.Kind != NodeKind::Free)
      for (NodeIdx P : N.Preds)
        Add(P);
    if (N.isBufferNode())
      Name(N.Buf);
    else
      for (uint64_t B : N.Bufs)
        Name(B);
  }
}
} // namespace

std::vector<NodeIdx> leadingTasks(const Graph &G, const TaskOrder &Tasks,
                                  size_t MaxNodes, unsigned MinTasks,
                                  unsigned &Taken) {
  const std::vector<uint32_t> &TaskOf = Tasks.TaskOf;
  std::vector<size_t> TaskNodes(Tasks.Tasks, 0);
  for (uint32_t K : TaskOf)
    if (K != None)
      ++TaskNodes[K];
  unsigned Count = 0;
  for (size_t Held = 0; Count != Tasks.Tasks; ++Count) {
    if (Count >= MinTasks && Held + TaskNodes[Count] > MaxNodes)
      break;
    Held += TaskNodes[Count];
  }
  if (Count == Tasks.Tasks)
    return {};
  // The nodes outside every task (the DDR-backed buffers' ALLOC, COPY_IN
  // and FREE), by the buffers they name.
  NodesByBuffer OutsideOf;
  for (NodeIdx I = 0, V = G.size(); I != V; ++I) {
    if (TaskOf[I] != None)
      continue;
    const Node &N = G[I];
    if (N.isBufferNode())
      OutsideOf[N.Buf].push_back(I);
    else
      for (uint64_t B : N.Bufs)
        OutsideOf[B].push_back(I);
  }
  std::vector<uint8_t> In(G.size(), 0);
  std::vector<NodeIdx> Work;
  for (NodeIdx I = 0, V = G.size(); I != V; ++I)
    if (TaskOf[I] < Count) {
      In[I] = 1;
      Work.push_back(I);
    }
  bool NeedsLater = false;
  auto Add = [&](NodeIdx I) {
    if (In[I])
      return;
    // Part of a later task: the sample would hold a task in part.
    if (TaskOf[I] != None) {
      NeedsLater = true;
      return;
    }
    In[I] = 1;
    Work.push_back(I);
  };
  DenseSet<uint64_t> Named;
  closeSample(G, OutsideOf, Named, Work, Add, [&] { return NeedsLater; });
  if (NeedsLater)
    return {};
  std::vector<NodeIdx> Nodes;
  for (NodeIdx I : G.Order)
    if (In[I])
      Nodes.push_back(I);
  Taken = Count;
  return Nodes;
}

std::vector<NodeIdx> leadingNodes(const Graph &G, size_t MaxNodes) {
  size_t V = G.size();
  // Every node of each buffer, to take a named buffer whole.
  NodesByBuffer NodesOf;
  for (NodeIdx I = 0; I != V; ++I)
    if (G[I].isBufferNode())
      NodesOf[G[I].Buf].push_back(I);
  std::vector<uint8_t> In(V, 0);
  std::vector<NodeIdx> Work;
  size_t Held = 0;
  auto Add = [&](NodeIdx I) {
    if (!In[I]) {
      In[I] = 1;
      ++Held;
      Work.push_back(I);
    }
  };
  DenseSet<uint64_t> Named;
  for (NodeIdx Next : G.Order) {
    if (Held >= MaxNodes / 2)
      break;
    if (G[Next].Kind != NodeKind::Op)
      continue;
    Add(Next);
    closeSample(G, NodesOf, Named, Work, Add, [] { return false; });
  }
  if (Held >= MaxNodes || Held == V)
    return {};
  std::vector<NodeIdx> Nodes;
  Nodes.reserve(Held);
  for (NodeIdx I : G.Order)
    if (In[I])
      Nodes.push_back(I);
  return Nodes;
}

} // namespace dan
