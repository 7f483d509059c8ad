#include "dan/Analysis/Verifier.h"
#include "TestUtil.h"
#include <gtest/gtest.h>

using namespace dan;
using namespace dan::test;

namespace {
struct Result {
  unsigned Errors = 0;
  std::vector<std::string> Messages;
};

Result verify(const char *Text, VerifyOptions Opts = {}) {
  llvm::SourceMgr SM;
  std::string Diags;
  auto G = parse(SM, Text, Diags);
  EXPECT_TRUE(G) << Diags;
  Result R;
  if (!G)
    return R;
  R.Errors = verifyGraph(
      *G, TargetDesc::davinci(), Opts,
      [&](llvm::SMLoc, llvm::SourceMgr::DiagKind Kind, const llvm::Twine &Msg) {
        if (Kind == llvm::SourceMgr::DK_Error)
          R.Messages.push_back(Msg.str());
      });
  return R;
}
} // namespace

TEST(VerifierTest, AcceptsAValidGraph) {
  Result R = verify(R"(graph @g {
    n0 = alloc b0 UB 64
    n1 = COPY_IN MTE2 80 (b0) after n0
    n2 = free b0 UB 64 after n1
  })");
  EXPECT_EQ(R.Errors, 0u);
}

TEST(VerifierTest, ReportsACycleOnce) {
  Result R = verify(R"(graph @g {
    n0 = X VECTOR 1 () after n2
    n1 = X VECTOR 1 () after n0
    n2 = X VECTOR 1 () after n1
  })");
  ASSERT_EQ(R.Errors, 1u);
  EXPECT_EQ(R.Messages[0], "the edges form a cycle: n0 -> n1 -> n2 -> n0");
}

TEST(VerifierTest, ErrorLimitStopsTheReport) {
  std::string Text = "graph @g {\n";
  for (int I = 0; I != 50; ++I)
    Text += "n" + std::to_string(I) + " = X VECTOR 1 (b" + std::to_string(I) +
            ")\n";
  Text += "}";
  VerifyOptions Opts;
  Opts.ErrorLimit = 5;
  Result R = verify(Text.c_str(), Opts);
  EXPECT_EQ(R.Errors, 5u);
  Opts.ErrorLimit = 0;
  EXPECT_EQ(verify(Text.c_str(), Opts).Errors, 50u);
}

TEST(VerifierTest, AgainstKeepsThePlan) {
  const char *Stage2 = R"(graph @g {
    n0 = alloc b0 UB 64 at 0
    n1 = free b0 UB 64 after n0
    n2 = alloc b1 UB 64 at 0 reuse n1
    n3 = free b1 UB 64 after n2
  })";
  llvm::SourceMgr SM;
  std::string Diags;
  auto S2 = parse(SM, Stage2, Diags);
  ASSERT_TRUE(S2) << Diags;
  VerifyOptions Opts;
  Opts.Against = S2.get();
  EXPECT_EQ(verify(Stage2, Opts).Errors, 0u);
  Result Moved = verify(R"(graph @g {
    n0 = alloc b0 UB 64 at 64
    n1 = free b0 UB 64 after n0
    n2 = alloc b1 UB 64 at 0
    n3 = free b1 UB 64 after n2
  })",
                        Opts);
  ASSERT_GE(Moved.Errors, 1u);
  EXPECT_NE(Moved.Messages[0].find("stage 3 keeps every offset"),
            std::string::npos)
      << Moved.Messages[0];
}

