//===- Memory.cpp - Faulting in memory ahead of its writer ----------------===//

#include "dan/Support/Memory.h"
#include <cstdint>

#ifdef __linux__
#include <sys/mman.h>
#include <unistd.h>
#endif

namespace dan {

void prefaultForWrite(const void *Begin, size_t Bytes) {
#if defined(__linux__) && defined(MADV_POPULATE_WRITE)
  static const uintptr_t Page = static_cast<uintptr_t>(sysconf(_SC_PAGESIZE));
  uintptr_t First =
      (reinterpret_cast<uintptr_t>(Begin) + Page - 1) & ~(Page - 1);
  uintptr_t Last = (reinterpret_cast<uintptr_t>(Begin) + Bytes) & ~(Page - 1);
  // (An older kernel refuses the advice: the pages fault in when written.)
  if (Last > First)
    madvise(reinterpret_cast<void *>(First), Last - First, MADV_POPULATE_WRITE);
#else
  (void)Begin;
  (void)Bytes;
#endif
}

} // namespace dan
