//===- NodeCosts.cpp - A graph's nodes under the execution model ----------===//

#include "dan/IR/NodeCosts.h"

using namespace llvm;

namespace dan {

DenseSet<uint64_t> ddrBackedBuffers(const Graph &G) {
  DenseSet<uint64_t> Backed;
  forEachDDRBackedBuffer(G, [&](uint64_t B) { Backed.insert(B); });
  return Backed;
}

BufferCosts bufferCosts(const Graph &G) {
  BufferCosts Costs(G.size());
  for (NodeIdx I : G.Order)
    if (I < G.size() && G[I].Kind == NodeKind::Alloc)
      Costs.tryEmplace(G[I].Buf, BufferCost{G[I].Size, false, G[I].BufTier});
  forEachDDRBackedBuffer(G, [&](uint64_t B) { Costs[B].Backed = true; });
  return Costs;
}

uint64_t nodeCycles(const Graph &G, NodeIdx I, const TargetDesc &T,
                    const BufferCosts &Costs) {
  const Node &N = G[I];
  return nodeCycles(N, T, N.isSpill() ? Costs.find(N.Buf) : nullptr);
}

std::optional<Pipe> nodePipe(const Graph &G, NodeIdx I, const TargetDesc &T,
                             const BufferCosts &Costs) {
  const Node &N = G[I];
  return nodePipe(N, T, N.isSpill() ? Costs.find(N.Buf) : nullptr);
}

} // namespace dan
