//===- JSONImport.cpp - Contest JSON: the reader --------------------------===//
//
// llvm::json parses the text; this file turns the value into a graph. JSON
// values carry no source positions, so on an error a small scanner finds the
// element or field in the text, for a file:line:col diagnostic.
//
// The file is not parsed whole: the DOM of a million-node graph takes about
// 5 GB (and even small files read faster in chunks). Instead the scanner checks
// the top-level skeleton
// ({"key": value, ...}) and llvm::json parses the elements of the "Nodes",
// "Edges" and "ReuseEdges" arrays one at a time (and every other top-level
// value whole). The graph and every diagnostic are the same as
// with the whole-file parse: anything malformed sends the file back to that
// path, which reports it.
//
//===----------------------------------------------------------------------===//

#include "GraphBuilder.h"
#include "JSONScan.h"
#include "dan/Formats/JSON.h"
#include "dan/IR/Diagnostic.h"
#include "llvm/ADT/StringExtras.h"
#include "llvm/ADT/StringMap.h"
#include "llvm/Support/JSON.h"
#include "llvm/Support/MemoryBuffer.h"
#include <deque>
#include <optional>

using namespace llvm;

namespace dan {

using detail::elementStarts;
using detail::JSONScanner;
using detail::memberOffset;
using detail::scanSkeleton;
using detail::SkeletonMember;

namespace {

class JSONImporter {
public:
  JSONImporter(SourceMgr &SM, unsigned BufferID, Graph &G)
      : Text(SM.getMemoryBuffer(BufferID)->getBuffer()), B(SM, G), G(G) {
    // A UTF-8 byte-order mark, which some editors write, is not JSON.
    Text.consume_front("\xEF\xBB\xBF");
  }

  bool run();
  /// The chunked path. Returns std::nullopt when the file is not in the
  /// expected shape or not valid JSON (nothing was reported): the caller
  /// then starts over with run() on a fresh graph.
  std::optional<bool> runStreamed();

private:
  SMLoc at(size_t Offset) const {
    return SMLoc::getFromPointer(Text.data() + std::min(Offset, Text.size()));
  }
  /// Where element \p Index of array \p Key (or its \p Field) is written.
  SMLoc at(StringRef Key, size_t Index, StringRef Field = "") {
    auto [It, New] = Starts.try_emplace(Key);
    if (New)
      It->second = elementStarts(Text, Key);
    const std::vector<size_t> &S = It->second;
    if (Index >= S.size())
      return at(S.empty() ? 0 : S.back());
    if (Field.empty())
      return at(S[Index]);
    return at(memberOffset(Text, S[Index], Field));
  }
  bool checkSyntax();
  bool readNode(const json::Value &V, size_t Index);
  /// The optional "Reads" and "Writes" arrays of an operation: its tiles.
  bool readTiles(const json::Object &O, size_t Index, Node &N);
  /// Nodes[Index].Attrs, an object of strings, as N's attributes.
  bool readAttrs(const json::Object &O, size_t Index, Node &N);
  bool readUInt(const json::Object &O, StringRef Field, size_t Index,
                uint64_t &Out, bool Required = true, bool *Present = nullptr);
  bool readString(const json::Object &O, StringRef Field, size_t Index,
                  StringRef &Out);
  bool readEdges(const json::Object &Root, StringRef Key, bool Reuse);
  bool readEdge(const json::Value &V, StringRef Key, size_t I, bool Reuse);
  /// The elements of one array, each parsed on its own and handed to
  /// \p Read; an element that is not valid JSON means the file is not
  /// (std::nullopt). (Parsed a chunk at a time, a third of the import went
  /// into llvm::json's array regrowth, which copies every element's object.)
  std::optional<bool>
  readElements(const SkeletonMember &M,
               function_ref<bool(const json::Value &, size_t)> Read);

