#include "dan/Analysis/Replay.h"
#include "TestUtil.h"
#include "dan/IR/MemoryPlan.h"
#include "dan/Target/Davinci/Davinci.h"
#include <functional>
#include <gtest/gtest.h>
#include <random>

using namespace dan;
using namespace dan::test;

namespace {
struct Replayed {
  llvm::SourceMgr SM;
  std::unique_ptr<Graph> G;
  ReplayResult R;
  uint64_t start(uint64_t Id) const { return R.Start[idx(*G, Id)]; }
  uint64_t finish(uint64_t Id) const { return R.Finish[idx(*G, Id)]; }
};

std::unique_ptr<Replayed> run(const char *Text,
                              TargetDesc T = TargetDesc::davinci()) {
  auto Out = std::make_unique<Replayed>();
  std::string Diags;
  Out->G = parse(Out->SM, Text, Diags);
  EXPECT_TRUE(Out->G) << Diags;
  if (Out->G)
    Out->R = replay(*Out->G, T);
  return Out;
}
} // namespace

// test::SpillExample is examples/spill.dan; docs/Replay.md and
// test/dan-replay/spill-example.test have the hand computation.
using test::SpillExample;

TEST(ReplayTest, SpillExample) {
  auto X = run(SpillExample);
  const ReplayResult &R = X->R;
  EXPECT_EQ(R.PeakL1UB, 1024u);
  EXPECT_EQ(R.TierPeak[unsigned(davinci::UB)], 1024u);
  EXPECT_EQ(R.TierPeak[unsigned(davinci::L1)], 0u);
  EXPECT_TRUE(R.L0Single);
  EXPECT_FALSE(R.L0Violation);
  EXPECT_EQ(R.ExtraTraffic, 512u);
  EXPECT_EQ(R.SpillCount, 1u);
  EXPECT_EQ(R.Makespan, 1614u);
  EXPECT_EQ(R.CriticalPathLB, 1534u);
  EXPECT_EQ(R.PipeLB, 1334u);
  EXPECT_EQ(R.PipeBusy[unsigned(davinci::MTE2)], 1334u);
  EXPECT_EQ(R.PipeBusy[unsigned(davinci::MTE3)], 80u);
  EXPECT_EQ(R.PipeBusy[unsigned(davinci::VECTOR)], 200u);
  EXPECT_EQ(X->start(3), 80u);  // MTE2 busy with n1
  EXPECT_EQ(X->start(11), 80u); // after n1; clean: 0 cycles
  EXPECT_EQ(X->finish(11), 80u);
  EXPECT_EQ(X->start(4), 80u);   // reuse edge from n11
  EXPECT_EQ(X->start(12), 260u); // reuse edge from n6 (after n5)
  EXPECT_EQ(X->finish(12), 260u + 150 + 2 * 512);
  EXPECT_EQ(X->start(9), 1534u);
  ASSERT_EQ(R.Start.size(), X->G->size());
  ASSERT_EQ(R.Finish.size(), X->G->size());
}

