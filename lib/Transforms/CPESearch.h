//===- CPESearch.h - CPE's local search, shared by its parts ----*- C++ -*-===//
//
// Private to lib/Transforms: stage 3's search over one graph, split by the
// decision each part makes: which moves are legal and where a move puts its
// nodes (CPEMoves.cpp), the timing and its incremental update after a move
// (CPETiming.cpp), and which candidates are tried and accepted (CPE.cpp).
//
//===----------------------------------------------------------------------===//

#ifndef DAN_LIB_TRANSFORMS_CPESEARCH_H
#define DAN_LIB_TRANSFORMS_CPESEARCH_H

#include "dan/Analysis/Replay.h"
#include "dan/Analysis/Verifier.h"
#include "dan/IR/Diagnostic.h"
#include "dan/IR/MemoryPlan.h"
#include "dan/IR/NodeCosts.h"
#include "dan/Transforms/CPE.h"
#include "llvm/ADT/DenseMap.h"
#include "llvm/ADT/DenseSet.h"
#include "llvm/ADT/STLExtras.h"
#include "llvm/Support/MathExtras.h"
#include <algorithm>
#include <array>
#include <chrono>
#include <functional>

namespace dan {

namespace cpe {

using namespace llvm;

constexpr NodeIdx None = UINT32_MAX;
constexpr uint8_t NoPipe = 0xff;

/// Which buffer nodes a list schedule keeps in their input order: those of
/// each tier among themselves, or all of them.
enum class ListChains { Tier, All };
/// A list schedule's priority: the longest path to the end first, or the
/// input position alone.
enum class ListPriority { CriticalPath, Input };

/// A non-delay list schedule of \p G (CPEList.cpp): each pipe, when idle,
/// starts the ready node of the best priority; every stored edge holds,
/// the buffer nodes keep their input order as \p Chains says, and every
/// operation stays between the same nodes of each buffer it uses, so the
/// plan (offsets, spills, reuse edges) is the input's.
std::vector<NodeIdx> listSchedule(const Graph &G, const TargetDesc &T,
                                  ListChains Chains, ListPriority Priority,
                                  uint64_t PeakBound = UINT64_MAX);

/// The list schedule of \p G with the chains of \p Input (which \p G's
/// order becomes; ListChains::Tier with a plan, All without one) under
/// each priority, the faster by replay (ties to the critical path); its
/// makespan in \p Makespan. A placement waits while it
/// would raise live L1+UB bytes past \p PeakBound, unless nothing else can
/// run.
std::vector<NodeIdx> bestListSchedule(Graph &G, ArrayRef<NodeIdx> Input,
                                      const TargetDesc &T, uint64_t PeakBound,
                                      uint64_t &Makespan);

/// Whether orders \p A and \p B of \p G list each tier's buffer nodes, and
/// the spill nodes, in the same order (so they have the same plan); with
/// \p AllBufferNodes, all the buffer nodes in one order.
bool keepsPlanOrder(const Graph &G, ArrayRef<NodeIdx> A, ArrayRef<NodeIdx> B,
                    bool AllBufferNodes);

/// The local search over one graph. The graph itself is only read; the
/// search works on its own copy of the order.
class Search {
public:
  /// \p WithReuse: whether reuse edges constrain the timing (false for
  /// --mode=ignore).
  /// \p MoveBuffers: whether buffer nodes may move (across operations).
  Search(const Graph &G, const TargetDesc &T, bool WithReuse, bool MoveBuffers);

  void run(const CPEOptions &Opts, CPEStats &S);

  uint64_t makespan() const { return Makespan; }
  const std::vector<NodeIdx> &order() const { return Order; }
  /// When \p I starts: the latest finish of its predecessors and of its
  /// pipe predecessor (derived, so that a retiming writes one time per node).
  uint64_t start(NodeIdx I) const {
    uint64_t S = ready(I);
    if (NodeIdx P = pipePrev(I); P != None)
      S = std::max(S, Finish[P]);
    return S;
  }
  uint64_t finish(NodeIdx I) const { return Finish[I]; }

private:
  /// The constructor's parts: the edges the timing follows, the barriers a
  /// move may not cross, and the pipe and buffer-node sequences.
  void buildEdges(bool WithReuse);
  void buildBarriers();
  void buildSequences();

