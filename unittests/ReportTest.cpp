//===- ReportTest.cpp - lib/Report: metrics, tables, the replay report ----===//

#include "TestUtil.h"
#include "dan/Report/Document.h"
#include "dan/Report/Metrics.h"
#include "dan/Report/ReplayReport.h"
#include "llvm/Support/JSON.h"
#include <cmath>
#include <gtest/gtest.h>

using namespace dan;
using namespace llvm;

namespace {

TEST(ReportTest, MetricNames) {
  std::vector<std::string> Keys, Titles;
  for (Metric M : allMetrics()) {
    Keys.push_back(metricKey(M).str());
    Titles.push_back(metricTitle(M, TargetDesc::davinci()));
  }
  EXPECT_EQ(Keys, (std::vector<std::string>{"peak_l1ub", "extra_ddr_traffic",
                                            "spill_count", "makespan"}));
  EXPECT_EQ(Titles, (std::vector<std::string>{"peak L1+UB", "extra DDR traffic",
                                              "spill count", "makespan"}));
  EXPECT_DOUBLE_EQ(fraction(1, 4), 0.25);
  EXPECT_DOUBLE_EQ(fraction(3, 0), 0.0);
}

TEST(ReportTest, MetricsAsJSON) {
  std::string S;
  raw_string_ostream OS(S);
  json::OStream J(OS);
  J.object([&] {
    writeMetricsJSON(J, {1, 2, 3, 4});
    writePerMetricJSON(J, "r", [](unsigned K) {
      return jsonRatio(K == 0 ? INFINITY : 0.5 * K);
    });
  });
  EXPECT_EQ(S, R"({"peak_l1ub":1,"extra_ddr_traffic":2,"spill_count":3,)"
               R"("makespan":4,"r":{"peak_l1ub":null,"extra_ddr_traffic":0.5,)"
               R"("spill_count":1,"makespan":1.5}})");
  EXPECT_EQ(jsonRatio(std::nullopt), json::Value(nullptr));
}

TEST(ReportTest, Tables) {
  Table T;
  T.Left = 1;
  T.Head = {"name", "n"};
  T.Rows = {{"a", "1"}, {"longer", "12345"}, {"b"}};
  std::string Text, MD;
  raw_string_ostream TOS(Text), MOS(MD);
  printTextTable(T, TOS);
  printMarkdownTable(T, MOS);
  // Padded to the widest cell, numbers right-aligned, no trailing blanks.
  EXPECT_EQ(Text, "name        n\n"
                  "a           1\n"
                  "longer  12345\n"
                  "b\n");
  EXPECT_EQ(MD, "| name | n |\n| --- | ---: |\n| a | 1 |\n| longer | 12345 |\n"
                "| b |\n");
}

TEST(ReportTest, Document) {
  Document D;
  D.heading("H");
  D.para("p");
  Table T;
  T.Head = {"x"};
  D.table(T);
  std::string Text, MD;
  raw_string_ostream TOS(Text), MOS(MD);
  D.print(TOS, false);
  D.print(MOS, true);
  EXPECT_EQ(Text, "== H\n\np\n\nx\n");
  EXPECT_EQ(MD, "### H\n\np\n\n| x |\n| --- |\n");
  // dan-replay offers text and JSON, dan-bench Markdown too.
  EXPECT_EQ(enumNames(replayReportFormats()),
            (std::vector<StringRef>{"text", "json"}));
  EXPECT_EQ(enumNames(reportFormats()),
            (std::vector<StringRef>{"text", "json", "md"}));
}

TEST(ReportTest, MeasuredPlan) {
  SourceMgr SM;
  std::unique_ptr<Graph> G =
      parseGraphString(test::SpillExample, SM, "spill.dan");
  ASSERT_TRUE(G);
  std::unique_ptr<Graph> Copy = std::make_unique<Graph>(*G);
  MeasuredPlan M =
      measurePlan(std::move(G), /*Verified=*/true, ReuseReading::Safe);
  EXPECT_EQ(M.Reading, "safe");
  EXPECT_EQ(M.R.SpillCount, 1u);
  // A plan of the same graph: the spill nodes do not count.
  EXPECT_FALSE(planMismatch(*M.G, *Copy));
  Copy->Nodes.pop_back();
  while (!Copy->Nodes.empty() && Copy->Nodes.back().isSpill())
    Copy->Nodes.pop_back();
  std::optional<std::string> Why = planMismatch(*M.G, *Copy);
  ASSERT_TRUE(Why);
  EXPECT_NE(Why->find("is not in the baseline"), std::string::npos);

  MeasuredPlan L = measurePlan(std::make_unique<Graph>(*M.G),
                               /*Verified=*/true, ReuseReading::Literal);
  EXPECT_EQ(L.Reading, "literal");
  std::string Text;
  raw_string_ostream OS(Text);
  printReplayReport(ReportFormat::Text, M, &L, "base.dan", OS);
  EXPECT_NE(Text.find("baseline: Spill (base.dan), reuse reading: literal"),
            std::string::npos);
  EXPECT_NE(Text.find("metric             value  baseline  normalized"),
            std::string::npos);
}

} // namespace
