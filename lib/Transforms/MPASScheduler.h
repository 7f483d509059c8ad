//===- MPASScheduler.h - MPAS's list scheduler, shared by its parts -------===//
//
// Private to lib/Transforms: stage 1's ready-set list scheduler, split by
// the decision each part makes: what it knows of the graph (the implicit
// edges, criticality, buffers; MPASGraph.cpp), when an L0 ALLOC may run
// (MPASL0.cpp), which ALLOC runs when only ALLOCs are ready
// (MPASDemand.cpp), and the priority and the main loop (MPAS.cpp).
//
//===----------------------------------------------------------------------===//

#ifndef DAN_LIB_TRANSFORMS_MPASSCHEDULER_H
#define DAN_LIB_TRANSFORMS_MPASSCHEDULER_H

#include "dan/Analysis/Verifier.h"
#include "dan/IR/Diagnostic.h"
#include "dan/IR/IdIndex.h"
#include "dan/Schedule/Order.h"
#include "dan/Schedule/Placement.h"
#include "dan/Transforms/MPAS.h"
#include "llvm/ADT/DenseMap.h"
#include "llvm/ADT/STLExtras.h"
#include <algorithm>
#include <array>
#include <functional>
#include <map>
#include <set>
#include <tuple>

namespace dan {

/// What stage 1's list scheduler knows of a graph whatever the setting:
/// the edges with the implicit ALLOC -> use -> FREE orderings, the
/// criticality h and the buffers (MPASGraph.cpp). Made once per graph and
/// shared by the orders of every setting a search tries.
class MPASGraphInfo {
public:
  static constexpr uint32_t None = UINT32_MAX;
  size_t V = 0;
  std::vector<uint32_t> Ord; // input position
  /// The graph's edges plus the implicit ALLOC -> use -> FREE orderings.
  std::vector<llvm::SmallVector<NodeIdx, 4>> Preds;
  std::vector<uint32_t> SuccBegin; // CSR successors
  std::vector<NodeIdx> Succs;
  std::vector<uint32_t> InDeg;
  std::vector<int64_t> H;     // criticality
  std::vector<int64_t> Delta; // change of live L1+UB bytes
  std::vector<uint8_t> Lambda;
  struct BufInfo {
    NodeIdx Alloc = None, Free = None;
    Tier BufTier{};
    uint64_t Size = 0;
    llvm::SmallVector<NodeIdx, 4> Users; // operations, in input order
  };
  IdTable<BufInfo> Bufs;

  /// The nodes in the order of the balanced weights' key without the task
  /// rank: (lambda, delta_pk, -h, input position).
  std::vector<NodeIdx> BalancedOrder;

  /// The L0 groups (MPASL0.cpp): an operation that consumes L0 buffers,
  /// the ALLOCs of those buffers, their bytes and count per tier, and how
  /// many of its outside predecessors each schedule starts waiting for.
  struct L0Group {
    NodeIdx Op;
    llvm::SmallVector<NodeIdx, 3> Allocs;
    std::array<uint64_t, MaxTiers> Bytes{};
    std::array<uint32_t, MaxTiers> Count{};
    uint32_t External = 0;
    /// Groups of one shape (the same Bytes and Count) fit or do not fit
    /// together; the shapes are numbered from 0 in order of first group.
    uint32_t Shape = 0;
  };
  std::vector<L0Group> Groups;
  uint32_t Shapes = 0;
  /// Per node: whether it is the ALLOC of a group's buffer.
  std::vector<uint8_t> GroupAlloc;
  /// Per node: the groups waiting for it (an outside predecessor), as CSR
  /// lists.
  std::vector<uint32_t> WaitersBegin, Waiters;
  llvm::ArrayRef<uint32_t> waitersOf(NodeIdx I) const {
    return llvm::ArrayRef(Waiters).slice(WaitersBegin[I],
                                         WaitersBegin[I + 1] - WaitersBegin[I]);
  }

  /// The demand-driven alloc choice (MPASDemand.cpp) looks only at the
  /// operations with predecessors that are ALLOCs without predecessors:
  /// each has a slot, numbered in node order (DemandSlot; None for the
  /// other nodes), with those ALLOCs (NeedAllocs, a CSR list by slot) and
  /// its counts at the start of a schedule (DemandStart).
  using AddBytes = std::array<int64_t, MaxTiers>;
  struct DemandCounts {
    /// Predecessors not yet scheduled: the needed ALLOCs (NeedLeft), those
    /// of them the L0 rule holds back (HeldLeft, when there is an L0 rule)
    /// and the others (HardLeft).
    uint32_t HardLeft = 0, NeedLeft = 0, HeldLeft = 0;
    /// The bytes its unscheduled needed ALLOCs add: their delta_pk summed
    /// (Cost) and per tier that counts in the peak (Add); the delta_pk of
    /// the FREEs it alone keeps from being ready (FreeGain; the net change
    /// is Cost + FreeGain).
    int64_t Cost = 0, FreeGain = 0;
    AddBytes Add{};
  };
  std::vector<uint32_t> DemandSlot;
  std::vector<uint32_t> NeedBegin;
  std::vector<NodeIdx> NeedAllocs;
  std::vector<DemandCounts> DemandStart;
  /// Slot \p S's needed ALLOCs.
  llvm::ArrayRef<NodeIdx> needAllocs(uint32_t S) const {
    return llvm::ArrayRef(NeedAllocs)
        .slice(NeedBegin[S], NeedBegin[S + 1] - NeedBegin[S]);
  }

