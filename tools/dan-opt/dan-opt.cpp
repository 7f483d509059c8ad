//===- dan-opt.cpp - The stages in one process, as a pass pipeline --------===//
//
// Reads a graph (DAN IR or contest JSON), runs the passes of -passes on it
// in one process and writes the result: the same bytes as the pipe of the
// stage tools with the same options, without printing and parsing the graph
// between stages (docs/CommandGuide/dan-opt.md).
//
//===----------------------------------------------------------------------===//

#include "Progress.h"
#include "ToolSupport.h"
#include "dan/Formats/Formats.h"
#include "dan/IR/Diagnostic.h"
#include "dan/IR/Printer.h"
#include "dan/Passes/Pipeline.h"
#include "dan/Support/Timing.h"
#include "llvm/Support/BuryPointer.h"
#include "llvm/Support/InitLLVM.h"
#include "llvm/Support/JSON.h"
#include "llvm/Support/Path.h"
#include "llvm/Support/Process.h"

using namespace llvm;
using namespace dan;
using namespace dan::tool;

static cl::opt<std::string> Input(cl::Positional, cl::init("-"),
                                  cl::desc("<input .dan or .json file>"),
                                  cl::cat(DANCategory));

static cl::opt<std::string> Output("o", cl::init("-"), cl::value_desc("path"),
                                   cl::desc("Output file (default: stdout)"),
                                   cl::cat(DANCategory));

static cl::opt<std::string>
    Passes("passes", cl::value_desc("pipeline"),
           cl::desc("The passes to run, in order, with their options: "
                    "'mpas,dlr,cpe', 'mpas<l0=single>,dlr<horizon=400>' "
                    "(--print-passes lists them); none: the input is "
                    "written back"),
           cl::cat(DANCategory));

/// What opt's debugging options do, for a pipeline: print and check
/// between passes.
static DANOptionCategory
    DebugCategory("Pipeline debugging options",
                  "Print or check the graph between passes; list the passes.");

static cl::opt<bool> PrintPipeline(
    "print-pipeline-passes",
    cl::desc("Print -passes with every option of every pass written out, "
             "and exit"),
    cl::cat(DebugCategory));

static cl::opt<bool>
    PrintPasses("print-passes",
                cl::desc("Print the passes and their options, and exit"),
                cl::cat(DebugCategory));

static cl::opt<bool>
    PrintAfterAll("print-after-all",
                  cl::desc("Print the graph to stderr after every pass"),
                  cl::cat(DebugCategory));

static cl::list<std::string>
    PrintAfter("print-after", cl::value_desc("pass"), cl::CommaSeparated,
               cl::desc("Print the graph to stderr after each run of the "
                        "passes named"),
               cl::cat(DebugCategory));

static cl::opt<bool> PrintChanged(
    "print-changed",
    cl::desc("Print the input to stderr, then the graph after every pass "
             "that changes it (a line says so for one that does not)"),
    cl::cat(DebugCategory));

static cl::opt<bool> VerifyEach(
    "verify-each",
    cl::desc("Verify the graph after every pass (after cpe, also that it "
             "keeps the memory plan it was given); a failure is an error"),
    cl::cat(DebugCategory));

static cl::opt<bool> DisableVerify(
    "disable-verify",
    cl::desc("Do not verify the result of the passes, as opt's option of "
             "that name (the first pass still checks the input)"),
    cl::cat(DebugCategory));

// --stats and --stats-json replace LLVM's options of those names, so they
// are declared once those are removed (main).
static bool Stats = false;
static bool StatsJSON = false;

static cl::opt<bool, /*ExternalStorage=*/true>
    TimePasses("time-passes", cl::location(TimePhases),
               cl::desc("Time reading, each pass and writing, and print the "
                        "times to stderr at the end"),
               cl::cat(DANCategory));

static cl::opt<ProgressMode>
    Progress("progress", cl::init(ProgressMode::Auto),
             cl::desc("A line on stderr that counts the seconds of a long run"),
             enumValues(progressModeTable()), cl::cat(DANCategory));

/// --print-passes: each pass, what it does, its options and their values.
static void printPassList(raw_ostream &OS) {
  for (const PassInfo &Info : passRegistry()) {
    OS << Info.Name << ": " << Info.Description << '\n';
    StagePass Defaults = defaultPass(Info.Kind);
    for (const PassOption &O : Info.Options)
      OS << "  " << O.Name << '=' << passOptionValues(O) << " (default "
         << O.Get(Defaults) << ")\n";
  }
}

/// The graph as its IR text.
static std::string printed(const Graph &G) {
  std::string Text;
  raw_string_ostream OS(Text);
  printGraph(G, OS);
  return Text;
}

/// Whether -print-after, -print-after-all or -print-changed print the
/// graph after \p Pass.
static bool printsAfter(StringRef Pass) {
  return PrintAfterAll || llvm::is_contained(PrintAfter, Pass);
}

/// --stats-json: the graph, then each pass's figures (of the graph at the
/// end) after its name.
static void printStatsJSON(raw_ostream &OS, const Graph &G,
                           ArrayRef<std::pair<StagePass, StageStats>> Ran) {
  json::OStream J(OS, 2);
  J.object([&] {
    J.attribute("tool", "dan-opt");
    J.attribute("graph", G.Name);
    J.attributeArray("passes", [&] {
      for (const auto &[P, S] : Ran)
        J.object([&] {
          J.attribute("pass", passInfo(P.Kind).Name);
          writeStageStatsJSON(J, G, P, S);
        });
    });
  });
  OS << '\n';
}

