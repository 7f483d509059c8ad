//===- dan-reduce.cpp - Shrink a graph while a test keeps passing ---------===//
//
// The driver of lib/Reduce: options, reading the input, running the
// interestingness test as a process on each candidate, writing the result.
//
//===----------------------------------------------------------------------===//

#include "ToolSupport.h"
#include "dan/IR/Printer.h"
#include "dan/Reduce/Reduce.h"
#include "llvm/Support/FileSystem.h"
#include "llvm/Support/FileUtilities.h"
#include "llvm/Support/InitLLVM.h"
#include "llvm/Support/Program.h"
#include "llvm/Support/Signals.h"

using namespace llvm;
using namespace dan;
using namespace dan::tool;

static cl::opt<std::string> InputPath(cl::Positional, cl::init("-"),
                                      cl::desc("<input .dan file>"),
                                      cl::cat(DANCategory));

static cl::opt<std::string> OutputPath("o", cl::init("-"),
                                       cl::value_desc("path"),
                                       cl::desc("Output file (default: "
                                                "stdout)"),
                                       cl::cat(DANCategory));

static cl::opt<std::string>
    TestPath("test", cl::value_desc("SCRIPT"),
             cl::desc("The interestingness test, run as 'SCRIPT ARG... FILE' "
                      "on each candidate; exit status 0 means the behaviour "
                      "of interest still shows (required)"),
             cl::cat(DANCategory));

static cl::list<std::string>
    TestArgs("test-arg", cl::value_desc("ARG"),
             cl::desc("An argument for the test, passed before the file "
                      "(repeatable)"),
             cl::cat(DANCategory));

static cl::opt<unsigned>
    MaxRounds("max-rounds", cl::init(0), cl::value_desc("N"),
              cl::desc("Stop after N rounds over the passes; 0 repeats them "
                       "until a round removes nothing (default 0)"),
              cl::cat(DANCategory));

static cl::opt<unsigned>
    MaxTests("max-tests", cl::init(0), cl::value_desc("N"),
             cl::desc("Run the test at most N times after its run on the "
                      "input, then write the smallest graph found; 0 is no "
                      "limit (default 0)"),
             cl::cat(DANCategory));

static cl::opt<bool>
    NoVerify("no-verify",
             cl::desc("Do not require candidates to verify, even when the "
                      "input does; leave their meaning to the test"),
             cl::cat(DANCategory));

static cl::opt<bool>
    NoRenumber("no-renumber",
               cl::desc("Keep the node and buffer ids; do not try dense ids "
                        "at the end"),
               cl::cat(DANCategory));

static cl::opt<bool> Verbose("verbose",
                             cl::desc("Print the progress of every pass to "
                                      "stderr"),
                             cl::cat(DANCategory));

namespace {

/// Runs the interestingness test on graphs, each written to a temporary
/// file that is removed afterwards. The test's own output is discarded.
class TestRunner {
public:
  TestRunner(std::string Program, std::vector<std::string> Args)
      : Program(std::move(Program)), Args(std::move(Args)) {}

  /// The test's exit status on \p G (negative when it was killed; then
  /// \p Why says how), or an error when it could not run at all.
  Expected<int> run(const Graph &G, std::string *Why = nullptr) const;

  /// The command line as messages show it, "FILE" for the candidate.
  std::string commandLine() const {
    std::string S = "'" + Program;
    for (const std::string &A : Args)
      S += " " + A;
    return S + " FILE'";
  }

private:
  std::string Program;
  std::vector<std::string> Args;
};

Expected<int> TestRunner::run(const Graph &G, std::string *Why) const {
  SmallString<128> Path;
  int FD;
  if (std::error_code EC =
          sys::fs::createTemporaryFile("dan-reduce", "dan", FD, Path))
    return createStringError(EC,
                             "cannot create a temporary file: " + EC.message());
  FileRemover Remove(Path);
  sys::RemoveFileOnSignal(Path);
  {
    raw_fd_ostream OS(FD, /*shouldClose=*/true);
    printGraph(G, OS);
    OS.close();
    if (std::error_code EC = OS.error()) {
      OS.clear_error();
      sys::DontRemoveFileOnSignal(Path);
      return createStringError(EC,
                               "cannot write '" + Path + "': " + EC.message());
    }
  }
  SmallVector<StringRef, 8> Argv{Program};
  for (const std::string &A : Args)
    Argv.push_back(A);
  Argv.push_back(Path);
  // The test reads nothing and its output would drown the progress.
  std::optional<StringRef> Redirects[] = {StringRef(), StringRef(),
                                          StringRef()};
  std::string ErrMsg;
  bool Failed = false;
  int Status = sys::ExecuteAndWait(Program, Argv, std::nullopt, Redirects,
                                   /*SecondsToWait=*/0, /*MemoryLimit=*/0,
                                   &ErrMsg, &Failed);
  sys::DontRemoveFileOnSignal(Path);
  if (Failed)
    return createStringError(inconvertibleErrorCode(), "cannot run the test '" +
                                                           Program +
                                                           "': " + ErrMsg);
  if (Why)
    *Why = ErrMsg;
  return Status;
}

/// The test program as a path to execute: as given when it names a folder,
/// otherwise looked up in PATH like a shell does.
Expected<std::string> findTest(StringRef Name) {
  if (!Name.contains('/')) {
    ErrorOr<std::string> Found = sys::findProgramByName(Name);
    if (!Found)
      return createStringError(Found.getError(),
                               "cannot run the test '" + Name +
                                   "': " + Found.getError().message());
    return *Found;
  }
  if (sys::fs::is_directory(Name))
    return createStringError(std::make_error_code(std::errc::is_a_directory),
                             "cannot run the test '" + Name +
                                 "': it is a directory");
  if (std::error_code EC = sys::fs::access(Name, sys::fs::AccessMode::Execute))
    return createStringError(EC, "cannot run the test '" + Name +
                                     "': " + EC.message());
  return Name.str();
}

size_t edgeCount(const Graph &G) {
  size_t Edges = 0;
  for (const Node &N : G.Nodes)
    Edges += N.Preds.size() + N.ReusePreds.size();
  return Edges;
}

} // namespace

