//===- ComponentsTest.cpp - Independent parts and linking -----------------===//

#include "dan/IR/Components.h"
#include "TestUtil.h"
#include "dan/IR/Link.h"
#include "dan/IR/MemoryPlan.h"
#include "dan/IR/Printer.h"
#include "dan/Transforms/DLR.h"
#include <gtest/gtest.h>

using namespace dan;
using namespace dan::test;

namespace {
// Two kernels interleaved in the schedule, and a third tied to the first
// only by a shared buffer (n9 uses b0 without an edge).
const char *ThreeParts = R"(graph @g {
  n0 = alloc b0 UB 64
  n5 = alloc b5 UB 64
  n1 = COPY_IN MTE2 10 (b0) after n0
  n6 = COPY_IN MTE2 10 (b5) after n5
  n9 = ADD VECTOR 5 (b0)
  n2 = free b0 UB 64 after n1, n9
  n7 = free b5 UB 64 after n6
  n8 = NOP VECTOR 1 ()
})";
} // namespace

TEST(ComponentsTest, PartsByEdgesAndBuffers) {
  llvm::SourceMgr SM;
  std::string Diags;
  std::unique_ptr<Graph> G = parse(SM, ThreeParts, Diags);
  ASSERT_TRUE(G) << Diags;
  std::vector<std::vector<NodeIdx>> P = independentParts(*G);
  ASSERT_EQ(P.size(), 3u);
  auto Ids = [&](const std::vector<NodeIdx> &Part) {
    std::vector<uint64_t> Out;
    for (NodeIdx I : Part)
      Out.push_back((*G)[I].Id);
    return Out;
  };
  // In schedule order, parts by their first node.
  EXPECT_EQ(Ids(P[0]), (std::vector<uint64_t>{0, 1, 9, 2}));
  EXPECT_EQ(Ids(P[1]), (std::vector<uint64_t>{5, 6, 7}));
  EXPECT_EQ(Ids(P[2]), (std::vector<uint64_t>{8}));
}

TEST(ComponentsTest, ExtractedPartPrintsAsTheKernelAlone) {
  llvm::SourceMgr SM;
  std::string Diags;
  std::unique_ptr<Graph> Exp = parse(SM, R"(graph @Exp {
  n0 = alloc b0 UB 64
  n1 = COPY_IN MTE2 80 (b0) after n0
  n2 = free b0 UB 64 after n1
})",
                                     Diags);
  ASSERT_TRUE(Exp) << Diags;
  // Two copies linked, then cut apart again: the first is the kernel itself.
  llvm::Expected<std::unique_ptr<Graph>> Two =
      linkGraphs({Exp.get(), Exp.get()}, "Exp");
  ASSERT_TRUE(bool(Two));
  std::vector<std::vector<NodeIdx>> P = independentParts(**Two);
  ASSERT_EQ(P.size(), 2u);
  EXPECT_EQ(print(*extractPart(**Two, P[0])), print(*Exp));
  std::string Second = print(*extractPart(**Two, P[1]));
  EXPECT_NE(Second.find("n4 = COPY_IN MTE2 80 (b1) after n3"),
            std::string::npos)
      << Second;
}

TEST(ComponentsTest, PartsPlannedAloneJoinIntoAValidPlan) {
  llvm::SourceMgr SM;
  std::string Diags;
  std::unique_ptr<Graph> One = parse(SM, SpillExample, Diags);
  ASSERT_TRUE(One) << Diags;
  stripMemoryPlan(*One);
  llvm::Expected<std::unique_ptr<Graph>> Two =
      linkGraphs({One.get(), One.get(), One.get()}, "Three");
  ASSERT_TRUE(bool(Two));
  std::vector<std::vector<NodeIdx>> P = independentParts(**Two);
  ASSERT_EQ(P.size(), 3u);
  std::vector<std::unique_ptr<Graph>> Planned;
  std::vector<const Graph *> Ptrs;
  size_t SpillsAlone = 0;
  for (const auto &Part : P) {
    Planned.push_back(extractPart(**Two, Part));
    ASSERT_TRUE(bool(runDLR(*Planned.back(), One->Target, DLROptions())));
    SpillsAlone += Planned.back()->counts().Spills;
    Ptrs.push_back(Planned.back().get());
  }
  ASSERT_GT(SpillsAlone, 0u);
  std::unique_ptr<Graph> Joined = joinParts(Ptrs, **Two);
  EXPECT_EQ(verifyErrors(*Joined, One->Target), "");
  EXPECT_EQ(Joined->counts().Spills, SpillsAlone);
  // The spills follow the schedule: spill k of the whole is N + 2k.
  EXPECT_EQ(Joined->firstSpillId(), (*Two)->firstSpillId());
}
