//===- Export.cpp - Writing the contest's formats and DOT -----------------===//

#include "dan/Formats/Export.h"
#include "dan/Analysis/Replay.h"
#include "dan/IR/MemoryPlan.h"
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
          J.attribute("Type", tierName(N.BufTier));
          break;
        case NodeKind::SpillOut:
        case NodeKind::SpillIn: {
          J.attribute("Op",
                      N.Kind == NodeKind::SpillOut ? "SPILL_OUT" : "SPILL_IN");
          J.attribute("BufId", int64_t(N.Buf));
          J.attribute("Pipe", pipeName(*nodePipe(N, T)));
          J.attribute("Cycles", int64_t(nodeCycles(G, I, T, Costs)));
          J.attributeArray("Bufs", [&] { J.value(int64_t(N.Buf)); });
          break;
        }
        case NodeKind::Op:
          J.attribute("Op", G.opName(N));
          J.attribute("Pipe", pipeName(N.OpPipe));
          J.attribute("Cycles", int64_t(N.Cycles));
          J.attributeArray("Bufs", [&] {
            for (uint64_t B : N.Bufs)
              J.value(int64_t(B));
          });
          break;
        }
        if (N.HasOffset)
          J.attribute("Offset", int64_t(N.Offset));
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

Expected<Submission> exportSubmission(const Graph &G) {
  // The contest numbers a graph's nodes 0 to N-1 and spill k N + 2k; ids
  // with gaps give a schedule no contest checker reads as this graph.
  if (!G.hasDenseIds())
    return createStringError(
        inconvertibleErrorCode(),
        "cannot export a submission: the contest numbers the nodes 0 to "
        "N-1, and this graph's ids have gaps; 'dan-translate --renumber' "
        "rewrites them so, and its spills after them");
  Submission S;
  raw_string_ostream Sched(S.Schedule), Mem(S.Memory), Spill(S.Spill);
  for (NodeIdx I : G.Order)
    Sched << G[I].Id << '\n';
  if (!G.hasMemoryPlan())
    return S;
  std::vector<std::pair<uint64_t, uint64_t>> Offsets, Spills;
  for (const Node &N : G.Nodes) {
    if (N.isPlacement() && !N.HasOffset)
      return createStringError(
          inconvertibleErrorCode(),
          "cannot export the memory plan: %s has no offset (dan-verify "
          "explains what the plan lacks)",
          describeNode(G, &N - G.Nodes.data()).c_str());
    if (N.Kind == NodeKind::Alloc)
      Offsets.emplace_back(N.Buf, N.Offset);
    else if (N.Kind == NodeKind::SpillIn)
      Spills.emplace_back(N.Id, N.Buf);
  }
  llvm::sort(Offsets);
  for (auto [Buf, Offset] : Offsets)
    Mem << Buf << ':' << Offset << '\n';
  // Spill k is the k-th spill_in by id; its line holds its new offset.
  llvm::sort(Spills);
  IdIndex Ids = G.idIndex();
  for (auto [Id, Buf] : Spills)
    Spill << Buf << ':' << G[Ids.lookup(Id)].Offset << '\n';
  return S;
}

void exportDot(const Graph &G, raw_ostream &OS) {
  auto Quote = [](StringRef S) {
    std::string Out = "\"";
    for (char C : S) {
      if (C == '"' || C == '\\')
        Out += '\\';
      Out += C;
    }
    return Out + "\"";
  };
  OS << "digraph " << Quote(G.Name) << " {\n";
  OS << "  node [shape=box, fontname=\"monospace\"];\n";
  for (NodeIdx I : G.Order) {
    const Node &N = G[I];
    std::string Label = "n" + std::to_string(N.Id) + "\\n";
    const char *Style = "";
    switch (N.Kind) {
    case NodeKind::Alloc:
    case NodeKind::Free:
      Label += (N.Kind == NodeKind::Alloc ? "alloc b" : "free b") +
               std::to_string(N.Buf) + " " + tierName(N.BufTier).str() + " " +
               std::to_string(N.Size);
      Style = ", shape=ellipse";
      break;
    case NodeKind::SpillOut:
    case NodeKind::SpillIn:
      Label += (N.Kind == NodeKind::SpillOut ? "spill_out b" : "spill_in b") +
               std::to_string(N.Buf);
      Style = ", color=orange, fontcolor=orange";
      break;
    case NodeKind::Op:
      Label += G.opName(N).str() + " " + pipeName(N.OpPipe).str() + " " +
               std::to_string(N.Cycles);
      break;
    }
    if (N.HasOffset)
      Label += " @" + std::to_string(N.Offset);
    OS << "  n" << N.Id << " [label=\"" << Label << "\"" << Style << "];\n";
  }
  for (NodeIdx I : G.Order) {
    const Node &N = G[I];
    for (NodeIdx P : N.Preds) {
      OS << "  n" << G[P].Id << " -> n" << N.Id;
      if (N.isSpill() || G[P].isSpill())
        OS << " [color=orange]";
      OS << ";\n";
    }
    for (NodeIdx P : N.ReusePreds)
      OS << "  n" << G[P].Id << " -> n" << N.Id << " [style=dashed];\n";
  }
  OS << "}\n";
}

} // namespace dan
