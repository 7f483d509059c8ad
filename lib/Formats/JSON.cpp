//===- JSON.cpp - Contest JSON: the reader and the writer -----------------===//
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

#include "dan/Formats/JSON.h"
#include "GraphBuilder.h"
#include "dan/IR/NodeCosts.h"
#include "llvm/ADT/StringExtras.h"
#include "llvm/Support/JSON.h"
#include "llvm/Support/MemoryBuffer.h"
#include "llvm/Support/Path.h"
#include <array>
#include <deque>

using namespace llvm;

namespace dan {

namespace {

/// JSON's white space, the structural bytes and the quote, for JSONScanner.
constexpr std::array<uint8_t, 256> byteClasses() {
  std::array<uint8_t, 256> T{};
  // JSON's white space only (RFC 8259): not isSpace's \v and \f.
  for (char C : {' ', '\t', '\n', '\r'})
    T[static_cast<unsigned char>(C)] = 1;
  for (char C : {'{', '}', '[', ']', ':', ','})
    T[static_cast<unsigned char>(C)] = 2;
  T[static_cast<unsigned char>('"')] = 4;
  return T;
}
constexpr std::array<uint8_t, 256> ByteClass = byteClasses();

/// Tokens of JSON text, just enough to find where a value starts.
class JSONScanner {
public:
  JSONScanner(StringRef Text, size_t Start = 0) : Text(Text), I(Start) {}

  /// What a byte is to the scanner, from a table: the scanner reads every
  /// byte of the file several times, and a search of a short string per
  /// byte was a tenth of the import.
  enum : uint8_t { Space = 1, Punct = 2, Quote = 4 };
  static uint8_t classOf(char C) {
    return ByteClass[static_cast<unsigned char>(C)];
  }
  /// Whether \p C ends a bare value (a number, true, false, null).
  static bool endsValue(char C) { return classOf(C) != 0; }

  /// Moves to the next structural character or the start of a scalar; Pos
  /// is its offset. Kind is the character, '"' for a string (Str holds its
  /// raw contents) or 'v' for another scalar (Str holds its text).
  bool next(char &Kind, size_t &Pos, StringRef &Str) {
    while (I < Text.size() && classOf(Text[I]) == Space)
      ++I;
    if (I >= Text.size())
      return false;
    Pos = I;
    char C = Text[I];
    if (C == '"') {
      size_t J = I + 1;
      while (J < Text.size() && Text[J] != '"')
        J += Text[J] == '\\' ? 2 : 1;
      Str = Text.slice(I + 1, std::min(J, Text.size()));
      I = J + 1;
      Kind = '"';
      return true;
    }
    if (classOf(C) == Punct) {
      ++I;
      Kind = C;
      return true;
    }
    while (I < Text.size() && !endsValue(Text[I]))
      ++I;
    Str = Text.slice(Pos, I);
    Kind = 'v';
    return true;
  }

private:
  StringRef Text;
  size_t I;
};

/// The offsets of the elements of the array under top-level key \p Key, in
/// one pass over the text.
std::vector<size_t> elementStarts(StringRef Text, StringRef Key) {
  std::vector<size_t> Starts;
  JSONScanner S(Text);
  char K;
  size_t Pos;
  StringRef Str, LastKey;
  int Depth = 0;
  bool InArray = false, ExpectElem = false;
  while (S.next(K, Pos, Str)) {
    if (InArray && ExpectElem && Depth == 2 && K != ']') {
      Starts.push_back(Pos);
      ExpectElem = false;
    }
    if (K == '{' || K == '[') {
      ++Depth;
    } else if (K == '}' || K == ']') {
      if (--Depth < 2 && InArray)
        break;
    } else if (K == '"' && Depth == 1) {
      LastKey = Str;
    } else if (K == ':' && Depth == 1 && LastKey == Key) {
      if (!S.next(K, Pos, Str) || K != '[')
        break;
      Depth = 2;
      InArray = ExpectElem = true;
    } else if (K == ',' && Depth == 2 && InArray) {
      ExpectElem = true;
    }
  }
  return Starts;
}

/// The offset of the value of member \p Field of the object at \p Start, or
/// \p Start when there is none.
size_t memberOffset(StringRef Text, size_t Start, StringRef Field) {
  JSONScanner S(Text, Start);
  char K;
  size_t Pos;
  StringRef Str, LastKey;
  int Depth = 0;
  while (S.next(K, Pos, Str)) {
    if (K == '{' || K == '[') {
      ++Depth;
    } else if (K == '}' || K == ']') {
      if (--Depth <= 0)
        break;
    } else if (K == '"' && Depth == 1) {
      LastKey = Str;
    } else if (K == ':' && Depth == 1 && LastKey == Field) {
      return S.next(K, Pos, Str) ? Pos : Start;
    }
  }
  return Start;
}

/// A top-level member of the file as the chunked path scans it.
struct SkeletonMember {
  size_t Begin = 0, End = 0; // the value's text
  std::vector<std::pair<size_t, size_t>> Elements;
  bool IsArray = false;
};

class JSONImporter {
public:
  JSONImporter(SourceMgr &SM, unsigned BufferID, Graph &G)
      : Buf(*SM.getMemoryBuffer(BufferID)), B(SM, G), G(G) {}

