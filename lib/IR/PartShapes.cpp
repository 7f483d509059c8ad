//===- PartShapes.cpp - Parts of a graph alike up to their ids ------------===//
//
// Copies of a kernel, or one kernel in each layer of a model, are parts of
// one graph that differ only in their ids. A pass that reads ids only by
// their order makes of each the first's result under the renaming.
//
//===----------------------------------------------------------------------===//

#include "dan/IR/Components.h"
#include "dan/Target/Target.h"
#include "llvm/ADT/Hashing.h"
#include "llvm/ADT/STLExtras.h"
#include <algorithm>

using namespace llvm;

namespace dan {

/// The rank of \p Id in \p Sorted, or UINT32_MAX when it is not there.
static uint32_t rankOf(ArrayRef<uint64_t> Sorted, uint64_t Id) {
  const uint64_t *It = std::lower_bound(Sorted.begin(), Sorted.end(), Id);
  if (It == Sorted.end() || *It != Id)
    return UINT32_MAX;
  return It - Sorted.begin();
}

static void sortUnique(std::vector<uint64_t> &V) {
  llvm::sort(V);
  V.erase(std::unique(V.begin(), V.end()), V.end());
}

PartIds partIds(const Graph &Part) {
  PartIds Ids;
  Ids.Nodes.reserve(Part.Nodes.size());
  // A buffer node names its buffer in Buf, an operation its buffers in Bufs.
  for (const Node &N : Part.Nodes) {
    Ids.Nodes.push_back(N.Id);
    if (N.isBufferNode())
      Ids.Buffers.push_back(N.Buf);
    llvm::append_range(Ids.Buffers, N.Bufs);
  }
  sortUnique(Ids.Nodes);
  sortUnique(Ids.Buffers);
  return Ids;
}

uint64_t partShapeHash(const Graph &Part, const PartIds &Ids) {
  hash_code H = hash_combine(Part.Nodes.size(), Part.Order.size());
  for (const Node &N : Part.Nodes)
    H = hash_combine(H, rankOf(Ids.Nodes, N.Id), static_cast<unsigned>(N.Kind),
                     N.OpName, N.Size, N.Cycles, N.Offset, N.Preds.size(),
                     N.ReusePreds.size(), N.Bufs.size());
  return static_cast<uint64_t>(H);
}

/// Whether \p X of a part with ids \p IX and \p Y of one with ids \p IY are
/// alike: the same in all but ids (the same ranks), locations, tile and
/// attribute sets.
static bool alike(const Node &X, const PartIds &IX, const Node &Y,
                  const PartIds &IY) {
  if (rankOf(IX.Nodes, X.Id) != rankOf(IY.Nodes, Y.Id) || X.Kind != Y.Kind ||
      X.BufTier != Y.BufTier || X.OpPipe != Y.OpPipe ||
      X.HasOffset != Y.HasOffset || X.OpName != Y.OpName || X.Size != Y.Size ||
      X.Cycles != Y.Cycles || X.Offset != Y.Offset || X.Preds != Y.Preds ||
      X.ReusePreds != Y.ReusePreds || X.Bufs.size() != Y.Bufs.size())
    return false;
  if (X.isBufferNode() ? rankOf(IX.Buffers, X.Buf) != rankOf(IY.Buffers, Y.Buf)
                       : X.Buf != Y.Buf)
    return false;
  for (size_t K = 0; K != X.Bufs.size(); ++K)
    if (rankOf(IX.Buffers, X.Bufs[K]) != rankOf(IY.Buffers, Y.Bufs[K]))
      return false;
  return true;
}

bool partsAlike(const Graph &A, const PartIds &IdsA, const Graph &B,
                const PartIds &IdsB) {
  if (A.Nodes.size() != B.Nodes.size() || A.Order != B.Order ||
      IdsA.Nodes.size() != IdsB.Nodes.size() ||
      IdsA.Buffers.size() != IdsB.Buffers.size())
    return false;
  for (size_t I = 0; I != A.Nodes.size(); ++I)
    if (!alike(A.Nodes[I], IdsA, B.Nodes[I], IdsB))
      return false;
  return true;
}

/// \p Id of the result of a pass on a part with ids \p From, renamed to the
/// part with ids \p To, alike it: an input id by rank, an id past the
/// input's as far past To's last one; nullopt for an id between the input's
/// that is not one of them.
static std::optional<uint64_t> renameNodeId(uint64_t Id, const PartIds &From,
                                            const PartIds &To) {
  if (From.Nodes.empty() || Id > From.Nodes.back())
    return (To.Nodes.empty() ? 0 : To.Nodes.back()) +
           (Id - (From.Nodes.empty() ? 0 : From.Nodes.back()));
  uint32_t Rank = rankOf(From.Nodes, Id);
  if (Rank == UINT32_MAX)
    return std::nullopt;
  return To.Nodes[Rank];
}

bool takeRenamedResult(const Graph &Result, const PartIds &ResultIds,
                       Graph &Part, const PartIds &Ids) {
  size_t Inputs = Part.Nodes.size();
  if (Result.Nodes.size() < Inputs)
    return false;
  Graph Out = Result;
  for (size_t I = 0; I != Out.Nodes.size(); ++I) {
    Node &N = Out.Nodes[I];
    std::optional<uint64_t> Id = renameNodeId(N.Id, ResultIds, Ids);
    if (!Id || *Id > MaxValue)
      return false;
    if (I < Inputs) {
      // The pass kept the input's node I there.
      const Node &In = Part.Nodes[I];
      if (*Id != In.Id)
        return false;
      N.Loc = In.Loc;
      N.TileSet = In.TileSet;
      N.AttrSet = In.AttrSet;
    }
    N.Id = *Id;
    auto RenameBuffer = [&](uint64_t &Buf) {
      uint32_t Rank = rankOf(ResultIds.Buffers, Buf);
      if (Rank == UINT32_MAX)
        return false;
      Buf = Ids.Buffers[Rank];
      return true;
    };
    if (N.isBufferNode() && !RenameBuffer(N.Buf))
      return false;
    for (uint64_t &B : N.Bufs)
      if (!RenameBuffer(B))
        return false;
  }
  Part = std::move(Out);
  return true;
}

} // namespace dan
