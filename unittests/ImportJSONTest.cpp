//===- ImportJSONTest.cpp - Chunked JSON equals whole-file JSON -----------===//

#include "dan/Formats/JSON.h"
#include "dan/IR/Printer.h"
#include "llvm/Support/FileSystem.h"
#include "llvm/Support/MemoryBuffer.h"
#include "llvm/Support/Path.h"
#include "llvm/Support/SourceMgr.h"
#include "gtest/gtest.h"

using namespace dan;

namespace {

/// The printed graph, or the diagnostics, of importing \p Text with the
/// given threshold (0: always chunked; SIZE_MAX: always whole).
std::string import(llvm::StringRef Text, size_t StreamAbove) {
  llvm::SourceMgr SM;
  std::string Out;
  SM.setDiagHandler(
      [](const llvm::SMDiagnostic &D, void *Ctx) {
        llvm::raw_string_ostream OS(*static_cast<std::string *>(Ctx));
        D.print("x", OS, false);
      },
      &Out);
  unsigned ID = SM.AddNewSourceBuffer(
      llvm::MemoryBuffer::getMemBufferCopy(Text, "in.json"), llvm::SMLoc());
  std::unique_ptr<Graph> G = importJSON(SM, ID, "g", StreamAbove);
  if (G) {
    llvm::raw_string_ostream OS(Out);
    printGraph(*G, OS);
  }
  return Out;
}

void same(llvm::StringRef Text) {
  EXPECT_EQ(import(Text, 0), import(Text, SIZE_MAX)) << Text.str();
}

} // namespace

TEST(ImportJSONTest, ChunkedEqualsWholeOnTheTestInputs) {
  std::error_code EC;
  unsigned Files = 0;
  for (llvm::sys::fs::directory_iterator It(DAN_JSON_INPUTS_DIR, EC), End;
       It != End && !EC; It.increment(EC)) {
    auto Buf = llvm::MemoryBuffer::getFile(It->path());
    ASSERT_TRUE(bool(Buf));
    same((*Buf)->getBuffer());
    ++Files;
  }
  EXPECT_GT(Files, 30u);
}

TEST(ImportJSONTest, ChunkedEqualsWholeOnBrokenShapes) {
  const char *Node =
      R"({"Id": 0, "Op": "ALLOC", "BufId": 0, "Size": 4, "Type": "UB"})";
  const char *Free =
      R"({"Id": 1, "Op": "FREE", "BufId": 0, "Size": 4, "Type": "UB"})";
  std::string Good = std::string(R"({"Nodes": [)") + Node + ", " + Free +
                     R"(], "Edges": [[0, 1]]})";
  same(Good);
  same(Good + " x");                                  // trailing garbage
  same(Good.substr(0, Good.size() - 1));              // unclosed object
  same(R"({"Nodes": [], "Edges": []})");              // empty graph
  same(R"({"Edges": [], "Nodes": []})");              // other key order
  same(R"({"Nodes": [,], "Edges": []})");             // empty element
  same(R"({"Nodes": [1,], "Edges": []})");            // trailing comma
  same(R"({"Nodes": [] "Edges": []})");               // missing comma
  same(R"({"Nodes": [], "Nodes": [], "Edges": []})"); // duplicate key
  same(R"({"Node\u0073": [], "Edges": []})");         // escaped key
  same(R"({"Nodes": [], "Edges": [], "Extra": {"a": [1, 2}})"); // bad value
  same(R"({"Nodes": [], "Edges": [], "Extra": tru})");          // bad scalar
  same(R"({"Nodes": [], "Edges": [], "Extra": "s", "N": 1.5})");
  same(R"({"Nodes": {}, "Edges": []})"); // not an array
  same(R"({"Nodes": [], "Edges": [], "ReuseEdges": 3})");
  same(R"([])");
  same(R"({})");
  same(std::string(R"({"Nodes": [)") + Node + R"(, {"Id": 1}], "Edges": []})");
  same(std::string(R"({"Nodes": [)") + Node + ", " + Free +
       R"(], "Edges": [[0, 1], [0]]})");
  same(std::string(R"({"Nodes": [)") + Node + ", " + Free +
       R"(], "Edges": [[0, 1]], "ReuseEdges": [[0, 1], [1, 0]]})");
}
