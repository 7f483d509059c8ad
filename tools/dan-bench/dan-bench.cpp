//===- dan-bench.cpp - Compare scheduling methods on graphs ---------------===//
//
// Reads graphs (DAN IR or contest JSON), runs the chosen methods on each
// (lib/Compare), and prints the comparison; optionally saves every plan as a
// submission triple and draws the charts. The figures are computed in
// lib/Compare/Comparison.cpp (with ComparisonAblation.cpp and
// ComparisonSweep.cpp), printed by ComparisonReport.cpp and
// ComparisonJSON.cpp and drawn by ComparisonCharts.cpp, both through
// lib/Report; this file declares and checks the options (the values of
// --methods and --sweep among them), reads and writes.
//
//===----------------------------------------------------------------------===//

#include "ToolSupport.h"
#include "dan/Analysis/Verifier.h"
#include "dan/Compare/Comparison.h"
#include "dan/Compare/ComparisonCharts.h"
#include "dan/Compare/ComparisonReport.h"
#include "llvm/ADT/STLExtras.h"
#include "llvm/Support/InitLLVM.h"
#include "llvm/Support/WithColor.h"

using namespace llvm;
using namespace dan;
using namespace dan::bench;
using namespace dan::tool;

static cl::list<std::string> Inputs(cl::Positional, cl::OneOrMore,
                                    cl::desc("<graph.dan|graph.json ...>"),
                                    cl::cat(DANCategory));

static cl::list<std::string> MethodNames(
    "methods", cl::CommaSeparated, cl::value_desc("M1,M2,..."),
    cl::desc("The methods to compare, of dan, base, hmcos, cosma, magis, "
             "eda (default: all six); tables list them in that order. base "
             "is always run: every figure is normalized to it"),
    cl::cat(DANCategory));

static cl::opt<ReportFormat>
    OutFormat("format", cl::init(ReportFormat::Text), cl::desc("Report format"),
              enumValues<ReportFormat>(reportFormats()), cl::cat(DANCategory));

static cl::opt<std::string>
    OutputPath("o", cl::init("-"), cl::value_desc("path"),
               cl::desc("Write the report here (default: stdout)"),
               cl::cat(DANCategory));

static cl::opt<std::string> SaveDir(
    "save", cl::value_desc("DIR"),
    cl::desc("Write each method's verified plan as a submission triple: "
             "DIR/<method>/<graph>_schedule.txt, _memory.txt, _spill.txt"),
    cl::cat(DANCategory));

static cl::opt<std::string> ChartsDir(
    "charts", cl::value_desc("DIR"),
    cl::desc("Draw SVG charts into DIR: the normalized metrics, the "
             "ablations, the sweep's heat map, and for DAN's plan of each "
             "graph its tier occupancy and pipe timeline"),
    cl::cat(DANCategory));

static cl::opt<bool> Ablations(
    "ablations",
    cl::desc("Also run the stage ablations on every graph: MPAS against the "
             "input order (table 3), the priority weightings (figure 7), "
             "cost-aware against LRU victims (table 4), without and with CPE "
             "(table 5), and Ignore / Freeze / CPE"),
    cl::cat(DANCategory));

static DANOptionCategory
    SweepCategory("Sweep options",
                  "The targets --sweep reruns every method under.");

static cl::list<std::string> Sweep(
    "sweep", cl::CommaSeparated, cl::value_desc("capacity,cost,grid"),
    cl::desc("Rerun every method under other targets and rank them: "
             "'capacity' scales every tier (--sweep-scales), 'cost' sets "
             "alpha and beta (--sweep-alpha x --sweep-beta), 'grid' every "
             "scale with every cost"),
    cl::cat(DANCategory));

static cl::list<std::string>
    SweepScales("sweep-scales", cl::CommaSeparated, cl::value_desc("S1,S2,..."),
                cl::desc("Capacity scales of the sweep, decimals above 0 "
                         "(default 0.5,0.75,1,1.5,2)"),
                cl::cat(SweepCategory));

static cl::list<uint64_t>
    SweepAlpha("sweep-alpha", cl::CommaSeparated, cl::value_desc("A1,A2,..."),
               cl::desc("Alphas of the sweep (default 0,150,600)"),
               cl::cat(SweepCategory));

