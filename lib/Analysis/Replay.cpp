//===- Replay.cpp - The ruler: timing and the four metrics ----------------===//
//
// One walk over the schedule computes every metric. Each node's start and
// finish come from its predecessors' finishes and its pipe's last finish,
// the longest path from the predecessors' path lengths, and the residency
// from a small state machine per buffer. docs/Replay.md states the rules.
//
//===----------------------------------------------------------------------===//

#include "dan/Analysis/Replay.h"
#include "dan/IR/MemoryPlan.h"
#include "llvm/Support/MathExtras.h"
#include <algorithm>

using namespace llvm;

namespace dan {

namespace {
/// Where a buffer is. Only a node that changes the state changes residency,
/// so a graph the verifier would reject (a FREE without an ALLOC, a second
/// ALLOC, a SPILL_IN of a resident buffer) never drives a sum below zero.
enum class BufState : uint8_t { Unplaced, Resident, SpilledOut, Freed };

/// A buffer's cost and, when it has an ALLOC, its tier and state.
struct BufInfo {
  BufferCost Cost;
  bool HasAlloc = false;
  Tier BufTier{};
  BufState State = BufState::Unplaced;
};

/// Live bytes and live buffers per tier, and their peaks.
class Residency {
public:
  Residency(const TargetDesc &T, ReplayResult &R) : T(T), R(R) {}

  /// The buffer takes its bytes (ALLOC, SPILL_IN) at node \p I.
  void place(BufInfo &B, NodeIdx I) {
    unsigned Ti = static_cast<unsigned>(B.BufTier);
    B.State = BufState::Resident;
    Bytes[Ti] = SaturatingAdd(Bytes[Ti], B.Cost.Size);
    R.TierPeak[Ti] = std::max(R.TierPeak[Ti], Bytes[Ti]);
    if (T.countsInPeak(B.BufTier)) {
      PeakBytes = SaturatingAdd(PeakBytes, B.Cost.Size);
      R.PeakL1UB = std::max(R.PeakL1UB, PeakBytes);
    }
    if (T.isL0(B.BufTier) && ++Buffers[Ti] > 1 && R.L0Single) {
      R.L0Single = false;
      R.L0Violation = I;
    }
  }

  /// The buffer gives its bytes back (FREE, SPILL_OUT).
  void release(BufInfo &B, BufState To) {
    unsigned Ti = static_cast<unsigned>(B.BufTier);
    B.State = To;
    Bytes[Ti] -= std::min(Bytes[Ti], B.Cost.Size);
    if (T.countsInPeak(B.BufTier))
      PeakBytes -= std::min(PeakBytes, B.Cost.Size);
    if (T.isL0(B.BufTier))
      --Buffers[Ti];
  }

private:
  const TargetDesc &T;
  ReplayResult &R;
  std::array<uint64_t, MaxTiers> Bytes{};
  std::array<uint64_t, MaxTiers> Buffers{};
  uint64_t PeakBytes = 0;
};
} // namespace

ReplayResult replay(const Graph &G, const TargetDesc &T) {
  ReplayResult R;
  const size_t V = G.size();
  R.Start.assign(V, 0);
  R.Finish.assign(V, 0);

  // The same costs as bufferCosts, beside each buffer's state.
  IdTable<BufInfo> Buffers(V);
  for (NodeIdx I : G.Order)
    if (I < V && G[I].Kind == NodeKind::Alloc) {
      auto [B, New] = Buffers.tryEmplace(G[I].Buf);
      if (New) {
        B->Cost.Size = G[I].Size;
        B->Cost.BufTier = G[I].BufTier;
        B->HasAlloc = true;
        B->BufTier = G[I].BufTier;
      }
    }
  forEachDDRBackedBuffer(G, [&](uint64_t B) { Buffers[B].Cost.Backed = true; });

  // Done[I]: node I has run. Path[I]: the longest path ending at I, in
  // cycles (the finish time with every pipe unlimited).
  std::vector<uint8_t> Done(V, 0);
  std::vector<uint64_t> Path(V, 0);
  std::array<uint64_t, MaxPipes> PipeFree{};
  Residency Live(T, R);

  for (NodeIdx I : G.Order) {
    if (I >= V || Done[I])
      continue;
    const Node &N = G[I];

    uint64_t Ready = 0, PathReady = 0;
    auto Wait = [&](const EdgeList &Preds) {
      for (NodeIdx P : Preds)
        if (P < V && Done[P]) {
          Ready = std::max(Ready, R.Finish[P]);
          PathReady = std::max(PathReady, Path[P]);
        }
    };
    Wait(N.Preds);
    Wait(N.ReusePreds);

    BufInfo *B = N.isBufferNode() ? Buffers.find(N.Buf) : nullptr;
    uint64_t Cycles = nodeCycles(N, T, B ? &B->Cost : nullptr);
    uint64_t Start = Ready;
    if (std::optional<Pipe> P = nodePipe(N, T, B ? &B->Cost : nullptr)) {
      unsigned Pi = static_cast<unsigned>(*P);
      Start = std::max(Start, PipeFree[Pi]);
      PipeFree[Pi] = SaturatingAdd(Start, Cycles);
      R.PipeBusy[Pi] = SaturatingAdd(R.PipeBusy[Pi], Cycles);
    }
    R.Start[I] = Start;
    R.Finish[I] = SaturatingAdd(Start, Cycles);
    Path[I] = SaturatingAdd(PathReady, Cycles);
    Done[I] = 1;
    R.Makespan = std::max(R.Makespan, R.Finish[I]);
    R.CriticalPathLB = std::max(R.CriticalPathLB, Path[I]);

    if (!N.isBufferNode())
      continue;
    if (N.Kind == NodeKind::SpillOut) {
      uint64_t Size = B ? B->Cost.Size : 0;
      ++R.SpillCount;
      R.ExtraTraffic = SaturatingAdd(
          R.ExtraTraffic, TargetDesc::spillTraffic(Size, B && B->Cost.Backed));
    }
    if (!B || !B->HasAlloc)
      continue;
    switch (N.Kind) {
    case NodeKind::Alloc:
      if (B->State == BufState::Unplaced)
        Live.place(*B, I);
      break;
    case NodeKind::SpillIn:
      if (B->State == BufState::SpilledOut)
        Live.place(*B, I);
      break;
    case NodeKind::SpillOut:
      if (B->State == BufState::Resident)
        Live.release(*B, BufState::SpilledOut);
      break;
    case NodeKind::Free:
      if (B->State == BufState::Resident)
        Live.release(*B, BufState::Freed);
      else if (B->State == BufState::SpilledOut)
        B->State = BufState::Freed;
      break;
    case NodeKind::Op:
      break;
    }
  }

  R.PipeLB = *std::max_element(R.PipeBusy.begin(), R.PipeBusy.end());
  return R;
}

} // namespace dan
