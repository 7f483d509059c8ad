//===- CSV.cpp - Reading the <name>_Nodes.csv / _Edges.csv pair -----------===//
//
// Nodes: a header row naming the columns (any order, case-insensitive) Id,
// Op, BufId, Size, Type, Pipe, Cycles, Bufs, and optionally Offset; a cell
// that does not apply to a row is empty. Bufs holds ids separated by commas,
// semicolons or spaces, optionally in brackets. Edges: rows of two node ids
// (source, destination), with an optional header row of column names.
//
//===----------------------------------------------------------------------===//

#include "dan/Formats/CSV.h"
#include "GraphBuilder.h"
#include "dan/Formats/Formats.h"
#include "llvm/ADT/STLFunctionalExtras.h"
#include "llvm/ADT/StringExtras.h"
#include "llvm/Support/MemoryBuffer.h"
#include "llvm/Support/Path.h"

using namespace llvm;

namespace dan {

namespace {

struct Cell {
  std::string Text;
  SMLoc Loc;
};
using Row = std::vector<Cell>;

/// Splits RFC 4180 CSV; quoted cells may hold commas, newlines and "".
/// Hands each row that is not blank to \p Take (with its index among them)
/// as soon as it is split, so that only one row is held at a time; stops
/// when \p Take fails.
bool splitCSV(StringRef Text, detail::GraphBuilder &B,
              function_ref<bool(const Row &, size_t)> Take) {
  size_t I = 0, E = Text.size(), Index = 0;
  // A UTF-8 byte-order mark (spreadsheets write one) is not part of the
  // first cell.
  if (Text.starts_with("\xEF\xBB\xBF"))
    I = 3;
  while (I < E) {
    Row R;
    for (;;) {
      Cell C;
      C.Loc = SMLoc::getFromPointer(Text.data() + I);
      if (I < E && Text[I] == '"') {
        ++I;
        for (;;) {
          if (I >= E)
            return B.error(C.Loc, "unterminated quoted cell");
          if (Text[I] == '"') {
            if (I + 1 < E && Text[I + 1] == '"') {
              C.Text += '"';
              I += 2;
              continue;
            }
            ++I;
            break;
          }
          C.Text += Text[I++];
        }
        while (I < E && (Text[I] == ' ' || Text[I] == '\t'))
          ++I;
        if (I < E && Text[I] != ',' && Text[I] != '\n' && Text[I] != '\r')
          return B.error(SMLoc::getFromPointer(Text.data() + I),
                         "expected ',' or a line end after a quoted cell");
      } else {
        size_t J = I;
        while (J < E && Text[J] != ',' && Text[J] != '\n' && Text[J] != '\r')
          ++J;
        C.Text = Text.slice(I, J).trim().str();
        I = J;
      }
      R.push_back(std::move(C));
      if (I < E && Text[I] == ',') {
        ++I;
        continue;
      }
      break;
    }
    if (I < E && Text[I] == '\r')
      ++I;
    if (I < E && Text[I] == '\n')
      ++I;
    bool Blank = R.size() == 1 && R[0].Text.empty();
    if (!Blank && !Take(R, Index++))
      return false;
  }
  return true;
}

bool parseUInt(detail::GraphBuilder &B, const Cell &C, StringRef What,
               uint64_t &Out) {
  if (StringRef(C.Text).getAsInteger(10, Out) || Out > MaxValue)
    return B.error(C.Loc, What + " must be an integer from 0 to 2^40, not " +
                              quoteToken(C.Text));
  return true;
}

class CSVImporter {
public:
  CSVImporter(SourceMgr &SM, Graph &G) : B(SM, G), G(G) {
    std::fill(std::begin(Col), std::end(Col), -1);
  }
  bool readNodes(const MemoryBuffer &Buf);
  bool readEdges(const MemoryBuffer &Buf);
  void finish() { B.finish(); }

private:
  /// The columns of the nodes file.
  enum Column { Id, Op, BufId, Size, Type, PipeCol, Cycles, Bufs, Offset };
  static constexpr unsigned NumCols = Offset + 1;
  static const StringRef Names[NumCols];

