//===- VerifyAgainst.cpp - Judging a stage-3 graph by its stage 2 ---------===//
//
// --against: a stage-3 file keeps its stage-2 plan. It has the same
// nodes, each defined the same way and placed at the same offset, every
// edge and reuse edge of the stage-2 file, and the same spill stream.
//
//===----------------------------------------------------------------------===//

#include "VerifierImpl.h"
#include "llvm/ADT/STLExtras.h"

using namespace llvm;

namespace dan::detail {

/// Whether two nodes say the same thing, ignoring offsets and edges.
static bool sameNode(const Graph &GA, const Node &A, const Graph &GB,
                     const Node &B) {
  if (A.Kind != B.Kind || A.Buf != B.Buf)
    return false;
  switch (A.Kind) {
  case NodeKind::Alloc:
  case NodeKind::Free:
    return A.BufTier == B.BufTier && A.Size == B.Size;
  case NodeKind::Op:
    return GA.opName(A) == GB.opName(B) && A.OpPipe == B.OpPipe &&
           A.Cycles == B.Cycles && A.Bufs == B.Bufs;
  case NodeKind::SpillOut:
  case NodeKind::SpillIn:
    return true;
  }
  return false;
}

void Verifier::checkAgainst(const Graph &S2) {
  IdIndex Here = G.idIndex(), There = S2.idIndex();
  auto S2Name = [&](NodeIdx I) { return describeNode(S2, I); };
  for (NodeIdx J : S2.Order)
    if (!Here.contains(S2[J].Id))
      error(S2[J].Loc, S2Name(J) + " of the stage-2 file is missing here");
  // PredOf[P] == I: P is a predecessor of I here (ReusePredOf, by a reuse
  // edge), marked once per node, so that a node with many predecessors
  // costs their count, not its square.
  std::vector<NodeIdx> PredOf(G.size(), NoNode), ReusePredOf(G.size(), NoNode);
  for (NodeIdx I : G.Order) {
    const Node &N = G[I];
    NodeIdx Twin = There.lookup(N.Id);
    if (Twin == IdIndex::None) {
      error(I, name(I) + " is not in the stage-2 file");
      continue;
    }
    const Node &M = S2[Twin];
    if (!sameNode(G, N, S2, M)) {
      error(I, name(I) + " differs from its stage-2 definition");
      note(M.Loc, "stage-2 definition is here");
      continue;
    }
    if (N.HasOffset != M.HasOffset || N.Offset != M.Offset) {
      auto Where = [](const Node &X) {
        return X.HasOffset ? "at " + std::to_string(X.Offset)
                           : std::string("without an offset");
      };
      error(I, name(I) + " places " + buf(N.Buf) + " " + Where(N) +
                   " but the stage-2 file places it " + Where(M) +
                   "; stage 3 keeps every offset");
      note(M.Loc, "stage-2 placement is here");
    }
    for (NodeIdx P : N.Preds)
      PredOf[P] = I;
    for (NodeIdx P : N.ReusePreds)
      ReusePredOf[P] = I;
    for (NodeIdx P : M.Preds) {
      NodeIdx Own = Here.lookup(S2[P].Id);
      if (Own != IdIndex::None && PredOf[Own] != I) {
        error(I, name(I) + " lacks the edge from n" + Twine(S2[P].Id) +
                     " that the stage-2 file has");
        note(M.Loc, "stage-2 definition is here");
      }
    }
    for (NodeIdx P : M.ReusePreds) {
      NodeIdx Own = Here.lookup(S2[P].Id);
      if (Own != IdIndex::None && ReusePredOf[Own] != I) {
        error(I, name(I) + " lacks the reuse edge from n" + Twine(S2[P].Id) +
                     " that the stage-2 file has; stage 3 keeps every reuse "
                     "edge");
        note(M.Loc, "stage-2 definition is here");
      }
    }
  }
  // The spill stream: spill nodes in schedule order.
  std::vector<NodeIdx> Mine, Theirs;
  for (NodeIdx I : G.Order)
    if (G[I].isSpill())
      Mine.push_back(I);
  for (NodeIdx J : S2.Order)
    if (S2[J].isSpill())
      Theirs.push_back(J);
  for (size_t K = 0, E = std::min(Mine.size(), Theirs.size()); K != E; ++K)
    if (G[Mine[K]].Id != S2[Theirs[K]].Id) {
      error(Mine[K],
            "the spill stream differs from the stage-2 file: " + name(Mine[K]) +
                " comes where the stage-2 file has " + S2Name(Theirs[K]));
      note(S2[Theirs[K]].Loc, "stage-2 spill node is here");
      return;
    }
}

} // namespace dan::detail
