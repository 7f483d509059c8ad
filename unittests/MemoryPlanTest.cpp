#include "dan/IR/MemoryPlan.h"
#include "TestUtil.h"
#include "dan/Analysis/Verifier.h"
#include "dan/Gen/Generate.h"
#include "dan/IR/NodeCosts.h"
#include "dan/Target/Davinci/Davinci.h"
#include "dan/Transforms/DLR.h"
#include "llvm/ADT/BitVector.h"
#include <gtest/gtest.h>
#include <set>

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

// The spill edges of the earlier rule, which required every implied edge
// as well (docs/LangRef.md, "Spill edges"), by its definition: for every
// spill_out, the alloc and every earlier use; for every well-numbered
// pair, OUT -> IN, IN -> free and IN -> every later operation.
static std::vector<std::pair<NodeIdx, NodeIdx>> fullSpillEdges(const Graph &G) {
  std::vector<std::pair<NodeIdx, NodeIdx>> Edges;
  uint64_t N0 = G.firstSpillId();
  IdIndex Ids = G.idIndex();
  auto Uses = [&](NodeIdx I, uint64_t B) {
    const Node &N = G[I];
    return N.Kind == NodeKind::Op ? llvm::is_contained(N.Bufs, B)
                                  : N.isSpill() && N.Buf == B;
  };
  for (size_t P = 0; P != G.Order.size(); ++P) {
    NodeIdx Out = G.Order[P];
    if (G[Out].Kind != NodeKind::SpillOut)
      continue;
    uint64_t B = G[Out].Buf;
    for (size_t Q = 0; Q != G.Order.size(); ++Q) {
      NodeIdx U = G.Order[Q];
      if ((Q < P && Uses(U, B)) ||
          (G[U].Kind == NodeKind::Alloc && G[U].Buf == B))
        Edges.emplace_back(U, Out);
    }
    NodeIdx In = Ids.lookup(G[Out].Id + 1);
    if ((G[Out].Id - N0) % 2 != 0 || In == IdIndex::None ||
        G[In].Kind != NodeKind::SpillIn || G[In].Buf != B)
      continue;
    Edges.emplace_back(Out, In);
    bool After = false;
    for (NodeIdx X : G.Order) {
      if (After && ((G[X].Kind == NodeKind::Op && Uses(X, B)) ||
                    (G[X].Kind == NodeKind::Free && G[X].Buf == B)))
        Edges.emplace_back(In, X);
      After |= X == In;
    }
  }
  return Edges;
}

TEST(MemoryPlanTest, SpillEdgesOfTwoSpillsOfOneBuffer) {
  // b0 is used by n1, n2 before spill 0 (n13, n14), by n6 between the
  // spills, and by n10, n11 after spill 1 (n15, n16).
  llvm::SourceMgr SM;
  std::string Diags;
  auto G = parse(SM, R"(graph @g {
    n0 = alloc b0 UB 512 at 0
    n1 = FILL VECTOR 100 (b0)
    n2 = A VECTOR 50 (b0)
    n13 = spill_out b0
    n3 = alloc b1 UB 1024 at 0
    n4 = B VECTOR 40 (b1)
    n5 = free b1 UB 1024
    n14 = spill_in b0 at 0
    n6 = C VECTOR 60 (b0)
    n15 = spill_out b0
    n7 = alloc b2 UB 1024 at 0
    n8 = D VECTOR 30 (b2)
    n9 = free b2 UB 1024
    n16 = spill_in b0 at 512
    n10 = E VECTOR 70 (b0)
    n11 = G VECTOR 80 (b0)
    n12 = free b0 UB 512
  })",
                 Diags);
  ASSERT_TRUE(G) << Diags;
  // The second spill_out needs only n14 and n6; n14 needs no edge to n10,
  // n11 or the free, which follow n15 -> n16.
  EXPECT_EQ(ids(*G, computeSpillEdges(*G)),
            (std::vector<std::pair<uint64_t, uint64_t>>{{0, 13},
                                                        {1, 13},
                                                        {2, 13},
                                                        {6, 15},
                                                        {13, 14},
                                                        {14, 6},
                                                        {14, 15},
                                                        {15, 16},
                                                        {16, 10},
                                                        {16, 11},
                                                        {16, 12}}));
}

