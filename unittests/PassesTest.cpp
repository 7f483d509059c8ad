//===- PassesTest.cpp - The pass registry and its pipelines ---------------===//

#include "TestUtil.h"
#include "dan/Passes/Pipeline.h"

using namespace dan;
using namespace dan::test;

namespace {

std::string errorOf(llvm::StringRef Text) {
  llvm::Expected<std::vector<StagePass>> P = parsePassPipeline(Text);
  if (P)
    return "";
  return llvm::toString(P.takeError());
}

TEST(PassesTest, DefaultsAreTheStagesOwn) {
  // One source of defaults: a pass written without options is a
  // default-constructed options object of its stage.
  llvm::Expected<std::vector<StagePass>> P = parsePassPipeline("mpas,dlr,cpe");
  ASSERT_TRUE(bool(P));
  ASSERT_EQ(P->size(), 3u);
  EXPECT_EQ((*P)[0].MPAS.L0, MPASOptions().L0);
  EXPECT_EQ((*P)[0].MPAS.Order, MPASOptions().Order);
  EXPECT_EQ((*P)[1].DLR.AutoHorizon, DLROptions().AutoHorizon);
  EXPECT_EQ((*P)[1].DLR.Fit, DLROptions().Fit);
  EXPECT_EQ((*P)[2].CPE.Effort, CPEOptions().Effort);
  EXPECT_EQ((*P)[0].SampleAbove, SelectOptions().SampleAbove);
}

TEST(PassesTest, PrintedPipelineReadsBack) {
  for (llvm::StringRef Text :
       {"mpas,dlr,cpe", "mpas<l0=single;order=groups;group=0;no-place>",
        "dlr<horizon=off;lambda-byte=0.25;fit=best>,cpe<mode=freeze>",
        "dlr<horizon=123;lambda-cyc=1e-300>",
        "cpe<time-budget=1.5;move=ops-and-buffers;effort=0>", ""}) {
    llvm::Expected<std::vector<StagePass>> P = parsePassPipeline(Text);
    ASSERT_TRUE(bool(P)) << Text.str();
    std::string Printed = printPassPipeline(*P);
    llvm::Expected<std::vector<StagePass>> Back = parsePassPipeline(Printed);
    ASSERT_TRUE(bool(Back)) << Printed;
    EXPECT_EQ(printPassPipeline(*Back), Printed);
  }
  llvm::Expected<std::vector<StagePass>> P =
      parsePassPipeline("dlr<lambda-byte=0.1>");
  ASSERT_TRUE(bool(P));
  EXPECT_NE(printPassPipeline(*P).find("lambda-byte=0.1;"), std::string::npos);
}

TEST(PassesTest, ErrorsNameWhatIsWrong) {
  EXPECT_EQ(errorOf("mpas,foo"),
            "unknown pass 'foo'; the passes are mpas, dlr and cpe");
  EXPECT_EQ(errorOf("cpe<mode=fast>"),
            "invalid value 'fast' of option 'mode' of pass 'cpe': expected "
            "refine, freeze or ignore");
  EXPECT_EQ(errorOf("mpas<place=maybe>"),
            "invalid value 'maybe' of option 'place' of pass 'mpas': "
            "expected true or false");
  EXPECT_EQ(errorOf("dlr<no-fit>"),
            "unknown option 'no-fit' of pass 'dlr'; its options are fit, "
            "evict, victims, lambda-byte, lambda-cyc and horizon");
  EXPECT_EQ(errorOf("dlr,cpe,dlr"),
            "pass 'dlr' cannot follow pass 'dlr': dlr leaves a memory plan, "
            "and dlr takes a graph without one");
  EXPECT_EQ(errorOf("mpas<l0=single>>"),
            "the options of pass 'mpas' must be one '<...>' after its name");
}

TEST(PassesTest, VerifyAfterPassReportsABrokenPlan) {
  llvm::SourceMgr SM;
  std::string Diags;
  std::unique_ptr<Graph> G = parse(SM, SpillExample, Diags);
  ASSERT_TRUE(G) << Diags;
  std::vector<std::string> Messages;
  auto Collect = [&](llvm::SMLoc, llvm::SourceMgr::DiagKind Kind,
                     const llvm::Twine &Msg) {
    if (Kind == llvm::SourceMgr::DK_Error)
      Messages.push_back(Msg.str());
  };
  EXPECT_FALSE(bool(verifyAfterPass(*G, G->Target, "dlr", nullptr, Collect)));
  EXPECT_TRUE(Messages.empty());
  // A pass that moved a buffer off its tier's end leaves an illegal plan.
  (*G)[0].Offset = 1u << 20;
  llvm::Error E = verifyAfterPass(*G, G->Target, "dlr", nullptr, Collect);
  ASSERT_TRUE(bool(E));
  EXPECT_EQ(llvm::toString(std::move(E))
                .rfind("the graph after pass 'dlr' does not verify: ", 0),
            0u);
  EXPECT_FALSE(Messages.empty());
  // The check of a pipeline's result says the same without a pass.
  Messages.clear();
  E = verifyPipelineResult(*G, G->Target, Collect);
  ASSERT_TRUE(bool(E));
  EXPECT_EQ(llvm::toString(std::move(E)),
            "the result of the passes does not verify: " +
                std::to_string(Messages.size()) +
                (Messages.size() == 1 ? " error" : " errors") +
                " (--verify-each finds the pass)");
  EXPECT_FALSE(Messages.empty());
}

} // namespace
