#include "TestUtil.h"
#include "dan/IR/Printer.h"
#include "dan/Target/Davinci/Davinci.h"
#include <gtest/gtest.h>

using namespace dan;
using namespace dan::test;

TEST(ParserTest, ReadsEveryStatement) {
  llvm::SourceMgr SM;
  std::string Diags;
  auto G = parse(SM, R"(
    // comment
    target davinci
    graph @g {
      n0 = alloc b0 UB 64 at 128
      n1 = COPY_IN MTE2 80 (b0) after n0
      n3 = spill_out b0 after n0, n1
      n4 = spill_in b0 at 0 after n3 reuse n1
      n2 = free b0 UB 64 after n4
    })",
                 Diags);
  ASSERT_TRUE(G) << Diags;
  EXPECT_EQ(G->Name, "g");
  ASSERT_EQ(G->size(), 5u);
  const Node &A = (*G)[idx(*G, 0)];
  EXPECT_EQ(A.Kind, NodeKind::Alloc);
  EXPECT_EQ(A.BufTier, davinci::UB);
  EXPECT_EQ(A.Size, 64u);
  EXPECT_TRUE(A.HasOffset);
  EXPECT_EQ(A.Offset, 128u);
  const Node &Op = (*G)[idx(*G, 1)];
  EXPECT_EQ(G->opName(Op), "COPY_IN");
  EXPECT_EQ(Op.OpPipe, davinci::MTE2);
  EXPECT_EQ(Op.Cycles, 80u);
  ASSERT_EQ(Op.Bufs.size(), 1u);
  const Node &In = (*G)[idx(*G, 4)];
  EXPECT_EQ(In.Kind, NodeKind::SpillIn);
  ASSERT_EQ(In.ReusePreds.size(), 1u);
  EXPECT_EQ((*G)[In.ReusePreds[0]].Id, 1u);
  // The schedule is the textual order, ids need not be sorted.
  std::vector<uint64_t> Order;
  for (NodeIdx I : G->Order)
    Order.push_back((*G)[I].Id);
  EXPECT_EQ(Order, (std::vector<uint64_t>{0, 1, 3, 4, 2}));
}

TEST(ParserTest, ForwardReferencesAndSortedEdges) {
  llvm::SourceMgr SM;
  std::string Diags;
  auto G = parse(SM,
                 "graph @g { n5 = X VECTOR 1 () after n9, n2\n"
                 "n9 = Y VECTOR 1 ()\n n2 = Z VECTOR 1 () }",
                 Diags);
  ASSERT_TRUE(G) << Diags;
  const Node &N = (*G)[idx(*G, 5)];
  ASSERT_EQ(N.Preds.size(), 2u);
  EXPECT_EQ((*G)[N.Preds[0]].Id, 2u);
  EXPECT_EQ((*G)[N.Preds[1]].Id, 9u);
}

// Every list is sorted by id whatever the lists before it: a sorted list
// after an unsorted one, an unsorted one after a sorted one, and reuse
// lists beside after lists.
TEST(ParserTest, EveryEdgeListSorted) {
  llvm::SourceMgr SM;
  std::string Diags;
  auto G = parse(SM,
                 "graph @g {\n"
                 "n1 = A VECTOR 1 ()\n n2 = B VECTOR 1 ()\n"
                 "n3 = C VECTOR 1 ()\n n4 = D VECTOR 1 ()\n"
                 "n5 = E VECTOR 1 () after n3, n1, n2 reuse n2, n1\n"
                 "n6 = F VECTOR 1 () after n1, n4 reuse n3\n"
                 "n7 = G VECTOR 1 () after n2, n1 reuse n1, n4\n}",
                 Diags);
  ASSERT_TRUE(G) << Diags;
  auto Ids = [&](const EdgeList &L) {
    std::vector<uint64_t> Out;
    for (NodeIdx P : L)
      Out.push_back((*G)[P].Id);
    return Out;
  };
  using V = std::vector<uint64_t>;
  EXPECT_EQ(Ids((*G)[idx(*G, 5)].Preds), V({1, 2, 3}));
  EXPECT_EQ(Ids((*G)[idx(*G, 5)].ReusePreds), V({1, 2}));
  EXPECT_EQ(Ids((*G)[idx(*G, 6)].Preds), V({1, 4}));
  EXPECT_EQ(Ids((*G)[idx(*G, 6)].ReusePreds), V({3}));
  EXPECT_EQ(Ids((*G)[idx(*G, 7)].Preds), V({1, 2}));
  EXPECT_EQ(Ids((*G)[idx(*G, 7)].ReusePreds), V({1, 4}));
}

/// \p G printed.
static std::string printed(const Graph &G) {
  std::string Text;
  llvm::raw_string_ostream OS(Text);
  printGraph(G, OS);
  return Text;
}

TEST(ParserTest, PrintIsAFixedPoint) {
  llvm::SourceMgr SM;
  std::string Diags;
  auto G = parse(SM,
                 "graph @g{n1=EXP VECTOR 7(b0,b1)after n0 n0=alloc b0 "
                 "L1 4 at 0}",
                 Diags);
  ASSERT_TRUE(G) << Diags;
  std::string First = printed(*G);
  EXPECT_EQ(First, "target davinci\n\ngraph @g {\n"
                   "  n1 = EXP VECTOR 7 (b0, b1) after n0\n"
                   "  n0 = alloc b0 L1 4 at 0\n}\n");
  llvm::SourceMgr SM2;
  auto G2 = parse(SM2, First, Diags);
  ASSERT_TRUE(G2) << Diags;
  EXPECT_EQ(First, printed(*G2));
}

