//===- JSONExport.cpp - Contest JSON: the writer --------------------------===//
//
// Writes a graph as the contest's JSON: its nodes in schedule order, each
// spill node with the pipe and cycles the replay gives it, then its edges
// and reuse edges sorted as the contest lists them.
//
//===----------------------------------------------------------------------===//

#include "dan/Formats/JSON.h"
#include "dan/IR/NodeCosts.h"
#include "llvm/ADT/STLExtras.h"
#include "llvm/Support/JSON.h"

using namespace llvm;

namespace dan {

void exportJSON(const Graph &G, const TargetDesc &T, raw_ostream &OS) {
  // Spill nodes get the pipe and cycles the replay gives them.
  BufferCosts Costs = bufferCosts(G);

  json::OStream J(OS, 2);
  J.objectBegin();
  J.attributeArray("Nodes", [&] {
    for (NodeIdx I : G.Order) {
      const Node &N = G[I];
      J.object([&] {
        J.attribute("Id", int64_t(N.Id));
        switch (N.Kind) {
        case NodeKind::Alloc:
        case NodeKind::Free:
          J.attribute("Op", N.Kind == NodeKind::Alloc ? "ALLOC" : "FREE");
          J.attribute("BufId", int64_t(N.Buf));
          J.attribute("Size", int64_t(N.Size));
          J.attribute("Type", T.tierName(N.BufTier));
          break;
        case NodeKind::SpillOut:
        case NodeKind::SpillIn: {
          J.attribute("Op",
                      N.Kind == NodeKind::SpillOut ? "SPILL_OUT" : "SPILL_IN");
          J.attribute("BufId", int64_t(N.Buf));
          J.attribute("Pipe", T.pipeName(*nodePipe(G, I, T, Costs)));
          J.attribute("Cycles", uint64_t(nodeCycles(G, I, T, Costs)));
          J.attributeArray("Bufs", [&] { J.value(int64_t(N.Buf)); });
          break;
        }
        case NodeKind::Op:
          J.attribute("Op", G.opName(N));
          J.attribute("Pipe", T.pipeName(N.OpPipe));
          J.attribute("Cycles", int64_t(N.Cycles));
          J.attributeArray("Bufs", [&] {
            for (uint64_t B : N.Bufs)
              J.value(int64_t(B));
          });
          // The tiles it names (DAN's own keys; the contest has none).
          if (const TileAccess *A = G.tilesOf(N))
            for (auto [Key, Names] :
                 {std::pair(StringRef("Reads"), &A->Reads),
                  std::pair(StringRef("Writes"), &A->Writes)})
              if (!Names->empty())
                J.attributeArray(Key, [&] {
                  for (const std::string &Name : *Names)
                    J.value(Name);
                });
          break;
        }
        if (N.HasOffset)
          J.attribute("Offset", int64_t(N.Offset));
        // DAN's own key, as the IR writes them (by key).
        if (const NodeAttrs *A = G.attrsOf(N))
          J.attributeObject("Attrs", [&] {
            for (const auto &[Key, Value] : *A)
              J.attribute(Key, Value);
          });
      });
    }
  });
  // Edges sorted by (source id, destination id), as the contest lists them.
  auto EmitEdges = [&](StringRef Key, bool Reuse) {
    std::vector<std::pair<uint64_t, uint64_t>> Edges;
    for (const Node &N : G.Nodes)
      for (NodeIdx P : Reuse ? N.ReusePreds : N.Preds)
        Edges.emplace_back(G[P].Id, N.Id);
    llvm::sort(Edges);
    J.attributeArray(Key, [&] {
      for (auto [From, To] : Edges) {
        J.arrayBegin();
        J.value(int64_t(From));
        J.value(int64_t(To));
        J.arrayEnd();
      }
    });
  };
  EmitEdges("Edges", false);
  if (G.hasMemoryPlan() ||
      any_of(G.Nodes, [](const Node &N) { return !N.ReusePreds.empty(); }))
    EmitEdges("ReuseEdges", true);
  J.objectEnd();
  OS << '\n';
}

} // namespace dan
