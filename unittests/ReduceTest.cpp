//===- ReduceTest.cpp - Test-case reduction with a callback check ---------===//

#include "dan/Reduce/Reduce.h"
#include "TestUtil.h"
#include "dan/IR/Printer.h"
#include <gtest/gtest.h>

using namespace dan;
using namespace dan::test;

namespace {

std::unique_ptr<Graph> parseOrFail(llvm::StringRef Text) {
  static llvm::SourceMgr SM; // Nodes keep locations into the text.
  std::string Diags;
  std::unique_ptr<Graph> G = parse(SM, Text, Diags);
  EXPECT_TRUE(G) << Diags;
  return G;
}

/// A check that also asserts what every candidate must be: its printed
/// form parses and prints back the same, and (when \p T is set) it
/// verifies.
InterestingFn checked(std::function<bool(const Graph &)> Check,
                      const TargetDesc *T = nullptr,
                      unsigned *Calls = nullptr) {
  return [=](const Graph &C) -> llvm::Expected<bool> {
    if (Calls)
      ++*Calls;
    std::string Text = print(C);
    llvm::SourceMgr SM;
    std::string Diags;
    std::unique_ptr<Graph> Again = parse(SM, Text, Diags);
    EXPECT_TRUE(Again) << Diags << Text;
    if (Again) {
      EXPECT_EQ(print(*Again), Text);
    }
    if (T) {
      EXPECT_EQ(verifyErrors(C, *T), "") << Text;
    }
    return Check(C);
  };
}

bool hasOp(const Graph &G, llvm::StringRef Name) {
  for (const Node &N : G.Nodes)
    if (N.Kind == NodeKind::Op && G.opName(N) == Name)
      return true;
  return false;
}

const char *Planted = R"(graph @Planted {
  n0 = alloc b0 UB 64
  n1 = COPY_IN MTE2 80 (b0) after n0
  n2 = alloc b1 UB 64
  n3 = EXP VECTOR 120 (b1, b0) after n1, n2
  n4 = alloc b2 UB 32
  n5 = PLANTED VECTOR 7 (b2, b1) after n3, n4
  n6 = free b0 UB 64 after n3
  n7 = COPY_OUT MTE3 80 (b2) after n5
  n8 = free b1 UB 64 after n5
  n9 = free b2 UB 32 after n7
}
)";

} // namespace

TEST(ReduceTest, PassNames) {
  std::vector<std::string> Names(reducePassNames().begin(),
                                 reducePassNames().end());
  EXPECT_EQ(Names,
            (std::vector<std::string>{"plan", "operations", "buffers", "spills",
                                      "buffer-nodes", "operands", "edges",
                                      "reuse-edges", "offsets"}));
}

TEST(ReduceTest, KeepsOnlyThePlantedOperation) {
  std::unique_ptr<Graph> G = parseOrFail(Planted);
  TargetDesc T = TargetDesc::davinci();
  ReduceOptions Opts;
  Opts.KeepValid = &T;
  unsigned Calls = 0;
  llvm::Expected<ReduceStats> S = reduceGraph(
      *G,
      checked([](const Graph &C) { return hasOp(C, "PLANTED"); }, &T, &Calls),
      Opts);
  ASSERT_TRUE(bool(S)) << llvm::toString(S.takeError());
  EXPECT_EQ(print(*G), "target davinci\n\ngraph @Planted {\n"
                       "  n0 = PLANTED VECTOR 7 ()\n}\n");
  EXPECT_EQ(S->Tests, Calls);
  EXPECT_FALSE(S->BudgetReached);
  // The last round removed nothing.
  EXPECT_GE(S->Rounds, 2u);
}

TEST(ReduceTest, ReconnectsPredecessorsOfRemovedNodes) {
  // B must stay ordered after A; X between them can go, and its edge to A
  // moves to B.
  std::unique_ptr<Graph> G = parseOrFail(R"(graph @Chain {
  n0 = A MTE1 1 ()
  n1 = X MTE1 1 () after n0
  n2 = B MTE1 1 () after n1
})");
  auto Check = [](const Graph &C) {
    if (!hasOp(C, "A") || !hasOp(C, "B"))
      return false;
    for (const Node &N : C.Nodes)
      if (C.opName(N) == "B")
        return N.Preds.size() == 1 && C.opName(C[N.Preds[0]]) == "A";
    return false;
  };
  ASSERT_TRUE(bool(reduceGraph(*G, checked(Check), ReduceOptions())));
  EXPECT_EQ(print(*G), "target davinci\n\ngraph @Chain {\n"
                       "  n0 = A MTE1 1 ()\n"
                       "  n1 = B MTE1 1 () after n0\n}\n");
}

