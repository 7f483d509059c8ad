//===- GraphBuilder.cpp - Building a graph from an external format --------===//

#include "GraphBuilder.h"

using namespace llvm;

namespace dan::detail {

bool GraphBuilder::error(SMLoc Loc, const Twine &Msg) {
  SM.PrintMessage(Loc, SourceMgr::DK_Error, Msg);
  return false;
}

void GraphBuilder::note(SMLoc Loc, const Twine &Msg) {
  SM.PrintMessage(Loc, SourceMgr::DK_Note, Msg);
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
  auto FromIt = Ids.find(From);
  if (FromIt == Ids.end())
    return error(Loc, "edge from unknown node " + Twine(From));
  auto ToIt = Ids.find(To);
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

static bool unknown(GraphBuilder &B, StringRef What, StringRef Name,
                    SMLoc Loc, ArrayRef<StringRef> Valid) {
  StringRef Hint = closestName(Name, Valid);
  if (!Hint.empty())
    return B.error(Loc, "unknown " + What + " '" + Name + "'; did you mean '" +
                            Hint + "'?");
  std::string List;
  for (StringRef V : Valid)
    List += (List.empty() ? "" : ", ") + V.str();
  return B.error(Loc, "unknown " + What + " '" + Name + "'; expected one of " +
                          List);
}

bool checkTierName(GraphBuilder &B, StringRef Name, SMLoc Loc, Tier &T) {
  if (auto Found = lookupTier(Name)) {
    T = *Found;
    return true;
  }
  return unknown(B, "tier", Name, Loc, allTierNames());
}

bool checkPipeName(GraphBuilder &B, StringRef Name, SMLoc Loc, Pipe &P) {
  if (auto Found = lookupPipe(Name)) {
    P = *Found;
    return true;
  }
  return unknown(B, "pipe", Name, Loc, allPipeNames());
}

} // namespace dan::detail
