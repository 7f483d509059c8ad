//===- Methods.h - Whole scheduling methods, selectable by name -*- C++ -*-===//
//
// A method turns a graph without a memory plan into a planned graph (order,
// offsets, spills, reuse edges) that dan-verify accepts. DAN's own method is
// the default pipeline (MPAS, DLR, CPE with default options); the others are
// the paper's baselines, each a deterministic policy (docs/Baselines.md).
// dan-bench measures them all with one replay.
//
//===----------------------------------------------------------------------===//

#ifndef DAN_SELECT_METHODS_H
#define DAN_SELECT_METHODS_H

#include "dan/Baselines/Baselines.h"
#include "dan/IR/Graph.h"
#include "dan/Target/Target.h"
#include "llvm/Support/Error.h"
#include <memory>

namespace dan {

/// Runs \p M on a copy of \p G, which must have no memory plan, and returns
/// the planned graph.
llvm::Expected<std::unique_ptr<Graph>> runMethod(const Graph &G,
                                                 const TargetDesc &T, Method M);

} // namespace dan

#endif // DAN_SELECT_METHODS_H
