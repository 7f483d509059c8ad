//===- dan-fuzz-ir.cpp - Fuzz the IR lexer and parser ---------------------===//
//
// The input is a .dan file. Whatever parses must print as IR that parses
// back to the same text (the printer's promise).
//
//===----------------------------------------------------------------------===//

#include "FuzzSupport.h"
#include "dan/Parse/Parser.h"

using namespace llvm;
using namespace dan;

extern "C" int LLVMFuzzerTestOneInput(const uint8_t *Data, size_t Size) {
  SourceMgr SM;
  fuzz::quietDiagnostics(SM);
  StringRef Text(reinterpret_cast<const char *>(Data), Size);
  unsigned ID = fuzz::addBuffer(SM, Text, "input.dan");
  if (std::unique_ptr<Graph> G = parseGraph(SM, ID))
    fuzz::checkRoundTrip(*G);
  return 0;
}