static cl::list<uint64_t>
    SweepBeta("sweep-beta", cl::CommaSeparated, cl::value_desc("B1,B2,..."),
              cl::desc("Betas of the sweep (default 1,2,4)"),
              cl::cat(SweepCategory));

static cl::opt<bool>
    Timings("timings",
            cl::desc("Add each method's wall time to the report (a 'seconds' "
                     "column or key); the report is then not reproducible"),
            cl::cat(DANCategory));

static cl::opt<bool> Quiet("quiet", cl::desc("No progress lines on stderr"),
                           cl::cat(DANCategory));

//===----------------------------------------------------------------------===//
// --methods and --sweep
//===----------------------------------------------------------------------===//

namespace {
/// dan-bench's command line as given: the values of --methods and --sweep,
/// and those of --sweep-scales, --sweep-alpha and --sweep-beta when given.
struct BenchArgs {
  std::vector<std::string> Methods, Sweeps;
  std::optional<std::vector<std::string>> Scales;
  std::optional<std::vector<uint64_t>> Alphas, Betas;
};
} // namespace

static Error argError(const Twine &Msg) {
  return createStringError(inconvertibleErrorCode(), Msg);
}

/// --methods into Opts.Methods.
static Error parseMethods(ArrayRef<std::string> Names, BenchOptions &Opts) {
  for (const std::string &Name : Names) {
    if (Name.empty())
      return argError("--methods needs method names: dan, base, hmcos, "
                      "cosma, magis, eda");
    std::optional<Method> M = lookupMethod(Name);
    if (!M) {
      std::vector<StringRef> Known;
      for (Method K : allMethods())
        Known.push_back(methodName(K));
      return argError("--methods: " +
                      unknownNameMessage("method", Name, Known));
    }
    Opts.Methods.push_back(*M);
  }
  if (Opts.Methods.empty())
    Opts.Methods.assign(allMethods().begin(), allMethods().end());
  return Error::success();
}

/// The methods and the sweep of \p Args (all six methods when none is
/// given), checked under \p T; the error's message names the option that is
/// wrong ("--methods: unknown method ...").
static Error parseBenchArgs(const BenchArgs &Args, const TargetDesc &T,
                            BenchOptions &Opts) {
  if (Error E = parseMethods(Args.Methods, Opts))
    return E;
  SweepSpec &Sweep = Opts.Sweep;
  for (const std::string &S : Args.Sweeps) {
    if (S.empty())
      return argError("--sweep needs capacity, cost or grid");
    std::optional<SweepKind> K = lookupEnum(sweepKinds(), S);
    if (!K)
      return argError("--sweep: " +
                      unknownNameMessage("sweep", S, enumNames(sweepKinds())));
    enableSweep(Sweep, *K);
  }
  if (Args.Scales)
    Sweep.Scales = *Args.Scales;
  if (Args.Alphas)
    Sweep.Alphas = *Args.Alphas;
  if (Args.Betas)
    Sweep.Betas = *Args.Betas;
  for (uint64_t V : concat<uint64_t>(Sweep.Alphas, Sweep.Betas))
    if (V > MaxValue)
      return argError("--sweep-alpha and --sweep-beta take values up to "
                      "2^40, not " +
                      Twine(V));
  if (Expected<std::vector<SweepSetting>> S = sweepSettings(Sweep, T); !S)
    return argError("--sweep-scales: " + toString(S.takeError()));
  if (Sweep.Scales.empty() || Sweep.Alphas.empty() || Sweep.Betas.empty())
    return argError("--sweep-scales, --sweep-alpha and --sweep-beta need at "
                    "least one value");
  return Error::success();
}

/// Reads every input, each graph once: IR or contest JSON (told apart by
/// content), its target with the options on top, without a memory plan,
/// verified under that target.
static Error readGraphs(SourceMgr &SM,
                        std::vector<std::unique_ptr<Graph>> &Graphs) {
  StringMap<std::string> Seen;
  for (const std::string &Path : Inputs) {
    Expected<std::unique_ptr<Graph>> G = readAnyGraph(SM, Path);
    if (!G)
      return G.takeError();
    // Located at the first planned node.
    if (Error E = verifyNoMemoryPlan(
            **G, "dan-bench",
            "plans it with every method itself: give the graph without one"))
      return E;
    if (Error E = verifyAndReport(**G, (*G)->Target, VerifyOptions(), SM, Path))
      return E;
    auto [It, New] = Seen.try_emplace((*G)->Name, Path);
    if (!New)
      return usageError("'" + displayName(Path) + "' and '" +
                        displayName(It->second) + "' are both graph " +
                        (*G)->Name + ": give each graph once");
    Graphs.push_back(std::move(*G));
  }
  return Error::success();
}

