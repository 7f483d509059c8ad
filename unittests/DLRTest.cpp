//===- DLRTest.cpp - Stage 2: free list, victim scores, the pass ----------===//

#include "dan/Transforms/DLR.h"
#include "TestUtil.h"
#include "dan/Analysis/Replay.h"
#include "dan/Analysis/Verifier.h"
#include "dan/IR/Diagnostic.h"
#include "dan/IR/Printer.h"
#include "dan/Target/Davinci/Davinci.h"
#include "dan/Transforms/FreeList.h"
#include <cmath>
#include <gtest/gtest.h>

using namespace dan;
using namespace dan::test;
using Segs = std::vector<std::pair<uint64_t, uint64_t>>;

//===----------------------------------------------------------------------===//
// FreeList
//===----------------------------------------------------------------------===//

TEST(FreeListTest, StartsAsOneSegment) {
  FreeList F(1000);
  EXPECT_EQ(F.segments(), (Segs{{0, 1000}}));
  EXPECT_EQ(F.freeBytes(), 1000u);
  EXPECT_EQ(F.find(1000, FitPolicy::Best), 0u);
  EXPECT_EQ(F.find(1001, FitPolicy::Best), std::nullopt);
  EXPECT_EQ(F.find(1001, FitPolicy::First), std::nullopt);
}

TEST(FreeListTest, NextFitRotates) {
  FreeList F(400);
  // Nothing placed yet: the cursor is at 0.
  EXPECT_EQ(F.find(100, FitPolicy::Next), 0u);
  F.take(0, 100);
  F.take(100, 100);
  F.release(0, 100);
  // Holes [0, 100) and [200, 400): next fit starts after the last take.
  EXPECT_EQ(F.find(100, FitPolicy::Next), 200u);
  EXPECT_EQ(F.find(100, FitPolicy::Best), 0u);
  F.take(200, 100);
  F.take(300, 100);
  // At the end of the tier it wraps to the lowest room that fits.
  EXPECT_EQ(F.find(100, FitPolicy::Next), 0u);
  EXPECT_EQ(F.find(101, FitPolicy::Next), std::nullopt);
  // The cursor may sit inside a free segment: the room starts there.
  F.release(200, 200);
  F.take(0, 50);
  EXPECT_EQ(F.find(100, FitPolicy::Next), 200u);
  F.take(250, 10);
  EXPECT_EQ(F.find(100, FitPolicy::Next), 260u);
}

TEST(FreeListTest, EmptyTier) {
  FreeList F(0);
  EXPECT_TRUE(F.segments().empty());
  EXPECT_EQ(F.find(1, FitPolicy::Best), std::nullopt);
  EXPECT_EQ(F.find(1, FitPolicy::First), std::nullopt);
}

TEST(FreeListTest, TakeSplits) {
  FreeList F(1000);
  F.take(0, 100); // at the start
  EXPECT_EQ(F.segments(), (Segs{{100, 1000}}));
  F.take(900, 100); // at the end
  EXPECT_EQ(F.segments(), (Segs{{100, 900}}));
  F.take(400, 100); // in the middle: two segments
  EXPECT_EQ(F.segments(), (Segs{{100, 400}, {500, 900}}));
  F.take(100, 300); // a whole segment
  EXPECT_EQ(F.segments(), (Segs{{500, 900}}));
  EXPECT_EQ(F.freeBytes(), 400u);
}

TEST(FreeListTest, ReleaseMerges) {
  FreeList F(500);
  for (uint64_t O = 0; O != 500; O += 100)
    F.take(O, 100);
  EXPECT_TRUE(F.segments().empty());
  F.release(0, 100); // alone
  F.release(400, 100);
  EXPECT_EQ(F.segments(), (Segs{{0, 100}, {400, 500}}));
  F.release(100, 100); // merges to the left
  EXPECT_EQ(F.segments(), (Segs{{0, 200}, {400, 500}}));
  F.release(300, 100); // merges to the right
  EXPECT_EQ(F.segments(), (Segs{{0, 200}, {300, 500}}));
  F.release(200, 100); // merges both sides
  EXPECT_EQ(F.segments(), (Segs{{0, 500}}));
  EXPECT_EQ(F.freeBytes(), 500u);
}

TEST(FreeListTest, ZeroSizeIsNoOp) {
  FreeList F(100);
  F.take(50, 0);
  F.release(50, 0);
  EXPECT_EQ(F.segments(), (Segs{{0, 100}}));
}

