//===- PlacementTest.cpp - The placement step of stage 1 ------------------===//
//
// placeLate on the orders of every stage-1 setting of generated graphs:
// the result verifies (under the one-buffer L0 rule when the order met
// it), its peak L1+UB and its L0 tiers' peaks are no higher, the anchors
// keep their order, and placing again changes nothing.
//
//===----------------------------------------------------------------------===//

#include "dan/Schedule/Placement.h"
#include "TestUtil.h"
#include "dan/Analysis/Replay.h"
#include "dan/Analysis/Verifier.h"
#include "dan/Gen/Generate.h"
#include "dan/Transforms/MPAS.h"
#include "gtest/gtest.h"

using namespace dan;

namespace {

std::vector<std::unique_ptr<Graph>> generated(const TargetDesc &T) {
  return test::generatedFamilies(T, 3, 2, 11);
}

/// The nodes placeLate keeps in place, in the order of \p Order.
std::vector<NodeIdx> anchors(const Graph &G, llvm::ArrayRef<NodeIdx> Order) {
  std::vector<NodeIdx> Out;
  for (NodeIdx I : Order) {
    const Node &N = G[I];
    if (N.Kind == NodeKind::Op && !G.Target.loadsFromDDR(G.opName(N)))
      Out.push_back(I);
  }
  return Out;
}

unsigned errors(const Graph &G, const TargetDesc &T, bool L0Single) {
  VerifyOptions Opts;
  Opts.L0Single = L0Single;
  return verifyGraph(
      G, T, Opts,
      [](llvm::SMLoc, llvm::SourceMgr::DiagKind, const llvm::Twine &Msg) {
        ADD_FAILURE() << Msg.str();
      });
}

/// Placing the order of the graph \p Text, which keeps one live buffer per
/// L0 tier, keeps it so.
void expectPlacementKeepsL0Single(llvm::StringRef Text) {
  llvm::SourceMgr SM;
  std::string Diags;
  std::unique_ptr<Graph> G = test::parse(SM, Text, Diags);
  ASSERT_TRUE(G) << Diags;
  TargetDesc T = TargetDesc::davinci();
  ASSERT_EQ(errors(*G, T, /*L0Single=*/true), 0u);
  Graph Placed = *G;
  Placed.Order = placeLate(*G, G->Order);
  EXPECT_EQ(errors(Placed, T, /*L0Single=*/true), 0u);
}

} // namespace

TEST(PlacementTest, ShortensLiveRangesOnly) {
  TargetDesc T = TargetDesc::davinci();
  for (const std::unique_ptr<Graph> &In : generated(T))
    for (L0Mode M : {L0Mode::Single, L0Mode::Capacity, L0Mode::Ignore})
      for (MPASWeights W :
           {MPASWeights::Balanced, MPASWeights::MemoryFirst,
            MPASWeights::CriticalityFirst, MPASWeights::InputOrder}) {
        SCOPED_TRACE(In->Name + " l0 " + l0ModeName(M).str() + " weights " +
                     weightsName(W).str());
        MPASOptions Opts;
        Opts.L0 = M;
        Opts.Order = Traversal::Free;
        Opts.Weights = W;
        Opts.Place = false;
        Graph Raw = *In;
        llvm::Expected<MPASStats> S = runMPAS(Raw, T, Opts);
        ASSERT_TRUE(bool(S)) << llvm::toString(S.takeError());
        Graph Placed = Raw;
        Placed.Order = placeLate(Raw, Raw.Order);
        bool Single = M == L0Mode::Single;
        EXPECT_EQ(errors(Placed, T, Single), 0u);
        ReplayResult Before = replay(Raw, T), After = replay(Placed, T);
        EXPECT_LE(After.PeakL1UB, Before.PeakL1UB);
        for (unsigned TI = 0; TI != T.numTiers(); ++TI)
          EXPECT_LE(After.TierPeak[TI], Before.TierPeak[TI]);
        EXPECT_EQ(anchors(Raw, Raw.Order), anchors(Placed, Placed.Order));
        EXPECT_EQ(placeLate(Placed, Placed.Order), Placed.Order);
        // The placement step inside runMPAS gives the same order.
        Opts.Place = true;
        Graph Direct = *In;
        llvm::Expected<MPASStats> D = runMPAS(Direct, T, Opts);
        ASSERT_TRUE(bool(D)) << llvm::toString(D.takeError());
        EXPECT_EQ(Direct.Order, Placed.Order);
        EXPECT_EQ(D->PeakL1UB, After.PeakL1UB);
        EXPECT_TRUE(D->Placed);
      }
}

