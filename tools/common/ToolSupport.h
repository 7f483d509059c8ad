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

/// An option category of DAN's. --help shows the options of these
/// categories (those of LLVM's own it hides): DANCategory holds what a user
/// chooses, and a tool may group options of its own in a category of its
/// own (dan-gen's shapes of each family).
class DANOptionCategory : public llvm::cl::OptionCategory {
public:
  explicit DANOptionCategory(llvm::StringRef Name,
                             llvm::StringRef Description = "");
};

/// What a user of the tool chooses: the target, the objective, the effort,
/// threads, statistics, input and output.
extern DANOptionCategory DANCategory;

/// Tuning knobs and ablations of the stages, each option also cl::Hidden:
/// --help-hidden shows them, under this heading.
extern DANOptionCategory TuningCategory;

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

/// An error with the exit status it means: ExitUsage for a bad command line
/// or an I/O error, ExitInvalid for invalid input or a failed check. An
/// empty message means the error has been printed already (the parser's and
/// the verifier's located diagnostics print as they are found).
class ToolError : public llvm::ErrorInfo<ToolError> {
public:
  static char ID;
  ToolError(ExitCode Code, std::string Msg) : Code(Code), Msg(std::move(Msg)) {}
  ExitCode code() const { return Code; }
  llvm::StringRef text() const { return Msg; }
  void log(llvm::raw_ostream &OS) const override { OS << Msg; }
  std::error_code convertToErrorCode() const override {
    return llvm::inconvertibleErrorCode();
  }

private:
  ExitCode Code;
  std::string Msg;
};

/// A usage or I/O error (exit status 2) with its message.
llvm::Error usageError(const llvm::Twine &Msg);
/// \p E, if an error, as a usage error with its message.
llvm::Error asUsageError(llvm::Error E);
/// An error whose messages are printed already, exiting with \p Code.
llvm::Error reportedError(ExitCode Code);

/// The one place an error becomes an exit status: prints it (a DiagError
/// at its locations through \p SM, a ToolError's message unless printed
/// already, any other error as "<tool>: error: <message>") and returns the
/// status: a ToolError's own code, ExitInvalid for everything else (a
/// library's errors are about its input). Success is ExitSuccess.
int exitStatusOf(llvm::Error E, llvm::SourceMgr &SM);

/// The body of a tool: everything after the command line is parsed. The
/// SourceMgr holds the inputs it reads, so that errors print where they are.
using ToolBody = std::function<llvm::Error(llvm::SourceMgr &SM)>;

/// The whole of a tool: parses the command line (a usage error exits with
/// 2), checks the target options, runs \p Body and maps its error to the
/// exit status (exitStatusOf). Also makes a closed output pipe exit 2 and a
/// file size limit a write error.
int runTool(int Argc, char **Argv, llvm::StringRef Overview,
            const ToolBody &Body);

/// \p Base with --capacity and --spill-cost applied on top; a bad value is
/// a usage error.
llvm::Expected<TargetDesc>
targetFromOptions(const TargetDesc &Base = TargetDesc::davinci());

/// Reads --target's description, and checks the form and numbers of
/// --capacity and --spill-cost, a usage error whatever the input; runTool
/// does so before the body runs. The tier names are checked against the
/// target they apply to.
llvm::Error checkTargetOptions(llvm::SourceMgr &SM);

/// The target --target names, or null: the target of an input that names
/// none (an imported graph, an IR file without a header).
const TargetDesc *optionTarget();

/// Replaces \p G's target by --target's, if given, then applies --capacity
/// and --spill-cost on top of \p G's own target (its
/// file's target header, or the defaults for an imported graph): the
/// target the tool then plans, judges or measures under, and the one its
/// output records.
llvm::Error applyTargetOptions(Graph &G);

/// Removes LLVM's own -stats and -stats-json (for Statistic counters, empty
/// in a release build), so that a tool can declare its --stats and
/// --stats-json, which mean its own report.
void removeLLVMStatsOption();

/// Prints "<tool>: error: <Msg>" to stderr.
void reportError(const llvm::Twine &Msg);

/// Prints one diagnostic: at its location through \p SM (file:line:col and
/// the source line), or as "<tool>: error:" / "<tool>: note:" when it has
/// none. The shape of every tool's messages.
void printDiagnostic(llvm::SourceMgr &SM, llvm::SMLoc Loc,
                     llvm::SourceMgr::DiagKind Kind, const llvm::Twine &Msg);

/// Adds the file (or stdin for "-") to \p SM and returns its buffer id; a
/// file that cannot be read, or has more than --max-input-size bytes, is a
/// usage error.
llvm::Expected<unsigned> readInput(llvm::SourceMgr &SM, llvm::StringRef Path);
/// --max-input-size: the most bytes of any file a tool reads.
uint64_t maxInputSize();

/// Refuses an output that would replace an input: when \p Output (the value
/// of \p Option) names the same file as one of \p Inputs (same device and
/// inode, through any link), returns a usage error, before anything is
/// read. For outputs in another format than their input (a report, a trace,
/// JSON from IR); one in the input's own format may replace it, since the write
/// is atomic. "-" is never a file here.
llvm::Error checkOutputIsNotInput(llvm::StringRef Option,
                                  llvm::StringRef Output,
                                  llvm::ArrayRef<std::string> Inputs);

