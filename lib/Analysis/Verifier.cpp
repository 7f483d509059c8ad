//===- Verifier.cpp - Judging a DAN graph ---------------------------------===//
//
// The checks run in a fixed order: buffers, edges (cycles, then the order),
// lifetimes, the L0 rule, the memory plan, and the stage-2 contract. Each
// reports at the node that breaks the rule, with a note at the other node
// involved, and the run stops at the error limit.
//
//===----------------------------------------------------------------------===//

#include "dan/Analysis/Verifier.h"
#include "dan/IR/Diagnostic.h"
#include "dan/IR/MemoryPlan.h"
#include "dan/Support/CSR.h"
#include "llvm/ADT/STLExtras.h"
#include <map>

using namespace llvm;

namespace dan {

namespace {

constexpr NodeIdx NoNode = UINT32_MAX;

struct BufferSite {
  NodeIdx Alloc = NoNode;
  NodeIdx Free = NoNode;
};

std::string buf(uint64_t B) { return "b" + std::to_string(B); }
std::string range(uint64_t Begin, uint64_t Size) {
  return "[" + std::to_string(Begin) + ", " + std::to_string(Begin + Size) +
         ")";
}

class Verifier {
public:
  Verifier(const Graph &G, const TargetDesc &T, const VerifyOptions &Opts,
           const DiagHandler &Diag)
      : G(G), T(T), Opts(Opts), Diag(Diag), Pos(G.positions()),
        Sites(G.size()) {}

  unsigned run() {
    checkBuffers();
    bool Acyclic = checkAcyclic();
    if (Acyclic)
      checkOrder();
    checkLifetimes();
    if (Opts.L0Single)
      checkL0Single();
    if (G.hasMemoryPlan())
      checkPlan();
    checkReuseEdges();
    if (Opts.Against)
      checkAgainst(*Opts.Against);
    if (Dropped)
      Diag(SMLoc(), SourceMgr::DK_Note,
           "too many errors: " + Twine(Dropped) +
               " more not shown (--error-limit=0 shows them all)");
    return Errors;
  }

private:
  bool stopped() const { return Opts.ErrorLimit && Errors >= Opts.ErrorLimit; }
  void error(SMLoc Loc, const Twine &Msg) {
    // Past the limit the checks still run, so that the final note is given
    // exactly when an error was dropped. Notes follow the error they explain,
    // so a dropped error drops them.
    DropNotes = stopped();
    if (DropNotes) {
      ++Dropped;
      return;
    }
    ++Errors;
    Diag(Loc, SourceMgr::DK_Error, Msg);
  }
  void error(NodeIdx At, const Twine &Msg) { error(G[At].Loc, Msg); }
  void note(SMLoc Loc, const Twine &Msg) {
    if (!DropNotes)
      Diag(Loc, SourceMgr::DK_Note, Msg);
  }
  void note(NodeIdx At, const Twine &Msg) { note(G[At].Loc, Msg); }

  std::string name(NodeIdx I) const { return describeNode(G, I); }
  const BufferSite *site(uint64_t B) const { return Sites.find(B); }
  bool hasAlloc(uint64_t B) const {
    const BufferSite *S = site(B);
    return S && S->Alloc != NoNode;
  }

  void checkBuffers();
  bool checkAcyclic();
  void checkOrder();
  void checkLifetimes();
  void checkL0Single();
  void checkPlan();
  void checkSpillIds();
  /// The spill stream of the \p Pairs well-formed spills: numbered 0 to
  /// K-1 without a gap, in schedule order (checkSpillIds' second half).
  void checkSpillStream(uint64_t N0, const IdIndex &SpillIds, uint64_t Pairs);
  void checkResidency();
  void checkSpillEdges();
  void checkReuseEdges();
  void checkAgainst(const Graph &S2);

