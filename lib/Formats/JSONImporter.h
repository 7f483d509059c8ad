//===- JSONImporter.h - Contest JSON: the reader's state --------*- C++ -*-===//
//
// Private to lib/Formats. The importer reads the text's tokens (JSONScan.h)
// in one pass that checks JSON's grammar and, as each element of "Nodes",
// "Edges" and "ReuseEdges" closes, adds it to the graph without reporting
// (JSONSyntax.cpp). Every syntax error must be reported before any other,
// so an element that fails there is read again, reporting, after the check
// has passed: then the arrays are walked from the offsets the check noted
// (JSONImport.cpp). The walk also reads an array written before the one it
// depends on ("Edges" before "Nodes").
//
//===----------------------------------------------------------------------===//

#ifndef DAN_LIB_FORMATS_JSONIMPORTER_H
#define DAN_LIB_FORMATS_JSONIMPORTER_H

#include "GraphBuilder.h"
#include "JSONScan.h"
#include "llvm/ADT/SmallVector.h"
#include "llvm/ADT/StringMap.h"
#include "llvm/Support/Error.h"
#include <array>
#include <deque>
#include <optional>
#include <string>

namespace dan::detail {

/// The members of a node object that the reader knows.
enum class Field : uint8_t {
  Id,
  Op,
  BufId,
  Size,
  Type,
  Offset,
  Pipe,
  Cycles,
  Bufs,
  Reads,
  Writes,
  Attrs,
};
inline constexpr llvm::StringLiteral FieldNames[] = {
    "Id",   "Op",     "BufId", "Size",  "Type",   "Offset",
    "Pipe", "Cycles", "Bufs",  "Reads", "Writes", "Attrs"};
inline constexpr size_t NumFields = std::size(FieldNames);
static_assert(NumFields == size_t(Field::Attrs) + 1,
              "a name for every field, in the order of Field");
inline llvm::StringRef fieldName(Field F) {
  return FieldNames[static_cast<size_t>(F)];
}

/// One element of "Nodes" as written: the first token of the value of each
/// member it knows (a node has five to nine; each is looked up once here
/// rather than by name at each use).
struct NodeText {
  llvm::SmallVector<JSONToken, 8> Values;
  std::array<int8_t, NumFields> At; // index into Values, or -1
  size_t Pos = 0;                   // where the element starts
  size_t Index = 0;                 // its index in "Nodes"

  NodeText() { At.fill(-1); }
  void start(size_t ElemPos, size_t ElemIndex) {
    Values.clear();
    At.fill(-1);
    Pos = ElemPos;
    Index = ElemIndex;
  }
  void add(llvm::StringRef Key, const JSONToken &Value) {
    for (size_t F = 0; F != NumFields; ++F)
      if (Key == FieldNames[F]) { // at most once each: no key repeats
        At[F] = static_cast<int8_t>(Values.size());
        Values.push_back(Value);
        return;
      }
  }
  const JSONToken *get(Field F) const {
    int8_t I = At[static_cast<size_t>(F)];
    return I < 0 ? nullptr : &Values[I];
  }
  /// "Nodes[Index]", then the field's name after a dot when there is one.
  std::string name(std::optional<Field> F = std::nullopt) const;
};

/// One element of "Edges" or "ReuseEdges" as written.
struct EdgeText {
  size_t Pos = 0;   // where the element starts
  size_t Index = 0; // its index in the array
  bool IsArray = false;
  size_t Count = 0; // how many elements the array has
  std::optional<uint64_t> Ends[2];

