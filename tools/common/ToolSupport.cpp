//===- ToolSupport.cpp - What every DAN tool does the same way ------------===//

#include "ToolSupport.h"
#include "Progress.h"
#include "dan/Formats/Formats.h"
#include "dan/IR/Diagnostic.h"
#include "dan/IR/Printer.h"
#include "dan/Parse/Parser.h"
#include "dan/Support/ReadFile.h"
#include "dan/Support/Timing.h"
#include "llvm/ADT/StringExtras.h"
#include "llvm/Support/BuryPointer.h"
#include "llvm/Support/ErrorHandling.h"
#include "llvm/Support/FileSystem.h"
#include "llvm/Support/MemoryBuffer.h"
#include "llvm/Support/Path.h"
#include "llvm/Support/Signals.h"
#include "llvm/Support/WithColor.h"
#include <algorithm>
#include <cmath>
#include <csignal>
#include <cstdlib>
#include <new>
#include <system_error>
#include <unistd.h>
#include <vector>

using namespace llvm;

namespace dan::tool {

/// Every DANOptionCategory, in the order they were made.
static std::vector<const cl::OptionCategory *> &danCategories() {
  static std::vector<const cl::OptionCategory *> Categories;
  return Categories;
}

DANOptionCategory::DANOptionCategory(StringRef Name, StringRef Description)
    : cl::OptionCategory(Name, Description) {
  danCategories().push_back(this);
}

DANOptionCategory DANCategory("DAN options");

/// --target, --capacity and --spill-cost, which every tool takes.
static DANOptionCategory
    TargetCategory("Target options",
                   "Override the target the input file records (or the "
                   "defaults of an imported graph).");

static cl::opt<std::string>
    TargetName("target", cl::value_desc("name|file"),
               cl::desc("Plan for this target instead of the input's own: a "
                        "built-in name (davinci, vnpu) or a target "
                        "description file; --capacity and --spill-cost "
                        "apply on top"),
               cl::cat(TargetCategory));

/// The target --target names, read once before the tool's body runs.
static std::optional<TargetDesc> OptionTarget;

DANOptionCategory TuningCategory(
    "Tuning and ablation options",
    "Knobs for experiments and ablations; the defaults are what the tools "
    "are measured with.");

static cl::list<std::string>
    Capacities("capacity", cl::value_desc("TIER=N"),
               cl::desc("Override the capacity of a memory tier of the "
                        "target (repeatable)"),
               cl::cat(TargetCategory));

static cl::opt<std::string>
    SpillCost("spill-cost", cl::value_desc("ALPHA,BETA"),
              cl::desc("Override the spill transfer cost alpha + beta * size "
                       "of every spill path "
                       "(Davinci: 150,2)"),
              cl::cat(TargetCategory));

static cl::opt<uint64_t> MaxInputSize(
    "max-input-size", cl::init(DefaultMaxInputSize), cl::value_desc("bytes"),
    cl::desc("Refuse an input file larger than this (default 1073741824, "
             "1 GiB)"),
    cl::cat(DANCategory));

static std::string ToolName = "dan";

/// Out of memory: one line and exit status 2, instead of LLVM's crash report
/// asking for a bug report. Allocates nothing; removes the temporary files
/// of unfinished outputs, as a signal would.
[[noreturn]] static void exitOutOfMemory() {
  static const char Msg[] = ": error: out of memory\n";
  sys::RunInterruptHandlers();
  (void)::write(2, ToolName.data(), ToolName.size());
  (void)::write(2, Msg, sizeof(Msg) - 1);
  std::_Exit(ExitUsage);
}

char ToolError::ID = 0;

Error usageError(const Twine &Msg) {
  return make_error<ToolError>(ExitUsage, Msg.str());
}

Error asUsageError(Error E) {
  if (!E)
    return Error::success();
  return usageError(toString(std::move(E)));
}

Error reportedError(ExitCode Code) {
  return make_error<ToolError>(Code, std::string());
}

int exitStatusOf(Error E, SourceMgr &SM) {
  int Status = ExitSuccess;
  handleAllErrors(
      std::move(E),
      [&](const ToolError &TE) {
        if (!TE.text().empty())
          reportError(TE.text());
        Status = std::max<int>(Status, TE.code());
      },
      [&](const DiagError &D) {
        // Located diagnostics print as file:line:col with the source line.
        for (const Diagnostic &Diag : D.diags())
          printDiagnostic(SM, Diag.Loc, Diag.Kind, Diag.Msg);
        Status = std::max<int>(Status, ExitInvalid);
      },
      [&](const ErrorInfoBase &EI) {
        reportError(EI.message());
        Status = std::max<int>(Status, ExitInvalid);
      });
  return Status;
}

/// Parses the command line; false after a usage error, printed.
static bool parseCommandLine(int Argc, char **Argv, StringRef Overview) {
  ToolName = sys::path::filename(Argv[0]).str();
  // Both ways memory can run out: a failed operator new, and LLVM's own
  // allocations (SmallVector, MemoryBuffer).
  std::set_new_handler(exitOutOfMemory);
  install_bad_alloc_error_handler(
      [](void *, const char *, bool) { exitOutOfMemory(); });
  cl::HideUnrelatedOptions(danCategories());
  // LLVM's --print-options and --print-all-options would print to stdout,
  // into the output a pipe reads, and only when a tool asks: not offered.
  for (StringRef Name : {"print-options", "print-all-options"})
    if (cl::Option *O = cl::getRegisteredOptions().lookup(Name))
      O->removeArgument();
  cl::SetVersionPrinter([](raw_ostream &OS) {
    OS << "DAN (DAN-Scheduler toolkit) version 0.1.0\n";
  });
  if (!cl::ParseCommandLineOptions(Argc, Argv, Overview, &errs()))
    return false;
  // Writing to a pipe whose reader has gone ('dan-translate big.dan | head')
  // is an I/O error: exit 2 at once and quietly (LLVM's default exits 74).
  // Temporary files are removed before this runs.
  sys::SetOneShotPipeSignalFunction([] { std::_Exit(ExitUsage); });
  // Past a file size limit (ulimit -f) a write then fails with EFBIG, which
  // is reported and cleaned up like a full disk, instead of killing the tool.
  std::signal(SIGXFSZ, SIG_IGN);
  return true;
}

bool NonNegativeParser::parse(cl::Option &O, StringRef ArgName, StringRef Arg,
                              double &Val) {
  if (!Arg.empty() && cl::parser<double>::parse(O, ArgName, Arg, Val))
    return true;
  if (Arg.empty() || !std::isfinite(Val) || Val < 0)
    return O.error("'" + Arg + "' is not a finite number >= 0");
  return false;
}

/// Whether input \p Input ("-" or "<stdin>": standard input, when it is
/// redirected from a file) and output \p Output are the same file, by any
/// path or link.
static bool sameFile(StringRef Input, StringRef Output) {
  namespace fs = sys::fs;
  fs::file_status In, Out;
  if (Output == "-" || fs::status(Output, Out))
    return false;
  if (Input == "-" || Input == "<stdin>") {
    if (fs::status(0, In))
      return false;
  } else if (fs::status(Input, In)) {
    return false;
  }
  return fs::is_regular_file(In) && fs::equivalent(In, Out);
}

/// The files the run has read (its SourceMgr's buffers), which an output
/// may not replace unless allowOutputOver named it.
static const SourceMgr *FilesRead = nullptr;
static std::vector<std::string> Replaceable;

void allowOutputOver(StringRef Input) { Replaceable.push_back(Input.str()); }

/// A usage error when \p Path names a file the run read that no
/// allowOutputOver made replaceable: a target description, a CSV edges
/// file, a submission's files, found by the tool rather than named.
static Error checkNotAFileRead(StringRef Path) {
  if (!FilesRead)
    return Error::success();
  for (unsigned ID = 1, E = FilesRead->getNumBuffers(); ID <= E; ++ID) {
    StringRef Read = FilesRead->getMemoryBuffer(ID)->getBufferIdentifier();
    if (!sameFile(Read, Path) || any_of(Replaceable, [&](const std::string &R) {
          return R == "-" ? Read == "<stdin>" : sameFile(R, Read);
        }))
      continue;
    if (Path == Read)
      return usageError("cannot write '" + Path +
                        "': the run read that file, and writing there would "
                        "destroy it");
    return usageError("cannot write '" + Path + "': it is '" + Read +
                      "', which the run read, and writing there would "
                      "destroy it");
  }
  return Error::success();
}

int runTool(int Argc, char **Argv, StringRef Overview, const ToolBody &Body) {
  if (!parseCommandLine(Argc, Argv, Overview))
    return ExitUsage;
  SourceMgr SM;
  FilesRead = &SM;
  prefixDiagnostics(SM, ToolName);
  if (Error E = checkTargetOptions(SM))
    return exitStatusOf(std::move(E), SM);
  return exitStatusOf(Body(SM), SM);
}

void removeLLVMStatsOption() {
  for (StringRef Name : {"stats", "stats-json"})
    if (cl::Option *LLVMStats = cl::getRegisteredOptions().lookup(Name))
      LLVMStats->removeArgument();
}

void reportError(const Twine &Msg) {
  WithColor::error(errs(), ToolName) << escapeControl(Msg.str()) << '\n';
}

void printDiagnostic(SourceMgr &SM, SMLoc Loc, SourceMgr::DiagKind Kind,
                     const Twine &Msg) {
  if (Loc.isValid())
    printLocated(SM, Loc, Kind, Msg);
  else if (Kind == SourceMgr::DK_Error)
    reportError(Msg);
  else if (Kind == SourceMgr::DK_Warning)
    WithColor::warning(errs(), ToolName) << escapeControl(Msg.str()) << '\n';
  else
    WithColor::note(errs(), ToolName) << escapeControl(Msg.str()) << '\n';
}

Expected<TargetDesc> targetFromOptions(const TargetDesc &Base) {
  TargetDesc T = OptionTarget ? *OptionTarget : Base;
  for (const std::string &Spec : Capacities)
    if (Error E = T.parseCapacity(Spec))
      return usageError(toString(std::move(E)));
  // An empty --spill-cost= is a bad value too, not an absent option.
  if (SpillCost.getNumOccurrences())
    if (Error E = T.parseSpillCost(SpillCost))
      return usageError(toString(std::move(E)));
  return T;
}

const TargetDesc *optionTarget() {
  return OptionTarget ? &*OptionTarget : nullptr;
}

/// --target: a built-in name, else a description file.
static Error loadOptionTarget(SourceMgr &SM) {
  if (!TargetName.getNumOccurrences())
    return Error::success();
  if ((OptionTarget = TargetDesc::builtin(TargetName)))
    return Error::success();
  Expected<unsigned> ID = readInput(SM, TargetName);
  if (!ID)
    return usageError("--target: '" + TargetName +
                      "' is not a built-in target (" +
                      join(TargetDesc::builtinNames(), ", ") +
                      ") and cannot be read: " + toString(ID.takeError()));
  if (!(OptionTarget = parseTargetDescription(SM, *ID)))
    return reportedError(ExitInvalid);
  return Error::success();
}

Error checkTargetOptions(SourceMgr &SM) {
  if (Error E = loadOptionTarget(SM))
    return E;
  for (const std::string &Spec : Capacities)
    if (Error E = TargetDesc::checkCapacitySpec(Spec))
      return usageError(toString(std::move(E)));
  if (SpillCost.getNumOccurrences())
    if (Error E = TargetDesc::davinci().parseSpillCost(SpillCost))
      return usageError(toString(std::move(E)));
  return Error::success();
}

Error applyTargetOptions(Graph &G) {
  if (OptionTarget)
    if (Error E = G.retarget(*OptionTarget))
      return E;
  Expected<TargetDesc> T = targetFromOptions(G.Target);
  if (!T)
    return T.takeError();
  G.Target = *T;
  return Error::success();
}

/// The message of \p E, a failed read; one of the size limit names the
/// option that sets it.
static std::string limitMessage(Error E) {
  std::string Msg;
  handleAllErrors(std::move(E), [&](const ErrorInfoBase &Info) {
    Msg = Info.message();
    if (Info.convertToErrorCode() == std::errc::file_too_large)
      Msg += " (--max-input-size)";
  });
  return Msg;
}

Expected<unsigned> readInput(SourceMgr &SM, StringRef Path) {
  Expected<std::unique_ptr<MemoryBuffer>> Buf =
      readFileBounded(Path, MaxInputSize);
  if (!Buf)
    return usageError("cannot read '" + displayName(Path) +
                      "': " + limitMessage(Buf.takeError()));
  return addSourceBuffer(SM, std::move(*Buf), SMLoc());
}

Error checkOutputIsNotInput(StringRef Option, StringRef Output,
                            ArrayRef<std::string> Inputs) {
  for (const std::string &Input : Inputs)
    if (sameFile(Input, Output))
      return usageError(Option + " '" + Output + "' is the input file '" +
                        (Input == "-" ? "<stdin>" : Input) +
                        "'; writing there would destroy the input");
  // Nor a file read already: a --target description.
  return checkNotAFileRead(Output);
}

/// One output being written. A regular file (or a path that does not exist
/// yet) is written to a temporary file beside it, renamed over it only once
/// every byte is written, so a failure leaves the old file (or none) and no
/// partial one. Stdout and what is not a regular file (a device such as
/// /dev/full, a FIFO) are written in place: they cannot be renamed over,
/// and must not be replaced by a regular file.
class OutputFile {
public:
  /// Opens \p Path ("-" for stdout) for writing.
  static Expected<std::unique_ptr<OutputFile>> open(StringRef Path) {
    Expected<std::unique_ptr<OutputFile>> F = openStream(Path);
    // Written in blocks of 64 KiB rather than the 4 KiB a file or pipe
    // asks for: writing Matmul_Case1's 1.6 MB stage-1 file took 1.75 ms
    // in 4 KiB writes, 0.5 ms in 64 KiB ones. A terminal stays unbuffered.
    if (F && !(*F)->OS->is_displayed())
      (*F)->OS->SetBufferSize(64 * 1024);
    return F;
  }

