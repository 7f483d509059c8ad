//===- Link.cpp - Joining graphs into one ---------------------------------===//

#include "dan/IR/Link.h"
#include "dan/IR/Diagnostic.h"
#include "dan/Target/Target.h"
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

Expected<std::unique_ptr<Graph>> linkGraphs(ArrayRef<const Graph *> Parts,
                                            StringRef Name) {
  if (Parts.empty())
    return createStringError(inconvertibleErrorCode(), "no graph to link");
  auto Out = std::make_unique<Graph>();
  Out->Name = Name.str();
  Out->Target = Parts.front()->Target;
  size_t Total = 0;
  for (const Graph *P : Parts)
    Total += P->size();
  Out->Nodes.reserve(Total);
  Out->Order.reserve(Total);

  uint64_t NodeBase = 0, BufBase = 0;
  for (const Graph *P : Parts) {
    if (Error E = checkNoPlan(*P))
      return E;
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
    NodeBase += P->size() ? MaxNode + 1 : 0;
    BufBase += MaxBuf + 1;
  }
  return Out;
}

} // namespace dan