  // The graph, in arrays.
  const Graph &G;
  size_t V;
  bool MoveBuffers;
  std::vector<uint64_t> Cycles;
  std::vector<uint8_t> PipeOf;
  /// Edges as compressed lists: predecessors and successors.
  std::vector<uint32_t> PredBegin, SuccBegin;
  std::vector<NodeIdx> PredList, SuccList;
  /// Barriers, a move's other limit: for an operation, the buffer nodes of
  /// the buffers it uses; for a buffer node, the operations that use its
  /// buffer. Kept by buffer (numbered densely): each node's buffers, and
  /// each buffer's buffer nodes and users, as compressed lists.
  std::vector<uint32_t> NodeBufBegin, BufNodesBegin, BufUsersBegin;
  std::vector<uint32_t> NodeBufList;
  std::vector<NodeIdx> BufNodesList, BufUsersList;
  /// The buffer nodes in schedule order (fixed: they never pass each
  /// other), and each buffer node's index there.
  std::vector<NodeIdx> BufSeq;
  std::vector<uint32_t> BufIdx;

  // The current schedule.
  std::vector<NodeIdx> Order;
  std::vector<uint32_t> Pos;
  /// The nodes of each pipe in schedule order, and each node's index there.
  std::array<std::vector<NodeIdx>, MaxPipes> PipeSeq;
  std::vector<uint32_t> PipeIdx;
  /// Each node's neighbours in PipeSeq (None at the ends and off the
  /// pipes), kept beside it: the retiming reads them for every node.
  std::vector<NodeIdx> PipePrev, PipeNext;
  void linkPipe(const std::vector<NodeIdx> &Seq, uint32_t J);
  /// Per node, a position at or after each of its successors and its pipe
  /// successor: where the wave of a changed node may end. An upper bound,
  /// raised when a move takes a successor later and never lowered, so that
  /// a move updates it in O(moved range * in-degree).
  std::vector<uint32_t> Horizon;
  void raiseHorizon(NodeIdx Of, NodeIdx Succ) {
    Horizon[Of] = std::max(Horizon[Of], Pos[Succ]);
  }

  // The timing of the current schedule.
  std::vector<uint64_t> Finish;
  uint64_t Makespan = 0;
  /// How many nodes finish at Makespan.
  uint64_t AtMax = 0;
  /// The latest finish in each block of BlockSize consecutive node
  /// indices, and how many nodes of the block finish then: a commit
  /// recomputes the blocks it touched and takes the maximum over the
  /// blocks, O(changed + touched blocks * BlockSize + V / BlockSize),
  /// instead of rescanning every node.
  static constexpr uint32_t BlockSize = 256;
  std::vector<uint64_t> BlockMax;
  std::vector<uint32_t> BlockAtMax;
  std::vector<uint8_t> BlockDirty;
  std::vector<uint32_t> DirtyBlocks;
  void recountBlock(uint32_t B);
  /// Nodes retimed so far (every candidate's, accepted or not), and the
  /// most the search may retime (0: no limit); a candidate that would pass
  /// the limit is dropped and ends the search.
  uint64_t Retimed = 0, RetimeLimit = 0;
  bool OverLimit = false;

  // A candidate is timed in place, in Finish; Changed lists the
  // nodes it retimed with their times before, so that a rejected candidate
  // is undone and an accepted one only updates the blocks.
  struct OldTimes {
    NodeIdx I;
    uint64_t Finish;
  };
  std::vector<OldTimes> Changed;
  size_t ChangedCount = 0;
  void undoTimes();
  /// The positions waiting to be retimed, as a bit set: a candidate's
  /// nodes are retimed in schedule order by scanning it forward (every
  /// node a retimed node reaches comes later in the order), O(retimed +
  /// span / 64) instead of a heap's O(retimed log retimed). A node is
  /// queued at most once per candidate: whatever could queue it again
  /// comes before it, and has been retimed already.
  std::vector<uint64_t> Waiting;
  /// When a candidate has changed this many times, the rest of its wave is
  /// retimed by a forward walk instead of through Waiting.
  uint64_t DenseAfter = CPEOptions().DenseAfter;
  /// Per node, the last candidate (by Epoch) that changed its time.
  std::vector<uint32_t> Stamp;
  uint32_t Epoch = 0;
  /// The first word of Waiting a candidate that stopped early may have left
  /// bits in (from it to the end; Waiting.size() when none).
  uint32_t StaleFrom = 0;

