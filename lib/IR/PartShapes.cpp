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

PartMap::PartMap(const Graph &G, ArrayRef<std::vector<NodeIdx>> Parts)
    : G(G), Parts(Parts), PartOf(G.size(), None), Local(G.size(), None) {
  for (size_t K = 0; K != Parts.size(); ++K)
    for (size_t I = 0; I != Parts[K].size(); ++I) {
      assert(PartOf[Parts[K][I]] == None && "parts share a node");
      PartOf[Parts[K][I]] = K;
      Local[Parts[K][I]] = I;
    }
}

PartIds partIds(const PartMap &Map, size_t K) {
  const Graph &G = Map.graph();
  PartIds Ids;
  std::vector<std::pair<uint64_t, uint32_t>> NodeRefs, BufferRefs;
  NodeRefs.reserve(Map.nodes(K).size());
  for (NodeIdx I : Map.nodes(K)) {
    const Node &N = G[I];
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

/// How many of \p L, edges into a node of part \p K, come from part K.
static size_t edgesInside(const PartMap &Map, size_t K, const EdgeList &L) {
  return count_if(
      L, [&](NodeIdx P) { return Map.localIndex(K, P) != PartMap::None; });
}

uint64_t partShapeHash(const PartMap &Map, size_t K, const PartIds &Ids) {
  const Graph &G = Map.graph();
  hash_code H =
      hash_combine(Map.nodes(K).size(),
                   hash_combine_range(Ids.Ranks.begin(), Ids.Ranks.end()));
  for (NodeIdx I : Map.nodes(K)) {
    const Node &N = G[I];
    H = hash_combine(H, static_cast<unsigned>(N.Kind), N.OpName, N.Size,
                     N.Cycles, N.Offset, edgesInside(Map, K, N.Preds),
                     edgesInside(Map, K, N.ReusePreds));
  }
  return static_cast<uint64_t>(H);
}

/// Whether \p X and \p Y, nodes at one index of two parts whose ranks are
/// equal, are alike: the same in all but ids, locations, tile and
/// attribute sets, edges compared by the parts' own indices.
static bool alike(const PartMap &Map, size_t A, const Node &X, size_t B,
                  const Node &Y) {
  if (!(X.Kind == Y.Kind && X.BufTier == Y.BufTier && X.OpPipe == Y.OpPipe &&
        X.HasOffset == Y.HasOffset && X.OpName == Y.OpName &&
        X.Size == Y.Size && X.Cycles == Y.Cycles && X.Offset == Y.Offset &&
        X.Bufs.size() == Y.Bufs.size() && (X.isBufferNode() || X.Buf == Y.Buf)))
    return false;
  // The edges a part cut out keeps: those from inside it, in list order.
  auto SameInside = [&](const EdgeList &LX, const EdgeList &LY) {
    auto IX = LX.begin(), IY = LY.begin();
    for (;;) {
      uint32_t PX = PartMap::None, PY = PartMap::None;
      while (IX != LX.end() && (PX = Map.localIndex(A, *IX++)) == PartMap::None)
        ;
      while (IY != LY.end() && (PY = Map.localIndex(B, *IY++)) == PartMap::None)
        ;
      if (PX != PY)
        return false;
      if (PX == PartMap::None)
        return true;
    }
  };
  return SameInside(X.Preds, Y.Preds) && SameInside(X.ReusePreds, Y.ReusePreds);
}

bool partsAlike(const PartMap &Map, size_t A, const PartIds &IdsA, size_t B,
                const PartIds &IdsB) {
  ArrayRef<NodeIdx> NA = Map.nodes(A), NB = Map.nodes(B);
  if (NA.size() != NB.size() || IdsA.Ranks != IdsB.Ranks)
    return false;
  const Graph &G = Map.graph();
  for (size_t I = 0; I != NA.size(); ++I)
    if (!alike(Map, A, G[NA[I]], B, G[NB[I]]))
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

std::optional<RenamedPart> renamePart(const Graph &Result,
                                      const PartIds &ResultIds,
                                      const PartMap &Map, size_t K,
                                      const PartIds &Ids) {
  const Graph &G = Map.graph();
  ArrayRef<NodeIdx> Inputs = Map.nodes(K);
  if (Result.Nodes.size() < Inputs.size() ||
      Result.OpNames.size() != G.OpNames.size())
    return std::nullopt;
  RenamedPart R;
  R.Result = &Result;
  R.Inputs = Inputs;
  R.NodeIds.resize(Result.Nodes.size());
  auto Rename = [&](uint64_t Buf) {
    uint32_t Rank = rankOf(ResultIds.Buffers, Buf);
    if (Rank != UINT32_MAX)
      R.BufferIds.push_back(Ids.Buffers[Rank]);
    return Rank != UINT32_MAX;
  };
  for (size_t I = 0; I != Result.Nodes.size(); ++I) {
    const Node &N = Result.Nodes[I];
    std::optional<uint64_t> Id = renameNodeId(N.Id, ResultIds, Ids);
    // The pass kept the input's node I at index I.
    if (!Id || *Id > MaxValue || (I < Inputs.size() && *Id != G[Inputs[I]].Id))
      return std::nullopt;
    R.NodeIds[I] = *Id;
    if (N.isBufferNode() && !Rename(N.Buf))
      return std::nullopt;
    for (uint64_t B : N.Bufs)
      if (!Rename(B))
        return std::nullopt;
  }
  return R;
}

} // namespace dan