  /// The JSON text: the buffer without a byte-order mark. Offsets are into
  /// it.
  StringRef Text;
  /// Element offsets of each top-level array, found on first use.
  StringMap<std::vector<size_t>> Starts;
  detail::GraphBuilder B;
  Graph &G;
};

/// Whether \p S, a bare token of the scanner, is a JSON literal: true,
/// false, null or a number as RFC 8259 writes it (llvm::json also takes
/// ".5", "+1" and "01").
static bool isJSONLiteral(StringRef S) {
  if (S == "true" || S == "false" || S == "null")
    return true;
  auto Digits = [&S] {
    if (S.empty() || !isDigit(S.front()))
      return false;
    S = S.drop_while([](char C) { return isDigit(C); });
    return true;
  };
  S.consume_front("-");
  if (!S.consume_front("0") && !Digits())
    return false;
  if (S.consume_front(".") && !Digits())
    return false;
  if (S.consume_front("e") || S.consume_front("E")) {
    if (!S.consume_front("+"))
      S.consume_front("-");
    if (!Digits())
      return false;
  }
  return S.empty();
}

/// One pass over the text, before either path reads it, so that the two
/// agree and every error is reported where it is and in the order of the
/// text: JSON's grammar (llvm::json reports a bad token one byte late, and
/// after any shape error the chunked path meets first), then what this
/// reader requires beyond llvm::json: nesting at most 64 levels
/// (llvm::json::parse recurses once per level; a contest file nests four
/// deep), no key twice in one object (llvm::json keeps the last one
/// silently), and every number inside "Nodes", "Edges" and "ReuseEdges"
/// written as an integer (llvm::json reads 2e2 and 200.0 as the integer
/// 200). Escapes and UTF-8 inside strings are left to llvm::json.
bool JSONImporter::checkSyntax() {
  constexpr size_t MaxDepth = 64;
  // What the grammar allows next.
  enum class Want : uint8_t {
    Value,        // after '[' with ']' allowed too when Close
    Key,          // after '{' with '}' allowed too when Close
    Colon,        // after a key
    CommaOrClose, // after a value or a member
    Nothing,      // after the top-level value
  };
  struct Frame {
    bool IsObject = false;
    Want Next = Want::Value;
    bool Close = true; // the container may close here
    SmallVector<StringRef, 8> Keys;
  };
  SmallVector<Frame, 8> Stack;
  Want TopNext = Want::Value;
  auto next = [&]() -> Want & {
    return Stack.empty() ? TopNext : Stack.back().Next;
  };
  auto valueDone = [&] {
    next() = Stack.empty() ? Want::Nothing : Want::CommaOrClose;
  };
  auto invalid = [&](size_t Pos, const Twine &What) {
    return B.error(at(Pos), "invalid JSON: " + What);
  };
  // Keys written with escapes, decoded; rare, so kept apart.
  std::deque<std::string> Decoded;
  StringRef TopKey;
  JSONScanner S(Text);
  char K;
  size_t Pos;
  StringRef Str;
  while (S.next(K, Pos, Str)) {
    bool Closes = K == '}' || K == ']';
    if (Closes && !Stack.empty() && Stack.back().IsObject == (K == '}') &&
        (next() == Want::CommaOrClose ||
         (Stack.back().Close && next() != Want::Colon))) {
      Stack.pop_back();
      valueDone();
      continue;
    }
    if (K == '"' && Pos + Str.size() + 1 >= Text.size())
      return invalid(Pos, "Unterminated string");
    switch (next()) {
    case Want::Nothing:
      return invalid(Pos, "Text after end of JSON value");
    case Want::Colon:
      if (K != ':')
        return invalid(Pos, "Expected : after object key");
      next() = Want::Value;
      Stack.back().Close = false;
      break;
    case Want::CommaOrClose:
      if (K != ',')
        return invalid(Pos, Stack.back().IsObject
                                ? "Expected , or } after object member"
                                : "Expected , or ] after array element");
      next() = Stack.back().IsObject ? Want::Key : Want::Value;
      Stack.back().Close = false;
      break;
    case Want::Key: {
      if (K != '"')
        return invalid(Pos, "Expected object key");
      Frame &F = Stack.back();
      F.Next = Want::Colon;
      StringRef Key = Str;
      if (Key.contains('\\')) {
        Expected<json::Value> V = json::parse(Text.substr(Pos, Str.size() + 2));
        if (!V) // A bad escape: llvm::json reports it.
          consumeError(V.takeError());
        else
          Key = Decoded.emplace_back(V->getAsString().value_or(Key).str());
      }
      if (llvm::is_contained(F.Keys, Key))
        return B.error(at(Pos),
                       "duplicate key " + quoteToken(Key) + " in one object");
      F.Keys.push_back(Key);
      if (Stack.size() == 1)
        TopKey = Key;
      break;
    }
    case Want::Value:
      if (K == '{' || K == '[') {
        if (Stack.size() == MaxDepth)
          return B.error(at(Pos), "JSON nests deeper than " + Twine(MaxDepth) +
                                      " levels");
        valueDone();
        Frame &F = Stack.emplace_back();
        F.IsObject = K == '{';
        F.Next = F.IsObject ? Want::Key : Want::Value;
        break;
      }
      if (K != '"' && K != 'v')
        return invalid(Pos, "Invalid JSON value");
      if (K == 'v' && !isJSONLiteral(Str))
        return invalid(Pos, "Invalid JSON value " + quoteToken(Str));
      if (K == 'v' && Stack.size() >= 2 &&
          (TopKey == "Nodes" || TopKey == "Edges" || TopKey == "ReuseEdges") &&
          (isDigit(Str.front()) || Str.front() == '-') &&
          Str.find_first_of(".eE") != StringRef::npos)
        return B.error(at(Pos), "a number in '" + TopKey +
                                    "' must be an integer, written without "
                                    "a fraction or an exponent, not " +
                                    quoteToken(Str));
      valueDone();
      break;
    }
  }
  if (!Stack.empty() || TopNext != Want::Nothing)
    return invalid(Text.size(), "Unexpected EOF");
  return true;
}

bool JSONImporter::readUInt(const json::Object &O, StringRef Field,
                            size_t Index, uint64_t &Out, bool Required,
                            bool *Present) {
  const json::Value *V = O.get(Field);
  if (Present)
    *Present = V != nullptr;
  if (!V) {
    if (!Required)
      return true;
    return B.error(at("Nodes", Index),
                   "Nodes[" + Twine(Index) + "] has no '" + Field + "'");
  }
  std::optional<int64_t> I = V->getAsInteger();
  if (!I || *I < 0 || uint64_t(*I) > MaxValue)
    return B.error(at("Nodes", Index, Field),
                   "Nodes[" + Twine(Index) + "]." + Field +
                       " must be an integer from 0 to 2^40");
  Out = *I;
  return true;
}

bool JSONImporter::readString(const json::Object &O, StringRef Field,
                              size_t Index, StringRef &Out) {
  const json::Value *V = O.get(Field);
  if (!V)
    return B.error(at("Nodes", Index),
                   "Nodes[" + Twine(Index) + "] has no '" + Field + "'");
  std::optional<StringRef> S = V->getAsString();
  if (!S)
    return B.error(at("Nodes", Index, Field), "Nodes[" + Twine(Index) + "]." +
                                                  Field + " must be a string");
  Out = *S;
  return true;
}

bool JSONImporter::readTiles(const json::Object &O, size_t Index, Node &N) {
  TileAccess A;
  for (auto [Key, Names] : {std::pair(StringRef("Reads"), &A.Reads),
                            std::pair(StringRef("Writes"), &A.Writes)}) {
    const json::Value *V = O.get(Key);
    if (!V)
      continue;
    const json::Array *Arr = V->getAsArray();
    bool Ok = Arr != nullptr;
    for (size_t K = 0; Ok && K != Arr->size(); ++K) {
      std::optional<StringRef> S = (*Arr)[K].getAsString();
      Ok = S && !S->empty() && llvm::all_of(*S, [](char C) {
             return isAlnum(C) || StringRef("_.$-").contains(C);
           });
      if (Ok)
        Names->push_back(S->str());
    }
    if (!Ok)
      return B.error(at("Nodes", Index, Key),
                     "Nodes[" + Twine(Index) + "]." + Key +
                         " must be an array of tile names (letters, digits "
                         "and _ . $ -)");
  }
  if (!A.Reads.empty() || !A.Writes.empty())
    N.TileSet = G.addTiles(std::move(A));
  return true;
}

bool JSONImporter::readAttrs(const json::Object &O, size_t Index, Node &N) {
  const json::Value *V = O.get("Attrs");
  if (!V)
    return true;
  auto Where = [&] { return at("Nodes", Index, "Attrs"); };
  const json::Object *Obj = V->getAsObject();
  if (!Obj)
    return B.error(Where(), "Nodes[" + Twine(Index) +
                                "].Attrs must be an object of strings");
  // By key, as the IR keeps them (and so in a stable order).
  NodeAttrs Attrs;
  for (const auto &[Key, Value] : *Obj) {
    std::optional<StringRef> S = Value.getAsString();
    if (!S)
      return B.error(Where(), "Nodes[" + Twine(Index) + "].Attrs." +
                                  StringRef(Key) + " must be a string");
    Attrs.emplace_back(StringRef(Key).str(), S->str());
  }
  llvm::sort(Attrs);
  for (const auto &A : Attrs)
    if (!detail::checkIdentifier(B, A.first, Where,
                                 "Nodes[" + Twine(Index) + "].Attrs key",
                                 "an attribute", "an attribute key"))
      return false;
  if (!Attrs.empty())
    N.AttrSet = G.addAttrs(std::move(Attrs));
  return true;
}

bool JSONImporter::readNode(const json::Value &V, size_t Index) {
  const json::Object *O = V.getAsObject();
  if (!O)
    return B.error(at("Nodes", Index),
                   "Nodes[" + Twine(Index) + "] must be an object");
  Node N;
  N.Loc = at("Nodes", Index);
  StringRef Op;
  if (!readUInt(*O, "Id", Index, N.Id) || !readString(*O, "Op", Index, Op))
    return false;
  if (Op == "ALLOC" || Op == "FREE") {
    N.Kind = Op == "ALLOC" ? NodeKind::Alloc : NodeKind::Free;
    StringRef Type;
    if (!readUInt(*O, "BufId", Index, N.Buf) ||
        !readUInt(*O, "Size", Index, N.Size) ||
        !readString(*O, "Type", Index, Type) ||
        !detail::checkTierName(
            B, Type, [&] { return at("Nodes", Index, "Type"); }, N.BufTier))
      return false;
    if (N.Kind == NodeKind::Alloc &&
        !readUInt(*O, "Offset", Index, N.Offset, false, &N.HasOffset))
      return false;
  } else if (Op == "SPILL_OUT" || Op == "SPILL_IN") {
    // Pipe and Cycles of a spill node follow from the target; not read.
    N.Kind = Op == "SPILL_OUT" ? NodeKind::SpillOut : NodeKind::SpillIn;
    if (!readUInt(*O, "BufId", Index, N.Buf))
      return false;
    if (N.Kind == NodeKind::SpillIn &&
        !readUInt(*O, "Offset", Index, N.Offset, false, &N.HasOffset))
      return false;
  } else {
    N.Kind = NodeKind::Op;
    if (Op.empty())
      return B.error(at("Nodes", Index, "Op"),
                     "Nodes[" + Twine(Index) + "].Op is empty");
    if (!detail::checkOpName(
            B, Op, [&] { return at("Nodes", Index, "Op"); },
            "Nodes[" + Twine(Index) + "].Op"))
      return false;
    StringRef PipeName;
    if (!readString(*O, "Pipe", Index, PipeName) ||
        !detail::checkPipeName(
            B, PipeName, [&] { return at("Nodes", Index, "Pipe"); },
            N.OpPipe) ||
        !readUInt(*O, "Cycles", Index, N.Cycles))
      return false;
    const json::Value *Bufs = O->get("Bufs");
    if (!Bufs)
      return B.error(N.Loc, "Nodes[" + Twine(Index) + "] has no 'Bufs'");
    const json::Array *Arr = Bufs->getAsArray();
    if (!Arr)
      return B.error(at("Nodes", Index, "Bufs"),
                     "Nodes[" + Twine(Index) +
                         "].Bufs must be an array of buffer ids");
    for (const json::Value &E : *Arr) {
      std::optional<int64_t> I = E.getAsInteger();
      if (!I || *I < 0 || uint64_t(*I) > MaxValue)
        return B.error(at("Nodes", Index, "Bufs"),
                       "Nodes[" + Twine(Index) +
                           "].Bufs must hold integers from 0 to 2^40");
      N.Bufs.push_back(*I);
    }
    N.OpName = G.internOpName(Op);
    if (!readTiles(*O, Index, N))
      return false;
  }
  if (!readAttrs(*O, Index, N))
    return false;
  return B.addNode(std::move(N));
}

bool JSONImporter::readEdges(const json::Object &Root, StringRef Key,
                             bool Reuse) {
  const json::Value *V = Root.get(Key);
  if (!V) {
    if (Reuse)
      return true;
    return B.error(at(0), "the top-level object has no '" + Key + "' array");
  }
  const json::Array *Arr = V->getAsArray();
  if (!Arr)
    return B.error(at(memberOffset(Text, 0, Key)),
                   "'" + Key + "' must be an array of [src, dst] pairs");
  for (size_t I = 0, E = Arr->size(); I != E; ++I)
    if (!readEdge((*Arr)[I], Key, I, Reuse))
      return false;
  return true;
}

bool JSONImporter::readEdge(const json::Value &V, StringRef Key, size_t I,
                            bool Reuse) {
  const json::Array *Pair = V.getAsArray();
  std::optional<int64_t> From, To;
  if (Pair && Pair->size() == 2) {
    From = (*Pair)[0].getAsInteger();
    To = (*Pair)[1].getAsInteger();
  }
  SMLoc Loc = at(Key, I);
  if (!From || !To || *From < 0 || *To < 0)
    return B.error(Loc, Key + "[" + Twine(I) +
                            "] must be a pair [src, dst] of node ids");
  return B.addEdge(*From, *To, Loc, Reuse);
}

bool JSONImporter::run() {
  if (!checkSyntax())
    return false;
  Expected<json::Value> Root = json::parse(Text);
  if (!Root) {
    std::string Msg = toString(Root.takeError());
    // The message reads "[line:col, byte=N]: what went wrong".
    size_t Offset = 0;
    StringRef Rest(Msg);
    size_t BytePos = Rest.find("byte=");
    if (BytePos != StringRef::npos)
      Rest.substr(BytePos + 5).take_while(isDigit).getAsInteger(10, Offset);
    // checkSyntax found every error outside strings; llvm::json reports
    // one inside a string (a control byte, a bad escape) a byte past it.
    Offset -= std::min<size_t>(Offset, 1);
    size_t Colon = Rest.find("]: ");
    StringRef What = Colon == StringRef::npos ? Rest : Rest.substr(Colon + 3);
    return B.error(at(Offset), "invalid JSON: " + What);
  }
  const json::Object *Top = Root->getAsObject();
  if (!Top)
    return B.error(at(0), "expected a JSON object with \"Nodes\" and "
                          "\"Edges\"");
  const json::Value *NodesV = Top->get("Nodes");
  if (!NodesV)
    return B.error(at(0), "the top-level object has no 'Nodes' array");
  const json::Array *Nodes = NodesV->getAsArray();
  if (!Nodes)
    return B.error(at(memberOffset(Text, 0, "Nodes")),
                   "'Nodes' must be an array of node objects");
  G.Nodes.reserve(Nodes->size());
  B.expectNodes(Nodes->size());
  for (size_t I = 0, E = Nodes->size(); I != E; ++I)
    if (!readNode((*Nodes)[I], I))
      return false;
  if (!readEdges(*Top, "Edges", false) || !readEdges(*Top, "ReuseEdges", true))
    return false;
  B.finish();
  return true;
}

std::optional<bool> JSONImporter::readElements(
    const SkeletonMember &M,
    function_ref<bool(const json::Value &, size_t)> Read) {
  for (size_t I = 0, E = M.Elements.size(); I != E; ++I) {
    Expected<json::Value> V =
        json::parse(Text.slice(M.Elements[I].first, M.Elements[I].second));
    if (!V) {
      consumeError(V.takeError());
      return std::nullopt;
    }
    if (!Read(*V, I))
      return false;
  }
  return true;
}

std::optional<bool> JSONImporter::runStreamed() {
  if (!checkSyntax())
    return false;
  std::optional<StringMap<SkeletonMember>> Members = scanSkeleton(Text);
  if (!Members)
    return std::nullopt;
  auto NodesIt = Members->find("Nodes"), EdgesIt = Members->find("Edges"),
       ReuseIt = Members->find("ReuseEdges");
  if (NodesIt == Members->end() || !NodesIt->second.IsArray ||
      EdgesIt == Members->end() || !EdgesIt->second.IsArray ||
      (ReuseIt != Members->end() && !ReuseIt->second.IsArray))
    return std::nullopt;

  // Where each element starts, for the diagnostics and node locations:
  // what elementStarts would find again with a scan of the whole file.
  for (StringRef Key : {"Nodes", "Edges", "ReuseEdges"}) {
    auto It = Members->find(Key);
    if (It == Members->end())
      continue;
    std::vector<size_t> &S = Starts[Key];
    S.reserve(It->second.Elements.size());
    for (auto [Begin, End] : It->second.Elements)
      S.push_back(Begin);
  }
  G.Nodes.reserve(NodesIt->second.Elements.size());
  B.expectNodes(NodesIt->second.Elements.size());
  std::optional<bool> R =
      readElements(NodesIt->second, [&](const json::Value &V, size_t I) {
        return readNode(V, I);
      });
  if (R && *R)
    R = readElements(EdgesIt->second, [&](const json::Value &V, size_t I) {
      return readEdge(V, "Edges", I, false);
    });
  if (R && *R && ReuseIt != Members->end())
    R = readElements(ReuseIt->second, [&](const json::Value &V, size_t I) {
      return readEdge(V, "ReuseEdges", I, true);
    });
  if (R && *R)
    B.finish();
  return R;
}

} // namespace

std::unique_ptr<Graph> importJSON(SourceMgr &SM, unsigned BufferID,
                                  StringRef GraphName, size_t StreamAbove,
                                  const TargetDesc *Base) {
  if (reportEmptyInput(SM, BufferID))
    return nullptr;
  auto G = std::make_unique<Graph>();
  G->Name = GraphName.str();
  if (Base)
    G->Target = *Base;
  if (SM.getMemoryBuffer(BufferID)->getBufferSize() > StreamAbove) {
    std::optional<bool> R = JSONImporter(SM, BufferID, *G).runStreamed();
    if (R)
      return *R ? std::move(G) : nullptr;
    G = std::make_unique<Graph>();
    G->Name = GraphName.str();
    if (Base)
      G->Target = *Base;
  }
  if (!JSONImporter(SM, BufferID, *G).run())
    return nullptr;
  return G;
}

} // namespace dan
