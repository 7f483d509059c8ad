//===- JSONScan.h - The tokens of JSON text ---------------------*- C++ -*-===//
//
// Private to lib/Formats: the JSON importer (JSONImporter.h) reads the text
// as tokens, with their offsets for its diagnostics. One pass checks the
// grammar over every token; the helpers below walk values whose grammar
// that pass has checked (an element that has closed, or the text once the
// pass is over). llvm::json decodes the strings that hold escapes and
// reports what is wrong inside a string.
//
//===----------------------------------------------------------------------===//

#ifndef DAN_LIB_FORMATS_JSONSCAN_H
#define DAN_LIB_FORMATS_JSONSCAN_H

#include "llvm/ADT/STLFunctionalExtras.h"
#include "llvm/ADT/StringRef.h"
#include <array>
#include <cstddef>
#include <cstdint>
#include <optional>

namespace dan::detail {

/// What a byte is to the scanner between tokens: JSON's white space, a
/// structural byte, the quote.
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
inline constexpr std::array<uint8_t, 256> ByteClass = byteClasses();

/// What a byte is inside a string.
enum class StringByte : uint8_t {
  Plain,    // most bytes: itself
  EndQuote, // the closing quote
  Escape,   // a backslash: it and the next byte
  Judged,   // a control byte or one of a UTF-8 sequence: llvm::json's call
};
constexpr std::array<StringByte, 256> stringByteClasses() {
  std::array<StringByte, 256> T{};
  for (unsigned C = 0; C != 0x20; ++C)
    T[C] = StringByte::Judged;
  for (unsigned C = 0x80; C != 0x100; ++C)
    T[C] = StringByte::Judged;
  T[static_cast<unsigned char>('"')] = StringByte::EndQuote;
  T[static_cast<unsigned char>('\\')] = StringByte::Escape;
  return T;
}
inline constexpr std::array<StringByte, 256> StringByteClass =
    stringByteClasses();

/// One token of JSON text.
struct JSONToken {
  /// The structural character, '"' for a string or 'v' for another scalar
  /// (a number, true, false, null or, in malformed text, anything else).
  char Kind = 0;
  /// Its offset in the text.
  size_t Pos = 0;
  /// A string's raw contents (without the quotes) or a scalar's text.
  llvm::StringRef Str;
  /// A string of printable ASCII without escapes: what it holds is Str.
  bool Plain = true;
};

/// Tokens of JSON text, one at a time.
class JSONScanner {
public:
  JSONScanner(llvm::StringRef Text, size_t Start = 0) : Text(Text), I(Start) {}

  enum : uint8_t { Space = 1, Punct = 2, Quote = 4 };
  /// What a byte is to the scanner, from a table: a search of a short
  /// string per byte was a tenth of the import.
  static uint8_t classOf(char C) {
    return ByteClass[static_cast<unsigned char>(C)];
  }
  /// Whether \p C ends a bare value (a number, true, false, null).
  static bool endsValue(char C) { return classOf(C) != 0; }

  /// Reads the next token into \p T; false at the end of the text.
  bool next(JSONToken &T) {
    while (I < Text.size() && classOf(Text[I]) == Space)
      ++I;
    if (I >= Text.size())
      return false;
    T.Pos = I;
    T.Plain = true;
    char C = Text[I];
    if (C == '"') {
      size_t J = I + 1;
      while (J < Text.size()) {
        StringByte Class = StringByteClass[static_cast<unsigned char>(Text[J])];
        if (Class == StringByte::EndQuote)
          break;
        if (Class != StringByte::Plain)
          T.Plain = false;
        J += Class == StringByte::Escape ? 2 : 1;
      }
      T.Str = Text.slice(I + 1, std::min(J, Text.size()));
      I = J + 1;
      T.Kind = '"';
      return true;
    }
    if (classOf(C) == Punct) {
      ++I;
      T.Kind = C;
      T.Str = llvm::StringRef();
      return true;
    }
    while (I < Text.size() && !endsValue(Text[I]))
      ++I;
    T.Str = Text.slice(T.Pos, I);
    T.Kind = 'v';
    return true;
  }

private:
  llvm::StringRef Text;
  size_t I;
};

// The walks below read values whose grammar was checked: they report
// nothing and, on text that is not JSON, stop at its end without looping.

/// Moves \p S past the contents of the value whose first token is \p T,
/// when it is an array or an object.
void skipContents(JSONScanner &S, const JSONToken &T);

/// After an array's '[', calls \p Each with the first token of every
/// element; Each reads the rest of its element from \p S (skipContents if
/// it needs none of it). Stops at the first call that returns false and
/// returns false.
bool forEachElement(JSONScanner &S,
                    llvm::function_ref<bool(const JSONToken &)> Each);

/// After an object's '{', calls \p Each with every member's key and the
/// first token of its value, which Each reads on as forEachElement's does.
bool forEachMember(
    JSONScanner &S,
    llvm::function_ref<bool(const JSONToken &Key, const JSONToken &Value)>
        Each);

/// The integer a scalar writes when it is one from 0 to INT64_MAX (or
/// "-0"), as llvm::json's getAsInteger would read it; std::nullopt for a
/// negative one, one past that range, anything else, and (in text whose
/// integers were checked to have neither) a fraction or an exponent.
std::optional<uint64_t> nonNegativeInteger(const JSONToken &T);

} // namespace dan::detail

#endif // DAN_LIB_FORMATS_JSONSCAN_H