TEST(MemoryPlanTest, SpillEdgesStayLinearOnABrokenChain) {
  // Three spill_outs of b0 in a row, none with its spill_in (the verifier
  // rejects this graph): each spill_out anchors the next, so the required
  // edges stay one per use instead of one per use and spill.
  llvm::SourceMgr SM;
  std::string Diags;
  auto G = parse(SM, R"(graph @g {
    n0 = alloc b0 UB 512 at 0
    n1 = A VECTOR 10 (b0)
    n2 = B VECTOR 10 (b0)
    n3 = C VECTOR 10 (b0)
    n5 = spill_out b0
    n7 = spill_out b0
    n9 = spill_out b0
    n4 = free b0 UB 512
  })",
                 Diags);
  ASSERT_TRUE(G) << Diags;
  EXPECT_EQ(ids(*G, computeSpillEdges(*G)),
            (std::vector<std::pair<uint64_t, uint64_t>>{
                {0, 5}, {1, 5}, {2, 5}, {3, 5}, {5, 7}, {7, 9}}));
}

TEST(MemoryPlanTest, RequiredSpillEdgesImplyTheFullSet) {
  // Plans with many spills, several of one buffer, from DLR under a small
  // UB and L1: every edge of the earlier full rule must follow from the
  // required edges alone, and every required edge is one of the full rule.
  unsigned MultiSpilled = 0;
  size_t RequiredTotal = 0, FullTotal = 0;
  for (unsigned Cap : {256u, 384u, 512u}) {
    SCOPED_TRACE("capacity " + std::to_string(Cap));
    TargetDesc T = TargetDesc::davinci();
    T.setCapacity(davinci::UB, Cap);
    T.setCapacity(davinci::L1, 4 * Cap);
    GenOptions Opts;
    Opts.Matmul.MTiles = Opts.Matmul.NTiles = 3;
    Opts.Matmul.KTiles = 4;
    auto GOrErr = generateGraph(Opts, TargetDesc::davinci());
    ASSERT_TRUE(bool(GOrErr)) << llvm::toString(GOrErr.takeError());
    Graph &G = **GOrErr;
    llvm::Expected<DLRStats> S = runDLR(G, T, DLROptions::oneSetting());
    ASSERT_TRUE(bool(S)) << llvm::toString(S.takeError());
    ASSERT_GT(S->Spills, 0u);
    ASSERT_EQ(verifyErrors(G, T), "");
    llvm::DenseMap<uint64_t, unsigned> Spills;
    for (const Node &N : G.Nodes)
      if (N.Kind == NodeKind::SpillOut && ++Spills[N.Buf] == 2)
        ++MultiSpilled;

    // Reach[I]: the nodes reachable from I along required edges.
    std::vector<RequiredEdge> Required = computeSpillEdges(G);
    std::vector<std::vector<NodeIdx>> Succs(G.size());
    for (const RequiredEdge &E : Required)
      Succs[E.From].push_back(E.To);
    std::vector<llvm::BitVector> Reach(G.size(), llvm::BitVector(G.size()));
    for (NodeIdx I : llvm::reverse(G.Order))
      for (NodeIdx J : Succs[I]) {
        Reach[I].set(J);
        Reach[I] |= Reach[J];
      }
    auto Full = fullSpillEdges(G);
    std::set<std::pair<NodeIdx, NodeIdx>> FullSet(Full.begin(), Full.end());
    for (auto [From, To] : Full)
      EXPECT_TRUE(Reach[From].test(To))
          << describeNode(G, From) << " -> " << describeNode(G, To);
    for (const RequiredEdge &E : Required)
      EXPECT_TRUE(FullSet.count({E.From, E.To}))
          << describeNode(G, E.From) << " -> " << describeNode(G, E.To);
    RequiredTotal += Required.size();
    FullTotal += Full.size();
  }
  // Some buffer was spilled twice, so some full edge was implied.
  EXPECT_GT(MultiSpilled, 0u);
  EXPECT_LT(RequiredTotal, FullTotal);
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