int main(int Argc, char **Argv) {
  InitLLVM X(Argc, Argv);
  parseCommandLine(Argc, Argv,
                   "dan-reduce: shrink a DAN graph while an interestingness "
                   "test keeps passing\n");
  if (TestPath.empty()) {
    reportError("no interestingness test; give --test=SCRIPT (run as "
                "'SCRIPT ARG... FILE', exit status 0 while the behaviour of "
                "interest shows)");
    return ExitUsage;
  }
  TargetDesc Target = targetFromOptions();
  Expected<std::string> Program = findTest(TestPath);
  if (!Program) {
    reportError(toString(Program.takeError()));
    return ExitUsage;
  }
  TestRunner Runner(*Program,
                    std::vector<std::string>(TestArgs.begin(), TestArgs.end()));

  SourceMgr SM;
  int Status = ExitSuccess;
  std::unique_ptr<Graph> G = readIR(SM, InputPath, Status);
  if (!G)
    return Status;

  // Candidates stay valid when the input is; an input that does not verify
  // may be interesting for that very reason, so then only the test judges.
  bool KeepValid = !NoVerify && verifyGraph(*G, Target, VerifyOptions(),
                                            [](SMLoc, SourceMgr::DiagKind,
                                               const Twine &) {}) == 0;
  if (Verbose)
    errs() << "dan-reduce: input: " << G->size() << " nodes, " << edgeCount(*G)
           << " edges; "
           << (KeepValid ? "it verifies, so every candidate must verify"
                         : "candidates need not verify")
           << "\n";

  std::string Why;
  Expected<int> First = Runner.run(*G, &Why);
  if (!First) {
    reportError(toString(First.takeError()));
    return ExitUsage;
  }
  if (*First != 0) {
    std::string How = *First < 0
                          ? "was killed (" + Why + ")"
                          : "exited with status " + std::to_string(*First);
    reportError("the input is not interesting: the test " +
                Runner.commandLine() + " " + How +
                " on it; it must exit with 0 on the input");
    return ExitInvalid;
  }

  ReduceOptions Opts;
  Opts.KeepValid = KeepValid ? &Target : nullptr;
  Opts.MaxRounds = MaxRounds;
  Opts.MaxTests = MaxTests;
  Opts.Renumber = !NoRenumber;
  Opts.Log = Verbose ? &errs() : nullptr;
  size_t NodesBefore = G->size();
  Expected<ReduceStats> Stats = reduceGraph(
      *G,
      [&](const Graph &C) -> Expected<bool> {
        Expected<int> S = Runner.run(C);
        if (!S)
          return S.takeError();
        return *S == 0;
      },
      Opts);
  if (!Stats) {
    reportError(toString(Stats.takeError()));
    return ExitUsage;
  }
  if (Verbose) {
    errs() << "dan-reduce: " << NodesBefore << " -> " << G->size()
           << " nodes in " << Stats->Rounds
           << (Stats->Rounds == 1 ? " round, " : " rounds, ")
           << Stats->Tests + 1 << (Stats->Tests ? " tests" : " test");
    if (KeepValid)
      errs() << ", " << Stats->Invalid
             << " candidates dropped that did not verify";
    if (Stats->BudgetReached)
      errs() << "; stopped at --max-tests";
    errs() << "\n";
  }
  return writeOutput(OutputPath, [&](raw_ostream &OS) { printGraph(*G, OS); })
             ? ExitSuccess
             : ExitUsage;
}