TEST(ReduceTest, InvalidInputKeepsItsDefect) {
  // The free names another size than the alloc: the defect of interest.
  // Candidates need not verify (none would).
  std::unique_ptr<Graph> G = parseOrFail(R"(graph @Mismatch {
  n0 = alloc b0 UB 64
  n1 = COPY_IN MTE2 80 (b0) after n0
  n2 = alloc b1 L1 128
  n3 = MUL VECTOR 10 (b1, b0) after n1, n2
  n4 = free b0 UB 64 after n3
  n5 = free b1 L1 96 after n3
})");
  TargetDesc T = TargetDesc::davinci();
  auto Check = [&](const Graph &C) {
    return verifyErrors(C, T).find("has size 96 but its alloc has size 128") !=
           std::string::npos;
  };
  ASSERT_TRUE(bool(reduceGraph(*G, checked(Check), ReduceOptions())));
  EXPECT_EQ(print(*G), "target davinci\n\ngraph @Mismatch {\n"
                       "  n0 = alloc b0 L1 128\n"
                       "  n1 = free b0 L1 96\n}\n");
}

TEST(ReduceTest, KeepsAValidSpill) {
  // examples/spill.dan without comments; the behaviour: the graph spills.
  // With KeepValid every candidate verifies, so the spill's edges, ids and
  // the reuse edges are kept right as nodes go.
  std::unique_ptr<Graph> G = parseOrFail(SpillExample);
  TargetDesc T = TargetDesc::davinci();
  ASSERT_EQ(verifyErrors(*G, T), "");
  auto Spills = [](const Graph &C) {
    for (const Node &N : C.Nodes)
      if (N.Kind == NodeKind::SpillOut)
        return true;
    return false;
  };
  ReduceOptions Opts;
  Opts.KeepValid = &T;
  llvm::Expected<ReduceStats> S = reduceGraph(*G, checked(Spills, &T), Opts);
  ASSERT_TRUE(bool(S)) << llvm::toString(S.takeError());
  EXPECT_EQ(verifyErrors(*G, T), "");
  // One buffer: alloc, spill_out, spill_in, free.
  EXPECT_EQ(print(*G), "target davinci\n\ngraph @Spill {\n"
                       "  n0 = alloc b0 UB 512 at 0\n"
                       "  n2 = spill_out b0 after n0\n"
                       "  n3 = spill_in b0 at 512 after n2\n"
                       "  n1 = free b0 UB 512 after n3\n}\n");
}

TEST(ReduceTest, SameInputSameResult) {
  auto Run = [] {
    std::unique_ptr<Graph> G = parseOrFail(Planted);
    // Interesting: some operation uses two buffers.
    auto Check = [](const Graph &C) {
      for (const Node &N : C.Nodes)
        if (N.Kind == NodeKind::Op && N.Bufs.size() >= 2)
          return true;
      return false;
    };
    EXPECT_TRUE(bool(reduceGraph(*G, checked(Check), ReduceOptions())));
    return print(*G);
  };
  std::string First = Run();
  EXPECT_EQ(First, Run());
  EXPECT_NE(First.find("(b0, b1)"), std::string::npos) << First;
}

TEST(ReduceTest, TestBudgetStopsEarly) {
  std::unique_ptr<Graph> G = parseOrFail(Planted);
  ReduceOptions Opts;
  Opts.MaxTests = 3;
  unsigned Calls = 0;
  llvm::Expected<ReduceStats> S =
      reduceGraph(*G,
                  checked([](const Graph &C) { return hasOp(C, "PLANTED"); },
                          nullptr, &Calls),
                  Opts);
  ASSERT_TRUE(bool(S));
  EXPECT_EQ(Calls, 3u);
  EXPECT_EQ(S->Tests, 3u);
  EXPECT_TRUE(S->BudgetReached);
  EXPECT_TRUE(hasOp(*G, "PLANTED"));
}

TEST(ReduceTest, RoundLimit) {
  std::unique_ptr<Graph> G = parseOrFail(Planted);
  ReduceOptions Opts;
  Opts.MaxRounds = 1;
  llvm::Expected<ReduceStats> S = reduceGraph(
      *G, checked([](const Graph &C) { return hasOp(C, "PLANTED"); }), Opts);
  ASSERT_TRUE(bool(S));
  EXPECT_EQ(S->Rounds, 1u);
}

TEST(ReduceTest, CheckErrorStopsTheReduction) {
  std::unique_ptr<Graph> G = parseOrFail(Planted);
  unsigned Calls = 0;
  llvm::Expected<ReduceStats> S = reduceGraph(
      *G,
      [&](const Graph &) -> llvm::Expected<bool> {
        if (++Calls == 2)
          return llvm::createStringError(llvm::inconvertibleErrorCode(),
                                         "the test vanished");
        return false;
      },
      ReduceOptions());
  ASSERT_FALSE(bool(S));
  EXPECT_EQ(llvm::toString(S.takeError()), "the test vanished");
  EXPECT_EQ(Calls, 2u);
}

