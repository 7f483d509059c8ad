//===- ThreadsTest.cpp - CpuSpread, JobRunner, startBeside ----------------===//

#include "dan/Support/Threads.h"
#include "gtest/gtest.h"
#include <atomic>
#include <chrono>
#include <thread>
#include <vector>

using namespace dan;

// Every job runs once; the first on the calling thread; on one thread all
// of them there, in order.
TEST(JobRunnerTest, RunsEachJobOnceTheFirstHere) {
  for (unsigned Threads : {1u, 2u, 4u}) {
    JobRunner Runner(Threads);
    for (size_t N : {0u, 1u, 7u, 100u}) {
      std::vector<std::atomic<int>> Runs(N);
      std::vector<std::thread::id> Where(N);
      std::vector<size_t> Order;
      std::atomic<size_t> Count{0};
      Runner.run(N, [&](size_t K) {
        ++Runs[K];
        Where[K] = std::this_thread::get_id();
        if (Threads == 1)
          Order.push_back(K);
        ++Count;
      });
      EXPECT_EQ(Count, N);
      for (size_t K = 0; K != N; ++K)
        EXPECT_EQ(Runs[K], 1) << K;
      if (N) {
        EXPECT_EQ(Where[0], std::this_thread::get_id());
      }
      if (Threads == 1) {
        for (size_t K = 0; K != Order.size(); ++K)
          EXPECT_EQ(Order[K], K);
      }
    }
  }
}

// Side work runs on a pool thread, which then takes jobs of the next batch
// once that work has finished; the batch returns only after it has; with
// one thread nothing is started.
TEST(JobRunnerTest, SideWorkThenTheBatch) {
  {
    JobRunner One(1);
    EXPECT_FALSE(One.startSide([] { FAIL() << "ran with one thread"; }));
    One.waitSide();
  }
  JobRunner Runner(2);
  std::atomic<bool> Release{false}, SideDone{false};
  std::thread::id SideThread;
  ASSERT_TRUE(Runner.startSide([&] {
    SideThread = std::this_thread::get_id();
    while (!Release)
      std::this_thread::yield();
    SideDone = true;
  }));
  // The batch's first jobs run here while the side work holds the pool's
  // only thread; the last job lets it go, and whatever job that thread
  // takes afterwards comes after the side work.
  constexpr size_t N = 64;
  std::vector<std::thread::id> Where(N);
  std::vector<char> SideWasDone(N, 0);
  Runner.run(N, [&](size_t K) {
    Where[K] = std::this_thread::get_id();
    SideWasDone[K] = SideDone;
    if (K == N / 2)
      Release = true;
    else if (K > N / 2)
      std::this_thread::sleep_for(std::chrono::microseconds(200));
  });
  EXPECT_TRUE(SideDone);
  EXPECT_NE(SideThread, std::this_thread::get_id());
  for (size_t K = 0; K != N; ++K)
    if (Where[K] != std::this_thread::get_id()) {
      EXPECT_EQ(Where[K], SideThread) << K;
      EXPECT_TRUE(SideWasDone[K]) << K;
    }
  // Jobs before the release ran on this thread alone.
  for (size_t K = 0; K <= N / 2; ++K)
    EXPECT_EQ(Where[K], std::this_thread::get_id()) << K;
  Runner.waitSide();
}

// What startBeside runs has finished once its thread is joined.
TEST(StartBesideTest, RunsTheWork) {
  int Done = 0;
  std::thread Beside = startBeside([&] { Done = 1; });
  Beside.join();
  EXPECT_EQ(Done, 1);
}

#ifdef __linux__
#include <sched.h>

namespace {

cpu_set_t allowedCpus() {
  cpu_set_t Set;
  EXPECT_EQ(sched_getaffinity(0, sizeof Set, &Set), 0);
  return Set;
}

/// Runs the calling thread on \p Cpu alone, then allows it every CPU of
/// \p All again: it stays on Cpu (nothing moves a running thread that is
/// allowed where it is).
void settleOn(int Cpu, const cpu_set_t &All) {
  cpu_set_t One;
  CPU_ZERO(&One);
  CPU_SET(Cpu, &One);
  ASSERT_EQ(sched_setaffinity(0, sizeof One, &One), 0);
  ASSERT_EQ(sched_setaffinity(0, sizeof All, &All), 0);
}

int firstCpu(const cpu_set_t &Set) {
  for (int C = 0; C != CPU_SETSIZE; ++C)
    if (CPU_ISSET(C, &Set))
      return C;
  return -1;
}

// A helper started on its dispatcher's CPU moves to another one, and may
// run anywhere it could before.
TEST(CpuSpreadTest, HelperLeavesTheDispatchersCpu) {
  cpu_set_t All = allowedCpus();
  if (CPU_COUNT(&All) < 2)
    GTEST_SKIP() << "one CPU allowed";
  int Shared = firstCpu(All);
  settleOn(Shared, All);
  CpuSpread Spread; // notes Shared
  int Before = -1, After = -1;
  cpu_set_t AfterSet;
  std::thread Helper([&] {
    settleOn(Shared, All);
    Before = sched_getcpu();
    Spread.moveHelper(1);
    After = sched_getcpu();
    AfterSet = allowedCpus();
  });
  Helper.join();
  EXPECT_EQ(Before, Shared);
  EXPECT_NE(After, Shared);
  EXPECT_TRUE(CPU_ISSET(After, &All));
  EXPECT_TRUE(CPU_EQUAL(&AfterSet, &All));
}

// The second helper goes to the second CPU after the dispatcher's, so that
// two helpers stacked on the dispatcher's CPU end on different CPUs; with
// fewer CPUs the count wraps around the others.
TEST(CpuSpreadTest, HelpersTakeTheOtherCpusInTurn) {
  cpu_set_t All = allowedCpus();
  if (CPU_COUNT(&All) < 2)
    GTEST_SKIP() << "one CPU allowed";
  int Shared = firstCpu(All);
  settleOn(Shared, All);
  CpuSpread Spread;
  int Ends[2] = {-1, -1};
  for (unsigned H = 1; H <= 2; ++H) {
    std::thread Helper([&] {
      settleOn(Shared, All);
      Spread.moveHelper(H);
      Ends[H - 1] = sched_getcpu();
    });
    Helper.join();
  }
  EXPECT_NE(Ends[0], Shared);
  EXPECT_NE(Ends[1], Shared);
  if (CPU_COUNT(&All) >= 3)
    EXPECT_NE(Ends[0], Ends[1]);
  else
    EXPECT_EQ(Ends[0], Ends[1]);
}

// A helper already on another CPU stays where it is.
TEST(CpuSpreadTest, HelperElsewhereStays) {
  cpu_set_t All = allowedCpus();
  if (CPU_COUNT(&All) < 3)
    GTEST_SKIP() << "fewer than three CPUs allowed";
  int Shared = firstCpu(All);
  settleOn(Shared, All);
  CpuSpread Spread;
  // The last allowed CPU: not the one helper 1 would be sent to.
  int Last = -1;
  for (int C = 0; C != CPU_SETSIZE; ++C)
    if (CPU_ISSET(C, &All))
      Last = C;
  int End = -1;
  std::thread Helper([&] {
    settleOn(Last, All);
    Spread.moveHelper(1);
    End = sched_getcpu();
  });
  Helper.join();
  EXPECT_EQ(End, Last);
}

} // namespace
#endif
