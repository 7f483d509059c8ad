//===- Enums.h - Tiers, pipes and node kinds --------------------*- C++ -*-===//
//
// The lowest layer: a memory tier and a pipe are indices into the tables of
// a target description (TargetDesc, Target.h), which gives them their names
// and numbers; the kinds of node the execution model runs; and the naming
// helpers every message about a name uses.
//
//===----------------------------------------------------------------------===//

#ifndef DAN_TARGET_ENUMS_H
#define DAN_TARGET_ENUMS_H

#include "llvm/ADT/ArrayRef.h"
#include "llvm/ADT/StringRef.h"
#include <cstdint>
#include <string>

namespace dan {

/// A memory tier of the graph's target: an index into its tiers, in the
/// order the description lists them (TargetDesc::tierName).
enum class Tier : uint8_t {};

/// An execution pipe of the graph's target: an index into its pipes.
enum class Pipe : uint8_t {};

/// The most tiers and pipes a target description may have. Per-tier and
/// per-pipe tables are fixed arrays of these sizes, so that the schedulers'
/// per-operation state needs no allocation.
constexpr unsigned MaxTiers = 8;
constexpr unsigned MaxPipes = 16;

inline unsigned index(Tier T) { return static_cast<unsigned>(T); }
inline unsigned index(Pipe P) { return static_cast<unsigned>(P); }

/// The kinds of node of a command graph: buffer management (ALLOC, FREE),
/// an operation, and the two halves of a spill. The execution model gives
/// each its pipe and cycles (TargetDesc::nodePipe, nodeCycles).
enum class NodeKind : uint8_t { Alloc, Free, Op, SpillOut, SpillIn };

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