  const Graph &G;
  const TargetDesc &T;
  const VerifyOptions &Opts;
  const DiagHandler &Diag;
  std::vector<uint32_t> Pos;
  IdTable<BufferSite> Sites;
  /// Buffers in order of first appearance, for a deterministic report.
  std::vector<uint64_t> BufOrder;
  unsigned Errors = 0;
  bool DropNotes = false;
  unsigned Dropped = 0;
};

void Verifier::checkBuffers() {
  for (NodeIdx I : G.Order) {
    const Node &N = G[I];
    if (N.Kind != NodeKind::Alloc && N.Kind != NodeKind::Free)
      continue;
    auto [Site, New] = Sites.tryEmplace(N.Buf);
    if (New)
      BufOrder.push_back(N.Buf);
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
      error(S.Free, "free of " + buf(B) + " names tier " + tierName(F.BufTier) +
                        " but its alloc names " + tierName(A.BufTier));
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
  while (!Work.empty()) {
    NodeIdx I = Work.back();
    Work.pop_back();
    ++Done;
    for (uint32_t K = SuccBegin[I]; K != SuccBegin[I + 1]; ++K)
      if (--InDegree[Succs[K]] == 0)
        Work.push_back(Succs[K]);
  }
  if (Done == V)
    return true;

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
  // Path[Seen[Cur]..] walks the cycle backwards; print it forwards.
  std::vector<NodeIdx> Cycle(Path.begin() + Seen[Cur], Path.end());
  std::reverse(Cycle.begin(), Cycle.end());
  // Start the cycle at its earliest node in the schedule.
  std::rotate(Cycle.begin(),
              llvm::min_element(
                  Cycle, [&](NodeIdx A, NodeIdx B) { return Pos[A] < Pos[B]; }),
              Cycle.end());
  std::string Text;
  for (NodeIdx I : Cycle)
    Text += "n" + std::to_string(G[I].Id) + " -> ";
  Text += "n" + std::to_string(G[Cycle.front()].Id);
  error(Cycle.front(), "the edges form a cycle: " + Text);
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
    } else if (S->Free != NoNode && Pos[I] > Pos[S->Free]) {
      error(I, name(I) + " uses " + buf(B) + " after its free");
      note(S->Free, "free of " + buf(B) + " is here");
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
  SmallVector<NodeIdx, 2> Live[NumTiers];
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
                   tierName(BufTier) + " (" + buf(G[Other].Buf) +
                   " is not yet freed); --l0-single allows one");
      note(Other, buf(G[Other].Buf) + " is placed here");
    }
    InTier.push_back(I);
  }
}

void Verifier::checkPlan() {
  for (NodeIdx I : G.Order) {
    const Node &N = G[I];
    if (!N.isPlacement())
      continue;
    if (!N.HasOffset) {
      error(I, name(I) + " has no offset, but the graph has a memory plan; "
                         "write 'at OFFSET'");
      continue;
    }
    const BufferSite *S = site(N.Buf);
    if (!S || S->Alloc == NoNode)
      continue;
    const Node &A = G[S->Alloc];
    uint64_t Cap = T.capacity(A.BufTier);
    if (A.Size > Cap) {
      if (N.Kind == NodeKind::Alloc)
        error(I, buf(N.Buf) + " (size " + Twine(A.Size) +
                     ") is larger than tier " + tierName(A.BufTier) +
                     " (capacity " + Twine(Cap) + ")");
      continue;
    }
    if (N.Offset > Cap - A.Size)
      error(I, name(I) + " places " + buf(N.Buf) + " at " +
                   range(N.Offset, A.Size) + ", outside tier " +
                   tierName(A.BufTier) + " " + range(0, Cap));
  }
  checkSpillIds();
  checkResidency();
  checkSpillEdges();
}

