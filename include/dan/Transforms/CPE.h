//===- CPE.h - Stage 3: critical path enhancement ---------------*- C++ -*-===//
//
// A local search on the schedule that lowers the makespan without touching
// the memory plan: operations move, and buffer nodes move across operations
// only, so the relative order of the ALLOC, FREE, SPILL_OUT and SPILL_IN
// nodes, and with it every offset, spill edge and reuse edge, stays what
// stage 2 made it. docs/CPE.md has the algorithm,
// the argument that the plan is kept, and the costs.
//
//===----------------------------------------------------------------------===//

#ifndef DAN_TRANSFORMS_CPE_H
#define DAN_TRANSFORMS_CPE_H

#include "dan/Analysis/Replay.h"
#include "dan/IR/Graph.h"
#include "dan/Support/EnumTable.h"
#include "dan/Target/Target.h"
#include "llvm/Support/Error.h"

namespace dan {

enum class CPEMode {
  /// Move operations while the makespan strictly drops (the stage).
  Refine,
  /// Move nothing: the output is the input (the "Freeze" variant).
  Freeze,
  /// Run the same search on a timing without the plan's reuse edges (the
  /// "Ignore" diagnostic); the result is not a stage-3 result.
  Ignore,
};

/// Which nodes a move may carry (docs/CPE.md, "Why the plan is kept").
enum class CPEMoveSet {
  /// Only operation nodes move, never across a node of a buffer they use.
  Ops,
  /// Operations, and buffer nodes (ALLOC, FREE, SPILL_OUT, SPILL_IN) across
  /// operations: a buffer node never passes another buffer node, so the
  /// sequence of placements and releases is the input's.
  OpsAndBuffers,
};

/// Where the search starts (docs/CPE.md, "List schedules").
enum class CPEStart {
  /// The input order and two list schedules that keep the plan: the search
  /// starts from the input, and also from the best list schedule when that
  /// is faster than the input's result; the lower makespan wins.
  Best,
  /// The input order alone.
  Input,
};

struct CPEOptions {
  CPEMode Mode = CPEMode::Refine;
  CPEMoveSet Moves = CPEMoveSet::Ops;
  CPEStart Start = CPEStart::Best;
  /// The neighbourhood of a critical node: the nodes at most this many
  /// schedule positions away from it (eq. 35).
  unsigned Window = 16;
  /// The most passes; a pass that accepts no move ends the search.
  unsigned Passes = 8;
  /// The most candidate moves evaluated in one pass (0: no limit).
  uint64_t MaxCandidates = 4000;
  /// The search stops once its candidates have retimed more than
  /// max(MinRetimes, Effort * (nodes + edges)) nodes in all (Effort 0: no
  /// limit). Deterministic; keeps the search O(V + E) beyond a fixed floor
  /// that covers every contest workload (Matmul_Case1 retimes 23.4 million).
  uint64_t Effort = 1;
  uint64_t MinRetimes = 32'000'000;
  /// Wall-clock seconds after which no further candidate is tried (0: no
  /// limit). The result then depends on the machine's speed.
  double TimeBudget = 0;
  /// After how many changed finish times a candidate's retiming leaves its
  /// queue for a forward walk over the positions, which goes back to the
  /// queue once it has passed 4 * DenseAfter positions more than it retimed
  /// (docs/CPE.md, decision 7). Only the speed depends on it: both retime
  /// the same nodes.
  uint64_t DenseAfter = 256;
};

struct CPEStats {
  /// The makespan of the input and of the output, as replay() measures it
  /// (reuse edges included, in every mode).
  uint64_t MakespanBefore = 0;
  uint64_t MakespanAfter = 0;
  /// Passes run, moves accepted, candidate moves timed, and candidate moves
  /// rejected without timing because they would break a constraint.
  uint64_t Passes = 0;
  uint64_t Moves = 0;
  uint64_t Candidates = 0;
  uint64_t Illegal = 0;
  /// Accepted moves that carried at least one buffer node, and the buffer
  /// nodes they carried (always 0 with CPEMoveSet::Ops).
  uint64_t BufferMoves = 0;
  uint64_t BufferNodesMoved = 0;
  /// Whether the search stopped a pass at MaxCandidates.
  bool HitCandidateLimit = false;
  /// Nodes retimed by all candidates; whether the search stopped at the
  /// Effort limit or at the time budget.
  uint64_t Retimed = 0;
  bool HitEffortLimit = false;
  bool HitTimeBudget = false;

  /// --mode=ignore only. The makespan of the input and of the output timed
  /// without reuse edges: the figures an Ignore variant would report.
  uint64_t IgnoreMakespanBefore = 0;
  uint64_t IgnoreMakespanAfter = 0;
  /// The number of reuse edges of the plan.
  uint64_t ReuseEdges = 0;
  /// Ownership violations of the output and of the input under the timing
  /// without reuse edges: reuse edges whose placement starts before the
  /// release of the bytes it takes has finished.
  uint64_t Violations = 0;
  uint64_t ViolationsBefore = 0;
  /// Reuse edges whose placement the output schedules before its release.
  /// Always 0: the buffer nodes of each tier keep their relative order
  /// (checked, not assumed).
  uint64_t OrderViolations = 0;
  /// With CPEStart::Best: the makespan of the best list schedule (0 when
  /// none was made), and whether the output came from it.
  uint64_t ListMakespan = 0;
  bool FromList = false;
  /// Kernels refined one at a time and joined (selectCPE); with more than
  /// one the counts above are their sums and the search's of the joined
  /// graph, the makespans the whole's, and JoinedMakespan the makespan of
  /// the kernels refined alone and joined, before that search.
  size_t Parts = 1;
  /// Of Parts, those alike an earlier one up to their ids (partsAlike),
  /// which took its result renamed instead of running again.
  size_t AlikeParts = 0;
  uint64_t JoinedMakespan = 0;
  /// With more than one part: whether the parts refined, joined and
  /// searched whole finished later than the input, which was kept instead.
  bool KeptInput = false;
};

/// The values of --mode and --move, with their spellings and one-line
/// descriptions.
llvm::ArrayRef<EnumEntry<CPEMode>> cpeModeTable();
llvm::ArrayRef<EnumEntry<CPEMoveSet>> cpeMoveSetTable();
llvm::ArrayRef<EnumEntry<CPEStart>> cpeStartTable();

/// Stage 3: reorders the nodes of \p G (a graph that verifies, with or
/// without a memory plan) to lower its makespan. Nodes, edges and offsets
/// never change, nor do the relative order of each tier's buffer nodes and
/// of the spill nodes, and so the reuse edges and the per-tier peaks
/// (checked after the search); the L1+UB peak in schedule order can change
/// when L1 and UB nodes interleave anew (docs/CPE.md). Fails, leaving \p G
/// unchanged, when the input does not verify, unless \p InputChecked says
/// that it was verified already.
llvm::Expected<CPEStats> runCPE(Graph &G, const TargetDesc &T,
                                const CPEOptions &Opts,
                                bool InputChecked = false);

/// runCPE on a graph that verifies, whose replay is \p Input (the input
/// check's, when it made one): neither checked nor replayed again.
llvm::Expected<CPEStats> runCPEOnVerified(Graph &G, const TargetDesc &T,
                                          const CPEOptions &Opts,
                                          ReplayResult Input);

} // namespace dan

#endif // DAN_TRANSFORMS_CPE_H
