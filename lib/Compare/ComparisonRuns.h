//===- ComparisonRuns.h - dan-bench's runs, shared by its parts -*- C++ -*-===//
//
// Private to lib/Compare. runBench (Comparison.cpp) runs the main
// comparison and calls on the ablations (ComparisonAblation.cpp) and the
// sensitivity sweep (ComparisonSweep.cpp); all three count and report their
// runs through one Reporter and run a method on a graph through runCell.
//
//===----------------------------------------------------------------------===//

#ifndef DAN_LIB_COMPARE_COMPARISONRUNS_H
#define DAN_LIB_COMPARE_COMPARISONRUNS_H

#include "dan/Compare/Comparison.h"
#include "dan/IR/Graph.h"
#include "dan/Target/Target.h"
#include "llvm/ADT/ArrayRef.h"
#include "llvm/ADT/StringRef.h"
#include "llvm/Support/Error.h"
#include <cstddef>
#include <functional>
#include <string>
#include <utility>

namespace dan::bench {

/// The first line of an error's message.
std::string firstLine(llvm::Error E);

/// Counts runs and reports them.
class Reporter {
public:
  Reporter(const BenchOptions &Opts, unsigned Total)
      : Opts(Opts), Total(Total) {}

  /// Runs \p Body as one step; it returns the error of a failed run, or
  /// an empty string. Returns the wall time of \p Body.
  double step(llvm::StringRef Graph, llvm::StringRef What,
              const std::function<std::string()> &Body);

  /// Runs Body(0) ... Body(N - 1), the next N steps, on Opts.Threads
  /// threads; Label(K) names step K (graph, what). With one thread they run
  /// as step does; with more, each step's progress (its start and its end)
  /// is reported once it and every step before it are done, so the lines
  /// come in step order whatever finishes first.
  void
  steps(size_t N,
        const std::function<std::pair<llvm::StringRef, llvm::StringRef>(size_t)>
            &Label,
        const std::function<std::string(size_t)> &Body);

private:
  const BenchOptions &Opts;
  unsigned Total;
  unsigned Index = 0;
};

/// Runs \p M on \p G under \p T: the plan, verified and replayed.
Cell runCell(const Graph &G, const TargetDesc &T, Method M, bool KeepPlan);

/// Runs the ablations of one graph (ComparisonAblation.cpp).
Ablation runAblation(const Graph &G, const TargetDesc &T, Reporter &Rep,
                     bool KeepPlans);

/// The sections of \p A that failed (BenchReport::AblationFailures).
unsigned ablationFailures(const Ablation &A);

/// Reruns every method of \p Rep on \p Graphs under each setting of \p Spec
/// but the default (whose cells are Rep's own) and ranks them, into
/// Rep.Sweep (ComparisonSweep.cpp). Rep.Sweep stays unset when \p Spec's
/// settings are wrong.
void runSweep(llvm::ArrayRef<const Graph *> Graphs, const TargetDesc &T,
              const SweepSpec &Spec, Reporter &Progress, BenchReport &Rep);

} // namespace dan::bench

#endif // DAN_LIB_COMPARE_COMPARISONRUNS_H
