//===- dan-replay.cpp - Measure a schedule: the four metrics and timing ---===//
//
// Verifies a graph, replays it (lib/Analysis/Replay.cpp) and reports the
// four metrics, per-tier peaks, the L0 single-residency status, the two
// makespan lower bounds and each pipe's busy time; optionally normalized to
// a baseline plan of the same graph, and as a Chrome trace. The report and
// the trace are lib/Report's (dan/Report/ReplayReport.h); this file parses
// options, reads and writes.
//
//===----------------------------------------------------------------------===//

#include "ToolSupport.h"
#include "dan/Report/PlanViews.h"
#include "dan/Report/ReplayReport.h"
#include "llvm/Support/FileSystem.h"
#include "llvm/Support/InitLLVM.h"
#include "llvm/Support/Path.h"
#include "llvm/Support/WithColor.h"

using namespace llvm;
using namespace dan;
using namespace dan::tool;

static cl::opt<std::string> InputPath(cl::Positional, cl::init("-"),
                                      cl::desc("<input .dan file>"),
                                      cl::cat(DANCategory));

static cl::opt<std::string>
    OutputPath("o", cl::init("-"), cl::value_desc("path"),
               cl::desc("Write the report here (default: stdout)"),
               cl::cat(DANCategory));

static cl::opt<ReportFormat>
    OutFormat("format", cl::init(ReportFormat::Text), cl::desc("Report format"),
              enumValues<ReportFormat>(replayReportFormats()),
              cl::cat(DANCategory));

static cl::opt<std::string> BaselinePath(
    "baseline", cl::value_desc("FILE"),
    cl::desc("Also replay this plan of the same graph and report the four "
             "metrics normalized to it (value / baseline)"),
    cl::cat(DANCategory));

static cl::opt<std::string> TracePath(
    "trace", cl::value_desc("FILE"),
    cl::desc("Write the timeline as a Chrome trace (Perfetto, "
             "chrome://tracing): one slice per pipe node, 1 cycle = 1 us"),
    cl::cat(DANCategory));

static cl::opt<std::string> ChartsDir(
    "charts", cl::value_desc("DIR"),
    cl::desc("Also draw the plan into DIR as SVG: <graph>-occupancy.svg (with "
             "a memory plan) and <graph>-pipes.svg"),
    cl::cat(DANCategory));

static cl::opt<bool>
    NoVerify("no-verify",
             cl::desc("Replay without verifying first (the figures of a graph "
                      "that does not verify mean nothing)"),
             cl::cat(DANCategory));

static cl::opt<ReuseReading>
    Reading("reuse-reading", cl::init(ReuseReading::Safe),
            cl::desc("How address reuse orders the timing"),
            enumValues<ReuseReading>(reuseReadings()), cl::cat(DANCategory));

/// Verifies \p G, printing its errors like dan-verify, with a note on
/// --no-verify after them.
static Error verify(const Graph &G, SourceMgr &SM, StringRef Path) {
  Error E = verifyAndReport(G, G.Target, VerifyOptions(), SM, Path);
  if (!E)
    return E;
  reportError(toString(std::move(E)));
  WithColor::note(errs(), "dan-replay")
      << "the replay measures only graphs that verify; --no-verify replays "
         "it anyway\n";
  return reportedError(ExitInvalid);
}

/// Reads, verifies (unless --no-verify) and replays one file, under
/// \p Under when given (a baseline is measured under its input's target),
/// else under the file's own target with the options on top.
static Expected<MeasuredPlan> measure(SourceMgr &SM, StringRef Path,
                                      const TargetDesc *Under) {
  Expected<std::unique_ptr<Graph>> G = readIR(SM, Path);
  if (!G)
    return G.takeError();
  if (Under)
    (*G)->Target = *Under;
  else if (Error E = applyTargetOptions(**G))
    return E;
  if (!NoVerify)
    if (Error E = verify(**G, SM, Path))
      return E;
  return measurePlan(std::move(*G), /*Verified=*/!NoVerify, Reading);
}

/// The usage errors of option combinations, before anything is read.
static Error checkOptions() {
  for (auto [Name, Opt] : {std::pair{"--baseline", &BaselinePath},
                           std::pair{"--trace", &TracePath}})
    if (Opt->getNumOccurrences() && Opt->empty())
      return usageError(Twine(Name) + " needs a file name");
  if (ChartsDir.getNumOccurrences() && ChartsDir.empty())
    return usageError("--charts needs a directory");
  // The report and the trace are not IR: neither may replace an input.
  std::vector<std::string> InputPaths = {InputPath};
  if (!BaselinePath.empty())
    InputPaths.push_back(BaselinePath);
  if (Error E = checkOutputIsNotInput("-o", OutputPath, InputPaths))
    return E;
  if (!TracePath.empty())
    if (Error E = checkOutputIsNotInput("--trace", TracePath, InputPaths))
      return E;
  if (InputPath == "-" && BaselinePath == "-")
    return usageError(
        "the input and --baseline cannot both be read from stdin");
  if (!TracePath.empty() && TracePath == OutputPath)
    return usageError(
        "--trace and -o cannot both write '" +
        (OutputPath == "-" ? std::string("<stdout>") : OutputPath) + "'");
  return Error::success();
}

/// --charts: the plan views of lib/Report, written as one.
static Error writeCharts(const MeasuredPlan &M) {
  if (Error E = makeFolder(ChartsDir))
    return E;
  std::vector<std::pair<std::string, std::string>> Files;
  for (auto &[Name, SVG] : svg::drawPlanViews(*M.G, M.R, M.G->Target)) {
    SmallString<128> Path(ChartsDir.getValue());
    sys::path::append(Path, Name);
    Files.emplace_back(std::string(Path), std::move(SVG));
  }
  return writeOutputs(Files, {});
}

static Error replayInput(SourceMgr &SM) {
  if (Error E = checkOptions())
    return E;
  Expected<MeasuredPlan> M = measure(SM, InputPath, nullptr);
  if (!M)
    return M.takeError();
  std::optional<MeasuredPlan> Base;
  if (!BaselinePath.empty()) {
    Expected<MeasuredPlan> B = measure(SM, BaselinePath, &M->G->Target);
    if (!B)
      return B.takeError();
    if (std::optional<std::string> Why = planMismatch(*M->G, *B->G))
      return createStringError(inconvertibleErrorCode(),
                               "--baseline '" + BaselinePath +
                                   "' is not a plan of the same graph as '" +
                                   displayName(InputPath) + "': " + *Why);
    Base = std::move(*B);
  }
  if (!TracePath.empty())
    if (Error E = writeOutput(TracePath, [&](raw_ostream &OS) {
          writeChromeTrace(*M->G, M->R, M->G->Target, OS);
        }))
      return E;
  if (!ChartsDir.empty())
    if (Error E = writeCharts(*M))
      return E;
  return writeOutput(OutputPath, [&](raw_ostream &OS) {
    printReplayReport(OutFormat, *M, Base ? &*Base : nullptr,
                      displayName(BaselinePath), OS);
  });
}

int main(int Argc, char **Argv) {
  InitLLVM X(Argc, Argv);
  return runTool(Argc, Argv,
                 "dan-replay: measure a schedule: peak L1+UB residency, "
                 "extra DDR traffic, spill count, makespan and its lower "
                 "bounds\n",
                 replayInput);
}