  bool readHeader(const Row &Header);
  bool readRow(const Row &Cells, size_t R);
  /// The non-empty cell of column \p K in row \p R, or nullptr after an
  /// error.
  const Cell *get(const Row &Cells, size_t R, unsigned K);
  /// The cell of an optional column \p K, or nullptr when the row has none.
  const Cell *optional(const Row &Cells, unsigned K) const {
    return Col[K] >= 0 && size_t(Col[K]) < Cells.size() ? &Cells[Col[K]]
                                                        : nullptr;
  }
  bool readBufferFields(const Row &Cells, size_t R, Node &N);
  bool readOpFields(const Row &Cells, size_t R, StringRef OpName, Node &N);

  detail::GraphBuilder B;
  Graph &G;
  /// Each column's index in the header, or -1.
  int Col[NumCols];
  size_t HeaderSize = 0;
};

const StringRef CSVImporter::Names[NumCols] = {
    "Id", "Op", "BufId", "Size", "Type", "Pipe", "Cycles", "Bufs", "Offset"};

bool CSVImporter::readHeader(const Row &Header) {
  HeaderSize = Header.size();
  for (size_t I = 0; I != Header.size(); ++I) {
    bool Known = false;
    for (unsigned K = 0; K != NumCols; ++K)
      if (StringRef(Header[I].Text).equals_insensitive(Names[K])) {
        if (Col[K] >= 0)
          return B.error(Header[I].Loc,
                         "duplicate column " + quoteToken(Header[I].Text));
        Col[K] = I;
        Known = true;
      }
    if (!Known)
      return B.error(Header[I].Loc, "unknown column " +
                                        quoteToken(Header[I].Text) +
                                        "; expected Id, Op, BufId, Size, "
                                        "Type, Pipe, Cycles, Bufs, Offset");
  }
  for (unsigned K : {Id, Op})
    if (Col[K] < 0)
      return B.error(Header.front().Loc,
                     "the header has no '" + Names[K] + "' column");
  return true;
}

const Cell *CSVImporter::get(const Row &Cells, size_t R, unsigned K) {
  bool Short = Col[K] < 0 || size_t(Col[K]) >= Cells.size();
  if (Short || Cells[Col[K]].Text.empty()) {
    // At the empty cell when there is one, else at the row.
    B.error(Short ? Cells.front().Loc : Cells[Col[K]].Loc,
            "row " + Twine(R + 1) + " has no " + Names[K]);
    return nullptr;
  }
  return &Cells[Col[K]];
}

/// An ALLOC or FREE row: the buffer, its size and tier, an ALLOC's offset.
bool CSVImporter::readBufferFields(const Row &Cells, size_t R, Node &N) {
  const Cell *C;
  if (!(C = get(Cells, R, BufId)) || !parseUInt(B, *C, "BufId", N.Buf) ||
      !(C = get(Cells, R, Size)) || !parseUInt(B, *C, "Size", N.Size) ||
      !(C = get(Cells, R, Type)) ||
      !detail::checkTierName(
          B, C->Text, [&] { return C->Loc; }, N.BufTier))
    return false;
  const Cell *Off = optional(Cells, Offset);
  if (N.Kind == NodeKind::Alloc && Off && !Off->Text.empty()) {
    if (!parseUInt(B, *Off, "Offset", N.Offset))
      return false;
    N.HasOffset = true;
  }
  return true;
}

/// An operation row: its name, pipe, cycles and the buffers it uses.
bool CSVImporter::readOpFields(const Row &Cells, size_t R, StringRef OpName,
                               Node &N) {
  if (!detail::checkOpName(
          B, OpName, [&] { return Cells[Col[Op]].Loc; }, "Op"))
    return false;
  const Cell *C;
  if (!(C = get(Cells, R, PipeCol)) ||
      !detail::checkPipeName(
          B, C->Text, [&] { return C->Loc; }, N.OpPipe) ||
      !(C = get(Cells, R, Cycles)) || !parseUInt(B, *C, "Cycles", N.Cycles))
    return false;
  if (const Cell *BC = optional(Cells, Bufs)) {
    SmallVector<StringRef, 4> Parts;
    StringRef(BC->Text).trim().trim("[]").split(Parts, ',', -1, false);
    for (StringRef Part : Parts) {
      SmallVector<StringRef, 2> Words;
      SplitString(Part, Words, " \t;");
      for (StringRef W : Words) {
        uint64_t V;
        if (W.getAsInteger(10, V) || V > MaxValue)
          return B.error(BC->Loc, "Bufs must list buffer ids, not " +
                                      quoteToken(BC->Text));
        N.Bufs.push_back(V);
      }
    }
  }
  N.OpName = G.internOpName(OpName);
  return true;
}

bool CSVImporter::readRow(const Row &Cells, size_t R) {
  if (Cells.size() > HeaderSize)
    return B.error(Cells[HeaderSize].Loc, "row has more cells than the header");
  Node N;
  N.Loc = Cells.front().Loc;
  const Cell *C;
  if (!(C = get(Cells, R, Id)) || !parseUInt(B, *C, "Id", N.Id) ||
      !(C = get(Cells, R, Op)))
    return false;
  StringRef OpName = C->Text;
  if (OpName == "ALLOC" || OpName == "FREE") {
    N.Kind = OpName == "ALLOC" ? NodeKind::Alloc : NodeKind::Free;
    if (!readBufferFields(Cells, R, N))
      return false;
  } else {
    N.Kind = NodeKind::Op;
    if (!readOpFields(Cells, R, OpName, N))
      return false;
  }
  return B.addNode(std::move(N));
}

bool CSVImporter::readNodes(const MemoryBuffer &Buf) {
  bool Empty = true;
  if (!splitCSV(Buf.getBuffer(), B, [&](const Row &Cells, size_t R) {
        Empty = false;
        return R == 0 ? readHeader(Cells) : readRow(Cells, R);
      }))
    return false;
  if (Empty)
    return B.error(SMLoc::getFromPointer(Buf.getBufferStart()),
                   "the nodes file is empty; expected a header row");
  return true;
}

/// Whether \p Cells are column names (each begins with a letter, as `Src`
/// and `Dst` do). The header is told by its content: a first row that
/// merely fails to parse as an edge (`0,1x`) is an error, not a header.
bool isHeaderRow(const Row &Cells) {
  return llvm::all_of(Cells, [](const Cell &C) {
    return !C.Text.empty() && isAlpha(C.Text.front());
  });
}

bool CSVImporter::readEdges(const MemoryBuffer &Buf) {
  return splitCSV(Buf.getBuffer(), B, [&](const Row &Cells, size_t R) {
    if (R == 0 && isHeaderRow(Cells))
      return true;
    uint64_t From, To;
    bool Numeric = Cells.size() >= 2 &&
                   !StringRef(Cells[0].Text).getAsInteger(10, From) &&
                   !StringRef(Cells[1].Text).getAsInteger(10, To);
    if (!Numeric)
      return B.error(Cells.front().Loc,
                     "expected an edge: two node ids separated by ','");
    return B.addEdge(From, To, Cells.front().Loc, false);
  });
}

} // namespace

std::unique_ptr<Graph> importCSV(SourceMgr &SM, unsigned NodesBufferID,
                                 unsigned EdgesBufferID, StringRef GraphName,
                                 const TargetDesc *Base) {
  auto G = std::make_unique<Graph>();
  G->Name = GraphName.str();
  if (Base)
    G->Target = *Base;
  CSVImporter Imp(SM, *G);
  if (!Imp.readNodes(*SM.getMemoryBuffer(NodesBufferID)) ||
      !Imp.readEdges(*SM.getMemoryBuffer(EdgesBufferID)))
    return nullptr;
  Imp.finish();
  return G;
}

static constexpr StringLiteral NodesSuffix = "_Nodes";

Expected<std::string> csvEdgesPath(StringRef NodesPath) {
  StringRef Stem = sys::path::stem(NodesPath);
  if (!Stem.ends_with(NodesSuffix))
    return createStringError(inconvertibleErrorCode(),
                             "cannot find the edges file for '" + NodesPath +
                                 "': name it <name>_Nodes.csv or give both "
                                 "files");
  SmallString<128> P(sys::path::parent_path(NodesPath));
  sys::path::append(P, Stem.drop_back(NodesSuffix.size()) + "_Edges.csv");
  return std::string(P);
}

std::string csvGraphName(StringRef NodesPath) {
  StringRef Stem = sys::path::stem(NodesPath);
  StringRef Base =
      Stem.ends_with(NodesSuffix) ? Stem.drop_back(NodesSuffix.size()) : Stem;
  // graphNameForFile drops an extension: give Base one, so that a dot in it
  // ('conv.v2_Nodes.csv') is kept.
  return graphNameForFile((Base + ".csv").str());
}

} // namespace dan