TEST(ReplayTest, NodeCyclesAndPipes) {
  auto X = run(R"(graph @g {
    n0 = alloc b0 UB 100 at 0
    n1 = COPY_IN MTE2 7 (b0) after n0
    n2 = alloc b1 L1 300 at 0
    n3 = F VECTOR 9 (b1) after n2
    n6 = spill_out b0 after n0, n1
    n7 = spill_in b0 at 0 after n6
    n8 = spill_out b1 after n2, n3
    n9 = spill_in b1 at 0 after n8
    n4 = free b0 UB 100 after n7
    n5 = free b1 L1 300 after n9
  })");
  const Graph &G = *X->G;
  TargetDesc T = TargetDesc::davinci();
  BufferCosts Costs = bufferCosts(G);
  ASSERT_TRUE(Costs.find(0) && Costs.find(1));
  EXPECT_EQ(Costs.find(0)->Size, 100u);
  EXPECT_TRUE(Costs.find(0)->Backed);
  EXPECT_EQ(Costs.find(1)->Size, 300u);
  EXPECT_FALSE(Costs.find(1)->Backed);
  EXPECT_EQ(Costs.find(2), nullptr);
  auto Cycles = [&](uint64_t Id) {
    return nodeCycles(G, idx(G, Id), T, Costs);
  };
  EXPECT_EQ(Cycles(0), 0u);
  EXPECT_EQ(Cycles(1), 7u);
  EXPECT_EQ(Cycles(6), 0u);             // clean: b0 is COPY_IN's
  EXPECT_EQ(Cycles(7), 150u + 2 * 100); // spill_in always moves
  EXPECT_EQ(Cycles(8), 150u + 2 * 300); // dirty
  EXPECT_EQ(Cycles(9), 150u + 2 * 300);
  EXPECT_EQ(Cycles(4), 0u);
  EXPECT_EQ(nodePipe(G, idx(G, 0), T, Costs), std::nullopt);
  EXPECT_EQ(nodePipe(G, idx(G, 4), T, Costs), std::nullopt);
  EXPECT_EQ(nodePipe(G, idx(G, 3), T, Costs), davinci::VECTOR);
  EXPECT_EQ(nodePipe(G, idx(G, 6), T, Costs), davinci::MTE3);
  EXPECT_EQ(nodePipe(G, idx(G, 7), T, Costs), davinci::MTE2);
  // Traffic: clean 100 + dirty 2 * 300.
  EXPECT_EQ(X->R.ExtraTraffic, 100u + 600);
  EXPECT_EQ(X->R.SpillCount, 2u);
  // Peak: 100 + 300 while both are resident.
  EXPECT_EQ(X->R.PeakL1UB, 400u);
  EXPECT_EQ(X->R.TierPeak[unsigned(davinci::L1)], 300u);
}

TEST(ReplayTest, PipesRunInScheduleOrder) {
  auto X = run(R"(graph @g {
    n0 = A MTE2 50 ()
    n1 = B MTE2 30 ()
    n2 = C VECTOR 40 ()
    n3 = D VECTOR 20 () after n1
    n4 = E MTE2 10 () after n3
    n5 = F MTE2 5 ()
  })");
  EXPECT_EQ(X->start(1), 50u);
  EXPECT_EQ(X->start(2), 0u);
  EXPECT_EQ(X->start(3), 80u);
  EXPECT_EQ(X->start(4), 100u);
  EXPECT_EQ(X->start(5), 110u); // ready at 0, but behind n4 on MTE2
  EXPECT_EQ(X->R.Makespan, 115u);
  EXPECT_EQ(X->R.CriticalPathLB, 60u);
  EXPECT_EQ(X->R.PipeLB, 95u);
}

TEST(ReplayTest, SpillCostOverride) {
  TargetDesc T = TargetDesc::davinci();
  T.setSpillCost(10, 1);
  auto X = run(SpillExample, T);
  EXPECT_EQ(X->finish(12) - X->start(12), 10u + 512);
  EXPECT_EQ(X->R.ExtraTraffic, 512u); // traffic does not depend on the cost
}

TEST(ReplayTest, SpilledL0BufferIsNotLive) {
  auto X = run(R"(graph @g {
    n0 = alloc b0 L0A 256 at 0
    n1 = LOAD MTE1 10 (b0) after n0
    n6 = spill_out b0 after n0, n1
    n2 = alloc b1 L0A 256 at 0 reuse n6
    n3 = MM CUBE 20 (b1) after n2
    n4 = free b1 L0A 256 after n3
    n7 = spill_in b0 at 0 after n6 reuse n4
    n5 = free b0 L0A 256 after n7
  })");
  EXPECT_TRUE(X->R.L0Single);
  EXPECT_EQ(X->R.TierPeak[unsigned(davinci::L0A)], 256u);
  EXPECT_EQ(X->R.PeakL1UB, 0u);
  EXPECT_EQ(X->R.Makespan, 1354u);
}

