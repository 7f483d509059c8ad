//===- JSONImport.cpp - Contest JSON: the reader --------------------------===//
//
// Contest JSON into a graph: a node or an edge from the tokens of its
// element, the walks over the arrays that the pass over every token
// (JSONSyntax.cpp) did not read, and importJSON. No JSON DOM is built:
// llvm::json's takes about 5 GB for a million nodes, and even one small
// object per element was most of the import's time. llvm::json decodes the
// strings written with escapes, and reports what is wrong inside a string
// as it would reading the file whole.
//
//===----------------------------------------------------------------------===//

#include "JSONImporter.h"
#include "dan/Formats/JSON.h"
#include "dan/IR/Diagnostic.h"
#include "llvm/ADT/StringExtras.h"
#include "llvm/Support/JSON.h"
#include "llvm/Support/MemoryBuffer.h"
#include <algorithm>

using namespace llvm;

namespace dan {
namespace detail {

std::string NodeText::name(std::optional<Field> F) const {
  std::string S = ("Nodes[" + Twine(Index) + "]").str();
  if (F)
    S += ("." + fieldName(*F)).str();
  return S;
}

static StringRef arrayName(ArrayKey Key) {
  assert((Key == ArrayKey::Edges || Key == ArrayKey::ReuseEdges) &&
         "only the arrays of edges are named here");
  return Key == ArrayKey::Edges ? "Edges" : "ReuseEdges";
}

JSONImporter::JSONImporter(SourceMgr &SM, unsigned BufferID, Graph &G,
                           bool Quick)
    : Text(SM.getMemoryBuffer(BufferID)->getBuffer()), B(SM, G), G(G),
      Quick(Quick) {
  // A UTF-8 byte-order mark, which some editors write, is not JSON.
  Text.consume_front("\xEF\xBB\xBF");
}

StringRef JSONImporter::decode(const JSONToken &T) {
  if (T.Plain || !T.Str.contains('\\'))
    return T.Str;
  // A bad escape is checkStrings' to report (Quick decodes before it runs:
  // the raw text stands in until then).
  Expected<json::Value> V = json::parse(Text.substr(T.Pos, T.Str.size() + 2));
  if (!V) {
    consumeError(V.takeError());
    return T.Str;
  }
  return Decoded.emplace_back(V->getAsString().value_or(T.Str).str());
}

bool JSONImporter::readUInt(const NodeText &N, Field F, uint64_t &Out,
                            bool Required, bool *Present) {
  const JSONToken *V = N.get(F);
  if (Present)
    *Present = V != nullptr;
  if (!V) {
    if (!Required)
      return true;
    return B.error(at(N.Pos),
                   Twine(N.name()) + " has no '" + fieldName(F) + "'");
  }
  std::optional<uint64_t> I = nonNegativeInteger(*V);
  if (!I || *I > MaxValue)
    return B.error(at(V->Pos),
                   Twine(N.name(F)) + " must be an integer from 0 to 2^40");
  Out = *I;
  return true;
}

bool JSONImporter::readString(const NodeText &N, Field F, StringRef &Out) {
  const JSONToken *V = N.get(F);
  if (!V)
    return B.error(at(N.Pos),
                   Twine(N.name()) + " has no '" + fieldName(F) + "'");
  if (V->Kind != '"')
    return B.error(at(V->Pos), Twine(N.name(F)) + " must be a string");
  Out = decode(*V);
  return true;
}

bool JSONImporter::readTiles(const NodeText &N, Node &Out) {
  TileAccess A;
  for (auto [Key, Names] : {std::pair(Field::Reads, &A.Reads),
                            std::pair(Field::Writes, &A.Writes)}) {
    const JSONToken *V = N.get(Key);
    if (!V)
      continue;
    bool Ok = V->Kind == '[';
    if (Ok) {
      JSONScanner S(Text, V->Pos + 1);
      Ok = forEachElement(S, [&](const JSONToken &E) {
        StringRef Name = E.Kind == '"' ? decode(E) : "";
        if (Name.empty() || !llvm::all_of(Name, [](char C) {
              return isAlnum(C) || StringRef("_.$-").contains(C);
            }))
          return false;
        Names->push_back(Name.str());
        return true;
      });
    }
    if (!Ok)
      return B.error(at(V->Pos), Twine(N.name(Key)) +
                                     " must be an array of tile names "
                                     "(letters, digits and _ . $ -)");
  }
  if (!A.Reads.empty() || !A.Writes.empty())
    Out.TileSet = G.addTiles(std::move(A));
  return true;
}

bool JSONImporter::readAttrs(const NodeText &N, Node &Out) {
  const JSONToken *V = N.get(Field::Attrs);
  if (!V)
    return true;
  auto Where = [&] { return at(V->Pos); };
  if (V->Kind != '{')
    return B.error(Where(), Twine(N.name(Field::Attrs)) +
                                " must be an object of strings");
  // By key, as the IR keeps them (and so in a stable order).
  NodeAttrs Attrs;
  JSONScanner S(Text, V->Pos + 1);
  StringRef NotString;
  forEachMember(S, [&](const JSONToken &Key, const JSONToken &Value) {
    if (Value.Kind != '"') {
      NotString = decode(Key);
      return false;
    }
    Attrs.emplace_back(decode(Key).str(), decode(Value).str());
    return true;
  });
  if (NotString.data())
    return B.error(Where(), Twine(N.name(Field::Attrs)) + "." + NotString +
                                " must be a string");
  llvm::sort(Attrs);
  for (const auto &A : Attrs)
    if (!detail::checkIdentifier(B, A.first, Where,
                                 Twine(N.name(Field::Attrs)) + " key",
                                 "an attribute", "an attribute key"))
      return false;
  if (!Attrs.empty())
    Out.AttrSet = G.addAttrs(std::move(Attrs));
  return true;
}

bool JSONImporter::readBuffer(const NodeText &N, Node &Out) {
  StringRef Type;
  if (!readUInt(N, Field::BufId, Out.Buf) ||
      !readUInt(N, Field::Size, Out.Size) ||
      !readString(N, Field::Type, Type) ||
      !detail::checkTierName(
          B, Type, [&] { return at(N.get(Field::Type)->Pos); }, Out.BufTier))
    return false;
  return Out.Kind != NodeKind::Alloc ||
         readUInt(N, Field::Offset, Out.Offset, false, &Out.HasOffset);
}

bool JSONImporter::readOp(const NodeText &N, StringRef Op, Node &Out) {
  if (Op.empty())
    return B.error(at(N.get(Field::Op)->Pos),
                   Twine(N.name(Field::Op)) + " is empty");
  if (!detail::checkOpName(
          B, Op, [&] { return at(N.get(Field::Op)->Pos); }, N.name(Field::Op)))
    return false;
  StringRef PipeName;
  if (!readString(N, Field::Pipe, PipeName) ||
      !detail::checkPipeName(
          B, PipeName, [&] { return at(N.get(Field::Pipe)->Pos); },
          Out.OpPipe) ||
      !readUInt(N, Field::Cycles, Out.Cycles))
    return false;
  const JSONToken *Bufs = N.get(Field::Bufs);
  if (!Bufs)
    return B.error(at(N.Pos), Twine(N.name()) + " has no 'Bufs'");
  if (Bufs->Kind != '[')
    return B.error(at(Bufs->Pos), Twine(N.name(Field::Bufs)) +
                                      " must be an array of buffer ids");
  JSONScanner S(Text, Bufs->Pos + 1);
  if (!forEachElement(S, [&](const JSONToken &E) {
        std::optional<uint64_t> I = nonNegativeInteger(E);
        if (!I || *I > MaxValue)
          return false;
        Out.Bufs.push_back(*I);
        return true;
      }))
    return B.error(at(Bufs->Pos), Twine(N.name(Field::Bufs)) +
                                      " must hold integers from 0 to 2^40");
  Out.OpName = G.internOpName(Op);
  return readTiles(N, Out);
}

bool JSONImporter::addNode(const NodeText &N) {
  Node Out;
  Out.Loc = at(N.Pos);
  StringRef Op;
  if (!readUInt(N, Field::Id, Out.Id) || !readString(N, Field::Op, Op))
    return false;
  bool Ok;
  if (Op == "ALLOC" || Op == "FREE") {
    Out.Kind = Op == "ALLOC" ? NodeKind::Alloc : NodeKind::Free;
    Ok = readBuffer(N, Out);
  } else if (Op == "SPILL_OUT" || Op == "SPILL_IN") {
    // Pipe and Cycles of a spill node follow from the target; not read.
    Out.Kind = Op == "SPILL_OUT" ? NodeKind::SpillOut : NodeKind::SpillIn;
    Ok = readUInt(N, Field::BufId, Out.Buf) &&
         (Out.Kind != NodeKind::SpillIn ||
          readUInt(N, Field::Offset, Out.Offset, false, &Out.HasOffset));
  } else {
    Out.Kind = NodeKind::Op;
    Ok = readOp(N, Op, Out);
  }
  return Ok && readAttrs(N, Out) && B.addNode(std::move(Out));
}

bool JSONImporter::addEdge(const EdgeText &E, ArrayKey Key) {
  if (!E.IsArray || E.Count != 2 || !E.Ends[0] || !E.Ends[1])
    return B.error(at(E.Pos), arrayName(Key) + "[" + Twine(E.Index) +
                                  "] must be a pair [src, dst] of node ids");
  return B.addEdge(*E.Ends[0], *E.Ends[1], at(E.Pos),
                   Key == ArrayKey::ReuseEdges);
}

bool JSONImporter::walkNodes() {
  JSONScanner S(Text, TopValues.find("Nodes")->second.Pos + 1);
  size_t Index = 0;
  NodeText N;
  return forEachElement(S, [&](const JSONToken &Elem) {
    N.start(Elem.Pos, Index++);
    if (Elem.Kind != '{')
      return B.error(at(N.Pos), Twine(N.name()) + " must be an object");
    forEachMember(S, [&](const JSONToken &Key, const JSONToken &Value) {
      N.add(decode(Key), Value);
      skipContents(S, Value);
      return true;
    });
    return addNode(N);
  });
}

bool JSONImporter::walkEdges(ArrayKey Key) {
  auto It = TopValues.find(arrayName(Key));
  if (It == TopValues.end()) {
    if (Key == ArrayKey::ReuseEdges)
      return true;
    return B.error(at(0), "the top-level object has no '" + arrayName(Key) +
                              "' array");
  }
  const JSONToken &Array = It->second;
  if (Array.Kind != '[')
    return B.error(at(Array.Pos), "'" + arrayName(Key) +
                                      "' must be an array of [src, dst] pairs");
  JSONScanner S(Text, Array.Pos + 1);
  size_t Index = 0;
  EdgeText E;
  return forEachElement(S, [&](const JSONToken &Elem) {
    E.start(Elem, Index++);
    if (E.IsArray)
      forEachElement(S, [&](const JSONToken &V) {
        E.add(V);
        skipContents(S, V);
        return true;
      });
    return addEdge(E, Key);
  });
}

std::optional<bool> JSONImporter::run() {
  // Room for every node up front, so that the list is never regrown: each
  // is an object, and none is written in fewer than 32 bytes.
  size_t Room = std::min<size_t>(std::count(Text.begin(), Text.end(), '{'),
                                 Text.size() / 32 + 1);
  G.Nodes.reserve(Room);
  G.Order.reserve(Room);
  B.expectNodes(Room);
  if (!checkSyntax() || !checkStrings())
    return false;
  if (QuickFailed)
    return std::nullopt;
  JSONScanner Top(Text);
  JSONToken First;
  if (!Top.next(First) || First.Kind != '{')
    return B.error(at(0), "expected a JSON object with \"Nodes\" and "
                          "\"Edges\"");
  auto NodesIt = TopValues.find("Nodes");
  if (NodesIt == TopValues.end())
    return B.error(at(0), "the top-level object has no 'Nodes' array");
  if (NodesIt->second.Kind != '[')
    return B.error(at(NodesIt->second.Pos),
                   "'Nodes' must be an array of node objects");
  auto Done = [&](ArrayKey Key) { return Read[size_t(Key)]; };
  if ((!Done(ArrayKey::Nodes) && !walkNodes()) ||
      (!Done(ArrayKey::Edges) && !walkEdges(ArrayKey::Edges)) ||
      (!Done(ArrayKey::ReuseEdges) && !walkEdges(ArrayKey::ReuseEdges)))
    return false;
  B.finish();
  return true;
}

} // namespace detail

std::unique_ptr<Graph> importJSON(SourceMgr &SM, unsigned BufferID,
                                  StringRef GraphName, const TargetDesc *Base) {
  if (reportEmptyInput(SM, BufferID))
    return nullptr;
  auto NewGraph = [&] {
    auto G = std::make_unique<Graph>();
    G->Name = GraphName.str();
    if (Base)
      G->Target = *Base;
    return G;
  };
  std::unique_ptr<Graph> G = NewGraph();
  std::optional<bool> Read =
      detail::JSONImporter(SM, BufferID, *G, /*Quick=*/true).run();
  if (!Read) {
    G = NewGraph();
    Read = detail::JSONImporter(SM, BufferID, *G, /*Quick=*/false).run();
  }
  return Read.value_or(false) ? std::move(G) : nullptr;
}

} // namespace dan
