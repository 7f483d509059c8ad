//===- EnumTableTest.cpp - Option enums described by one table ------------===//

#include "dan/Support/EnumTable.h"
#include "dan/Baselines/Baselines.h"
#include "dan/Transforms/CPE.h"
#include "dan/Transforms/DLR.h"
#include "dan/Transforms/MPAS.h"
#include "gtest/gtest.h"
#include <set>
#include <string>

using namespace dan;

namespace {
enum class Colour { Red, Green, Blue };
const EnumEntry<Colour> ColourTable[] = {
    {Colour::Red, "red", "the first"},
    {Colour::Green, "green", "the second"},
    {Colour::Blue, "blue", "the third"},
};
} // namespace

TEST(EnumTableTest, NameOfEveryValue) {
  EXPECT_EQ(enumName<Colour>(ColourTable, Colour::Red), "red");
  EXPECT_EQ(enumName<Colour>(ColourTable, Colour::Green), "green");
  EXPECT_EQ(enumName<Colour>(ColourTable, Colour::Blue), "blue");
}

TEST(EnumTableTest, LookupIsExactAndTotal) {
  EXPECT_EQ(lookupEnum<Colour>(ColourTable, "blue"), Colour::Blue);
  EXPECT_EQ(lookupEnum<Colour>(ColourTable, "Blue"), std::nullopt);
  EXPECT_EQ(lookupEnum<Colour>(ColourTable, ""), std::nullopt);
  for (const EnumEntry<Colour> &E : ColourTable)
    EXPECT_EQ(
        lookupEnum<Colour>(ColourTable, enumName<Colour>(ColourTable, E.Value)),
        E.Value);
}

//===----------------------------------------------------------------------===//
// The tables of the stage passes and the methods
//===----------------------------------------------------------------------===//

namespace {
/// Every value of an enum whose last value is \p Last has one entry, with
/// a spelling no other entry has and a description.
template <typename EnumT>
void expectComplete(llvm::ArrayRef<EnumEntry<EnumT>> Table, EnumT Last) {
  std::set<std::string> Names;
  std::set<int> Values;
  for (const EnumEntry<EnumT> &E : Table) {
    EXPECT_TRUE(Names.insert(E.Name.str()).second) << E.Name.str();
    EXPECT_TRUE(Values.insert(int(E.Value)).second) << E.Name.str();
    EXPECT_FALSE(E.Help.empty()) << E.Name.str();
    EXPECT_EQ(lookupEnum(Table, E.Name), E.Value);
  }
  EXPECT_EQ(Table.size(), size_t(Last) + 1);
}
} // namespace

TEST(EnumTableTest, PassAndMethodTablesAreComplete) {
  expectComplete(l0ModeTable(), L0Mode::Ignore);
  expectComplete(weightsTable(), MPASWeights::InputOrder);
  expectComplete(allocChoiceTable(), AllocChoice::Priority);
  expectComplete(objectiveTable(), MPASObjective::Overflow);
  expectComplete(traversalTable(), Traversal::Input);
  expectComplete(fitPolicyTable(), FitPolicy::Auto);
  expectComplete(evictPolicyTable(), EvictPolicy::Traffic);
  expectComplete(victimSetTable(), VictimSet::Single);
  expectComplete(cpeModeTable(), CPEMode::Ignore);
  expectComplete(cpeMoveSetTable(), CPEMoveSet::OpsAndBuffers);
  expectComplete(methodTable(), Method::EDA);
  // The printed names come from the same tables.
  EXPECT_EQ(l0ModeName(L0Mode::Single), "single");
  EXPECT_EQ(traversalName(Traversal::Groups), "groups");
  EXPECT_EQ(traversalName(Traversal::Staged), "staged");
  EXPECT_EQ(traversalName(Traversal::Input), "input");
  EXPECT_EQ(weightsName(MPASWeights::MemoryFirst), "memory-first");
  EXPECT_EQ(fitName(FitPolicy::Timed), "timed");
  EXPECT_EQ(methodName(Method::HMCOS), "hmcos");
  EXPECT_EQ(lookupMethod("magis"), Method::MAGIS);
  // --evict offers the rules a user may choose, the baselines' not.
  EXPECT_EQ(evictPolicyTable()[UserEvictPolicies - 1].Value,
            EvictPolicy::Belady);
}