TEST(PlacementTest, DrainsWaitInL0UnderTheOneBufferRule) {
  // With the target, a COPY of a result out of L0 into a counted tier runs
  // as late as its consumers and the next ALLOC of its L0 tier allow: the
  // order still verifies under the one-buffer rule, the peak L1+UB is no
  // higher than the plain placement's, and some drain does move.
  TargetDesc T = TargetDesc::davinci();
  unsigned Moved = 0;
  for (uint64_t Seed : {5, 11})
    for (const std::unique_ptr<Graph> &In :
         test::generatedFamilies(T, 3, 2, Seed))
      for (Traversal O : {Traversal::Free, Traversal::Staged})
        for (MPASWeights W :
             {MPASWeights::Balanced, MPASWeights::MemoryFirst,
              MPASWeights::CriticalityFirst, MPASWeights::InputOrder}) {
          if (O == Traversal::Staged && W != MPASWeights::Balanced)
            continue;
          SCOPED_TRACE(In->Name + " order " + traversalName(O).str() +
                       " weights " + weightsName(W).str());
          MPASOptions Opts;
          Opts.L0 = L0Mode::Single;
          Opts.Order = O;
          Opts.Weights = W;
          Opts.Place = false;
          Graph Raw = *In;
          llvm::Expected<MPASStats> S = runMPAS(Raw, T, Opts);
          ASSERT_TRUE(bool(S)) << llvm::toString(S.takeError());
          Graph Plain = Raw, Drained = Raw;
          Plain.Order = placeLate(Raw, Raw.Order);
          Drained.Order = placeLate(Raw, Raw.Order, &T);
          EXPECT_EQ(errors(Drained, T, /*L0Single=*/true), 0u);
          EXPECT_LE(replay(Drained, T).PeakL1UB, replay(Plain, T).PeakL1UB);
          EXPECT_EQ(placeLate(Drained, Drained.Order, &T), Drained.Order);
          Moved += Drained.Order != Plain.Order;
        }
  EXPECT_GT(Moved, 0u);
}

TEST(PlacementTest, AFreeAfterAnotherBuffersAllocKeepsItsPlace) {
  // The FREE of b2 is stated after the ALLOC of b1 (n2), which a later
  // ALLOC needs. Pulling n2 late would take b2's FREE along and leave b1
  // and b2 live together in L0A; the FREE comes where the order has it,
  // with n2 before it (found by dan-fuzz-stages: a --l0=single order broke
  // the rule once placed).
  expectPlacementKeepsL0Single(R"(graph @FreeAfterOtherAlloc {
  n0 = alloc b0 L1 64
  n1 = COPY_IN MTE2 10 (b0) after n0
  n2 = alloc b1 L0A 32 after n1
  n3 = free b1 L0A 32 after n2
  n4 = alloc b2 L0A 16
  n5 = free b2 L0A 16 after n2, n4
  n6 = alloc b3 UB 16 after n2
  n7 = ADD VECTOR 5 (b3, b0) after n1, n6
  n8 = free b3 UB 16 after n7
  n9 = free b0 L1 64 after n7
})");
}

TEST(PlacementTest, AFreeAfterAnotherFreeKeepsItsPlace) {
  // The FREE of b1 (L0A) is stated after the FREE of b9, which follows
  // b9's COPY_IN, a lazy node the ADD pulls. Pulling it late would delay
  // both FREEs and leave b1 live when b2 (L0A) is allocated; both FREEs
  // come where the order has them (found by dan-fuzz-stages).
  expectPlacementKeepsL0Single(R"(graph @FreeAfterOtherFree {
  n0 = alloc b0 L1 64
  n1 = COPY_IN MTE2 10 (b0) after n0
  n2 = alloc b9 L1 8
  n3 = COPY_IN MTE2 1 (b9) after n2
  n4 = free b9 L1 8 after n2, n3
  n5 = alloc b1 L0A 16
  n6 = free b1 L0A 16 after n4, n5
  n7 = alloc b2 L0A 32
  n8 = free b2 L0A 32 after n7
  n9 = ADD VECTOR 5 (b0) after n1, n3
  n10 = free b0 L1 64 after n9
})");
}

TEST(PlacementTest, AFreeComesNoLaterThanInTheOrder) {
  // b1 (L0C) is loaded but no operation of b1 follows; an edge makes the
  // ADD wait for its load, so the ADD would pull the load, and b1's FREE
  // with it, past the ALLOC of b2 (L0C): the FREE is pulled where the
  // order has it instead (found by dan-fuzz-stages).
  expectPlacementKeepsL0Single(R"(graph @LoadWithoutUse {
  n0 = alloc b1 L0C 14
  n1 = COPY_IN MTE2 5 (b1) after n0
  n2 = free b1 L0C 14 after n0, n1
  n3 = alloc b2 L0C 8
  n5 = alloc b3 UB 16
  n6 = COPY_IN MTE2 5 (b3) after n5
  n7 = ADD VECTOR 5 (b3) after n1, n6
  n4 = free b2 L0C 8 after n3, n7
  n8 = free b3 UB 16 after n7
})");
}