TEST(FreeListTest, BestAndFirstFit) {
  // Free: [100,400) 300, [500,650) 150, [750,900) 150, as in fit.dan.
  FreeList F(1000);
  F.take(0, 100);
  F.take(400, 100);
  F.take(650, 100);
  F.take(900, 100);
  EXPECT_EQ(F.segments(), (Segs{{100, 400}, {500, 650}, {750, 900}}));
  // Best: the smallest that fits; equal sizes go to the lower offset.
  EXPECT_EQ(F.find(120, FitPolicy::Best), 500u);
  EXPECT_EQ(F.find(150, FitPolicy::Best), 500u);
  EXPECT_EQ(F.find(151, FitPolicy::Best), 100u);
  EXPECT_EQ(F.find(301, FitPolicy::Best), std::nullopt);
  // First: the lowest offset that fits.
  EXPECT_EQ(F.find(120, FitPolicy::First), 100u);
  EXPECT_EQ(F.find(300, FitPolicy::First), 100u);
  EXPECT_EQ(F.find(301, FitPolicy::First), std::nullopt);
  F.take(100, 300);
  EXPECT_EQ(F.find(120, FitPolicy::First), 500u);
}

TEST(FreeListTest, BestFitIndexFollowsMerges) {
  // A merge must replace the merged sizes in the size index.
  FreeList F(300);
  F.take(0, 300);
  F.release(0, 100);
  F.release(200, 100);
  EXPECT_EQ(F.find(100, FitPolicy::Best), 0u);
  EXPECT_EQ(F.find(200, FitPolicy::Best), std::nullopt);
  F.release(100, 100);
  EXPECT_EQ(F.find(300, FitPolicy::Best), 0u);
  EXPECT_EQ(F.find(100, FitPolicy::Best), 0u);
  F.take(0, 300);
  EXPECT_EQ(F.find(1, FitPolicy::Best), std::nullopt);
}

//===----------------------------------------------------------------------===//
// Victim scores (eqs. 27-31)
//===----------------------------------------------------------------------===//

TEST(DLRScoreTest, TrafficAndCycles) {
  TargetDesc T = TargetDesc::davinci(); // 150 + 2 * size
  EXPECT_EQ(TargetDesc::spillTraffic(100, /*DDRBacked=*/true), 100u);
  EXPECT_EQ(TargetDesc::spillTraffic(100, /*DDRBacked=*/false), 200u);
  // A clean SPILL_OUT moves nothing and takes 0 cycles.
  EXPECT_EQ(T.spillCycles(davinci::UB, 100, true), 350u);
  EXPECT_EQ(T.spillCycles(davinci::UB, 100, false), 700u);
  T.setSpillCost(10, 1);
  EXPECT_EQ(T.spillCycles(davinci::UB, 100, true), 110u);
  EXPECT_EQ(T.spillCycles(davinci::UB, 100, false), 220u);
}

TEST(DLRScoreTest, VictimRulesExample) {
  // The three candidates of test/dan-dlr/victim-rules.dan.
  TargetDesc T = TargetDesc::davinci();
  DLROptions O;
  auto Score = [&](uint64_t D, bool Clean) {
    return spillScore(D, TargetDesc::spillTraffic(100, Clean),
                      T.spillCycles(davinci::UB, 100, Clean), O);
  };
  double B0 = Score(4, false), B1 = Score(3, true), B2 = Score(5, false);
  EXPECT_NEAR(B0, 4.0 / 900, 1e-12);
  EXPECT_NEAR(B1, 3.0 / 450, 1e-12);
  EXPECT_NEAR(B2, 5.0 / 900, 1e-12);
  EXPECT_GT(B1, B2);
  EXPECT_GT(B2, B0);
}

TEST(DLRScoreTest, Lambdas) {
  DLROptions O;
  O.LambdaByte = 2;
  O.LambdaCyc = 0.5;
  EXPECT_NEAR(spillScore(10, 100, 400, O), 10.0 / (200 + 200), 1e-12);
  // Only traffic: the clean buffer's half traffic doubles its score.
  O.LambdaByte = 1;
  O.LambdaCyc = 0;
  EXPECT_NEAR(spillScore(6, 100, 999, O) / spillScore(6, 200, 1, O), 2.0, 1e-9);
  // Zero weights or a free spill: epsilon keeps the score finite, ordered
  // by distance.
  O.LambdaByte = O.LambdaCyc = 0;
  double Near = spillScore(1, 100, 100, O), Far = spillScore(2, 100, 100, O);
  EXPECT_TRUE(std::isfinite(Far));
  EXPECT_GT(Far, Near);
  EXPECT_EQ(spillScore(0, 0, 0, DLROptions()), 0.0);
}

//===----------------------------------------------------------------------===//
// The pass
//===----------------------------------------------------------------------===//

static unsigned verify(const Graph &G, const TargetDesc &T) {
  return verifyGraph(
      G, T, VerifyOptions(),
      [](llvm::SMLoc, llvm::SourceMgr::DiagKind, const llvm::Twine &) {});
}

