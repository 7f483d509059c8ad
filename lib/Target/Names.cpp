//===- Names.cpp - Quoting and hinting names in messages ------------------===//

#include "dan/Target/Enums.h"
#include "llvm/ADT/StringExtras.h"

using namespace llvm;

namespace dan {

std::string quoteToken(StringRef Token) {
  if (Token.size() <= MaxQuotedTokenBytes)
    return ("'" + Token + "'").str();
  size_t Cut = MaxQuotedTokenBytes;
  while (Cut > 0 && (static_cast<unsigned char>(Token[Cut]) & 0xC0) == 0x80)
    --Cut; // not inside a UTF-8 character
  return ("'" + Token.take_front(Cut) + "...'").str();
}

StringRef closestName(StringRef Name, ArrayRef<StringRef> Candidates) {
  // Case-insensitive distance; a hint further than two edits is noise.
  StringRef Best;
  unsigned BestDist = 3;
  std::string Lower = Name.lower();
  for (StringRef C : Candidates) {
    unsigned D = StringRef(Lower).edit_distance(C.lower(), true, BestDist);
    // A hint must share at least half of the longer name: 'U' may mean
    // 'UB', but 'L1' for 'XX' or 'UB' for 'HBM' is noise.
    if (D < BestDist && 2 * D <= std::max(Name.size(), C.size())) {
      BestDist = D;
      Best = C;
    }
  }
  return Best;
}

std::string unknownNameMessage(StringRef What, StringRef Name,
                               ArrayRef<StringRef> Candidates) {
  std::string Msg = "unknown " + What.str() + " " + quoteToken(Name) + "; ";
  StringRef Hint = closestName(Name, Candidates);
  if (!Hint.empty())
    return Msg + "did you mean '" + Hint.str() + "'?";
  return Msg + "expected one of " + join(Candidates, ", ");
}

} // namespace dan
