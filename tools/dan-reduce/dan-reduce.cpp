//===- dan-reduce.cpp - Shrink a graph while a test keeps passing ---------===//
//
// The driver of lib/Reduce: options, reading the input, running the
// interestingness test as a process on each candidate, writing the result.
//
//===----------------------------------------------------------------------===//

#include "ToolSupport.h"
#include "dan/IR/Diagnostic.h"
#include "dan/IR/Printer.h"
#include "dan/Reduce/Reduce.h"
#include "dan/Reduce/TestCommand.h"
#include "llvm/Support/InitLLVM.h"

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

/// An error of the test command (it cannot run, its file cannot be
/// written): an I/O error, not one of the input.
static Error testError(Error E) { return usageError(toString(std::move(E))); }

static Error reduce(SourceMgr &SM) {
  if (TestPath.empty())
    return usageError("no interestingness test; give --test=SCRIPT (run as "
                      "'SCRIPT ARG... FILE', exit status 0 while the "
                      "behaviour of interest shows)");
  Expected<TestCommand> Runner = TestCommand::find(
      TestPath, std::vector<std::string>(TestArgs.begin(), TestArgs.end()));
  if (!Runner)
    return testError(Runner.takeError());

  // The reduced graph is IR, as the input: it may replace it.
  allowOutputOver(InputPath);
  Expected<std::unique_ptr<Graph>> Input = readIR(SM, InputPath);
  if (!Input)
    return Input.takeError();
  std::unique_ptr<Graph> G = std::move(*Input);
  // The file's target with the options on top; every candidate (and the
  // output) carries it, so the test judges under it too.
  if (Error E = applyTargetOptions(*G))
    return E;
  const TargetDesc Target = G->Target;
  // Opened before the tests run: a path it cannot write is reported now,
  // not after a reduction of minutes.
  Expected<EarlyOutput> Out = openOutputEarly(OutputPath);
  if (!Out)
    return Out.takeError();

  // Candidates stay valid when the input is; an input that does not verify
  // may be interesting for that very reason, so then only the test judges.
  bool KeepValid = !NoVerify && verifyGraph(*G, Target, VerifyOptions(),
                                            [](SMLoc, SourceMgr::DiagKind,
                                               const Twine &) {}) == 0;
  if (Verbose) {
    Graph::Counts C = G->counts();
    errs() << "dan-reduce: input: " << G->size() << " nodes, "
           << C.Edges + C.ReuseEdges << " edges; "
           << (KeepValid ? "it verifies, so every candidate must verify"
                         : "candidates need not verify")
           << "\n";
  }

  std::string Why;
  Expected<int> First = Runner->run(*G, &Why);
  if (!First)
    return testError(First.takeError());
  if (*First != 0) {
    std::string How = *First < 0
                          ? "was killed (" + Why + ")"
                          : "exited with status " + std::to_string(*First);
    return createStringError(inconvertibleErrorCode(),
                             "the input is not interesting: the test " +
                                 Runner->commandLine() + " " + How +
                                 " on it; it must exit with 0 on the input");
  }

  ReduceOptions Opts;
  Opts.KeepValid = KeepValid ? &Target : nullptr;
  Opts.MaxRounds = MaxRounds;
  Opts.MaxTests = MaxTests;
  Opts.Renumber = !NoRenumber;
  Opts.Log = Verbose ? &errs() : nullptr;
  size_t NodesBefore = G->size();
  Expected<ReduceStats> Stats = reduceGraph(
      *G, [&](const Graph &C) { return Runner->isInteresting(C); }, Opts);
  if (!Stats)
    return testError(Stats.takeError());
  if (Verbose) {
    errs() << "dan-reduce: " << NodesBefore << " -> " << G->size()
           << " nodes in " << Stats->Rounds
           << (Stats->Rounds == 1 ? " round, " : " rounds, ")
           << countOf(Stats->Tests + 1, "test");
    if (KeepValid)
      errs() << ", " << countOf(Stats->Invalid, "candidate")
             << " dropped that did not verify";
    if (Stats->BudgetReached)
      errs() << "; stopped at --max-tests";
    errs() << "\n";
  }
  return Out->write([&](raw_ostream &OS) { printGraph(*G, OS); });
}

int main(int Argc, char **Argv) {
  InitLLVM X(Argc, Argv);
  return runTool(Argc, Argv,
                 "dan-reduce: shrink a DAN graph while an interestingness "
                 "test keeps passing\n",
                 reduce);
}
