//===- Reduce.h - Shrinking a graph while a behaviour persists --*- C++ -*-===//
//
// Test-case reduction in the manner of llvm-reduce: given a graph and an
// interestingness check (true while the behaviour of interest still shows),
// remove nodes, buffers, operands, edges and the memory plan's parts while
// the check keeps passing, and leave the smallest graph found. The check is
// a callback, so the reduction runs without processes in unit tests; the
// dan-reduce tool runs a command in it. docs/Reduce.md describes the passes
// and their cost.
//
//===----------------------------------------------------------------------===//

#ifndef DAN_REDUCE_REDUCE_H
#define DAN_REDUCE_REDUCE_H

#include "dan/IR/Graph.h"
#include "dan/Target/Target.h"
#include "llvm/Support/Error.h"
#include "llvm/Support/raw_ostream.h"
#include <functional>

namespace dan {

/// Whether a candidate still shows the behaviour of interest. An error (the
/// check could not run at all) stops the reduction.
using InterestingFn = std::function<llvm::Expected<bool>(const Graph &)>;

struct ReduceOptions {
  /// When set, every candidate must also verify under this target before
  /// the check sees it, and edits of a graph with a memory plan are followed
  /// by the plan's bookkeeping (spill ids, spill edges, reuse edges), so the
  /// result verifies too. When null, candidates only keep the form the
  /// parser accepts; what they mean is left to the check.
  const TargetDesc *KeepValid = nullptr;
  /// Rounds over all passes; 0 repeats them until a round removes nothing.
  unsigned MaxRounds = 0;
  /// Calls of the check; 0 is no limit. When it is reached the reduction
  /// stops with the smallest graph found so far.
  unsigned MaxTests = 0;
  /// Try renumbering node and buffer ids densely at the end.
  bool Renumber = true;
  /// Progress, one line per pass that ran, when set.
  llvm::raw_ostream *Log = nullptr;
};

struct ReduceStats {
  /// Rounds over the passes that ran (the last one removed nothing, unless
  /// a limit stopped the reduction).
  unsigned Rounds = 0;
  /// Calls of the check.
  unsigned Tests = 0;
  /// Candidates dropped without a check because they did not verify.
  unsigned Invalid = 0;
  /// Whether MaxTests stopped the reduction early.
  bool BudgetReached = false;
};

/// The names of the passes, in the order a round runs them.
llvm::ArrayRef<const char *> reducePassNames();

/// Shrinks \p G in place while \p IsInteresting holds. \p G itself must be
/// interesting (and, with KeepValid, verify); the caller checks that first.
/// The same graph and check give the same result. Returns an error only
/// when the check returned one.
llvm::Expected<ReduceStats> reduceGraph(Graph &G,
                                        const InterestingFn &IsInteresting,
                                        const ReduceOptions &Opts);

} // namespace dan

#endif // DAN_REDUCE_REDUCE_H
