//===- Threads.cpp - A batch's helper threads on other CPUs ---------------===//

#include "dan/Support/Threads.h"
#include "dan/Support/Memory.h"
#include "llvm/Support/Threading.h"
#include <algorithm>
#include <atomic>

#ifdef __linux__
#include <sched.h>
#endif

namespace dan {

CpuSpread::CpuSpread() {
#ifdef __linux__
  Cpu = sched_getcpu();
#endif
}

void CpuSpread::moveHelper(unsigned Helper) const {
#ifdef __linux__
  if (Cpu < 0 || Helper == 0 || sched_getcpu() != Cpu)
    return;
  cpu_set_t Allowed;
  // (Fails on a machine of more CPUs than a cpu_set_t holds: left alone.)
  if (sched_getaffinity(0, sizeof Allowed, &Allowed) != 0)
    return;
  int Others = CPU_COUNT(&Allowed) - (CPU_ISSET(Cpu, &Allowed) ? 1 : 0);
  if (Others < 1)
    return;
  int Wanted = static_cast<int>((Helper - 1) % Others) + 1;
  int Target = -1;
  for (int Step = 1, Seen = 0; Step < CPU_SETSIZE && Target < 0; ++Step) {
    int C = (Cpu + Step) % CPU_SETSIZE;
    if (CPU_ISSET(C, &Allowed) && ++Seen == Wanted)
      Target = C;
  }
  if (Target < 0)
    return;
  // Allowed on the target alone, the thread moves there at once; allowed
  // its former CPUs again, it stays until the scheduler has a reason to
  // move it.
  cpu_set_t Only;
  CPU_ZERO(&Only);
  CPU_SET(Target, &Only);
  if (sched_setaffinity(0, sizeof Only, &Only) == 0)
    sched_setaffinity(0, sizeof Allowed, &Allowed);
#else
  (void)Helper;
#endif
}

void CpuSpread::yieldToHelpers() const {
#ifdef __linux__
  sched_yield();
#endif
}

JobRunner::JobRunner(unsigned Threads)
    : Threads(llvm::hardware_concurrency(Threads).compute_thread_count()) {}

JobRunner::~JobRunner() {
  // A warming left running would hold up the pool's end.
  Handouts.fetch_add(1, std::memory_order_relaxed);
}

void JobRunner::run(size_t N, llvm::function_ref<void(size_t)> Job) {
  size_t Workers = std::min<size_t>(Threads, N);
  if (Workers <= 1) {
    for (size_t I = 0; I != N; ++I)
      Job(I);
    return;
  }
  // This thread runs the first job (its allocator's memory is warm, a new
  // thread's is not: fresh pages cost a fault each; and a reader's first
  // piece is the graph the others join), then each thread, this one
  // included, takes the next until none is left.
  std::atomic<size_t> Next{1};
  auto Drain = [&] {
    for (size_t I; (I = Next.fetch_add(1)) < N;)
      Job(I);
  };
  startPool();
  Handouts.fetch_add(1, std::memory_order_relaxed);
  CpuSpread Spread;
  for (size_t W = 1; W != Workers; ++W)
    Pool->async(Spread.onHelper(W, Drain));
  Spread.yieldToHelpers();
  Job(0);
  Drain();
  Pool->wait();
}

void JobRunner::startPool() {
  if (Pool)
    return;
  llvm::ThreadPoolStrategy S;
  S.ThreadsRequested = Threads - 1;
  Pool = std::make_unique<llvm::DefaultThreadPool>(S);
}

bool JobRunner::startSide(std::function<void()> Work) {
  if (Threads <= 1)
    return false;
  startPool();
  Handouts.fetch_add(1, std::memory_order_relaxed);
  CpuSpread Spread;
  // A batch's helpers queue behind it on the pool: the first that the pool
  // gives this thread is taken once Work has finished.
  Pool->async(Spread.onHelper(1, std::move(Work)));
  Spread.yieldToHelpers();
  return true;
}

void JobRunner::warmWhileIdle(size_t Bytes) {
  if (!Pool || !Bytes)
    return;
  uint64_t Mine = Handouts.fetch_add(1, std::memory_order_relaxed) + 1;
  for (unsigned W = 1; W != Threads; ++W)
    Pool->async([this, Bytes, Mine] {
      warmHeap(Bytes, [&] {
        return Handouts.load(std::memory_order_relaxed) == Mine;
      });
    });
}

void JobRunner::waitSide() {
  if (Pool)
    Pool->wait();
}

std::thread startBeside(std::function<void()> Work) {
  CpuSpread Spread;
  std::thread Beside(Spread.onHelper(1, std::move(Work)));
  Spread.yieldToHelpers();
  return Beside;
}

} // namespace dan
