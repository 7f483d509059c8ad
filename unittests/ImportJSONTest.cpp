//===- ImportJSONTest.cpp - The contest JSON reader -----------------------===//
//
// The reader adds each element as the syntax check meets it, and reads an
// array again, reporting, when that fails or when the array comes before
// the one it needs: these tests pin that both ways give one graph and the
// errors of the whole text, in its order.

#include "dan/Formats/JSON.h"
#include "dan/IR/Printer.h"
#include "llvm/ADT/StringRef.h"
#include "llvm/Support/MemoryBuffer.h"
#include "llvm/Support/SourceMgr.h"
#include "gtest/gtest.h"
#include <algorithm>
#include <string>
#include <vector>

using namespace dan;

namespace {

/// The printed graph, or the first line of the diagnostics, of importing
/// \p Text.
std::string import(llvm::StringRef Text) {
  llvm::SourceMgr SM;
  std::string Out;
  SM.setDiagHandler(
      [](const llvm::SMDiagnostic &D, void *Ctx) {
        llvm::raw_string_ostream OS(*static_cast<std::string *>(Ctx));
        D.print(nullptr, OS, false);
      },
      &Out);
  unsigned ID = SM.AddNewSourceBuffer(
      llvm::MemoryBuffer::getMemBufferCopy(Text, "in.json"), llvm::SMLoc());
  std::unique_ptr<Graph> G = importJSON(SM, ID, "g");
  if (!G)
    return llvm::StringRef(Out).split('\n').first.str();
  llvm::raw_string_ostream OS(Out);
  printGraph(*G, OS);
  return Out;
}

const char *Alloc =
    R"({"Id": 0, "Op": "ALLOC", "BufId": 0, "Size": 4, "Type": "UB"})";
const char *Free =
    R"({"Id": 1, "Op": "FREE", "BufId": 0, "Size": 4, "Type": "UB"})";
const char *Copy =
    R"({"Id": 2, "Op": "COPY_IN", "Pipe": "MTE2", "Cycles": 3, "Bufs": [0]})";

std::string nodes(const std::string &Inner) {
  return R"("Nodes": [)" + Inner + "]";
}

} // namespace

TEST(ImportJSONTest, TopLevelOrderGivesOneGraph) {
  std::vector<std::string> Members = {
      nodes(std::string(Alloc) + ", " + Copy + ", " + Free),
      R"("Edges": [[0, 2], [2, 1]])", R"("ReuseEdges": [[2, 1]])"};
  std::sort(Members.begin(), Members.end());
  std::string First;
  do {
    std::string Text =
        "{" + Members[0] + ", " + Members[1] + ", " + Members[2] + "}";
    std::string Printed = import(Text);
    EXPECT_NE(Printed.find("n2 = COPY_IN"), std::string::npos) << Printed;
    if (First.empty())
      First = Printed;
    EXPECT_EQ(First, Printed) << Text;
  } while (std::next_permutation(Members.begin(), Members.end()));
}

TEST(ImportJSONTest, SyntaxErrorsComeFirst) {
  // The node has no "Op", but the text breaks later: that is reported.
  EXPECT_EQ(import(R"({"Nodes": [{"Id": 0}], "Edges": [1 2]})"),
            "in.json:1:36: error: invalid JSON: Expected , or ] after array "
            "element");
  // A bad escape after it, too, is reported before the missing "Op".
  EXPECT_EQ(import(R"({"Nodes": [{"Id": 0}], "Edges": [], "M": "\q"})"),
            "in.json:1:44: error: invalid JSON: Invalid escape sequence");
  EXPECT_EQ(import(R"({"Nodes": [{"Id": 0}], "Edges": []})"),
            "in.json:1:12: error: Nodes[0] has no 'Op'");
  // So is a control byte in a key, which is not JSON either.
  EXPECT_EQ(import("{\"Nodes\": [], \"Ed\x01ges\": [], \"Edges\": []}"),
            "in.json:1:18: error: invalid JSON: Control character in string");
}

TEST(ImportJSONTest, ErrorsOfBrokenShapes) {
  std::string Good =
      "{" + nodes(std::string(Alloc) + ", " + Free) + R"(, "Edges": [[0, 1]]})";
  EXPECT_EQ(import(Good + " x"),
            "in.json:1:157: error: invalid JSON: Text after end of JSON value");
  EXPECT_EQ(import(Good.substr(0, Good.size() - 1)),
            "in.json:1:155: error: invalid JSON: Unexpected EOF");
  EXPECT_EQ(import(R"({"Nodes": [,], "Edges": []})"),
            "in.json:1:12: error: invalid JSON: Invalid JSON value");
  EXPECT_EQ(import(R"({"Nodes": [], "Nodes": [], "Edges": []})"),
            "in.json:1:15: error: duplicate key 'Nodes' in one object");
  EXPECT_EQ(import(R"({"Nodes": {}, "Edges": []})"),
            "in.json:1:11: error: 'Nodes' must be an array of node objects");
  EXPECT_EQ(import(R"({"Nodes": [], "Edges": [], "ReuseEdges": 3})"),
            "in.json:1:42: error: 'ReuseEdges' must be an array of [src, "
            "dst] pairs");
  EXPECT_EQ(import("[]"), "in.json:1:1: error: expected a JSON object with "
                          "\"Nodes\" and \"Edges\"");
  EXPECT_EQ(import("{}"),
            "in.json:1:1: error: the top-level object has no 'Nodes' array");
  EXPECT_EQ(import("{" + nodes(std::string(Alloc) + ", " + Free) +
                   R"(, "Edges": [[0, 1], [0]]})"),
            "in.json:1:156: error: Edges[1] must be a pair [src, dst] of node "
            "ids");
  // Edges before the nodes they name are read after them all the same.
  EXPECT_EQ(import(R"({"Edges": [[0, 5]], )" + nodes(Alloc) + "}"),
            "in.json:1:12: error: edge to unknown node 5");
  EXPECT_EQ(import("{" + nodes(std::string(Alloc) + ", 7") + "}"),
            "in.json:1:75: error: Nodes[1] must be an object");
}

TEST(ImportJSONTest, EscapesAndIntegers) {
  // Escaped keys and values decode; an escaped key's value is where an
  // error points.
  std::string Printed =
      import(R"({"Node\u0073": [{"Id": -0, "Op": "\u0041LLOC", "BufId": 0,)"
             R"( "Size": 4, "Type": "U\u0042"}], "Edges": []})");
  EXPECT_NE(Printed.find("n0 = alloc b0 UB 4"), std::string::npos) << Printed;
  EXPECT_EQ(import(R"({"Node\u0073": [5], "Edges": []})"),
            "in.json:1:17: error: Nodes[0] must be an object");
  // An id past 2^63 is no integer at all to llvm::json's reading.
  std::string Two = "{" + nodes(std::string(Alloc) + ", " + Free);
  EXPECT_EQ(import(Two + R"(, "Edges": [[0, 9223372036854775807]]})"),
            "in.json:1:148: error: edge to unknown node 9223372036854775807");
  EXPECT_EQ(import(Two + R"(, "Edges": [[0, 9223372036854775808]]})"),
            "in.json:1:148: error: Edges[0] must be a pair [src, dst] of node "
            "ids");
  EXPECT_EQ(import(Two + R"(, "Edges": [[0, 1, 2]]})"),
            "in.json:1:148: error: Edges[0] must be a pair [src, dst] of node "
            "ids");
}
