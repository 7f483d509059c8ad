//===- Comparison.h - Methods compared on graphs, as data -------*- C++ -*-===//
//
// What dan-bench computes, apart from how it prints it: every method on
// every graph, each plan verified and replayed (the four metrics and the
// makespan's lower bounds); the paper's table 2 (each metric normalized to
// Base, the best external method per cell, DAN's margin); the stage
// ablations (tables 3-5, figure 7, the review's Ignore / Freeze / CPE); and
// the sensitivity sweep over capacities and transfer costs (the ranking of
// the methods per metric and its Kendall tau-b against the default
// setting). docs/CommandGuide/dan-bench.md defines every figure.
//
// Everything here is deterministic: the same graphs, target and options
// give the same numbers. Only the Seconds fields measure wall time.
//
//===----------------------------------------------------------------------===//

#ifndef DAN_COMPARE_COMPARISON_H
#define DAN_COMPARE_COMPARISON_H

#include "dan/Analysis/Replay.h"
#include "dan/IR/Graph.h"
#include "dan/Report/Metrics.h"
#include "dan/Select/Methods.h"
#include "dan/Support/EnumTable.h"
#include "dan/Target/Target.h"
#include "dan/Transforms/MPAS.h"
#include "llvm/ADT/ArrayRef.h"
#include "llvm/Support/Error.h"
#include <array>
#include <functional>
#include <memory>
#include <optional>
#include <string>
#include <vector>

