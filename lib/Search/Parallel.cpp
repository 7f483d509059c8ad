//===- Parallel.cpp - Run independent candidates on a thread pool ---------===//

#include "Parallel.h"

using namespace llvm;

namespace dan {

void runConcurrently(unsigned Threads, size_t N,
                     function_ref<void(size_t)> Job) {
  JobRunner(Threads).run(N, Job);
}

} // namespace dan
