//===- Parallel.cpp - Run independent candidates on a thread pool ---------===//

#include "Parallel.h"

using namespace llvm;

namespace dan {

void runConcurrently(const SelectOptions &Select, size_t N,
                     function_ref<void(size_t)> Job) {
  JobRunner(Select.Threads).run(N, Job);
}

} // namespace dan
