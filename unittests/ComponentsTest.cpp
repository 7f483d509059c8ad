//===- ComponentsTest.cpp - Kernels, segments, parts and linking ----------===//

#include "dan/IR/Components.h"
#include "TestUtil.h"
#include "dan/IR/Kernels.h"
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

/// The ids of \p Nodes of \p G.
static std::vector<uint64_t> idsOf(const Graph &G,
                                   const std::vector<NodeIdx> &Nodes) {
  std::vector<uint64_t> Out;
  for (NodeIdx I : Nodes)
    Out.push_back(G[I].Id);
  return Out;
}

TEST(ComponentsTest, KernelsByBuffers) {
  llvm::SourceMgr SM;
  std::string Diags;
  std::unique_ptr<Graph> G = parse(SM, ThreeParts, Diags);
  ASSERT_TRUE(G) << Diags;
  KernelSplit K = splitKernels(*G);
  ASSERT_EQ(K.Units.size(), 3u);
  EXPECT_EQ(K.NumKernels, 2u);
  // In schedule order, units by their first node; n9 joins b0's kernel
  // through its operand, without an edge; the NOP is a unit of its own.
  EXPECT_EQ(idsOf(*G, K.Units[0]), (std::vector<uint64_t>{0, 1, 9, 2}));
  EXPECT_EQ(idsOf(*G, K.Units[1]), (std::vector<uint64_t>{5, 6, 7}));
  EXPECT_EQ(idsOf(*G, K.Units[2]), (std::vector<uint64_t>{8}));
  EXPECT_EQ(K.IsKernel, (std::vector<char>{1, 1, 0}));
  EXPECT_EQ(K.Topo, (std::vector<uint32_t>{0, 1, 2}));
  // Interleaved, the two kernels are one segment; the NOP after them
  // another.
  std::vector<std::vector<NodeIdx>> S = scheduleSegments(*G, K);
  ASSERT_EQ(S.size(), 2u);
  EXPECT_EQ(idsOf(*G, S[1]), (std::vector<uint64_t>{8}));
}

TEST(ComponentsTest, KernelsInTopologicalOrder) {
  // b1's kernel comes first in the schedule but waits for b0's: the
  // topological order puts b0's first; the SYNC-like operation without
  // buffers between them is a unit of its own.
  llvm::SourceMgr SM;
  std::string Diags;
  std::unique_ptr<Graph> G = parse(SM, R"(graph @g {
  n10 = alloc b1 UB 64 after n5
  n11 = COPY_IN MTE2 10 (b1) after n10
  n12 = free b1 UB 64 after n11
  n0 = alloc b0 UB 64
  n1 = COPY_IN MTE2 10 (b0) after n0
  n2 = free b0 UB 64 after n1
  n5 = SYNC VECTOR 1 () after n2
})",
                                   Diags);
  ASSERT_TRUE(G) << Diags;
  KernelSplit K = splitKernels(*G);
  ASSERT_EQ(K.Units.size(), 3u);
  EXPECT_EQ(idsOf(*G, K.Units[K.Topo[0]]), (std::vector<uint64_t>{0, 1, 2}));
  EXPECT_EQ(idsOf(*G, K.Units[K.Topo[1]]), (std::vector<uint64_t>{5}));
  EXPECT_EQ(idsOf(*G, K.Units[K.Topo[2]]), (std::vector<uint64_t>{10, 11, 12}));
}

TEST(ComponentsTest, KernelsOnACycleMerge) {
  // Edges join the two kernels both ways (n1 before n11, n12 before n2):
  // one unit.
  llvm::SourceMgr SM;
  std::string Diags;
  std::unique_ptr<Graph> G = parse(SM, R"(graph @g {
  n0 = alloc b0 UB 64
  n1 = COPY_IN MTE2 10 (b0) after n0
  n10 = alloc b1 UB 64
  n11 = COPY_IN MTE2 10 (b1) after n10, n1
  n12 = free b1 UB 64 after n11
  n2 = free b0 UB 64 after n1, n12
})",
                                   Diags);
  ASSERT_TRUE(G) << Diags;
  KernelSplit K = splitKernels(*G);
  EXPECT_EQ(K.Units.size(), 1u);
  EXPECT_EQ(K.NumKernels, 1u);
}

TEST(ComponentsTest, SegmentsOfKernelsInTurn) {
  llvm::SourceMgr SM;
  std::string Diags;
  std::unique_ptr<Graph> Exp = parse(SM, R"(graph @Exp {
  n0 = alloc b0 UB 64
  n1 = COPY_IN MTE2 80 (b0) after n0
  n2 = free b0 UB 64 after n1
})",
                                     Diags);
  ASSERT_TRUE(Exp) << Diags;
  // Three kernels in series: a kernel, a SYNC, a kernel, a SYNC, a kernel.
  llvm::Expected<std::unique_ptr<Graph>> Three =
      linkGraphs({Exp.get(), Exp.get(), Exp.get()}, "Exp", LinkJoin::Series);
  ASSERT_TRUE(bool(Three));
  KernelSplit K = splitKernels(**Three);
  EXPECT_EQ(K.NumKernels, 3u);
  std::vector<std::vector<NodeIdx>> S = scheduleSegments(**Three, K);
  ASSERT_EQ(S.size(), 5u);
  EXPECT_EQ(idsOf(**Three, S[1]), (std::vector<uint64_t>{3}));
  EXPECT_EQ(idsOf(**Three, S[2]), (std::vector<uint64_t>{4, 5, 6}));
}

