//===- JSONScan.cpp - Finding values in JSON text -------------------------===//
//
// The scans of JSON text that the importer makes besides llvm::json: where
// an array's elements start, where an object's member is, and a file's
// top-level skeleton with the ranges of the elements of its large arrays.
//
//===----------------------------------------------------------------------===//

#include "JSONScan.h"
#include "llvm/Support/Error.h"
#include "llvm/Support/JSON.h"

using namespace llvm;

namespace dan::detail {

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

std::optional<StringMap<SkeletonMember>> scanSkeleton(StringRef Text) {
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

} // namespace dan::detail