// Node ids with gaps: N, the first spill id, is one past the largest, 90.
static const char *Gappy = R"(graph @g {
  n0 = alloc b0 UB 512
  n10 = COPY_IN MTE2 80 (b0) after n0
  n20 = alloc b1 UB 512
  n30 = V VECTOR 80 (b1) after n20
  n40 = alloc b2 UB 512
  n50 = ADD VECTOR 100 (b2, b1) after n30, n40
  n60 = free b1 UB 512 after n50
  n70 = MUL VECTOR 100 (b2, b0) after n10, n50
  n80 = free b0 UB 512 after n70
  n89 = free b2 UB 512 after n70
})";

TEST(DLRTest, PlansAndNumbersSpillsAfterTheLargestId) {
  llvm::SourceMgr SM;
  std::string Diags;
  auto G = parse(SM, Gappy, Diags);
  ASSERT_TRUE(G) << Diags;
  TargetDesc T = TargetDesc::davinci();
  llvm::Expected<DLRStats> S = runDLR(*G, T, DLROptions::oneSetting());
  ASSERT_TRUE(bool(S)) << llvm::toString(S.takeError());
  EXPECT_EQ(S->Spills, 1u);
  EXPECT_EQ(S->ExtraTraffic, 512u); // b0 is DDR-backed
  EXPECT_EQ(S->SpillCycles, 150u + 2 * 512);
  EXPECT_EQ(S->Evictions[static_cast<unsigned>(davinci::UB)], 1u);
  EXPECT_NE(idx(*G, 90), UINT32_MAX);
  EXPECT_EQ((*G)[idx(*G, 90)].Kind, NodeKind::SpillOut);
  EXPECT_EQ((*G)[idx(*G, 91)].Kind, NodeKind::SpillIn);
  EXPECT_EQ(verify(*G, T), 0u);
  // The ruler agrees with the pass's own count.
  ReplayResult R = replay(*G, T);
  EXPECT_EQ(R.SpillCount, S->Spills);
  EXPECT_EQ(R.ExtraTraffic, S->ExtraTraffic);
}

TEST(DLRTest, Deterministic) {
  std::string Out[2];
  for (std::string &O : Out) {
    llvm::SourceMgr SM;
    std::string Diags;
    auto G = parse(SM, Gappy, Diags);
    ASSERT_TRUE(G) << Diags;
    ASSERT_TRUE(
        bool(runDLR(*G, TargetDesc::davinci(), DLROptions::oneSetting())));
    O = print(*G);
  }
  EXPECT_EQ(Out[0], Out[1]);
}

TEST(DLRTest, RefusesAPlanAtItsNode) {
  llvm::SourceMgr SM;
  std::string Diags;
  auto G = parse(SM, R"(graph @g {
  n0 = alloc b0 UB 8
  n1 = alloc b1 UB 8 at 0
  n2 = free b1 UB 8
  n3 = free b0 UB 8
})",
                 Diags);
  ASSERT_TRUE(G) << Diags;
  std::string Before = print(*G);
  llvm::Expected<DLRStats> S =
      runDLR(*G, TargetDesc::davinci(), DLROptions::oneSetting());
  ASSERT_FALSE(bool(S));
  bool Located = false;
  llvm::handleAllErrors(S.takeError(), [&](const DiagError &D) {
    ASSERT_EQ(D.diags().size(), 1u);
    EXPECT_EQ(D.diags()[0].Loc.getPointer(), (*G)[1].Loc.getPointer());
    EXPECT_NE(D.diags()[0].Msg.find("already has a memory plan"),
              std::string::npos);
    Located = true;
  });
  EXPECT_TRUE(Located);
  EXPECT_EQ(print(*G), Before);
}

TEST(DLRTest, RefusesOversizedBuffersAndOperations) {
  llvm::SourceMgr SM;
  std::string Diags;
  auto G = parse(SM, R"(graph @g {
  n0 = alloc b0 UB 600
  n1 = alloc b1 UB 600
  n2 = V VECTOR 1 (b0, b1)
  n3 = free b0 UB 600
  n4 = free b1 UB 600
})",
                 Diags);
  ASSERT_TRUE(G) << Diags;
  TargetDesc T = TargetDesc::davinci();
  llvm::Expected<DLRStats> S = runDLR(*G, T, DLROptions::oneSetting());
  ASSERT_FALSE(bool(S));
  std::string Msg = llvm::toString(S.takeError());
  EXPECT_NE(Msg.find("n2 (V) needs b0 (600), b1 (600) resident together in "
                     "tier UB: total size 1200, capacity 1024"),
            std::string::npos)
      << Msg;
  T.setCapacity(davinci::UB, 500);
  S = runDLR(*G, T, DLROptions::oneSetting());
  ASSERT_FALSE(bool(S));
  Msg = llvm::toString(S.takeError());
  EXPECT_NE(Msg.find("b0 (size 600) is larger than tier UB (capacity 500)"),
            std::string::npos)
      << Msg;
  EXPECT_NE(Msg.find("b1 (size 600)"), std::string::npos) << Msg;
}
