//===- CSRTest.cpp - CSRBuilder -------------------------------------------===//

#include "dan/Support/CSR.h"
#include "gtest/gtest.h"
#include <utility>
#include <vector>

using namespace dan;

namespace {

/// The lists CSRBuilder makes of \p Pairs (key, value), in \p Keys keys.
std::pair<std::vector<uint32_t>, std::vector<int>>
build(size_t Keys, const std::vector<std::pair<size_t, int>> &Pairs) {
  CSRBuilder<int> Lists(Keys);
  for (const auto &[Key, Value] : Pairs)
    Lists.count(Key);
  Lists.startAdding();
  for (const auto &[Key, Value] : Pairs)
    Lists.add(Key, Value);
  std::pair<std::vector<uint32_t>, std::vector<int>> Out;
  Lists.finish(Out.first, Out.second);
  return Out;
}

} // namespace

// Each key's values in the order they were added, the keys in order, empty
// lists (first, middle, last) included.
TEST(CSRTest, ListsInAddedOrder) {
  auto [Begin, Values] =
      build(5, {{3, 30}, {1, 10}, {3, 31}, {1, 11}, {2, 20}, {3, 32}});
  EXPECT_EQ(Begin, (std::vector<uint32_t>{0, 0, 2, 3, 6, 6}));
  EXPECT_EQ(Values, (std::vector<int>{10, 11, 20, 30, 31, 32}));
}

TEST(CSRTest, NoValues) {
  auto [Begin, Values] = build(3, {});
  EXPECT_EQ(Begin, (std::vector<uint32_t>{0, 0, 0, 0}));
  EXPECT_TRUE(Values.empty());
  auto [NoKeys, None] = build(0, {});
  EXPECT_EQ(NoKeys, (std::vector<uint32_t>{0}));
}

TEST(CSRTest, OneKey) {
  auto [Begin, Values] = build(1, {{0, 5}, {0, 4}, {0, 6}});
  EXPECT_EQ(Begin, (std::vector<uint32_t>{0, 3}));
  EXPECT_EQ(Values, (std::vector<int>{5, 4, 6}));
}

// Both lists of every node, in the order of the edges, over the two passes.
TEST(CSRTest, EdgeLists) {
  std::vector<std::pair<uint32_t, uint32_t>> Edges = {
      {0, 2}, {1, 2}, {0, 1}, {2, 3}, {0, 3}};
  std::vector<uint32_t> PredBegin, SuccBegin, Preds, Succs;
  buildEdgeLists<uint32_t>(
      4,
      [&](auto Visit) {
        for (auto [From, To] : Edges)
          Visit(From, To);
      },
      PredBegin, Preds, SuccBegin, Succs);
  EXPECT_EQ(PredBegin, (std::vector<uint32_t>{0, 0, 1, 3, 5}));
  EXPECT_EQ(Preds, (std::vector<uint32_t>{0, 0, 1, 2, 0}));
  EXPECT_EQ(SuccBegin, (std::vector<uint32_t>{0, 3, 4, 5, 5}));
  EXPECT_EQ(Succs, (std::vector<uint32_t>{2, 1, 3, 2, 3}));
}
