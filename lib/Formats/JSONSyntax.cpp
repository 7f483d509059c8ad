//===- JSONSyntax.cpp - Contest JSON: the pass over every token -----------===//
//
// The importer's one pass over the text: JSON's grammar and what the
// reader requires beyond it, every error reported where it is and in the
// order of the text; and, with Quick, each element of the three arrays
// added to the graph as it closes (JSONImporter.h says why quietly).
//
//===----------------------------------------------------------------------===//

#include "JSONImporter.h"
#include "dan/IR/Diagnostic.h"
#include "llvm/ADT/StringExtras.h"
#include "llvm/Support/JSON.h"

using namespace llvm;

namespace dan::detail {

/// Whether \p S, a bare token of the scanner, is an integer as JSON writes
/// it: most of a contest file's scalars, so checked apart from the rest.
static bool isJSONInteger(StringRef S) {
  S.consume_front("-");
  return !S.empty() && (S[0] != '0' || S.size() == 1) &&
         llvm::all_of(S, isDigit);
}

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

/// Where the pass is in JSON's grammar: what it allows next, the
/// containers open and their keys.
struct JSONImporter::Grammar {
  static constexpr size_t MaxDepth = 64;
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
    bool Close = true;   // the container may close here
    size_t FirstKey = 0; // its keys: Keys from here on
  };
  SmallVector<Frame, 8> Stack;
  // The keys of every object open, outermost first: one list, since a
  // list in each frame made opening one cost more than checking it.
  SmallVector<StringRef, 32> Keys;
  Want TopNext = Want::Value;
  StringRef TopKey, MemberKey; // the last key at depth 1 and at depth 3
  bool InArrays = false;       // under "Nodes", "Edges" or "ReuseEdges"

  Want &next() { return Stack.empty() ? TopNext : Stack.back().Next; }
  void valueDone() {
    next() = Stack.empty() ? Want::Nothing : Want::CommaOrClose;
  }
  /// Whether \p K closes the innermost container here.
  bool closes(char K) {
    return (K == '}' || K == ']') && !Stack.empty() &&
           Stack.back().IsObject == (K == '}') &&
           (next() == Want::CommaOrClose ||
            (Stack.back().Close && next() != Want::Colon));
  }
  void open(char K) {
    valueDone();
    Frame &F = Stack.emplace_back();
    F.IsObject = K == '{';
    F.Next = F.IsObject ? Want::Key : Want::Value;
    F.FirstKey = Keys.size();
  }
  void close() {
    Keys.truncate(Stack.back().FirstKey);
    Stack.pop_back();
    valueDone();
  }
};

/// JSON's grammar (llvm::json reports a bad token one byte late), then what
/// this reader requires beyond llvm::json: nesting at most 64 levels
/// (llvm::json::parse recurses once per level; a contest file nests four
/// deep), no key twice in one object (llvm::json keeps the last one
/// silently), and every number inside "Nodes", "Edges" and "ReuseEdges"
/// written as an integer (llvm::json reads 2e2 and 200.0 as the integer
/// 200). What is inside a string is checkStrings' part.
bool JSONImporter::checkSyntax() {
  using Want = Grammar::Want;
  Grammar Gr;
  auto invalid = [&](size_t Pos, const Twine &What) {
    return B.error(at(Pos), "invalid JSON: " + What);
  };
  JSONScanner S(Text);
  JSONToken T;
  while (S.next(T)) {
    char K = T.Kind;
    if (K == '"' && !T.Plain && FirstOddString == StringRef::npos)
      FirstOddString = T.Pos;
    if (Gr.closes(K)) {
      if (Reading != ArrayKey::None && Gr.Stack.size() == 3)
        quickElementDone();
      else if (Reading != ArrayKey::None && Gr.Stack.size() == 2)
        quickArrayDone();
      Gr.close();
      continue;
    }
    if (K == '"' && T.Pos + T.Str.size() + 1 >= Text.size())
      return invalid(T.Pos, "Unterminated string");
    switch (Gr.next()) {
    case Want::Nothing:
      return invalid(T.Pos, "Text after end of JSON value");
    case Want::Colon:
      if (K != ':')
        return invalid(T.Pos, "Expected : after object key");
      Gr.next() = Want::Value;
      Gr.Stack.back().Close = false;
      break;
    case Want::CommaOrClose:
      if (K != ',')
        return invalid(T.Pos, Gr.Stack.back().IsObject
                                  ? "Expected , or } after object member"
                                  : "Expected , or ] after array element");
      Gr.next() = Gr.Stack.back().IsObject ? Want::Key : Want::Value;
      Gr.Stack.back().Close = false;
      break;
    case Want::Key:
      if (!checkKey(Gr, T))
        return false;
      break;
    case Want::Value:
      if (!checkValue(Gr, T))
        return false;
      break;
    }
  }
  if (!Gr.Stack.empty() || Gr.TopNext != Want::Nothing)
    return invalid(Text.size(), "Unexpected EOF");
  return true;
}

bool JSONImporter::checkKey(Grammar &Gr, const JSONToken &T) {
  if (T.Kind != '"')
    return B.error(at(T.Pos), "invalid JSON: Expected object key");
  Grammar::Frame &F = Gr.Stack.back();
  F.Next = Grammar::Want::Colon;
  StringRef Key = decode(T);
  if (llvm::is_contained(ArrayRef(Gr.Keys).drop_front(F.FirstKey), Key))
    return B.error(at(T.Pos),
                   "duplicate key " + quoteToken(Key) + " in one object");
  Gr.Keys.push_back(Key);
  if (Gr.Stack.size() == 1) {
    Gr.TopKey = Key;
    Gr.InArrays = arrayKeyOf(Key) != ArrayKey::None;
  } else if (Gr.Stack.size() == 3) {
    Gr.MemberKey = Key;
  }
  return true;
}

