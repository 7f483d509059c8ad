//===- Baselines.h - The paper's four external baselines --------*- C++ -*-===//
//
// HMCOS, COSMA, MAGIS and EDA re-expressed on the DAN IR (docs/Baselines.md
// says what each original decides, what was kept and what was adapted).
// Each is an ordering of the operations of its own (one file each in
// lib/Baselines), after which ALLOCs are placed right before a buffer's
// first user and FREEs right after its last one, and DLR plans memory with
// the baseline's fit and eviction rules. All four are deterministic; their
// bounded searches have the caps below.
//
//===----------------------------------------------------------------------===//

#ifndef DAN_BASELINES_BASELINES_H
#define DAN_BASELINES_BASELINES_H

#include "dan/IR/Graph.h"
#include "dan/Schedule/Order.h"
#include "dan/Support/EnumTable.h"
#include "dan/Target/Target.h"
#include "dan/Transforms/DLR.h"
#include "llvm/Support/Error.h"
#include <optional>

namespace dan {

/// The whole scheduling methods dan-bench compares: DAN's own pipeline,
/// the input order planned plainly, and the four baselines.
enum class Method {
  DAN,   ///< dan-mpas | dan-dlr | dan-cpe, default options
  Base,  ///< input order, first fit, LRU eviction (the "original schedule")
  HMCOS, ///< HMCOS-style hierarchical memory-constrained ordering
  COSMA, ///< COSMA-style joint ordering, allocation and replacement
  MAGIS, ///< MAGIS-style reordering with windowed exact search
  EDA,   ///< EDA-style depth-first producer-to-consumer traversal
};

/// Every method with its name, in the order tables list them.
llvm::ArrayRef<EnumEntry<Method>> methodTable();
/// Every method, in the order tables list them.
llvm::ArrayRef<Method> allMethods();
llvm::StringRef methodName(Method M); // "dan", "base", "hmcos", ...
std::optional<Method> lookupMethod(llvm::StringRef Name);

/// The caps of HMCOS's bounded exact searches (docs/Baselines.md, "Caps");
/// MAGIS's are the windowed search's, in dan/Schedule/Order.h.
namespace baseline {
/// HMCOS: a group is solved by DP over its frontiers when it has at most
/// this many members (2^12 = 4096 states at most) ...
constexpr unsigned HMCOSGroupMembers = 12;
/// ... and at most this many operations; larger groups keep the
/// reverse post-order of their members.
constexpr unsigned HMCOSGroupOps = 512;
/// HMCOS top level: partial schedules kept per DP layer (a beam) ...
constexpr unsigned HMCOSBeam = 4;
/// ... and frontier vertices tried per partial schedule, the first in
/// reverse post-order.
constexpr unsigned HMCOSCandidates = 16;
/// HMCOS: rounds of the budget iteration.
constexpr unsigned HMCOSRounds = 8;
} // namespace baseline

/// Reorders \p G (no memory plan, must verify) by the ordering policy of
/// baseline \p M (HMCOS, COSMA, MAGIS or EDA); no memory plan is made.
llvm::Error orderBaseline(Graph &G, const TargetDesc &T, Method M);

/// The DLR options baseline \p M plans memory with.
DLROptions baselineDLROptions(Method M);

/// orderBaseline, then runDLR with baselineDLROptions: a planned graph.
llvm::Error runBaseline(Graph &G, const TargetDesc &T, Method M);

} // namespace dan

#endif // DAN_BASELINES_BASELINES_H
