//===- Parallel.cpp - Run independent candidates on a thread pool ---------===//

#include "Parallel.h"
#include "llvm/Support/ThreadPool.h"
#include "llvm/Support/Threading.h"
#include <algorithm>
#include <atomic>

using namespace llvm;

namespace dan {

void runConcurrently(unsigned Threads, size_t N,
                     function_ref<void(size_t)> Job) {
  ThreadPoolStrategy S = hardware_concurrency(Threads);
  unsigned Workers = std::min<size_t>(S.compute_thread_count(), N);
  // Each thread, this one included, takes the next job until none is left.
  // This thread works too: its allocator's memory is warm, a new thread's
  // is not (fresh pages cost a fault each).
  std::atomic<size_t> Next{0};
  auto Drain = [&] {
    for (size_t I; (I = Next.fetch_add(1)) < N;)
      Job(I);
  };
  if (Workers <= 1) {
    Drain();
    return;
  }
  S.ThreadsRequested = Workers - 1;
  DefaultThreadPool Pool(S);
  for (unsigned W = 1; W != Workers; ++W)
    Pool.async(Drain);
  Drain();
  Pool.wait();
}

} // namespace dan
