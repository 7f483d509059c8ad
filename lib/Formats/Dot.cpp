//===- Dot.cpp - Writing Graphviz DOT -------------------------------------===//

#include "dan/Formats/Dot.h"

using namespace llvm;

namespace dan {

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
               std::to_string(N.Buf) + " " +
               G.Target.tierName(N.BufTier).str() + " " +
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
      Label += G.opName(N).str() + " " + G.Target.pipeName(N.OpPipe).str() +
               " " + std::to_string(N.Cycles);
      // Its buffers, as the IR lists them: what the operation touches.
      Label += " (";
      for (size_t K = 0; K != N.Bufs.size(); ++K)
        Label += (K ? ", b" : "b") + std::to_string(N.Bufs[K]);
      Label += ")";
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
