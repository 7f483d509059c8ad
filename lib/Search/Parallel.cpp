//===- Parallel.cpp - Run independent candidates on a thread pool ---------===//

#include "Parallel.h"
#include "llvm/Support/ThreadPool.h"
#include "llvm/Support/Threading.h"
#include <algorithm>

using namespace llvm;

namespace dan {

void runConcurrently(unsigned Threads, size_t N,
                     function_ref<void(size_t)> Job) {
  ThreadPoolStrategy S = hardware_concurrency(Threads);
  unsigned Workers = std::min<size_t>(S.compute_thread_count(), N);
  if (Workers <= 1) {
    for (size_t I = 0; I != N; ++I)
      Job(I);
    return;
  }
  S.ThreadsRequested = Workers;
  DefaultThreadPool Pool(S);
  for (size_t I = 0; I != N; ++I)
    Pool.async([Job, I] { Job(I); });
  Pool.wait();
}

} // namespace dan
