//===- MPAS.h - Stage 1: memory-pressure-aware ordering ---------*- C++ -*-===//

#ifndef DAN_TRANSFORMS_MPAS_H
#define DAN_TRANSFORMS_MPAS_H

#include "dan/IR/Graph.h"
#include "dan/Schedule/TaskOrder.h"
#include "dan/Support/EnumTable.h"
#include "dan/Target/Target.h"
#include "llvm/ADT/SmallVector.h"
#include "llvm/Support/Error.h"
#include "llvm/Support/raw_ostream.h"
#include <memory>
#include <optional>

namespace dan {

/// How MPAS treats the L0 tiers.
enum class L0Mode {
  Auto,     ///< order with Capacity and with Single, keep the one whose
            ///< stage-2 plan (dan-dlr, one setting) has the least traffic
  Capacity, ///< live L0 bytes never exceed the tier
  Single,   ///< at most one live buffer per L0 tier (the contest's stage 1)
  Ignore,   ///< the paper as written: L0 plays no part
};

/// The priority variants of the paper's figure 7.
enum class MPASWeights {
  Auto,             ///< run the three below, keep the lowest peak
  Balanced,         ///< FREE first, pressure delta, criticality, input order
  MemoryFirst,      ///< pressure delta before the FREE-first level
  CriticalityFirst, ///< criticality before pressure
  InputOrder,       ///< the input position alone (not in the paper)
};

/// How MPAS picks an ALLOC when no FREE or operation is ready.
enum class AllocChoice {
  Demand,   ///< the allocs of the operation with the best net memory effect
  Priority, ///< the ALLOC with the best key (the paper as written)
};

/// What the demand-driven alloc choice minimizes first.
enum class MPASObjective {
  Peak,     ///< live L1+UB bytes (the contest's stage-1 objective)
  Overflow, ///< bytes beyond each tier's capacity (what stage 2 must spill)
};

/// How the orders of a graph's kernels are composed (MPASStats).
enum class CompositionKind {
  InTurn, ///< each kernel ordered alone, the kernels one after another
  Whole,  ///< the whole graph ordered as one
};

/// The order in which MPAS takes independent tasks.
enum class Traversal {
  Auto,   ///< with L0Mode::Auto, a candidate selection (docs/MPAS.md);
          ///< otherwise Free
  Free,   ///< the list scheduler alone (the paper)
  Tasks,  ///< one task at a time: cache-blocked on a reuse grid, else in
          ///< input order (Free when the graph has fewer than two tasks)
  Window, ///< the windowed exact search over operations (the order of the
          ///< magis baseline, docs/Baselines.md); L0 within capacity
  Groups, ///< the input order of the operations, the tasks taken a group
          ///< at a time; L0 within capacity
  Staged, ///< the input order of the operations in two stages: those that
          ///< need no vector result first (attention's score matmuls), then
          ///< the rest; results wait in L0 (docs/MPAS.md, "Staged")
  Input,  ///< the input order as it is (the "Base" schedule); only its
          ///< legality is checked, no other setting applies
};

struct MPASOptions {
  L0Mode L0 = L0Mode::Auto;
  MPASWeights Weights = MPASWeights::Auto;
  AllocChoice Allocs = AllocChoice::Demand;
  MPASObjective Objective = MPASObjective::Overflow;
  Traversal Order = Traversal::Auto;
  /// Traversal::Groups: tasks per group, 0 for all of them at once.
  unsigned Group = 2;
  /// Set by a search that has run checkOrderInput on the graph and seen it
  /// pass, so that the orders of whole operations (Window, Groups) do not
  /// check the same graph again.
  bool OpOrderInputChecked = false;
  /// End with the placement step (placeLate, dan/Schedule/Placement.h):
  /// every ALLOC and its COPY_IN late, every FREE early. With L0Mode::Auto
  /// the selection also plans each candidate's order without it.
  bool Place = true;
};

struct MPASStats {
  /// Steps where no ready node could run under the L0 rule and the
  /// documented fallback took one anyway; for the orders of whole
  /// operations (window, groups, staged), the ALLOCs of the order that break
  /// the rule (an operation whose own buffers cannot meet it runs anyway).
  uint64_t Fallbacks = 0;
  uint64_t PeakL1UB = 0;
  /// The weights that produced the order (with Auto: the one kept); unset
  /// when no weights ordered it (the input order kept, the window search,
  /// the groups order).
  std::optional<MPASWeights> Chosen;
  /// With Auto: the peak of each variant tried, in the order tried.
  llvm::SmallVector<std::pair<MPASWeights, uint64_t>, 4> Tried;
  /// The L0 mode that produced the order (with L0Mode::Auto: the one kept).
  L0Mode L0Chosen = L0Mode::Capacity;
  /// With L0Mode::Auto: each mode tried and the traffic and makespan of the
  /// plan dan-dlr makes from its order (traffic ~0 marks a failed plan).
  struct L0Trial {
    L0Mode Mode;
    Traversal Order;
    unsigned Group;
    uint64_t Traffic, Makespan, PeakL1UB;
    bool Planned;
    /// Whether the placement step placed the candidate's order.
    bool Placed;
    /// The weighting of the candidate's order (--weights=auto keeps the
    /// lowest peak's).
    MPASWeights Weights = MPASWeights::Balanced;
  };
  llvm::SmallVector<L0Trial, 9> L0Tried;
  /// When the candidates were ranked on a sample of the graph
  /// (SelectOptions::SampleAbove): its tasks (0: a graph without tasks) and
  /// nodes (0: no sample), and its trials; L0Tried then lists the settings
  /// tried on the whole graph.
  unsigned SampleTasks = 0;
  size_t SampleNodes = 0;
  llvm::SmallVector<L0Trial, 0> SampleTried;
  /// The traversal that produced the order (never Auto).
  Traversal OrderChosen = Traversal::Free;
  /// Whether the placement step placed the order.
  bool Placed = false;
  /// With Placed: the peak L1+UB of the order before the placement step.
  uint64_t UnplacedPeakL1UB = 0;
  /// With OrderChosen == Groups: tasks per group (0: all).
  unsigned GroupChosen = 0;
  /// The graph's tasks, when it has two or more and they were looked for
  /// (Rank left empty).
  std::optional<TaskOrder> Tasks;
  /// Set by a run of the list scheduler (Traversal::Free or Tasks) under
  /// L0Mode::Capacity when each of its L0 tests (does a consumer's group
  /// fit next to what is live and reserved) would have had the same answer
  /// under L0Mode::Single. Those answers are the only thing the mode
  /// changes, so the same setting under Single gives this very order and
  /// these statistics, and a search need not run it.
  bool SameUnderSingle = false;
  /// Kernels (dan/IR/Kernels.h) ordered one at a time and run in turn;
  /// with more than one the figures above are those of the kernel with the
  /// highest peak, the peak and the fallbacks those of all, and no
  /// candidate is listed.
  size_t Parts = 1;
  /// Of Parts, those alike an earlier one up to their ids (partsAlike),
  /// which took its result renamed instead of running again.
  size_t AlikeParts = 0;
  /// On a graph of several kernels, each composition of their orders that
  /// the selection planned, the kernels in turn first: its stage-2
  /// figures as dan-dlr's defaults plan it (docs/Kernels.md); and, when a
  /// composition beat the kernels in turn so, the makespan of each after
  /// dan-dlr's and dan-cpe's defaults, which decides.
  struct Composition {
    CompositionKind Kind;
    uint64_t Traffic = 0, Spills = 0, Makespan = 0;
    std::optional<uint64_t> PipeMakespan;
    bool Planned = false;
    bool Kept = false;
  };
  size_t Kernels = 0;
  llvm::SmallVector<Composition, 4> Compositions;
};

/// The values of each option enum, with their spellings (--l0, --weights,
/// --allocs, --objective, --order) and one-line descriptions.
llvm::ArrayRef<EnumEntry<L0Mode>> l0ModeTable();
llvm::ArrayRef<EnumEntry<MPASWeights>> weightsTable();
llvm::ArrayRef<EnumEntry<AllocChoice>> allocChoiceTable();
llvm::ArrayRef<EnumEntry<MPASObjective>> objectiveTable();
llvm::ArrayRef<EnumEntry<Traversal>> traversalTable();

/// The name of an L0 mode as --l0 spells it.
llvm::StringRef l0ModeName(L0Mode M);

/// The name of a traversal as --order spells it.
llvm::StringRef traversalName(Traversal O);

/// The name of a weights variant as --weights spells it.
llvm::StringRef weightsName(MPASWeights W);

/// The input check of stage 1, located: \p G has no memory plan and
/// verifies under \p T, its input order apart (verifyPassInput: stage 1
/// makes the order). runMPAS and selectMPAS run it; orderMPAS, which a
/// selection calls once per candidate, checks only that there is no plan;
/// so does this with \p Verified (\p G is known to verify).
llvm::Error checkMPASInput(const Graph &G, const TargetDesc &T,
                           bool Verified = false);

/// What stage 1's list scheduler derives from a graph whatever the setting
/// (its edges with the implicit ALLOC -> use -> FREE orderings, the
/// criticality, the buffers); opaque.
class MPASGraphInfo;

/// That of \p G, made once for orderMPAS calls on the same graph to share
/// (a search's candidates).
std::shared_ptr<const MPASGraphInfo> analyzeForMPAS(const Graph &G,
                                                    const TargetDesc &T);

/// A legal schedule of \p G (which must have no memory plan, and is not
/// changed) into \p Order, under one setting: no option may be Auto (the
/// search layer, dan/Select/Select.h, chooses among settings), unless
/// Traversal::Input, which only checks the input order. \p Known, when given,
/// holds the graph's tasks (findTaskOrder); else they are found here when
/// the traversal needs them and returned in MPASStats::Tasks. Tasks and
/// Groups become Free on a graph with fewer than two tasks. With
/// Opts.Place and \p Unplaced, also the order before the placement step
/// into \p Unplaced: the order of the same setting without it, whose peak
/// is MPASStats::UnplacedPeakL1UB. \p Info, when given, is
/// analyzeForMPAS(G, T).
llvm::Expected<MPASStats>
orderMPAS(const Graph &G, const TargetDesc &T, const MPASOptions &Opts,
          std::vector<NodeIdx> &Order,
          const std::optional<TaskOrder> *Known = nullptr,
          std::vector<NodeIdx> *Unplaced = nullptr,
          const MPASGraphInfo *Info = nullptr);

/// orderMPAS, then \p G takes the order (on success only).
llvm::Expected<MPASStats>
runMPAS(Graph &G, const TargetDesc &T, const MPASOptions &Opts,
        const std::optional<TaskOrder> *Known = nullptr);

} // namespace dan

#endif // DAN_TRANSFORMS_MPAS_H
