//===- Memory.cpp - Faulting in memory ahead of its writer ----------------===//

#include "dan/Support/Memory.h"
#include <algorithm>
#include <cstdint>
#include <cstdlib>

#ifdef __linux__
#include <sys/mman.h>
#include <unistd.h>
#endif

namespace dan {

namespace {
/// The whole pages inside [Begin, Begin + Bytes): their first byte and the
/// end of the last (First == Last when there are none).
struct PageRange {
  uintptr_t First = 0, Last = 0, Page = 1;
};

PageRange wholePages(const void *Begin, size_t Bytes) {
  PageRange R;
#ifdef __linux__
  static const uintptr_t Page = static_cast<uintptr_t>(sysconf(_SC_PAGESIZE));
  R.Page = Page;
  R.First = (reinterpret_cast<uintptr_t>(Begin) + Page - 1) & ~(Page - 1);
  R.Last = (reinterpret_cast<uintptr_t>(Begin) + Bytes) & ~(Page - 1);
  if (R.Last < R.First)
    R.Last = R.First;
#else
  (void)Begin;
  (void)Bytes;
#endif
  return R;
}

void populate(const PageRange &R) {
#if defined(__linux__) && defined(MADV_POPULATE_WRITE)
  // (An older kernel refuses the advice: the pages fault in when touched.)
  if (R.Last > R.First)
    madvise(reinterpret_cast<void *>(R.First), R.Last - R.First,
            MADV_POPULATE_WRITE);
#else
  (void)R;
#endif
}
} // namespace

void prefaultForWrite(const void *Begin, size_t Bytes) {
  populate(wholePages(Begin, Bytes));
}

void faultIn(const void *Begin, size_t Bytes) {
  PageRange R = wholePages(Begin, Bytes);
  populate(R);
  // A read is enough: after the advice each page is writable already.
  for (uintptr_t P = R.First; P < R.Last; P += R.Page)
    (void)*reinterpret_cast<const volatile unsigned char *>(P);
}

void warmHeap(size_t Bytes, llvm::function_ref<bool()> KeepOn) {
  // One block, so that the pages are the top of the thread's heap and go
  // back to it whole; at most half of what a helper thread's heap holds
  // (glibc's is 64 MiB), lest the block not fit and be mapped apart.
  Bytes = std::min<size_t>(Bytes, 32 << 20);
  void *Block = Bytes ? std::malloc(Bytes) : nullptr;
  if (!Block)
    return;
  PageRange R = wholePages(Block, Bytes);
  constexpr uintptr_t Step = 32 << 10;
  for (uintptr_t P = R.First; P < R.Last && (!KeepOn || KeepOn()); P += Step)
    faultIn(reinterpret_cast<const void *>(P), std::min(Step, R.Last - P));
  std::free(Block);
}

} // namespace dan
