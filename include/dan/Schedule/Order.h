//===- Order.h - Orders of a whole graph shared by passes and baselines ---===//
//
// The input checks every planner and operation-level ordering shares, the
// list order of the operations by a key (dan-mpas's --order=groups), and
// the windowed exact search (dan-mpas's --order=window and the magis
// baseline; docs/Baselines.md).
//
//===----------------------------------------------------------------------===//

#ifndef DAN_SCHEDULE_ORDER_H
#define DAN_SCHEDULE_ORDER_H

#include "dan/IR/Graph.h"
#include "dan/Schedule/OpView.h"
#include "dan/Target/Target.h"
#include "llvm/ADT/ArrayRef.h"
#include "llvm/ADT/STLFunctionalExtras.h"
#include "llvm/Support/Error.h"

namespace dan {

/// The caps of the windowed exact search (docs/Baselines.md, "Caps").
namespace baseline {
/// Operations per window of the exact DP (2^10 = 1024 states).
constexpr unsigned MAGISWindow = 10;
/// Operations committed per window (windows overlap by the rest).
constexpr unsigned MAGISStride = 5;
} // namespace baseline

/// dan-dlr's input checks, located at the offending nodes: no memory plan,
/// a graph that verifies, no buffer larger than its tier and no operation
/// whose buffers of one tier exceed it. With \p Verified (\p G is known to
/// verify) only the first.
llvm::Error checkPlannableInput(const Graph &G, const TargetDesc &T,
                                bool Verified = false);

/// The input check of the operation-level orderings: \p G has no memory
/// plan and verifies; otherwise the first error of checkPlannableInput.
llvm::Error checkOrderInput(const Graph &G, const TargetDesc &T);

/// The schedule of \p G (checked by checkOrderInput) that follows the order
/// of its operations \p OrderOps makes of its View, every ALLOC pulled in
/// right before the first node that needs it and every FREE emitted as soon
/// as it is ready (sched::materialize). \p OrderOps is not called on a
/// graph without operations, whose one order of them is the empty one.
/// \p InputChecked: the caller has run checkOrderInput on \p G and it
/// passed (a search that orders one graph several ways checks it once).
/// \p SingleL0: the View's L0 gate keeps one live buffer per L0 tier
/// instead of the tier's bytes; \p IgnoreL0: the L0 tiers are not kept at
/// all (stage 1's --l0=ignore).
llvm::Expected<std::vector<NodeIdx>> orderOperations(
    const Graph &G, const TargetDesc &T,
    llvm::function_ref<std::vector<uint32_t>(const sched::View &)> OrderOps,
    bool InputChecked = false, bool SingleL0 = false, bool IgnoreL0 = false);

/// The schedule of \p G that orders its operations by \p KeyOfNode (indexed by
/// NodeIdx; smaller first, as far as the edges allow, ties to the input order),
/// keeps the L0 tiers within capacity as the baselines do (with
/// \p SingleL0, one live buffer per L0 tier; with \p IgnoreL0, not at all),
/// and places every ALLOC late and every FREE early around them.
llvm::Expected<std::vector<NodeIdx>> orderOperationsByKey(
    const Graph &G, const TargetDesc &T, llvm::ArrayRef<uint64_t> KeyOfNode,
    bool InputChecked = false, bool SingleL0 = false, bool IgnoreL0 = false);

/// The schedule of \p G by the windowed exact search (reverse post-order
/// made L0 legal, then a DP over each window of operations), ALLOCs late and
/// FREEs early around them.
llvm::Expected<std::vector<NodeIdx>>
orderWindowed(const Graph &G, const TargetDesc &T, bool InputChecked = false);

namespace sched {
/// The operation order of the windowed exact search on \p V.
std::vector<uint32_t> orderWindow(const View &V);
} // namespace sched

} // namespace dan

#endif // DAN_SCHEDULE_ORDER_H
