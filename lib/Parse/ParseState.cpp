//===- ParseState.cpp - Name checks and resolution for the IR parser ------===//

#include "ParseState.h"
#include "Lexer.h"
#include "dan/Parse/Parser.h"
#include "llvm/ADT/STLExtras.h"
#include "llvm/Support/MemoryBuffer.h"

using namespace llvm;

namespace dan::detail {

void ParseState::error(SMLoc Loc, const Twine &Msg) {
  HadError = true;
  SM.PrintMessage(Loc, SourceMgr::DK_Error, Msg);
}

void ParseState::note(SMLoc Loc, const Twine &Msg) {
  SM.PrintMessage(Loc, SourceMgr::DK_Note, Msg);
}

bool ParseState::checkTarget(StringRef Name, SrcRange R) {
  if (Name == "davinci")
    return true;
  error(R.begin, "unknown target '" + Name + "'; the only target is 'davinci'");
  return false;
}

bool ParseState::lookupTier(StringRef Name, SrcRange R, Tier &T) {
  if (auto Found = dan::lookupTier(Name)) {
    T = *Found;
    return true;
  }
  error(R.begin, unknownNameMessage("tier", Name, allTierNames()));
  return false;
}

bool ParseState::lookupPipe(StringRef Name, SrcRange R, Pipe &P) {
  if (auto Found = dan::lookupPipe(Name)) {
    P = *Found;
    return true;
  }
  error(R.begin, unknownNameMessage("pipe", Name, allPipeNames()));
  return false;
}

bool ParseState::checkOpName(StringRef Name, SrcRange R) {
  if (namesBufferNode(Name)) {
    error(R.begin, "'" + Name + "' is not an operation; write '" +
                       Name.lower() + " bN ...' for a buffer node");
    return false;
  }
  return true;
}

bool ParseState::defineNode(uint64_t Id, SrcRange R, Node N, IdRefList After,
                            IdRefList Reuse) {
  auto [It, Inserted] = Ids.try_emplace(Id, G.size());
  if (!Inserted) {
    error(R.begin, "redefinition of node n" + Twine(Id));
    note(G[It->second].Loc, "previous definition is here");
    return false;
  }
  N.Id = Id;
  N.Loc = R.begin;
  NodeIdx I = G.addNode(std::move(N));
  for (const IdRef &Ref : After)
    Refs.push_back({I, Ref.first, Ref.second, false});
  for (const IdRef &Ref : Reuse)
    Refs.push_back({I, Ref.first, Ref.second, true});
  return true;
}

bool ParseState::finish() {
  for (const PendingRef &Ref : Refs) {
    auto It = Ids.find(Ref.Id);
    if (It == Ids.end()) {
      error(Ref.Loc, "use of undefined node n" + Twine(Ref.Id));
      continue;
    }
    Node &User = G[Ref.User];
    auto &List = Ref.Reuse ? User.ReusePreds : User.Preds;
    if (is_contained(List, It->second)) {
      error(Ref.Loc, "duplicate " + Twine(Ref.Reuse ? "reuse " : "") +
                         "edge from n" + Twine(Ref.Id) + " to n" +
                         Twine(User.Id));
      continue;
    }
    List.push_back(It->second);
  }
  G.sortEdges();
  return !HadError;
}

} // namespace dan::detail

namespace dan {

std::unique_ptr<Graph> parseGraph(SourceMgr &SM, unsigned BufferID) {
  const MemoryBuffer *Buf = SM.getMemoryBuffer(BufferID);
  auto G = std::make_unique<Graph>();
  detail::ParseState PS(SM, *G);
  detail::Lexer Lex(Buf->getBufferStart(), Buf->getBufferEnd(), PS);
  detail::IRParser P(Lex, PS);
  if (P.parse() != 0 || PS.hadError() || !PS.finish())
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
