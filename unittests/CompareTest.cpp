//===- CompareTest.cpp - dan-bench's comparison ---------------------------===//

#include "dan/Compare/Comparison.h"
#include "dan/Compare/ComparisonReport.h"
#include "dan/Target/Davinci/Davinci.h"
#include <cmath>
#include <gtest/gtest.h>

using namespace dan;
using namespace dan::bench;

TEST(BenchTest, NormalizedAndReduction) {
  EXPECT_DOUBLE_EQ(normalized(1, 4), 0.25);
  EXPECT_DOUBLE_EQ(normalized(0, 0), 1.0);
  EXPECT_TRUE(std::isinf(normalized(3, 0)));
  EXPECT_DOUBLE_EQ(reduction(1, 4), 0.75);
  EXPECT_DOUBLE_EQ(reduction(0, 0), 0.0);
  EXPECT_DOUBLE_EQ(reduction(6, 4), -0.5);
  double R = reduction(3, 0);
  EXPECT_TRUE(std::isinf(R) && R < 0);
}

TEST(BenchTest, Ranks) {
  using V = std::optional<uint64_t>;
  std::vector<std::optional<unsigned>> R =
      rankSmallestFirst({V(5), V(3), V(5), V(1), std::nullopt});
  ASSERT_EQ(R.size(), 5u);
  EXPECT_EQ(R[0], 3u); // two values are smaller
  EXPECT_EQ(R[1], 2u);
  EXPECT_EQ(R[2], 3u); // ties share the better rank
  EXPECT_EQ(R[3], 1u);
  EXPECT_FALSE(R[4]);
}

TEST(BenchTest, KendallTauB) {
  EXPECT_EQ(kendallTauB({1, 2, 3}, {1, 2, 3}), 1.0);
  EXPECT_EQ(kendallTauB({1, 2, 3}, {3, 2, 1}), -1.0);
  // One discordant pair of six: (5 - 1) / 6.
  EXPECT_DOUBLE_EQ(*kendallTauB({1, 2, 3, 4}, {1, 3, 2, 4}), 4.0 / 6.0);
  // A = [1, 1, 3], B = [1, 2, 3]: pairs (0,1) tied in A, (0,2) and (1,2)
  // concordant: 2 / sqrt((3 - 1) * (3 - 0)).
  EXPECT_DOUBLE_EQ(*kendallTauB({1, 1, 3}, {1, 2, 3}), 2.0 / std::sqrt(6.0));
  // Both all ties: the same ranking. One all ties: undefined.
  EXPECT_EQ(kendallTauB({1, 1}, {1, 1}), 1.0);
  EXPECT_FALSE(kendallTauB({1, 1}, {1, 2}));
  EXPECT_FALSE(kendallTauB({1}, {1}));
  EXPECT_FALSE(kendallTauB({}, {}));
}

static std::pair<uint64_t, uint64_t> scale(llvm::StringRef S) {
  llvm::Expected<std::pair<uint64_t, uint64_t>> P = parseScale(S);
  if (!P) {
    llvm::consumeError(P.takeError());
    return {0, 0};
  }
  return *P;
}

TEST(BenchTest, Scales) {
  EXPECT_EQ(scale("0.75"), std::make_pair(uint64_t(3), uint64_t(4)));
  EXPECT_EQ(scale("2"), std::make_pair(uint64_t(2), uint64_t(1)));
  EXPECT_EQ(scale("1.50"), std::make_pair(uint64_t(3), uint64_t(2)));
  EXPECT_EQ(scale(".5"), std::make_pair(uint64_t(1), uint64_t(2)));
  for (llvm::StringRef Bad :
       {"0", "0.0", "", ".", "1.", "-1", "1e3", "x", "0.1234567", "1234567"})
    EXPECT_EQ(scale(Bad), std::make_pair(uint64_t(0), uint64_t(0)))
        << Bad.str();
}

TEST(BenchTest, Settings) {
  TargetDesc T = TargetDesc::davinci();
  SweepSpec S;
  S.Capacity = true;
  auto Settings = sweepSettings(S, T);
  ASSERT_TRUE(bool(Settings));
  // The default, then 0.5, 0.75, 1.5, 2 (scale 1 is the default).
  ASSERT_EQ(Settings->size(), 5u);
  EXPECT_TRUE((*Settings)[0].IsDefault);
  EXPECT_EQ((*Settings)[0].Label, "default");
  EXPECT_EQ((*Settings)[2].Label, "capacity x0.75, alpha 150, beta 2");
  TargetDesc Small = applySetting(T, (*Settings)[2]);
  EXPECT_EQ(Small.capacity(davinci::L1), 3072u);
  EXPECT_EQ(Small.capacity(davinci::UB), 768u);
  EXPECT_EQ(Small.capacity(davinci::L0C), 384u);
  EXPECT_EQ(Small.spillAlpha(), 150u);

  S.Capacity = false;
  S.Cost = true;
  Settings = sweepSettings(S, T);
  ASSERT_TRUE(bool(Settings));
  // 3 alphas x 3 betas, (150, 2) being the default.
  EXPECT_EQ(Settings->size(), 9u);
  S.Capacity = true;
  Settings = sweepSettings(S, T);
  ASSERT_TRUE(bool(Settings));
  EXPECT_EQ(Settings->size(), 13u);
  S.Grid = true;
  Settings = sweepSettings(S, T);
  ASSERT_TRUE(bool(Settings));
  EXPECT_EQ(Settings->size(), 45u);

  // Rounded down: 1024 * 1 / 3.
  SweepSetting Third;
  Third.ScaleNum = 1;
  Third.ScaleDen = 3;
  Third.Alpha = 0;
  Third.Beta = 1;
  TargetDesc T3 = applySetting(T, Third);
  EXPECT_EQ(T3.capacity(davinci::UB), 341u);
  EXPECT_EQ(T3.spillBeta(), 1u);
}