void Verifier::checkSpillIds() {
  uint64_t N0 = G.firstSpillId();
  // Every id from N0 on is a spill node's, so the spill nodes alone, keyed
  // by Id - N0, answer every question below.
  size_t Spills = 0;
  for (const Node &N : G.Nodes)
    Spills += N.isSpill();
  IdIndex SpillIds(Spills);
  for (NodeIdx I = 0, E = G.size(); I != E; ++I)
    if (G[I].isSpill() && G[I].Id >= N0)
      SpillIds.insert(G[I].Id - N0, I);
  // The id each spill node should have: the k-th spill_out in the schedule
  // is n(N0 + 2k), and a spill_in is its buffer's last spill_out before it
  // plus one (none: unknown). The messages give it, not the formula.
  DenseMap<uint64_t, uint64_t> OpenSpill; // buffer -> k of its last spill_out
  uint64_t SpillOuts = 0;
  // The spill number k of a spill node, when it has one.
  auto SpillNumber = [&](NodeIdx I) -> std::optional<uint64_t> {
    if (G[I].Kind == NodeKind::SpillOut)
      return SpillOuts - 1;
    auto It = OpenSpill.find(G[I].Buf);
    if (It == OpenSpill.end())
      return std::nullopt;
    return It->second;
  };
  auto WrongId = [&](NodeIdx I, const Twine &Why) {
    std::string Fix;
    std::optional<uint64_t> K = SpillNumber(I);
    bool IsOut = G[I].Kind == NodeKind::SpillOut;
    // Only an id that differs from the one wanted gets the fix.
    if (K && N0 + 2 * *K + !IsOut != G[I].Id) {
      Fix = "; write n" + std::to_string(N0 + 2 * *K + !IsOut) + " (spill " +
            std::to_string(*K) + "'s " + (IsOut ? "spill_out" : "spill_in") +
            "; dan-translate --fix-plan renumbers the spills)";
    }
    error(I, name(I) + " " + Why + Fix);
  };
  uint64_t Pairs = 0;
  for (NodeIdx I : G.Order) {
    const Node &N = G[I];
    if (!N.isSpill())
      continue;
    bool IsOut = N.Kind == NodeKind::SpillOut;
    if (IsOut)
      OpenSpill[N.Buf] = SpillOuts++;
    if (N.Id < N0) {
      WrongId(I, "has an id below the first spill id n" + Twine(N0) +
                     ", one past the largest id of the other nodes");
      continue;
    }
    if (((N.Id - N0) % 2 == 0) != IsOut) {
      WrongId(I,
              Twine("has the id of a ") + (IsOut ? "spill_in" : "spill_out"));
      continue;
    }
    uint64_t PartnerId = IsOut ? N.Id + 1 : N.Id - 1;
    NodeIdx Partner = SpillIds.lookup(PartnerId - N0);
    NodeKind Want = IsOut ? NodeKind::SpillIn : NodeKind::SpillOut;
    if (Partner == IdIndex::None || G[Partner].Kind != Want) {
      WrongId(I, Twine("has no matching ") +
                     (IsOut ? "spill_in" : "spill_out") + " n" +
                     Twine(PartnerId));
      continue;
    }
    const Node &P = G[Partner];
    if (P.Buf != N.Buf) {
      if (IsOut) {
        error(Partner, name(Partner) + " is paired with " + name(I) +
                           " but names another buffer");
        note(I, name(I) + " is here");
      }
      continue;
    }
    if (IsOut) {
      ++Pairs;
      if (Pos[Partner] < Pos[I]) {
        error(Partner,
              name(Partner) + " is scheduled before its spill_out " + name(I));
        note(I, name(I) + " is here");
      }
    }
  }
  checkSpillStream(N0, SpillIds, Pairs);
}