/// A chain of \p Nodes operations, the one at \p LongAt named by 9,000
/// letters (more than half a printer block), in canonical form.
static std::string chainText(unsigned Nodes, unsigned LongAt) {
  std::string Long(9000, 'X');
  std::string Text = "graph @g {\n";
  for (unsigned I = 0; I != Nodes; ++I)
    Text += "  n" + std::to_string(I) + " = " + (I == LongAt ? Long : "MUL") +
            " VECTOR " + std::to_string(I % 97) + " (b" + std::to_string(I) +
            ")" + (I ? " after n" + std::to_string(I - 1) : "") + "\n";
  return Text + "}\n";
}

// The printer builds its text in blocks of 16 KiB: lines that cross a
// block's end, and an operation name longer than half a block (written
// around the block), come out whole and in order.
TEST(ParserTest, PrintAcrossBlocks) {
  std::string Text = chainText(2000, 700);
  llvm::SourceMgr SM;
  std::string Diags;
  auto G = parse(SM, Text, Diags);
  ASSERT_TRUE(G) << Diags;
  EXPECT_EQ(printed(*G), "target davinci\n\n" + Text);
}

// A large graph prints back the text it was read from.
TEST(ParserTest, LargeGraphPrintsBack) {
  std::string Text = chainText(40000, 30001);
  llvm::SourceMgr SM;
  std::string Diags;
  auto G = parse(SM, Text, Diags);
  ASSERT_TRUE(G) << Diags;
  EXPECT_EQ(printed(*G), "target davinci\n\n" + Text);
}

TEST(ParserTest, ErrorsAreLocated) {
  struct Case {
    const char *Text;
    const char *Expected;
  } Cases[] = {
      {"graph @g { n0 = alloc b0 UBB 4 }",
       "test.dan:1:26: error: unknown tier 'UBB'; did you mean 'UB'?"},
      {"graph @g { n0 = X VECTR 1 () }",
       "test.dan:1:19: error: unknown pipe 'VECTR'; did you mean 'VECTOR'?"},
      {"graph @g { n0 = X VECTOR 1 () after n7 }",
       "test.dan:1:37: error: use of undefined node n7"},
      {"graph @g { n0 = X VECTOR 1 ()\n n0 = X VECTOR 1 () }",
       "test.dan:2:2: error: redefinition of node n0"},
      {"graph @g { n0 = X VECTOR -1 () }",
       "test.dan:1:26: error: negative number '-1'"},
      {"graph @g { n0 = X VECTOR 1099511627777 () }",
       "test.dan:1:26: error: number '1099511627777' is too large"},
      {"graph @g { n0 = X VECTOR 1 (",
       "error: syntax error, unexpected end of file"},
      {"", "test.dan: error: empty input: expected a graph"},
      {"target tpu graph @g {}", "test.dan:1:8: error: unknown target 'tpu'"},
      {"graph @g { n0 = ALLOC VECTOR 1 () }",
       "test.dan:1:17: error: 'ALLOC' is not an operation"},
  };
  for (const Case &C : Cases) {
    llvm::SourceMgr SM;
    std::string Diags;
    EXPECT_FALSE(parse(SM, C.Text, Diags)) << C.Text;
    EXPECT_NE(Diags.find(C.Expected), std::string::npos)
        << "input: " << C.Text << "\ndiagnostics:\n"
        << Diags;
  }
}

TEST(ParserTest, EmbeddedNulIsAnError) {
  llvm::SourceMgr SM;
  std::string Diags;
  std::string Text("graph @g {\0}", 12);
  EXPECT_FALSE(parse(SM, Text, Diags));
  EXPECT_NE(Diags.find("unexpected NUL byte"), std::string::npos) << Diags;
}

TEST(ParserTest, ErrorsLateInALargeFile) {
  std::string Text = "graph @g {\n";
  for (unsigned I = 0; I != 400; ++I)
    Text += "  n" + std::to_string(I) + " = OP" + std::to_string(I % 7) +
            " VECTOR 1 ()" + (I ? " after n" + std::to_string(I - 1) : "") +
            "\n";
  Text += "}\n";
  auto Replace = [&](llvm::StringRef From, llvm::StringRef To) {
    std::string Bad = Text;
    size_t At = Bad.find(From.str());
    EXPECT_NE(At, std::string::npos) << From.str();
    Bad.replace(At, From.size(), To.str());
    return Bad;
  };
  struct Case {
    std::string Text;
    const char *Expected;
  } Cases[] = {
      {Replace("n390 = OP5 VECTOR 1 ()", "n390 = OP5 VECTOR 1 ("),
       "test.dan:392:25: error: syntax error"},
      {Replace("n350 = OP0 VECTOR", "n350 = OP0 VECTR"),
       "test.dan:352:14: error: unknown pipe"},
      {Replace("n300 = ", "n3 = "),
       "test.dan:302:3: error: redefinition of node n3"},
      {Replace("after n379", "after n999"),
       "test.dan:382:32: error: use of undefined node n999"},
      {Replace("after n250", "after n250, n250"),
       "test.dan:253:38: error: duplicate edge from n250 to n251"},
  };
  for (const Case &C : Cases) {
    llvm::SourceMgr SM;
    std::string Diags;
    EXPECT_FALSE(parse(SM, C.Text, Diags));
    EXPECT_NE(Diags.find(C.Expected), std::string::npos) << Diags;
  }
}
