#include "dan/Target/Target.h"
#include "dan/Target/Davinci/Davinci.h"
#include <gtest/gtest.h>

using namespace dan;

/// Whether \p E is a failure; consumes it either way.
static bool fails(llvm::Error E) {
  bool Failed = bool(E);
  llvm::consumeError(std::move(E));
  return Failed;
}

TEST(TargetTest, DavinciDefaults) {
  TargetDesc T = TargetDesc::davinci();
  EXPECT_EQ(T.capacity(davinci::L1), 4096u);
  EXPECT_EQ(T.capacity(davinci::UB), 1024u);
  EXPECT_EQ(T.capacity(davinci::L0A), 256u);
  EXPECT_EQ(T.capacity(davinci::L0B), 256u);
  EXPECT_EQ(T.capacity(davinci::L0C), 512u);
  EXPECT_TRUE(T.countsInPeak(davinci::L1));
  EXPECT_TRUE(T.countsInPeak(davinci::UB));
  EXPECT_FALSE(T.countsInPeak(davinci::L0A));
  EXPECT_TRUE(T.isL0(davinci::L0C));
  EXPECT_FALSE(T.isL0(davinci::UB));
  EXPECT_EQ(T.spillPath(davinci::UB).Out, davinci::MTE3);
  EXPECT_EQ(T.spillPath(davinci::L1).In, davinci::MTE2);
  EXPECT_TRUE(T.uniformSpill());
  EXPECT_EQ(T.transferCycles(davinci::L1, 100), 350u);
  EXPECT_EQ(T.spillOutCycles(davinci::L1, 100, /*DDRBacked=*/true), 0u);
  EXPECT_EQ(T.spillInCycles(davinci::L1, 100), 350u);
}

TEST(TargetTest, Overrides) {
  TargetDesc T = TargetDesc::davinci();
  ASSERT_FALSE(fails(T.parseCapacity("UB=2048")));
  EXPECT_EQ(T.capacity(davinci::UB), 2048u);
  ASSERT_FALSE(fails(T.parseSpillCost("0,4")));
  EXPECT_EQ(T.transferCycles(davinci::UB, 10), 40u);
}

TEST(TargetTest, BadOverrides) {
  TargetDesc T = TargetDesc::davinci();
  llvm::Error E = T.parseCapacity("U=10");
  ASSERT_TRUE(bool(E));
  EXPECT_NE(llvm::toString(std::move(E)).find("did you mean 'UB'?"),
            std::string::npos);
  EXPECT_TRUE(fails(T.parseCapacity("UB")));
  EXPECT_TRUE(fails(T.parseCapacity("UB=-1")));
  EXPECT_TRUE(fails(T.parseSpillCost("150")));
  EXPECT_TRUE(fails(T.parseSpillCost("a,b")));
  EXPECT_EQ(T.capacity(davinci::UB), 1024u);
}

TEST(TargetTest, OpCycles) {
  TargetDesc T = TargetDesc::davinci();
  // The traces' values at their tile shapes.
  EXPECT_EQ(davinci::opCycles(davinci::OpCost::CopyIn, 128), 325u);
  EXPECT_EQ(davinci::opCycles(davinci::OpCost::MoveL0, 128), 31u);
  EXPECT_EQ(davinci::opCycles(davinci::OpCost::MoveL0Transposed, 128), 54u);
  EXPECT_EQ(davinci::opCycles(davinci::OpCost::Mmad, 8 * 8 * 8), 128u);
  EXPECT_EQ(davinci::opCycles(davinci::OpCost::FixpOut, 256), 263u);
  EXPECT_EQ(davinci::opCycles(davinci::OpCost::CopyOutUB, 128), 191u);
  EXPECT_EQ(davinci::opCycles(davinci::OpCost::CopyOutUB, 2), 150u);
  EXPECT_EQ(davinci::opCycles(davinci::OpCost::RowSum, 12345), 342u);
  // Saturates instead of wrapping.
  EXPECT_EQ(davinci::opCycles(davinci::OpCost::CopyIn, UINT64_MAX), UINT64_MAX);
}

TEST(TargetTest, ExecutionModelRules) {
  TargetDesc T = TargetDesc::davinci();
  EXPECT_TRUE(T.loadsFromDDR("COPY_IN"));
  EXPECT_FALSE(T.loadsFromDDR("COPY_OUT"));
  EXPECT_FALSE(T.loadsFromDDR("copy_in"));
  EXPECT_EQ(TargetDesc::spillTraffic(100, /*DDRBacked=*/true), 100u);
  EXPECT_EQ(TargetDesc::spillTraffic(100, /*DDRBacked=*/false), 200u);
  EXPECT_EQ(TargetDesc::spillTraffic(UINT64_MAX, false), UINT64_MAX);
  EXPECT_EQ(T.nodePipe(NodeKind::Alloc, davinci::CUBE, davinci::L1),
            std::nullopt);
  EXPECT_EQ(T.nodePipe(NodeKind::Free, davinci::CUBE, davinci::L1),
            std::nullopt);
  EXPECT_EQ(T.nodePipe(NodeKind::Op, davinci::CUBE, davinci::L1),
            davinci::CUBE);
  EXPECT_EQ(T.nodePipe(NodeKind::SpillOut, davinci::CUBE, davinci::L1),
            davinci::MTE3);
  EXPECT_EQ(T.nodePipe(NodeKind::SpillIn, davinci::CUBE, davinci::L1),
            davinci::MTE2);
  EXPECT_EQ(T.nodeCycles(NodeKind::Op, 7, davinci::L1, 100, false), 7u);
  EXPECT_EQ(T.nodeCycles(NodeKind::Alloc, 7, davinci::L1, 100, false), 0u);
  EXPECT_EQ(T.nodeCycles(NodeKind::SpillOut, 7, davinci::L1, 100, true), 0u);
  EXPECT_EQ(T.nodeCycles(NodeKind::SpillOut, 7, davinci::L1, 100, false), 350u);
  EXPECT_EQ(T.nodeCycles(NodeKind::SpillIn, 7, davinci::L1, 100, true), 350u);
}

TEST(TargetTest, Header) {
  auto Header = [](const TargetDesc &T) {
    std::string S;
    llvm::raw_string_ostream OS(S);
    T.printHeader(OS);
    return S;
  };
  TargetDesc T = TargetDesc::davinci();
  EXPECT_EQ(Header(T), "target davinci");
  T.setSpillCost(100, 3);
  T.setCapacity(davinci::L0C, 1024);
  T.setCapacity(davinci::L1, 192);
  EXPECT_EQ(Header(T),
            "target davinci { L1 = 192, L0C = 1024, spill_cost = 100 + 3 * "
            "size }");
  EXPECT_NE(T, TargetDesc::davinci());
  // Back to the defaults: nothing to write.
  T.setSpillCost(150, 2);
  T.setCapacity(davinci::L0C, 512);
  T.setCapacity(davinci::L1, 4096);
  EXPECT_EQ(T, TargetDesc::davinci());
  EXPECT_EQ(Header(T), "target davinci");
  EXPECT_EQ(T.headerKeys().size(), T.numTiers() + 1);
  EXPECT_EQ(T.headerKeys().back(), "spill_cost");
}
