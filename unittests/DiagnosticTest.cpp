//===- DiagnosticTest.cpp - The limit on the errors a report shows --------===//

#include "dan/IR/Diagnostic.h"
#include "gtest/gtest.h"

using namespace dan;

TEST(ErrorLimiterTest, ShowsTheFirstErrorsWithTheirNotes) {
  ErrorLimiter L(2);
  EXPECT_TRUE(L.note()); // a note before any error is shown
  EXPECT_TRUE(L.error());
  EXPECT_TRUE(L.note());
  EXPECT_TRUE(L.error());
  EXPECT_FALSE(L.error());
  EXPECT_FALSE(L.note()); // it follows a dropped error
  EXPECT_FALSE(L.error());
  EXPECT_EQ(L.shown(), 2u);
  EXPECT_EQ(L.dropped(), 2u);
  L.reset();
  EXPECT_TRUE(L.error());
  EXPECT_EQ(L.shown(), 1u);
  EXPECT_EQ(L.dropped(), 0u);
}

TEST(ErrorLimiterTest, ZeroShowsEveryError) {
  ErrorLimiter L(0);
  for (int I = 0; I != 1000; ++I)
    ASSERT_TRUE(L.error());
  EXPECT_TRUE(L.note());
  EXPECT_EQ(L.dropped(), 0u);
}
