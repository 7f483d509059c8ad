//===- JSONScan.h - Finding values in JSON text -----------------*- C++ -*-===//
//
// Private to lib/Formats: what the JSON importer (JSONImport.cpp) reads the
// text with besides llvm::json, which keeps no positions and parses a file
// whole: a scanner of its tokens, where an element or a field is written
// (for a diagnostic), and the file's top-level skeleton (to read a large
// file a value at a time). The scans are in JSONScan.cpp.
//
//===----------------------------------------------------------------------===//

#ifndef DAN_LIB_FORMATS_JSONSCAN_H
#define DAN_LIB_FORMATS_JSONSCAN_H

#include "llvm/ADT/StringMap.h"
#include "llvm/ADT/StringRef.h"
#include <algorithm>
#include <array>
#include <cstddef>
#include <cstdint>
#include <optional>
#include <utility>
#include <vector>

namespace dan::detail {

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
inline constexpr std::array<uint8_t, 256> ByteClass = byteClasses();

/// Tokens of JSON text, just enough to find where a value starts.
class JSONScanner {
public:
  JSONScanner(llvm::StringRef Text, size_t Start = 0) : Text(Text), I(Start) {}

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
  bool next(char &Kind, size_t &Pos, llvm::StringRef &Str) {
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
  llvm::StringRef Text;
  size_t I;
};

/// The offsets of the elements of the array under top-level key \p Key, in
/// one pass over the text.
std::vector<size_t> elementStarts(llvm::StringRef Text, llvm::StringRef Key);

/// The offset of the value of member \p Field of the object at \p Start, or
/// \p Start when there is none.
size_t memberOffset(llvm::StringRef Text, size_t Start, llvm::StringRef Field);

/// A top-level member of the file as the chunked path scans it.
struct SkeletonMember {
  size_t Begin = 0, End = 0; // the value's text
  std::vector<std::pair<size_t, size_t>> Elements;
  bool IsArray = false;
};

/// The skeleton: '{', then "key": value pairs separated by ',', then '}'
/// and nothing after. The arrays of the three known keys are split into
/// their elements' ranges; any other value is kept whole. std::nullopt when
/// the text is not in that shape.
std::optional<llvm::StringMap<SkeletonMember>>
scanSkeleton(llvm::StringRef Text);

} // namespace dan::detail

#endif // DAN_LIB_FORMATS_JSONSCAN_H