bool JSONImporter::checkValue(Grammar &Gr, const JSONToken &T) {
  char K = T.Kind;
  size_t Depth = Gr.Stack.size();
  if (Depth == 1 && Gr.Stack[0].IsObject) {
    TopValues.try_emplace(Gr.TopKey, T);
    quickTopValue(Gr.TopKey, T);
  } else if (Reading != ArrayKey::None && Depth == 2) {
    quickElement(T);
  } else if (Reading != ArrayKey::None && Depth == 3) {
    quickMember(Gr.MemberKey, T);
  }
  if (K == '{' || K == '[') {
    if (Depth == Grammar::MaxDepth)
      return B.error(at(T.Pos), "JSON nests deeper than " +
                                    Twine(Grammar::MaxDepth) + " levels");
    Gr.open(K);
    return true;
  }
  if (K != '"' && K != 'v')
    return B.error(at(T.Pos), "invalid JSON: Invalid JSON value");
  if (K == 'v' && !isJSONInteger(T.Str)) {
    if (!isJSONLiteral(T.Str))
      return B.error(at(T.Pos),
                     "invalid JSON: Invalid JSON value " + quoteToken(T.Str));
    if (Gr.InArrays && Depth >= 2 &&
        (isDigit(T.Str.front()) || T.Str.front() == '-'))
      return B.error(at(T.Pos), "a number in '" + Gr.TopKey +
                                    "' must be an integer, written without "
                                    "a fraction or an exponent, not " +
                                    quoteToken(T.Str));
  }
  Gr.valueDone();
  return true;
}

/// What checkSyntax leaves to llvm::json: the UTF-8 of the text, then the
/// escapes and control bytes of each string, in the order of the text.
/// Only strings that are not plain are handed to it, each alone.
bool JSONImporter::checkStrings() {
  if (FirstOddString == StringRef::npos)
    return true;
  if (!json::isUTF8(Text)) // json::parse checks this before anything else
    return reportParseError(json::parse(Text).takeError(), 0);
  JSONScanner S(Text, FirstOddString);
  JSONToken T;
  while (S.next(T)) {
    if (T.Kind != '"' || T.Plain)
      continue;
    Expected<json::Value> V = json::parse(Text.substr(T.Pos, T.Str.size() + 2));
    if (V)
      continue;
    // A \u escape at the end of the string reads past its quote, as it
    // does in the whole text: parse from the string on for the error.
    consumeError(V.takeError());
    V = json::parse(Text.substr(T.Pos));
    return reportParseError(V.takeError(), T.Pos);
  }
  return true;
}

bool JSONImporter::reportParseError(Error E, size_t Base) {
  std::string Msg = toString(std::move(E));
  // The message reads "[line:col, byte=N]: what went wrong".
  size_t Offset = 0;
  StringRef Rest(Msg);
  size_t BytePos = Rest.find("byte=");
  if (BytePos != StringRef::npos)
    Rest.substr(BytePos + 5).take_while(isDigit).getAsInteger(10, Offset);
  // llvm::json reports an error inside a string a byte past it.
  Offset -= std::min<size_t>(Offset, 1);
  size_t Colon = Rest.find("]: ");
  StringRef What = Colon == StringRef::npos ? Rest : Rest.substr(Colon + 3);
  return B.error(at(Base + Offset), "invalid JSON: " + What);
}

void JSONImporter::quickTopValue(StringRef Key, const JSONToken &T) {
  Reading = ArrayKey::None;
  ArrayKey A = arrayKeyOf(Key);
  // An array of edges waits for the nodes; an element that fails stops it
  // all, to be read again, reporting.
  if (!Quick || QuickFailed || A == ArrayKey::None || T.Kind != '[' ||
      (A != ArrayKey::Nodes && !Read[size_t(ArrayKey::Nodes)]))
    return;
  Reading = A;
  ElementIndex = 0;
}

void JSONImporter::quickElement(const JSONToken &T) {
  bool Fits;
  if (Reading == ArrayKey::Nodes) {
    CurNode.start(T.Pos, ElementIndex);
    Fits = T.Kind == '{';
  } else {
    CurEdge.start(T, ElementIndex);
    Fits = CurEdge.IsArray;
  }
  ++ElementIndex;
  if (!Fits) {
    QuickFailed = true;
    Reading = ArrayKey::None;
  }
}

void JSONImporter::quickMember(StringRef Key, const JSONToken &T) {
  if (Reading == ArrayKey::Nodes)
    CurNode.add(Key, T);
  else
    CurEdge.add(T);
}

void JSONImporter::quickElementDone() {
  B.setQuiet(true);
  bool Added =
      Reading == ArrayKey::Nodes ? addNode(CurNode) : addEdge(CurEdge, Reading);
  B.setQuiet(false);
  if (!Added) {
    QuickFailed = true;
    Reading = ArrayKey::None;
  }
}

void JSONImporter::quickArrayDone() {
  assert(Reading != ArrayKey::None && "no array is being read");
  Read[size_t(Reading)] = true;
  Reading = ArrayKey::None;
}

} // namespace dan::detail