  /// What every setting's schedule shares, made once (about a fifth of one
  /// schedule's work on a large graph; the search makes it beside finding
  /// the tasks).
  MPASGraphInfo(const Graph &G, const TargetDesc &T);

private:
  void buildEdges(const Graph &G);
  void computeCriticality(const Graph &G);
  void buildBuffers(const Graph &G, const TargetDesc &T);
  void sortByBalancedKey();
  void buildL0Groups(const Graph &G, const TargetDesc &T);
  void buildDemandCounts(const Graph &G, const TargetDesc &T);
};

namespace mpas {

using namespace llvm;

constexpr uint32_t None = UINT32_MAX;

/// The peak of live L1+UB bytes along the schedule \p Order of \p G.
inline uint64_t peakL1UB(const Graph &G, const TargetDesc &T,
                         ArrayRef<NodeIdx> Order) {
  int64_t Live = 0, Peak = 0;
  for (NodeIdx I : Order) {
    const Node &N = G[I];
    if (!T.countsInPeak(N.BufTier))
      continue;
    if (N.Kind == NodeKind::Alloc)
      Peak = std::max(Peak, Live += int64_t(N.Size));
    else if (N.Kind == NodeKind::Free)
      Live -= int64_t(N.Size);
  }
  return Peak;
}

/// The task rank of a reuse-grid order (0 without one), then the weights.
using Key = std::array<int64_t, 5>;

class Scheduler {
public:
  Scheduler(const MPASGraphInfo &Info, const Graph &G, const TargetDesc &T,
            const MPASOptions &Opts,
            const std::vector<uint32_t> *Rank = nullptr)
      : G(G), T(T), Opts(Opts), Rank(Rank), V(Info.V), Ord(Info.Ord),
        Preds(Info.Preds), SuccBegin(Info.SuccBegin), Succs(Info.Succs),
        InDeg(Info.InDeg), H(Info.H), Delta(Info.Delta), Lambda(Info.Lambda),
        Bufs(Info.Bufs), Info(Info), DemandSlot(Info.DemandSlot) {}
  /// Orders the graph into \p Out.
  Expected<MPASStats> run(std::vector<NodeIdx> &Out);

private:
  void startGroups();
  Key key(NodeIdx V) const;
  void rankByKey();
  /// Whether the L0 rule holds \p V back: an ALLOC of a group's buffer
  /// whose group has not opened.
  bool groupAlloc(NodeIdx V) const { return Gating && Info.GroupAlloc[V]; }
  bool gated(NodeIdx V) const { return groupAlloc(V) && !Admitted[V]; }
  void makeReady(NodeIdx V);
  bool fits(uint32_t Consumer) const;
  bool fitsUnder(uint32_t Consumer, L0Mode Mode) const;
  void open(uint32_t Consumer);
  void tryOpen();
  void schedule(NodeIdx V);
  bool fallback();
  void startDemand();
  NodeIdx demandAlloc();

  const Graph &G;
  const TargetDesc &T;
  const MPASOptions &Opts;
  /// Per node, the rank of its task in a reuse-grid order, or null.
  const std::vector<uint32_t> *Rank;
  MPASStats Stats;

  // The graph as MPASGraphInfo has it (shared, read only), but InDeg,
  // which counts down.
  size_t V;
  const std::vector<uint32_t> &Ord;
  const std::vector<SmallVector<NodeIdx, 4>> &Preds;
  const std::vector<uint32_t> &SuccBegin;
  const std::vector<NodeIdx> &Succs;
  std::vector<uint32_t> InDeg;
  const std::vector<int64_t> &H;
  const std::vector<int64_t> &Delta;
  const std::vector<uint8_t> &Lambda;
  using BufInfo = MPASGraphInfo::BufInfo;
  const IdTable<BufInfo> &Bufs;
  const MPASGraphInfo &Info;