  ~OutputFile() { discard(); }

  raw_ostream &os() { return *OS; }

  /// Flushes everything written and reports the first write error (disk
  /// full, file too large, a closed pipe).
  Error finish() {
    if (Own && !Temp)
      Own->close(); // A device or FIFO: closing can fail too.
    else
      OS->flush();
    if (std::error_code EC = OS->error()) {
      // Cleared so that the stream does not abort the tool at exit.
      OS->clear_error();
      return errorCodeToError(EC);
    }
    return Error::success();
  }

  /// Puts a finished temporary file in place.
  Error keep() {
    if (!Temp)
      return Error::success();
    Own.reset();
    Error E = Temp->keep(Target);
    Temp.reset();
    return E;
  }

  /// Removes the temporary file, if any.
  void discard() {
    if (!Temp)
      return;
    Own.reset();
    consumeError(Temp->discard());
    Temp.reset();
  }

private:
  OutputFile() = default;

  /// open() but for the buffer size.
  static Expected<std::unique_ptr<OutputFile>> openStream(StringRef Path) {
    std::unique_ptr<OutputFile> F(new OutputFile());
    if (Path == "-") {
      F->OS = &outs();
      return F;
    }
    sys::fs::file_status St;
    bool Exists = !sys::fs::status(Path, St) && sys::fs::exists(St);
    if (Exists && !sys::fs::is_regular_file(St)) {
      std::error_code EC;
      F->Own = std::make_unique<raw_fd_ostream>(Path, EC, sys::fs::OF_None);
      if (EC)
        return errorCodeToError(EC);
      F->OS = F->Own.get();
      return F;
    }
    // Through a symbolic link, replace the file it names, not the link.
    F->Target = Path.str();
    SmallString<256> Real;
    if (Exists && !sys::fs::real_path(Path, Real))
      F->Target = std::string(Real);
    Expected<sys::fs::TempFile> Temp =
        sys::fs::TempFile::create(F->Target + ".tmp%%%%%%");
    if (!Temp)
      return Temp.takeError();
    F->Temp.emplace(std::move(*Temp));
    F->Own = std::make_unique<raw_fd_ostream>(F->Temp->FD,
                                              /*shouldClose=*/false);
    F->OS = F->Own.get();
    return F;
  }