void Verifier::checkSpillStream(uint64_t N0, const IdIndex &SpillIds,
                                uint64_t Pairs) {
  // Spills are numbered 0..K-1 without gaps; the error goes to the first
  // spill_out numbered past the gap.
  for (uint64_t K = 0; K != Pairs; ++K) {
    if (SpillIds.contains(2 * K))
      continue;
    NodeIdx After = NoNode;
    for (NodeIdx I : G.Order)
      if (G[I].Kind == NodeKind::SpillOut && G[I].Id > N0 + 2 * K &&
          (After == NoNode || G[I].Id < G[After].Id))
        After = I;
    if (After != NoNode)
      error(After, "spill numbering has a gap: there is no spill_out n" +
                       Twine(N0 + 2 * K) + " (spill " + Twine(K) + "), but " +
                       countOf(Pairs, "spill"));
    break;
  }
  // Spill k + 1 comes after spill k: the spill stream is numbered in
  // schedule order.
  NodeIdx Prev = NoNode;
  for (NodeIdx I : G.Order) {
    if (G[I].Kind != NodeKind::SpillOut || G[I].Id < N0)
      continue;
    if (Prev != NoNode && G[I].Id < G[Prev].Id) {
      error(I, name(I) + " is scheduled after " + name(Prev) +
                   ", a later spill; spills are numbered in schedule order");
      note(Prev, name(Prev) + " is here");
    }
    if (Prev == NoNode || G[I].Id > G[Prev].Id)
      Prev = I;
  }
}

void Verifier::checkResidency() {
  enum State : uint8_t { NotYet, Live, Spilled, Freed };
  struct BufState {
    State S = NotYet;
    NodeIdx Last = NoNode; // the node that placed or spilled it
    bool InMap = false;
    uint64_t Begin = 0;
  };
  struct Seg {
    uint64_t End;
    uint64_t Buf;
    NodeIdx Placer;
  };
  IdTable<BufState> States(G.size());
  std::map<uint64_t, Seg> Resident[NumTiers];

  auto Remove = [&](uint64_t B, BufState &St) {
    if (!St.InMap)
      return;
    const Node &A = G[Sites[B].Alloc];
    Resident[static_cast<unsigned>(A.BufTier)].erase(St.Begin);
    St.InMap = false;
  };

  for (NodeIdx I : G.Order) {
    const Node &N = G[I];
    if (N.Kind == NodeKind::Op) {
      for (uint64_t B : N.Bufs) {
        const BufState *St = States.find(B);
        if (St && St->S == Spilled) {
          error(I, name(I) + " uses " + buf(B) + " while it is spilled out");
          note(St->Last, buf(B) + " is spilled out here");
        }
      }
      continue;
    }
    if (!hasAlloc(N.Buf))
      continue;
    BufState &St = States[N.Buf];
    const Node &A = G[Sites[N.Buf].Alloc];
    switch (N.Kind) {
    case NodeKind::SpillOut:
      if (St.S != Live) {
        error(I,
              name(I) + " spills " + buf(N.Buf) + " while it is not resident");
        continue;
      }
      Remove(N.Buf, St);
      St.S = Spilled;
      St.Last = I;
      continue;
    case NodeKind::Free:
      if (St.S == Spilled) {
        error(I, "free of " + buf(N.Buf) + " while it is spilled out");
        note(St.Last, buf(N.Buf) + " is spilled out here");
      }
      Remove(N.Buf, St);
      St.S = Freed;
      continue;
    case NodeKind::SpillIn:
      if (St.S != Spilled) {
        error(I, name(I) + " brings back " + buf(N.Buf) +
                     ", which is not spilled out");
        continue;
      }
      break;
    case NodeKind::Alloc:
      if (I != Sites[N.Buf].Alloc)
        continue;
      break;
    case NodeKind::Op:
      break;
    }
    // A placement: ALLOC, or SPILL_IN of a spilled buffer.
    St.S = Live;
    St.Last = I;
    uint64_t Cap = T.capacity(A.BufTier);
    if (!N.HasOffset || A.Size > Cap || N.Offset > Cap - A.Size)
      continue; // Reported by checkPlan.
    if (A.Size == 0)
      continue; // Takes no bytes, so it overlaps nothing.
    uint64_t Begin = N.Offset, End = N.Offset + A.Size;
    auto &Map = Resident[static_cast<unsigned>(A.BufTier)];
    auto It = Map.upper_bound(Begin);
    if (It != Map.begin() && std::prev(It)->second.End > Begin)
      --It;
    if (It != Map.end() && It->first < End) {
      error(I, name(I) + " places " + buf(N.Buf) + " at " +
                   range(Begin, A.Size) + " in " + tierName(A.BufTier) +
                   ", overlapping " + buf(It->second.Buf) + " at " +
                   range(It->first, It->second.End - It->first) +
                   ", which is still resident");
      note(It->second.Placer, buf(It->second.Buf) + " is placed here");
      continue;
    }
    Map.emplace(Begin, Seg{End, N.Buf, I});
    St.InMap = true;
    St.Begin = Begin;
  }
}