namespace dan::bench {

/// hmcos, cosma, magis and eda: the methods "best external" is taken over.
bool isExternal(Method M);

/// Kendall's tau-b of two rankings of the same items (rank 1 best; equal
/// ranks are ties). 1 when both rank every item equal; std::nullopt when
/// there are fewer than two items or only one of the two is all ties.
std::optional<double> kendallTauB(llvm::ArrayRef<unsigned> A,
                                  llvm::ArrayRef<unsigned> B);

/// Competition ranks of \p Values, smallest first: equal values share the
/// better rank (1, 1, 3). std::nullopt entries are not ranked.
std::vector<std::optional<unsigned>>
rankSmallestFirst(llvm::ArrayRef<std::optional<uint64_t>> Values);

/// A verified, replayed plan, or why there is none.
struct Measurement {
  /// Empty when the plan exists and verifies; otherwise the reason: the
  /// method's (or stage's) error, or "the plan does not verify: ...".
  std::string Error;
  Metrics Values{};
  uint64_t CriticalPathLB = 0;
  uint64_t PipeLB = 0;
  bool L0Single = true;
  /// Whether a plan was made but does not verify (a bug of the method, as
  /// opposed to a method that refuses the graph).
  bool NotVerified = false;
  bool ok() const { return Error.empty(); }
};

/// Verifies \p G against \p T (optionally that it keeps the memory plan of
/// \p Against) and replays it. On failure only Error is set: "the plan does
/// not verify: N errors; the first: MSG".
Measurement measure(const Graph &G, const TargetDesc &T,
                    const Graph *Against = nullptr);

/// One method on one graph.
struct Cell {
  Method M = Method::DAN;
  Measurement Result;
  /// The plan, when BenchOptions::KeepPlans and the plan verifies.
  std::unique_ptr<Graph> Plan;
  /// Wall time of the method (not of verifying and replaying it).
  double Seconds = 0;
};

/// Table 2 for one graph.
struct Comparison {
  /// Per cell (in the order of Workload::Cells) and metric: the value
  /// normalized to Base; std::nullopt when the cell or Base failed.
  std::vector<std::array<std::optional<double>, NumMetrics>> Normalized;
  /// The external method with the smallest value per metric (the first in
  /// table order on a tie); std::nullopt when none succeeded.
  std::array<std::optional<Method>, NumMetrics> BestExternal;
  /// reduction(dan, best external) per metric; std::nullopt when DAN or
  /// every external method failed (or is not run).
  std::array<std::optional<double>, NumMetrics> Margin;
  /// reduction(dan, base) per metric; std::nullopt when either failed.
  std::array<std::optional<double>, NumMetrics> VersusBase;
};

/// Table 2 of the cells of one graph (one per method, in table order).
Comparison compareCells(llvm::ArrayRef<Cell> Cells);

/// Every method on one graph.
struct Workload {
  std::string Name;
  size_t Nodes = 0;
  /// The least makespan any plan and schedule of the graph could have
  /// (dan/Analysis/Bounds.h: the busiest pipe, the critical path).
  uint64_t MakespanBound = 0;
  std::vector<Cell> Cells;
  Comparison Table;
  /// The cell of \p M, or nullptr when it is not run.
  const Cell *cell(Method M) const;
};

/// The stage ablations on one graph, all from DAN's default options with
/// one thing changed. A section whose Error is set has no figures.
struct Ablation {
  std::string Name;
  /// Table 3: peak L1+UB of the input order and after stage 1 (MPAS).
  std::string Stage1Error;
  uint64_t InputPeak = 0;
  uint64_t MPASPeak = 0;
  /// Figure 7: peak L1+UB after stage 1 with each priority weighting
  /// (balanced, memory-first, criticality-first), and the variant the
  /// default (auto) keeps.
  struct Weighting {
    MPASWeights W;
    std::string Error;
    uint64_t Peak = 0;
  };
  std::vector<Weighting> Weightings;
  std::optional<MPASWeights> AutoChosen;
  /// Table 4: after stage 2 on the stage-1 order, with the cost-aware
  /// victims (default) and with LRU victims.
  Measurement CostAware;
  Measurement LRU;
  /// Table 5 and the review's diagnostic, on the cost-aware stage-2 plan:
  /// Freeze (no stage 3: CostAware's makespan), CPE (the default stage 3),
  /// Ignore (stage 3's search timed without reuse edges).
  std::string Stage3Error;
  uint64_t FreezeMakespan = 0;
  uint64_t CPEMakespan = 0;
  /// The plan's reuse edges, and the Ignore variant's figures: the
  /// makespan it claims (timed without reuse edges), the makespan its order
  /// really has, and its ownership violations (reuse edges whose placement
  /// starts before the release it waits for, in the claimed timing).
  uint64_t ReuseEdges = 0;
  uint64_t IgnoreClaimed = 0;
  uint64_t IgnoreReal = 0;
  uint64_t IgnoreViolations = 0;
  /// Whether the CPE and Ignore outputs verify against the stage-2 plan
  /// (they keep it by construction; checked).
  std::string CPEVerify;
  std::string IgnoreVerify;
  /// The cost-aware stage-2 plan (before CPE), when
  /// BenchOptions::KeepPlans: the "before" of the pipe timeline.
  std::unique_ptr<Graph> Stage2Plan;
};

/// One target setting of the sensitivity sweep.
struct SweepSetting {
  std::string Label;
  /// Every tier's capacity is multiplied by ScaleNum / ScaleDen, rounded
  /// down; Alpha and Beta replace the spill cost.
  uint64_t ScaleNum = 1, ScaleDen = 1;
  uint64_t Alpha = 0, Beta = 0;
  bool IsDefault = false;
};

/// What a sweep runs over.
struct SweepSpec {
  bool Capacity = false; ///< the capacity scales, at the default cost
  bool Cost = false;     ///< the alpha x beta grid, at the default capacities
  bool Grid = false;     ///< every scale with every alpha and beta
  /// Scales as decimals ("0.5"), alphas and betas.
  std::vector<std::string> Scales = {"0.5", "0.75", "1", "1.5", "2"};
  std::vector<uint64_t> Alphas = {0, 150, 600};
  std::vector<uint64_t> Betas = {1, 2, 4};
  bool enabled() const { return Capacity || Cost || Grid; }
};

/// The sweeps dan-bench --sweep names.
enum class SweepKind { Capacity, Cost, Grid };
llvm::ArrayRef<EnumEntry<SweepKind>> sweepKinds();
/// Turns the sweep \p K on in \p S.
void enableSweep(SweepSpec &S, SweepKind K);

/// Parses a scale written as a decimal ("0.75", "2", at most 6 digits after
/// the point) into an exact fraction.
llvm::Expected<std::pair<uint64_t, uint64_t>> parseScale(llvm::StringRef S);

/// The settings of \p Spec: the default (scale 1, \p T's spill cost) first,
/// then the others, each once.
llvm::Expected<std::vector<SweepSetting>> sweepSettings(const SweepSpec &Spec,
                                                        const TargetDesc &T);

/// \p T under \p S: capacities scaled (rounded down) and the spill cost set.
TargetDesc applySetting(const TargetDesc &T, const SweepSetting &S);

struct SweepResult {
  std::vector<SweepSetting> Settings;
  /// [setting][workload][method]: the metrics, std::nullopt when the cell
  /// failed. Methods in BenchReport::Methods order.
  std::vector<std::vector<std::vector<std::optional<Metrics>>>> Values;
  /// [setting][workload][metric][method]: the competition rank.
  std::vector<
      std::vector<std::array<std::vector<std::optional<unsigned>>, NumMetrics>>>
      Ranks;
  /// [setting][workload][metric]: Kendall tau-b against the default
  /// setting's ranking, over the methods that succeeded in both.
  std::vector<std::vector<std::array<std::optional<double>, NumMetrics>>> Tau;
  /// [setting][metric]: the mean and the smallest tau over the workloads
  /// where it is defined.
  std::vector<std::array<std::optional<double>, NumMetrics>> MeanTau, MinTau;
  /// [setting][metric]: on how many workloads DAN ranks first (ties
  /// included), and on how many DAN succeeded.
  std::vector<std::array<unsigned, NumMetrics>> DANFirst, DANRanked;
  /// Failed cells over all non-default settings, and among them the plans
  /// that do not verify.
  unsigned Failures = 0;
  unsigned NotVerified = 0;
};

/// Reported as each run starts (Done false) and ends (Done true).
struct Progress {
  unsigned Index = 0, Total = 0;
  llvm::StringRef Graph;
  /// "dan", "cosma", "ablations", or "dan @ capacity x0.5".
  llvm::StringRef What;
  bool Done = false;
  double Seconds = 0;
  /// When Done: the error of a failed run, else empty.
  llvm::StringRef Error;
};

struct BenchOptions {
  /// The methods, in any order; Base is added when missing (every figure
  /// is normalized to it). Reports list them in allMethods() order.
  std::vector<Method> Methods;
  /// Keep each verified plan in its Cell (for --save and the charts).
  bool KeepPlans = false;
  bool Ablations = false;
  SweepSpec Sweep;
  std::function<void(const Progress &)> OnProgress;
  /// Cells of the main comparison (each method on each graph) run at once
  /// on this many threads, 0 for one per hardware thread; the report is the
  /// same for any number. Each cell's progress is reported, start and end
  /// together, once it and every cell before it are done.
  unsigned Threads = 1;
};

struct BenchReport {
  TargetDesc Target = TargetDesc::davinci();
  std::vector<Method> Methods;
  std::vector<Workload> Workloads;
  /// Per metric, the mean over workloads of DAN's reduction against Base
  /// and of its margin over the best external method, with the number of
  /// workloads that entered each mean.
  std::array<std::optional<double>, NumMetrics> MeanVersusBase, MeanMargin;
  std::array<unsigned, NumMetrics> VersusBaseCount{}, MarginCount{};
  /// Cells where DAN is at most the best external method, out of the
  /// cells where both exist.
  unsigned DANBestCells = 0, ComparedCells = 0;
  std::vector<Ablation> Ablations;
  std::optional<SweepResult> Sweep;
  /// Cells of the main comparison that failed (the method's error or a
  /// plan that does not verify), and ablation sections that failed.
  unsigned Failures = 0;
  unsigned AblationFailures = 0;
  /// Whether the run failed: a cell of the main comparison or an ablation
  /// failed, or a plan of the sweep does not verify. (A method that
  /// refuses a graph under a sweep setting is a result, not a failure.)
  bool failed() const {
    return Failures || AblationFailures || (Sweep && Sweep->NotVerified);
  }
};

/// The methods in table order (allMethods()), Base added, duplicates once.
std::vector<Method> tableMethods(llvm::ArrayRef<Method> Requested);

/// Runs everything \p Opts asks for on \p Graphs (graphs without a memory
/// plan, each with a distinct name). Never fails as a whole: a method that
/// fails or a plan that does not verify is an error in its cell.
BenchReport runBench(llvm::ArrayRef<const Graph *> Graphs, const TargetDesc &T,
                     const BenchOptions &Opts);

/// What dan-bench --save writes into \p Dir: each verified plan of \p R as a
/// submission triple, DIR/<method>/<graph>_schedule.txt, _memory.txt,
/// _spill.txt (appended to \p Files as path and text); the triple of a cell
/// without one is appended to \p Stale, so that no file of an earlier run
/// is left behind for it. A verified plan the submission format cannot
/// hold adds "<method>'s plan of <graph>: <why>" to \p Unwritten.
void planFiles(const BenchReport &R, llvm::StringRef Dir,
               std::vector<std::pair<std::string, std::string>> &Files,
               std::vector<std::string> &Stale,
               std::vector<std::string> &Unwritten);

/// The folders dan-bench writes into, to make before the run: one per
/// method of the table under \p SaveDir, and \p ChartsDir (an empty
/// directory is left out).
std::vector<std::string> outputFolders(llvm::ArrayRef<Method> Methods,
                                       llvm::StringRef SaveDir,
                                       llvm::StringRef ChartsDir);

/// The runs runBench makes, for progress totals.
unsigned countRuns(size_t NumGraphs, const TargetDesc &T,
                   const BenchOptions &Opts);

} // namespace dan::bench

#endif // DAN_COMPARE_COMPARISON_H
