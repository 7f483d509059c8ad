//===- Lint.cpp - Warnings about graphs that verify -----------------------===//

#include "dan/Analysis/Lint.h"
#include "dan/IR/IdIndex.h"
#include "dan/Support/CSR.h"
#include "llvm/ADT/DenseMap.h"
#include "llvm/ADT/STLExtras.h"
#include <algorithm>
#include <queue>

using namespace llvm;

namespace dan {

namespace {

/// Answers "is there a path from A to B?" for nodes of a graph whose
/// schedule is a topological order, for one A and B after B in schedule
/// order: a depth-first search from A that stops once it has reached B and
/// never expands a node scheduled after B, since no such node can reach B.
/// The nodes reached but not expanded are kept, so that the question about
/// a later B goes on from there: the questions about one A cost at most one
/// search, not one each (a buffer with a million uses cost a million
/// searches), and each still ends as soon as its B is reached.
class PathFinder {
public:
  explicit PathFinder(const Graph &G) : G(G), Pos(G.size()) {
    for (size_t I = 0; I != G.Order.size(); ++I)
      Pos[G.Order[I]] = I;
    // Successor lists (dependence and reuse edges) in one array.
    CSRBuilder<NodeIdx> SuccLists(G.size());
    forEachEdge([&](NodeIdx From, NodeIdx) { SuccLists.count(From); });
    SuccLists.startAdding();
    forEachEdge([&](NodeIdx From, NodeIdx To) { SuccLists.add(From, To); });
    SuccLists.finish(SuccBegin, Succs);
    Seen.assign(G.size(), 0);
  }
  size_t position(NodeIdx N) const { return Pos[N]; }
  /// Starts the questions about paths from \p A.
  void from(NodeIdx A) {
    ++Stamp;
    Stack.assign(1, A);
    Deferred = {};
    Seen[A] = Stamp;
  }
  /// Whether a path leads from the node of from() to \p B; each B asked
  /// about comes after the previous one in schedule order.
  bool reaches(NodeIdx B) {
    while (!Deferred.empty() && Deferred.top().first < Pos[B]) {
      Stack.push_back(Deferred.top().second);
      Deferred.pop();
    }
    while (Seen[B] != Stamp && !Stack.empty()) {
      NodeIdx N = Stack.back();
      Stack.pop_back();
      for (uint32_t I = SuccBegin[N]; I != SuccBegin[N + 1]; ++I) {
        NodeIdx S = Succs[I];
        if (Seen[S] == Stamp)
          continue;
        Seen[S] = Stamp;
        if (Pos[S] < Pos[B])
          Stack.push_back(S);
        else
          Deferred.push({Pos[S], S});
      }
    }
    return Seen[B] == Stamp;
  }

private:
  template <typename Fn> void forEachEdge(Fn F) const {
    for (NodeIdx I = 0, E = G.size(); I != E; ++I)
      for (const EdgeList *L : {&G[I].Preds, &G[I].ReusePreds})
        for (NodeIdx P : *L)
          F(P, I);
  }

  const Graph &G;
  std::vector<size_t> Pos;
  std::vector<uint32_t> SuccBegin;
  std::vector<NodeIdx> Succs;
  std::vector<uint32_t> Seen;
  uint32_t Stamp = 0;
  /// Reached nodes not yet expanded: those scheduled before the B asked
  /// about, and those after it (the earliest first).
  std::vector<NodeIdx> Stack;
  std::priority_queue<std::pair<size_t, NodeIdx>,
                      std::vector<std::pair<size_t, NodeIdx>>,
                      std::greater<std::pair<size_t, NodeIdx>>>
      Deferred;
};

struct Warning {
  Warning(size_t Pos, NodeIdx At, std::string Msg, NodeIdx NoteAt = 0,
          std::string Note = "")
      : Pos(Pos), At(At), Msg(std::move(Msg)), NoteAt(NoteAt),
        Note(std::move(Note)) {}
  size_t Pos; ///< the schedule position of the node warned about
  NodeIdx At;
  std::string Msg;
  NodeIdx NoteAt; ///< where the note points, when there is a note
  std::string Note;
};

} // namespace

unsigned lintGraph(const Graph &G, const DiagHandler &Diag) {
  PathFinder Paths(G);
  std::vector<Warning> Warnings;
  auto Name = [&](NodeIdx I) { return "n" + std::to_string(G[I].Id); };

  // The operations of each buffer, in schedule order.
  DenseMap<uint64_t, SmallVector<NodeIdx, 4>> Users;
  DenseMap<uint64_t, NodeIdx> AllocOf;
  for (NodeIdx I : G.Order) {
    const Node &N = G[I];
    if (N.Kind == NodeKind::Alloc)
      AllocOf.try_emplace(N.Buf, I);
    if (N.Kind != NodeKind::Op)
      continue;
    if (N.Bufs.empty())
      Warnings.emplace_back(Paths.position(I), I,
                            "operation " + Name(I) + " (" + G.opName(N).str() +
                                ") uses no buffer");
    for (uint64_t B : N.Bufs) {
      SmallVector<NodeIdx, 4> &L = Users[B];
      if (L.empty() || L.back() != I) // a buffer listed twice is one use
        L.push_back(I);
    }
  }
  for (NodeIdx I : G.Order) {
    const Node &N = G[I];
    if (N.Kind == NodeKind::Alloc && !Users.count(N.Buf))
      Warnings.emplace_back(Paths.position(I), I,
                            "buffer b" + std::to_string(N.Buf) +
                                " is allocated but no operation uses it");
  }
  // The first use of a buffer fills it (a load from DDR, or the operation
  // that produces it); every other use must come after that one. Later uses
  // may run at once with each other: most are reads of the same data (two
  // CONVs of one input tile), which the graph cannot tell from writes.
  for (NodeIdx I : G.Order) {
    const Node &N = G[I];
    auto It = Users.find(N.Buf);
    if (N.Kind != NodeKind::Alloc || It == Users.end())
      continue;
    ArrayRef<NodeIdx> L = It->second;
    Paths.from(L[0]);
    for (NodeIdx U : L.drop_front()) {
      if (Paths.reaches(U))
        continue;
      std::string B = "b" + std::to_string(N.Buf);
      Warnings.emplace_back(Paths.position(U), U,
                            "operation " + Name(U) + " uses buffer " + B +
                                " but no path of " + "edges orders it after " +
                                Name(L[0]) + ", the first use of " + B +
                                "; the replay may run them at once",
                            L[0], "the first use of " + B + " is here");
      break; // one warning per buffer
    }
  }

  llvm::stable_sort(Warnings, [](const Warning &A, const Warning &B) {
    return A.Pos < B.Pos;
  });
  for (const Warning &W : Warnings) {
    Diag(G[W.At].Loc, SourceMgr::DK_Warning, W.Msg);
    if (!W.Note.empty())
      Diag(G[W.NoteAt].Loc, SourceMgr::DK_Note, W.Note);
  }
  return Warnings.size();
}

} // namespace dan