void Verifier::checkSpillEdges() {
  // Mark[P] == To: P is in To's after list. Required edges come grouped by
  // target, so each list is marked once per group instead of searched once
  // per edge (a spill_out's list grows with the uses before it).
  std::vector<NodeIdx> Mark(G.size(), NoNode);
  NodeIdx Marked = NoNode;
  for (const RequiredEdge &E : computeSpillEdges(G)) {
    if (E.To != Marked) {
      for (NodeIdx P : G[E.To].Preds)
        Mark[P] = E.To;
      Marked = E.To;
    }
    if (Mark[E.From] == E.To)
      continue;
    uint64_t B = G[E.To].isBufferNode() ? G[E.To].Buf : G[E.From].Buf;
    switch (E.Why) {
    case RequiredEdge::AllocToOut:
      error(E.To, name(E.To) + " lacks the edge from the alloc of " + buf(B));
      break;
    case RequiredEdge::OutToIn:
      error(E.To,
            name(E.To) + " lacks the edge from its spill_out " + name(E.From));
      break;
    case RequiredEdge::InToFree:
      error(E.To, "free of " + buf(B) + " lacks the edge from " + name(E.From) +
                      " of the same buffer");
      break;
    case RequiredEdge::UserToOut:
      error(E.To, name(E.To) + " lacks the edge from " + name(E.From) +
                      ", which uses " + buf(B) + " before it");
      break;
    case RequiredEdge::InToUser:
      error(E.To, name(E.To) + " uses " + buf(B) + " after " + name(E.From) +
                      " but lacks the edge from it");
      break;
    }
    note(E.From, name(E.From) + " is here");
  }
}

void Verifier::checkReuseEdges() {
  std::vector<EdgeList> Implied = computeReuseEdges(G);
  for (NodeIdx I : G.Order) {
    const auto &Have = G[I].ReusePreds;
    const auto &Want = Implied[I];
    for (NodeIdx P : Want)
      if (!is_contained(Have, P)) {
        error(I, name(I) + " lacks the reuse edge from " + name(P) +
                     ", which last released addresses it takes");
        note(P, name(P) + " is here");
      }
    for (NodeIdx P : Have)
      if (!is_contained(Want, P)) {
        error(I, "reuse edge from " + name(P) + " to " + name(I) +
                     " is not implied by the memory plan");
        note(P, name(P) + " is here");
      }
  }
}

/// Whether two nodes say the same thing, ignoring offsets and edges.
static bool sameNode(const Graph &GA, const Node &A, const Graph &GB,
                     const Node &B) {
  if (A.Kind != B.Kind || A.Buf != B.Buf)
    return false;
  switch (A.Kind) {
  case NodeKind::Alloc:
  case NodeKind::Free:
    return A.BufTier == B.BufTier && A.Size == B.Size;
  case NodeKind::Op:
    return GA.opName(A) == GB.opName(B) && A.OpPipe == B.OpPipe &&
           A.Cycles == B.Cycles && A.Bufs == B.Bufs;
  case NodeKind::SpillOut:
  case NodeKind::SpillIn:
    return true;
  }
  return false;
}

