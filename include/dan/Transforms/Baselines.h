//===- Baselines.h - The paper's four external baselines ---------*- C++
//-*-===//
//
// HMCOS, COSMA, MAGIS and EDA re-expressed on the DAN IR (docs/Baselines.md
// says what each original decides, what was kept and what was adapted).
// Each is an ordering of the operations of its own, after which ALLOCs are
// placed right before a buffer's first user and FREEs right after its last
// one, and DLR plans memory with the baseline's fit and eviction rules. All
// four are deterministic; their bounded searches have the caps below.
//
//===----------------------------------------------------------------------===//

#ifndef DAN_TRANSFORMS_BASELINES_H
#define DAN_TRANSFORMS_BASELINES_H

#include "dan/IR/Graph.h"
#include "dan/Target/Target.h"
#include "dan/Transforms/DLR.h"
#include "dan/Transforms/Methods.h"
#include "llvm/Support/Error.h"

namespace dan {

/// The caps of the bounded exact searches (docs/Baselines.md, "Caps").
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
/// MAGIS: operations per window of the exact DP (2^10 = 1024 states).
constexpr unsigned MAGISWindow = 10;
/// MAGIS: operations committed per window (windows overlap by the rest).
constexpr unsigned MAGISStride = 5;
} // namespace baseline

/// Reorders \p G (no memory plan, must verify) by the ordering policy of
/// baseline \p M (HMCOS, COSMA, MAGIS or EDA); no memory plan is made.
llvm::Error orderBaseline(Graph &G, const TargetDesc &T, Method M);

/// Orders the operations of \p G by \p KeyOfNode (indexed by NodeIdx;
/// smaller first, as far as the edges allow, ties to the input order),
/// keeps the L0 tiers within capacity as the baselines do, and places
/// every ALLOC late and every FREE early around them.
llvm::Error orderOperationsByKey(Graph &G, const TargetDesc &T,
                                 llvm::ArrayRef<uint64_t> KeyOfNode);

/// The DLR options baseline \p M plans memory with.
DLROptions baselineDLROptions(Method M);

/// orderBaseline, then runDLR with baselineDLROptions: a planned graph.
llvm::Error runBaseline(Graph &G, const TargetDesc &T, Method M);

} // namespace dan

#endif // DAN_TRANSFORMS_BASELINES_H
