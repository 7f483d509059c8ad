//===- ParseState.cpp - Name checks and resolution for the IR parser ------===//

#include "ParseState.h"
#include "dan/IR/Diagnostic.h"
#include "llvm/ADT/DenseSet.h"
#include "llvm/ADT/STLExtras.h"
#include <algorithm>

using namespace llvm;

namespace dan::detail {

void ParseState::error(SMLoc Loc, const Twine &Msg) {
  HadError = true;
  if (Limiter.error())
    printLocated(SM, Loc, SourceMgr::DK_Error, Msg);
}

void ParseState::note(SMLoc Loc, const Twine &Msg) {
  if (Limiter.note())
    printLocated(SM, Loc, SourceMgr::DK_Note, Msg);
}

void ParseState::reportDropped(unsigned BufferID) {
  if (Limiter.dropped())
    printAboutBuffer(SM, BufferID, SourceMgr::DK_Note,
                     droppedErrorsNote(Limiter.dropped()));
  Limiter.reset();
}

bool ParseState::lookupTier(StringRef Name, SrcRange R, Tier &T) {
  if (auto Found = G.Target.lookupTier(Name)) {
    T = *Found;
    return true;
  }
  error(R.begin, unknownNameMessage("tier", Name, G.Target.tierNames()));
  return false;
}

bool ParseState::lookupPipe(StringRef Name, SrcRange R, Pipe &P) {
  if (auto Found = G.Target.lookupPipe(Name)) {
    P = *Found;
    return true;
  }
  error(R.begin, unknownNameMessage("pipe", Name, G.Target.pipeNames()));
  return false;
}

bool ParseState::checkOpName(StringRef Name, SrcRange R) {
  if (namesBufferNode(Name)) {
    error(R.begin, quoteToken(Name) + " is not an operation; write '" +
                       Name.lower() + " bN ...' for a buffer node");
    return false;
  }
  return true;
}

NodeIdx *ParseState::findId(uint64_t Id) {
  if (Id < DenseIds.size() && DenseIds[Id] != UINT32_MAX)
    return &DenseIds[Id];
  // An id defined before the table grew past it stays in the map.
  if (SparseIds.empty())
    return nullptr;
  auto It = SparseIds.find(Id);
  return It == SparseIds.end() ? nullptr : &It->second;
}

bool ParseState::addId(uint64_t Id, NodeIdx I) {
  if (findId(Id))
    return false;
  // Grow the direct table while ids stay within a few times the node count,
  // counted as the nodes reserved up front (a planned file defines spill
  // nodes, numbered after every other node, from its start).
  uint64_t Count = std::max(G.size(), G.Nodes.capacity());
  if (Id >= DenseIds.size() && Id < 4 * Count + 1024)
    DenseIds.resize(std::max<uint64_t>(Id + 1, 2 * DenseIds.size()),
                    UINT32_MAX);
  if (Id < DenseIds.size())
    DenseIds[Id] = I;
  else
    SparseIds.try_emplace(Id, I);
  return true;
}

bool ParseState::addAttr(StringRef Key, SrcRange KeyR, std::string Value) {
  if (llvm::any_of(CurAttrs, [&](const auto &A) { return A.first == Key; })) {
    error(KeyR.begin, "duplicate attribute " + quoteToken(Key));
    return false;
  }
  CurAttrs.emplace_back(Key.str(), std::move(Value));
  return true;
}

bool ParseState::defineNode(uint64_t Id, SrcRange R) {
  if (NodeIdx *Old = findId(Id)) {
    error(R.begin, "redefinition of node n" + Twine(Id));
    note(G[*Old].Loc, "previous definition is here");
    return false;
  }
  NodeIdx I = G.size();
  addId(Id, I);
  Cur.Id = Id;
  Cur.Loc = R.begin;
  if (!CurTiles.Reads.empty() || !CurTiles.Writes.empty()) {
    Cur.TileSet = G.addTiles(std::move(CurTiles));
    CurTiles = TileAccess();
  }
  ReadsDone = false;
  if (!CurAttrs.empty()) {
    // By key: one canonical form, the one JSON's objects can keep.
    llvm::sort(CurAttrs);
    Cur.AttrSet = G.addAttrs(std::move(CurAttrs));
    CurAttrs = NodeAttrs();
  }
  G.addNode(std::move(Cur));
  Cur = Node();
  for (size_t K = 0; K != CurRefs.size(); ++K)
    Refs.push_back({I, CurRefs[K].first, CurRefs[K].second, K >= AfterEnd});
  CurRefs.clear();
  AfterEnd = 0;
  return true;
}

bool ParseState::finish() {
  // A duplicate is a target already in the user's list. A short list is
  // searched; a list grown past ShortList is mirrored in a set, since the
  // search would be quadratic for a node with a million predecessors. A
  // user's references are contiguous, so one set serves them all.
  constexpr size_t ShortList = 16;
  // Keyed target * 2 + (reuse ? 1 : 0).
  DenseSet<uint64_t> Seen;
  NodeIdx SeenUser = UINT32_MAX;
  bool SeenKind[2] = {false, false};
  // Each list comes out sorted by predecessor id, as Graph::sortEdges
  // leaves it, without a pass over the whole graph: files list edges
  // sorted (the printer does), so a list is sorted only when an id went
  // down in it, once its user's references end.
  NodeIdx SortUser = UINT32_MAX;
  uint64_t LastId[2] = {0, 0};
  bool Unsorted[2] = {false, false};
  auto SortUsersLists = [&] {
    if (SortUser == UINT32_MAX)
      return;
    Node &User = G[SortUser];
    auto ById = [&](NodeIdx A, NodeIdx B) { return G[A].Id < G[B].Id; };
    if (Unsorted[0])
      llvm::sort(User.Preds, ById);
    if (Unsorted[1])
      llvm::sort(User.ReusePreds, ById);
  };
  // The references in file order, every bad one reported.
  for (const PendingRef &Ref : Refs) {
    NodeIdx *Found = findId(Ref.Id);
    if (!Found) {
      error(Ref.Loc, "use of undefined node n" + Twine(Ref.Id));
      continue;
    }
    NodeIdx UserIdx = Ref.User;
    if (UserIdx != SortUser) {
      SortUsersLists();
      SortUser = UserIdx;
      Unsorted[0] = Unsorted[1] = false;
    }
    Node &User = G[UserIdx];
    EdgeList &Edges = Ref.Reuse ? User.ReusePreds : User.Preds;
    NodeIdx Target = *Found;
    bool Duplicate;
    if (Edges.size() < ShortList) {
      Duplicate = llvm::is_contained(Edges, Target);
    } else {
      if (SeenUser != UserIdx) {
        Seen.clear();
        SeenUser = UserIdx;
        SeenKind[0] = SeenKind[1] = false;
      }
      if (!SeenKind[Ref.Reuse]) {
        SeenKind[Ref.Reuse] = true;
        for (NodeIdx P : Edges)
          Seen.insert(uint64_t(P) << 1 | Ref.Reuse);
      }
      Duplicate = !Seen.insert(uint64_t(Target) << 1 | Ref.Reuse).second;
    }
    if (Duplicate) {
      error(Ref.Loc, "duplicate " + Twine(Ref.Reuse ? "reuse " : "") +
                         "edge from n" + Twine(Ref.Id) + " to n" +
                         Twine(User.Id));
      continue;
    }
    if (!Edges.empty() && Ref.Id < LastId[Ref.Reuse])
      Unsorted[Ref.Reuse] = true;
    LastId[Ref.Reuse] = Ref.Id;
    Edges.push_back(Target);
  }
  SortUsersLists();
  return !HadError;
}

} // namespace dan::detail
