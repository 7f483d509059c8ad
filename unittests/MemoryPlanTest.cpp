#include "dan/IR/MemoryPlan.h"
#include "TestUtil.h"
#include <gtest/gtest.h>

using namespace dan;
using namespace dan::test;

// b0 is spilled once; the plan implies the spill edges and two reuse edges.
static const char *SpillGraph = R"(graph @g {
  n0 = alloc b0 UB 512 at 0
  n1 = COPY_IN MTE2 80 (b0)
  n2 = alloc b1 UB 512 at 512
  n3 = COPY_IN MTE2 80 (b1)
  n11 = spill_out b0
  n4 = alloc b2 UB 512 at 0
  n5 = ADD VECTOR 100 (b2, b1)
  n6 = free b1 UB 512
  n12 = spill_in b0 at 512
  n7 = MUL VECTOR 100 (b2, b0)
  n8 = free b0 UB 512
  n9 = COPY_OUT MTE3 80 (b2)
  n10 = free b2 UB 512
})";

static std::vector<std::pair<uint64_t, uint64_t>>
ids(const Graph &G, const std::vector<RequiredEdge> &Edges) {
  std::vector<std::pair<uint64_t, uint64_t>> Out;
  for (const RequiredEdge &E : Edges)
    Out.emplace_back(G[E.From].Id, G[E.To].Id);
  llvm::sort(Out);
  return Out;
}

TEST(MemoryPlanTest, SpillEdges) {
  llvm::SourceMgr SM;
  std::string Diags;
  auto G = parse(SM, SpillGraph, Diags);
  ASSERT_TRUE(G) << Diags;
  EXPECT_EQ(ids(*G, computeSpillEdges(*G)),
            (std::vector<std::pair<uint64_t, uint64_t>>{
                {0, 11}, {1, 11}, {11, 12}, {12, 7}, {12, 8}}));
}

TEST(MemoryPlanTest, ReuseEdges) {
  llvm::SourceMgr SM;
  std::string Diags;
  auto G = parse(SM, SpillGraph, Diags);
  ASSERT_TRUE(G) << Diags;
  auto Reuse = computeReuseEdges(*G);
  ASSERT_EQ(Reuse[idx(*G, 4)].size(), 1u);
  EXPECT_EQ((*G)[Reuse[idx(*G, 4)][0]].Id, 11u);
  ASSERT_EQ(Reuse[idx(*G, 12)].size(), 1u);
  EXPECT_EQ((*G)[Reuse[idx(*G, 12)][0]].Id, 6u);
  size_t Total = 0;
  for (auto &L : Reuse)
    Total += L.size();
  EXPECT_EQ(Total, 2u);
}

TEST(MemoryPlanTest, PartialOverlapsNameEveryReleaser) {
  // b2 at [32, 96) takes bytes last held by b0 [0, 64) and b1 [64, 128).
  llvm::SourceMgr SM;
  std::string Diags;
  auto G = parse(SM, R"(graph @g {
    n0 = alloc b0 UB 64 at 0
    n1 = alloc b1 UB 64 at 64
    n2 = free b0 UB 64
    n3 = free b1 UB 64
    n4 = alloc b2 UB 64 at 32
    n5 = free b2 UB 64
    n6 = alloc b3 UB 16 at 0
    n7 = free b3 UB 16
  })",
                 Diags);
  ASSERT_TRUE(G) << Diags;
  auto Reuse = computeReuseEdges(*G);
  ASSERT_EQ(Reuse[idx(*G, 4)].size(), 2u);
  EXPECT_EQ((*G)[Reuse[idx(*G, 4)][0]].Id, 2u);
  EXPECT_EQ((*G)[Reuse[idx(*G, 4)][1]].Id, 3u);
  // [0, 16) was last released by b0's free, not b2's.
  ASSERT_EQ(Reuse[idx(*G, 6)].size(), 1u);
  EXPECT_EQ((*G)[Reuse[idx(*G, 6)][0]].Id, 2u);
}

TEST(MemoryPlanTest, DDRBackedBuffers) {
  llvm::SourceMgr SM;
  std::string Diags;
  auto G = parse(SM, SpillGraph, Diags);
  ASSERT_TRUE(G) << Diags;
  auto Backed = ddrBackedBuffers(*G);
  EXPECT_TRUE(Backed.count(0));
  EXPECT_TRUE(Backed.count(1));
  EXPECT_FALSE(Backed.count(2));
}

TEST(MemoryPlanTest, StripLeavesTheInputGraph) {
  llvm::SourceMgr SM;
  std::string Diags;
  auto G = parse(SM, R"(graph @g {
    n0 = alloc b0 UB 64 at 0
    n1 = COPY_IN MTE2 80 (b0) after n0
    n4 = spill_out b0 after n0, n1
    n5 = spill_in b0 at 64 after n4
    n2 = X VECTOR 1 (b0) after n1, n5
    n3 = free b0 UB 64 after n2, n5
  })",
                 Diags);
  ASSERT_TRUE(G) << Diags;
  stripMemoryPlan(*G);
  EXPECT_FALSE(G->hasMemoryPlan());
  ASSERT_EQ(G->size(), 4u);
  std::vector<uint64_t> Order;
  for (NodeIdx I : G->Order)
    Order.push_back((*G)[I].Id);
  EXPECT_EQ(Order, (std::vector<uint64_t>{0, 1, 2, 3}));
  const Node &Free = (*G)[idx(*G, 3)];
  ASSERT_EQ(Free.Preds.size(), 1u);
  EXPECT_EQ((*G)[Free.Preds[0]].Id, 2u);
}