static Cell cell(Method M, Metrics V) {
  Cell C;
  C.M = M;
  C.Result.Values = V;
  return C;
}

TEST(BenchTest, TableTwo) {
  // peak, traffic, spills, makespan.
  std::vector<Cell> Cells;
  Cells.push_back(cell(Method::DAN, {10, 0, 0, 100}));
  Cells.push_back(cell(Method::Base, {20, 0, 4, 200}));
  Cells.push_back(cell(Method::HMCOS, {15, 0, 2, 90}));
  Cells.push_back(cell(Method::COSMA, {15, 5, 2, 80}));
  Cells.push_back(cell(Method::MAGIS, {1, 1, 1, 1}));
  Cells.back().Result.Error = "refused";
  Cells.push_back(cell(Method::EDA, {12, 0, 3, 80}));
  Comparison C = compareCells(Cells);

  // dan / base: 10/20, 0/0 = 1, 0/4, 100/200.
  EXPECT_EQ(C.Normalized[0][0], 0.5);
  EXPECT_EQ(C.Normalized[0][1], 1.0);
  EXPECT_EQ(C.Normalized[0][2], 0.0);
  EXPECT_EQ(C.Normalized[0][3], 0.5);
  EXPECT_TRUE(std::isinf(*C.Normalized[3][1])); // cosma: 5 / 0
  EXPECT_FALSE(C.Normalized[4][0]);             // magis failed

  // The smallest external value, the first in table order on a tie; the
  // failed magis (1 everywhere) is not a candidate.
  EXPECT_EQ(C.BestExternal[0], Method::EDA);   // 12
  EXPECT_EQ(C.BestExternal[1], Method::HMCOS); // 0, tied with eda
  EXPECT_EQ(C.BestExternal[2], Method::HMCOS); // 2, tied with cosma
  EXPECT_EQ(C.BestExternal[3], Method::COSMA); // 80, tied with eda

  EXPECT_DOUBLE_EQ(*C.Margin[0], 1.0 - 10.0 / 12.0);
  EXPECT_EQ(C.Margin[1], 0.0);   // 0 against 0: a tie
  EXPECT_EQ(C.Margin[2], 1.0);   // 0 against 2
  EXPECT_EQ(C.Margin[3], -0.25); // 100 against 80: DAN loses
  EXPECT_EQ(C.VersusBase[0], 0.5);
  EXPECT_EQ(C.VersusBase[2], 1.0);

  // DAN worse than an external 0: -infinity.
  Cells[0].Result.Values[1] = 5;
  C = compareCells(Cells);
  EXPECT_TRUE(std::isinf(*C.Margin[1]) && *C.Margin[1] < 0);

  // Without base nothing is normalized; without externals no margin.
  std::vector<Cell> Two;
  Two.push_back(cell(Method::DAN, {1, 1, 1, 1}));
  Two.push_back(cell(Method::HMCOS, {2, 2, 2, 2}));
  C = compareCells(Two);
  EXPECT_FALSE(C.Normalized[0][0]);
  EXPECT_EQ(C.Margin[0], 0.5);
  EXPECT_FALSE(C.VersusBase[0]);
}

TEST(BenchTest, Formatting) {
  EXPECT_EQ(formatRatio(0.3704), "0.370");
  EXPECT_EQ(formatRatio(INFINITY), "inf");
  EXPECT_EQ(formatPercent(0.537), "53.7%");
  EXPECT_EQ(formatPercent(-0.0001), "0.0%");
  EXPECT_EQ(formatPercent(-0.25), "-25.0%");
  EXPECT_EQ(formatPercent(-INFINITY), "-inf%");
  std::vector<Method> Ms = {Method::DAN, Method::Base, Method::HMCOS,
                            Method::EDA};
  EXPECT_EQ(formatRanking(Ms, {2u, 3u, std::nullopt, 2u}), "dan = eda < base");
  EXPECT_EQ(formatRanking(
                Ms, {std::nullopt, std::nullopt, std::nullopt, std::nullopt}),
            "");
}
