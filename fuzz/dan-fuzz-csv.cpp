//===- dan-fuzz-csv.cpp - Fuzz the CSV importer ---------------------------===//
//
// The input is the nodes file, then a line "%% edges" and the edges file
// (empty when the line is missing). Whatever imports must print as IR that
// parses back to the same text.
//
//===----------------------------------------------------------------------===//

#include "FuzzSupport.h"
#include "dan/Formats/CSV.h"

using namespace llvm;
using namespace dan;

extern "C" int LLVMFuzzerTestOneInput(const uint8_t *Data, size_t Size) {
  StringRef Nodes;
  std::vector<std::optional<StringRef>> Sections;
  if (!fuzz::splitSections(
          StringRef(reinterpret_cast<const char *>(Data), Size), {"edges"},
          Nodes, Sections))
    return -1;
  SourceMgr SM;
  fuzz::quietDiagnostics(SM);
  unsigned NodesID = fuzz::addBuffer(SM, Nodes, "input_Nodes.csv");
  unsigned EdgesID =
      fuzz::addBuffer(SM, Sections[0].value_or(""), "input_Edges.csv");
  if (std::unique_ptr<Graph> G = importCSV(SM, NodesID, EdgesID, "input"))
    fuzz::checkRoundTrip(*G);
  return 0;
}
