//===- FormatsTest.cpp - lib/Formats: the format tables and file naming ---===//

#include "dan/Formats/Formats.h"
#include "TestUtil.h"
#include "dan/Formats/CSV.h"
#include "dan/Formats/Submission.h"
#include "llvm/ADT/SmallString.h"
#include "llvm/Support/Path.h"
#include <gtest/gtest.h>

using namespace dan;
using namespace llvm;

namespace {

std::string native(StringRef Path) {
  SmallString<64> P(Path);
  sys::path::native(P);
  return std::string(P);
}

TEST(FormatsTest, Tables) {
  EXPECT_EQ(enumNames(importFormats()),
            (std::vector<StringRef>{"ir", "json", "csv", "submission"}));
  EXPECT_EQ(enumNames(exportFormats()),
            (std::vector<StringRef>{"ir", "json", "submission", "dot"}));
  EXPECT_EQ(inputCount(ImportFormat::IR).Max, 1u);
  EXPECT_EQ(inputCount(ImportFormat::CSV).Min, 1u);
  EXPECT_EQ(inputCount(ImportFormat::CSV).Max, 2u);
  EXPECT_EQ(inputCount(ImportFormat::Submission).Min, 2u);
  EXPECT_FALSE(isStreamFormat(ExportFormat::Submission));
  EXPECT_TRUE(isStreamFormat(ExportFormat::Dot));
}

TEST(FormatsTest, GraphNames) {
  EXPECT_EQ(graphNameForFile("dir/Conv Case.json"), "Conv_Case");
  EXPECT_EQ(graphNameForFile("-"), "graph");
  EXPECT_EQ(csvGraphName("d/conv.v2_Nodes.csv"), "conv.v2");
  EXPECT_EQ(csvGraphName("d/plain.csv"), "plain");
}

TEST(FormatsTest, CSVEdgesPath) {
  Expected<std::string> P = csvEdgesPath("d/g_Nodes.csv");
  ASSERT_TRUE(bool(P));
  EXPECT_EQ(*P, native("d/g_Edges.csv"));
  Expected<std::string> Bad = csvEdgesPath("d/g.csv");
  ASSERT_FALSE(bool(Bad));
  EXPECT_EQ(toString(Bad.takeError()),
            "cannot find the edges file for 'd/g.csv': name it "
            "<name>_Nodes.csv or give both files");
}

TEST(FormatsTest, SubmissionPaths) {
  EXPECT_EQ(submissionPaths("out", "G"),
            (std::vector<std::string>{native("out/G_schedule.txt"),
                                      native("out/G_memory.txt"),
                                      native("out/G_spill.txt")}));
  // A directory, or the prefix of a given schedule file.
  EXPECT_EQ(submissionPrefix("dir", "G"), native("dir/G_"));
  EXPECT_EQ(submissionPrefix("dir/X_schedule.txt", "G"), "dir/X_");
}

TEST(FormatsTest, StreamExport) {
  SourceMgr SM;
  std::unique_ptr<Graph> G =
      parseGraphString(test::SpillExample, SM, "spill.dan");
  ASSERT_TRUE(G);
  std::string IR, Dot;
  raw_string_ostream IROS(IR), DotOS(Dot);
  exportGraph(ExportFormat::IR, *G, IROS);
  exportGraph(ExportFormat::Dot, *G, DotOS);
  EXPECT_NE(IR.find("graph @Spill"), std::string::npos);
  EXPECT_TRUE(StringRef(Dot).starts_with("digraph \"Spill\" {"));
}

} // namespace
