//===- Printer.cpp - Canonical text form of the DAN IR --------------------===//

#include "dan/IR/Printer.h"
#include "dan/IR/Graph.h"
#include <charconv>

using namespace llvm;

namespace dan {

namespace {
/// A number printed through std::to_chars: a printed graph is mostly
/// numbers, and raw_ostream's general integer formatting (styles, widths)
/// took about two thirds of the printing time.
struct Decimal {
  uint64_t V;
};
raw_ostream &operator<<(raw_ostream &OS, Decimal D) {
  char Buf[20];
  char *End = std::to_chars(Buf, Buf + sizeof(Buf), D.V).ptr;
  return OS.write(Buf, End - Buf);
}
} // namespace

static void printNodeList(const Graph &G, ArrayRef<NodeIdx> List,
                          raw_ostream &OS) {
  bool First = true;
  for (NodeIdx P : List) {
    OS << (First ? " n" : ", n") << Decimal{G[P].Id};
    First = false;
  }
}

static void printNode(const Graph &G, const Node &N, raw_ostream &OS) {
  OS << "  n" << Decimal{N.Id} << " = ";
  switch (N.Kind) {
  case NodeKind::Alloc:
  case NodeKind::Free:
    OS << (N.Kind == NodeKind::Alloc ? "alloc b" : "free b") << Decimal{N.Buf}
       << ' ' << tierName(N.BufTier) << ' ' << Decimal{N.Size};
    break;
  case NodeKind::SpillOut:
    OS << "spill_out b" << Decimal{N.Buf};
    break;
  case NodeKind::SpillIn:
    OS << "spill_in b" << Decimal{N.Buf};
    break;
  case NodeKind::Op: {
    OS << G.opName(N) << ' ' << pipeName(N.OpPipe) << ' ' << Decimal{N.Cycles}
       << " (";
    bool First = true;
    for (uint64_t B : N.Bufs) {
      OS << (First ? "b" : ", b") << Decimal{B};
      First = false;
    }
    OS << ')';
    break;
  }
  }
  if (N.HasOffset)
    OS << " at " << Decimal{N.Offset};
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
