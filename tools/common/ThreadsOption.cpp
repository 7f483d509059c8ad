//===- ThreadsOption.cpp - The --threads option ---------------------------===//
//
// Its own file so that only the tools that run work at once (they call
// toolThreads, so the linker takes this object from the static library)
// have --threads in their --help.
//
//===----------------------------------------------------------------------===//

#include "ToolSupport.h"

using namespace llvm;

namespace dan::tool {

static cl::opt<unsigned>
    Threads("threads", cl::init(0), cl::value_desc("N"),
            cl::desc("Threads that run independent work at once (the "
                     "candidates of a selection, the kernels of a graph, "
                     "dan-bench's cells), 0 for one per hardware thread "
                     "(default 0), at most one per hardware thread; the "
                     "output is the same for any N"),
            cl::cat(DANCategory));

unsigned toolThreads() { return Threads; }

} // namespace dan::tool
