//===- Link.cpp - Joining graphs into one ---------------------------------===//

#include "dan/IR/Link.h"
#include "dan/IR/Diagnostic.h"
#include "dan/Target/Target.h"
#include "llvm/ADT/STLExtras.h"
#include "llvm/ADT/StringMap.h"
#include <algorithm>

using namespace llvm;

namespace dan {

/// A located error at the first planned node of \p G, if it has a plan.
static Error checkNoPlan(const Graph &G) {
  for (NodeIdx I : G.Order) {
    const Node &N = G[I];
    if (!N.HasOffset && !N.isSpill())
      continue;
    DiagList Diags;
    Diags.error(N.Loc,
                describeNode(G, I) +
                    (N.isSpill() ? " is a spill node" : " has an offset") +
                    ": graph " + G.Name +
                    " has a memory plan; dan-link joins graphs before "
                    "memory planning (dan-translate --strip-plan "
                    "removes a plan)");
    return Diags.takeError();
  }
  return Error::success();
}

static const EnumEntry<LinkJoin> LinkJoins[] = {
    {LinkJoin::Parallel, "parallel",
     "side by side: nothing connects two parts (default)"},
    {LinkJoin::Series, "series",
     "one after another: a SYNC on the target's vector pipe (1 cycle) after "
     "the last nodes of "
     "each part and before the first nodes of the next"},
    {LinkJoin::Stream, "stream",
     "streamed: the j-th of the N first nodes of a part waits for the "
     "(j*S/N)-th of the S last nodes of the part before"},
};

ArrayRef<EnumEntry<LinkJoin>> linkJoinTable() { return LinkJoins; }

namespace {
/// Where one part landed in the linked graph: its storage range.
struct PartRange {
  NodeIdx Begin, End;
};

/// The nodes of \p R in \p G without predecessors (\p Sinks false) or
/// without successors (\p Sinks true), by id; before the parts are joined,
/// every edge of a part stays in its range.
std::vector<NodeIdx> endNodes(const Graph &G, PartRange R, bool Sinks) {
  std::vector<char> HasSucc(R.End - R.Begin, 0);
  for (NodeIdx I = R.Begin; I != R.End; ++I)
    for (NodeIdx P : G[I].Preds)
      HasSucc[P - R.Begin] = 1;
  std::vector<NodeIdx> Out;
  for (NodeIdx I = R.Begin; I != R.End; ++I)
    if (Sinks ? !HasSucc[I - R.Begin] : G[I].Preds.empty())
      Out.push_back(I);
  llvm::sort(Out, [&](NodeIdx A, NodeIdx B) { return G[A].Id < G[B].Id; });
  return Out;
}

/// The operation between two parts joined in series.
Node syncNode(Graph &G, uint64_t Id) {
  Node Sync;
  Sync.Id = Id;
  Sync.Kind = NodeKind::Op;
  Sync.OpName = G.internOpName("SYNC");
  Sync.OpPipe = G.Target.syncPipe();
  Sync.Cycles = 1;
  return Sync;
}

/// Adds the edges that join the consecutive non-empty parts \p Ranges of
/// \p G as \p Join says; \p Syncs[K] is the SYNC between part K and K + 1
/// (Series only).
void joinParts(Graph &G, ArrayRef<PartRange> Ranges, ArrayRef<NodeIdx> Syncs,
               LinkJoin Join) {
  if (Join == LinkJoin::Parallel)
    return;
  // Every part's ends, before any edge between parts exists.
  std::vector<std::vector<NodeIdx>> Sinks, Sources;
  for (PartRange R : Ranges) {
    Sinks.push_back(endNodes(G, R, /*Sinks=*/true));
    Sources.push_back(endNodes(G, R, /*Sinks=*/false));
  }
  for (size_t K = 0; K + 1 < Ranges.size(); ++K) {
    ArrayRef<NodeIdx> Before = Sinks[K], After = Sources[K + 1];
    if (Join == LinkJoin::Series) {
      G[Syncs[K]].Preds.assign(Before.begin(), Before.end());
      for (NodeIdx I : After)
        G[I].Preds.push_back(Syncs[K]);
      continue;
    }
    // A part whose every node has a successor (a cycle, which the callers
    // refuse) has no last node to wait for.
    if (Before.empty())
      continue;
    for (size_t J = 0; J != After.size(); ++J)
      G[After[J]].Preds.push_back(Before[J * Before.size() / After.size()]);
  }
}
/// "'NAME'": an operation of a linked graph, named without its id (which
/// the link shifted; the message's location shows the line).
std::string opOf(const Graph &G, NodeIdx I) {
  return ("'" + G.opName(G[I]) + "'").str();
}

/// Adds an edge from the writer of each tile that \p G's operations read
/// to each reader in another part (the parts' storage ranges \p Ranges, in
/// link order). A tile read but written by no part, written twice, or
/// written by a part after the reader's is a located error.
Error resolveTiles(Graph &G, ArrayRef<PartRange> Ranges) {
  if (G.Tiles.empty())
    return Error::success();
  std::vector<uint32_t> PartOf(G.size(), 0);
  for (size_t P = 0; P != Ranges.size(); ++P)
    for (NodeIdx I = Ranges[P].Begin; I != Ranges[P].End; ++I)
      PartOf[I] = P;
  DiagList Diags;
  StringMap<NodeIdx> Writer;
  for (NodeIdx I : G.Order)
    if (const TileAccess *A = G.tilesOf(G[I]))
      for (const std::string &Name : A->Writes) {
        auto [It, New] = Writer.try_emplace(Name, I);
        if (New)
          continue;
        Diags.error(G[I].Loc, opOf(G, I) + " writes tile @" + Name +
                                  ", which is written already");
        Diags.note(G[It->second].Loc,
                   "the first write of @" + Name + " is here");
      }
  for (NodeIdx I : G.Order) {
    const TileAccess *A = G.tilesOf(G[I]);
    if (!A)
      continue;
    for (const std::string &Name : A->Reads) {
      auto It = Writer.find(Name);
      if (It == Writer.end()) {
        Diags.error(G[I].Loc, opOf(G, I) + " reads tile @" + Name +
                                  ", which no linked graph writes");
        continue;
      }
      NodeIdx W = It->second;
      if (PartOf[W] == PartOf[I])
        continue;
      if (PartOf[W] > PartOf[I]) {
        Diags.error(G[I].Loc, opOf(G, I) + " reads tile @" + Name +
                                  " before the graph that writes it; link "
                                  "the writer's graph first");
        Diags.note(G[W].Loc, "@" + Name + " is written here");
        continue;
      }
      if (!llvm::is_contained(G[I].Preds, W))
        G[I].Preds.push_back(W);
    }
  }
  if (!Diags.empty())
    return Diags.takeError();
  G.sortEdges();
  return Error::success();
}

} // namespace

Expected<std::unique_ptr<Graph>> linkGraphs(ArrayRef<const Graph *> Parts,
                                            StringRef Name, LinkJoin Join) {
  if (Parts.empty())
    return createStringError(inconvertibleErrorCode(), "no graph to link");
  auto Out = std::make_unique<Graph>();
  Out->Name = Name.str();
  Out->Target = Parts.front()->Target;
  size_t Total = 0;
  for (const Graph *P : Parts)
    Total += P->size() + 1;
  Out->Nodes.reserve(Total);
  Out->Order.reserve(Total);

  uint64_t NodeBase = 0, BufBase = 0;
  std::vector<PartRange> Ranges;
  std::vector<NodeIdx> Syncs;
  for (const Graph *P : Parts) {
    if (Error E = checkNoPlan(*P))
      return E;
    if (P->size() && !Ranges.empty() && Join == LinkJoin::Series) {
      // The SYNC takes the id after the part before; this part's follow.
      Syncs.push_back(Out->Nodes.size());
      Out->addNode(syncNode(*Out, NodeBase));
      ++NodeBase;
    }
    // One past the largest node and buffer id of the part; 0 for a part
    // without nodes or without buffers, which takes no id.
    uint64_t NodeEnd = 0, BufEnd = 0;
    for (const Node &N : P->Nodes) {
      NodeEnd = std::max(NodeEnd, N.Id + 1);
      if (N.isBufferNode())
        BufEnd = std::max(BufEnd, N.Buf + 1);
      for (uint64_t B : N.Bufs)
        BufEnd = std::max(BufEnd, B + 1);
    }
    if (NodeBase + NodeEnd > MaxValue + 1 || BufBase + BufEnd > MaxValue + 1)
      return createStringError(inconvertibleErrorCode(),
                               "the linked graph's ids would pass 2^40 (at "
                               "graph " +
                                   P->Name + ")");
    // The part's op names, as the joined graph numbers them.
    std::vector<uint32_t> OpName(P->OpNames.size());
    for (size_t K = 0; K != P->OpNames.size(); ++K)
      OpName[K] = Out->internOpName(P->OpNames[K]);
    NodeIdx IndexBase = Out->Nodes.size();
    uint32_t TileBase = Out->Tiles.size();
    llvm::append_range(Out->Tiles, P->Tiles);
    uint32_t AttrBase = Out->Attrs.size();
    llvm::append_range(Out->Attrs, P->Attrs);
    for (const Node &N : P->Nodes) {
      Node C = N;
      C.Id += NodeBase;
      if (C.TileSet)
        C.TileSet += TileBase;
      if (C.AttrSet)
        C.AttrSet += AttrBase;
      if (C.isBufferNode())
        C.Buf += BufBase;
      else
        C.OpName = OpName[N.OpName];
      for (uint64_t &B : C.Bufs)
        B += BufBase;
      // Shifting every index by one amount keeps the lists sorted by id.
      for (NodeIdx &Pred : C.Preds)
        Pred += IndexBase;
      Out->Nodes.push_back(std::move(C));
    }
    for (NodeIdx I : P->Order)
      Out->Order.push_back(I + IndexBase);
    if (P->size())
      Ranges.push_back({IndexBase, NodeIdx(Out->Nodes.size())});
    NodeBase += NodeEnd;
    BufBase += BufEnd;
  }
  joinParts(*Out, Ranges, Syncs, Join);
  if (Error E = resolveTiles(*Out, Ranges))
    return E;
  return Out;
}

} // namespace dan
