//===- dan-fuzz-json.cpp - Fuzz the contest JSON importer -----------------===//
//
// The input is a contest JSON file. Whatever imports must print as IR that
// parses back to the same text: the importer accepts only what the IR can
// hold.
//
//===----------------------------------------------------------------------===//

#include "FuzzSupport.h"
#include "dan/Formats/JSON.h"

using namespace llvm;
using namespace dan;

extern "C" int LLVMFuzzerTestOneInput(const uint8_t *Data, size_t Size) {
  SourceMgr SM;
  fuzz::quietDiagnostics(SM);
  StringRef Text(reinterpret_cast<const char *>(Data), Size);
  unsigned ID = fuzz::addBuffer(SM, Text, "input.json");
  if (std::unique_ptr<Graph> G = importJSON(SM, ID, "input"))
    fuzz::checkRoundTrip(*G);
  return 0;
}