/// cl::parser for a finite number >= 0 (a cost weight, seconds). It
/// refuses what cl::parser<double> takes but no such option means: a
/// negative number, inf, nan, and an empty value, which it reads as 0.
struct NonNegativeParser : public llvm::cl::parser<double> {
  using llvm::cl::parser<double>::parser;
  bool parse(llvm::cl::Option &O, llvm::StringRef ArgName, llvm::StringRef Arg,
             double &Val);
};

/// Lets an output replace input file \p Input, read in the output's own
/// format (dan-mpas g.dan -o g.dan). Any other file the run read (a target
/// description, a file the tool found beside its input) writeOutput and
/// writeOutputs refuse to replace, with a usage error.
void allowOutputOver(llvm::StringRef Input);

/// Writes \p Path (stdout for "-") through a temporary file renamed on
/// success; a device or FIFO is written in place. Every write is checked: a
/// failure is a usage error and leaves no partial file. A file the run read
/// is not replaced (allowOutputOver).
llvm::Error writeOutput(llvm::StringRef Path,
                        const std::function<void(llvm::raw_ostream &)> &Write);

class OutputFile;

/// An output opened before the work that fills it, as opt opens its output
/// before it runs the passes: a path the run cannot write is reported
/// before a long run, not after it. write() then writes it as writeOutput
/// does; an output never written leaves no file behind.
class EarlyOutput {
public:
  EarlyOutput(std::string Path, std::unique_ptr<OutputFile> F);
  EarlyOutput(EarlyOutput &&);
  ~EarlyOutput();
  llvm::Error write(const std::function<void(llvm::raw_ostream &)> &Write);

private:
  std::string Path;
  std::unique_ptr<OutputFile> File;
};

/// Opens \p Path for an EarlyOutput; the usage errors of writeOutput.
llvm::Expected<EarlyOutput> openOutputEarly(llvm::StringRef Path);

/// Flushes stdout for a tool that prints to outs() itself; a write error (a
/// full disk, a closed stdout) is a usage error.
llvm::Error finishStdout();

/// Makes the folder \p Dir and its missing parents (mode 0777 less the
/// umask); a usage error when it cannot. \p Made, when given, gets the
/// folders it made, deepest first, so that a failed write can take them
/// away again (removeFolders).
llvm::Error makeFolder(llvm::StringRef Dir,
                       std::vector<std::string> *Made = nullptr);

/// Removes the empty folders of \p Dirs, in that order; a folder that is
/// not empty (another process wrote there meanwhile) stays.
void removeFolders(llvm::ArrayRef<std::string> Dirs);

/// Writes several files as one: each goes to a temporary file first, and
/// only when all are written are they renamed into place and the \p Stale
/// paths removed. A failure is a usage error.
llvm::Error
writeOutputs(llvm::ArrayRef<std::pair<std::string, std::string>> Files,
             llvm::ArrayRef<std::string> Stale);

/// The body of a stage tool (dan-mpas, dan-dlr, dan-cpe): rewrites \p G in
/// place under \p T (G's target with the options applied), printing
/// statistics to \p Stats when --stats is given. A failure
/// is an invalid input (exit status 1); a dan::DiagError prints each of its
/// diagnostics at its source location (exitStatusOf).
using StageBody = std::function<llvm::Error(Graph &G, const TargetDesc &T,
                                            llvm::raw_ostream *Stats)>;

/// Checks option combinations once the command line is parsed: return a
/// usageError (exit status 2) for a bad one.
using OptionCheck = std::function<llvm::Error()>;

/// Whether --stats-json asked for the statistics as one JSON object (the
/// pass is then given the stream as with --stats).
bool statsAsJSON();

/// The tool's --threads: threads that run its independent work at once, 0
/// for one per hardware thread. Only the tools that call it have the option.
unsigned toolThreads();

/// The whole of a stage tool: options, reading the IR (a file or stdin),
/// running \p Body, and writing the IR (stdout or -o) only on success.
int runStageTool(int Argc, char **Argv, llvm::StringRef Overview,
                 const StageBody &Body, const OptionCheck &Check = nullptr);

/// How messages name an input path: "<stdin>" for "-".
llvm::StringRef displayName(llvm::StringRef Path);

/// Verifies \p G, printing each diagnostic where it points; when there are
/// errors, an error (exit status 1) that says "'<path>' does not verify: N
/// errors".
llvm::Error verifyAndReport(const Graph &G, const TargetDesc &T,
                            const VerifyOptions &Opts, llvm::SourceMgr &SM,
                            llvm::StringRef Path);

/// Reads a graph in DAN IR, or in contest JSON when its text starts with
/// '{' (named after the file), and applies the target options on top of
/// its target: for tools that take either form (dan-bench, dan-link).
llvm::Expected<std::unique_ptr<Graph>> readAnyGraph(llvm::SourceMgr &SM,
                                                    llvm::StringRef Path);

/// An error when the graphs read from \p Paths do not all have the target
/// of the first: "'<path>' is for '<header>', but '<first>' is for
/// '<header>': <Why>; give the files the same target header, or the
/// --capacity and --spill-cost options that make them agree" (a target
/// described in the file is named, not printed).
llvm::Error checkOneTarget(llvm::ArrayRef<std::unique_ptr<Graph>> Graphs,
                           llvm::ArrayRef<std::string> Paths,
                           llvm::StringRef Why);

/// Reads and parses an IR file: a usage error when it cannot be read, an
/// invalid input (its diagnostics printed) when it does not parse.
llvm::Expected<std::unique_ptr<Graph>> readIR(llvm::SourceMgr &SM,
                                              llvm::StringRef Path);

} // namespace dan::tool

#endif // DAN_TOOLS_COMMON_TOOLSUPPORT_H
