//===- Verifier.h - Judging a DAN graph -------------------------*- C++ -*-===//
//
// The verifier decides whether a graph, its schedule and its memory plan are
// legal under the execution model, independently of the tools that made
// them. Every rule has its own message; docs/LangRef.md lists them.
//
//===----------------------------------------------------------------------===//

#ifndef DAN_ANALYSIS_VERIFIER_H
#define DAN_ANALYSIS_VERIFIER_H

#include "dan/Analysis/Replay.h"
#include "dan/IR/Graph.h"
#include "dan/Target/Target.h"
#include "llvm/ADT/Twine.h"
#include "llvm/Support/SourceMgr.h"
#include <functional>

namespace dan {

struct VerifyOptions {
  /// Whether the input order is a schedule to check as one: every edge and
  /// lifetime respected in it. Stage 1's input need not be (it makes one).
  bool Schedule = true;
  /// The stage-1 rule: at most one live buffer per L0 tier.
  bool L0Single = false;
  /// A stage-2 graph whose memory plan this graph must keep.
  const Graph *Against = nullptr;
  /// Stop after this many errors (0: no limit).
  unsigned ErrorLimit = 20;
  /// How the note after the errors past ErrorLimit says to see them all:
  /// a tool without --error-limit points at dan-verify's.
  const char *ShowAllHint = "dan-verify --error-limit=0 shows them all";
  /// When set, receives the replay the race check makes (a graph with a
  /// memory plan, checked as a schedule), for a caller that would replay
  /// the same graph again.
  std::optional<ReplayResult> *Replayed = nullptr;
};

/// Receives each diagnostic: an error or a note at a source location.
using DiagHandler = std::function<void(llvm::SMLoc, llvm::SourceMgr::DiagKind,
                                       const llvm::Twine &)>;

/// Verifies \p G and returns the number of errors reported. Runs in
/// O((V + E) log V) plus the cost of comparing the spill and reuse edges the
/// plan implies with the node's edge lists (docs/Verifier.md has the terms).
unsigned verifyGraph(const Graph &G, const TargetDesc &Target,
                     const VerifyOptions &Opts, const DiagHandler &Diag);

/// Refuses a graph that already has a memory plan, for a pass that makes
/// one or orders before one: a DiagError at the first node in schedule
/// order with an offset or a spill, "<node> has an offset: the input already
/// has a memory plan; <Tool> <Wants>".
llvm::Error verifyNoMemoryPlan(const Graph &G, llvm::StringRef Tool,
                               llvm::StringRef Wants);

/// The input check of every stage, the same rules as dan-verify's: \p G
/// must verify under \p Target, its input order too when \p Scheduled (it
/// is the schedule a stage keeps or refines; stage 1 makes one). On errors,
/// returns a DiagError with the first ten errors (and their notes), a note
/// counting the rest, and "the input does not verify (N errors); <Tool>
/// needs a legal schedule" (or "a legal graph").
/// \p Replayed, when given, receives the replay the check made, if any
/// (VerifyOptions::Replayed).
llvm::Error verifyPassInput(const Graph &G, const TargetDesc &Target,
                            llvm::StringRef Tool, bool Scheduled = true,
                            std::optional<ReplayResult> *Replayed = nullptr);

/// The edges a path search of the verifier's lifetime check, of the lint
/// or of addLifetimeEdges follows for one buffer before the rest of its
/// questions are answered with other buffers', 64 at a time (a search of
/// a contest workload follows at most 4).
inline constexpr uint64_t PathSearchBudget = 256;

/// Adds the edges the lifetime rule implies where no path of edges orders
/// a use of a buffer: from its alloc to each use that no path orders after
/// it, and from each use that no path orders before its free to the free;
/// none that the paths and the edges added before it already imply.
/// Returns how many edges it added, or, adding none, a DiagError at a
/// cycle that those edges would close (a use that edges order before its
/// alloc or after its free). \p SearchBudget: the edges one buffer's path
/// search follows before its questions are answered with other buffers'
/// (0: no limit); the edges added do not depend on it.
llvm::Expected<unsigned>
addLifetimeEdges(Graph &G, uint64_t SearchBudget = PathSearchBudget);

} // namespace dan

#endif // DAN_ANALYSIS_VERIFIER_H
