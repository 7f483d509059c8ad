//===- Parallel.h - Run independent candidates on a thread pool -*- C++ -*-===//
//
// Private to lib/Search.
//
//===----------------------------------------------------------------------===//

#ifndef DAN_LIB_SEARCH_PARALLEL_H
#define DAN_LIB_SEARCH_PARALLEL_H

#include "llvm/ADT/STLFunctionalExtras.h"
#include <cstddef>

namespace dan {

/// Runs Job(0) ... Job(N - 1), on up to \p Threads threads at once (0: one
/// per hardware thread), and returns when all have finished. The jobs must
/// be independent; each writes only its own result, so that what the
/// caller reads afterwards does not depend on the order they finished in.
/// With one thread or one job they run in index order on this thread.
void runConcurrently(unsigned Threads, size_t N,
                     llvm::function_ref<void(size_t)> Job);

} // namespace dan

#endif // DAN_LIB_SEARCH_PARALLEL_H
