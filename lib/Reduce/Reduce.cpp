//===- Reduce.cpp - Shrinking a graph while a behaviour persists ----------===//
//
// Each pass lists its targets in the graph as it stands when the pass
// starts (operations, buffers, edges, ...), each target a group of edits
// that go together. Delta debugging: try removing all targets at once, then
// halves, quarters, ... of those still kept; a chunk whose removal keeps the
// graph interesting is gone for good. A candidate is always built afresh
// from the graph at the start of the pass, so it depends only on which
// targets are removed, and the result only on the graph and the check.
//
// A candidate is accepted only when it is smaller than the graph it came
// from (fewer nodes, then fewer operands, edges, offsets), so every round
// that makes progress shrinks the graph and the rounds end.
//
//===----------------------------------------------------------------------===//

#include "dan/Reduce/Reduce.h"
#include "dan/Analysis/Verifier.h"
#include "dan/IR/MemoryPlan.h"
#include "llvm/ADT/BitVector.h"
#include "llvm/ADT/DenseMap.h"
#include "llvm/ADT/DenseSet.h"
#include "llvm/ADT/STLExtras.h"
#include <optional>
#include <tuple>

using namespace llvm;

namespace dan {
namespace {

/// One edit of the graph at the start of a pass.
struct Edit {
  enum Kind : uint8_t {
    StripPlan,     // the whole memory plan (stripMemoryPlan)
    RemoveNode,    // Node and its edges; its predecessors are reconnected
    RemoveEdge,    // the after edge Arg -> Node
    RemoveReuse,   // the reuse edge Arg -> Node
    DropOffset,    // Node's `at`
    RemoveOperand, // the operand at position Arg of Node
  };
  Kind K;
  NodeIdx Node = 0;
  uint32_t Arg = 0;
};

/// A pass's unit of removal.
using Target = SmallVector<Edit, 1>;

/// What a pass removes, as targets of the graph \p G.
using CollectFn = std::vector<Target> (*)(const Graph &G);

struct Pass {
  const char *Name;
  CollectFn Collect;
  /// Whether the pass can give a graph that verifies from one that does;
  /// passes that cannot are skipped when candidates must verify.
  bool KeepsValidity;
};

std::vector<Target> collectPlan(const Graph &G) {
  if (!G.hasMemoryPlan())
    return {};
  return {Target{{Edit::StripPlan}}};
}

std::vector<Target> collectSpills(const Graph &G) {
  // A spill_out and its spill_in (ids N+2k and N+2k+1, same buffer) go
  // together; a spill node without its partner goes alone.
  IdIndex Ids = G.idIndex();
  std::vector<bool> Taken(G.size());
  std::vector<Target> Targets;
  for (NodeIdx I : G.Order) {
    const Node &N = G[I];
    if (!N.isSpill() || Taken[I])
      continue;
    Target T{{Edit::RemoveNode, I}};
    Taken[I] = true;
    bool IsOut = N.Kind == NodeKind::SpillOut;
    if (IsOut || N.Id > 0) {
      NodeIdx P = Ids.lookup(IsOut ? N.Id + 1 : N.Id - 1);
      NodeKind Want = IsOut ? NodeKind::SpillIn : NodeKind::SpillOut;
      if (P != IdIndex::None && !Taken[P] && G[P].Kind == Want &&
          G[P].Buf == N.Buf) {
        T.push_back({Edit::RemoveNode, P});
        Taken[P] = true;
      }
    }
    Targets.push_back(std::move(T));
  }
  return Targets;
}

std::vector<Target> collectBuffers(const Graph &G) {
  // Every node of the buffer, and every operand naming it; buffers in the
  // order the schedule first names them.
  DenseMap<uint64_t, unsigned> TargetOf;
  std::vector<Target> Targets;
  auto TargetFor = [&](uint64_t Buf) -> Target & {
    auto [It, New] = TargetOf.try_emplace(Buf, Targets.size());
    if (New)
      Targets.emplace_back();
    return Targets[It->second];
  };
  for (NodeIdx I : G.Order) {
    const Node &N = G[I];
    if (N.isBufferNode()) {
      TargetFor(N.Buf).push_back({Edit::RemoveNode, I});
      continue;
    }
    for (uint32_t Pos = 0, E = N.Bufs.size(); Pos != E; ++Pos)
      TargetFor(N.Bufs[Pos]).push_back({Edit::RemoveOperand, I, Pos});
  }
  return Targets;
}

std::vector<Target> collectNodes(const Graph &G, bool Ops) {
  std::vector<Target> Targets;
  for (NodeIdx I : G.Order)
    if (G[I].isBufferNode() != Ops)
      Targets.push_back({{Edit::RemoveNode, I}});
  return Targets;
}

std::vector<Target> collectOperations(const Graph &G) {
  return collectNodes(G, /*Ops=*/true);
}

std::vector<Target> collectBufferNodes(const Graph &G) {
  return collectNodes(G, /*Ops=*/false);
}

std::vector<Target> collectOperands(const Graph &G) {
  std::vector<Target> Targets;
  for (NodeIdx I : G.Order)
    for (uint32_t Pos = 0, E = G[I].Bufs.size(); Pos != E; ++Pos)
      Targets.push_back({{Edit::RemoveOperand, I, Pos}});
  return Targets;
}

std::vector<Target> collectEdges(const Graph &G) {
  std::vector<Target> Targets;
  for (NodeIdx I : G.Order)
    for (NodeIdx P : G[I].Preds)
      Targets.push_back({{Edit::RemoveEdge, I, P}});
  return Targets;
}

std::vector<Target> collectReuseEdges(const Graph &G) {
  std::vector<Target> Targets;
  for (NodeIdx I : G.Order)
    for (NodeIdx P : G[I].ReusePreds)
      Targets.push_back({{Edit::RemoveReuse, I, P}});
  return Targets;
}

std::vector<Target> collectOffsets(const Graph &G) {
  std::vector<Target> Targets;
  for (NodeIdx I : G.Order)
    if (G[I].HasOffset)
      Targets.push_back({{Edit::DropOffset, I}});
  return Targets;
}

// Coarse to fine: the plan first (a plan's edges bind much of the rest),
// then whole operations and buffers, then spill pairs (which rarely go
// before the buffers around them, and cost a verification each), then the
// parts. Removing an offset, a reuse edge or a lone buffer node never
// leaves a graph that verifies, so those passes run only when candidates
// need not verify.
const Pass Passes[] = {
    {"plan", collectPlan, true},
    {"operations", collectOperations, true},
    {"buffers", collectBuffers, true},
    {"spills", collectSpills, true},
    {"buffer-nodes", collectBufferNodes, false},
    {"operands", collectOperands, true},
    {"edges", collectEdges, true},
    {"reuse-edges", collectReuseEdges, false},
    {"offsets", collectOffsets, false},
};

/// The most kept predecessors a removed node hands on to its successors.
/// Without a limit, a chain of removed operations whose nodes each had a
/// kept predecessor of its own (an alloc) hands all of them to every later
/// successor: quadratic in the chain's length (15000 nodes gave 12.5
/// million edges). With it, reconnection adds at most this many edges per
/// removed edge.
constexpr size_t MaxReconnected = 32;

/// Removes the nodes marked in \p Gone. A kept node that had a removed
/// predecessor gets that node's nearest kept predecessors instead (through
/// any chain of removed ones; the MaxReconnected latest in the schedule),
/// so the order the edges imposed among kept nodes mostly stays. Reuse
/// edges from removed nodes are dropped.
void removeNodes(Graph &G, const BitVector &Gone) {
  // Kept predecessors of each removed node, found once (an iterative walk:
  // chains may be long; a cycle through removed nodes is cut where it
  // closes).
  enum : uint8_t { Unseen, Active, Done };
  std::vector<uint8_t> State(G.size(), Unseen);
  std::vector<EdgeList> KeptPreds(G.size());
  std::vector<uint32_t> Pos = G.positions();
  auto Dedup = [](EdgeList &L) {
    llvm::sort(L);
    L.erase(std::unique(L.begin(), L.end()), L.end());
  };
  auto Limit = [&](EdgeList &L) {
    if (L.size() <= MaxReconnected)
      return;
    llvm::sort(L, [&](NodeIdx A, NodeIdx B) { return Pos[A] > Pos[B]; });
    L.resize(MaxReconnected);
    llvm::sort(L);
  };
  auto Resolve = [&](NodeIdx Root) {
    SmallVector<std::pair<NodeIdx, unsigned>, 16> Stack{{Root, 0}};
    State[Root] = Active;
    while (!Stack.empty()) {
      auto &[I, Next] = Stack.back();
      const EdgeList &Preds = G[I].Preds;
      if (Next != Preds.size()) {
        NodeIdx P = Preds[Next++];
        if (Gone[P] && State[P] == Unseen) {
          State[P] = Active;
          Stack.push_back({P, 0});
        }
        continue;
      }
      EdgeList L;
      for (NodeIdx P : Preds)
        if (!Gone[P])
          L.push_back(P);
        else if (State[P] == Done)
          L.append(KeptPreds[P].begin(), KeptPreds[P].end());
      Dedup(L);
      Limit(L);
      KeptPreds[I] = std::move(L);
      State[I] = Done;
      Stack.pop_back();
    }
  };

  // Kept nodes move out; the walk reads only removed nodes.
  std::vector<NodeIdx> NewIndex(G.size(), UINT32_MAX);
  std::vector<Node> Nodes;
  for (NodeIdx I = 0, E = G.size(); I != E; ++I)
    if (!Gone[I]) {
      NewIndex[I] = Nodes.size();
      Nodes.push_back(std::move(G[I]));
    }
  for (Node &N : Nodes) {
    EdgeList Preds;
    bool Reconnected = false;
    for (NodeIdx P : N.Preds) {
      if (!Gone[P]) {
        Preds.push_back(P);
        continue;
      }
      if (State[P] == Unseen)
        Resolve(P);
      Preds.append(KeptPreds[P].begin(), KeptPreds[P].end());
      Reconnected = true;
    }
    if (Reconnected)
      Dedup(Preds);
    for (NodeIdx &P : Preds)
      P = NewIndex[P];
    N.Preds = std::move(Preds);
    EdgeList Reuse;
    for (NodeIdx P : N.ReusePreds)
      if (!Gone[P])
        Reuse.push_back(NewIndex[P]);
    N.ReusePreds = std::move(Reuse);
  }
  std::vector<NodeIdx> Order;
  for (NodeIdx I : G.Order)
    if (!Gone[I])
      Order.push_back(NewIndex[I]);
  G.Nodes = std::move(Nodes);
  G.Order = std::move(Order);
  G.sortEdges();
}

/// After an edit of a graph with a memory plan, the plan's derived parts as
/// its rule defines them: spill ids, the spill edges, the reuse edges.
void repairPlan(Graph &G) {
  renumberSpills(G);
  addSpillEdges(G);
  setReuseEdges(G);
}

/// The graph \p G0 with the targets marked in \p Removed removed.
Graph buildCandidate(const Graph &G0, ArrayRef<Target> Targets,
                     const BitVector &Removed, bool Repair) {
  Graph G = G0;
  BitVector Gone(G.size());
  DenseSet<std::pair<NodeIdx, NodeIdx>> GoneEdges, GoneReuse;
  DenseMap<NodeIdx, SmallVector<uint32_t, 2>> GoneOperands;
  bool Strip = false;
  for (unsigned T : Removed.set_bits())
    for (const Edit &E : Targets[T])
      switch (E.K) {
      case Edit::StripPlan:
        Strip = true;
        break;
      case Edit::RemoveNode:
        Gone.set(E.Node);
        break;
      case Edit::RemoveEdge:
        GoneEdges.insert({E.Node, E.Arg});
        break;
      case Edit::RemoveReuse:
        GoneReuse.insert({E.Node, E.Arg});
        break;
      case Edit::DropOffset:
        G[E.Node].HasOffset = false;
        G[E.Node].Offset = 0;
        break;
      case Edit::RemoveOperand:
        GoneOperands[E.Node].push_back(E.Arg);
        break;
      }
  if (Strip) {
    stripMemoryPlan(G);
    return G;
  }
  if (!GoneEdges.empty() || !GoneReuse.empty())
    for (NodeIdx I = 0, E = G.size(); I != E; ++I) {
      erase_if(G[I].Preds, [&](NodeIdx P) { return GoneEdges.count({I, P}); });
      erase_if(G[I].ReusePreds, [&](NodeIdx P) {
        return GoneReuse.count({I, P});
      });
    }
  for (auto &[I, Positions] : GoneOperands) {
    auto &Bufs = G[I].Bufs;
    llvm::sort(Positions);
    // From the back, so earlier positions stay where they were.
    for (uint32_t Pos : llvm::reverse(Positions))
      Bufs.erase(Bufs.begin() + Pos);
  }
  if (Gone.any())
    removeNodes(G, Gone);
  if (Repair && G.hasMemoryPlan())
    repairPlan(G);
  return G;
}

/// The size a reduction must lower, compared lexicographically: nodes
/// first, so that reconnected or repaired edges never count against
/// removing a node.
using GraphSize = std::tuple<size_t, size_t, size_t, size_t>;

GraphSize sizeOf(const Graph &G) {
  size_t Operands = 0, Edges = 0, Offsets = 0;
  for (const Node &N : G.Nodes) {
    Operands += N.Bufs.size();
    Edges += N.Preds.size() + N.ReusePreds.size();
    Offsets += N.HasOffset;
  }
  return {G.size(), Operands, Edges, Offsets};
}

/// \p G with node ids 0, 1, ... in schedule order (spill nodes after them,
/// by the numbering rule) and buffer ids 0, 1, ... in the order the
/// schedule first names them. Sets \p Changed when any id moved.
Graph renumbered(const Graph &G, bool &Changed) {
  Graph R = G;
  Changed = false;
  auto Set = [&](uint64_t &Id, uint64_t New) {
    Changed |= Id != New;
    Id = New;
  };
  uint64_t NextNode = 0;
  for (NodeIdx I : R.Order)
    if (!R[I].isSpill())
      Set(R[I].Id, NextNode++);
  DenseMap<uint64_t, uint64_t> BufIds;
  auto MapBuf = [&](uint64_t &Buf) {
    auto It = BufIds.try_emplace(Buf, BufIds.size()).first;
    Set(Buf, It->second);
  };
  for (NodeIdx I : R.Order) {
    Node &N = R[I];
    if (N.isBufferNode())
      MapBuf(N.Buf);
    else
      for (uint64_t &B : N.Bufs)
        MapBuf(B);
  }
  std::vector<uint64_t> Before;
  for (const Node &N : R.Nodes)
    Before.push_back(N.Id);
  renumberSpills(R);
  for (NodeIdx I = 0, E = R.size(); I != E; ++I)
    Changed |= R[I].Id != Before[I];
  R.sortEdges();
  return R;
}

class Reducer {
public:
  Reducer(const InterestingFn &IsInteresting, const ReduceOptions &Opts)
      : IsInteresting(IsInteresting), Opts(Opts) {}

