//===- Verifier.cpp - Judging a DAN graph ---------------------------------===//
//
// The verifier's entry points, and its checks of the graph's structure:
// buffers, edges (cycles, then the order), lifetimes and the L0 rule.
// VerifierImpl.h says in which order all the checks run.
//
//===----------------------------------------------------------------------===//

#include "dan/Analysis/Verifier.h"
#include "BufferUses.h"
#include "VerifierImpl.h"
#include "dan/IR/Diagnostic.h"
#include "dan/Support/CSR.h"
#include "llvm/ADT/STLExtras.h"
#include "llvm/ADT/StringMap.h"
#include <array>

using namespace llvm;

namespace dan {

namespace detail {

std::string buf(uint64_t B) { return "b" + std::to_string(B); }
std::string range(uint64_t Begin, uint64_t Size) {
  return "[" + std::to_string(Begin) + ", " + std::to_string(Begin + Size) +
         ")";
}

void Verifier::checkBuffers() {
  for (NodeIdx I : G.Order) {
    const Node &N = G[I];
    if (N.Kind != NodeKind::Alloc && N.Kind != NodeKind::Free)
      continue;
    auto [Site, New] = Sites.tryEmplace(N.Buf);
    if (New) {
      Site->Index = BufOrder.size();
      BufOrder.push_back(N.Buf);
    }
    NodeIdx &Slot = N.Kind == NodeKind::Alloc ? Site->Alloc : Site->Free;
    StringRef What = N.Kind == NodeKind::Alloc ? "alloc" : "free";
    if (Slot != NoNode) {
      error(I, "second " + What + " of " + buf(N.Buf) +
                   "; each buffer has exactly one " + What);
      note(Slot, "first " + What + " of " + buf(N.Buf) + " is here");
      continue;
    }
    Slot = I;
  }
  for (uint64_t B : BufOrder) {
    const BufferSite &S = Sites[B];
    if (S.Free == NoNode) {
      error(S.Alloc, buf(B) + " is allocated but never freed");
      continue;
    }
    if (S.Alloc == NoNode) {
      error(S.Free, buf(B) + " is freed but never allocated");
      continue;
    }
    const Node &A = G[S.Alloc], &F = G[S.Free];
    if (A.BufTier != F.BufTier) {
      error(S.Free, "free of " + buf(B) + " names tier " +
                        T.tierName(F.BufTier) + " but its alloc names " +
                        T.tierName(A.BufTier));
      note(S.Alloc, "alloc of " + buf(B) + " is here");
    }
    if (A.Size != F.Size) {
      error(S.Free, "free of " + buf(B) + " has size " + Twine(F.Size) +
                        " but its alloc has size " + Twine(A.Size));
      note(S.Alloc, "alloc of " + buf(B) + " is here");
    }
  }
  for (NodeIdx I : G.Order) {
    const Node &N = G[I];
    if (N.Kind == NodeKind::Op) {
      for (uint64_t B : N.Bufs)
        if (!hasAlloc(B))
          error(I, name(I) + " uses " + buf(B) + ", which is never allocated");
    } else if (N.isSpill() && !hasAlloc(N.Buf)) {
      error(I, name(I) + " names " + buf(N.Buf) + ", which is never allocated");
    }
  }
}

namespace {
/// A use (or a free) that a path search did not find ordered after its
/// alloc or before its free: an error, unless the question was left open
/// and answer() finds the path.
struct Doubt {
  enum KindT : uint8_t { FreeAfterAlloc, UseAfterAlloc, UseBeforeFree };
  KindT Kind;
  uint32_t Key; // the buffer's place in BufOrder
  NodeIdx At;   // the use, or the free
  int64_t Open; // the question left open, or -1: no path
};
} // namespace

void Verifier::checkUsePaths() {
  // Each buffer's uses, by its place in BufOrder.
  BufferUses Uses(G, BufOrder.size(), [&](uint64_t B) {
    const BufferSite *S = site(B);
    return S ? S->Index : IdIndex::None;
  });
  auto ByRank = [&](NodeIdx A, NodeIdx B) { return Rank[A] < Rank[B]; };
  // The questions a search leaves open past its budget, forward and
  // backward, answered at the end 64 buffers at a time; the doubts, in
  // the order of the messages.
  std::vector<PathFinder::Question> OpenForward, OpenBackward;
  std::vector<Doubt> Doubts;
  auto Ask = [&](PathFinder &F, std::vector<PathFinder::Question> &Open,
                 Doubt D, NodeIdx From, NodeIdx To) {
    std::optional<bool> Yes = F.reachesWithin(To, PathSearchBudget);
    if (Yes && *Yes)
      return true;
    D.Open = Yes ? -1 : int64_t(Open.size());
    if (!Yes)
      Open.push_back({From, To});
    Doubts.push_back(D);
    return false;
  };
  // Nodes known to come after the alloc (After) or before the free
  // (Before) of the buffer with key K, marked K + 1. Most uses have an edge
  // from the alloc or from an earlier use (after a spill, the first one),
  // and an edge to the free or to a later use: those need no search.
  std::vector<uint32_t> After(G.size(), 0), Before(G.size(), 0);
  for (uint32_t K = 0; K != BufOrder.size(); ++K) {
    const uint32_t Mark = K + 1;
    uint64_t B = BufOrder[K];
    const BufferSite *S = site(B);
    MutableArrayRef<NodeIdx> L = Uses.of(K);
    // A buffer no operation uses: its free still after its alloc, or bytes
    // given back by the free could be taken before the alloc's are.
    if (L.empty()) {
      if (S->Alloc != NoNode && S->Free != NoNode &&
          !(Opts.Schedule && Pos[S->Free] < Pos[S->Alloc]) &&
          !is_contained(G[S->Free].Preds, S->Alloc)) {
        Forward.from(S->Alloc);
        Ask(Forward, OpenForward, {Doubt::FreeAfterAlloc, K, S->Free, -1},
            S->Alloc, S->Free);
      }
      continue;
    }
    llvm::sort(L, ByRank);
    // The replay runs a use that no path orders after its alloc, or before
    // its free, whenever its pipe is free: it may touch bytes that another
    // buffer holds.
    if (S->Alloc != NoNode) {
      After[S->Alloc] = Mark;
      Forward.from(S->Alloc);
      for (NodeIdx U : L)
        if (any_of(G[U].Preds, [&](NodeIdx P) { return After[P] == Mark; }) ||
            Ask(Forward, OpenForward, {Doubt::UseAfterAlloc, K, U, -1},
                S->Alloc, U))
          After[U] = Mark;
    }
    if (S->Free != NoNode) {
      for (NodeIdx P : G[S->Free].Preds)
        Before[P] = Mark;
      Backward.from(S->Free);
      for (NodeIdx U : llvm::reverse(L))
        if (Before[U] == Mark ||
            Ask(Backward, OpenBackward, {Doubt::UseBeforeFree, K, U, -1},
                S->Free, U))
          for (NodeIdx P : G[U].Preds)
            Before[P] = Mark;
    }
  }
  std::vector<uint8_t> YesForward(OpenForward.size()),
      YesBackward(OpenBackward.size());
  Forward.answer(OpenForward, YesForward);
  Backward.answer(OpenBackward, YesBackward);
  for (const Doubt &D : Doubts) {
    ArrayRef<uint8_t> Yes =
        D.Kind == Doubt::UseBeforeFree ? YesBackward : YesForward;
    if (D.Open >= 0 && Yes[D.Open])
      continue;
    uint64_t B = BufOrder[D.Key];
    const BufferSite *S = site(B);
    if (D.Kind == Doubt::FreeAfterAlloc) {
      error(S->Free, name(S->Free) + " frees " + buf(B) +
                         ", but no path of edges orders it after its "
                         "alloc " +
                         name(S->Alloc));
      note(S->Alloc, "alloc of " + buf(B) + " is here");
    } else if (LifetimeErrors.count({D.At, B})) {
      continue;
    } else if (D.Kind == Doubt::UseAfterAlloc) {
      error(D.At, name(D.At) + " uses " + buf(B) +
                      ", but no path of edges orders it after its alloc " +
                      name(S->Alloc));
      note(S->Alloc, "alloc of " + buf(B) + " is here");
    } else {
      error(D.At, name(D.At) + " uses " + buf(B) +
                      ", but no path of edges orders it before its free " +
                      name(S->Free));
      note(S->Free, "free of " + buf(B) + " is here");
    }
  }
}

void Verifier::checkTiles() {
  if (G.Tiles.empty())
    return;
  StringMap<NodeIdx> Writer;
  for (NodeIdx I : G.Order)
    if (const TileAccess *A = G.tilesOf(G[I]))
      for (const std::string &Name : A->Writes) {
        auto [It, New] = Writer.try_emplace(Name, I);
        if (New)
          continue;
        error(I, name(I) + " writes tile @" + Name + ", which " +
                     name(It->second) + " writes too");
        note(It->second, "the first write of @" + Name + " is here");
      }
  // A read of a tile the graph writes comes after the write: never in the
  // writer itself, and otherwise after it by a path of edges.
  std::vector<std::pair<NodeIdx, NodeIdx>> Reads; // (writer, reader)
  for (NodeIdx I : G.Order)
    if (const TileAccess *A = G.tilesOf(G[I]))
      for (const std::string &Name : A->Reads) {
        auto It = Writer.find(Name);
        if (It == Writer.end())
          continue;
        if (It->second == I)
          error(I, name(I) + " reads tile @" + Name +
                       ", which it writes itself; a read of a tile the "
                       "graph writes must come after the write");
        else
          Reads.push_back({It->second, I});
      }
  if (Rank.empty())
    return;
  // Each write's readers by rank, asked of one search from the write; a
  // reader of several of its tiles once.
  llvm::sort(Reads, [&](auto X, auto Y) {
    return std::pair(Rank[X.first], Rank[X.second]) <
           std::pair(Rank[Y.first], Rank[Y.second]);
  });
  Reads.erase(std::unique(Reads.begin(), Reads.end()), Reads.end());
  NodeIdx Current = NoNode;
  for (auto [W, R] : Reads) {
    if (W != Current)
      Forward.from(Current = W);
    if (Forward.reaches(R))
      continue;
    for (const std::string &Name : G.tilesOf(G[R])->Reads)
      if (Writer.lookup(Name) == W) {
        error(R, name(R) + " reads tile @" + Name + ", which " + name(W) +
                     " writes, but no path of edges orders it after " +
                     name(W));
        note(W, "@" + Name + " is written here");
      }
  }
}

void Verifier::checkFit() {
  bool TooLarge = false;
  for (uint64_t B : BufOrder) {
    const BufferSite &S = Sites[B];
    if (S.Alloc == NoNode)
      continue;
    const Node &A = G[S.Alloc];
    if (A.Size <= T.capacity(A.BufTier))
      continue;
    TooLarge = true;
    error(S.Alloc, buf(B) + " (size " + Twine(A.Size) +
                       ") is larger than tier " + T.tierName(A.BufTier) +
                       " (capacity " + Twine(T.capacity(A.BufTier)) + ")");
  }
  // (Operations are judged once every buffer fits on its own.)
  if (TooLarge)
    return;
  for (NodeIdx I : G.Order) {
    const Node &N = G[I];
    if (N.Kind != NodeKind::Op)
      continue;
    std::array<uint64_t, MaxTiers> Need{};
    SmallVector<uint64_t, 4> Seen;
    for (uint64_t B : N.Bufs) {
      if (is_contained(Seen, B) || !hasAlloc(B))
        continue;
      Seen.push_back(B);
      const Node &A = G[site(B)->Alloc];
      // At aligned offsets the buffers take their sizes rounded up to the
      // alignment (the capacity is a multiple of it, so one left unrounded
      // never makes room).
      Need[static_cast<unsigned>(A.BufTier)] +=
          alignTo(A.Size, T.alignment(A.BufTier));
    }
    for (unsigned K = 0; K != T.numTiers(); ++K) {
      Tier Tr = static_cast<Tier>(K);
      if (Need[K] <= T.capacity(Tr))
        continue;
      // The names only for the message.
      std::string Names;
      for (uint64_t B : Seen) {
        const Node &A = G[site(B)->Alloc];
        if (A.BufTier == Tr)
          Names += (Names.empty() ? "" : ", ") + buf(B) + " (" +
                   std::to_string(A.Size) + ")";
      }
      std::string Aligned;
      if (uint64_t Align = T.alignment(Tr); Align > 1)
        Aligned = " aligned to " + std::to_string(Align);
      error(I, name(I) + " needs " + Names + " resident together in tier " +
                   T.tierName(Tr) + ": total size " + Twine(Need[K]) + Aligned +
                   ", capacity " + Twine(T.capacity(Tr)));
    }
  }
}

/// The names of the set bits of \p Mask among \p Names, "A, B".
static std::string listOf(uint32_t Mask, ArrayRef<StringRef> Names) {
  std::string Out;
  for (unsigned I = 0, E = Names.size(); I != E; ++I)
    if (Mask >> I & 1)
      Out += (Out.empty() ? "" : ", ") + Names[I].str();
  return Out.empty() ? "no tier" : Out;
}

void Verifier::checkOpRules() {
  // The rule of each interned operation name, looked up once.
  std::vector<const OpRule *> RuleOf(G.OpNames.size());
  for (unsigned K = 0, E = G.OpNames.size(); K != E; ++K)
    RuleOf[K] = T.opRule(G.OpNames[K]);
  for (NodeIdx I : G.Order) {
    const Node &N = G[I];
    if (N.Kind != NodeKind::Op)
      continue;
    const OpRule *R = RuleOf[N.OpName];
    if (R && !(R->Pipes >> index(N.OpPipe) & 1)) {
      error(I, name(I) + " runs on " + T.pipeName(N.OpPipe) +
                   ", but the target runs '" + G.opName(N) + "' only on " +
                   listOf(R->Pipes, T.pipeNames()));
      continue;
    }
    TierMask OnPipe = T.pipeTiers(N.OpPipe);
    for (uint64_t B : N.Bufs) {
      if (!hasAlloc(B))
        continue;
      Tier Tr = G[site(B)->Alloc].BufTier;
      // Spelled out only for an error: this runs for every use.
      auto Where = [&] {
        return name(I) + " uses " + buf(B) + " in tier " +
               T.tierName(Tr).str() + ", but ";
      };
      if (!(OnPipe >> index(Tr) & 1)) {
        error(I, Where() + "an operation on " + T.pipeName(N.OpPipe) +
                     " uses only " + listOf(OnPipe, T.tierNames()));
        break;
      }
      if (R && !(R->Tiers >> index(Tr) & 1)) {
        error(I, Where() + "the target lets '" + G.opName(N) + "' use only " +
                     listOf(R->Tiers, T.tierNames()));
        break;
      }
    }
  }
}

bool Verifier::checkAcyclic() {
  // Kahn's algorithm over all edges, reuse edges included.
  size_t V = G.size();
  std::vector<uint32_t> InDegree(V, 0);
  CSRBuilder<NodeIdx> SuccLists(V);
  for (NodeIdx I = 0; I != V; ++I) {
    InDegree[I] = G[I].Preds.size() + G[I].ReusePreds.size();
    for (NodeIdx P : G[I].Preds)
      SuccLists.count(P);
    for (NodeIdx P : G[I].ReusePreds)
      SuccLists.count(P);
  }
  SuccLists.startAdding();
  for (NodeIdx I = 0; I != V; ++I) {
    for (NodeIdx P : G[I].Preds)
      SuccLists.add(P, I);
    for (NodeIdx P : G[I].ReusePreds)
      SuccLists.add(P, I);
  }
  std::vector<uint32_t> SuccBegin;
  std::vector<NodeIdx> Succs;
  SuccLists.finish(SuccBegin, Succs);
  std::vector<NodeIdx> Work;
  for (NodeIdx I = 0; I != V; ++I)
    if (InDegree[I] == 0)
      Work.push_back(I);
  size_t Done = 0;
  Rank.assign(V, 0);
  while (!Work.empty()) {
    NodeIdx I = Work.back();
    Work.pop_back();
    Rank[I] = Done++;
    for (uint32_t K = SuccBegin[I]; K != SuccBegin[I + 1]; ++K)
      if (--InDegree[Succs[K]] == 0)
        Work.push_back(Succs[K]);
  }
  if (Done == V)
    return true;
  Rank.clear();

  // Every node left has a predecessor left: walk back until one repeats.
  NodeIdx Start = NoNode;
  for (NodeIdx I : G.Order)
    if (InDegree[I] != 0) {
      Start = I;
      break;
    }
  std::vector<uint32_t> Seen(V, UINT32_MAX);
  std::vector<NodeIdx> Path;
  NodeIdx Cur = Start;
  while (Seen[Cur] == UINT32_MAX) {
    Seen[Cur] = Path.size();
    Path.push_back(Cur);
    NodeIdx Next = NoNode;
    for (NodeIdx P : G[Cur].Preds)
      if (InDegree[P] != 0) {
        Next = P;
        break;
      }
    if (Next == NoNode)
      for (NodeIdx P : G[Cur].ReusePreds)
        if (InDegree[P] != 0) {
          Next = P;
          break;
        }
    Cur = Next;
  }
  // Path[Seen[Cur]..] walks the cycle backwards.
  NodeIdx First;
  std::string Text = detail::cycleText(
      G, std::vector<NodeIdx>(Path.begin() + Seen[Cur], Path.end()), Pos,
      First);
  error(First, "the edges form a cycle: " + Text);
  return false;
}

void Verifier::checkOrder() {
  for (NodeIdx I : G.Order) {
    for (NodeIdx P : G[I].Preds)
      if (Pos[P] > Pos[I]) {
        error(I, name(I) + " is scheduled before its predecessor " + name(P));
        note(P, name(P) + " is scheduled here");
      }
    for (NodeIdx P : G[I].ReusePreds)
      if (Pos[P] > Pos[I]) {
        error(I, name(I) + " is scheduled before " + name(P) +
                     ", which releases the addresses it reuses");
        note(P, name(P) + " is scheduled here");
      }
  }
}

void Verifier::checkLifetimes() {
  for (uint64_t B : BufOrder) {
    const BufferSite &S = Sites[B];
    if (S.Alloc != NoNode && S.Free != NoNode && Pos[S.Free] < Pos[S.Alloc]) {
      error(S.Free, "free of " + buf(B) + " is scheduled before its alloc");
      note(S.Alloc, "alloc of " + buf(B) + " is here");
    }
  }
  auto CheckUse = [&](NodeIdx I, uint64_t B) {
    const BufferSite *S = site(B);
    if (!S || S->Alloc == NoNode)
      return;
    if (Pos[I] < Pos[S->Alloc]) {
      error(I, name(I) + " uses " + buf(B) + " before its alloc");
      note(S->Alloc, "alloc of " + buf(B) + " is here");
      LifetimeErrors.insert({I, B});
    } else if (S->Free != NoNode && Pos[I] > Pos[S->Free]) {
      error(I, name(I) + " uses " + buf(B) + " after its free");
      note(S->Free, "free of " + buf(B) + " is here");
      LifetimeErrors.insert({I, B});
    }
  };
  for (NodeIdx I : G.Order) {
    const Node &N = G[I];
    if (N.Kind == NodeKind::Op)
      for (uint64_t B : N.Bufs)
        CheckUse(I, B);
    else if (N.isSpill())
      CheckUse(I, N.Buf);
  }
}

void Verifier::checkL0Single() {
  // The placements (ALLOC or SPILL_IN) live in each L0 tier, oldest first.
  // A spilled-out buffer holds none of the tier's bytes, so SPILL_OUT ends
  // its stay like FREE does, and SPILL_IN starts a new one like ALLOC.
  SmallVector<NodeIdx, 2> Live[MaxTiers];
  for (NodeIdx I : G.Order) {
    const Node &N = G[I];
    if (!N.isBufferNode())
      continue;
    const BufferSite *S = site(N.Buf);
    if (!S || S->Alloc == NoNode)
      continue;
    Tier BufTier = G[S->Alloc].BufTier;
    if (!T.isL0(BufTier))
      continue;
    auto &InTier = Live[static_cast<unsigned>(BufTier)];
    if (N.Kind == NodeKind::Free || N.Kind == NodeKind::SpillOut) {
      auto It = find_if(InTier, [&](NodeIdx A) { return G[A].Buf == N.Buf; });
      if (It != InTier.end())
        InTier.erase(It);
      continue;
    }
    if (N.Kind == NodeKind::Alloc && I != S->Alloc)
      continue; // A second alloc; reported by checkBuffers.
    if (!InTier.empty()) {
      NodeIdx Other = InTier.front();
      StringRef What = N.Kind == NodeKind::Alloc ? "alloc" : "spill_in";
      error(I, What + " of " + buf(N.Buf) + " makes " +
                   Twine(InTier.size() + 1) + " buffers live in " +
                   T.tierName(BufTier) + " (" + buf(G[Other].Buf) +
                   " is not yet freed); --l0-single allows one");
      note(Other, buf(G[Other].Buf) + " is placed here");
    }
    InTier.push_back(I);
  }
}

} // namespace detail

unsigned verifyGraph(const Graph &G, const TargetDesc &Target,
                     const VerifyOptions &Opts, const DiagHandler &Diag) {
  return detail::Verifier(G, Target, Opts, Diag).run();
}

Error verifyNoMemoryPlan(const Graph &G, StringRef Tool, StringRef Wants) {
  if (!G.hasMemoryPlan())
    return Error::success();
  DiagList Diags;
  std::string Why =
      ("the input already has a memory plan; " + Tool + " " + Wants).str();
  for (NodeIdx I : G.Order) {
    const Node &N = G[I];
    if (!N.HasOffset && !N.isSpill())
      continue;
    Diags.error(N.Loc,
                describeNode(G, I) +
                    (N.isSpill() ? " is a spill node: " : " has an offset: ") +
                    Why);
    return Diags.takeError();
  }
  Diags.error(SMLoc(), Why);
  return Diags.takeError();
}

Error verifyPassInput(const Graph &G, const TargetDesc &Target, StringRef Tool,
                      bool Scheduled, std::optional<ReplayResult> *Replayed) {
  VerifyOptions Opts;
  Opts.ErrorLimit = 0;
  Opts.Schedule = Scheduled;
  Opts.Replayed = Replayed;
  ErrorLimiter Limiter(10);
  DiagList Diags;
  verifyGraph(G, Target, Opts,
              [&](SMLoc Loc, SourceMgr::DiagKind Kind, const Twine &Msg) {
                bool IsError = Kind == SourceMgr::DK_Error;
                if (!(IsError ? Limiter.error() : Limiter.note()))
                  return;
                if (IsError)
                  Diags.error(Loc, Msg);
                else
                  Diags.note(Loc, Msg);
              });
  unsigned Errors = Limiter.shown() + Limiter.dropped();
  if (!Errors)
    return Error::success();
  if (Limiter.dropped())
    Diags.note(SMLoc(), droppedErrorsNote(Limiter.dropped()) +
                            " (dan-verify --error-limit=0 shows them all)");
  Diags.error(SMLoc(), "the input does not verify (" + Twine(Errors) +
                           (Errors == 1 ? " error" : " errors") + "); " + Tool +
                           " needs a legal " +
                           (Scheduled ? "schedule" : "graph"));
  return Diags.takeError();
}

} // namespace dan
