//===- GraphBuilder.cpp - Building a graph from an external format --------===//

#include "GraphBuilder.h"
#include "dan/IR/Diagnostic.h"
#include "llvm/ADT/StringExtras.h"

using namespace llvm;

namespace dan::detail {

bool GraphBuilder::error(SMLoc Loc, const Twine &Msg) {
  printLocated(SM, Loc, SourceMgr::DK_Error, Msg);
  return false;
}

void GraphBuilder::note(SMLoc Loc, const Twine &Msg) {
  printLocated(SM, Loc, SourceMgr::DK_Note, Msg);
}

bool GraphBuilder::addNode(Node N) {
  auto [It, Inserted] = Ids.try_emplace(N.Id, G.size());
  if (!Inserted) {
    error(N.Loc, "duplicate node id " + Twine(N.Id));
    note(G[It->second].Loc, "node " + Twine(N.Id) + " is first defined here");
    return false;
  }
  G.addNode(std::move(N));
  return true;
}

bool GraphBuilder::addEdge(uint64_t From, uint64_t To, SMLoc Loc, bool Reuse) {
  // No node has an id above MaxValue, and DenseMap must never be asked for
  // its reserved keys (2^64 - 1 and 2^64 - 2): it would return an empty
  // slot, with no node in it, as a match.
  auto FromIt = From <= MaxValue ? Ids.find(From) : Ids.end();
  if (FromIt == Ids.end())
    return error(Loc, "edge from unknown node " + Twine(From));
  auto ToIt = To <= MaxValue ? Ids.find(To) : Ids.end();
  if (ToIt == Ids.end())
    return error(Loc, "edge to unknown node " + Twine(To));
  auto &Set = Reuse ? ReuseEdges : Edges;
  if (!Set.insert({FromIt->second, ToIt->second}).second)
    return error(Loc, "duplicate " + Twine(Reuse ? "reuse " : "") + "edge " +
                          Twine(From) + " -> " + Twine(To));
  Node &N = G[ToIt->second];
  (Reuse ? N.ReusePreds : N.Preds).push_back(FromIt->second);
  return true;
}

bool checkTierName(GraphBuilder &B, StringRef Name, LazyLoc Where, Tier &T) {
  const TargetDesc &Target = B.graph().Target;
  if (auto Found = Target.lookupTier(Name)) {
    T = *Found;
    return true;
  }
  return B.error(Where(), unknownNameMessage("tier", Name, Target.tierNames()));
}

bool checkPipeName(GraphBuilder &B, StringRef Name, LazyLoc Where, Pipe &P) {
  const TargetDesc &Target = B.graph().Target;
  if (auto Found = Target.lookupPipe(Name)) {
    P = *Found;
    return true;
  }
  return B.error(Where(), unknownNameMessage("pipe", Name, Target.pipeNames()));
}

bool checkOpName(GraphBuilder &B, StringRef Name, LazyLoc Where,
                 const Twine &What) {
  if (namesBufferNode(Name)) {
    std::string Upper = Name.upper();
    return B.error(Where(),
                   What + " " + quoteToken(Name) + " names a buffer node, " +
                       (Name == Upper
                            ? "which this format does not hold"
                            : "not an operation; write " + quoteToken(Upper)));
  }
  return checkIdentifier(B, Name, Where, What, "an operation",
                         "an operation name");
}

bool checkIdentifier(GraphBuilder &B, StringRef Name, LazyLoc Where,
                     const Twine &What, StringRef Role, StringRef Noun) {
  std::string Problem = identifierError(Name, Role, Noun);
  return Problem.empty() || B.error(Where(), What + " " + Problem);
}

} // namespace dan::detail
