//===- MemoryTest.cpp - prefaultForWrite, faultIn -------------------------===//

#include "dan/Support/Memory.h"
#include "gtest/gtest.h"
#include <numeric>
#include <vector>

#ifdef __linux__
#include <sys/mman.h>
#include <sys/resource.h>
#include <unistd.h>
#endif

using namespace dan;

// Neither changes a byte, on ranges that start and end inside a page, on
// empty ones and on ones inside a single page.
TEST(MemoryTest, LeavesTheBytesAsTheyWere) {
  std::vector<unsigned char> Bytes(5 * 4096 + 123);
  std::iota(Bytes.begin(), Bytes.end(), 7);
  std::vector<unsigned char> Before = Bytes;
  for (size_t From : {0u, 1u, 4095u, 4096u})
    for (size_t Length : {0u, 1u, 100u, 4096u, 3 * 4096u + 1}) {
      prefaultForWrite(Bytes.data() + From, Length);
      faultIn(Bytes.data() + From, Length);
    }
  faultIn(Bytes.data(), Bytes.size());
  EXPECT_EQ(Bytes, Before);
}

#if defined(__linux__) && defined(MADV_POPULATE_WRITE)
static long minorFaults() {
  rusage Usage;
  getrusage(RUSAGE_SELF, &Usage);
  return Usage.ru_minflt;
}

// After faultIn, writing fresh pages takes no fault the kernel counts;
// without it every page faults when written. (What a hypervisor adds at a
// page's first touch, which faultIn's reads also take, no count shows.)
TEST(MemoryTest, FaultInLeavesNoFaultToTheWriter) {
  const size_t Page = sysconf(_SC_PAGESIZE), Pages = 64;
  auto Fresh = [&] {
    void *P = mmap(nullptr, Pages * Page, PROT_READ | PROT_WRITE,
                   MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
    EXPECT_NE(P, MAP_FAILED);
    return static_cast<unsigned char *>(P);
  };
  auto FaultsWriting = [&](unsigned char *P) {
    long Before = minorFaults();
    for (size_t K = 0; K != Pages; ++K)
      P[K * Page] = 1;
    return minorFaults() - Before;
  };
  unsigned char *Probe = Fresh();
  if (madvise(Probe, Page, MADV_POPULATE_WRITE) != 0) {
    munmap(Probe, Pages * Page);
    GTEST_SKIP() << "this kernel refuses MADV_POPULATE_WRITE";
  }
  munmap(Probe, Pages * Page);
  unsigned char *Plain = Fresh(), *Prepared = Fresh();
  faultIn(Prepared, Pages * Page);
  EXPECT_GE(FaultsWriting(Plain), long(Pages / 2));
  EXPECT_LE(FaultsWriting(Prepared), 2);
  munmap(Plain, Pages * Page);
  munmap(Prepared, Pages * Page);
}
#endif
