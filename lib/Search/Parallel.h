//===- Parallel.h - Run independent candidates on a thread pool -*- C++ -*-===//
//
// Private to lib/Search.
//
//===----------------------------------------------------------------------===//

#ifndef DAN_LIB_SEARCH_PARALLEL_H
#define DAN_LIB_SEARCH_PARALLEL_H

#include "llvm/ADT/STLFunctionalExtras.h"
#include "llvm/Support/ThreadPool.h"
#include <cstddef>
#include <memory>

namespace dan {

/// Runs batches of independent jobs on up to a given number of threads,
/// this one included; one selection uses one runner for all its batches, so
/// that its pool threads start once.
class JobRunner {
public:
  /// \p Threads: 0 for one per hardware thread.
  explicit JobRunner(unsigned Threads);
  ~JobRunner();

  /// Runs Job(0) ... Job(N - 1) and returns when all have finished. The
  /// jobs must be independent; each writes only its own result, so that
  /// what the caller reads afterwards does not depend on the order they
  /// finished in. With one thread or one job they run in index order on
  /// this thread.
  void run(size_t N, llvm::function_ref<void(size_t)> Job);

private:
  unsigned Threads;
  /// Threads - 1 workers, started by the first batch that needs them.
  std::unique_ptr<llvm::DefaultThreadPool> Pool;
};

/// JobRunner(Threads).run(N, Job).
void runConcurrently(unsigned Threads, size_t N,
                     llvm::function_ref<void(size_t)> Job);

} // namespace dan

#endif // DAN_LIB_SEARCH_PARALLEL_H
