//===- Threads.h - A batch's helper threads on other CPUs -------*- C++ -*-===//
//
// Linux starts a new thread, and often wakes a sleeping one, on the CPU of
// the thread that created or woke it, and its balancer may leave the two
// sharing that CPU for several milliseconds while another CPU idles. A
// parallel phase of 5 to 20 ms then runs at half speed: on a machine of two
// CPUs, the two pieces of a parse took 13 ms each instead of 7 in about half
// the runs, both on one CPU (docs/Performance.md, "Both cores"). A helper
// of a batch therefore moves itself off its dispatcher's CPU first.
//
//===----------------------------------------------------------------------===//

#ifndef DAN_SUPPORT_THREADS_H
#define DAN_SUPPORT_THREADS_H

#include "llvm/ADT/STLFunctionalExtras.h"
#include "llvm/Support/ThreadPool.h"
#include <atomic>
#include <cstddef>
#include <cstdint>
#include <functional>
#include <memory>
#include <optional>
#include <thread>

namespace dan {

/// The CPU a batch of work was handed out from: made by the thread that
/// hands it out, asked by each helper thread before its first job.
class CpuSpread {
public:
  /// Notes the calling thread's CPU (none where it cannot be known).
  CpuSpread();

  /// Called on helper thread \p Helper (1, 2, ...) of the batch: when it
  /// runs on the dispatcher's CPU, moves it to the Helper-th CPU after that
  /// one (cyclically) among those it may run on. Which CPUs the thread may
  /// run on is left as it was; the scheduler may move it again later. Does
  /// nothing where the CPU cannot be known or set.
  void moveHelper(unsigned Helper) const;

  /// \p Work as helper thread \p Helper runs it: moveHelper first.
  template <typename WorkT> auto onHelper(unsigned Helper, WorkT Work) const {
    return [Spread = *this, Helper, Work = std::move(Work)]() mutable {
      Spread.moveHelper(Helper);
      Work();
    };
  }

  /// Called by the dispatcher once its helpers are started, before its own
  /// share of the batch: a helper started on this CPU runs only when this
  /// thread gives way, which the scheduler may leave until this thread's
  /// time slice ends (medians of 30 runs: a parse piece began 1.5 ms after
  /// its dispatch, 0.24 ms with the dispatcher giving way once).
  void yieldToHelpers() const;

private:
  int Cpu = -1;
};

/// Runs batches of independent jobs on up to a given number of threads,
/// this one included; one user (a selection, the reading of a file) keeps
/// one runner for all its batches, so that its pool threads start once.
class JobRunner {
public:
  /// \p Threads: 0 for one per hardware thread.
  explicit JobRunner(unsigned Threads);
  ~JobRunner();

  /// Runs Job(0) ... Job(N - 1) and returns when all have finished: this
  /// thread runs Job(0), then every thread takes the next job until none
  /// is left. The jobs must be independent; each writes only its own
  /// result, so that what the caller reads afterwards does not depend on
  /// which thread ran which job. With one thread or one job they run in
  /// index order on this thread.
  ///
  /// While work started by startSide runs, its pool thread joins a batch
  /// when that work has finished, and the batch returns only after it has.
  void run(size_t N, llvm::function_ref<void(size_t)> Job);

  /// Starts \p Work on one of the pool's threads and returns at once, so
  /// that it runs beside this thread's own work and the first jobs of the
  /// next batch; its thread then takes that batch's remaining jobs (a
  /// thread of its own beside the pool would share a CPU with them). False,
  /// and nothing started, with one thread: the caller does the work itself.
  bool startSide(std::function<void()> Work);
  /// Returns once the work startSide started, and any warming
  /// (warmWhileIdle), has finished.
  void waitSide();

  /// For a serial step of the caller's: until this runner's next batch or
  /// side work (or its end), the pool's threads fault in up to \p Bytes of
  /// fresh memory each for their allocators (warmHeap: one warming per pool
  /// thread, which an idle pool gives one to each), so that what they
  /// allocate next finds its pages ready. Nothing before the pool has
  /// started, or with one thread.
  void warmWhileIdle(size_t Bytes);

  /// How many threads run jobs, this one included.
  unsigned threads() const { return Threads; }

private:
  void startPool();

  unsigned Threads;
  /// Counts the work handed to the pool: a warming stops when it moves.
  std::atomic<uint64_t> Handouts{0};
  /// Threads - 1 workers, started by the first batch that needs them.
  std::unique_ptr<llvm::DefaultThreadPool> Pool;
};

/// The runner a caller was given (\p Given, shared with its other work), or
/// else one of \p Threads threads of the callee's own, made in \p Own.
inline JobRunner &givenOrOwn(JobRunner *Given, std::optional<JobRunner> &Own,
                             unsigned Threads) {
  return Given ? *Given : Own.emplace(Threads);
}

/// Starts \p Work on a thread of its own beside this one, which leaves this
/// thread's CPU first while this thread gives way to it once (CpuSpread).
std::thread startBeside(std::function<void()> Work);

} // namespace dan

#endif // DAN_SUPPORT_THREADS_H
