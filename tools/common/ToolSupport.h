//===- ToolSupport.h - What every DAN tool does the same way ----*- C++ -*-===//
//
// Command-line parsing with usage errors as exit status 2, the target
// options (--capacity, --spill-cost), input from a file or stdin, IR
// parsing, and output that is written to a temporary file and renamed only
// on success, so a failed run never leaves a partial file.
//
//===----------------------------------------------------------------------===//

#ifndef DAN_TOOLS_COMMON_TOOLSUPPORT_H
#define DAN_TOOLS_COMMON_TOOLSUPPORT_H

#include "dan/Analysis/Verifier.h"
#include "dan/IR/Graph.h"
#include "dan/Support/EnumTable.h"
#include "dan/Target/Target.h"
#include "llvm/Support/CommandLine.h"
#include "llvm/Support/SourceMgr.h"
#include "llvm/Support/raw_ostream.h"
#include <functional>
#include <memory>
#include <optional>

namespace dan::tool {

/// Exit statuses shared by every tool.
enum ExitCode : int {
  ExitSuccess = 0,
  ExitInvalid = 1, // invalid input or a failed check
  ExitUsage = 2,   // bad command line or an I/O error
};

/// The category of every DAN option; --help shows only these.
extern llvm::cl::OptionCategory DANCategory;

/// A cl::opt modifier that gives an enum option the values of its table
/// (dan/Support/EnumTable.h), in the table's order:
///   cl::opt<L0Mode> L0("l0", enumValues(l0ModeTable()), ...);
template <typename EnumT> struct EnumValues {
  llvm::ArrayRef<EnumEntry<EnumT>> Table;
  template <typename OptT> void apply(OptT &O) const {
    for (const EnumEntry<EnumT> &E : Table)
      O.getParser().addLiteralOption(E.Name, E.Value, E.Help);
  }
};
template <typename EnumT>
EnumValues<EnumT> enumValues(llvm::ArrayRef<EnumEntry<EnumT>> Table) {
  return {Table};
}

/// Parses the command line; on a usage error prints it and exits with 2.
/// Also makes a closed output pipe exit 2 and a file size limit a write
/// error.
void parseCommandLine(int Argc, char **Argv, llvm::StringRef Overview);

/// \p Base with --capacity and --spill-cost applied on top; on a bad value
/// prints the error and exits with 2. Tools call it once before reading
/// input, so that a bad option is a usage error whatever the input.
TargetDesc targetFromOptions(const TargetDesc &Base = TargetDesc::davinci());

/// Applies --capacity and --spill-cost on top of \p G's own target (its
/// file's target header, or the defaults for an imported graph): the
/// target the tool then plans, judges or measures under, and the one its
/// output records.
void applyTargetOptions(Graph &G);

/// Removes LLVM's own -stats (for Statistic counters, empty in a release
/// build), so that a tool can declare its --stats, which means its own report.
void removeLLVMStatsOption();

/// Prints "<tool>: error: <Msg>" to stderr.
void reportError(const llvm::Twine &Msg);

/// Prints one diagnostic: at its location through \p SM (file:line:col and
/// the source line), or as "<tool>: error:" / "<tool>: note:" when it has
/// none. The shape of every tool's messages.
void printDiagnostic(llvm::SourceMgr &SM, llvm::SMLoc Loc,
                     llvm::SourceMgr::DiagKind Kind, const llvm::Twine &Msg);

/// Adds the file (or stdin for "-") to \p SM. On failure prints the error
/// and returns std::nullopt (exit status 2).
std::optional<unsigned> readInput(llvm::SourceMgr &SM, llvm::StringRef Path);

/// Refuses an output that would replace an input: when \p Output (the value
/// of \p Option) names the same file as one of \p Inputs (same device and
/// inode, through any link), prints the error and returns false (exit status
/// 2), before anything is read. For outputs in another format than their
/// input (a report, a trace, JSON from IR); one in the input's own format
/// may replace it, since the write is atomic. "-" is never a file here.
bool checkOutputIsNotInput(llvm::StringRef Option, llvm::StringRef Output,
                           llvm::ArrayRef<std::string> Inputs);

/// Writes \p Path (stdout for "-") through a temporary file renamed on
/// success; a device or FIFO is written in place. Every write is checked:
/// returns false after printing the error (exit status 2), leaving no
/// partial file.
bool writeOutput(llvm::StringRef Path,
                 const std::function<void(llvm::raw_ostream &)> &Write);

/// Flushes stdout for a tool that prints to outs() itself; on a write error
/// (a full disk, a closed stdout) prints it and returns false (exit status
/// 2).
bool finishStdout();

/// Writes several files as one: each goes to a temporary file first, and
/// only when all are written are they renamed into place and the \p Stale
/// paths removed. Returns false after printing the error (exit status 2).
bool writeOutputs(llvm::ArrayRef<std::pair<std::string, std::string>> Files,
                  llvm::ArrayRef<std::string> Stale);

/// The body of a stage tool (dan-mpas, dan-dlr, dan-cpe): rewrites \p G in
/// place under \p T (G's target with the options applied), printing
/// statistics to \p Stats when --stats is given. A failure
/// is an invalid input (exit status 1); a dan::DiagError prints each of its
/// diagnostics at its source location.
using StagePass = std::function<llvm::Error(Graph &G, const TargetDesc &T,
                                            llvm::raw_ostream *Stats)>;

/// Checks option combinations once the command line is parsed: an error
/// message makes it a usage error (exit status 2).
using OptionCheck = std::function<std::optional<std::string>()>;

/// The whole of a stage tool: options, reading the IR (a file or stdin),
/// running \p Pass, and writing the IR (stdout or -o) only on success.
int runStageTool(int Argc, char **Argv, llvm::StringRef Overview,
                 const StagePass &Pass, const OptionCheck &Check = nullptr);

/// How messages name an input path: "<stdin>" for "-".
llvm::StringRef displayName(llvm::StringRef Path);

/// Verifies \p G, printing each diagnostic where it points and, when there
/// are errors, "<tool>: error: '<path>' does not verify: N errors". Returns
/// the number of errors.
unsigned verifyAndReport(const Graph &G, const TargetDesc &T,
                         const VerifyOptions &Opts, llvm::SourceMgr &SM,
                         llvm::StringRef Path);

/// Reads and parses an IR file. Sets \p Status to 2 on an I/O error and 1
/// on a parse error.
std::unique_ptr<Graph> readIR(llvm::SourceMgr &SM, llvm::StringRef Path,
                              int &Status);

} // namespace dan::tool

#endif // DAN_TOOLS_COMMON_TOOLSUPPORT_H
