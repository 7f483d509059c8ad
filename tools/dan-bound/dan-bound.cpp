//===- dan-bound.cpp - Lower bounds that hold for every schedule ----------===//
//
// Verifies a graph and prints lower bounds on its metrics that no schedule
// beats, each with the method that proves it (lib/Analysis/Bounds.cpp,
// docs/Bounds.md): the stage-1 peak L1+UB, the extra DDR traffic of a plan
// of the file's order, and the makespan.
//
//===----------------------------------------------------------------------===//

#include "ToolSupport.h"
#include "dan/Analysis/Bounds.h"
#include "dan/Report/Document.h"
#include "llvm/Support/Format.h"
#include "llvm/Support/InitLLVM.h"
#include "llvm/Support/JSON.h"

using namespace llvm;
using namespace dan;
using namespace dan::tool;

static cl::opt<std::string> InputPath(cl::Positional, cl::init("-"),
                                      cl::desc("<input .dan file>"),
                                      cl::cat(DANCategory));

static cl::opt<std::string>
    OutputPath("o", cl::init("-"), cl::value_desc("path"),
               cl::desc("Write the bounds here (default: stdout)"),
               cl::cat(DANCategory));

static const EnumEntry<ReportFormat> Formats[] = {
    {ReportFormat::Text, "text", "one section per metric (default)"},
    {ReportFormat::JSON, "json",
     "one object: per section its bounds (method, value, where) and the "
     "best"},
};
static cl::opt<ReportFormat> OutFormat("format", cl::init(ReportFormat::Text),
                                       cl::desc("Output format"),
                                       enumValues<ReportFormat>(Formats),
                                       cl::cat(DANCategory));

static cl::opt<L0Rule> L0("l0", cl::init(L0Rule::Single),
                          cl::desc("Which schedules the peak bounds hold for"),
                          enumValues(l0RuleTable()), cl::cat(DANCategory));

static cl::opt<unsigned>
    WindowOps("window", cl::init(PeakBoundOptions().WindowOps),
              cl::value_desc("N"),
              cl::desc("Operations in each subproblem solved exactly, 1 to "
                       "64 (default 40)"),
              cl::Hidden, cl::cat(TuningCategory));

static cl::opt<uint64_t> States(
    "states", cl::init(PeakBoundOptions().StatesPerWindow), cl::value_desc("N"),
    cl::desc("States the exact search of one subproblem may expand (default "
             "5000; sixteen times that in all); a search cut off still "
             "proves the peak it reached"),
    cl::Hidden, cl::cat(TuningCategory));

/// The schedules a peak bound holds for, as the end of its title.
static std::string ruleTitle(L0Rule R) {
  switch (R) {
  case L0Rule::Single:
    return " with one live buffer per L0 tier";
  case L0Rule::Capacity:
    return " whose live L0 bytes stay within each tier";
  case L0Rule::Ignore:
    return "";
  }
  return "";
}

/// One section: its title, each bound, and the best of them.
static void printSection(raw_ostream &OS, StringRef Title,
                         ArrayRef<LowerBound> Bounds) {
  OS << Title << ":\n";
  for (const LowerBound &B : Bounds) {
    OS << "  " << left_justify(B.Method, 18) << format_decimal(B.Value, 10);
    if (!B.Where.empty())
      OS << "   " << B.Where;
    OS << '\n';
  }
  OS << "  " << left_justify("best", 18) << format_decimal(bestOf(Bounds), 10)
     << '\n';
}

/// --format=json: one section as an attribute of \p J.
static void jsonSection(json::OStream &J, StringRef Key,
                        ArrayRef<LowerBound> Bounds) {
  J.attributeObject(Key, [&] {
    J.attributeArray("bounds", [&] {
      for (const LowerBound &B : Bounds)
        J.object([&] {
          J.attribute("method", B.Method);
          J.attribute("value", B.Value);
          J.attribute("where", B.Where);
        });
    });
    J.attribute("best", bestOf(Bounds));
  });
}

static Error boundInput(SourceMgr &SM) {
  if (WindowOps < 1 || WindowOps > 64)
    return usageError("--window takes 1 to 64 operations, not " +
                      Twine(WindowOps));
  if (Error E = checkOutputIsNotInput("-o", OutputPath, {InputPath}))
    return E;
  Expected<std::unique_ptr<Graph>> G = readIR(SM, InputPath);
  if (!G)
    return G.takeError();
  if (Error E = applyTargetOptions(**G))
    return E;
  const TargetDesc &T = (*G)->Target;
  if (Error E = verifyAndReport(**G, T, VerifyOptions(), SM, InputPath))
    return E;
  PeakBoundOptions Opts;
  Opts.L0 = L0;
  Opts.WindowOps = WindowOps;
  Opts.StatesPerWindow = States;
  Expected<std::vector<LowerBound>> Peak = peakLowerBounds(**G, T, Opts);
  if (!Peak)
    return Peak.takeError();
  std::vector<LowerBound> Makespan = makespanLowerBounds(**G, T);
  OrderBounds Order = orderLowerBounds(**G, T);
  const LowerBound &Traffic = Order.Traffic;
  // The bounds of every plan hold for those of this order too.
  std::vector<LowerBound> OrderMakespan = {Order.Makespan};
  OrderMakespan.insert(OrderMakespan.end(), Makespan.begin(), Makespan.end());
  bool Planned = (*G)->hasMemoryPlan();
  if (OutFormat == ReportFormat::JSON)
    return writeOutput(OutputPath, [&](raw_ostream &OS) {
      json::OStream J(OS, 2);
      J.object([&] {
        J.attribute("graph", (*G)->Name);
        J.attribute("l0", enumName<L0Rule>(l0RuleTable(), L0));
        jsonSection(J, "peak_l1ub", *Peak);
        jsonSection(J, "extra_ddr_traffic_of_this_order", Traffic);
        if (!Planned)
          jsonSection(J, "makespan_of_this_order", OrderMakespan);
        jsonSection(J, Planned ? "makespan_of_this_plan" : "makespan",
                    Makespan);
      });
      OS << "\n";
    });
  return writeOutput(OutputPath, [&](raw_ostream &OS) {
    OS << "dan-bound: @" << (*G)->Name << "\n";
    printSection(OS,
                 "peak " + (*G)->Target.peakTierNames() +
                     " of every stage-1 schedule" + ruleTitle(L0),
                 *Peak);
    printSection(OS, "extra DDR traffic of every plan that keeps this order",
                 Traffic);
    if (!Planned)
      printSection(OS, "makespan of every plan that keeps this order",
                   OrderMakespan);
    printSection(OS,
                 Planned ? "makespan of every schedule of this plan"
                         : "makespan of every plan and schedule",
                 Makespan);
  });
}

int main(int Argc, char **Argv) {
  InitLLVM X(Argc, Argv);
  return runTool(
      Argc, Argv,
      "dan-bound: lower bounds on the peak (L1+UB on Davinci) and the "
      "makespan that hold for every schedule of a graph\n",
      boundInput);
}
