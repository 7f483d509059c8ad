//===- ToolSupport.cpp - What every DAN tool does the same way ------------===//

#include "ToolSupport.h"
#include "dan/IR/Diagnostic.h"
#include "dan/IR/Printer.h"
#include "dan/Parse/Parser.h"
#include "llvm/Support/FileSystem.h"
#include "llvm/Support/MemoryBuffer.h"
#include "llvm/Support/Path.h"
#include "llvm/Support/WithColor.h"

using namespace llvm;

namespace dan::tool {

cl::OptionCategory DANCategory("DAN options");

static cl::list<std::string>
    Capacities("capacity", cl::value_desc("TIER=N"),
               cl::desc("Override the capacity of a memory tier (repeatable); "
                        "tiers: L1, UB, L0A, L0B, L0C"),
               cl::cat(DANCategory));

static cl::opt<std::string>
    SpillCost("spill-cost", cl::value_desc("ALPHA,BETA"),
              cl::desc("Override the spill transfer cost alpha + beta * size "
                       "(default 150,2)"),
              cl::cat(DANCategory));

static std::string ToolName = "dan";

void parseCommandLine(int Argc, char **Argv, StringRef Overview) {
  ToolName = sys::path::filename(Argv[0]).str();
  cl::HideUnrelatedOptions(DANCategory);
  cl::SetVersionPrinter([](raw_ostream &OS) {
    OS << "DAN (DAN-Scheduler toolkit) version 0.1.0\n";
  });
  if (!cl::ParseCommandLineOptions(Argc, Argv, Overview, &errs()))
    std::exit(ExitUsage);
}

void reportError(const Twine &Msg) {
  WithColor::error(errs(), ToolName) << Msg << '\n';
}

void printDiagnostic(SourceMgr &SM, SMLoc Loc, SourceMgr::DiagKind Kind,
                     const Twine &Msg) {
  if (Loc.isValid())
    SM.PrintMessage(Loc, Kind, Msg);
  else if (Kind == SourceMgr::DK_Error)
    reportError(Msg);
  else
    WithColor::note(errs(), ToolName) << Msg << '\n';
}

TargetDesc targetFromOptions() {
  TargetDesc T = TargetDesc::davinci();
  for (const std::string &Spec : Capacities)
    if (Error E = T.parseCapacity(Spec)) {
      reportError(toString(std::move(E)));
      std::exit(ExitUsage);
    }
  // An empty --spill-cost= is a bad value too, not an absent option.
  if (SpillCost.getNumOccurrences())
    if (Error E = T.parseSpillCost(SpillCost)) {
      reportError(toString(std::move(E)));
      std::exit(ExitUsage);
    }
  return T;
}

std::optional<unsigned> readInput(SourceMgr &SM, StringRef Path) {
  ErrorOr<std::unique_ptr<MemoryBuffer>> Buf =
      MemoryBuffer::getFileOrSTDIN(Path, /*IsText=*/true);
  if (!Buf) {
    reportError("cannot read '" + Path + "': " + Buf.getError().message());
    return std::nullopt;
  }
  return SM.AddNewSourceBuffer(std::move(*Buf), SMLoc());
}

bool writeOutput(StringRef Path,
                 const std::function<void(raw_ostream &)> &Write) {
  Error E = writeToOutput(Path, [&](raw_ostream &OS) {
    Write(OS);
    return Error::success();
  });
  if (E) {
    // The error often names the file already; say it once, as readInput does.
    reportError("cannot write '" + Path +
                "': " + errorToErrorCode(std::move(E)).message());
    return false;
  }
  return true;
}

bool writeOutputs(ArrayRef<std::pair<std::string, std::string>> Files,
                  ArrayRef<std::string> Stale) {
  std::vector<sys::fs::TempFile> Temps;
  auto Fail = [&](const Twine &Path, Error E) {
    reportError("cannot write '" + Path + "': " + toString(std::move(E)));
    for (sys::fs::TempFile &T : Temps)
      consumeError(T.discard());
    return false;
  };
  for (const auto &[Path, Text] : Files) {
    Expected<sys::fs::TempFile> Temp =
        sys::fs::TempFile::create(Path + ".tmp%%%%%%");
    if (!Temp)
      return Fail(Path, Temp.takeError());
    Temps.push_back(std::move(*Temp));
    raw_fd_ostream OS(Temps.back().FD, /*shouldClose=*/false);
    OS << Text;
    OS.flush();
    if (std::error_code EC = OS.error()) {
      OS.clear_error();
      return Fail(Path, errorCodeToError(EC));
    }
  }
  for (size_t I = 0; I != Temps.size(); ++I)
    if (Error E = Temps[I].keep(Files[I].first)) {
      Temps.erase(Temps.begin(), Temps.begin() + I + 1);
      return Fail(Files[I].first, std::move(E));
    }
  for (const std::string &Path : Stale)
    sys::fs::remove(Path);
  return true;
}

StringRef displayName(StringRef Path) {
  return Path == "-" ? StringRef("<stdin>") : Path;
}

unsigned verifyAndReport(const Graph &G, const TargetDesc &T,
                         const VerifyOptions &Opts, SourceMgr &SM,
                         StringRef Path) {
  unsigned Errors = verifyGraph(
      G, T, Opts, [&](SMLoc Loc, SourceMgr::DiagKind Kind, const Twine &Msg) {
        printDiagnostic(SM, Loc, Kind, Msg);
      });
  if (Errors)
    reportError("'" + displayName(Path) + "' does not verify: " +
                Twine(Errors) + (Errors == 1 ? " error" : " errors"));
  return Errors;
}

std::unique_ptr<Graph> readIR(SourceMgr &SM, StringRef Path, int &Status) {
  std::optional<unsigned> ID = readInput(SM, Path);
  if (!ID) {
    Status = ExitUsage;
    return nullptr;
  }
  std::unique_ptr<Graph> G = parseGraph(SM, *ID);
  if (!G)
    Status = ExitInvalid;
  return G;
}

} // namespace dan::tool

