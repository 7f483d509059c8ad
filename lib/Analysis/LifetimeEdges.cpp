//===- LifetimeEdges.cpp - The edges a buffer's lifetime implies ----------===//
//
// Every use of a buffer must be ordered after its alloc and before its
// free by paths of edges (the verifier's rule, docs/LangRef.md). A graph
// written by hand may leave those edges implicit; addLifetimeEdges writes
// them in.
//
//===----------------------------------------------------------------------===//

#include "PathFinder.h"
#include "dan/Analysis/Verifier.h"
#include "dan/IR/Diagnostic.h"
#include "llvm/ADT/DenseMap.h"
#include "llvm/ADT/STLExtras.h"
#include "llvm/ADT/SmallVector.h"
#include <optional>
#include <queue>

using namespace llvm;

namespace dan {

namespace {

/// Each buffer's alloc, free and uses (the operations that name it).
struct Lifetime {
  NodeIdx Alloc = UINT32_MAX, Free = UINT32_MAX;
  SmallVector<NodeIdx, 4> Uses;
};

/// The edges of \p G and those the lifetimes \p Buffers imply (alloc to
/// use to free), as predecessor lists.
std::vector<SmallVector<NodeIdx, 2>>
predsWithLifetimes(const Graph &G,
                   const DenseMap<uint64_t, Lifetime> &Buffers) {
  std::vector<SmallVector<NodeIdx, 2>> Preds(G.size());
  for (NodeIdx I = 0, V = G.size(); I != V; ++I)
    for (const EdgeList *L : {&G[I].Preds, &G[I].ReusePreds})
      Preds[I].append(L->begin(), L->end());
  for (const auto &[B, L] : Buffers) {
    if (L.Uses.empty() && L.Alloc != UINT32_MAX && L.Free != UINT32_MAX)
      Preds[L.Free].push_back(L.Alloc);
    for (NodeIdx U : L.Uses) {
      if (L.Alloc != UINT32_MAX)
        Preds[U].push_back(L.Alloc);
      if (L.Free != UINT32_MAX)
        Preds[L.Free].push_back(U);
    }
  }
  return Preds;
}

/// A topological rank of every node along \p Preds, the node earliest in
/// the schedule (\p Pos) first among those ready. Nodes on or after a
/// cycle keep the rank UINT32_MAX.
std::vector<uint32_t> rankNodes(ArrayRef<SmallVector<NodeIdx, 2>> Preds,
                                ArrayRef<uint32_t> Pos) {
  size_t V = Preds.size();
  std::vector<uint32_t> InDegree(V, 0), Rank(V, UINT32_MAX);
  std::vector<SmallVector<NodeIdx, 2>> Succs(V);
  for (NodeIdx I = 0; I != V; ++I)
    for (NodeIdx P : Preds[I]) {
      ++InDegree[I];
      Succs[P].push_back(I);
    }
  std::priority_queue<std::pair<uint32_t, NodeIdx>,
                      std::vector<std::pair<uint32_t, NodeIdx>>,
                      std::greater<std::pair<uint32_t, NodeIdx>>>
      Ready;
  for (NodeIdx I = 0; I != V; ++I)
    if (!InDegree[I])
      Ready.push({Pos[I], I});
  uint32_t Done = 0;
  while (!Ready.empty()) {
    NodeIdx I = Ready.top().second;
    Ready.pop();
    Rank[I] = Done++;
    for (NodeIdx S : Succs[I])
      if (!--InDegree[S])
        Ready.push({Pos[S], S});
  }
  return Rank;
}

/// The error for a graph whose edges and lifetimes form a cycle, at the
/// cycle's earliest node in the schedule: walking back from an unranked
/// node along unranked predecessors must come round.
Error cycleError(const Graph &G, ArrayRef<SmallVector<NodeIdx, 2>> Preds,
                 ArrayRef<uint32_t> Rank, ArrayRef<uint32_t> Pos) {
  NodeIdx Cur = UINT32_MAX;
  for (NodeIdx I : G.Order)
    if (Rank[I] == UINT32_MAX) {
      Cur = I;
      break;
    }
  DenseMap<NodeIdx, size_t> Seen;
  std::vector<NodeIdx> Path;
  while (Seen.try_emplace(Cur, Path.size()).second) {
    Path.push_back(Cur);
    Cur = *llvm::find_if(Preds[Cur],
                         [&](NodeIdx P) { return Rank[P] == UINT32_MAX; });
  }
  NodeIdx First;
  std::string Text = detail::cycleText(
      G, std::vector<NodeIdx>(Path.begin() + Seen[Cur], Path.end()), Pos,
      First);
  DiagList Diags;
  Diags.error(G[First].Loc,
              "cannot add the lifetime edges: with them (alloc, then each "
              "use, then free) the edges would form a cycle: " +
                  Text);
  return Diags.takeError();
}

} // namespace

Expected<unsigned> addLifetimeEdges(Graph &G, uint64_t SearchBudget) {
  DenseMap<uint64_t, Lifetime> Buffers;
  std::vector<uint64_t> BufOrder;
  for (NodeIdx I : G.Order) {
    const Node &N = G[I];
    auto Get = [&](uint64_t B) -> Lifetime & {
      auto [It, New] = Buffers.try_emplace(B);
      if (New)
        BufOrder.push_back(B);
      return It->second;
    };
    if (N.Kind == NodeKind::Alloc && Get(N.Buf).Alloc == UINT32_MAX)
      Get(N.Buf).Alloc = I;
    else if (N.Kind == NodeKind::Free && Get(N.Buf).Free == UINT32_MAX)
      Get(N.Buf).Free = I;
    else if (N.Kind == NodeKind::Op)
      for (uint64_t B : N.Bufs)
        if (Get(B).Uses.empty() || Get(B).Uses.back() != I)
          Get(B).Uses.push_back(I);
  }
  // The paths are asked of the graph as it is, in an order that the edges
  // to be added respect too, so that adding them closes no cycle.
  std::vector<uint32_t> Pos = G.positions();
  std::vector<SmallVector<NodeIdx, 2>> Preds = predsWithLifetimes(G, Buffers);
  std::vector<uint32_t> Rank = rankNodes(Preds, Pos);
  if (llvm::is_contained(Rank, UINT32_MAX))
    return cycleError(G, Preds, Rank, Pos);
  detail::PathFinder Forward(G, Rank, /*Backward=*/false,
                             /*WithReuse=*/false);
  detail::PathFinder Backward(G, Rank, /*Backward=*/true,
                              /*WithReuse=*/false);
  // The edges are found first and added after, so that every question is
  // asked of the graph as it was; an edge found counts as a path for the
  // questions after it, so that none is added that another implies. A
  // buffer's search follows at most SearchBudget edges; a buffer whose
  // search runs out has all its questions of that direction answered at
  // the end, 64 buffers at a time, with the same rule (a chain between
  // allocs and uses would make each search walk it).
  using Question = detail::PathFinder::Question;
  std::vector<std::pair<NodeIdx, NodeIdx>> Added;
  std::vector<Question> OpenForward, OpenBackward;
  // Asks \p F about each of \p Targets from \p Source in turn, adding an
  // edge (by \p Edge) for each target not reached; or, when the search
  // runs out, leaves them all to \p Open.
  auto AskAll = [&](detail::PathFinder &F, NodeIdx Source, auto Targets,
                    std::vector<Question> &Open, auto Edge) {
    F.from(Source);
    size_t Kept = Added.size();
    for (NodeIdx U : Targets) {
      std::optional<bool> Yes = F.reachesWithin(U, SearchBudget);
      if (!Yes) {
        Added.resize(Kept);
        for (NodeIdx V : Targets)
          Open.push_back({Source, V});
        return;
      }
      if (!*Yes) {
        Added.push_back(Edge(U));
        F.reachVia(U);
      }
    }
  };
  for (uint64_t B : BufOrder) {
    Lifetime &L = Buffers[B];
    llvm::sort(L.Uses, [&](NodeIdx X, NodeIdx Y) { return Rank[X] < Rank[Y]; });
    bool HasAlloc = L.Alloc != UINT32_MAX, HasFree = L.Free != UINT32_MAX;
    ArrayRef<NodeIdx> Uses = L.Uses;
    if (HasAlloc) {
      // A buffer that no operation uses: its free after its alloc.
      NodeIdx Free[] = {L.Free};
      ArrayRef<NodeIdx> Targets =
          Uses.empty() && HasFree ? ArrayRef<NodeIdx>(Free) : Uses;
      AskAll(Forward, L.Alloc, Targets, OpenForward,
             [&](NodeIdx U) { return std::pair(L.Alloc, U); });
    }
    if (HasFree)
      AskAll(Backward, L.Free, llvm::reverse(Uses), OpenBackward,
             [&](NodeIdx U) { return std::pair(U, L.Free); });
  }
  std::vector<uint8_t> Yes(OpenForward.size());
  Forward.answer(OpenForward, Yes, /*MissesReached=*/true);
  for (size_t I = 0; I != Yes.size(); ++I)
    if (!Yes[I])
      Added.push_back({OpenForward[I].From, OpenForward[I].To});
  Yes.assign(OpenBackward.size(), 0);
  Backward.answer(OpenBackward, Yes, /*MissesReached=*/true);
  for (size_t I = 0; I != Yes.size(); ++I)
    if (!Yes[I])
      Added.push_back({OpenBackward[I].To, OpenBackward[I].From});
  for (auto [From, To] : Added)
    if (!is_contained(G[To].Preds, From))
      G[To].Preds.push_back(From);
  G.sortEdges();
  return Added.size();
}

} // namespace dan
