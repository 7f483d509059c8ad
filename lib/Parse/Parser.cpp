//===- Parser.cpp - Reading a file of DAN IR ------------------------------===//

#include "dan/Parse/Parser.h"
#include "Lexer.h"
#include "ParseState.h"
#include "dan/IR/Diagnostic.h"
#include "llvm/Support/MemoryBuffer.h"
#include <algorithm>

using namespace llvm;

namespace dan {

/// The text of buffer \p BufferID without a UTF-8 byte-order mark, which
/// some editors write.
static StringRef textOf(SourceMgr &SM, unsigned BufferID) {
  StringRef Text = SM.getMemoryBuffer(BufferID)->getBuffer();
  Text.consume_front("\xEF\xBB\xBF");
  return Text;
}

namespace detail {
std::optional<TargetDesc> parseTargetBuffer(SourceMgr &SM, unsigned BufferID) {
  StringRef Text = textOf(SM, BufferID);
  Graph Scratch;
  ParseState PS(SM, Scratch);
  Lexer Lex(Text.begin(), Text.end(), PS);
  Lex.startTargetFile();
  IRParser Parser(Lex, PS);
  if (Parser.parse() != 0 || PS.hadError()) {
    PS.reportDropped(BufferID);
    return std::nullopt;
  }
  return std::move(Scratch.Target);
}
} // namespace detail

std::optional<TargetDesc> parseTargetDescription(SourceMgr &SM,
                                                 unsigned BufferID) {
  return detail::parseTargetBuffer(SM, BufferID);
}

std::unique_ptr<Graph> parseGraph(SourceMgr &SM, unsigned BufferID,
                                  const TargetDesc *Base,
                                  uint64_t MaxIncludeSize) {
  StringRef Text = textOf(SM, BufferID);
  const char *Begin = Text.begin(), *End = Text.end();
  if (reportEmptyInput(SM, BufferID))
    return nullptr;
  auto G = std::make_unique<Graph>();
  if (Base)
    G->Target = *Base;
  // Each statement defines its node with one '=', and a statement has a
  // reference more than its commas at most: room for all of them up front,
  // so that the lists are rarely regrown (a regrowth copies every Node).
  // Comments and strings may hold either character too, so the room is
  // also held to one statement per 32 bytes and one reference per 16 (a
  // printed plan takes about 60 and 30): a denser text only regrows.
  size_t Size = End - Begin;
  size_t Equals = std::min<size_t>(std::count(Begin, End, '='), Size / 32 + 1);
  G->Nodes.reserve(Equals);
  G->Order.reserve(Equals);
  detail::ParseState PS(SM, *G, MaxIncludeSize);
  PS.reserveRefs(
      std::min<size_t>(Equals + std::count(Begin, End, ','), Size / 16 + 1));
  detail::Lexer Lex(Begin, End, PS);
  detail::IRParser Parser(Lex, PS);
  if (Parser.parse() != 0 || PS.hadError() || !PS.finish()) {
    PS.reportDropped(BufferID);
    return nullptr;
  }
  return G;
}

std::unique_ptr<Graph> parseGraphString(StringRef Text, SourceMgr &SM,
                                        StringRef BufferName) {
  unsigned ID = addSourceBuffer(
      SM, MemoryBuffer::getMemBufferCopy(Text, BufferName), SMLoc());
  return parseGraph(SM, ID);
}

} // namespace dan
