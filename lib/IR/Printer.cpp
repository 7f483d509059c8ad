//===- Printer.cpp - Canonical text form of the DAN IR --------------------===//

#include "dan/IR/Printer.h"
#include "dan/IR/Graph.h"
#include <charconv>
#include <cstring>

using namespace llvm;

namespace dan {

namespace {
/// Builds the printed text in a block of its own and hands it on (to a
/// stream) a block at a time: a printed graph is mostly short words and
/// numbers, for which raw_ostream's out-of-line writes cost more than the
/// formatting (Matmul_Case1's 31,000 nodes: 24.7 million instructions
/// through the stream, 800 a node). Numbers go through std::to_chars.
class BlockWriter {
public:
  explicit BlockWriter(function_ref<void(StringRef)> Emit) : Emit(Emit) {}
  ~BlockWriter() { flush(); }

  BlockWriter &operator<<(char C) {
    room(1);
    *Cur++ = C;
    return *this;
  }
  BlockWriter &operator<<(StringRef S) {
    if (S.size() > Size / 2) {
      flush();
      Emit(S);
      return *this;
    }
    room(S.size());
    std::memcpy(Cur, S.data(), S.size());
    Cur += S.size();
    return *this;
  }
  BlockWriter &operator<<(uint64_t V) {
    room(20);
    Cur = std::to_chars(Cur, Cur + 20, V).ptr;
    return *this;
  }

private:
  static constexpr size_t Size = 16 * 1024;
  void room(size_t N) {
    if (size_t(Buf + Size - Cur) < N)
      flush();
  }
  void flush() {
    if (Cur != Buf)
      Emit(StringRef(Buf, Cur - Buf));
    Cur = Buf;
  }

  function_ref<void(StringRef)> Emit;
  char Buf[Size];
  char *Cur = Buf;
};
} // namespace

static void printNodeList(const Graph &G, ArrayRef<NodeIdx> List,
                          BlockWriter &Out) {
  bool First = true;
  for (NodeIdx P : List) {
    Out << (First ? StringRef(" n") : StringRef(", n")) << G[P].Id;
    First = false;
  }
}

/// \p S as an IR string: in quotes, a quote and a backslash escaped as
/// '\"' and '\\', a control byte as '\XX' in hex (LangRef, "Attributes").
static void printQuoted(StringRef S, BlockWriter &Out) {
  static const char Hex[] = "0123456789ABCDEF";
  Out << '"';
  for (unsigned char C : S) {
    if (C == '"' || C == '\\')
      Out << '\\' << char(C);
    else if (C < 0x20 || C == 0x7F)
      Out << '\\' << Hex[C >> 4] << Hex[C & 15];
    else
      Out << char(C);
  }
  Out << '"';
}

static void printAttrs(const NodeAttrs &Attrs, BlockWriter &Out) {
  bool First = true;
  for (const auto &[Key, Value] : Attrs) {
    Out << (First ? StringRef(" {") : StringRef(", ")) << Key
        << StringRef(" = ");
    printQuoted(Value, Out);
    First = false;
  }
  Out << '}';
}

static void printNode(const Graph &G, const Node &N, BlockWriter &Out) {
  Out << StringRef("  n") << N.Id << StringRef(" = ");
  switch (N.Kind) {
  case NodeKind::Alloc:
  case NodeKind::Free:
    Out << (N.Kind == NodeKind::Alloc ? StringRef("alloc b")
                                      : StringRef("free b"))
        << N.Buf << ' ' << G.Target.tierName(N.BufTier) << ' ' << N.Size;
    break;
  case NodeKind::SpillOut:
    Out << StringRef("spill_out b") << N.Buf;
    break;
  case NodeKind::SpillIn:
    Out << StringRef("spill_in b") << N.Buf;
    break;
  case NodeKind::Op: {
    Out << G.opName(N) << ' ' << G.Target.pipeName(N.OpPipe) << ' ' << N.Cycles
        << StringRef(" (");
    bool First = true;
    for (uint64_t B : N.Bufs) {
      Out << (First ? StringRef("b") : StringRef(", b")) << B;
      First = false;
    }
    Out << ')';
    if (const TileAccess *A = G.tilesOf(N)) {
      auto PrintTiles = [&](StringRef Keyword, ArrayRef<std::string> Names) {
        for (size_t K = 0; K != Names.size(); ++K)
          Out << (K ? StringRef(", @") : Keyword) << Names[K];
      };
      PrintTiles(" reads @", A->Reads);
      PrintTiles(" writes @", A->Writes);
    }
    break;
  }
  }
  if (N.HasOffset)
    Out << StringRef(" at ") << N.Offset;
  if (!N.Preds.empty()) {
    Out << StringRef(" after");
    printNodeList(G, N.Preds, Out);
  }
  if (!N.ReusePreds.empty()) {
    Out << StringRef(" reuse");
    printNodeList(G, N.ReusePreds, Out);
  }
  if (const NodeAttrs *A = G.attrsOf(N))
    printAttrs(*A, Out);
  Out << '\n';
}

void printGraph(const Graph &G, raw_ostream &OS) {
  G.Target.printHeader(OS);
  OS << "\n\ngraph @" << G.Name << " {\n";
  {
    auto ToStream = [&](StringRef Block) { OS << Block; };
    BlockWriter Out(ToStream);
    for (NodeIdx I : G.Order)
      printNode(G, G[I], Out);
  }
  OS << "}\n";
}

} // namespace dan
