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

/// JSON's grammar (llvm::json reports a bad token one byte late), then what
/// this reader requires beyond llvm::json: nesting at most 64 levels
/// (llvm::json::parse recurses once per level; a contest file nests four
/// deep), no key twice in one object (llvm::json keeps the last one
/// silently), and every number inside "Nodes", "Edges" and "ReuseEdges"
/// written as an integer (llvm::json reads 2e2 and 200.0 as the integer
/// 200). What is inside a string is checkStrings' part.
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
    bool Close = true;   // the container may close here
    size_t FirstKey = 0; // its keys: Keys from here on
  };
  SmallVector<Frame, 8> Stack;
  // The keys of every object open, outermost first: one list, since a
  // list in each frame made opening one cost more than checking it.
  SmallVector<StringRef, 32> Keys;
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
  std::deque<std::string> DecodedKeys;
  StringRef TopKey, MemberKey; // the last key at depth 1 and at depth 3
  bool InArrays = false;       // under "Nodes", "Edges" or "ReuseEdges"
  JSONScanner S(Text);
  JSONToken T;
  while (S.next(T)) {
    char K = T.Kind;
    if (K == '"' && !T.Plain && FirstOddString == StringRef::npos)
      FirstOddString = T.Pos;
    bool Closes = K == '}' || K == ']';
    if (Closes && !Stack.empty() && Stack.back().IsObject == (K == '}') &&
        (next() == Want::CommaOrClose ||
         (Stack.back().Close && next() != Want::Colon))) {
      if (Reading != ArrayKey::None && Stack.size() == 3)
        quickElementDone();
      else if (Reading != ArrayKey::None && Stack.size() == 2)
        quickArrayDone();
      Keys.truncate(Stack.back().FirstKey);
      Stack.pop_back();
      valueDone();
      continue;
    }
    if (K == '"' && T.Pos + T.Str.size() + 1 >= Text.size())
      return invalid(T.Pos, "Unterminated string");
    switch (next()) {
    case Want::Nothing:
      return invalid(T.Pos, "Text after end of JSON value");
    case Want::Colon:
      if (K != ':')
        return invalid(T.Pos, "Expected : after object key");
      next() = Want::Value;
      Stack.back().Close = false;
      break;
    case Want::CommaOrClose:
      if (K != ',')
        return invalid(T.Pos, Stack.back().IsObject
                                  ? "Expected , or } after object member"
                                  : "Expected , or ] after array element");
      next() = Stack.back().IsObject ? Want::Key : Want::Value;
      Stack.back().Close = false;
      break;
    case Want::Key: {
      if (K != '"')
        return invalid(T.Pos, "Expected object key");
      Frame &F = Stack.back();
      F.Next = Want::Colon;
      StringRef Key = T.Str;
      if (!T.Plain && Key.contains('\\')) {
        Expected<json::Value> V =
            json::parse(Text.substr(T.Pos, T.Str.size() + 2));
        if (!V) // A bad escape: checkStrings reports it.
          consumeError(V.takeError());
        else
          Key = DecodedKeys.emplace_back(V->getAsString().value_or(Key).str());
      }
      if (llvm::is_contained(ArrayRef(Keys).drop_front(F.FirstKey), Key))
        return B.error(at(T.Pos),
                       "duplicate key " + quoteToken(Key) + " in one object");
      Keys.push_back(Key);
      if (Stack.size() == 1) {
        TopKey = Key;
        InArrays = Key == "Nodes" || Key == "Edges" || Key == "ReuseEdges";
      } else if (Stack.size() == 3) {
        MemberKey = Key;
      }
      break;
    }
    case Want::Value:
      if (Stack.size() == 1 && Stack[0].IsObject) {
        TopValues.try_emplace(TopKey, T);
        quickTopValue(TopKey, T);
      } else if (Reading != ArrayKey::None && Stack.size() == 2)
        quickElement(T);
      else if (Reading != ArrayKey::None && Stack.size() == 3)
        quickMember(MemberKey, T);
      if (K == '{' || K == '[') {
        if (Stack.size() == MaxDepth)
          return B.error(at(T.Pos), "JSON nests deeper than " +
                                        Twine(MaxDepth) + " levels");
        valueDone();
        Frame &F = Stack.emplace_back();
        F.IsObject = K == '{';
        F.Next = F.IsObject ? Want::Key : Want::Value;
        F.FirstKey = Keys.size();
        break;
      }
      if (K != '"' && K != 'v')
        return invalid(T.Pos, "Invalid JSON value");
      if (K != 'v' || isJSONInteger(T.Str)) {
        valueDone();
        break;
      }
      if (!isJSONLiteral(T.Str))
        return invalid(T.Pos, "Invalid JSON value " + quoteToken(T.Str));
      if (InArrays && Stack.size() >= 2 &&
          (isDigit(T.Str.front()) || T.Str.front() == '-'))
        return B.error(at(T.Pos), "a number in '" + TopKey +
                                      "' must be an integer, written without "
                                      "a fraction or an exponent, not " +
                                      quoteToken(T.Str));
      valueDone();
      break;
    }
  }
  if (!Stack.empty() || TopNext != Want::Nothing)
    return invalid(Text.size(), "Unexpected EOF");
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
  ArrayKey A = Key == "Nodes"        ? ArrayKey::Nodes
               : Key == "Edges"      ? ArrayKey::Edges
               : Key == "ReuseEdges" ? ArrayKey::ReuseEdges
                                     : ArrayKey::None;
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
  Read[size_t(Reading)] = true;
  Reading = ArrayKey::None;
}

} // namespace dan::detail