  raw_fd_ostream *OS = nullptr;
  std::unique_ptr<raw_fd_ostream> Own;
  std::optional<sys::fs::TempFile> Temp;
  std::string Target;
};

namespace {

/// "cannot write '<path>': <why>", the path as the user gave it.
Error writeError(StringRef Path, Error E) {
  return usageError("cannot write '" +
                    (Path == "-" ? StringRef("<stdout>") : Path) +
                    "': " + toString(std::move(E)));
}

} // namespace

EarlyOutput::EarlyOutput(std::string Path, std::unique_ptr<OutputFile> F)
    : Path(std::move(Path)), File(std::move(F)) {}
EarlyOutput::EarlyOutput(EarlyOutput &&) = default;
EarlyOutput::~EarlyOutput() = default;

Expected<EarlyOutput> openOutputEarly(StringRef Path) {
  if (Error E = checkNotAFileRead(Path))
    return std::move(E);
  Expected<std::unique_ptr<OutputFile>> F = OutputFile::open(Path);
  if (!F)
    return writeError(Path, F.takeError());
  return EarlyOutput(Path.str(), std::move(*F));
}

Error EarlyOutput::write(const std::function<void(raw_ostream &)> &Write) {
  // A file found while the work read more (none yet for the stage tools).
  if (Error E = checkNotAFileRead(Path))
    return E;
  Write(File->os());
  if (Error E = File->finish())
    return writeError(Path, std::move(E));
  if (Error E = File->keep())
    return writeError(Path, std::move(E));
  return Error::success();
}

Error writeOutput(StringRef Path,
                  const std::function<void(raw_ostream &)> &Write) {
  Expected<EarlyOutput> Out = openOutputEarly(Path);
  if (!Out)
    return Out.takeError();
  return Out->write(Write);
}

Error writeOutputs(ArrayRef<std::pair<std::string, std::string>> Files,
                   ArrayRef<std::string> Stale) {
  // Every file is written before any is put in place; on a failure the
  // destructors remove the temporary files.
  for (const auto &File : Files)
    if (Error E = checkNotAFileRead(File.first))
      return E;
  std::vector<std::unique_ptr<OutputFile>> Outs;
  for (const auto &[Path, Text] : Files) {
    Expected<std::unique_ptr<OutputFile>> F = OutputFile::open(Path);
    if (!F)
      return writeError(Path, F.takeError());
    (*F)->os() << Text;
    if (Error E = (*F)->finish())
      return writeError(Path, std::move(E));
    Outs.push_back(std::move(*F));
  }
  for (size_t I = 0; I != Outs.size(); ++I)
    if (Error E = Outs[I]->keep())
      return writeError(Files[I].first, std::move(E));
  for (const std::string &Path : Stale)
    sys::fs::remove(Path);
  return Error::success();
}

Error makeFolder(StringRef Dir, std::vector<std::string> *Made) {
  if (Made)
    for (SmallString<128> D(Dir); !D.empty() && !sys::fs::exists(D);
         sys::path::remove_filename(D))
      Made->push_back(std::string(D));
  if (std::error_code EC = sys::fs::create_directories(
          Dir, /*IgnoreExisting=*/true, sys::fs::all_all))
    return usageError("cannot create directory '" + Dir + "': " + EC.message());
  return Error::success();
}

void removeFolders(ArrayRef<std::string> Dirs) {
  for (const std::string &Dir : Dirs)
    (void)sys::fs::remove(Dir);
}

Error finishStdout() {
  outs().flush();
  if (std::error_code EC = outs().error()) {
    outs().clear_error();
    return writeError("-", errorCodeToError(EC));
  }
  return Error::success();
}

uint64_t maxInputSize() { return MaxInputSize; }

StringRef displayName(StringRef Path) {
  return Path == "-" ? StringRef("<stdin>") : Path;
}

Expected<std::unique_ptr<Graph>> readAnyGraph(SourceMgr &SM, StringRef Path) {
  Expected<unsigned> ID = readInput(SM, Path);
  if (!ID)
    return ID.takeError();
  std::unique_ptr<Graph> G =
      importGraph(SM, *ID, graphNameForFile(Path == "-" ? "stdin" : Path),
                  optionTarget(), MaxInputSize);
  if (!G)
    return reportedError(ExitInvalid);
  if (Error E = applyTargetOptions(*G))
    return E;
  return G;
}

/// How a mismatch names a target: its one-line header
/// ("'target davinci { L1 = 192 }'"), or, for a description of its own,
/// which prints on many lines, its name.
static std::string targetInMessage(const TargetDesc &T) {
  std::string Header;
  raw_string_ostream OS(Header);
  T.printHeader(OS);
  StringRef Line = StringRef(Header).trim();
  if (!Line.contains('\n'))
    return ("'" + Line + "'").str();
  return ("target '" + T.name() + "' as the file describes it").str();
}

Error checkOneTarget(ArrayRef<std::unique_ptr<Graph>> Graphs,
                     ArrayRef<std::string> Paths, StringRef Why) {
  for (size_t I = 1; I < Graphs.size(); ++I) {
    if (Graphs[I]->Target == Graphs[0]->Target)
      continue;
    // At the header that names the target, when the file has one.
    DiagList Diags;
    Diags.error(Graphs[I]->TargetLoc,
                "'" + displayName(Paths[I]) + "' (graph " + Graphs[I]->Name +
                    ") is for " + targetInMessage(Graphs[I]->Target) +
                    ", but '" + displayName(Paths[0]) + "' (graph " +
                    Graphs[0]->Name + ") is for " +
                    targetInMessage(Graphs[0]->Target) + ": " + Why +
                    "; give the files the same target header, or the "
                    "--capacity and --spill-cost options that make them "
                    "agree");
    if (Graphs[0]->TargetLoc.isValid())
      Diags.note(Graphs[0]->TargetLoc,
                 "the target of '" + displayName(Paths[0]) + "' is named here");
    return Diags.takeError();
  }
  return Error::success();
}

Expected<std::unique_ptr<Graph>> readIR(SourceMgr &SM, StringRef Path) {
  Expected<unsigned> ID = readInput(SM, Path);
  if (!ID)
    return ID.takeError();
  std::unique_ptr<Graph> G = parseGraph(SM, *ID, optionTarget(), MaxInputSize);
  if (!G)
    return reportedError(ExitInvalid);
  return G;
}

static bool StatsJSONFlag = false;

bool statsAsJSON() { return StatsJSONFlag; }

int runStageTool(int Argc, char **Argv, StringRef Overview,
                 const StageBody &Body, const OptionCheck &Check) {
  removeLLVMStatsOption();
  // Options of the stage tools only, so they live here, not at file scope.
  cl::opt<std::string> Input(cl::Positional, cl::init("-"),
                             cl::desc("<input .dan file>"),
                             cl::cat(DANCategory));
  cl::opt<std::string> Output("o", cl::init("-"), cl::value_desc("path"),
                              cl::desc("Output file (default: stdout)"),
                              cl::cat(DANCategory));
  cl::opt<bool> Stats("stats", cl::desc("Print what the stage did to stderr"),
                      cl::cat(DANCategory));
  cl::opt<bool, /*ExternalStorage=*/true> StatsJSON(
      "stats-json", cl::location(StatsJSONFlag),
      cl::desc("Print what the stage did to stderr as one JSON object "
               "(instead of --stats' lines)"),
      cl::cat(DANCategory));
  cl::opt<bool, /*ExternalStorage=*/true> TimePasses(
      "time-passes", cl::location(TimePhases),
      cl::desc("Time each phase of the run and print the times to stderr "
               "at the end"),
      cl::cat(DANCategory));
  cl::opt<ProgressMode> Progress(
      "progress", cl::init(ProgressMode::Auto),
      cl::desc("A line on stderr that counts the seconds of a long run"),
      enumValues(progressModeTable()), cl::cat(DANCategory));
  StringRef Tool = sys::path::filename(Argv[0]);
  return runTool(Argc, Argv, Overview, [&](SourceMgr &SM) -> Error {
    if (Check)
      if (Error E = Check())
        return E;
    // A --target description read already: refused before the stage runs.
    if (Error E = checkNotAFileRead(Output))
      return E;
    Expected<std::unique_ptr<Graph>> G = [&] {
      PhaseTimer T("read", "Reading and parsing the input");
      return readIR(SM, Input);
    }();
    if (!G)
      return G.takeError();
    // The output is IR, as the input: it may replace it.
    allowOutputOver(Input);
    if (Error E = applyTargetOptions(**G))
      return E;
    // Opened before the stage runs, as opt opens its output before the
    // passes: a path it cannot write is reported now, not after the work.
    Expected<EarlyOutput> Out = openOutputEarly(Output);
    if (!Out)
      return Out.takeError();
    // A copy: the pass may replace the graph's contents, not its target.
    TargetDesc Target = (*G)->Target;
    {
      PhaseTimer T("stage", (Tool + ": the stage").str());
      ProgressLine Line((Tool + ": @" + (*G)->Name + " (" +
                         countOf((*G)->size(), "node") + ")")
                            .str(),
                        Progress);
      if (Error E = Body(**G, Target, Stats || StatsJSON ? &errs() : nullptr))
        return E;
    }
    (*G)->Target = Target;
    PhaseTimer T("write", "Printing the output");
    Error E = Out->write([&](raw_ostream &OS) { printGraph(**G, OS); });
    // The process ends next: freeing the graph node by node would only
    // delay the exit (as clang leaves its AST to the exit).
    BuryPointer(std::move(*G));
    return E;
  });
}

} // namespace dan::tool
