//===- TaskOrderTest.cpp - Tasks and the samples cut from them ------------===//

#include "dan/Schedule/TaskOrder.h"
#include "TestUtil.h"
#include "dan/Analysis/Verifier.h"
#include "dan/IR/Components.h"
#include <gtest/gtest.h>

using namespace dan;
using namespace dan::test;

namespace {

/// The ids of \p Nodes of \p G.
std::vector<uint64_t> ids(const Graph &G, llvm::ArrayRef<NodeIdx> Nodes) {
  std::vector<uint64_t> Out;
  for (NodeIdx I : Nodes)
    Out.push_back(G[I].Id);
  return Out;
}

} // namespace

// Three tasks read one DDR-backed tile b0. The sample of the first task
// holds its nodes, the tile's ALLOC, COPY_IN and FREE, and the FREE waits
// only for the task's use.
TEST(TaskOrderTest, SampleOfTheFirstTasks) {
  llvm::SourceMgr SM;
  std::string Diags;
  std::unique_ptr<Graph> G = parse(SM, R"(graph @g {
  n0 = alloc b0 L1 64
  n1 = COPY_IN MTE2 10 (b0) after n0
  n2 = alloc b1 UB 64
  n3 = ADD VECTOR 5 (b1, b0) after n1, n2
  n4 = free b1 UB 64 after n3
  n5 = alloc b2 UB 64
  n6 = ADD VECTOR 5 (b2, b0) after n1, n5
  n7 = free b2 UB 64 after n6
  n8 = alloc b3 UB 64
  n9 = ADD VECTOR 5 (b3, b0) after n1, n8
  n10 = free b3 UB 64 after n9
  n11 = free b0 L1 64 after n3, n6, n9
})",
                                   Diags);
  ASSERT_TRUE(G) << Diags;
  TargetDesc T = TargetDesc::davinci();
  std::optional<TaskOrder> Tasks = findTaskOrder(*G, T);
  ASSERT_TRUE(Tasks);
  ASSERT_EQ(Tasks->Tasks, 3u);
  EXPECT_FALSE(Tasks->IsGrid);
  unsigned Taken = 0;
  // Three nodes a task: four nodes hold one task.
  std::vector<NodeIdx> Nodes = leadingTasks(*G, *Tasks, 4, 1, Taken);
  EXPECT_EQ(Taken, 1u);
  EXPECT_EQ(ids(*G, Nodes), (std::vector<uint64_t>{0, 1, 2, 3, 4, 11}));
  std::unique_ptr<Graph> Sample = extractPart(*G, Nodes);
  EXPECT_EQ(print(*Sample), R"(target davinci

graph @g {
  n0 = alloc b0 L1 64
  n1 = COPY_IN MTE2 10 (b0) after n0
  n2 = alloc b1 UB 64
  n3 = ADD VECTOR 5 (b1, b0) after n1, n2
  n4 = free b1 UB 64 after n3
  n11 = free b0 L1 64 after n3
}
)");
  EXPECT_EQ(verifyErrors(*Sample, T), "");
  // At least two tasks, whatever the nodes.
  Nodes = leadingTasks(*G, *Tasks, 4, 2, Taken);
  EXPECT_EQ(Taken, 2u);
  EXPECT_EQ(ids(*G, Nodes),
            (std::vector<uint64_t>{0, 1, 2, 3, 4, 5, 6, 7, 11}));
  // Every task is no sample.
  EXPECT_TRUE(leadingTasks(*G, *Tasks, 4, 3, Taken).empty());
  EXPECT_TRUE(leadingTasks(*G, *Tasks, 100, 1, Taken).empty());
}

// The first task reads a tile whose COPY_IN waits for the second task: no
// sample can hold the first task without part of the second.
TEST(TaskOrderTest, NoSampleThatNeedsALaterTask) {
  llvm::SourceMgr SM;
  std::string Diags;
  std::unique_ptr<Graph> G = parse(SM, R"(graph @g {
  n0 = alloc b0 L1 64
  n1 = COPY_IN MTE2 10 (b0) after n0
  n2 = alloc b1 UB 64
  n5 = alloc b2 UB 64
  n6 = ADD VECTOR 5 (b2, b0) after n1, n5
  n7 = free b2 UB 64 after n6
  n12 = alloc b4 L1 64
  n13 = COPY_IN MTE2 10 (b4) after n12, n6
  n3 = ADD VECTOR 5 (b1, b4) after n2, n13
  n4 = free b1 UB 64 after n3
  n14 = free b4 L1 64 after n3
  n11 = free b0 L1 64 after n6
})",
                                   Diags);
  ASSERT_TRUE(G) << Diags;
  std::optional<TaskOrder> Tasks = findTaskOrder(*G, TargetDesc::davinci());
  ASSERT_TRUE(Tasks);
  ASSERT_EQ(Tasks->Tasks, 2u);
  unsigned Taken = 0;
  EXPECT_TRUE(leadingTasks(*G, *Tasks, 3, 1, Taken).empty());
}

// A graph without tasks is sampled by its first operations: each with its
// predecessors and every node of the buffers it names; a FREE keeps only
// the edges from the sample.
TEST(TaskOrderTest, LeadingNodesTakeOperationsWithTheirBuffers) {
  llvm::SourceMgr SM;
  std::string Diags;
  std::unique_ptr<Graph> G = parse(SM, R"(graph @g {
  n0 = alloc b0 UB 16
  n1 = ADD VECTOR 1 (b0) after n0
  n2 = ADD VECTOR 1 (b0) after n1
  n3 = alloc b1 UB 16
  n4 = MUL VECTOR 1 (b1) after n3, n2
  n5 = ADD VECTOR 1 (b0) after n4
  n6 = free b1 UB 16 after n4
  n7 = free b0 UB 16 after n5
})",
                                   Diags);
  ASSERT_TRUE(G) << Diags;
  EXPECT_FALSE(findTaskOrder(*G, TargetDesc::davinci()));
  // n1 brings b0's ALLOC and FREE: four nodes reach 6 / 2.
  std::vector<NodeIdx> Nodes = leadingNodes(*G, 6);
  EXPECT_EQ(ids(*G, Nodes), (std::vector<uint64_t>{0, 1, 7}));
  std::unique_ptr<Graph> Sample = extractPart(*G, Nodes);
  // The FREE's last user stayed out: the sample needs the edge from n1 (as
  // the selection on a sample adds it).
  EXPECT_NE(verifyErrors(*Sample, TargetDesc::davinci()), "");
  EXPECT_EQ(cantFail(addLifetimeEdges(*Sample)), 1u);
  EXPECT_EQ(print(*Sample), R"(target davinci

graph @g {
  n0 = alloc b0 UB 16
  n1 = ADD VECTOR 1 (b0) after n0
  n7 = free b0 UB 16 after n1
}
)");
  EXPECT_EQ(verifyErrors(*Sample, TargetDesc::davinci()), "");
  // n4 brings its predecessor n2 and b1.
  EXPECT_EQ(ids(*G, leadingNodes(*G, 10)),
            (std::vector<uint64_t>{0, 1, 2, 3, 4, 6, 7}));
  // At least MaxNodes, or every node: no sample.
  EXPECT_TRUE(leadingNodes(*G, 3).empty());
  EXPECT_TRUE(leadingNodes(*G, 100).empty());
}
