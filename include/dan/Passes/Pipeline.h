//===- Pipeline.h - The stage passes by name and options --------*- C++ -*-===//
//
// The one registry of DAN's stage passes: each pass's name, its options
// with their spellings and defaults, the checks of their combinations, and
// how it runs (the stage's selection, dan/Select/Select.h) and reports
// (dan/Select/Stats.h). The stage tools (dan-mpas, dan-dlr, dan-cpe) run
// one pass through it; dan-opt runs a pipeline of them, written as the
// LLVM new pass manager writes one:
//
//   mpas<l0=single;order=groups;group=4>,dlr<horizon=400>,cpe
//
// A pass's options are "name=value" pairs between angle brackets,
// separated by ';'; a boolean option may also be written "name" or
// "no-name". Options not written keep the pass's defaults, the tools'.
//
//===----------------------------------------------------------------------===//

#ifndef DAN_PASSES_PIPELINE_H
#define DAN_PASSES_PIPELINE_H

#include "dan/Analysis/Verifier.h"
#include "dan/IR/Graph.h"
#include "dan/Select/Select.h"
#include "llvm/ADT/ArrayRef.h"
#include "llvm/ADT/StringRef.h"
#include "llvm/Support/Error.h"
#include "llvm/Support/JSON.h"
#include "llvm/Support/raw_ostream.h"
#include <string>
#include <variant>
#include <vector>

namespace dan {

/// The stages a pass may be.
enum class StageKind { MPAS, DLR, CPE };

/// One pass of a pipeline: its stage and the options of that stage (only
/// the ones of its own stage are read).
struct StagePass {
  StageKind Kind = StageKind::MPAS;
  MPASOptions MPAS;
  DLROptions DLR;
  CPEOptions CPE;
  /// mpas's sample-above (SelectOptions::SampleAbove).
  size_t SampleAbove = SelectOptions().SampleAbove;
  /// Whether mpas's group was given: it applies to order=groups only.
  bool GroupGiven = false;
};

/// One option of a pass, as the textual pipeline spells it.
struct PassOption {
  llvm::StringLiteral Name;
  /// The values a number or horizon takes ("N", "auto|off|N"); empty for
  /// an enum, whose values are its table's (EnumValues).
  llvm::StringLiteral Values;
  /// Sets the option from its text; a malformed value is an error that
  /// says what the option takes.
  llvm::Error (*Set)(StagePass &P, llvm::StringRef Value);
  /// The value as the pipeline text writes it.
  std::string (*Get)(const StagePass &P);
  /// A bare "name" and "no-name" set it to true and false.
  bool IsFlag = false;
  /// An enum's values, "auto|single|capacity"; null for the others.
  std::string (*EnumValues)() = nullptr;
};

/// The values \p O takes, as "--print-passes" lists them.
std::string passOptionValues(const PassOption &O);

/// A pass of the registry: its name in a pipeline, what it does, and its
/// options in the order -print-pipeline-passes writes them.
struct PassInfo {
  StageKind Kind;
  llvm::StringLiteral Name;
  llvm::StringLiteral Description;
  llvm::ArrayRef<PassOption> Options;
};

/// Every pass, in stage order.
llvm::ArrayRef<PassInfo> passRegistry();

/// The registry's entry of \p Kind.
const PassInfo &passInfo(StageKind Kind);

/// The option \p Name of the pass of \p Kind, which must exist.
const PassOption &passOption(StageKind Kind, llvm::StringRef Name);

/// A pass of \p Kind with the tools' defaults.
StagePass defaultPass(StageKind Kind);

/// Parses a pipeline ("mpas,dlr<fit=best>,cpe"); an empty text is the
/// empty pipeline. Errors name the pass or option at fault and, for an
/// unknown name, the names there are. Each pass's options are checked as
/// checkPassOptions checks them, and a pass that cannot take what the
/// passes before it leave is refused (mpas or dlr after dlr).
llvm::Expected<std::vector<StagePass>> parsePassPipeline(llvm::StringRef Text);

/// The pipeline with every option of every pass written out, which
/// parsePassPipeline reads back to the same passes (mpas's group is written
/// with order=groups only, where it applies).
std::string printPassPipeline(llvm::ArrayRef<StagePass> Passes);

/// Refuses a combination of options the stage cannot follow (mpas:
/// order=window or order=staged with an l0 mode it does not keep, group
/// without order=groups). The message names options as \p Spelling does:
/// "--" for a tool's command line, "" for a pipeline.
llvm::Error checkPassOptions(const StagePass &P, llvm::StringRef Spelling);

/// What a pass did: its stage's figures.
using StageStats = std::variant<MPASStats, DLRStats, CPEStats>;

/// Runs \p P on \p G under \p T: the stage's selection, on \p Threads
/// threads (0: one per hardware thread). \p Measured: the figures will be
/// printed, so mpas measures candidates it need not (an order every
/// candidate reached). \p InputVerified: \p G is known to verify, as the
/// result of a pass before it in the same process (SelectOptions).
llvm::Expected<StageStats> runStage(Graph &G, const TargetDesc &T,
                                    const StagePass &P, unsigned Threads,
                                    bool Measured, bool InputVerified = false);

/// --stats (lines) or --stats-json (one object) of a pass's run on \p G.
void printStageStats(llvm::raw_ostream &OS, const Graph &G, const StagePass &P,
                     const StageStats &S, bool AsJSON);

/// A pass's --stats-json figures as attributes of the object \p J writes.
void writeStageStatsJSON(llvm::json::OStream &J, const Graph &G,
                         const StagePass &P, const StageStats &S);

/// runStage, then its figures printed to \p Stats when given: the body
/// of a stage tool.
llvm::Error runStagePass(Graph &G, const TargetDesc &T, const StagePass &P,
                         unsigned Threads, llvm::raw_ostream *Stats,
                         bool StatsAsJSON);

/// Drops the source locations of \p G's nodes. Once a pass has changed a
/// graph read from a file, the file no longer shows it: a later diagnostic
/// would quote a line that says otherwise, so it names the node by id
/// alone. dan-opt and the Python module call it after each pass.
void dropSourceLocations(Graph &G);

/// -verify-each after \p Pass: \p G must verify under \p T, and keep the
/// memory plan of \p Before when given (cpe's input). Prints each
/// diagnostic through \p Diag; on errors, returns "the graph after pass
/// '<Pass>' does not verify: N errors".
llvm::Error verifyAfterPass(const Graph &G, const TargetDesc &T,
                            llvm::StringRef Pass, const Graph *Before,
                            const DiagHandler &Diag);

/// The check of a pipeline's result (dan-opt, the Python module's run()),
/// whose passes took each other's output unverified: \p G must verify
/// under \p T. Prints each diagnostic through \p Diag; on errors, returns
/// "the result of the passes does not verify: N errors (--verify-each
/// finds the pass)".
llvm::Error verifyPipelineResult(const Graph &G, const TargetDesc &T,
                                 const DiagHandler &Diag);

} // namespace dan

#endif // DAN_PASSES_PIPELINE_H
