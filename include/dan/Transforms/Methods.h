//===- Methods.h - Whole scheduling methods, selectable by name -*- C++ -*-===//
//
// A method turns a graph without a memory plan into a planned graph (order,
// offsets, spills, reuse edges) that dan-verify accepts. DAN's own method is
// the default pipeline (MPAS, DLR, CPE with default options); the others are
// the paper's baselines, each a deterministic policy (docs/Baselines.md).
// dan-bench measures them all with one replay.
//
//===----------------------------------------------------------------------===//

#ifndef DAN_TRANSFORMS_METHODS_H
#define DAN_TRANSFORMS_METHODS_H

#include "dan/IR/Graph.h"
#include "dan/Target/Target.h"
#include "llvm/ADT/ArrayRef.h"
#include "llvm/Support/Error.h"
#include <memory>
#include <optional>

namespace dan {

enum class Method {
  DAN,   ///< dan-mpas | dan-dlr | dan-cpe, default options
  Base,  ///< input order, first fit, LRU eviction (the "original schedule")
  HMCOS, ///< HMCOS-style hierarchical memory-constrained ordering
  COSMA, ///< COSMA-style joint ordering, allocation and replacement
  MAGIS, ///< MAGIS-style reordering with windowed exact search
  EDA,   ///< EDA-style depth-first producer-to-consumer traversal
};

/// Every method, in the order tables list them.
llvm::ArrayRef<Method> allMethods();
llvm::StringRef methodName(Method M); // "dan", "base", "hmcos", ...
std::optional<Method> lookupMethod(llvm::StringRef Name);

/// Runs \p M on a copy of \p G, which must have no memory plan, and returns
/// the planned graph.
llvm::Expected<std::unique_ptr<Graph>> runMethod(const Graph &G,
                                                 const TargetDesc &T, Method M);

} // namespace dan

#endif // DAN_TRANSFORMS_METHODS_H
