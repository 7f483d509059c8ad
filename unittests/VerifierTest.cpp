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
