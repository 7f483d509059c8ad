//===- dan-fuzz-pipeline.cpp - Fuzz parse, verify, replay -----------------===//
//
// The input is a graph: DAN IR, or contest JSON when it starts with '{'
// (importGraph decides, as dan-translate --import=submission and dan-bench
// do). Whatever parses is verified and replayed; see checkVerifyAndReplay
// for what must hold.
//
//===----------------------------------------------------------------------===//

#include "FuzzSupport.h"
#include "dan/Formats/Formats.h"

using namespace llvm;
using namespace dan;

extern "C" int LLVMFuzzerTestOneInput(const uint8_t *Data, size_t Size) {
  SourceMgr SM;
  fuzz::quietDiagnostics(SM);
  StringRef Text(reinterpret_cast<const char *>(Data), Size);
  unsigned ID = fuzz::addBuffer(SM, Text, "input.dan");
  if (std::unique_ptr<Graph> G = importGraph(SM, ID, "input"))
    fuzz::checkVerifyAndReplay(*G, SM);
  return 0;
}
