//===- Printer.cpp - Canonical text form of the DAN IR --------------------===//

#include "dan/IR/Printer.h"
#include "dan/IR/Graph.h"

using namespace llvm;

namespace dan {

static void printNodeList(const Graph &G, ArrayRef<NodeIdx> List,
                          raw_ostream &OS) {
  bool First = true;
  for (NodeIdx P : List) {
    OS << (First ? " n" : ", n") << G[P].Id;
    First = false;
  }
}

static void printNode(const Graph &G, const Node &N, raw_ostream &OS) {
  OS << "  n" << N.Id << " = ";
  switch (N.Kind) {
  case NodeKind::Alloc:
  case NodeKind::Free:
    OS << (N.Kind == NodeKind::Alloc ? "alloc b" : "free b") << N.Buf << ' '
       << tierName(N.BufTier) << ' ' << N.Size;
    break;
  case NodeKind::SpillOut:
    OS << "spill_out b" << N.Buf;
    break;
  case NodeKind::SpillIn:
    OS << "spill_in b" << N.Buf;
    break;
  case NodeKind::Op: {
    OS << G.opName(N) << ' ' << pipeName(N.OpPipe) << ' ' << N.Cycles << " (";
    bool First = true;
    for (uint64_t B : N.Bufs) {
      OS << (First ? "b" : ", b") << B;
      First = false;
    }
    OS << ')';
    break;
  }
  }
  if (N.HasOffset)
    OS << " at " << N.Offset;
  if (!N.Preds.empty()) {
    OS << " after";
    printNodeList(G, N.Preds, OS);
  }
  if (!N.ReusePreds.empty()) {
    OS << " reuse";
    printNodeList(G, N.ReusePreds, OS);
  }
  OS << '\n';
}

void printGraph(const Graph &G, raw_ostream &OS) {
  G.Target.printHeader(OS);
  OS << "\n\ngraph @" << G.Name << " {\n";
  for (NodeIdx I : G.Order)
    printNode(G, G[I], OS);
  OS << "}\n";
}

} // namespace dan