/// The report, --save (every verified plan, as one write) and --charts.
static Error writeResults(const BenchReport &R, EarlyOutput &Out) {
  ReportOptions RO;
  RO.Format = OutFormat;
  RO.Timings = Timings;
  if (Error E = Out.write([&](raw_ostream &OS) { printReport(R, RO, OS); }))
    return E;
  if (!SaveDir.empty()) {
    std::vector<std::pair<std::string, std::string>> Files;
    std::vector<std::string> Stale, Unwritten;
    planFiles(R, SaveDir, Files, Stale, Unwritten);
    if (Error E = writeOutputs(Files, Stale))
      return E;
    // A plan that verified but that no submission can hold is said, not
    // dropped in silence.
    for (const std::string &Msg : Unwritten)
      WithColor::warning(errs(), "dan-bench")
          << "--save writes no triple for " << Msg << '\n';
  }
  if (ChartsDir.empty())
    return Error::success();
  return writeOutputs(chartFiles(R, ChartsDir), {});
}

static Error runBenchTool(SourceMgr &SM) {
  Expected<TargetDesc> Target = targetFromOptions();
  if (!Target)
    return Target.takeError();
  BenchOptions Opts;
  // The values of a list option, when it is given.
  auto Given = [](auto &List) {
    using Values = std::vector<std::decay_t<decltype(*List.begin())>>;
    return List.getNumOccurrences()
               ? std::optional<Values>(Values(List.begin(), List.end()))
               : std::nullopt;
  };
  BenchArgs Args{{MethodNames.begin(), MethodNames.end()},
                 {Sweep.begin(), Sweep.end()},
                 Given(SweepScales),
                 Given(SweepAlpha),
                 Given(SweepBeta)};
  if (Error E = parseBenchArgs(Args, *Target, Opts))
    return usageError(toString(std::move(E)));
  for (auto [Name, Opt] :
       {std::pair{"--save", &SaveDir}, std::pair{"--charts", &ChartsDir}})
    if (Opt->getNumOccurrences() && Opt->empty())
      return usageError(Twine(Name) + " needs a directory");
  if (count(Inputs, "-") > 1)
    return usageError("standard input ('-') can be read only once");
  if (Error E = checkOutputIsNotInput("-o", OutputPath, Inputs))
    return E;

  std::vector<std::unique_ptr<Graph>> Graphs;
  if (Error E = readGraphs(SM, Graphs))
    return E;
  // Every method runs on every graph under one target: the graphs' own,
  // which must agree once the options are applied.
  if (Error E = checkOneTarget(Graphs, Inputs,
                               "dan-bench compares methods under one target"))
    return E;
  if (!Graphs.empty())
    *Target = Graphs[0]->Target;
  // The report's file is open and the folders exist before the run: a long
  // run does not end in an I/O error.
  Expected<EarlyOutput> Out = openOutputEarly(OutputPath);
  if (!Out)
    return Out.takeError();
  for (const std::string &Dir : outputFolders(Opts.Methods, SaveDir, ChartsDir))
    if (Error E = makeFolder(Dir))
      return E;

  Opts.Ablations = Ablations;
  Opts.Threads = toolThreads();
  Opts.KeepPlans = !SaveDir.empty() || !ChartsDir.empty();
  if (!Quiet)
    Opts.OnProgress = [](const Progress &P) { printProgress(P, errs()); };
  std::vector<const Graph *> Ptrs;
  for (const auto &G : Graphs)
    Ptrs.push_back(G.get());
  BenchReport R = runBench(Ptrs, *Target, Opts);
  if (Error E = writeResults(R, *Out))
    return E;
  if (!R.failed())
    return Error::success();
  return createStringError(inconvertibleErrorCode(),
                           failureSummary(R) + "; the report says why");
}

int main(int Argc, char **Argv) {
  InitLLVM X(Argc, Argv);
  return runTool(Argc, Argv,
                 "dan-bench: run scheduling methods on graphs and compare "
                 "them (the paper's table 2, the ablations, a sensitivity "
                 "sweep)\n",
                 runBenchTool);
}
