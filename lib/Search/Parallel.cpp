//===- Parallel.cpp - Run independent candidates on a thread pool ---------===//

#include "Parallel.h"
#include "dan/Support/Threads.h"
#include "llvm/Support/Threading.h"
#include <algorithm>
#include <atomic>

using namespace llvm;

namespace dan {

JobRunner::JobRunner(unsigned Threads)
    : Threads(hardware_concurrency(Threads).compute_thread_count()) {}

JobRunner::~JobRunner() = default;

void JobRunner::run(size_t N, function_ref<void(size_t)> Job) {
  // Each thread, this one included, takes the next job until none is left.
  // This thread works too: its allocator's memory is warm, a new thread's
  // is not (fresh pages cost a fault each).
  std::atomic<size_t> Next{0};
  auto Drain = [&] {
    for (size_t I; (I = Next.fetch_add(1)) < N;)
      Job(I);
  };
  size_t Helpers = std::min<size_t>(Threads, N);
  if (Helpers <= 1) {
    Drain();
    return;
  }
  if (!Pool) {
    ThreadPoolStrategy S;
    S.ThreadsRequested = Threads - 1;
    Pool = std::make_unique<DefaultThreadPool>(S);
  }
  CpuSpread Spread;
  for (size_t W = 1; W != Helpers; ++W)
    Pool->async([&, W] {
      Spread.moveHelper(W);
      Drain();
    });
  Spread.yieldToHelpers();
  Drain();
  Pool->wait();
}

void runConcurrently(unsigned Threads, size_t N,
                     function_ref<void(size_t)> Job) {
  JobRunner(Threads).run(N, Job);
}

} // namespace dan