TEST(ComponentsTest, StreamJoinSurvivesAPartWithoutALastNode) {
  // dan-link refuses a cyclic part first, but the library must not read
  // past an empty list of last nodes: the cycle has none.
  llvm::SourceMgr SM;
  std::string Diags;
  std::unique_ptr<Graph> Cycle = parse(SM, R"(graph @Cycle {
  n0 = A VECTOR 1 () after n1
  n1 = B VECTOR 1 () after n0
})",
                                       Diags);
  ASSERT_TRUE(Cycle) << Diags;
  std::unique_ptr<Graph> One = parse(SM, R"(graph @One {
  n0 = NOP VECTOR 1 ()
})",
                                     Diags);
  ASSERT_TRUE(One) << Diags;
  llvm::Expected<std::unique_ptr<Graph>> Linked =
      linkGraphs({Cycle.get(), One.get()}, "Linked", LinkJoin::Stream);
  ASSERT_TRUE(bool(Linked)) << llvm::toString(Linked.takeError());
  EXPECT_EQ((*Linked)->size(), 3u);
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
  std::vector<std::vector<NodeIdx>> P = splitKernels(**Two).Units;
  ASSERT_EQ(P.size(), 2u);
  EXPECT_EQ(print(*extractPart(**Two, P[0])), print(*Exp));
  std::string Second = print(*extractPart(**Two, P[1]));
  EXPECT_NE(Second.find("n4 = COPY_IN MTE2 80 (b1) after n3"),
            std::string::npos)
      << Second;
}

/// \p Count copies of SpillExample without its plan, read into \p SM,
/// joined by \p Join.
static std::unique_ptr<Graph> spillCopies(llvm::SourceMgr &SM, unsigned Count,
                                          LinkJoin Join) {
  std::string Diags;
  std::unique_ptr<Graph> One = parse(SM, SpillExample, Diags);
  EXPECT_TRUE(One) << Diags;
  if (!One)
    return nullptr;
  stripMemoryPlan(*One);
  std::vector<const Graph *> Copies(Count, One.get());
  llvm::Expected<std::unique_ptr<Graph>> Linked =
      linkGraphs(Copies, "Copies", Join);
  EXPECT_TRUE(bool(Linked)) << llvm::toString(Linked.takeError());
  return Linked ? std::move(*Linked) : nullptr;
}

TEST(ComponentsTest, PartsPlannedAloneJoinIntoAValidPlan) {
  llvm::SourceMgr SM;
  // In series: the SYNCs between the kernels are segments of their own,
  // and the joined plan keeps their edges.
  std::unique_ptr<Graph> Two = spillCopies(SM, 3, LinkJoin::Series);
  ASSERT_TRUE(Two);
  const TargetDesc &T = Two->Target;
  std::vector<std::vector<NodeIdx>> P =
      scheduleSegments(*Two, splitKernels(*Two));
  ASSERT_EQ(P.size(), 5u);
  std::vector<std::unique_ptr<Graph>> Planned;
  std::vector<JoinPart> Ptrs;
  size_t SpillsAlone = 0;
  for (const auto &Part : P) {
    Planned.push_back(extractPart(*Two, Part));
    ASSERT_TRUE(bool(runDLR(*Planned.back(), T, DLROptions::oneSetting())));
    SpillsAlone += Planned.back()->counts().Spills;
    Ptrs.push_back({Planned.back().get()});
  }
  ASSERT_GT(SpillsAlone, 0u);
  std::unique_ptr<Graph> Joined = joinParts(Ptrs, *Two);
  EXPECT_EQ(verifyErrors(*Joined, T), "");
  EXPECT_EQ(Joined->counts().Spills, SpillsAlone);
  // Every edge of the linked graph is in the joined one.
  IdIndex Joins = Joined->idIndex();
  const Graph &Linked = *Two;
  for (const Node &N : Linked.Nodes)
    for (NodeIdx Pred : N.Preds) {
      const Node &J = (*Joined)[Joins.lookup(N.Id)];
      EXPECT_TRUE(llvm::any_of(
          J.Preds,
          [&](NodeIdx Q) { return (*Joined)[Q].Id == Linked[Pred].Id; }))
          << "n" << Linked[Pred].Id << " -> n" << N.Id;
    }
  // The spills follow the schedule: spill k of the whole is N + 2k.
  EXPECT_EQ(Joined->firstSpillId(), Two->firstSpillId());
}

