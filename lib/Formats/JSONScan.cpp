//===- JSONScan.cpp - Walking checked JSON text ---------------------------===//
//
// The walks over JSON text whose grammar the importer has checked: past a
// value, over an array's elements and an object's members.
//
//===----------------------------------------------------------------------===//

#include "JSONScan.h"
#include "llvm/ADT/StringExtras.h"
#include <limits>

using namespace llvm;

namespace dan::detail {

void skipContents(JSONScanner &S, const JSONToken &T) {
  if (T.Kind != '{' && T.Kind != '[')
    return;
  JSONToken Inner;
  for (int Depth = 1; Depth > 0 && S.next(Inner);) {
    if (Inner.Kind == '{' || Inner.Kind == '[')
      ++Depth;
    else if (Inner.Kind == '}' || Inner.Kind == ']')
      --Depth;
  }
}

bool forEachElement(JSONScanner &S,
                    function_ref<bool(const JSONToken &)> Each) {
  JSONToken T;
  while (S.next(T) && T.Kind != ']')
    if (T.Kind != ',' && !Each(T))
      return false;
  return true;
}

bool forEachMember(
    JSONScanner &S,
    function_ref<bool(const JSONToken &Key, const JSONToken &Value)> Each) {
  JSONToken Key, Colon, Value;
  while (S.next(Key) && Key.Kind != '}') {
    if (Key.Kind == ',')
      continue;
    if (!S.next(Colon) || !S.next(Value))
      return true;
    if (!Each(Key, Value))
      return false;
  }
  return true;
}

std::optional<uint64_t> nonNegativeInteger(const JSONToken &T) {
  if (T.Kind != 'v')
    return std::nullopt;
  StringRef Digits = T.Str;
  bool Negative = Digits.consume_front("-");
  // INT64_MAX has 19 digits, and 19 nines do not overflow a uint64_t.
  if (Digits.empty() || Digits.size() > 19)
    return std::nullopt;
  uint64_t Value = 0;
  for (char C : Digits) {
    if (!isDigit(C))
      return std::nullopt;
    Value = Value * 10 + (C - '0');
  }
  if (Value > uint64_t(std::numeric_limits<int64_t>::max()) ||
      (Negative && Value != 0))
    return std::nullopt;
  return Value;
}

} // namespace dan::detail
