//===- Components.cpp - Parts of a graph cut out and joined back ----------===//

#include "dan/IR/Components.h"
#include "dan/IR/IdIndex.h"
#include "dan/IR/MemoryPlan.h"
#include "llvm/ADT/DenseMap.h"
#include <vector>

using namespace llvm;

namespace dan {

void copyNodeTables(const Graph &From, Node &N, Graph &Into) {
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

std::unique_ptr<Graph> joinParts(ArrayRef<Graph *> Parts, const Graph &Shape) {
  auto Out = std::make_unique<Graph>();
  size_t Nodes = 0, Scheduled = 0;
  for (const Graph *P : Parts) {
    Nodes += P->Nodes.size();
    Scheduled += P->Order.size();
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
  for (Graph *P : Parts) {
    uint64_t PartFirst = P->firstSpillId(), PartEnd = 0;
    NodeIdx IndexBase = Out->Nodes.size();
    // The part's op names as indices into Out's table.
    std::vector<uint32_t> OpNameOf;
    OpNameOf.reserve(P->OpNames.size());
    for (const std::string &Name : P->OpNames)
      OpNameOf.push_back(Out->internOpName(Name));
    for (Node &N : P->Nodes) {
      Node &C = Out->Nodes.emplace_back(std::move(N));
      if (C.isSpill()) {
        PartEnd = std::max(PartEnd, C.Id - PartFirst + 1);
        C.Id = FirstSpill + Base + (C.Id - PartFirst);
      }
      if (!C.isBufferNode())
        C.OpName = OpNameOf[C.OpName];
      if (C.TileSet)
        C.TileSet = Out->addTiles(std::move(P->Tiles[C.TileSet - 1]));
      if (C.AttrSet)
        C.AttrSet = Out->addAttrs(std::move(P->Attrs[C.AttrSet - 1]));
      for (EdgeList *L : {&C.Preds, &C.ReusePreds})
        for (NodeIdx &Pred : *L)
          Pred += IndexBase;
      Planned |= C.HasOffset || C.isSpill();
    }
    for (NodeIdx I : P->Order)
      Out->Order.push_back(I + IndexBase);
    P->Nodes.clear();
    P->Order.clear();
    P->Tiles.clear();
    P->Attrs.clear();
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
