//===- BuilderTest.cpp - Building a graph from a program ------------------===//

#include "dan/IR/Builder.h"
#include "TestUtil.h"
#include "dan/IR/Printer.h"
#include "gtest/gtest.h"

using namespace dan;

namespace {

std::string errorText(llvm::Error E) { return llvm::toString(std::move(E)); }

template <typename T> std::string errorText(llvm::Expected<T> V) {
  return V ? std::string("no error") : llvm::toString(V.takeError());
}

std::string printed(const Graph &G) {
  std::string S;
  llvm::raw_string_ostream OS(S);
  printGraph(G, OS);
  return S;
}

TEST(BuilderTest, BuildsWhatTheParserReads) {
  Builder B("Tile");
  BufferHandle A = cantFail(B.alloc("L1", 512));
  NodeHandle Load = cantFail(B.op("COPY_IN", "MTE2", 200, {A}, {A.Alloc}));
  BufferHandle C = cantFail(B.alloc("UB", 256));
  NodeHandle Add =
      cantFail(B.op("vadd.f16", "VECTOR", 80, {A, C}, {Load, C.Alloc}));
  NodeHandle Store = cantFail(B.op("COPY_OUT", "MTE3", 100, {C}, {Add}));
  cantFail(B.free(A, {Add}));
  cantFail(B.free(C, {Store}));
  cantFail(B.setAttr(Add, "src", "aten::add"));
  cantFail(B.setAttr(Add, "loc", "model.py:3"));
  std::unique_ptr<Graph> G = B.take();
  EXPECT_EQ(printed(*G), "target davinci\n\ngraph @Tile {\n"
                         "  n0 = alloc b0 L1 512\n"
                         "  n1 = COPY_IN MTE2 200 (b0) after n0\n"
                         "  n2 = alloc b1 UB 256\n"
                         "  n3 = vadd.f16 VECTOR 80 (b0, b1) after n1, n2 "
                         "{loc = \"model.py:3\", src = \"aten::add\"}\n"
                         "  n4 = COPY_OUT MTE3 100 (b1) after n3\n"
                         "  n5 = free b0 L1 512 after n3\n"
                         "  n6 = free b1 UB 256 after n4\n"
                         "}\n");
  // The builder starts over, under the same name and target.
  EXPECT_EQ(B.take()->size(), 0u);
}

TEST(BuilderTest, ReportsAsTheParser) {
  Builder B("Bad");
  BufferHandle A = cantFail(B.alloc("UB", 64));
  EXPECT_EQ(errorText(B.alloc("UBB", 4)),
            "unknown tier 'UBB'; did you mean 'UB'?");
  EXPECT_EQ(errorText(B.op("X", "VECTR", 1, {A})),
            "unknown pipe 'VECTR'; did you mean 'VECTOR'?");
  EXPECT_EQ(errorText(B.op("Alloc", "VECTOR", 1, {A})),
            "'Alloc' is not an operation; write 'alloc bN ...' for a buffer "
            "node");
  EXPECT_EQ(errorText(B.op("after", "VECTOR", 1, {})),
            "'after' is a keyword of DAN IR, not an operation name");
  EXPECT_EQ(errorText(B.op("COPY-IN", "MTE2", 1, {})),
            "'COPY-IN' cannot name an operation in DAN IR: write a letter or "
            "'_' followed by letters, digits, '_' or '.'");
  EXPECT_EQ(errorText(B.alloc("UB", MaxValue + 1)),
            "number '1099511627777' is too large; the limit is 2^40 "
            "(1099511627776)");
  NodeHandle Op = cantFail(B.op("X", "VECTOR", 1, {A}, {A.Alloc}));
  EXPECT_EQ(errorText(B.addEdge(A.Alloc, Op)), "duplicate edge from n0 to n1");
  EXPECT_EQ(errorText(B.addEdge(NodeHandle{7}, Op)),
            "node handle 7 is not a node of this graph");
  EXPECT_EQ(errorText(B.op("X", "VECTOR", 1, {BufferHandle{{}, 9}})),
            "buffer handle b9 is not a buffer of this graph");
  EXPECT_EQ(errorText(B.setAttr(Op, "n5", "x")),
            "'n5' reads as a node or buffer id in DAN IR, not an attribute "
            "key");
  cantFail(B.setAttr(Op, "k", "v"));
  EXPECT_EQ(errorText(B.setAttr(Op, "k", "w")), "duplicate attribute 'k'");
  EXPECT_EQ(errorText(B.setAttr(Op, "j", "\xFF")),
            "a string must be valid UTF-8");
}

TEST(BuilderTest, RefusesAnotherBuildersBuffer) {
  // A handle of another builder (here of another target, whose tier the
  // graph does not have) with an id this graph has: refused, not taken
  // for this graph's buffer of that id.
  Builder Other("Other");
  BufferHandle Foreign = cantFail(Other.alloc("L0C", 64));
  Builder B("Mine", *TargetDesc::builtin("vnpu"));
  BufferHandle Own = cantFail(B.alloc("VA", 64));
  EXPECT_EQ(Own.Id, Foreign.Id);
  EXPECT_EQ(errorText(B.free(Foreign, {Own.Alloc})),
            "buffer handle b0 is not a buffer of this graph");
  EXPECT_EQ(errorText(B.op("VADD", "VEC", 1, {Foreign}, {Own.Alloc})),
            "buffer handle b0 is not a buffer of this graph");
  NodeHandle Free = cantFail(B.free(Own, {Own.Alloc}));
  EXPECT_EQ(Free.Index, 1u);
}

TEST(BuilderTest, RefusesHandlesOfAnotherGraph) {
  // Handles alike in every field but their builder: another builder's, or
  // this one's from before take. Each is refused.
  Builder A("A"), B("B");
  BufferHandle InA = cantFail(A.alloc("UB", 64));
  BufferHandle InB = cantFail(B.alloc("UB", 64));
  EXPECT_EQ(errorText(B.op("X", "VECTOR", 1, {InA})),
            "buffer handle b0 is not a buffer of this graph");
  EXPECT_EQ(errorText(B.free(InA)),
            "buffer handle b0 is not a buffer of this graph");
  EXPECT_EQ(errorText(B.op("X", "VECTOR", 1, {InB}, {InA.Alloc})),
            "node handle 0 is not a node of this graph");
  EXPECT_EQ(errorText(B.addEdge(InA.Alloc, InB.Alloc)),
            "node handle 0 is not a node of this graph");
  B.take();
  cantFail(B.alloc("UB", 64));
  EXPECT_EQ(errorText(B.free(InB)),
            "buffer handle b0 is not a buffer of this graph");
}

TEST(BuilderTest, FailedCallChangesNothing) {
  Builder B("G");
  BufferHandle A = cantFail(B.alloc("UB", 64));
  EXPECT_EQ(errorText(B.op("Y", "VECTOR", 1, {A}, {A.Alloc, A.Alloc})),
            "duplicate edge from n0 to n1");
  EXPECT_EQ(errorText(B.alloc("UB", 8, {A.Alloc, A.Alloc})),
            "duplicate edge from n0 to n1");
  EXPECT_EQ(errorText(B.free(A, {A.Alloc, A.Alloc})),
            "duplicate edge from n0 to n1");
  // The next buffer is still b1, and the graph holds the alloc alone.
  BufferHandle Next = cantFail(B.alloc("UB", 8));
  EXPECT_EQ(Next.Id, 1u);
  EXPECT_EQ(Next.Alloc.Index, 1u);
  std::unique_ptr<Graph> G = B.take();
  EXPECT_EQ(G->size(), 2u);
  EXPECT_EQ(G->OpNames.size(), 0u);
}

TEST(BuilderTest, CreateChecksTheGraphName) {
  EXPECT_EQ(errorText(Builder::create("a b")),
            "'a b' is not a graph name: use letters, digits and _ . $ -");
  EXPECT_EQ(errorText(Builder::create("")),
            "'' is not a graph name: use letters, digits and _ . $ -");
  Builder B = cantFail(Builder::create("a.b$-1"));
  EXPECT_EQ(B.take()->Name, "a.b$-1");
}

} // namespace