  bool run();
  /// The chunked path. Returns std::nullopt when the file is not in the
  /// expected shape or not valid JSON (nothing was reported): the caller
  /// then starts over with run() on a fresh graph.
  std::optional<bool> runStreamed();

private:
  SMLoc at(size_t Offset) const {
    return SMLoc::getFromPointer(Buf.getBufferStart() +
                                 std::min(Offset, Buf.getBufferSize()));
  }
  /// Where element \p Index of array \p Key (or its \p Field) is written.
  SMLoc at(StringRef Key, size_t Index, StringRef Field = "") {
    auto [It, New] = Starts.try_emplace(Key);
    if (New)
      It->second = elementStarts(Buf.getBuffer(), Key);
    const std::vector<size_t> &S = It->second;
    if (Index >= S.size())
      return at(S.empty() ? 0 : S.back());
    if (Field.empty())
      return at(S[Index]);
    return at(memberOffset(Buf.getBuffer(), S[Index], Field));
  }
  bool checkSyntax();
  bool readNode(const json::Value &V, size_t Index);
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

  const MemoryBuffer &Buf;
  /// Element offsets of each top-level array, found on first use.
  StringMap<std::vector<size_t>> Starts;
  detail::GraphBuilder B;
  Graph &G;
};

/// What this reader requires beyond llvm::json, checked in one pass over the
/// text before either path reads it, so that the chunked and the whole-file
/// path agree: nesting at most 64 levels (llvm::json::parse recurses once
/// per level; a contest file nests four deep), no key twice in one object
/// (llvm::json keeps the last one silently), and every number inside
/// "Nodes", "Edges" and "ReuseEdges" written as an integer (llvm::json
/// reads 2e2 and 200.0 as the integer 200).
bool JSONImporter::checkSyntax() {
  constexpr size_t MaxDepth = 64;
  struct Frame {
    bool IsObject = false;
    bool ExpectKey = false; // in an object: the next string is a key
    SmallVector<StringRef, 8> Keys;
  };
  SmallVector<Frame, 8> Stack;
  // Keys written with escapes, decoded; rare, so kept apart.
  std::deque<std::string> Decoded;
  StringRef TopKey;
  JSONScanner S(Buf.getBuffer());
  char K;
  size_t Pos;
  StringRef Str;
  while (S.next(K, Pos, Str)) {
    switch (K) {
    case '{':
    case '[':
      if (Stack.size() == MaxDepth)
        return B.error(at(Pos),
                       "JSON nests deeper than " + Twine(MaxDepth) + " levels");
      Stack.emplace_back();
      Stack.back().IsObject = Stack.back().ExpectKey = K == '{';
      break;
    case '}':
    case ']':
      if (!Stack.empty())
        Stack.pop_back();
      break;
    case ',':
      if (!Stack.empty() && Stack.back().IsObject)
        Stack.back().ExpectKey = true;
      break;
    case '"': {
      if (Stack.empty() || !Stack.back().ExpectKey)
        break;
      Frame &F = Stack.back();
      F.ExpectKey = false;
      StringRef Key = Str;
      if (Key.contains('\\')) {
        Expected<json::Value> V = json::parse(Buf.getBuffer().slice(
            Pos, std::min(Pos + Str.size() + 2, Buf.getBufferSize())));
        if (!V) {
          consumeError(V.takeError());
          break; // Not valid JSON: the reader reports it.
        }
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
    case 'v':
      if (Stack.size() >= 2 &&
          (TopKey == "Nodes" || TopKey == "Edges" || TopKey == "ReuseEdges") &&
          !Str.empty() && (isDigit(Str.front()) || Str.front() == '-') &&
          Str.find_first_of(".eE") != StringRef::npos)
        return B.error(at(Pos), "a number in '" + TopKey +
                                    "' must be an integer, written without "
                                    "a fraction or an exponent, not " +
                                    quoteToken(Str));
      break;
    default:
      break;
    }
  }
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
  }
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
    return B.error(at(memberOffset(Buf.getBuffer(), 0, Key)),
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
  Expected<json::Value> Root = json::parse(Buf.getBuffer());
  if (!Root) {
    std::string Msg = toString(Root.takeError());
    // The message reads "[line:col, byte=N]: what went wrong".
    size_t Offset = 0;
    StringRef Rest(Msg);
    size_t BytePos = Rest.find("byte=");
    if (BytePos != StringRef::npos)
      Rest.substr(BytePos + 5).take_while(isDigit).getAsInteger(10, Offset);
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
    return B.error(at(memberOffset(Buf.getBuffer(), 0, "Nodes")),
                   "'Nodes' must be an array of node objects");
  G.Nodes.reserve(Nodes->size());
  for (size_t I = 0, E = Nodes->size(); I != E; ++I)
    if (!readNode((*Nodes)[I], I))
      return false;
  if (!readEdges(*Top, "Edges", false) || !readEdges(*Top, "ReuseEdges", true))
    return false;
  B.finish();
  return true;
}

/// Whether \p Key's array is read an element at a time.
static bool isSplitKey(StringRef Key) {
  return Key == "Nodes" || Key == "Edges" || Key == "ReuseEdges";
}

/// Scans the value that starts with token \p K at \p Pos into \p M: a
/// string or scalar by its extent, an object or array to its end, an array
/// of a split key into its elements' ranges. Returns false, reporting
/// nothing, when the value is not in the expected shape.
static bool scanValue(JSONScanner &S, StringRef Text, StringRef Key, char K,
                      size_t Pos, StringRef Str, SkeletonMember &M) {
  M.Begin = Pos;
  M.IsArray = K == '[';
  if (K == '"') {
    M.End = Pos + Str.size() + 2;
    return true;
  }
  if (K == 'v') {
    M.End = Pos;
    while (M.End < Text.size() && !JSONScanner::endsValue(Text[M.End]))
      ++M.End;
    return true;
  }
  if (K != '{' && K != '[')
    return false;
  bool Split = M.IsArray && isSplitKey(Key);
  int Depth = 1;
  size_t ElemBegin = SIZE_MAX;
  while (Depth > 0) {
    if (!S.next(K, Pos, Str))
      return false;
    if (Split && Depth == 1 && ElemBegin == SIZE_MAX && K != ']' && K != ',')
      ElemBegin = Pos;
    if (K == '{' || K == '[')
      ++Depth;
    else if (K == '}' || K == ']')
      --Depth;
    if (Split && (K == ',' ? Depth == 1 : Depth == 0)) {
      if (ElemBegin != SIZE_MAX)
        M.Elements.push_back({ElemBegin, Pos});
      else if (K == ',' || !M.Elements.empty())
        return false; // an empty element: ",," or ",]"
      ElemBegin = SIZE_MAX;
    }
  }
  M.End = Pos + 1;
  return true;
}

/// The skeleton: '{', then "key": value pairs separated by ',', then '}'
/// and nothing after. The arrays of the three known keys are split into
/// their elements' ranges; any other value is kept whole. std::nullopt when
/// the text is not in that shape.
static std::optional<StringMap<SkeletonMember>> scanSkeleton(StringRef Text) {
  JSONScanner S(Text);
  char K;
  size_t Pos;
  StringRef Str;
  StringMap<SkeletonMember> Members;
  if (!S.next(K, Pos, Str) || K != '{')
    return std::nullopt;
  bool First = true;
  while (true) {
    if (!S.next(K, Pos, Str))
      return std::nullopt;
    if (K == '}' && First)
      break;
    // A key with escapes could spell a known key differently; leave such a
    // file to the whole-file path.
    if (K != '"' || Str.contains('\\'))
      return std::nullopt;
    auto [It, New] = Members.try_emplace(Str);
    if (!New || !S.next(K, Pos, Str) || K != ':' || !S.next(K, Pos, Str) ||
        !scanValue(S, Text, It->first(), K, Pos, Str, It->second))
      return std::nullopt;
    First = false;
    if (!S.next(K, Pos, Str))
      return std::nullopt;
    if (K == '}')
      break;
    if (K != ',')
      return std::nullopt;
  }
  if (S.next(K, Pos, Str))
    return std::nullopt;
  // Every other value must be valid JSON on its own.
  for (const auto &Entry : Members) {
    if (Entry.second.IsArray && isSplitKey(Entry.first()))
      continue;
    Expected<json::Value> V =
        json::parse(Text.slice(Entry.second.Begin, Entry.second.End));
    if (!V) {
      consumeError(V.takeError());
      return std::nullopt;
    }
  }
  return Members;
}

std::optional<bool> JSONImporter::readElements(
    const SkeletonMember &M,
    function_ref<bool(const json::Value &, size_t)> Read) {
  StringRef Text = Buf.getBuffer();
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
  std::optional<StringMap<SkeletonMember>> Members =
      scanSkeleton(Buf.getBuffer());
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
                                  StringRef GraphName, size_t StreamAbove) {
  auto G = std::make_unique<Graph>();
  G->Name = GraphName.str();
  if (SM.getMemoryBuffer(BufferID)->getBufferSize() > StreamAbove) {
    std::optional<bool> R = JSONImporter(SM, BufferID, *G).runStreamed();
    if (R)
      return *R ? std::move(G) : nullptr;
    G = std::make_unique<Graph>();
    G->Name = GraphName.str();
  }
  if (!JSONImporter(SM, BufferID, *G).run())
    return nullptr;
  return G;
}

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

} // namespace dan