TEST(ComponentsTest, AlikePartsTakeTheFirstsResultRenamed) {
  llvm::SourceMgr SM;
  // Side by side, the second copy's ids start past the first's.
  std::unique_ptr<Graph> Two = spillCopies(SM, 2, LinkJoin::Parallel);
  ASSERT_TRUE(Two);
  const TargetDesc &T = Two->Target;
  std::vector<std::vector<NodeIdx>> P = splitKernels(*Two).Units;
  ASSERT_EQ(P.size(), 2u);
  PartMap Map(*Two, P);
  PartIds FirstIds = partIds(Map, 0), SecondIds = partIds(Map, 1);
  ASSERT_NE(FirstIds.Nodes, SecondIds.Nodes);
  ASSERT_NE(FirstIds.Buffers, SecondIds.Buffers);
  EXPECT_TRUE(partsAlike(Map, 0, FirstIds, 1, SecondIds));
  EXPECT_EQ(partShapeHash(Map, 0, FirstIds), partShapeHash(Map, 1, SecondIds));

  // The second's plan is the first's renamed, its spill nodes too: joined
  // with the first, it is the join of the two planned alone.
  std::unique_ptr<Graph> First = extractPart(*Two, P[0]),
                         Direct = extractPart(*Two, P[1]);
  ASSERT_TRUE(bool(runDLR(*First, T, DLROptions::oneSetting())));
  ASSERT_TRUE(bool(runDLR(*Direct, T, DLROptions::oneSetting())));
  ASSERT_GT(Direct->counts().Spills, 0u);
  std::optional<RenamedPart> Renamed =
      renamePart(*First, FirstIds, Map, 1, SecondIds);
  ASSERT_TRUE(Renamed);
  Graph FirstAgain = *First;
  std::string FirstText = print(*First);
  std::unique_ptr<Graph> ByRenaming =
      joinParts({{First.get()}, {nullptr, &*Renamed}}, *Two);
  std::unique_ptr<Graph> ByPlanning =
      joinParts({{&FirstAgain}, {Direct.get()}}, *Two);
  EXPECT_EQ(print(*ByRenaming), print(*ByPlanning));
  EXPECT_EQ(verifyErrors(*ByRenaming, T), "");
  // The first part, which the renamed one reads, is copied, not moved.
  EXPECT_EQ(print(*First), FirstText);
  EXPECT_TRUE(FirstAgain.Nodes.empty());

  // A result that moved its input's nodes is not renamed.
  Graph Moved = *First;
  std::swap(Moved.Nodes[0], Moved.Nodes[1]);
  EXPECT_FALSE(renamePart(Moved, FirstIds, Map, 1, SecondIds));

  // One cycle more, one edge fewer, or ids in another order, and the parts
  // are not alike.
  auto AlikeAfter = [&](llvm::function_ref<void(Graph &)> Change) {
    Graph Changed = *Two;
    Change(Changed);
    PartMap M(Changed, P);
    return partsAlike(M, 0, partIds(M, 0), 1, partIds(M, 1));
  };
  EXPECT_TRUE(AlikeAfter([](Graph &) {}));
  EXPECT_FALSE(AlikeAfter([&](Graph &G) {
    for (NodeIdx I : P[1])
      if (!G[I].isBufferNode()) {
        ++G[I].Cycles;
        break;
      }
  }));
  EXPECT_FALSE(AlikeAfter([&](Graph &G) {
    for (NodeIdx I : P[1])
      if (!G[I].Preds.empty()) {
        G[I].Preds.pop_back();
        break;
      }
  }));
  EXPECT_FALSE(
      AlikeAfter([&](Graph &G) { std::swap(G[P[1][1]].Id, G[P[1][2]].Id); }));
}

TEST(ComponentsTest, AlikePartsReadOnlyTheirOwnEdges) {
  llvm::SourceMgr SM;
  // In series each kernel after the first waits for a SYNC, a part of its
  // own: the kernels are alike all the same.
  std::unique_ptr<Graph> Three = spillCopies(SM, 3, LinkJoin::Series);
  ASSERT_TRUE(Three);
  std::vector<std::vector<NodeIdx>> P =
      scheduleSegments(*Three, splitKernels(*Three));
  ASSERT_EQ(P.size(), 5u);
  PartMap Map(*Three, P);
  std::vector<PartIds> Ids;
  for (size_t K = 0; K != P.size(); ++K)
    Ids.push_back(partIds(Map, K));
  size_t FromOutside = 0;
  for (NodeIdx I : P[2])
    for (NodeIdx Pred : (*Three)[I].Preds)
      FromOutside += Map.localIndex(2, Pred) == PartMap::None;
  ASSERT_GT(FromOutside, 0u);
  EXPECT_TRUE(partsAlike(Map, 0, Ids[0], 2, Ids[2]));
  EXPECT_TRUE(partsAlike(Map, 0, Ids[0], 4, Ids[4]));
  EXPECT_EQ(partShapeHash(Map, 0, Ids[0]), partShapeHash(Map, 4, Ids[4]));
  EXPECT_FALSE(partsAlike(Map, 0, Ids[0], 1, Ids[1]));
}