  ArrayRef<NodeIdx> preds(NodeIdx I) const {
    return ArrayRef(PredList).slice(PredBegin[I],
                                    PredBegin[I + 1] - PredBegin[I]);
  }
  ArrayRef<NodeIdx> succs(NodeIdx I) const {
    return ArrayRef(SuccList).slice(SuccBegin[I],
                                    SuccBegin[I + 1] - SuccBegin[I]);
  }
  /// The buffers of \p I by dense number: an operation's, each once; a
  /// buffer node's own.
  ArrayRef<uint32_t> bufferNumbers(NodeIdx I) const {
    return ArrayRef(NodeBufList)
        .slice(NodeBufBegin[I], NodeBufBegin[I + 1] - NodeBufBegin[I]);
  }
  /// Calls \p Visit with each list of \p I's barriers (one per buffer).
  template <typename VisitFn>
  void forEachBarrierList(NodeIdx I, VisitFn Visit) const {
    const std::vector<uint32_t> &Begin =
        isBuf(I) ? BufUsersBegin : BufNodesBegin;
    const std::vector<NodeIdx> &List = isBuf(I) ? BufUsersList : BufNodesList;
    for (uint32_t B : bufferNumbers(I))
      Visit(ArrayRef(List).slice(Begin[B], Begin[B + 1] - Begin[B]));
  }
  /// Whether \p A is a barrier of \p B (and so \p B of \p A).
  bool barrier(NodeIdx A, NodeIdx B) const;
  NodeIdx pipePrev(NodeIdx I) const { return PipePrev[I]; }
  /// The latest finish of the predecessors (eq. 32's max), and which one.
  uint64_t ready(NodeIdx I, NodeIdx *Which = nullptr) const;

  void timeAll();
  void recountMax();
  std::vector<NodeIdx> criticalChain() const;
  bool isBuf(NodeIdx I) const { return G[I].isBufferNode(); }
  bool movable(NodeIdx I) const { return MoveBuffers || !isBuf(I); }
  /// The buffer node before and after buffer node \p I, or None.
  NodeIdx bufPrev(NodeIdx I) const {
    return BufIdx[I] == 0 ? None : BufSeq[BufIdx[I] - 1];
  }
  NodeIdx bufNext(NodeIdx I) const {
    return BufIdx[I] + 1 == BufSeq.size() ? None : BufSeq[BufIdx[I] + 1];
  }
  uint32_t earliest(NodeIdx I) const;
  uint32_t latest(NodeIdx I) const;
  bool group(NodeIdx I, NodeIdx Stop, bool Up, SmallVectorImpl<NodeIdx> &Group);
  void moveTo(NodeIdx I, uint32_t To, SmallVectorImpl<NodeIdx> &Seeds);
  void raiseHorizons(uint32_t From, uint32_t To);
  bool improves(ArrayRef<NodeIdx> Seeds);
  void commit();
  /// A candidate: put B ahead of A on their pipe (A runs before B now).
  struct Move {
    NodeIdx A, B;
  };
  /// How a move is made in the global order.
  enum class Way { Illegal, Hoist, Sink, Both };
  Way way(const Move &M, SmallVectorImpl<NodeIdx> &Group);
  bool tryMove(const Move &M, Way W, ArrayRef<NodeIdx> Group);
  void candidates(NodeIdx C, unsigned W, SmallVectorImpl<Move> &Out) const;
};

} // namespace cpe

} // namespace dan

#endif // DAN_LIB_TRANSFORMS_CPESEARCH_H
