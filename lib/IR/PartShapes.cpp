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
#include <optional>

using namespace llvm;

namespace dan {

/// The rank of \p Id in \p Sorted, or UINT32_MAX when it is not there.
static uint32_t rankOf(ArrayRef<uint64_t> Sorted, uint64_t Id) {
  const uint64_t *It = std::lower_bound(Sorted.begin(), Sorted.end(), Id);
  if (It == Sorted.end() || *It != Id)
    return UINT32_MAX;
  return It - Sorted.begin();
}

/// Sorts \p Refs (an id and the slot of Ranks that names it) by id, writes
/// the distinct ids to \p Sorted and the rank of each into its slot.
static void rankIds(std::vector<std::pair<uint64_t, uint32_t>> &Refs,
                    std::vector<uint64_t> &Sorted,
                    std::vector<uint32_t> &Ranks) {
  llvm::sort(Refs);
  for (auto [Id, Slot] : Refs) {
    if (Sorted.empty() || Sorted.back() != Id)
      Sorted.push_back(Id);
    Ranks[Slot] = Sorted.size() - 1;
  }
}

PartIds partIds(const Graph &Part) {
  PartIds Ids;
  std::vector<std::pair<uint64_t, uint32_t>> NodeRefs, BufferRefs;
  NodeRefs.reserve(Part.Nodes.size());
  for (const Node &N : Part.Nodes) {
    NodeRefs.push_back({N.Id, Ids.Ranks.size()});
    Ids.Ranks.push_back(0);
    if (N.isBufferNode()) {
      BufferRefs.push_back({N.Buf, Ids.Ranks.size()});
      Ids.Ranks.push_back(0);
    }
    for (uint64_t B : N.Bufs) {
      BufferRefs.push_back({B, Ids.Ranks.size()});
      Ids.Ranks.push_back(0);
    }
  }
  rankIds(NodeRefs, Ids.Nodes, Ids.Ranks);
  rankIds(BufferRefs, Ids.Buffers, Ids.Ranks);
  return Ids;
}

uint64_t partShapeHash(const Graph &Part, const PartIds &Ids) {
  hash_code H =
      hash_combine(Part.Nodes.size(),
                   hash_combine_range(Ids.Ranks.begin(), Ids.Ranks.end()));
  for (const Node &N : Part.Nodes)
    H = hash_combine(H, static_cast<unsigned>(N.Kind), N.OpName, N.Size,
                     N.Cycles, N.Offset, N.Preds.size(), N.ReusePreds.size());
  return static_cast<uint64_t>(H);
}

/// Whether \p X and \p Y, nodes at one index of two parts whose ranks are
/// equal, are alike: the same in all but ids, locations, tile and
/// attribute sets.
static bool alike(const Node &X, const Node &Y) {
  return X.Kind == Y.Kind && X.BufTier == Y.BufTier && X.OpPipe == Y.OpPipe &&
         X.HasOffset == Y.HasOffset && X.OpName == Y.OpName &&
         X.Size == Y.Size && X.Cycles == Y.Cycles && X.Offset == Y.Offset &&
         X.Preds == Y.Preds && X.ReusePreds == Y.ReusePreds &&
         X.Bufs.size() == Y.Bufs.size() && (X.isBufferNode() || X.Buf == Y.Buf);
}

bool partsAlike(const Graph &A, const PartIds &IdsA, const Graph &B,
                const PartIds &IdsB) {
  if (A.Nodes.size() != B.Nodes.size() || A.Order != B.Order ||
      IdsA.Ranks != IdsB.Ranks)
    return false;
  for (size_t I = 0; I != A.Nodes.size(); ++I)
    if (!alike(A.Nodes[I], B.Nodes[I]))
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
  if (Result.Nodes.size() < Inputs ||
      Result.OpNames.size() != Part.OpNames.size())
    return false;
  // The renamed ids first, so that Part stays as it was when one fails.
  std::vector<uint64_t> NodeIds(Result.Nodes.size());
  std::vector<uint32_t> BufferRanks;
  for (size_t I = 0; I != Result.Nodes.size(); ++I) {
    const Node &N = Result.Nodes[I];
    std::optional<uint64_t> Id = renameNodeId(N.Id, ResultIds, Ids);
    // The pass kept the input's node I at index I.
    if (!Id || *Id > MaxValue || (I < Inputs && *Id != Part.Nodes[I].Id))
      return false;
    NodeIds[I] = *Id;
    auto Rank = [&](uint64_t Buf) {
      BufferRanks.push_back(rankOf(ResultIds.Buffers, Buf));
      return BufferRanks.back() != UINT32_MAX;
    };
    if (N.isBufferNode() && !Rank(N.Buf))
      return false;
    for (uint64_t B : N.Bufs)
      if (!Rank(B))
        return false;
  }
  // Then a copy of Result's nodes with Part's ids and what a pass does not
  // read.
  std::vector<Node> Nodes = Result.Nodes;
  const uint32_t *NextRank = BufferRanks.data();
  for (size_t I = 0; I != Nodes.size(); ++I) {
    Node &N = Nodes[I];
    if (I < Inputs) {
      const Node &In = Part.Nodes[I];
      N.Loc = In.Loc;
      N.TileSet = In.TileSet;
      N.AttrSet = In.AttrSet;
    }
    N.Id = NodeIds[I];
    if (N.isBufferNode())
      N.Buf = Ids.Buffers[*NextRank++];
    for (uint64_t &B : N.Bufs)
      B = Ids.Buffers[*NextRank++];
  }
  Part.Nodes = std::move(Nodes);
  Part.Order = Result.Order;
  return true;
}

bool takeRenamedOrder(const Graph &Result, const PartIds &ResultIds,
                      Graph &Part, const PartIds &Ids) {
  if (Result.Nodes.size() != Part.Nodes.size() ||
      Result.Order.size() != Part.Order.size())
    return false;
  // Node I of the result must be node I of the input it was made from,
  // which has the rank of Part's node I (Ranks holds a node's rank and
  // then those of its buffer ids).
  size_t Slot = 0;
  for (size_t I = 0; I != Part.Nodes.size(); ++I) {
    const Node &N = Part.Nodes[I];
    if (Slot >= Ids.Ranks.size() || Ids.Ranks[Slot] >= ResultIds.Nodes.size() ||
        Result.Nodes[I].Id != ResultIds.Nodes[Ids.Ranks[Slot]])
      return false;
    Slot += 1 + N.isBufferNode() + N.Bufs.size();
  }
  Part.Order = Result.Order;
  return true;
}

} // namespace dan
