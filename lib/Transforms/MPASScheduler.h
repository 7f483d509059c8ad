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
    Tier BufTier = Tier::L1;
    uint64_t Size = 0;
    llvm::SmallVector<NodeIdx, 4> Users; // operations, in input order
  };
  IdTable<BufInfo> Bufs;

  MPASGraphInfo(const Graph &G, const TargetDesc &T);

private:
  void buildEdges(const Graph &G);
  void computeCriticality(const Graph &G);
  void buildBuffers(const Graph &G, const TargetDesc &T);
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
        Bufs(Info.Bufs) {}
  /// Orders the graph into \p Out.
  Expected<MPASStats> run(std::vector<NodeIdx> &Out);

private:
  void buildGroups();
  Key key(NodeIdx V) const;
  bool gated(NodeIdx V) const { return GatedAlloc[V] && !Admitted[V]; }
  void makeReady(NodeIdx V);
  bool fits(uint32_t Consumer) const;
  bool fitsUnder(uint32_t Consumer, L0Mode Mode) const;
  void open(uint32_t Consumer);
  void tryOpen();
  void schedule(NodeIdx V);
  bool fallback();
  void buildDemand();
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

  // L0 gating.
  std::vector<uint8_t> GatedAlloc, Admitted, Done;
  struct Consumer {
    NodeIdx Op;
    SmallVector<NodeIdx, 3> Allocs; // the group's ALLOCs
    std::array<uint64_t, NumTiers> Bytes{};
    std::array<uint32_t, NumTiers> Count{};
    uint32_t External = 0; // predecessors outside the group not yet done
    bool Opened = false;
    uint32_t Shape = 0; // index of its Bytes and Count in Openable
  };
  std::vector<Consumer> Consumers;
  std::vector<SmallVector<uint32_t, 1>> WaitersOf; // node -> consumers
  /// The consumers that wait only for room, by shape: the consumers of one
  /// shape (the same Bytes and Count) fit or do not fit together, so that
  /// tryOpen's scan in priority order looks at the first of each shape
  /// instead of at every waiting consumer.
  std::vector<std::set<std::pair<Key, uint32_t>>> Openable;
  /// The best consumer that waits only for room (None: there is none).
  uint32_t firstOpenable() const;
  /// Consumers that joined Openable since tryOpen last looked. The others
  /// did not fit then, and L0 room only grows at an L0 FREE, which sets
  /// ScanAllOpenable; until then tryOpen checks the newcomers alone.
  std::vector<uint32_t> NewlyOpenable;
  bool ScanAllOpenable = true;
  void addOpenable(uint32_t CI) {
    Openable[Consumers[CI].Shape].insert({key(Consumers[CI].Op), CI});
    NewlyOpenable.push_back(CI);
  }
  /// Under L0Mode::Capacity: whether some L0 test would have had another
  /// answer under L0Mode::Single (MPASStats::SameUnderSingle).
  mutable bool SingleDiffers = false;
  std::array<uint64_t, NumTiers> LiveBytes{}, ReservedBytes{};
  std::array<uint32_t, NumTiers> LiveCount{}, ReservedCount{};
  std::set<std::pair<Key, NodeIdx>> Pending; // ready but gated L0 allocs

  /// The ready queue: a binary heap on (key, node), smallest first, whose
  /// entries of nodes no longer ready (IsReady 0) are dropped when they come
  /// to the top. A node is ready once, and keys do not change, so its top
  /// is the smallest ready node, as an ordered set's first would be.
  std::vector<std::pair<Key, NodeIdx>> Ready;
  /// Whether a node is ready; the demand scan asks this often.
  std::vector<uint8_t> IsReady;
  void addReady(NodeIdx I) {
    Ready.push_back({key(I), I});
    std::push_heap(Ready.begin(), Ready.end(), std::greater<>());
    IsReady[I] = 1;
  }
  /// The smallest ready node, or None.
  NodeIdx firstReady() {
    while (!Ready.empty() && !IsReady[Ready.front().second]) {
      std::pop_heap(Ready.begin(), Ready.end(), std::greater<>());
      Ready.pop_back();
    }
    return Ready.empty() ? None : Ready.front().second;
  }
  std::vector<NodeIdx> Order;

  // Demand-driven allocs: for each operation, its predecessors that are
  // ALLOCs without predecessors, and how many other predecessors remain.
  std::vector<SmallVector<NodeIdx, 2>> NeedAllocs;
  std::vector<uint32_t> HardLeft, NeedLeft;
  // The candidates (HardLeft 0, NeedLeft not 0) whose missing allocs are
  // all ready are kept scored, so that an ALLOC choice reads the best one
  // instead of rescanning every candidate. Per operation: its missing
  // allocs still held back by the L0 rule; the bytes its missing allocs add
  // per tier that counts in peak (their delta_pk, summed: Cost); and the
  // delta_pk of the FREEs it alone still keeps from being ready (FreeGain;
  // the net change is Cost + FreeGain).
  std::vector<uint32_t> HeldLeft;
  std::vector<int64_t> Cost, FreeGain;
  using AddBytes = std::array<int64_t, NumTiers>;
  std::vector<AddBytes> Add;
  /// Candidates that share a task rank and the bytes they add per tier
  /// also share the overflow term of the score, so each such bucket keeps
  /// its candidates by the rest of the score: (net, cost, key, node).
  using DemandEntry = std::tuple<int64_t, int64_t, Key, NodeIdx>;
  std::map<std::pair<int64_t, AddBytes>, std::set<DemandEntry>> Demand;
  bool demandListed(NodeIdx Op) const {
    return HardLeft[Op] == 0 && NeedLeft[Op] != 0 && HeldLeft[Op] == 0;
  }
  std::pair<int64_t, AddBytes> demandBucket(NodeIdx Op) const;
  void unlistDemand(NodeIdx Op);
  void listDemand(NodeIdx Op);
  void admit(NodeIdx A);
  NodeIdx Committed = None;
  uint64_t LiveL1UB = 0;
  /// Live bytes per tier.
  std::array<int64_t, NumTiers> TierLive{};
};

} // namespace mpas

} // namespace dan

#endif // DAN_LIB_TRANSFORMS_MPASSCHEDULER_H