TEST(ReplayTest, TwoLiveL0Buffers) {
  auto X = run(R"(graph @g {
    n0 = alloc b0 L0A 64
    n1 = alloc b1 L0B 64
    n2 = alloc b2 L0A 0
    n3 = free b0 L0A 64
    n4 = free b1 L0B 64
    n5 = free b2 L0A 0
  })");
  // A zero-size buffer still counts as a buffer.
  EXPECT_FALSE(X->R.L0Single);
  ASSERT_TRUE(X->R.L0Violation);
  EXPECT_EQ((*X->G)[*X->R.L0Violation].Id, 2u);
  EXPECT_EQ(X->R.TierPeak[unsigned(davinci::L0A)], 64u);
}

TEST(ReplayTest, EmptyGraph) {
  auto X = run("graph @g { }");
  EXPECT_EQ(X->R.Makespan, 0u);
  EXPECT_EQ(X->R.PipeLB, 0u);
  EXPECT_TRUE(X->R.Start.empty());
}

// Graphs the verifier rejects still replay without a crash.
TEST(ReplayTest, SafeOnGraphsThatDoNotVerify) {
  auto X = run(R"(graph @g {
    n0 = free b9 UB 100
    n1 = A VECTOR 10 (b9) after n2
    n2 = B VECTOR 5 () after n1
    n3 = alloc b0 UB 64
    n4 = alloc b0 UB 64
    n5 = spill_out b7
    n12 = spill_in b8 at 3
    n6 = free b0 UB 64
    n7 = free b0 UB 64
    n8 = C CUBE 3 () after n8
    n9 = spill_in b0 at 0
    n10 = spill_out b0
    n11 = free b1 L0A 4
  })");
  const ReplayResult &R = X->R;
  EXPECT_EQ(R.PeakL1UB, 64u);
  EXPECT_EQ(R.SpillCount, 2u);
  // b7 has no size; the spill_out of b0 after its free still counts.
  EXPECT_EQ(R.ExtraTraffic, 2u * 64);
  EXPECT_EQ(X->start(1), 0u); // its edge from a later node is ignored
  EXPECT_EQ(X->start(2), 10u);
  EXPECT_EQ(X->start(8), 0u); // its edge from itself is ignored
  EXPECT_GE(R.Makespan, std::max(R.CriticalPathLB, R.PipeLB));
}

TEST(ReplayTest, SafeOnHandBuiltGraphs) {
  Graph G;
  Node A;
  A.Kind = NodeKind::Op;
  A.Cycles = 5;
  A.Preds = {7, 1}; // out of range, and a node never scheduled
  G.Nodes.push_back(A);
  G.Nodes.push_back(A);
  G.Order = {0, 0, 42}; // node 1 never runs; 0 twice; 42 does not exist
  G.OpNames = {"X"};
  ReplayResult R = replay(G, TargetDesc::davinci());
  EXPECT_EQ(R.Makespan, 5u);
  EXPECT_EQ(R.PipeBusy[unsigned(davinci::MTE1)], 5u);
  EXPECT_EQ(R.Finish[1], 0u);
}

TEST(ReplayTest, HugeCostsSaturate) {
  TargetDesc T = TargetDesc::davinci();
  T.setSpillCost(MaxValue, MaxValue);
  auto X = run(R"(graph @g {
    n0 = alloc b0 L1 1099511627776 at 0
    n1 = F VECTOR 1099511627776 (b0) after n0
    n3 = spill_out b0 after n0, n1
    n4 = spill_in b0 at 0 after n3
    n2 = free b0 L1 1099511627776 after n4
  })",
               T);
  EXPECT_EQ(X->R.Makespan, UINT64_MAX);
  EXPECT_EQ(X->R.PipeLB, UINT64_MAX);
  EXPECT_EQ(X->R.CriticalPathLB, UINT64_MAX);
  EXPECT_EQ(X->R.ExtraTraffic, 2 * MaxValue);
}