namespace dan::tool {

int runStageTool(int Argc, char **Argv, StringRef Overview,
                 const StagePass &Pass, const OptionCheck &Check) {
  // LLVM registers its own -stats (for Statistic counters, empty in a
  // release build); a stage's --stats means its own report instead.
  if (cl::Option *LLVMStats = cl::getRegisteredOptions().lookup("stats"))
    LLVMStats->removeArgument();
  // Options of the stage tools only, so they live here, not at file scope.
  cl::opt<std::string> Input(cl::Positional, cl::init("-"),
                             cl::desc("<input .dan file>"),
                             cl::cat(DANCategory));
  cl::opt<std::string> Output("o", cl::init("-"), cl::value_desc("path"),
                              cl::desc("Output file (default: stdout)"),
                              cl::cat(DANCategory));
  cl::opt<bool> Stats("stats", cl::desc("Print what the stage did to stderr"),
                      cl::cat(DANCategory));
  parseCommandLine(Argc, Argv, Overview);
  if (Check)
    if (std::optional<std::string> Msg = Check()) {
      reportError(*Msg);
      return ExitUsage;
    }
  TargetDesc Target = targetFromOptions();

  SourceMgr SM;
  int Status = ExitSuccess;
  std::unique_ptr<Graph> G = readIR(SM, Input, Status);
  if (!G)
    return Status;
  if (Error E = Pass(*G, Target, Stats ? &errs() : nullptr)) {
    // Located diagnostics print as file:line:col with the source line.
    handleAllErrors(
        std::move(E),
        [&](const DiagError &D) {
          for (const Diagnostic &Diag : D.diags())
            printDiagnostic(SM, Diag.Loc, Diag.Kind, Diag.Msg);
        },
        [&](const ErrorInfoBase &EI) { reportError(EI.message()); });
    return ExitInvalid;
  }
  return writeOutput(Output, [&](raw_ostream &OS) { printGraph(*G, OS); })
             ? ExitSuccess
             : ExitUsage;
}

} // namespace dan::tool