TEST(ReduceTest, NothingRemovableLeavesTheGraph) {
  std::unique_ptr<Graph> G = parseOrFail(Planted);
  std::string Before = print(*G);
  llvm::Expected<ReduceStats> S = reduceGraph(
      *G, checked([](const Graph &) { return false; }), ReduceOptions());
  ASSERT_TRUE(bool(S));
  EXPECT_EQ(print(*G), Before);
  EXPECT_EQ(S->Rounds, 1u);
}

TEST(ReduceTest, CycleThroughRemovedNodes) {
  // The reconnection walk meets the cycle n0 -> n1 -> n2 -> n0 while D's
  // predecessor goes, and cuts it instead of looping.
  std::unique_ptr<Graph> G = parseOrFail(R"(graph @Cycle {
  n0 = A MTE1 1 () after n2
  n1 = B MTE1 1 () after n0
  n2 = C MTE1 1 () after n1
  n3 = D MTE1 1 () after n2
})");
  ASSERT_TRUE(bool(
      reduceGraph(*G, checked([](const Graph &C) { return hasOp(C, "D"); }),
                  ReduceOptions())));
  EXPECT_EQ(print(*G), "target davinci\n\ngraph @Cycle {\n"
                       "  n0 = D MTE1 1 ()\n}\n");
}

TEST(ReduceTest, PlanPartsOfAnInvalidInput) {
  // A reuse edge the plan does not imply (n0 -> n2). Candidates need not
  // verify, so the offsets go one by one and the reuse edge stays: without
  // a plan any reuse edge is one that is not implied.
  std::unique_ptr<Graph> G = parseOrFail(R"(graph @Spill {
  n0 = alloc b0 UB 512 at 0
  n1 = COPY_IN MTE2 80 (b0) after n0
  n2 = alloc b1 UB 512 at 512 reuse n0
  n3 = COPY_IN MTE2 80 (b1) after n2
  n11 = spill_out b0 after n0, n1
  n4 = alloc b2 UB 512 at 0 reuse n11
  n5 = ADD VECTOR 100 (b2, b1) after n3, n4
  n6 = free b1 UB 512 after n5
  n12 = spill_in b0 at 512 after n11 reuse n6
  n7 = MUL VECTOR 100 (b2, b0) after n1, n5, n12
  n8 = free b0 UB 512 after n7, n12
  n9 = COPY_OUT MTE3 80 (b2) after n7
  n10 = free b2 UB 512 after n9
})");
  TargetDesc T = TargetDesc::davinci();
  auto NotImplied = [&](const Graph &C) {
    return verifyErrors(C, T).find("is not implied by the memory plan") !=
           std::string::npos;
  };
  ASSERT_TRUE(bool(reduceGraph(*G, checked(NotImplied), ReduceOptions())));
  EXPECT_EQ(print(*G), "target davinci\n\ngraph @Spill {\n"
                       "  n0 = alloc b0 UB 512\n"
                       "  n1 = alloc b1 UB 512 reuse n0\n}\n");
}

TEST(ReduceTest, ReconnectionIsLimited) {
  // 40 operations in a chain, each after its own buffer's alloc; END after
  // the last. Removing the operations hands END the allocs, but only the
  // 32 latest in the schedule.
  std::string Text = "graph @Chain {\n";
  for (unsigned I = 0; I != 40; ++I) {
    std::string A = std::to_string(2 * I), Op = std::to_string(2 * I + 1);
    Text += "  n" + A + " = alloc b" + std::to_string(I) + " UB 8\n";
    Text += "  n" + Op + " = OP VECTOR 1 () after n" + A;
    if (I)
      Text += ", n" + std::to_string(2 * I - 1);
    Text += "\n";
  }
  Text += "  n80 = END VECTOR 1 () after n79\n}\n";
  std::unique_ptr<Graph> G = parseOrFail(Text);
  std::vector<uint64_t> Widest;
  auto Check = [&](const Graph &C) {
    for (const Node &N : C.Nodes)
      if (N.Kind == NodeKind::Op && C.opName(N) == "END" &&
          N.Preds.size() > Widest.size()) {
        Widest.clear();
        for (NodeIdx P : N.Preds)
          Widest.push_back(C[P].Id);
      }
    return hasOp(C, "END");
  };
  ASSERT_TRUE(bool(reduceGraph(*G, checked(Check), ReduceOptions())));
  ASSERT_EQ(Widest.size(), 32u);
  EXPECT_EQ(Widest.front(), 16u); // the alloc of b8
  EXPECT_EQ(Widest.back(), 78u);  // the alloc of b39
}
