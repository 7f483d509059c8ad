//===- JobRunnerTest.cpp - JobRunner --------------------------------------===//

#include "dan/Select/JobRunner.h"
#include "gtest/gtest.h"
#include <atomic>
#include <thread>
#include <vector>

using namespace dan;

// Every job runs once; on one thread all of them on the calling thread, in
// order.
TEST(JobRunnerTest, RunsEachJobOnce) {
  for (unsigned Threads : {1u, 2u, 4u}) {
    JobRunner Runner(Threads);
    std::thread::id Caller = std::this_thread::get_id();
    for (size_t N : {0u, 1u, 7u, 100u}) {
      std::vector<std::atomic<int>> Runs(N);
      std::vector<size_t> Order;
      std::atomic<size_t> Count{0};
      Runner.run(N, [&](size_t K) {
        ++Runs[K];
        if (Threads == 1) {
          EXPECT_EQ(std::this_thread::get_id(), Caller);
          Order.push_back(K);
        }
        ++Count;
      });
      EXPECT_EQ(Count, N);
      for (size_t K = 0; K != N; ++K)
        EXPECT_EQ(Runs[K], 1) << K;
      if (Threads == 1) {
        ASSERT_EQ(Order.size(), N);
        for (size_t K = 0; K != Order.size(); ++K)
          EXPECT_EQ(Order[K], K);
      }
    }
  }
}

// With two threads, a batch whose jobs wait for each other finishes: they
// run at once, on two threads.
TEST(JobRunnerTest, RunsJobsAtOnce) {
  JobRunner Runner(2);
  std::atomic<int> Arrived{0};
  std::vector<std::thread::id> Where(2);
  Runner.run(2, [&](size_t K) {
    Where[K] = std::this_thread::get_id();
    ++Arrived;
    while (Arrived < 2)
      std::this_thread::yield();
  });
  EXPECT_NE(Where[0], Where[1]);
}
