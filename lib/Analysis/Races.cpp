//===- Races.cpp - Two buffers on the same bytes at the same time ---------===//
//
// One walk over the schedule cuts every buffer's life into placements and
// gives each the time span of its accesses; a sweep over the spans in time
// order then keeps, per tier, the byte ranges whose data is there and finds
// the first placement that lands on one of them.
//
//===----------------------------------------------------------------------===//

#include "dan/Analysis/Races.h"
#include "dan/IR/IdIndex.h"
#include <algorithm>
#include <array>
#include <map>
#include <queue>

namespace dan {

namespace {

/// A buffer's stay at one offset, and the span of its accesses.
struct Placement {
  uint64_t Buf = 0;
  Tier BufTier{};
  uint64_t Offset = 0, Size = 0;
  uint64_t Begin = UINT64_MAX, End = 0;
  NodeIdx First = 0, Last = 0; // the accesses that start and end the span
  void access(NodeIdx I, const ReplayResult &R) {
    if (R.Finish[I] <= R.Start[I])
      return;
    if (R.Start[I] < Begin) {
      Begin = R.Start[I];
      First = I;
    }
    if (R.Finish[I] > End) {
      End = R.Finish[I];
      Last = I;
    }
  }
  bool accessed() const { return Begin < End; }
};

/// The placements of \p G in schedule order.
std::vector<Placement> placements(const Graph &G, const ReplayResult &R) {
  const size_t V = G.size();
  struct BufState {
    uint64_t Size = 0;
    Tier BufTier{};
    uint32_t Open = UINT32_MAX; // the placement it is in, if any
  };
  IdTable<BufState> Bufs(V);
  for (NodeIdx I : G.Order)
    if (I < V && G[I].Kind == NodeKind::Alloc) {
      auto [B, New] = Bufs.tryEmplace(G[I].Buf);
      if (New) {
        B->Size = G[I].Size;
        B->BufTier = G[I].BufTier;
      }
    }
  std::vector<Placement> P;
  for (NodeIdx I : G.Order) {
    if (I >= V)
      continue;
    const Node &N = G[I];
    if (N.Kind == NodeKind::Op) {
      for (uint64_t Id : N.Bufs)
        if (BufState *B = Bufs.find(Id); B && B->Open != UINT32_MAX)
          P[B->Open].access(I, R);
      continue;
    }
    BufState *B = Bufs.find(N.Buf);
    if (!B)
      continue;
    switch (N.Kind) {
    case NodeKind::Alloc:
    case NodeKind::SpillIn:
      if (!N.HasOffset || B->Size == 0) {
        B->Open = UINT32_MAX;
        break;
      }
      B->Open = P.size();
      P.push_back({N.Buf, B->BufTier, N.Offset, B->Size});
      P.back().access(I, R);
      break;
    case NodeKind::SpillOut:
    case NodeKind::Free:
      if (B->Open != UINT32_MAX)
        P[B->Open].access(I, R);
      B->Open = UINT32_MAX;
      break;
    default:
      break;
    }
  }
  return P;
}

} // namespace

std::optional<Race> findRace(const Graph &G, const ReplayResult &R) {
  std::vector<Placement> P = placements(G, R);
  std::vector<uint32_t> ByStart;
  for (uint32_t K = 0; K != P.size(); ++K)
    if (P[K].accessed())
      ByStart.push_back(K);
  std::sort(ByStart.begin(), ByStart.end(), [&](uint32_t A, uint32_t B) {
    return std::tuple(P[A].Begin, P[A].BufTier, P[A].Offset, A) <
           std::tuple(P[B].Begin, P[B].BufTier, P[B].Offset, B);
  });

  // Per tier, the placements whose data is there, by offset: disjoint until
  // the first race, which ends the sweep.
  std::array<std::map<uint64_t, uint32_t>, MaxTiers> Live;
  using Ending = std::pair<uint64_t, uint32_t>; // (End, placement)
  std::priority_queue<Ending, std::vector<Ending>, std::greater<Ending>> Ends;
  for (uint32_t K : ByStart) {
    const Placement &New = P[K];
    // Spans are half-open: data that leaves at t makes room for data that
    // comes at t.
    while (!Ends.empty() && Ends.top().first <= New.Begin) {
      const Placement &Old = P[Ends.top().second];
      Live[static_cast<unsigned>(Old.BufTier)].erase(Old.Offset);
      Ends.pop();
    }
    std::map<uint64_t, uint32_t> &L = Live[static_cast<unsigned>(New.BufTier)];
    uint64_t NewEnd = New.Offset + New.Size;
    auto It = L.lower_bound(New.Offset);
    std::optional<uint32_t> Hit;
    if (It != L.end() && It->first < NewEnd)
      Hit = It->second;
    else if (It != L.begin() &&
             std::prev(It)->first + P[std::prev(It)->second].Size > New.Offset)
      Hit = std::prev(It)->second;
    if (Hit) {
      const Placement &Old = P[*Hit];
      return Race{Old.Last,
                  Old.Buf,
                  New.First,
                  New.Buf,
                  New.BufTier,
                  std::max(Old.Offset, New.Offset),
                  std::min(Old.Offset + Old.Size, NewEnd)};
    }
    L.emplace(New.Offset, K);
    Ends.push({New.End, K});
  }
  return std::nullopt;
}

} // namespace dan
