//===- DLR.h - Stage 2: deterministic linear repackaging --------*- C++ -*-===//
//
// Stage 2 of DAN-Scheduler (docs/DLR.md): one scan over a legal schedule
// that gives every buffer an offset in its tier and, when a placement does
// not fit, spills resident buffers of the same tier out and back in. The
// result is a memory plan under the execution model of docs/LangRef.md:
// offsets on every ALLOC and SPILL_IN, spill nodes numbered in scan order,
// and the spill and reuse edges the plan implies.
//
//===----------------------------------------------------------------------===//

#ifndef DAN_TRANSFORMS_DLR_H
#define DAN_TRANSFORMS_DLR_H

#include "dan/IR/Graph.h"
#include "dan/Support/EnumTable.h"
#include "dan/Target/Target.h"
#include "dan/Transforms/FreeList.h"
#include "llvm/ADT/SmallVector.h"
#include "llvm/Support/Error.h"
#include <array>

namespace dan {

/// How a victim is chosen in L1 and UB. L0 tiers always use eager flush
/// (no future use first, then the farthest next use).
enum class EvictPolicy {
  Cost,   ///< the paper's score d / (lambda_byte T + lambda_cyc S + eps)
  LRU,    ///< the least recently used buffer
  Belady, ///< no future use first, then the farthest next use
  /// The least spill traffic per byte freed (1 for a buffer DDR still
  /// holds, 2 for one that must be written back), then the farthest
  /// reload; the COSMA baseline (docs/Baselines.md).
  CostPerByte,
  /// The least spill traffic in bytes, then the farthest reload; with
  /// VictimSet::Window the range with the fewest DDR bytes in total; the
  /// EDA baseline (docs/Baselines.md).
  Traffic,
};

/// Which buffers one failed placement evicts.
enum class VictimSet {
  Window, ///< the contiguous range whose victims cost least in total
  Single, ///< the best-scored buffer, again until a segment fits (paper)
};

/// The release horizons --horizon=auto plans with, in tie-break order
/// (0: no horizon).
constexpr uint32_t AutoHorizons[] = {0, 800, 400, 200};

struct DLROptions {
  FitPolicy Fit = FitPolicy::Timed;
  EvictPolicy Evict = EvictPolicy::Cost;
  VictimSet Victims = VictimSet::Window;
  /// Weight of the extra traffic T(b,k) in the cost score (eq. 30).
  double LambdaByte = 1.0;
  /// Weight of the spill cycles S(b,k) in the cost score (eq. 30).
  double LambdaCyc = 1.0;
  /// Release horizon in schedule positions, 0 for none: when room is
  /// needed, the least recently used of the buffers whose next use is at
  /// least this far away goes first (docs/DLR.md).
  uint32_t Horizon = 0;
  /// Plan under each of AutoHorizons and keep the plan with the least
  /// plan cost, then traffic, then makespan (Horizon is then not used);
  /// likewise Fit == FitPolicy::Auto under timed, best and next fit, with
  /// AutoHorizon under every pair. The search layer (dan/Select/Select.h)
  /// makes these selections; runDLR plans under one fit and horizon.
  bool AutoHorizon = true;

  // Every default above is dan-dlr's (its options are initialised from a
  // DLROptions), so a default-constructed DLROptions plans as the tool does.

  /// The defaults with one horizon, none: what runDLR takes from a caller
  /// that plans once (stage 1's candidates, the kernels of the floor).
  static DLROptions oneSetting() {
    DLROptions O;
    O.AutoHorizon = false;
    return O;
  }
};

struct DLRStats {
  /// Spills inserted (SPILL_OUT/SPILL_IN pairs): metric 3.
  uint64_t Spills = 0;
  /// Their extra DDR traffic: size if DDR-backed, else 2 * size (metric 2).
  uint64_t ExtraTraffic = 0;
  /// Cycles of the inserted spill nodes.
  uint64_t SpillCycles = 0;
  /// Spills per tier of the spilled buffer.
  std::array<uint64_t, MaxTiers> Evictions{};
  /// SPILL_INs inserted only because the buffer's FREE came while it was
  /// spilled out (the contest's rules pair every SPILL_OUT with a SPILL_IN).
  uint64_t ReloadsBeforeFree = 0;
  /// Spills of buffers an operation uses, made when its other buffers could
  /// not be placed around them (fragmentation by pinned buffers).
  uint64_t PinnedSpills = 0;
  /// The release horizon and fit of the plan (with AutoHorizon or
  /// FitPolicy::Auto: the ones kept).
  uint32_t Horizon = 0;
  FitPolicy Fit = FitPolicy::Best;
  /// With AutoHorizon: each horizon tried, with its plan's traffic and
  /// makespan (Planned false when the plan failed).
  struct HorizonTrial {
    FitPolicy Fit;
    uint32_t Horizon;
    uint64_t Traffic, Makespan;
    bool Planned;
  };
  llvm::SmallVector<HorizonTrial, 8> HorizonTried;
  /// Independent parts (kernels) planned one at a time; with more than one
  /// the counts above are their sums, the fit and horizon the first
  /// part's, and no trial is listed.
  size_t Parts = 1;
  /// Of Parts, those alike an earlier one up to their ids (partsAlike),
  /// which took its result renamed instead of running again.
  size_t AlikeParts = 0;
};

/// The epsilon of the cost score's denominator (eq. 31).
constexpr double DLRScoreEpsilon = 1e-9;

/// score(b,k), eqs. 30-31: reuse distance per unit of spill cost; the
/// largest score is evicted.
inline double spillScore(uint64_t Distance, uint64_t Traffic, uint64_t Cycles,
                         const DLROptions &Opts) {
  return double(Distance) / (Opts.LambdaByte * double(Traffic) +
                             Opts.LambdaCyc * double(Cycles) + DLRScoreEpsilon);
}

/// The values of --fit (FitPolicy), of the victim rules (EvictPolicy; --evict
/// offers the first UserEvictPolicies, not the baselines' CostPerByte and
/// Traffic) and of --victims, with their spellings and one-line
/// descriptions.
llvm::ArrayRef<EnumEntry<FitPolicy>> fitPolicyTable();
llvm::ArrayRef<EnumEntry<EvictPolicy>> evictPolicyTable();
constexpr size_t UserEvictPolicies = 3;
llvm::ArrayRef<EnumEntry<VictimSet>> victimSetTable();
/// The name of a fit as --fit spells it.
llvm::StringRef fitName(FitPolicy F);

/// Places every buffer of \p G (which must have no memory plan and must
/// verify) in schedule order, inserting spills where nothing fits, and adds
/// the spill and reuse edges the plan implies; under one fit and horizon
/// (neither Auto). The input checks (checkPlannableInput) run before
/// anything changes, unless \p InputChecked says they passed on this graph
/// already: a refused input (a DiagError at the offending nodes) leaves
/// \p G unchanged. The one later error, spill ids beyond 2^40, leaves it
/// half planned.
/// O((V + E) log V + U + P log S + K * R): docs/DLR.md, "Complexity".
llvm::Expected<DLRStats> runDLR(Graph &G, const TargetDesc &T,
                                const DLROptions &Opts,
                                bool InputChecked = false);

} // namespace dan

#endif // DAN_TRANSFORMS_DLR_H