// On random DAGs in random topological orders: the makespan is at least both
// lower bounds, the critical path equals a longest path computed apart, and
// every node starts after its predecessors and its pipe's previous node.
TEST(ReplayTest, RandomGraphsKeepTheInvariants) {
  std::mt19937 Rng(12345);
  for (int Round = 0; Round != 200; ++Round) {
    unsigned V = 1 + Rng() % 40;
    Graph G;
    G.internOpName("X");
    // Node I may depend on nodes below I; the schedule is a random
    // topological order.
    for (unsigned I = 0; I != V; ++I) {
      Node N;
      N.Id = I;
      N.Kind = NodeKind::Op;
      N.OpPipe = static_cast<Pipe>(Rng() % G.Target.numPipes());
      N.Cycles = Rng() % 20;
      for (unsigned P = 0; P != I; ++P)
        if (Rng() % 6 == 0)
          (Rng() % 4 ? N.Preds : N.ReusePreds).push_back(P);
      G.Nodes.push_back(N);
    }
    std::vector<unsigned> Indegree(V, 0);
    std::vector<std::vector<NodeIdx>> Succs(V);
    for (NodeIdx I = 0; I != V; ++I)
      for (const EdgeList *L : {&G[I].Preds, &G[I].ReusePreds})
        for (NodeIdx P : *L) {
          ++Indegree[I];
          Succs[P].push_back(I);
        }
    std::vector<NodeIdx> Ready;
    for (NodeIdx I = 0; I != V; ++I)
      if (!Indegree[I])
        Ready.push_back(I);
    while (!Ready.empty()) {
      size_t K = Rng() % Ready.size();
      NodeIdx I = Ready[K];
      Ready.erase(Ready.begin() + K);
      G.Order.push_back(I);
      for (NodeIdx S : Succs[I])
        if (!--Indegree[S])
          Ready.push_back(S);
    }
    ASSERT_EQ(G.Order.size(), V);

    ReplayResult R = replay(G, TargetDesc::davinci());
    // Longest path by memoized recursion over predecessors.
    std::vector<int64_t> Memo(V, -1);
    std::function<uint64_t(NodeIdx)> Longest = [&](NodeIdx I) -> uint64_t {
      if (Memo[I] >= 0)
        return Memo[I];
      uint64_t Best = 0;
      for (const EdgeList *L : {&G[I].Preds, &G[I].ReusePreds})
        for (NodeIdx P : *L)
          Best = std::max(Best, Longest(P));
      Memo[I] = Best + G[I].Cycles;
      return Memo[I];
    };
    uint64_t CP = 0;
    std::array<uint64_t, MaxPipes> Busy{};
    for (NodeIdx I = 0; I != V; ++I) {
      CP = std::max(CP, Longest(I));
      Busy[unsigned(G[I].OpPipe)] += G[I].Cycles;
    }
    EXPECT_EQ(R.CriticalPathLB, CP);
    EXPECT_EQ(R.PipeBusy, Busy);
    EXPECT_GE(R.Makespan, std::max(R.CriticalPathLB, R.PipeLB));
    std::array<uint64_t, MaxPipes> PipeFree{};
    for (NodeIdx I : G.Order) {
      for (const EdgeList *L : {&G[I].Preds, &G[I].ReusePreds})
        for (NodeIdx P : *L)
          EXPECT_GE(R.Start[I], R.Finish[P]);
      unsigned Pi = unsigned(G[I].OpPipe);
      EXPECT_GE(R.Start[I], PipeFree[Pi]);
      EXPECT_EQ(R.Finish[I], R.Start[I] + G[I].Cycles);
      PipeFree[Pi] = R.Finish[I];
    }
  }
}
