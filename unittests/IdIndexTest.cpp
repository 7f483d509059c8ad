#include "dan/IR/IdIndex.h"
#include "dan/IR/Graph.h"
#include <gtest/gtest.h>
#include <map>

using namespace dan;

// Ids below the dense limit and far above it (the hash-map fallback), the
// first mapping of an id kept by insert and replaced by set, as a
// std::map model does.
TEST(IdIndexTest, DenseAndSparseIdsAgreeWithAMap) {
  IdIndex Index(10); // dense below 4 * 10 + 1024
  std::map<uint64_t, uint32_t> Model;
  const uint64_t Ids[] = {
      0, 7,    1063, 1064,      5000, 1ull << 40, (1ull << 40) - 1,
      7, 1064, 3,    1ull << 40};
  uint32_t V = 0;
  for (uint64_t Id : Ids) {
    bool New = Model.try_emplace(Id, V).second;
    EXPECT_EQ(Index.insert(Id, V), New) << Id;
    ++V;
  }
  Index.set(1ull << 40, 99);
  Model[1ull << 40] = 99;
  Index.set(3, 98);
  Model[3] = 98;
  for (uint64_t Id :
       {0ull, 1ull, 2ull, 3ull, 7ull, 8ull, 1063ull, 1064ull, 1065ull, 4999ull,
        5000ull, (1ull << 40) - 1, 1ull << 40, (1ull << 40) + 1, ~0ull}) {
    auto It = Model.find(Id);
    EXPECT_EQ(Index.lookup(Id), It == Model.end() ? IdIndex::None : It->second)
        << Id;
    EXPECT_EQ(Index.contains(Id), It != Model.end()) << Id;
  }
}

TEST(IdIndexTest, TableKeepsValuesInInsertionOrder) {
  IdTable<std::string> Table(4);
  EXPECT_EQ(Table.find(5), nullptr);
  Table[5] = "five";
  auto [Big, New] = Table.tryEmplace(uint64_t(1) << 39, "big");
  EXPECT_TRUE(New);
  EXPECT_EQ(*Big, "big");
  auto [Again, New2] = Table.tryEmplace(5, "other");
  EXPECT_FALSE(New2);
  EXPECT_EQ(*Again, "five");
  EXPECT_EQ(Table.size(), 2u);
  EXPECT_TRUE(Table.contains(uint64_t(1) << 39));
  EXPECT_FALSE(Table.contains(6));
}

// Graph::idIndex gives an id that occurs twice its first node, as the
// verifier's messages about such graphs expect.
TEST(IdIndexTest, GraphIdIndexKeepsTheFirstNode) {
  Graph G;
  for (uint64_t Id : {4ull, 1ull << 40, 4ull, 0ull}) {
    Node N;
    N.Id = Id;
    G.addNode(N);
  }
  IdIndex Ids = G.idIndex();
  EXPECT_EQ(Ids.lookup(4), 0u);
  EXPECT_EQ(Ids.lookup(1ull << 40), 1u);
  EXPECT_EQ(Ids.lookup(0), 3u);
  EXPECT_EQ(Ids.lookup(1), IdIndex::None);
}
