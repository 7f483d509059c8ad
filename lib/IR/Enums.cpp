//===- Enums.cpp - Tier and pipe names ------------------------------------===//

#include "dan/IR/Enums.h"
#include "dan/IR/Diagnostic.h"
#include "llvm/ADT/StringExtras.h"

using namespace llvm;

namespace dan {

static const StringRef TierNames[] = {
#define DAN_TIER(Name, Capacity, CountsInPeak, IsL0) #Name,
#include "dan/Target/Davinci.def"
};

static const StringRef PipeNames[] = {
#define DAN_PIPE(Name) #Name,
#include "dan/Target/Davinci.def"
};

StringRef tierName(Tier T) { return TierNames[static_cast<unsigned>(T)]; }
StringRef pipeName(Pipe P) { return PipeNames[static_cast<unsigned>(P)]; }
ArrayRef<StringRef> allTierNames() { return TierNames; }
ArrayRef<StringRef> allPipeNames() { return PipeNames; }

std::optional<Tier> lookupTier(StringRef Name) {
  for (unsigned I = 0; I != NumTiers; ++I)
    if (TierNames[I] == Name)
      return static_cast<Tier>(I);
  return std::nullopt;
}

std::optional<Pipe> lookupPipe(StringRef Name) {
  for (unsigned I = 0; I != NumPipes; ++I)
    if (PipeNames[I] == Name)
      return static_cast<Pipe>(I);
  return std::nullopt;
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