namespace {
/// K tiles, each loaded into its own buffer before one SYNC and stored
/// after it: every store follows its alloc, and every load precedes its
/// free, only through the SYNC. \p BrokenTile's store is not after the
/// SYNC, so no path orders it after its alloc or its load before its free.
std::string tilesAroundASync(int K, int BrokenTile = -1) {
  std::string T = "graph @g {\n", Loads;
  auto Id = [](int I) { return "n" + std::to_string(I); };
  int Sync = 3 * K;
  for (int I = 0; I != K; ++I) {
    std::string B = "b" + std::to_string(I);
    T += Id(I) + " = alloc " + B + " UB 1\n";
    T += Id(K + I) + " = COPY_IN MTE2 10 (" + B + ") after " + Id(I) + "\n";
    Loads += (I ? ", " : "") + Id(K + I);
  }
  T += Id(Sync) + " = SYNC VECTOR 1 () after " + Loads + "\n";
  for (int I = 0; I != K; ++I) {
    std::string B = "b" + std::to_string(I);
    std::string Store = Id(Sync + 1 + I);
    T += Store + " = COPY_OUT MTE3 10 (" + B + ")" +
         (I == BrokenTile ? "" : " after " + Id(Sync)) + "\n";
    T += Id(Sync + 1 + K + I) + " = free " + B + " UB 1 after " + Store + "\n";
  }
  return T + "}";
}
} // namespace

// The path searches stop at a node with an edge to the use they look for
// (the SYNC, reached from each alloc); the answers stay exact, in both
// directions.
TEST(VerifierTest, UsesBehindAHub) {
  EXPECT_EQ(verify(tilesAroundASync(100).c_str()).Errors, 0u);
  Result R = verify(tilesAroundASync(100, /*BrokenTile=*/7).c_str());
  ASSERT_EQ(R.Errors, 2u);
  EXPECT_EQ(R.Messages[0], "n308 (COPY_OUT) uses b7, but no path of edges "
                           "orders it after its alloc n7 (alloc b7)");
  EXPECT_EQ(R.Messages[1], "n107 (COPY_IN) uses b7, but no path of edges "
                           "orders it before its free n408 (free b7)");
}

// A search that finds the use it looks for still expands the whole node
// where it found it. The uses are asked about in rank order (the verifier's
// Kahn order: n5, then n6, which waits for n0). n5's search stops while it
// expands n2, at n3 (an edge to n5); n6 is reached only through n4, n2's
// other successor.
TEST(VerifierTest, UsesFoundMidExpansion) {
  EXPECT_EQ(verify(R"(graph @g {
    n0 = X VECTOR 1 ()
    n1 = alloc b0 UB 64
    n2 = X VECTOR 1 () after n1
    n3 = X VECTOR 1 () after n2
    n4 = X VECTOR 1 () after n2
    n5 = X VECTOR 1 (b0) after n3
    n6 = X VECTOR 1 (b0) after n0, n4
    n7 = free b0 UB 64 after n5, n6
  })")
                .Errors,
            0u);
}

// A use with more edges in than the searches mark (64) is searched for
// without marks, and the marks an earlier question left count for nothing:
// n104's question marks n102 and n103 and stops at n102; n105's question
// (100 edges in) then reaches n103, which has no edge to n105. n105 is
// reached only when the alloc reaches n0.
TEST(VerifierTest, UseWithManyEdgesIn) {
  auto Graph = [](bool AllocReachesRoot) {
    std::string T = "graph @g {\n";
    T += AllocReachesRoot ? "n0 = X VECTOR 1 () after n101\n"
                          : "n0 = X VECTOR 1 ()\n";
    std::string Preds;
    for (int I = 1; I <= 100; ++I) {
      T += "n" + std::to_string(I) + " = X VECTOR 1 () after n0\n";
      Preds += (I > 1 ? ", n" : "n") + std::to_string(I);
    }
    return T + R"(n101 = alloc b0 UB 64
      n102 = X VECTOR 1 () after n101
      n103 = X VECTOR 1 () after n102
      n104 = X VECTOR 1 (b0) after n102, n103
      n105 = X VECTOR 1 (b0) after )" +
           Preds + "\nn106 = free b0 UB 64 after n104, n105\n}";
  };
  // The file order is not a schedule here (n0 comes before n101).
  VerifyOptions Unscheduled;
  Unscheduled.Schedule = false;
  EXPECT_EQ(verify(Graph(true).c_str(), Unscheduled).Errors, 0u);
  Result R = verify(Graph(false).c_str(), Unscheduled);
  ASSERT_EQ(R.Errors, 1u);
  EXPECT_EQ(R.Messages[0], "n105 (X) uses b0, but no path of edges orders "
                           "it after its alloc n101 (alloc b0)");
}
