//===- Components.cpp - Parts of a graph cut out and joined back ----------===//

#include "dan/IR/Components.h"
#include "dan/IR/IdIndex.h"
#include "dan/IR/MemoryPlan.h"
#include "llvm/ADT/DenseMap.h"
#include "llvm/ADT/SmallPtrSet.h"
#include <algorithm>
#include <cassert>
#include <vector>

using namespace llvm;

namespace dan {

/// Gives \p N, a node of \p From copied into \p Into, Into's own copy of
/// its tiles and attributes.
static void copyNodeTables(const Graph &From, Node &N, Graph &Into) {
  if (N.TileSet)
    N.TileSet = Into.addTiles(From.Tiles[N.TileSet - 1]);
  if (N.AttrSet)
    N.AttrSet = Into.addAttrs(From.Attrs[N.AttrSet - 1]);
}

std::unique_ptr<Graph> extractPart(const Graph &G, ArrayRef<NodeIdx> Nodes) {
  auto Out = std::make_unique<Graph>();
  Out->Name = G.Name;
  Out->Target = G.Target;
  // The same op name table, index for index.
  for (const std::string &Name : G.OpNames)
    Out->internOpName(Name);
  DenseMap<NodeIdx, NodeIdx> NewIndex;
  NewIndex.reserve(Nodes.size());
  for (NodeIdx I : Nodes)
    NewIndex[I] = NewIndex.size();
  Out->Nodes.reserve(Nodes.size());
  Out->Order.reserve(Nodes.size());
  for (NodeIdx I : Nodes) {
    Out->Order.push_back(Out->Nodes.size());
    Node &N = Out->Nodes.emplace_back(G[I]);
    copyNodeTables(G, N, *Out);
    // The mapping keeps each list sorted: ids are unchanged. Edges from
    // nodes left out are dropped.
    for (EdgeList *L : {&N.Preds, &N.ReusePreds}) {
      size_t Kept = 0;
      for (NodeIdx Pred : *L)
        if (auto It = NewIndex.find(Pred); It != NewIndex.end())
          (*L)[Kept++] = It->second;
      L->truncate(Kept);
    }
  }
  return Out;
}

std::vector<NodeIdx> neighbourhood(const Graph &G, NodeIdx Center,
                                   unsigned Depth) {
  std::vector<std::vector<NodeIdx>> Succs(G.size());
  for (NodeIdx I = 0, E = G.size(); I != E; ++I)
    for (const EdgeList *L : {&G[I].Preds, &G[I].ReusePreds})
      for (NodeIdx P : *L)
        Succs[P].push_back(I);
  std::vector<unsigned> Dist(G.size(), ~0u);
  std::vector<NodeIdx> Frontier = {Center};
  Dist[Center] = 0;
  for (unsigned D = 1; D <= Depth && !Frontier.empty(); ++D) {
    std::vector<NodeIdx> Next;
    auto Visit = [&](NodeIdx M) {
      if (Dist[M] == ~0u) {
        Dist[M] = D;
        Next.push_back(M);
      }
    };
    for (NodeIdx N : Frontier) {
      for (const EdgeList *L : {&G[N].Preds, &G[N].ReusePreds})
        for (NodeIdx M : *L)
          Visit(M);
      for (NodeIdx M : Succs[N])
        Visit(M);
    }
    Frontier = std::move(Next);
  }
  std::vector<NodeIdx> Result;
  for (NodeIdx I : G.Order)
    if (Dist[I] != ~0u)
      Result.push_back(I);
  return Result;
}

/// Adds to \p Out the dependence edges of \p Shape between nodes of
/// different parts (the parts' storage starts at \p PartStart, which ends
/// with Out's size): the edges that extractPart left out. Such edges join
/// operations and buffer nodes of the input, never spill nodes, so they are
/// found by id.
static void addEdgesBetweenParts(Graph &Out, ArrayRef<NodeIdx> PartStart,
                                 const Graph &Shape) {
  if (PartStart.size() < 3)
    return;
  IdIndex IndexOf(Out.size());
  std::vector<uint32_t> PartOf(Out.size());
  for (size_t P = 0; P + 1 != PartStart.size(); ++P)
    for (NodeIdx I = PartStart[P]; I != PartStart[P + 1]; ++I) {
      PartOf[I] = P;
      if (!Out[I].isSpill())
        IndexOf.insert(Out[I].Id, I);
    }
  for (const Node &N : Shape.Nodes) {
    if (N.isSpill())
      continue;
    uint32_t To = IndexOf.lookup(N.Id);
    for (NodeIdx Pred : N.Preds) {
      uint32_t From = IndexOf.lookup(Shape[Pred].Id);
      if (To != IdIndex::None && From != IdIndex::None &&
          PartOf[From] != PartOf[To])
        Out[To].Preds.push_back(From);
    }
  }
}

/// The first spill id of \p P's nodes: one past its largest other id.
static uint64_t firstSpillIdOf(const JoinPart &P) {
  if (!P.Renamed)
    return P.Planned->firstSpillId();
  const RenamedPart &R = *P.Renamed;
  uint64_t Next = 0;
  for (size_t I = 0; I != R.NodeIds.size(); ++I)
    if (!R.Result->Nodes[I].isSpill())
      Next = std::max(Next, R.NodeIds[I] + 1);
  return Next;
}

/// Gives \p C, node \p I of renamed part \p R copied, part K's ids, and an
/// input node its location, tiles and attributes; the graph whose tables
/// its tile and attribute sets now index.
static const Graph *renameNode(Node &C, size_t I, const RenamedPart &R,
                               const uint64_t *&NextBuf, const Graph &Shape) {
  C.Id = R.NodeIds[I];
  if (C.isBufferNode())
    C.Buf = *NextBuf++;
  for (uint64_t &B : C.Bufs)
    B = *NextBuf++;
  if (I >= R.Inputs.size())
    return R.Result;
  const Node &In = Shape[R.Inputs[I]];
  C.Loc = In.Loc;
  C.TileSet = In.TileSet;
  C.AttrSet = In.AttrSet;
  return &Shape;
}

std::unique_ptr<Graph> joinParts(ArrayRef<JoinPart> Parts, const Graph &Shape) {
  auto Out = std::make_unique<Graph>();
  size_t Nodes = 0, Scheduled = 0;
  // The planned parts a renamed part reads: copied, not moved.
  SmallPtrSet<const Graph *, 4> Read;
  for (const JoinPart &P : Parts) {
    assert(!P.Planned != !P.Renamed && "a part is planned or renamed");
    const Graph &From = P.Renamed ? *P.Renamed->Result : *P.Planned;
    Nodes += From.Nodes.size();
    Scheduled += From.Order.size();
    if (P.Renamed)
      Read.insert(P.Renamed->Result);
  }
  Out->Nodes.reserve(Nodes);
  Out->Order.reserve(Scheduled);
  Out->Name = Shape.Name;
  Out->Target = Shape.Target;
  for (const std::string &Name : Shape.OpNames)
    Out->internOpName(Name);
  // Spill ids for the whole: each part's spill k is N + Base + 2k, N one
  // past every non-spill id of the whole, Base past the parts before.
  uint64_t FirstSpill = Shape.firstSpillId(), Base = 0;
  bool Planned = false;
  std::vector<NodeIdx> PartStart;
  for (const JoinPart &P : Parts) {
    const Graph &From = P.Renamed ? *P.Renamed->Result : *P.Planned;
    Graph *Moved = P.Planned && !Read.count(P.Planned) ? P.Planned : nullptr;
    const uint64_t *NextBuf = P.Renamed ? P.Renamed->BufferIds.data() : nullptr;
    uint64_t PartFirst = firstSpillIdOf(P), PartEnd = 0;
    NodeIdx IndexBase = Out->Nodes.size();
    // The part's op names as indices into Out's table.
    std::vector<uint32_t> OpNameOf;
    OpNameOf.reserve(From.OpNames.size());
    for (const std::string &Name : From.OpNames)
      OpNameOf.push_back(Out->internOpName(Name));
    for (size_t I = 0; I != From.Nodes.size(); ++I) {
      Node &C = Moved ? Out->Nodes.emplace_back(std::move(Moved->Nodes[I]))
                      : Out->Nodes.emplace_back(From.Nodes[I]);
      const Graph *Tables =
          P.Renamed ? renameNode(C, I, *P.Renamed, NextBuf, Shape) : &From;
      if (C.isSpill()) {
        PartEnd = std::max(PartEnd, C.Id - PartFirst + 1);
        C.Id = FirstSpill + Base + (C.Id - PartFirst);
      }
      if (!C.isBufferNode())
        C.OpName = OpNameOf[C.OpName];
      if (C.TileSet)
        C.TileSet = Moved
                        ? Out->addTiles(std::move(Moved->Tiles[C.TileSet - 1]))
                        : Out->addTiles(Tables->Tiles[C.TileSet - 1]);
      if (C.AttrSet)
        C.AttrSet = Moved
                        ? Out->addAttrs(std::move(Moved->Attrs[C.AttrSet - 1]))
                        : Out->addAttrs(Tables->Attrs[C.AttrSet - 1]);
      for (EdgeList *L : {&C.Preds, &C.ReusePreds})
        for (NodeIdx &Pred : *L)
          Pred += IndexBase;
      Planned |= C.HasOffset || C.isSpill();
    }
    for (NodeIdx I : From.Order)
      Out->Order.push_back(I + IndexBase);
    if (Moved) {
      Moved->Nodes.clear();
      Moved->Order.clear();
      Moved->Tiles.clear();
      Moved->Attrs.clear();
    }
    Base += (PartEnd + 1) / 2 * 2;
    PartStart.push_back(IndexBase);
  }
  PartStart.push_back(Out->Nodes.size());
  addEdgesBetweenParts(*Out, PartStart, Shape);
  // renumberSpills sorts the edges (the ones between parts too), and
  // setReuseEdges gives sorted reuse edges.
  if (Planned) {
    renumberSpills(*Out);
    setReuseEdges(*Out);
  } else {
    Out->sortEdges();
  }
  return Out;
}

} // namespace dan
