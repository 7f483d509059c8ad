//===- Residency.cpp - When each buffer holds its bytes -------------------===//

#include "Residency.h"
#include "llvm/ADT/DenseMap.h"
#include <algorithm>

using namespace llvm;

namespace dan {

/// R's time of node \p I, or 0 when R does not cover it.
uint64_t timeOf(const std::vector<uint64_t> &V, NodeIdx I) {
  return I < V.size() ? V[I] : 0;
}

/// The schedule without repeated or out-of-range entries (the replay skips
/// them the same way).
std::vector<NodeIdx> scheduled(const Graph &G) {
  std::vector<NodeIdx> Out;
  std::vector<bool> Seen(G.size());
  for (NodeIdx I : G.Order)
    if (I < G.size() && !Seen[I]) {
      Seen[I] = true;
      Out.push_back(I);
    }
  return Out;
}

/// Every residency interval, in the order their placements run, following
/// the replay's state transitions (docs/Replay.md, Residency).
std::vector<Interval> residencyIntervals(const Graph &G,
                                         const ReplayResult &R) {
  enum State : uint8_t { Placed, Spilled, Freed };
  struct Buf {
    State S;
    Tier BufTier;
    uint64_t Size;
    size_t Open; // index in Out while Placed
  };
  DenseMap<uint64_t, Buf> Bufs;
  std::vector<Interval> Out;
  std::vector<bool> IsOpen;
  auto open = [&](NodeIdx I, const Buf &B, IntervalClass C) {
    Interval V;
    const Node &N = G[I];
    V.Buf = N.Buf;
    V.Offset = N.Offset;
    V.HasOffset = N.HasOffset;
    V.Size = B.Size;
    V.BufTier = B.BufTier;
    V.Placer = I;
    V.Class = C;
    V.T0 = timeOf(R.Start, I);
    Out.push_back(V);
    IsOpen.push_back(true);
    return Out.size() - 1;
  };
  auto close = [&](size_t K, NodeIdx I, bool BySpill) {
    Interval &V = Out[K];
    V.Releaser = I;
    V.T1 = std::max(V.T0, timeOf(R.Finish, I));
    if (BySpill && V.Class == Resident)
      V.Class = Evicted;
    IsOpen[K] = false;
  };
  for (NodeIdx I : scheduled(G)) {
    const Node &N = G[I];
    if (!N.isBufferNode())
      continue;
    auto It = Bufs.find(N.Buf);
    switch (N.Kind) {
    case NodeKind::Alloc:
      if (It == Bufs.end()) {
        Buf B{Placed, N.BufTier, N.Size, 0};
        B.Open = open(I, B, Resident);
        Bufs[N.Buf] = B;
      }
      break;
    case NodeKind::SpillOut:
      if (It != Bufs.end() && It->second.S == Placed) {
        close(It->second.Open, I, true);
        It->second.S = Spilled;
      }
      break;
    case NodeKind::SpillIn:
      if (It != Bufs.end() && It->second.S == Spilled) {
        It->second.Open = open(I, It->second, Reloaded);
        It->second.S = Placed;
      }
      break;
    case NodeKind::Free:
      if (It != Bufs.end() && It->second.S != Freed) {
        if (It->second.S == Placed)
          close(It->second.Open, I, false);
        It->second.S = Freed;
      }
      break;
    case NodeKind::Op:
      break;
    }
  }
  for (size_t K = 0; K != Out.size(); ++K)
    if (IsOpen[K])
      Out[K].T1 = std::max(Out[K].T0, R.Makespan);
  return Out;
}

} // namespace dan
