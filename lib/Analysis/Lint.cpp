//===- Lint.cpp - Warnings about graphs that verify -----------------------===//

#include "dan/Analysis/Lint.h"
#include "PathFinder.h"
#include "dan/IR/IdIndex.h"
#include "llvm/ADT/DenseMap.h"
#include "llvm/ADT/STLExtras.h"
#include <algorithm>

using namespace llvm;

namespace dan {

namespace {

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
  // Paths along every edge, by schedule position.
  detail::PathFinder Paths(G, G.positions(), /*Backward=*/false,
                           /*WithReuse=*/true);
  std::vector<Warning> Warnings;
  auto Name = [&](NodeIdx I) { return "n" + std::to_string(G[I].Id); };

  // Whether a node comes before another by an edge: an operation without
  // buffers between two nodes orders them (dan-link's SYNC of a kernel
  // boundary); one that orders nothing does nothing.
  std::vector<char> HasSucc(G.size(), 0);
  for (const Node &N : G.Nodes)
    for (NodeIdx P : N.Preds)
      HasSucc[P] = 1;
  // The operations of each buffer, in schedule order.
  DenseMap<uint64_t, SmallVector<NodeIdx, 4>> Users;
  DenseMap<uint64_t, NodeIdx> AllocOf;
  for (NodeIdx I : G.Order) {
    const Node &N = G[I];
    if (N.Kind == NodeKind::Alloc)
      AllocOf.try_emplace(N.Buf, I);
    if (N.Kind != NodeKind::Op)
      continue;
    if (N.Bufs.empty() && (N.Preds.empty() || !HasSucc[I]))
      Warnings.emplace_back(Paths.position(I), I,
                            "operation " + Name(I) + " (" + G.opName(N).str() +
                                ") uses no buffer and orders no two nodes");
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
