//===- VerifyPlan.cpp - Judging a graph's memory plan ---------------------===//
//
// The verifier's checks of the memory plan: each placement's offset within
// its tier, the spill ids and the spill stream, the residency of the
// buffers (no overlap, no use while spilled out), and the spill and reuse
// edges the plan implies.
//
//===----------------------------------------------------------------------===//

#include "VerifierImpl.h"
#include "dan/Analysis/Races.h"
#include "dan/Analysis/Replay.h"
#include "dan/IR/Diagnostic.h"
#include "dan/IR/MemoryPlan.h"
#include "llvm/ADT/DenseMap.h"
#include "llvm/ADT/STLExtras.h"
#include <map>
#include <optional>

using namespace llvm;

namespace dan::detail {

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
    if (A.Size > Cap)
      continue; // checkFit reports it.
    if (N.Offset > Cap - A.Size)
      error(I, name(I) + " places " + buf(N.Buf) + " at " +
                   range(N.Offset, A.Size) + ", outside tier " +
                   T.tierName(A.BufTier) + " " + range(0, Cap));
    else if (uint64_t Align = T.alignment(A.BufTier); N.Offset % Align)
      error(I, name(I) + " places " + buf(N.Buf) + " at offset " +
                   Twine(N.Offset) + ", not a multiple of tier " +
                   T.tierName(A.BufTier) + "'s alignment " + Twine(Align));
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
    // Only an id that differs from the one wanted gets the fix, and only
    // one the IR can hold.
    uint64_t Want = K ? N0 + 2 * *K + !IsOut : 0;
    if (K && Want > MaxValue)
      Fix = "; its id n" + std::to_string(Want) +
            " would pass the IR's limit of 2^40 ('dan-translate --renumber' "
            "gives every node a smaller id)";
    else if (K && Want != G[I].Id)
      Fix = "; write n" + std::to_string(Want) + " (spill " +
            std::to_string(*K) + "'s " + (IsOut ? "spill_out" : "spill_in") +
            "; dan-translate --fix-plan renumbers the spills)";
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
  std::map<uint64_t, Seg> Resident[MaxTiers];

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
                   range(Begin, A.Size) + " in " + T.tierName(A.BufTier) +
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
  auto Compare = [&](NodeIdx I, ArrayRef<NodeIdx> Want) {
    const auto &Have = G[I].ReusePreds;
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
  };
  // A graph without offsets implies no reuse edge.
  if (G.hasMemoryPlan())
    forEachImpliedReuse(G, ReuseReading::Safe, Compare);
  else
    for (NodeIdx I : G.Order)
      Compare(I, {});
}

void Verifier::checkRaces() {
  ReplayResult R = replay(G, T);
  if (std::optional<Race> X = findRace(G, R)) {
    error(X->LaterNode,
          "race: " + name(X->LaterNode) + " uses " + buf(X->LaterBuf) +
              " on bytes " + range(X->Begin, X->End - X->Begin) + " of " +
              T.tierName(X->BufTier) + " from cycle " +
              Twine(R.Start[X->LaterNode]) + ", while " + buf(X->EarlierBuf) +
              " is still there until cycle " + Twine(R.Finish[X->EarlierNode]));
    note(X->EarlierNode, name(X->EarlierNode) + " uses " + buf(X->EarlierBuf) +
                             " until cycle " + Twine(R.Finish[X->EarlierNode]));
  }
  if (Opts.Replayed)
    *Opts.Replayed = std::move(R);
}

} // namespace dan::detail
