//===- Link.cpp - Joining graphs into one ---------------------------------===//

#include "dan/IR/Link.h"
#include "dan/IR/Diagnostic.h"
#include "dan/Target/Target.h"
#include "llvm/ADT/STLExtras.h"
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
     "one after another: a SYNC on VECTOR (1 cycle) after the last nodes of "
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
  Sync.OpPipe = Pipe::VECTOR;
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
    for (size_t J = 0; J != After.size(); ++J)
      G[After[J]].Preds.push_back(Before[J * Before.size() / After.size()]);
  }
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
    uint64_t MaxNode = 0, MaxBuf = 0;
    for (const Node &N : P->Nodes) {
      MaxNode = std::max(MaxNode, N.Id);
      MaxBuf = std::max(MaxBuf, N.isBufferNode() ? N.Buf : 0);
      for (uint64_t B : N.Bufs)
        MaxBuf = std::max(MaxBuf, B);
    }
    if (NodeBase + MaxNode > MaxValue || BufBase + MaxBuf > MaxValue)
      return createStringError(inconvertibleErrorCode(),
                               "the linked graph's ids would pass 2^40 (at "
                               "graph " +
                                   P->Name + ")");
    // The part's op names, as the joined graph numbers them.
    std::vector<uint32_t> OpName(P->OpNames.size());
    for (size_t K = 0; K != P->OpNames.size(); ++K)
      OpName[K] = Out->internOpName(P->OpNames[K]);
    NodeIdx IndexBase = Out->Nodes.size();
    for (const Node &N : P->Nodes) {
      Node C = N;
      C.Id += NodeBase;
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
    NodeBase += P->size() ? MaxNode + 1 : 0;
    BufBase += MaxBuf + 1;
  }
  joinParts(*Out, Ranges, Syncs, Join);
  return Out;
}

} // namespace dan
