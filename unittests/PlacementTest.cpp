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
    if (N.Kind == NodeKind::Op && !TargetDesc::loadsFromDDR(G.opName(N)))
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
        for (unsigned TI = 0; TI != NumTiers; ++TI)
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
