//===- BoundsTiming.cpp - Lower bounds on the traffic and the makespan ----===//
//
// The bound on the extra DDR traffic of a fixed order (the fewest bytes
// that must be out of each tier at each node, priced at the least a spill
// moves) and the bounds on the makespan: the busiest pipe, the critical
// path, and for a fixed order the busiest pipe once the traffic bound's
// transfers are added. docs/Bounds.md states each method and why it is
// valid.
//
//===----------------------------------------------------------------------===//

#include "BoundGraph.h"
#include "dan/Analysis/Bounds.h"
#include "dan/IR/NodeCosts.h"
#include "llvm/ADT/DenseMap.h"
#include "llvm/ADT/DenseSet.h"
#include "llvm/Support/MathExtras.h"
#include <algorithm>
#include <array>
#include <queue>

using namespace llvm;

namespace dan {

using detail::BoundGraph;
using detail::buildBoundGraph;
using detail::None;

namespace {

/// One stretch a buffer may spend out of its tier: the positions strictly
/// between two consecutive events of the buffer.
struct Stretch {
  uint32_t First, Last; ///< positions, inclusive
  uint64_t Size;
};

/// The fewest bytes of \p Stretches that cover the demand at every
/// position (\p Demand: bytes above the capacity), each byte out for all
/// of its stretch's positions. Left to right, the demand still uncovered
/// at a position is taken from the open stretches that end last: a stretch
/// open at a position covers the later positions of any stretch open there
/// that ends sooner, and the positions before it are covered already, so
/// the greedy is ahead of any cover at every position (the interval matrix
/// is greedy in the sense of Hoffman, Kolen and Sakarovitch).
/// unittests/BoundsTest.cpp checks it against exhaustive search.
uint64_t leastBytesOut(std::vector<Stretch> &Stretches,
                       ArrayRef<uint64_t> Demand) {
  llvm::sort(Stretches, [](const Stretch &A, const Stretch &B) {
    return A.First < B.First;
  });
  using Open = std::pair<uint32_t, size_t>; // (last position, stretch)
  std::priority_queue<Open> Ends;
  std::vector<uint64_t> Left(Stretches.size());
  std::vector<uint64_t> Expire(Demand.size() + 1, 0);
  uint64_t Covered = 0, Total = 0;
  size_t Next = 0;
  for (uint32_t P = 0; P != Demand.size(); ++P) {
    Covered -= Expire[P];
    for (; Next != Stretches.size() && Stretches[Next].First <= P; ++Next) {
      Left[Next] = Stretches[Next].Size;
      Ends.push({Stretches[Next].Last, Next});
    }
    while (Covered < Demand[P] && !Ends.empty()) {
      auto [Last, K] = Ends.top();
      if (Last < P || Left[K] == 0) {
        Ends.pop();
        continue;
      }
      uint64_t Take = std::min(Left[K], Demand[P] - Covered);
      Left[K] -= Take;
      Covered += Take;
      Total += Take;
      Expire[Last + 1] += Take;
    }
  }
  return Total;
}

/// One tier's part of trafficLowerBound: its demand at each position and
/// its stretches, those of DDR-backed buffers (a byte out moves once) and
/// the others (a byte out moves twice, out and back).
struct TierStretches {
  std::vector<uint64_t> Demand;
  std::vector<Stretch> All, Written;
  std::vector<int64_t> BackedDelta; ///< backed stretch bytes, as differences
};

/// The least traffic of \p S: every cover takes at least the fewest bytes
/// out of all stretches at the backed price, and at least the fewest bytes
/// out of the written-back ones (for the demand the backed ones cannot
/// meet) at the difference of the prices.
uint64_t tierTraffic(TierStretches &S, uint64_t &BytesOut,
                     uint64_t &WrittenOut) {
  BytesOut = leastBytesOut(S.All, S.Demand);
  std::vector<uint64_t> Rest(S.Demand.size());
  int64_t Backed = 0;
  for (size_t P = 0; P != Rest.size(); ++P) {
    Backed += S.BackedDelta[P];
    Rest[P] = S.Demand[P] > uint64_t(Backed) ? S.Demand[P] - Backed : 0;
  }
  WrittenOut = leastBytesOut(S.Written, Rest);
  uint64_t Once = TargetDesc::spillTraffic(1, true);
  uint64_t Twice = TargetDesc::spillTraffic(1, false);
  return SaturatingAdd(SaturatingMultiply(BytesOut, Once),
                       SaturatingMultiply(WrittenOut, Twice - Once));
}

/// trafficLowerBound's value and text, with the bytes that must move in
/// and out (all tiers).
struct TrafficParts {
  LowerBound Bound;
  uint64_t In = 0, Out = 0;
};

TrafficParts trafficParts(const Graph &G, const TargetDesc &T) {
  // Positions of the non-spill nodes in schedule order; each buffer's
  // events there.
  std::vector<uint32_t> Pos(G.size(), None);
  uint32_t Count = 0;
  for (NodeIdx I : G.Order)
    if (!G[I].isSpill())
      Pos[I] = Count++;
  DenseMap<uint64_t, std::vector<uint32_t>> Events;
  DenseMap<uint64_t, NodeIdx> AllocOf;
  for (NodeIdx I : G.Order) {
    const Node &N = G[I];
    if (N.Kind == NodeKind::Alloc)
      AllocOf.try_emplace(N.Buf, I);
    if (N.Kind == NodeKind::Alloc || N.Kind == NodeKind::Free)
      Events[N.Buf].push_back(Pos[I]);
    else if (N.Kind == NodeKind::Op)
      for (uint64_t B : N.Bufs)
        Events[B].push_back(Pos[I]);
  }
  DenseSet<uint64_t> Backed = ddrBackedBuffers(G);
  std::array<TierStretches, MaxTiers> Tiers;
  std::vector<std::vector<int64_t>> Live(T.numTiers());
  for (TierStretches &S : Tiers)
    S.BackedDelta.assign(Count + 1, 0);
  for (auto &V : Live)
    V.assign(Count + 1, 0);
  for (auto &[B, List] : Events) {
    auto A = AllocOf.find(B);
    if (A == AllocOf.end())
      continue;
    unsigned TI = static_cast<unsigned>(G[A->second].BufTier);
    TierStretches &S = Tiers[TI];
    llvm::sort(List);
    uint64_t Size = G[A->second].Size;
    Live[TI][List.front()] += Size;
    Live[TI][List.back() + 1] -= Size;
    for (size_t K = 0; K + 1 < List.size(); ++K) {
      if (List[K] + 1 == List[K + 1])
        continue;
      Stretch St{List[K] + 1, List[K + 1] - 1, Size};
      S.All.push_back(St);
      if (Backed.contains(B)) {
        S.BackedDelta[St.First] += Size;
        S.BackedDelta[St.Last + 1] -= Size;
      } else {
        S.Written.push_back(St);
      }
    }
  }
  uint64_t Total = 0, In = 0, WrittenBack = 0;
  std::string Where;
  for (unsigned TI = 0; TI != T.numTiers(); ++TI) {
    TierStretches &S = Tiers[TI];
    uint64_t Cap = T.capacity(static_cast<Tier>(TI));
    int64_t Bytes = 0;
    S.Demand.assign(Count, 0);
    for (uint32_t P = 0; P != Count; ++P) {
      Bytes += Live[TI][P];
      S.Demand[P] = uint64_t(Bytes) > Cap ? uint64_t(Bytes) - Cap : 0;
    }
    if (llvm::all_of(S.Demand, [](uint64_t D) { return D == 0; }))
      continue;
    uint64_t Out = 0, Written = 0;
    Total = SaturatingAdd(Total, tierTraffic(S, Out, Written));
    In = SaturatingAdd(In, Out);
    WrittenBack = SaturatingAdd(WrittenBack, Written);
    Where += (Where.empty() ? "" : ", ") +
             T.tierName(static_cast<Tier>(TI)).str() + ": " +
             std::to_string(Out) + " bytes out, " + std::to_string(Written) +
             " of them written back";
  }
  return {{"byte-granular", Total, Where.empty() ? "no tier overflows" : Where},
          In,
          WrittenBack};
}

/// Each node's cycles and each pipe's total.
struct PipeLoads {
  std::vector<uint64_t> Cycles;
  std::array<uint64_t, MaxPipes> Busy{};
};

PipeLoads pipeLoads(const Graph &G, const TargetDesc &T) {
  BufferCosts Costs = bufferCosts(G);
  PipeLoads L;
  L.Cycles.resize(G.size());
  for (NodeIdx I = 0; I != G.size(); ++I) {
    L.Cycles[I] = nodeCycles(G, I, T, Costs);
    if (std::optional<Pipe> P = nodePipe(G, I, T, Costs))
      L.Busy[static_cast<unsigned>(*P)] =
          SaturatingAdd(L.Busy[static_cast<unsigned>(*P)], L.Cycles[I]);
  }
  return L;
}

/// The busiest pipe of \p Busy as bound \p Method, the pipe's name
/// followed by \p Note as where it rests.
LowerBound busiestPipe(const TargetDesc &T, StringRef Method,
                       const std::array<uint64_t, MaxPipes> &Busy,
                       StringRef Note = "") {
  unsigned Most = std::max_element(Busy.begin(), Busy.end()) - Busy.begin();
  return {Method.str(), Busy[Most],
          (T.pipeName(static_cast<Pipe>(Most)) + Note).str()};
}

} // namespace

LowerBound trafficLowerBound(const Graph &G, const TargetDesc &T) {
  return trafficParts(G, T).Bound;
}

std::vector<LowerBound> makespanLowerBounds(const Graph &G,
                                            const TargetDesc &T) {
  PipeLoads Loads = pipeLoads(G, T);
  std::vector<LowerBound> Out = {busiestPipe(T, "busiest pipe", Loads.Busy)};
  // The longest path, over the graph's edges and each buffer's uses
  // between its ALLOC and its FREE (Kahn's order; a cycle leaves nodes
  // out, and the verifier reports it).
  Expected<BoundGraph> BG = buildBoundGraph(G, /*Timing=*/true);
  if (!BG) {
    consumeError(BG.takeError());
    return Out;
  }
  std::vector<uint64_t> Finish(G.size(), 0);
  uint64_t Longest = 0;
  NodeIdx End = None;
  for (NodeIdx I : BG->Topo) {
    uint64_t Start = 0;
    for (NodeIdx P : BG->Preds[I])
      Start = std::max(Start, Finish[P]);
    Finish[I] = SaturatingAdd(Start, Loads.Cycles[I]);
    if (Finish[I] > Longest || End == None) {
      Longest = Finish[I];
      End = I;
    }
  }
  Out.push_back({"critical path", Longest,
                 End == None ? "" : "ending at " + describeNode(G, End)});
  return Out;
}

OrderBounds orderLowerBounds(const Graph &G, const TargetDesc &T) {
  std::array<uint64_t, MaxPipes> Busy = pipeLoads(G, T).Busy;
  // A plan of this order moves at least the traffic bound's bytes: back in
  // on the spill-in pipe, and out on the spill-out pipe for the buffers DDR
  // does not hold, costing at least one transfer's fixed cycles each way.
  // The bytes are not told apart by tier, so only a target whose tiers all
  // spill one way adds them.
  TrafficParts P = trafficParts(G, T);
  const SpillPath &Path = T.defaultSpillPath();
  auto Add = [&](Pipe Pi, uint64_t Cycles) {
    Busy[index(Pi)] = SaturatingAdd(Busy[index(Pi)], Cycles);
  };
  if (P.In && T.uniformSpill())
    Add(Path.In, Path.transferCycles(P.In));
  if (P.Out && T.uniformSpill())
    Add(Path.Out, Path.transferCycles(P.Out));
  return {std::move(P.Bound),
          busiestPipe(T, "with least spills", Busy,
                      ", with the transfers of the traffic bound")};
}

} // namespace dan
