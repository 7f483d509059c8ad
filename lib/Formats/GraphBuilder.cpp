//===- GraphBuilder.cpp - Building a graph from an external format --------===//

#include "GraphBuilder.h"
#include "dan/IR/Diagnostic.h"
#include "llvm/ADT/StringExtras.h"

using namespace llvm;

namespace dan::detail {

bool GraphBuilder::error(SMLoc Loc, const Twine &Msg) {
  if (!Quiet)
    printLocated(SM, Loc, SourceMgr::DK_Error, Msg);
  return false;
}

void GraphBuilder::note(SMLoc Loc, const Twine &Msg) {
  if (!Quiet)
    printLocated(SM, Loc, SourceMgr::DK_Note, Msg);
}

bool GraphBuilder::addNode(Node N) {
  if (!Ids.insert(N.Id, G.size())) {
    error(N.Loc, "duplicate node id " + Twine(N.Id));
    note(G[Ids.lookup(N.Id)].Loc,
         "node " + Twine(N.Id) + " is first defined here");
    return false;
  }
  G.addNode(std::move(N));
  return true;
}

bool GraphBuilder::hasEdge(const EdgeList &List, NodeIdx From, NodeIdx To,
                           bool Reuse) {
  if (List.size() < ShortList)
    return llvm::is_contained(List, From);
  if (List.size() == ShortList)
    for (NodeIdx P : List)
      LongLists[Reuse].insert({To, P});
  return !LongLists[Reuse].insert({To, From}).second;
}

bool GraphBuilder::addEdge(uint64_t From, uint64_t To, SMLoc Loc, bool Reuse) {
  // No node has an id above MaxValue (nor may the index be asked for one).
  NodeIdx FromI = From <= MaxValue ? Ids.lookup(From) : IdIndex::None;
  if (FromI == IdIndex::None)
    return error(Loc, "edge from unknown node " + Twine(From));
  NodeIdx ToI = To <= MaxValue ? Ids.lookup(To) : IdIndex::None;
  if (ToI == IdIndex::None)
    return error(Loc, "edge to unknown node " + Twine(To));
  Node &N = G[ToI];
  EdgeList &List = Reuse ? N.ReusePreds : N.Preds;
  if (hasEdge(List, FromI, ToI, Reuse))
    return error(Loc, "duplicate " + Twine(Reuse ? "reuse " : "") + "edge " +
                          Twine(From) + " -> " + Twine(To));
  List.push_back(FromI);
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
