//===- JobRunner.h - Batches of independent jobs on a pool ------*- C++ -*-===//
//
// The one place DAN runs work on threads: the selections of this layer run
// their candidates (and the kernels of a graph) as batches of independent
// jobs, each writing its own result slot, so that a result is the same for
// any number of threads; dan-bench runs its cells the same way.
//
//===----------------------------------------------------------------------===//

#ifndef DAN_SELECT_JOBRUNNER_H
#define DAN_SELECT_JOBRUNNER_H

#include "llvm/ADT/STLFunctionalExtras.h"
#include "llvm/Support/ThreadPool.h"
#include <cstddef>
#include <memory>

namespace dan {

/// Runs batches of independent jobs on up to a given number of threads,
/// this one included.
class JobRunner {
public:
  /// \p Threads: 0 for one per hardware thread, and at most that many.
  explicit JobRunner(unsigned Threads);
  ~JobRunner();

  /// Runs Job(0) ... Job(N - 1) and returns when all have finished; the
  /// threads take the jobs in index order. The jobs must be independent;
  /// each writes only its own result, so that what the caller reads
  /// afterwards does not depend on which thread ran which job. With one
  /// thread or one job they run in index order on this thread.
  void run(size_t N, llvm::function_ref<void(size_t)> Job);

  /// How many threads run jobs, this one included.
  unsigned threads() const { return Threads; }

private:
  unsigned Threads;
  /// Threads - 1 workers, started by the first batch that needs them.
  std::unique_ptr<llvm::DefaultThreadPool> Pool;
};

} // namespace dan

#endif // DAN_SELECT_JOBRUNNER_H