/// Runs \p Pipeline on \p G with what -print-*, -verify-each and --stats
/// ask for around each pass. As opt does, the first pass checks the input
/// and the result is verified at the end (unless --disable-verify); a pass
/// after the first takes what the one before it wrote without checking it
/// again.
static Error runPipeline(Graph &G, ArrayRef<StagePass> Pipeline, SourceMgr &SM,
                         std::vector<std::pair<StagePass, StageStats>> &Ran) {
  auto Diag = [&](SMLoc Loc, SourceMgr::DiagKind Kind, const Twine &Msg) {
    printDiagnostic(SM, Loc, Kind, Msg);
  };
  std::string Last;
  if (PrintChanged) {
    Last = printed(G);
    errs() << "; *** IR Dump At Start ***\n" << Last;
  }
  for (const StagePass &P : Pipeline) {
    StringRef Name = passInfo(P.Kind).Name;
    // A copy: the pass may replace the graph's contents, not its target.
    TargetDesc Target = G.Target;
    std::optional<Graph> Before;
    if (VerifyEach && P.Kind == StageKind::CPE)
      Before.emplace(G);
    Expected<StageStats> S = [&] {
      PhaseTimer T(Name, ("dan-opt: " + Name).str());
      ProgressLine Line(("dan-opt: " + Name + " @" + G.Name + " (" +
                         countOf(G.size(), "node") + ")")
                            .str(),
                        Progress);
      return runStage(G, Target, P, toolThreads(), Stats || StatsJSON,
                      /*InputVerified=*/!Ran.empty());
    }();
    if (!S)
      return S.takeError();
    G.Target = Target;
    dropSourceLocations(G);
    if (Stats && !StatsJSON)
      printStageStats(errs(), G, P, *S, /*AsJSON=*/false);
    Ran.emplace_back(P, std::move(*S));
    if (VerifyEach)
      if (Error E = verifyAfterPass(G, Target, Name,
                                    Before ? &*Before : nullptr, Diag))
        return E;
    if (PrintChanged) {
      std::string Now = printed(G);
      if (Now == Last)
        errs() << "; *** IR Dump After " << Name
               << " omitted because no change ***\n";
      else
        errs() << "; *** IR Dump After " << Name << " ***\n" << Now;
      Last = std::move(Now);
    } else if (printsAfter(Name)) {
      errs() << "; *** IR Dump After " << Name << " ***\n";
      printGraph(G, errs());
    }
  }
  if (Ran.empty() || VerifyEach || DisableVerify)
    return Error::success();
  PhaseTimer T("verify", "Verifying the result");
  return verifyPipelineResult(G, G.Target, Diag);
}

/// -print-after names passes that exist.
static Error checkPrintAfter() {
  for (const std::string &Name : PrintAfter)
    if (llvm::none_of(passRegistry(),
                      [&](const PassInfo &I) { return I.Name == Name; }))
      return usageError("--print-after: unknown pass '" + Name + "'");
  return Error::success();
}

int main(int Argc, char **Argv) {
  InitLLVM X(Argc, Argv);
  removeLLVMStatsOption();
  cl::opt<bool, /*ExternalStorage=*/true> StatsOpt(
      "stats", cl::location(Stats),
      cl::desc("Print what each pass did to stderr"), cl::cat(DANCategory));
  cl::opt<bool, /*ExternalStorage=*/true> StatsJSONOpt(
      "stats-json", cl::location(StatsJSON),
      cl::desc("Print what the passes did to stderr as one JSON object: the "
               "graph and, under \"passes\", each pass's object"),
      cl::cat(DANCategory));
  return runTool(
      Argc, Argv,
      "dan-opt: runs the stages as passes in one process, as the pipe of "
      "the stage tools would\n",
      [](SourceMgr &SM) -> Error {
        // A malformed -passes is a usage error whatever else is asked.
        Expected<std::vector<StagePass>> Pipeline = parsePassPipeline(Passes);
        if (!Pipeline)
          return usageError("invalid -passes '" + Passes +
                            "': " + toString(Pipeline.takeError()));
        if (PrintPasses) {
          printPassList(outs());
          return finishStdout();
        }
        if (PrintPipeline) {
          outs() << printPassPipeline(*Pipeline) << '\n';
          return finishStdout();
        }
        if (Error E = checkPrintAfter())
          return E;
        // A --target description read already: refused before the passes
        // run (the input itself is checked once read).
        if (Error E = checkOutputIsNotInput("-o", Output, {}))
          return E;
        // The input's buffer comes after any --target description's.
        unsigned InputID = SM.getNumBuffers() + 1;
        Expected<std::unique_ptr<Graph>> G = [&] {
          PhaseTimer T("read", "Reading and parsing the input");
          return readAnyGraph(SM, Input);
        }();
        if (!G)
          return G.takeError();
        // IR written over the contest JSON it was read from would destroy
        // it (dan-translate refuses the same); over IR, it may replace it.
        if (isJSONText(SM.getMemoryBuffer(InputID)->getBuffer())) {
          if (Error E = checkOutputIsNotInput("-o", Output, {Input}))
            return E;
        } else {
          allowOutputOver(Input);
        }
        // Opened before the passes run, as opt does: a path it cannot write
        // is reported now, not after the work.
        Expected<EarlyOutput> Out = openOutputEarly(Output);
        if (!Out)
          return Out.takeError();
        std::vector<std::pair<StagePass, StageStats>> Ran;
        if (Error E = runPipeline(**G, *Pipeline, SM, Ran))
          return E;
        if (StatsJSON)
          printStatsJSON(errs(), **G, Ran);
        PhaseTimer T("write", "Printing the output");
        Error E = Out->write([&](raw_ostream &OS) { printGraph(**G, OS); });
        // The process ends next: freeing the graph node by node would only
        // delay the exit.
        BuryPointer(std::move(*G));
        return E;
      });
}