void Verifier::checkAgainst(const Graph &S2) {
  IdIndex Here = G.idIndex(), There = S2.idIndex();
  auto S2Name = [&](NodeIdx I) { return describeNode(S2, I); };
  for (NodeIdx J : S2.Order)
    if (!Here.contains(S2[J].Id))
      error(S2[J].Loc, S2Name(J) + " of the stage-2 file is missing here");
  for (NodeIdx I : G.Order) {
    const Node &N = G[I];
    NodeIdx Twin = There.lookup(N.Id);
    if (Twin == IdIndex::None) {
      error(I, name(I) + " is not in the stage-2 file");
      continue;
    }
    const Node &M = S2[Twin];
    if (!sameNode(G, N, S2, M)) {
      error(I, name(I) + " differs from its stage-2 definition");
      note(M.Loc, "stage-2 definition is here");
      continue;
    }
    if (N.HasOffset != M.HasOffset || N.Offset != M.Offset) {
      auto Where = [](const Node &X) {
        return X.HasOffset ? "at " + std::to_string(X.Offset)
                           : std::string("without an offset");
      };
      error(I, name(I) + " places " + buf(N.Buf) + " " + Where(N) +
                   " but the stage-2 file places it " + Where(M) +
                   "; stage 3 keeps every offset");
      note(M.Loc, "stage-2 placement is here");
    }
    for (NodeIdx P : M.Preds) {
      NodeIdx Own = Here.lookup(S2[P].Id);
      if (Own != IdIndex::None && !is_contained(N.Preds, Own)) {
        error(I, name(I) + " lacks the edge from n" + Twine(S2[P].Id) +
                     " that the stage-2 file has");
        note(M.Loc, "stage-2 definition is here");
      }
    }
    for (NodeIdx P : M.ReusePreds) {
      NodeIdx Own = Here.lookup(S2[P].Id);
      if (Own != IdIndex::None && !is_contained(N.ReusePreds, Own)) {
        error(I, name(I) + " lacks the reuse edge from n" + Twine(S2[P].Id) +
                     " that the stage-2 file has; stage 3 keeps every reuse "
                     "edge");
        note(M.Loc, "stage-2 definition is here");
      }
    }
  }
  // The spill stream: spill nodes in schedule order.
  std::vector<NodeIdx> Mine, Theirs;
  for (NodeIdx I : G.Order)
    if (G[I].isSpill())
      Mine.push_back(I);
  for (NodeIdx J : S2.Order)
    if (S2[J].isSpill())
      Theirs.push_back(J);
  for (size_t K = 0, E = std::min(Mine.size(), Theirs.size()); K != E; ++K)
    if (G[Mine[K]].Id != S2[Theirs[K]].Id) {
      error(Mine[K],
            "the spill stream differs from the stage-2 file: " + name(Mine[K]) +
                " comes where the stage-2 file has " + S2Name(Theirs[K]));
      note(S2[Theirs[K]].Loc, "stage-2 spill node is here");
      return;
    }
}

} // namespace

unsigned verifyGraph(const Graph &G, const TargetDesc &Target,
                     const VerifyOptions &Opts, const DiagHandler &Diag) {
  return Verifier(G, Target, Opts, Diag).run();
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

Error verifyPassInput(const Graph &G, const TargetDesc &Target,
                      StringRef Tool) {
  VerifyOptions Opts;
  Opts.ErrorLimit = 0;
  unsigned Errors = 0;
  constexpr unsigned Shown = 10;
  DiagList Diags;
  verifyGraph(G, Target, Opts,
              [&](SMLoc Loc, SourceMgr::DiagKind Kind, const Twine &Msg) {
                if (Kind == SourceMgr::DK_Error)
                  ++Errors;
                if (Errors > Shown)
                  return;
                if (Kind == SourceMgr::DK_Error)
                  Diags.error(Loc, Msg);
                else
                  Diags.note(Loc, Msg);
              });
  if (!Errors)
    return Error::success();
  if (Errors > Shown)
    Diags.note(SMLoc(), Twine(Errors - Shown) +
                            " more errors not shown; dan-verify shows them "
                            "all");
  Diags.error(SMLoc(), "the input does not verify (" + Twine(Errors) +
                           (Errors == 1 ? " error" : " errors") + "); " + Tool +
                           " needs a legal schedule");
  return Diags.takeError();
}

} // namespace dan
