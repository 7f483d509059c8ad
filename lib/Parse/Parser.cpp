//===- Parser.cpp - Reading a file of DAN IR ------------------------------===//

#include "dan/Parse/Parser.h"
#include "Lexer.h"
#include "ParseState.h"
#include "dan/IR/Diagnostic.h"
#include "llvm/Support/MemoryBuffer.h"
#include <algorithm>

using namespace llvm;

namespace dan {

std::unique_ptr<Graph> parseGraph(SourceMgr &SM, unsigned BufferID) {
  const MemoryBuffer *Buf = SM.getMemoryBuffer(BufferID);
  // A UTF-8 byte-order mark, which some editors write, is not part of the
  // text.
  const char *Begin = Buf->getBufferStart(), *End = Buf->getBufferEnd();
  if (Buf->getBuffer().starts_with("\xEF\xBB\xBF"))
    Begin += 3;
  if (reportEmptyInput(SM, BufferID))
    return nullptr;
  auto G = std::make_unique<Graph>();
  // Each statement defines its node with one '=', and a statement has a
  // reference more than its commas at most: room for all of them up front,
  // so that the lists are never regrown (a regrowth copies every Node).
  size_t Equals = std::count(Begin, End, '=');
  G->Nodes.reserve(Equals);
  G->Order.reserve(Equals);
  detail::ParseState PS(SM, *G);
  PS.reserveRefs(Equals + std::count(Begin, End, ','));
  detail::Lexer Lex(Begin, End, PS);
  detail::IRParser Parser(Lex, PS);
  if (Parser.parse() != 0 || PS.hadError() || !PS.finish())
    return nullptr;
  return G;
}

std::unique_ptr<Graph> parseGraphString(StringRef Text, SourceMgr &SM,
                                        StringRef BufferName) {
  unsigned ID = SM.AddNewSourceBuffer(
      MemoryBuffer::getMemBufferCopy(Text, BufferName), SMLoc());
  return parseGraph(SM, ID);
}

} // namespace dan