  // L0 gating: whether there is an L0 rule (not under L0Mode::Ignore), and
  // per group (a consumer; MPASGraphInfo::L0Group) its predecessors outside
  // the group not yet done and whether it has opened.
  bool Gating = false;
  std::vector<uint8_t> Admitted, Done;
  ArrayRef<MPASGraphInfo::L0Group> Consumers;
  std::vector<uint32_t> External;
  std::vector<uint8_t> Opened;
  /// The consumers that wait only for room, by shape: the consumers of one
  /// shape (the same Bytes and Count) fit or do not fit together, so that
  /// tryOpen's scan in priority order looks at the first of each shape
  /// instead of at every waiting consumer.
  std::vector<std::set<std::pair<uint32_t, uint32_t>>> Openable;
  /// The best consumer that waits only for room (None: there is none).
  uint32_t firstOpenable() const;
  /// Consumers that joined Openable since tryOpen last looked. The others
  /// did not fit then, and L0 room only grows at an L0 FREE, which sets
  /// ScanAllOpenable; until then tryOpen checks the newcomers alone.
  std::vector<uint32_t> NewlyOpenable;
  bool ScanAllOpenable = true;
  void addOpenable(uint32_t CI) {
    Openable[Consumers[CI].Shape].insert({KeyPos[Consumers[CI].Op], CI});
    NewlyOpenable.push_back(CI);
  }
  /// Under L0Mode::Capacity: whether some L0 test would have had another
  /// answer under L0Mode::Single (MPASStats::SameUnderSingle).
  mutable bool SingleDiffers = false;
  std::array<uint64_t, MaxTiers> LiveBytes{}, ReservedBytes{};
  std::array<uint32_t, MaxTiers> LiveCount{}, ReservedCount{};

  /// Every node's place in the order of (key, node), and the node at each
  /// place (rankByKey): the queues below compare places, which order nodes
  /// as their keys do, instead of keys of five numbers each.
  std::vector<uint32_t> KeyPos;
  std::vector<NodeIdx> NodeAt;

  /// A binary heap of places, smallest first, whose entries of nodes that
  /// left the set it stands for (their flag 0) are dropped when they come to
  /// the top. A node enters each set once, and its place does not change,
  /// so the top is the set's smallest node, as an ordered set's first would
  /// be.
  struct LazyHeap {
    std::vector<uint32_t> Places;
    void push(uint32_t Place) {
      Places.push_back(Place);
      std::push_heap(Places.begin(), Places.end(), std::greater<>());
    }
    /// The smallest place whose node's flag in \p In is set, or None.
    uint32_t first(ArrayRef<NodeIdx> NodeAt, ArrayRef<uint8_t> In) {
      while (!Places.empty() && !In[NodeAt[Places.front()]]) {
        std::pop_heap(Places.begin(), Places.end(), std::greater<>());
        Places.pop_back();
      }
      return Places.empty() ? None : Places.front();
    }
  };
  /// The ready but gated L0 ALLOCs.
  LazyHeap Pending;
  std::vector<uint8_t> IsPending;
  void addPending(NodeIdx I) {
    Pending.push(KeyPos[I]);
    IsPending[I] = 1;
  }

  /// The ready queue.
  LazyHeap Ready;
  /// Whether a node is ready; the demand scan asks this often.
  std::vector<uint8_t> IsReady;
  void addReady(NodeIdx I) {
    Ready.push(KeyPos[I]);
    IsReady[I] = 1;
  }
  /// The smallest ready node, or None.
  NodeIdx firstReady() {
    uint32_t Place = Ready.first(NodeAt, IsReady);
    return Place == None ? None : NodeAt[Place];
  }
  std::vector<NodeIdx> Order;

  // Demand-driven allocs: the operations with needed ALLOCs (each with its
  // slot, MPASGraphInfo::DemandSlot) and their counts as the schedule goes
  // (Counts, by slot). The candidates (HardLeft 0, NeedLeft not 0) whose
  // missing allocs are all ready (HeldLeft 0) are kept scored, so that an
  // ALLOC choice reads the best one instead of rescanning every candidate.
  const std::vector<uint32_t> &DemandSlot;
  using AddBytes = MPASGraphInfo::AddBytes;
  using DemandCounts = MPASGraphInfo::DemandCounts;
  std::vector<DemandCounts> Counts;
  /// The counts of \p Op, or null when it has no needed ALLOCs (and so is
  /// never a candidate).
  DemandCounts *countsOf(NodeIdx Op) {
    uint32_t S = DemandSlot[Op];
    return S == None ? nullptr : &Counts[S];
  }
  /// Candidates that share a task rank and the bytes they add per tier
  /// also share the overflow term of the score, so each such bucket keeps
  /// its candidates by the rest of the score: (net, cost, key, node).
  using DemandEntry = std::tuple<int64_t, int64_t, uint32_t, NodeIdx>;
  std::map<std::pair<int64_t, AddBytes>, std::set<DemandEntry>> Demand;
  static bool demandListed(const DemandCounts &C) {
    return C.HardLeft == 0 && C.NeedLeft != 0 && C.HeldLeft == 0;
  }
  std::pair<int64_t, AddBytes> demandBucket(NodeIdx Op,
                                            const DemandCounts &C) const;
  void unlistDemand(NodeIdx Op, const DemandCounts &C);
  void listDemand(NodeIdx Op, const DemandCounts &C);
  void admit(NodeIdx A);
  NodeIdx Committed = None;
  uint64_t LiveL1UB = 0;
  /// Live bytes per tier.
  std::array<int64_t, MaxTiers> TierLive{};
};

} // namespace mpas

} // namespace dan

#endif // DAN_LIB_TRANSFORMS_MPASSCHEDULER_H
