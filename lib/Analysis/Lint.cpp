//===- Lint.cpp - Warnings about graphs that verify -----------------------===//

#include "dan/Analysis/Lint.h"
#include "BufferUses.h"
#include "PathFinder.h"
#include "dan/Analysis/Verifier.h"
#include "dan/IR/IdIndex.h"
#include "llvm/ADT/STLExtras.h"
#include <algorithm>
#include <optional>
#include <utility>

using namespace llvm;

namespace dan {

namespace {

struct Warning {
  Warning(size_t Pos, NodeIdx At, std::string Msg, NodeIdx NoteAt = 0,
          std::string Note = "")
      : Pos(Pos), At(At), Msg(std::move(Msg)), NoteAt(NoteAt),
        Note(std::move(Note)) {}
  size_t Pos;       ///< the schedule position of the node warned about
  uint32_t Key = 0; ///< among warnings at one node: the buffer's place
  NodeIdx At;
  std::string Msg;
  NodeIdx NoteAt; ///< where the note points, when there is a note
  std::string Note;
};

} // namespace

unsigned lintGraph(const Graph &G, const DiagHandler &Diag) {
  std::vector<uint32_t> Pos = G.positions();
  std::vector<Warning> Warnings;
  auto Name = [&](NodeIdx I) { return "n" + std::to_string(G[I].Id); };

  // Whether a node comes before another by an edge: an operation without
  // buffers between two nodes orders them (dan-link's SYNC of a kernel
  // boundary); one that orders nothing does nothing.
  std::vector<char> HasSucc(G.size(), 0);
  for (const Node &N : G.Nodes)
    for (NodeIdx P : N.Preds)
      HasSucc[P] = 1;
  for (NodeIdx I : G.Order) {
    const Node &N = G[I];
    if (N.Kind == NodeKind::Op && N.Bufs.empty() &&
        (N.Preds.empty() || !HasSucc[I]))
      Warnings.emplace_back(Pos[I], I,
                            "operation " + Name(I) + " (" + G.opName(N).str() +
                                ") uses no buffer and orders no two nodes");
  }

  // The operations of each allocated buffer, keyed by its alloc's index
  // among the allocs.
  IdIndex AllocIndex(G.size());
  std::vector<NodeIdx> Allocs;
  for (NodeIdx I : G.Order)
    if (G[I].Kind == NodeKind::Alloc &&
        AllocIndex.insert(G[I].Buf, Allocs.size()))
      Allocs.push_back(I);
  detail::BufferUses Users(G, Allocs.size(),
                           [&](uint64_t B) { return AllocIndex.lookup(B); });

  // Paths along every edge, by schedule position (searched only for a use
  // that no edge of its own orders after its buffer's first use). A
  // buffer's search follows at most PathSearchBudget edges; its uses still
  // open then are answered with every other buffer's at the end, 64 first
  // uses at a time (a chain between first uses and later ones would make
  // each search walk it).
  detail::PathFinder Paths(G, Pos, /*Backward=*/false, /*WithReuse=*/true);
  std::vector<detail::PathFinder::Question> Open;
  // Per buffer whose search ran out: its place, and its questions in Open.
  struct OpenUses {
    uint32_t Key;
    size_t Begin, End;
  };
  std::vector<OpenUses> OpenBuffers;
  auto WarnUnordered = [&](uint32_t K, NodeIdx U) {
    NodeIdx A = Allocs[K], First = Users.of(K)[0];
    std::string B = "b" + std::to_string(G[A].Buf);
    Warning &W = Warnings.emplace_back(
        Pos[U], U,
        "operation " + Name(U) + " uses buffer " + B + " but no path of " +
            "edges orders it after " + Name(First) + ", the first use of " + B +
            "; the replay may run them at once",
        First, "the first use of " + B + " is here");
    W.Key = K;
  };
  for (uint32_t K = 0; K != Allocs.size(); ++K) {
    NodeIdx A = Allocs[K];
    ArrayRef<NodeIdx> L = Users.of(K);
    if (L.empty()) {
      Warnings.emplace_back(Pos[A], A,
                            "buffer b" + std::to_string(G[A].Buf) +
                                " is allocated but no operation uses it");
      continue;
    }
    // The first use of a buffer fills it (a load from DDR, or the operation
    // that produces it); every other use must come after that one. Later
    // uses may run at once with each other: most are reads of the same data
    // (two CONVs of one input tile), which the graph cannot tell from writes.
    Paths.from(L[0]);
    for (size_t J = 1; J != L.size(); ++J) {
      NodeIdx U = L[J];
      if (is_contained(G[U].Preds, L[0]))
        continue;
      std::optional<bool> Yes = Paths.reachesWithin(U, PathSearchBudget);
      if (Yes && *Yes)
        continue;
      if (Yes) {
        WarnUnordered(K, U);
        break; // one warning per buffer
      }
      size_t Begin = Open.size();
      for (; J != L.size(); ++J)
        Open.push_back({L[0], L[J]});
      OpenBuffers.push_back({K, Begin, Open.size()});
      break;
    }
  }
  std::vector<uint8_t> Ordered(Open.size());
  Paths.answer(Open, Ordered);
  for (const OpenUses &O : OpenBuffers)
    for (size_t Q = O.Begin; Q != O.End; ++Q)
      if (!Ordered[Q]) {
        WarnUnordered(O.Key, Open[Q].To);
        break;
      }

  llvm::stable_sort(Warnings, [](const Warning &A, const Warning &B) {
    return std::pair(A.Pos, A.Key) < std::pair(B.Pos, B.Key);
  });
  for (const Warning &W : Warnings) {
    Diag(G[W.At].Loc, SourceMgr::DK_Warning, W.Msg);
    if (!W.Note.empty())
      Diag(G[W.NoteAt].Loc, SourceMgr::DK_Note, W.Note);
  }
  return Warnings.size();
}

} // namespace dan
