//===- MemoryTest.cpp - faultIn and friends, warmHeap, warmWhileIdle ------===//

#include "dan/Support/Memory.h"
#include "dan/Support/Threads.h"
#include "gtest/gtest.h"
#include <atomic>
#include <numeric>
#include <thread>
#include <vector>

// The warming tests need glibc's allocator, set as the tools set it (freed
// memory kept, nothing mapped apart); a sanitizer's allocator is not set so.
#if defined(__SANITIZE_ADDRESS__)
#define DAN_GLIBC_HEAP 0
#elif defined(__has_feature)
#if __has_feature(address_sanitizer)
#define DAN_GLIBC_HEAP 0
#endif
#endif
#if !defined(DAN_GLIBC_HEAP) && defined(__GLIBC__)
#define DAN_GLIBC_HEAP 1
#include <limits>
#include <malloc.h>
#endif
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
static long minorFaults(int Who = RUSAGE_SELF) {
  rusage Usage;
  getrusage(Who, &Usage);
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

#if defined(DAN_GLIBC_HEAP) && DAN_GLIBC_HEAP
/// The tools' allocator settings (freed memory kept, nothing mapped apart)
/// until restore(), then glibc's defaults again. Memory freed under the
/// tools' settings stays in its thread's arena, which a later thread may
/// take over, already faulted in: each test frees its blocks after
/// restore(), and glibc gives them back, so that every page a later test's
/// threads take faults unless they warmed it.
class ToolsAllocator {
public:
  ToolsAllocator() {
    mallopt(M_MMAP_MAX, 0);
    mallopt(M_TRIM_THRESHOLD, std::numeric_limits<int>::max());
  }
  ~ToolsAllocator() { restore(); }
  void restore() {
    mallopt(M_TRIM_THRESHOLD, 128 << 10);
    mallopt(M_MMAP_MAX, 65536);
  }
};

// A thread's allocations after warmHeap take no fault the kernel counts, up
// to the warmed size, and fault beyond it; told to stop at once, warmHeap
// faults nothing in.
TEST(MemoryTest, WarmHeapReadiesTheThreadsNextAllocations) {
  ToolsAllocator Settings;
  const size_t Page = sysconf(_SC_PAGESIZE), Block = 16 << 20;
  const long Pages = Block / Page;
  // (Reserved here: a vector grown on the thread would sit above the
  // blocks in its arena, and glibc would not give them back.)
  std::vector<void *> Held;
  Held.reserve(2);
  std::thread([&] {
    auto FaultsFilling = [&] {
      long Before = minorFaults(RUSAGE_THREAD);
      auto *P = static_cast<unsigned char *>(std::malloc(Block));
      EXPECT_NE(P, nullptr);
      for (size_t K = 0; K < Block; K += Page)
        P[K] = 1;
      Held.push_back(P);
      return minorFaults(RUSAGE_THREAD) - Before;
    };
    long Before = minorFaults(RUSAGE_THREAD);
    warmHeap(Block + Block / 8, [] { return false; });
    EXPECT_LE(minorFaults(RUSAGE_THREAD) - Before, 2);
    Before = minorFaults(RUSAGE_THREAD);
    warmHeap(Block + Block / 8);
    EXPECT_GE(minorFaults(RUSAGE_THREAD) - Before, Pages / 2);
    EXPECT_LE(FaultsFilling(), 8);
    // Beyond the warmed memory, pages fault again.
    EXPECT_GE(FaultsFilling(), Pages / 2);
  }).join();
  Settings.restore();
  for (void *P : Held)
    std::free(P);
}

// More than a helper thread's heap holds (64 MiB) is not one block that
// glibc maps apart and unmaps when it is given back: warmHeap warms 32 MiB,
// which the thread's next allocations take without a fault.
TEST(MemoryTest, WarmHeapOfMoreThanAHeapHoldsWarmsPartOfIt) {
  ToolsAllocator Settings;
  const size_t Page = sysconf(_SC_PAGESIZE), Block = 16 << 20;
  const long Pages = Block / Page;
  void *Filled = nullptr;
  std::thread([&] {
    long Before = minorFaults(RUSAGE_THREAD);
    warmHeap(size_t(256) << 20);
    long Warming = minorFaults(RUSAGE_THREAD) - Before;
    // (Less when the thread's arena holds pages already: glibc keeps a
    // little of the memory it gives back.)
    EXPECT_GE(Warming, Pages + Pages / 2);
    EXPECT_LE(Warming, 2 * Pages + 8);
    Before = minorFaults(RUSAGE_THREAD);
    auto *P = static_cast<unsigned char *>(std::malloc(Block));
    for (size_t K = 0; K < Block; K += Page)
      P[K] = 1;
    EXPECT_LE(minorFaults(RUSAGE_THREAD) - Before, 8);
    Filled = P;
  }).join();
  Settings.restore();
  std::free(Filled);
}

// The pool's thread warms its heap while nothing is handed to it: it
// faults pages in, and the job it takes next fills 4 MiB without a fault
// the kernel counts.
TEST(WarmWhileIdleTest, PoolThreadsNextJobTakesNoFaults) {
  ToolsAllocator Settings;
  const size_t Page = sysconf(_SC_PAGESIZE), Bytes = 4 << 20;
  JobRunner Runner(2);
  // Job 1 runs on the pool's thread: job 0, on this one, waits for it.
  auto OnPoolThread = [&](auto Work) {
    std::atomic<bool> Started{false};
    Runner.run(2, [&](size_t K) {
      if (K == 0) {
        while (!Started)
          std::this_thread::yield();
        return;
      }
      Started = true;
      Work();
    });
  };
  long PoolFaults = 0;
  OnPoolThread([&] { PoolFaults = minorFaults(RUSAGE_THREAD); });
  Runner.warmWhileIdle(8 << 20);
  // (waitSide waits for everything on the pool: here the warming, which
  // nothing stops.)
  Runner.waitSide();
  long WarmingFaults = -1, JobFaults = -1;
  unsigned char *Filled = nullptr;
  OnPoolThread([&] {
    long Before = minorFaults(RUSAGE_THREAD);
    WarmingFaults = Before - PoolFaults;
    Filled = static_cast<unsigned char *>(std::malloc(Bytes));
    for (size_t B = 0; B < Bytes; B += Page)
      Filled[B] = 1;
    JobFaults = minorFaults(RUSAGE_THREAD) - Before;
  });
  EXPECT_GE(WarmingFaults, long(Bytes / Page));
  EXPECT_GE(JobFaults, 0);
  EXPECT_LE(JobFaults, 8);
  Settings.restore();
  std::free(Filled);
}

// A warming stops when the next batch or side work is handed out, and
// when the runner ends; before the pool has started, and with one thread,
// none starts: a budget of 256 MiB is not spent.
TEST(WarmWhileIdleTest, StopsAtTheNextBatch) {
  ToolsAllocator Settings;
  const long Budget = 256 << 20, Pages = Budget / sysconf(_SC_PAGESIZE);
  long Before = minorFaults(RUSAGE_SELF);
  {
    JobRunner One(1);
    One.warmWhileIdle(Budget);
    One.run(2, [](size_t) {});
    One.warmWhileIdle(Budget);
    JobRunner Runner(2);
    Runner.warmWhileIdle(Budget);
    Runner.run(2, [](size_t) {});
    Runner.warmWhileIdle(Budget);
    std::atomic<int> Count{0};
    Runner.run(5, [&](size_t) { ++Count; });
    EXPECT_EQ(Count, 5);
    Runner.warmWhileIdle(Budget);
    EXPECT_TRUE(Runner.startSide([&] { ++Count; }));
    Runner.waitSide();
    EXPECT_EQ(Count, 6);
    Runner.warmWhileIdle(Budget);
  }
  EXPECT_LT(minorFaults(RUSAGE_SELF) - Before, Pages / 4);
}
#endif
#endif
