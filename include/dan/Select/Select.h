//===- Select.h - Selections among whole candidate plans --------*- C++ -*-===//
//
// The layer above the stage passes and the baselines: every 'auto' option
// of dan-mpas (--l0, --weights, --order) and of dan-dlr (--fit, --horizon)
// is a bounded selection that runs the pass under each candidate setting,
// ranks the candidates (stage 1: by the plan cost of the plan default
// dan-dlr makes of each order, docs/MPAS.md; stage 2: by the plan cost of
// each plan, docs/DLR.md) and keeps the best, ties to the earlier
// candidate. The candidates run concurrently (JobRunner); each
// writes its own result slot and the ranking reads them in candidate order,
// so the result is the same for any number of threads.
//
//===----------------------------------------------------------------------===//

#ifndef DAN_SELECT_SELECT_H
#define DAN_SELECT_SELECT_H

#include "dan/IR/Graph.h"
#include "dan/Target/Target.h"
#include "dan/Transforms/CPE.h"
#include "dan/Transforms/DLR.h"
#include "dan/Transforms/MPAS.h"
#include "llvm/Support/Error.h"

namespace dan {

struct SelectOptions {
  /// Threads that run candidates at once; 0 for one per hardware thread.
  unsigned Threads = 0;
  /// Whether selectMPAS plans an order that every candidate reached (its
  /// plan cannot change the choice, only the figures of MPASStats::L0Tried,
  /// which are left unplanned without it): dan-mpas --stats wants them.
  bool MeasureSoleOrder = true;
  /// Whether the search's own phases (finding the tasks, ordering and
  /// planning the candidates) show in --time-passes.
  bool TimePhases = true;
  /// --l0=auto with --order=auto on a graph of more nodes than this whose
  /// tasks form no reuse grid, or that has no tasks: the candidates are
  /// ranked on a sample of about half as many nodes (its first tasks, or
  /// its first operations), and only the best SampledBest settings, each
  /// with the weighting it kept, order and plan the whole graph
  /// (docs/MPAS.md, "Large graphs"); 0: always the whole graph.
  size_t SampleAbove = 200000;
  /// Whether a part alike an earlier one up to its ids takes that part's
  /// result renamed to its ids instead of running the pass again
  /// (runOnParts; the same bytes either way).
  bool ReuseAlikeParts = true;
  /// Whether the graph is known to verify as the stage requires: a pass
  /// before it in the same process wrote it (dan-opt, which verifies its
  /// input and its result). The stage then skips verifying it where the
  /// check costs most (the selections' input checks), and still checks
  /// what the verifier does not: that a graph for mpas or dlr has no plan.
  bool InputVerified = false;
};

/// runMPAS with any option Auto: --l0=auto is the candidate selection of
/// docs/MPAS.md ("L0 modes"), --order=auto resolves to it or to free, and
/// --weights=auto orders under each weighting and keeps the lowest peak.
/// Without Auto it is runMPAS. Fails as runMPAS does; with several failing
/// candidates, with the first one's error.
llvm::Expected<MPASStats> selectMPAS(Graph &G, const TargetDesc &T,
                                     const MPASOptions &Opts,
                                     const SelectOptions &Select = {});

/// runDLR with FitPolicy::Auto or AutoHorizon: one plan per fit and
/// horizon, each replayed; the lowest planCost wins, then the least
/// traffic, then the lowest makespan, ties to the earlier (timed, best,
/// next fit; then AutoHorizons in order). When every plan fails, the first
/// error stands. Without either it is runDLR.
llvm::Expected<DLRStats> selectDLR(Graph &G, const TargetDesc &T,
                                   const DLROptions &Opts,
                                   const SelectOptions &Select = {});

/// runCPE; on kernels that run one after another (several independent
/// parts, each whole before the next), --mode=refine refines each kernel
/// as it would be alone, joins them, and then searches the joined graph
/// from there (--start=input), taking only moves that lower its makespan:
/// the result is never slower than the kernels refined one at a time and
/// run in turn (docs/CPE.md, "Several kernels").
llvm::Expected<CPEStats> selectCPE(Graph &G, const TargetDesc &T,
                                   const CPEOptions &Opts,
                                   const SelectOptions &Select = {});

} // namespace dan

#endif // DAN_SELECT_SELECT_H