  void start(const JSONToken &Elem, size_t ElemIndex) {
    *this = EdgeText();
    Pos = Elem.Pos;
    Index = ElemIndex;
    IsArray = Elem.Kind == '[';
  }
  void add(const JSONToken &Value) {
    if (Count < 2)
      Ends[Count] = nonNegativeInteger(Value);
    ++Count;
  }
};

/// The three arrays the importer reads, in the order it must.
enum class ArrayKey : uint8_t { Nodes, Edges, ReuseEdges, None };

/// The array a top-level key names; None for any other key.
inline ArrayKey arrayKeyOf(llvm::StringRef Key) {
  return Key == "Nodes"        ? ArrayKey::Nodes
         : Key == "Edges"      ? ArrayKey::Edges
         : Key == "ReuseEdges" ? ArrayKey::ReuseEdges
                               : ArrayKey::None;
}

class JSONImporter {
public:
  /// Reads the graph from the text of \p BufferID into \p G. With \p Quick
  /// the elements are added as the check meets them.
  JSONImporter(llvm::SourceMgr &SM, unsigned BufferID, Graph &G, bool Quick);

  /// Whether the text is a graph, every error reported; std::nullopt when
  /// Quick met an error it did not report (the caller then reads the text
  /// again, with a new graph and without Quick).
  std::optional<bool> run();

private:
  llvm::SMLoc at(size_t Offset) const {
    return llvm::SMLoc::getFromPointer(Text.data() +
                                       std::min(Offset, Text.size()));
  }

  // JSONSyntax.cpp: the pass over every token.
  struct Grammar;
  bool checkSyntax();
  /// A key where the grammar wants one, or a value where it wants one.
  bool checkKey(Grammar &Gr, const JSONToken &T);
  bool checkValue(Grammar &Gr, const JSONToken &T);
  bool checkStrings();
  /// Reports llvm::json's error \p E from parsing the text at \p Base.
  bool reportParseError(llvm::Error E, size_t Base);
  /// Where a top-level value \p Key starts (Quick): which array it reads.
  void quickTopValue(llvm::StringRef Key, const JSONToken &T);
  /// An element of the array Quick reads starts, or a value in it.
  void quickElement(const JSONToken &T);
  void quickMember(llvm::StringRef Key, const JSONToken &T);
  /// The element, or the array, that Quick reads has closed.
  void quickElementDone();
  void quickArrayDone();

  // JSONImport.cpp: a node or an edge into the graph.
  /// What string token \p T holds: its raw text, or decoded by llvm::json
  /// when it has escapes.
  llvm::StringRef decode(const JSONToken &T);
  bool addNode(const NodeText &N);
  bool readBuffer(const NodeText &N, Node &Out);
  bool readOp(const NodeText &N, llvm::StringRef Op, Node &Out);
  /// The optional "Reads" and "Writes" arrays of an operation: its tiles.
  bool readTiles(const NodeText &N, Node &Out);
  /// Nodes[Index].Attrs, an object of strings, as N's attributes.
  bool readAttrs(const NodeText &N, Node &Out);
  bool readUInt(const NodeText &N, Field F, uint64_t &Out, bool Required = true,
                bool *Present = nullptr);
  bool readString(const NodeText &N, Field F, llvm::StringRef &Out);
  bool addEdge(const EdgeText &E, ArrayKey Key);
  /// The walk over one top-level array, reporting.
  bool walkNodes();
  bool walkEdges(ArrayKey Key);

  /// The JSON text: the buffer without a byte-order mark. Offsets are into
  /// it.
  llvm::StringRef Text;
  /// The first token of each top-level value, by its (decoded) key.
  llvm::StringMap<JSONToken> TopValues;
  /// Where the first string that is not plain starts (npos: none).
  size_t FirstOddString = llvm::StringRef::npos;
  /// Strings decoded from escapes; a deque keeps each where it is.
  std::deque<std::string> Decoded;
  GraphBuilder B;
  Graph &G;

  /// Quick's state: the array it reads (None: none or no longer), which
  /// arrays it has read whole, and the element it collects.
  bool Quick;
  bool QuickFailed = false;
  ArrayKey Reading = ArrayKey::None;
  std::array<bool, 3> Read = {false, false, false};
  size_t ElementIndex = 0;
  NodeText CurNode;
  EdgeText CurEdge;
};

} // namespace dan::detail

#endif // DAN_LIB_FORMATS_JSONIMPORTER_H
