//===- EnumTableTest.cpp - Option enums described by one table -----------===//

#include "dan/Support/EnumTable.h"
#include "gtest/gtest.h"

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
