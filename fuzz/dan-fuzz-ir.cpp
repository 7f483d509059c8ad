//===- dan-fuzz-ir.cpp - Fuzz the IR lexer and parser ---------------------===//
//
// The input is a .dan file. Whatever parses must print as IR that parses
// back to the same text (the printer's promise). Read again in pieces of a
// few bytes on three threads, it must give the same graph, or the same
// diagnostics (the promise of reading in pieces).
//
//===----------------------------------------------------------------------===//

#include "FuzzSupport.h"
#include "dan/Parse/Parser.h"

using namespace llvm;
using namespace dan;

namespace {
/// Parses \p Text with \p Opts: the printed graph, or "" and the
/// diagnostics, each with its line and column.
std::pair<std::string, std::string> readWith(StringRef Text,
                                             const ParseOptions &Opts) {
  SourceMgr SM;
  std::string Diags;
  SM.setDiagHandler(
      [](const SMDiagnostic &D, void *Context) {
        raw_string_ostream OS(*static_cast<std::string *>(Context));
        OS << D.getLineNo() << ':' << D.getColumnNo() << ": " << D.getMessage()
           << '\n';
      },
      &Diags);
  unsigned ID = fuzz::addBuffer(SM, Text, "input.dan");
  std::unique_ptr<Graph> G = parseGraph(SM, ID, Opts);
  return {G ? fuzz::printed(*G) : std::string(), Diags};
}
} // namespace

extern "C" int LLVMFuzzerTestOneInput(const uint8_t *Data, size_t Size) {
  SourceMgr SM;
  fuzz::quietDiagnostics(SM);
  StringRef Text(reinterpret_cast<const char *>(Data), Size);
  unsigned ID = fuzz::addBuffer(SM, Text, "input.dan");
  if (std::unique_ptr<Graph> G = parseGraph(SM, ID))
    fuzz::checkRoundTrip(*G);
  ParseOptions Pieces;
  Pieces.Threads = 3;
  Pieces.MinPieceBytes = 8;
  auto Whole = readWith(Text, ParseOptions());
  auto InPieces = readWith(Text, Pieces);
  if (Whole.first != InPieces.first)
    fuzz::fail("reading in pieces gives another graph", Whole.first,
               InPieces.first);
  if (Whole.second != InPieces.second)
    fuzz::fail("reading in pieces gives other diagnostics", Whole.second,
               InPieces.second);
  return 0;
}
