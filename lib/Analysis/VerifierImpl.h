//===- VerifierImpl.h - The verifier's state and its checks -----*- C++ -*-===//
//
// Private to lib/Analysis: the verifier, whose checks are defined in
// Verifier.cpp (the structure: buffers, edges, the schedule, lifetimes,
// the L0 rule), VerifyPlan.cpp (the memory plan: offsets, spills, reuse
// edges) and VerifyAgainst.cpp (--against: a stage-3 file keeps its
// stage-2 plan).
//
// The checks run in a fixed order: buffers, edges (cycles, then the order),
// lifetimes, the L0 rule, the memory plan, and the stage-2 contract. Each
// reports at the node that breaks the rule, with a note at the other node
// involved, and the run stops at the error limit.
//
//===----------------------------------------------------------------------===//

#ifndef DAN_LIB_ANALYSIS_VERIFIERIMPL_H
#define DAN_LIB_ANALYSIS_VERIFIERIMPL_H

#include "PathFinder.h"
#include "dan/Analysis/Verifier.h"
#include "dan/IR/Diagnostic.h"
#include "dan/IR/Graph.h"
#include "dan/IR/IdIndex.h"
#include "llvm/ADT/DenseSet.h"
#include "llvm/ADT/Twine.h"
#include "llvm/Support/SourceMgr.h"
#include <cstdint>
#include <string>
#include <vector>

namespace dan::detail {

inline constexpr NodeIdx NoNode = UINT32_MAX;

struct BufferSite {
  NodeIdx Alloc = NoNode;
  NodeIdx Free = NoNode;
  /// The buffer's place in Verifier::BufOrder.
  uint32_t Index = 0;
};

/// How the messages name buffer \p B: "b<B>".
std::string buf(uint64_t B);
/// The bytes from \p Begin on, as "[Begin, End)".
std::string range(uint64_t Begin, uint64_t Size);

class Verifier {
public:
  Verifier(const Graph &G, const TargetDesc &T, const VerifyOptions &Opts,
           const DiagHandler &Diag)
      : G(G), T(T), Opts(Opts), Diag(Diag), Pos(G.positions()),
        Forward(G, Rank, /*Backward=*/false, /*WithReuse=*/false),
        Backward(G, Rank, /*Backward=*/true, /*WithReuse=*/false),
        Sites(G.size()), Limiter(Opts.ErrorLimit) {}

  unsigned run() {
    checkBuffers();
    checkOpRules();
    checkFit();
    bool Acyclic = checkAcyclic();
    if (Acyclic && Opts.Schedule)
      checkOrder();
    if (Opts.Schedule)
      checkLifetimes();
    if (Acyclic)
      checkUsePaths();
    checkTiles();
    if (Opts.L0Single && Opts.Schedule)
      checkL0Single();
    if (G.hasMemoryPlan())
      checkPlan();
    checkReuseEdges();
    // Also after other errors: the net under them, and the consequence a
    // user sees (the replay is safe on any graph).
    if (G.hasMemoryPlan() && Opts.Schedule)
      checkRaces();
    if (Opts.Against)
      checkAgainst(*Opts.Against);
    if (Limiter.dropped())
      Diag(llvm::SMLoc(), llvm::SourceMgr::DK_Note,
           droppedErrorsNote(Limiter.dropped()) + " (" + Opts.ShowAllHint +
               ")");
    return Limiter.shown();
  }

private:
  void error(llvm::SMLoc Loc, const llvm::Twine &Msg) {
    // Past the limit the checks still run, so that the final note is given
    // exactly when an error was dropped.
    if (Limiter.error())
      Diag(Loc, llvm::SourceMgr::DK_Error, Msg);
  }
  void error(NodeIdx At, const llvm::Twine &Msg) { error(G[At].Loc, Msg); }
  void note(llvm::SMLoc Loc, const llvm::Twine &Msg) {
    if (Limiter.note())
      Diag(Loc, llvm::SourceMgr::DK_Note, Msg);
  }
  void note(NodeIdx At, const llvm::Twine &Msg) { note(G[At].Loc, Msg); }

  std::string name(NodeIdx I) const { return describeNode(G, I); }
  const BufferSite *site(uint64_t B) const { return Sites.find(B); }
  bool hasAlloc(uint64_t B) const {
    const BufferSite *S = site(B);
    return S && S->Alloc != NoNode;
  }

  void checkBuffers();
  /// Every operation on a pipe its name may run on, using tiers its pipe
  /// and its name may use (the target's rules).
  void checkOpRules();
  /// Every buffer within its tier, and every operation's buffers of one
  /// tier within it together: what no plan could place.
  void checkFit();
  /// Also fills Rank when the graph is acyclic.
  bool checkAcyclic();
  /// Every use of a buffer ordered after its alloc and before its free by
  /// paths of dependence edges (Rank must be filled).
  void checkUsePaths();
  /// Each tile written once; each read of a tile written here ordered after
  /// its write by a path of edges.
  void checkTiles();
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
  /// No two buffers' data on the same bytes at once, in the replay's times.
  void checkRaces();
  void checkAgainst(const Graph &S2);

  const Graph &G;
  const TargetDesc &T;
  const VerifyOptions &Opts;
  const DiagHandler &Diag;
  std::vector<uint32_t> Pos;
  /// Each node's place in one topological order of every edge (empty when
  /// the graph has a cycle).
  std::vector<uint32_t> Rank;
  /// The searches along dependence edges, on Rank.
  PathFinder Forward, Backward;
  /// The (use, buffer) pairs checkLifetimes reported: checkUsePaths says
  /// nothing more of them.
  llvm::DenseSet<std::pair<NodeIdx, uint64_t>> LifetimeErrors;
  IdTable<BufferSite> Sites;
  /// Buffers in order of first appearance, for a deterministic report.
  std::vector<uint64_t> BufOrder;
  ErrorLimiter Limiter;
};

} // namespace dan::detail

#endif // DAN_LIB_ANALYSIS_VERIFIERIMPL_H
