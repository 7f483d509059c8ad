//===- Enums.h - The closed sets of the target ------------------*- C++ -*-===//
//
// The memory tiers and pipes (named in Davinci.def) and the kinds of node
// the execution model runs. The lowest layer: every library above takes
// these sets from here.
//
//===----------------------------------------------------------------------===//

#ifndef DAN_TARGET_ENUMS_H
#define DAN_TARGET_ENUMS_H

#include "llvm/ADT/ArrayRef.h"
#include "llvm/ADT/StringRef.h"
#include <cstdint>
#include <optional>
#include <string>

namespace dan {

enum class Tier : uint8_t {
#define DAN_TIER(Name, Capacity, CountsInPeak, IsL0) Name,
#include "dan/Target/Davinci.def"
};

enum class Pipe : uint8_t {
#define DAN_PIPE(Name) Name,
#include "dan/Target/Davinci.def"
};

constexpr unsigned NumTiers = 0
#define DAN_TIER(Name, Capacity, CountsInPeak, IsL0) +1
#include "dan/Target/Davinci.def"
    ;

constexpr unsigned NumPipes = 0
#define DAN_PIPE(Name) +1
#include "dan/Target/Davinci.def"
    ;

/// The kinds of node of a command graph: buffer management (ALLOC, FREE),
/// an operation, and the two halves of a spill. The execution model gives
/// each its pipe and cycles (TargetDesc::nodePipe, nodeCycles).
enum class NodeKind : uint8_t { Alloc, Free, Op, SpillOut, SpillIn };

llvm::StringRef tierName(Tier T);
llvm::StringRef pipeName(Pipe P);
std::optional<Tier> lookupTier(llvm::StringRef Name);
std::optional<Pipe> lookupPipe(llvm::StringRef Name);
llvm::ArrayRef<llvm::StringRef> allTierNames();
llvm::ArrayRef<llvm::StringRef> allPipeNames();

/// The closest name of \p Candidates to \p Name within a small edit distance,
/// or an empty string; used for "did you mean" hints.
llvm::StringRef closestName(llvm::StringRef Name,
                            llvm::ArrayRef<llvm::StringRef> Candidates);

/// The most bytes of one token (a name, a number, a cell) a message quotes.
constexpr size_t MaxQuotedTokenBytes = 64;

/// \p Token in single quotes, for a message. A token longer than
/// MaxQuotedTokenBytes is cut (at a UTF-8 character boundary) and marked
/// "...": a ten-megabyte name makes a one-line message, not a 10 MB one.
std::string quoteToken(llvm::StringRef Token);

/// "unknown <What> '<Name>'; did you mean '<hint>'?", or "...; expected one
/// of <Candidates>" when no candidate is close.
std::string unknownNameMessage(llvm::StringRef What, llvm::StringRef Name,
                               llvm::ArrayRef<llvm::StringRef> Candidates);

} // namespace dan

#endif // DAN_TARGET_ENUMS_H