  Error run(Graph &G);
  const ReduceStats &stats() const { return Stats; }

private:
  /// Whether \p C is kept: it verifies when it must, and the check passes.
  Expected<bool> accept(const Graph &C);
  bool budgetLeft() {
    if (Opts.MaxTests && Stats.Tests >= Opts.MaxTests)
      Stats.BudgetReached = true;
    return !Stats.BudgetReached;
  }
  /// Runs one pass over \p G; returns whether it removed anything.
  Expected<bool> runPass(Graph &G, const Pass &P, unsigned Round);

  const InterestingFn &IsInteresting;
  const ReduceOptions &Opts;
  ReduceStats Stats;
};

Expected<bool> Reducer::accept(const Graph &C) {
  if (Opts.KeepValid) {
    VerifyOptions VO;
    VO.ErrorLimit = 1;
    if (verifyGraph(C, *Opts.KeepValid, VO,
                    [](SMLoc, SourceMgr::DiagKind, const Twine &) {})) {
      ++Stats.Invalid;
      return false;
    }
  }
  ++Stats.Tests;
  return IsInteresting(C);
}

Expected<bool> Reducer::runPass(Graph &G, const Pass &P, unsigned Round) {
  std::vector<Target> Targets = P.Collect(G);
  if (Targets.empty())
    return false;
  size_t N = Targets.size();
  unsigned TestsBefore = Stats.Tests;
  GraphSize SizeBefore = sizeOf(G);
  bool Repair = Opts.KeepValid != nullptr;
  BitVector Removed(N);
  std::optional<Graph> Best;
  GraphSize BestSize = SizeBefore;
  using Chunk = std::pair<size_t, size_t>; // targets [first, second)
  std::vector<Chunk> Chunks{{0, N}};
  while (budgetLeft()) {
    std::vector<Chunk> Left;
    for (Chunk C : Chunks) {
      if (!budgetLeft()) {
        Left.push_back(C);
        continue;
      }
      BitVector Try = Removed;
      Try.set(C.first, C.second);
      Graph Cand = buildCandidate(G, Targets, Try, Repair);
      GraphSize CandSize = sizeOf(Cand);
      // An edit the plan's repair undid is no progress; no need to ask.
      if (!(CandSize < BestSize)) {
        Left.push_back(C);
        continue;
      }
      Expected<bool> Keep = accept(Cand);
      if (!Keep)
        return Keep.takeError();
      if (!*Keep) {
        Left.push_back(C);
        continue;
      }
      Removed = std::move(Try);
      Best = std::move(Cand);
      BestSize = CandSize;
    }
    // Halve what is left; when every chunk is a single target, the pass is
    // done.
    std::vector<Chunk> Halves;
    bool Split = false;
    for (Chunk C : Left) {
      if (C.second - C.first > 1) {
        size_t Mid = C.first + (C.second - C.first) / 2;
        Halves.push_back({C.first, Mid});
        Halves.push_back({Mid, C.second});
        Split = true;
      } else {
        Halves.push_back(C);
      }
    }
    if (!Split)
      break;
    Chunks = std::move(Halves);
  }
  if (Best)
    G = std::move(*Best);
  if (Opts.Log) {
    unsigned Tests = Stats.Tests - TestsBefore;
    *Opts.Log << "round " << Round << ", " << P.Name << ": " << N
              << (N == 1 ? " target, " : " targets, ") << Removed.count()
              << " removed; nodes " << std::get<0>(SizeBefore) << " -> "
              << G.size() << ", edges " << std::get<2>(SizeBefore) << " -> "
              << std::get<2>(sizeOf(G)) << "; " << Tests
              << (Tests == 1 ? " test\n" : " tests\n");
  }
  return Best.has_value();
}

Error Reducer::run(Graph &G) {
  while (!Opts.MaxRounds || Stats.Rounds < Opts.MaxRounds) {
    ++Stats.Rounds;
    bool Progress = false;
    for (const Pass &P : Passes) {
      if (Opts.KeepValid && !P.KeepsValidity)
        continue;
      if (!budgetLeft())
        break;
      Expected<bool> Removed = runPass(G, P, Stats.Rounds);
      if (!Removed)
        return Removed.takeError();
      Progress |= *Removed;
    }
    if (!Progress || Stats.BudgetReached)
      break;
  }
  if (!Opts.Renumber || !budgetLeft())
    return Error::success();
  bool Changed = false;
  Graph R = renumbered(G, Changed);
  if (!Changed)
    return Error::success();
  Expected<bool> Keep = accept(R);
  if (!Keep)
    return Keep.takeError();
  if (*Keep)
    G = std::move(R);
  if (Opts.Log)
    *Opts.Log << "renumber: " << (*Keep ? "kept" : "not interesting")
              << ", 1 test\n";
  return Error::success();
}

} // namespace

ArrayRef<const char *> reducePassNames() {
  static const std::vector<const char *> Names = [] {
    std::vector<const char *> V;
    for (const Pass &P : Passes)
      V.push_back(P.Name);
    return V;
  }();
  return Names;
}

Expected<ReduceStats> reduceGraph(Graph &G, const InterestingFn &IsInteresting,
                                  const ReduceOptions &Opts) {
  Reducer R(IsInteresting, Opts);
  if (Error E = R.run(G))
    return E;
  return R.stats();
}

} // namespace dan
