//===- JobRunner.cpp - Batches of independent jobs on a thread pool -------===//

#include "dan/Select/JobRunner.h"
#include "llvm/Support/Threading.h"
#include <algorithm>
#include <atomic>

namespace dan {

/// \p Requested threads, 0 for one per hardware thread, and never more than
/// there are: more would only take turns on the same cores (and a count
/// past INT_MAX would start none).
static unsigned threadCount(unsigned Requested) {
  llvm::ThreadPoolStrategy S = llvm::hardware_concurrency(Requested);
  S.Limit = true;
  return S.compute_thread_count();
}

JobRunner::JobRunner(unsigned Threads) : Threads(threadCount(Threads)) {}

JobRunner::~JobRunner() = default;

void JobRunner::run(size_t N, llvm::function_ref<void(size_t)> Job) {
  size_t Workers = std::min<size_t>(Threads, N);
  if (Workers <= 1) {
    for (size_t I = 0; I != N; ++I)
      Job(I);
    return;
  }
  if (!Pool) {
    llvm::ThreadPoolStrategy S;
    S.ThreadsRequested = Threads - 1;
    Pool = std::make_unique<llvm::DefaultThreadPool>(S);
  }
  // Every thread, this one included, takes the next job until none is left.
  std::atomic<size_t> Next{0};
  auto Drain = [&] {
    for (size_t I; (I = Next.fetch_add(1)) < N;)
      Job(I);
  };
  llvm::ThreadPoolTaskGroup Group(*Pool);
  for (size_t W = 1; W != Workers; ++W)
    Group.async(Drain);
  Drain();
  Group.wait();
}

} // namespace dan
