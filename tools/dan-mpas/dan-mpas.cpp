//===- dan-mpas.cpp - Stage 1: memory-pressure-aware ordering -------------===//

#include "ToolSupport.h"
#include "dan/Search/Search.h"
#include "llvm/Support/InitLLVM.h"
#include "llvm/Support/JSON.h"

using namespace llvm;
using namespace dan;
using namespace dan::tool;

static cl::opt<L0Mode> L0("l0", cl::init(L0Mode::Auto),
                          cl::desc("How the L0 tiers constrain the order"),
                          enumValues(l0ModeTable()), cl::cat(DANCategory));

static cl::opt<MPASWeights>
    Weights("weights", cl::init(MPASWeights::Auto),
            cl::desc("Priority of the ready nodes (the paper's figure 7)"),
            enumValues(weightsTable()), cl::cat(DANCategory));

static cl::opt<AllocChoice>
    Allocs("allocs", cl::init(AllocChoice::Demand),
           cl::desc("Which ALLOC to take when no FREE or operation is ready"),
           enumValues(allocChoiceTable()), cl::cat(DANCategory));

static cl::opt<MPASObjective>
    Objective("objective", cl::init(MPASObjective::Overflow),
              cl::desc("What the demand-driven alloc choice minimizes first"),
              enumValues(objectiveTable()), cl::cat(DANCategory));

static cl::opt<Traversal>
    Order("order", cl::init(Traversal::Auto),
          cl::desc("The order in which independent tasks are taken"),
          enumValues(traversalTable()), cl::cat(DANCategory));

static cl::opt<unsigned>
    Group("group", cl::init(2), cl::value_desc("N"),
          cl::desc("With --order=groups: tasks per group, 0 for all at once "
                   "(default 2; --order=auto tries 1, 2, 4 and all)"),
          cl::cat(DANCategory));

static cl::opt<bool> Place(
    "place", cl::init(true),
    cl::desc("End with the placement step: every ALLOC and its COPY_IN as "
             "late, every FREE as early as the order allows (default on; "
             "--l0=auto also tries each order without it)"),
    cl::cat(DANCategory));

/// How --stats names an order: "groups of N" or "groups of all" with the
/// group size.
static std::string orderName(Traversal O, unsigned G) {
  std::string Name = traversalName(O).str();
  if (O == Traversal::Groups)
    Name += G ? " of " + std::to_string(G) : " of all";
  return Name;
}

namespace {
enum class Strategy { MPAS, Input };
const EnumEntry<Strategy> Strategies[] = {
    {Strategy::MPAS, "mpas", "the MPAS greedy (default)"},
    {Strategy::Input, "input", "keep the input order (the Base schedule)"},
};
} // namespace
static cl::opt<Strategy> Strat("strategy", cl::init(Strategy::MPAS),
                               cl::desc("Ordering strategy"),
                               enumValues<Strategy>(Strategies),
                               cl::cat(DANCategory));

static cl::opt<unsigned, /*ExternalStorage=*/true> Threads(
    "threads", cl::location(ToolThreads), cl::init(0), cl::value_desc("N"),
    cl::desc("Threads that read a large input in pieces and run the "
             "candidates of the auto selections at once, 0 for one per "
             "hardware thread (default 0); the output is the same for any N"),
    cl::cat(DANCategory));

static cl::opt<size_t> SampleAbove(
    "sample-above", cl::init(SearchOptions().SampleAbove), cl::value_desc("N"),
    cl::desc("With --l0=auto and --order=auto, on a graph of more than N "
             "nodes whose tasks form no reuse grid, or that has no tasks: "
             "rank the candidates on its first tasks (at most N/2 nodes, at "
             "least eight) or its first operations (N/2 nodes), then order "
             "and plan the best two, each with the weighting it kept, on the "
             "whole graph; 0 for always the whole graph (default 200000)"),
    cl::cat(DANCategory));

/// Whether \p Trial is the candidate kept.
static bool isKept(const MPASStats &S, const MPASStats::L0Trial &Trial) {
  return Trial.Mode == S.L0Chosen && Trial.Order == S.OrderChosen &&
         Trial.Placed == S.Placed &&
         (Trial.Order != Traversal::Groups || Trial.Group == S.GroupChosen);
}

/// --stats: what the stage did, in lines.
static void printStats(raw_ostream &OS, const Graph &G, const MPASStats &S,
                       bool KeptInput) {
  OS << "dan-mpas: @" << G.Name << ": peak L1+UB " << S.PeakL1UB
     << ", L0 fallbacks " << S.Fallbacks << ", weights "
     << (S.Chosen ? weightsName(*S.Chosen) : "none");
  // The input order kept: no L0 rule and no traversal made it.
  if (KeptInput)
    OS << ", l0 none, order input\n";
  else
    OS << ", l0 " << l0ModeName(S.L0Chosen) << ", order "
       << orderName(S.OrderChosen, S.GroupChosen)
       << (S.Placed ? "" : ", not placed") << '\n';
  if (S.Tasks && S.Tasks->IsGrid)
    OS << "dan-mpas:   tasks: " << S.Tasks->Tasks << ", a reuse grid "
       << S.Tasks->Rows << " x " << S.Tasks->Cols << ": strips of "
       << (S.Tasks->StripsOfColumns ? "columns" : "rows") << ", "
       << S.Tasks->StripWidth << " wide, simulated reloads "
       << S.Tasks->SimulatedReloadBytes
       << " bytes (row by row: " << S.Tasks->RowWalkReloadBytes << ")\n";
  else if (S.Tasks)
    OS << "dan-mpas:   tasks: " << S.Tasks->Tasks
       << ", no reuse grid: in input order\n";
  auto PrintTrial = [&](StringRef Where, const MPASStats::L0Trial &Trial,
                        bool Kept) {
    OS << "dan-mpas:   " << Where << "tried l0 " << l0ModeName(Trial.Mode)
       << ", order " << orderName(Trial.Order, Trial.Group)
       << (Trial.Placed ? "" : ", not placed") << ": peak L1+UB "
       << Trial.PeakL1UB;
    if (Trial.Planned)
      OS << ", stage-2 traffic " << Trial.Traffic << ", makespan "
         << Trial.Makespan;
    else
      OS << ", dan-dlr cannot plan it";
    OS << (Kept ? " (kept)" : "") << '\n';
  };
  if (S.SampleNodes) {
    OS << "dan-mpas:   ranked on a sample: the first ";
    if (S.SampleTasks)
      OS << S.SampleTasks << " tasks, ";
    OS << S.SampleNodes << " nodes; the best " << S.L0Tried.size()
       << " tried on the whole graph\n";
    for (const MPASStats::L0Trial &Trial : S.SampleTried)
      PrintTrial("on the sample, ", Trial, false);
  }
  for (const MPASStats::L0Trial &Trial : S.L0Tried)
    PrintTrial("", Trial, isKept(S, Trial));
  for (auto [W, Peak] : S.Tried)
    OS << "dan-mpas:   tried " << weightsName(W) << ": peak L1+UB " << Peak
       << (W == S.Chosen ? " (kept)" : "") << '\n';
}

/// --stats-json: the same as one JSON object.
static void printStatsJSON(raw_ostream &OS, const Graph &G, const MPASStats &S,
                           bool KeptInput) {
  json::OStream J(OS, 2);
  J.object([&] {
    J.attribute("tool", "dan-mpas");
    J.attribute("graph", G.Name);
    J.attribute("peak_l1ub", S.PeakL1UB);
    J.attribute("l0_fallbacks", S.Fallbacks);
    J.attribute("weights",
                S.Chosen ? json::Value(weightsName(*S.Chosen)) : nullptr);
    J.attribute("l0", KeptInput ? json::Value(nullptr)
                                : json::Value(l0ModeName(S.L0Chosen)));
    J.attribute("order", KeptInput ? std::string("input")
                                   : orderName(S.OrderChosen, S.GroupChosen));
    J.attribute("placed", S.Placed);
    J.attribute("parts", uint64_t(S.Parts));
    if (S.Tasks)
      J.attributeObject("tasks", [&] {
        J.attribute("tasks", S.Tasks->Tasks);
        J.attribute("grid", S.Tasks->IsGrid);
        if (S.Tasks->IsGrid) {
          J.attribute("rows", S.Tasks->Rows);
          J.attribute("cols", S.Tasks->Cols);
          J.attribute("strips_of",
                      S.Tasks->StripsOfColumns ? "columns" : "rows");
          J.attribute("strip_width", S.Tasks->StripWidth);
          J.attribute("simulated_reload_bytes", S.Tasks->SimulatedReloadBytes);
          J.attribute("row_walk_reload_bytes", S.Tasks->RowWalkReloadBytes);
        }
      });
    auto Trials = [&](ArrayRef<MPASStats::L0Trial> List, bool MarkKept) {
      for (const MPASStats::L0Trial &Trial : List)
        J.object([&] {
          J.attribute("l0", l0ModeName(Trial.Mode));
          J.attribute("order", orderName(Trial.Order, Trial.Group));
          J.attribute("placed", Trial.Placed);
          J.attribute("peak_l1ub", Trial.PeakL1UB);
          J.attribute("planned", Trial.Planned);
          if (Trial.Planned) {
            J.attribute("stage2_traffic", Trial.Traffic);
            J.attribute("makespan", Trial.Makespan);
          }
          if (MarkKept)
            J.attribute("kept", isKept(S, Trial));
        });
    };
    if (S.SampleNodes)
      J.attributeObject("sample", [&] {
        if (S.SampleTasks)
          J.attribute("tasks", S.SampleTasks);
        J.attribute("nodes", uint64_t(S.SampleNodes));
        J.attributeArray("candidates", [&] { Trials(S.SampleTried, false); });
      });
    J.attributeArray("candidates", [&] { Trials(S.L0Tried, true); });
    J.attributeArray("weights_tried", [&] {
      for (auto [W, Peak] : S.Tried)
        J.object([&] {
          J.attribute("weights", weightsName(W));
          J.attribute("peak_l1ub", Peak);
          J.attribute("kept", W == S.Chosen);
        });
    });
  });
  OS << "\n";
}

int main(int Argc, char **Argv) {
  InitLLVM X(Argc, Argv);
  return runStageTool(
      Argc, Argv,
      "dan-mpas: stage 1, a legal order with low peak L1+UB residency\n",
      [](Graph &G, const TargetDesc &T, raw_ostream *Stats) -> Error {
        MPASOptions Opts;
        Opts.L0 = L0;
        Opts.Weights = Weights;
        Opts.Allocs = Allocs;
        Opts.Objective = Objective;
        Opts.Order = Order;
        Opts.Group = Group;
        Opts.KeepInputOrder = Strat == Strategy::Input;
        Opts.Place = Place;
        // Without --stats no figure of a trial is printed.
        SearchOptions Search;
        Search.Threads = Threads;
        Search.SampleAbove = SampleAbove;
        Search.MeasureSoleOrder = Stats != nullptr;
        Expected<MPASStats> S = searchMPAS(G, T, Opts, Search);
        if (!S)
          return S.takeError();
        if (Stats && statsAsJSON())
          printStatsJSON(*Stats, G, *S, Opts.KeepInputOrder);
        else if (Stats)
          printStats(*Stats, G, *S, Opts.KeepInputOrder);
        return Error::success();
      },
      []() -> Error {
        bool Window = Order == Traversal::Window;
        bool Staged = Order == Traversal::Staged;
        if ((Window || Staged) && L0 != L0Mode::Auto &&
            L0 != L0Mode::Capacity && (Window || L0 != L0Mode::Single))
          return usageError(
              "--order=" + traversalName(Order) + " keeps the L0 tiers " +
              (Window ? "within capacity"
                      : "within capacity or to one live buffer each") +
              "; it cannot follow --l0=" + l0ModeName(L0));
        if (Group.getNumOccurrences() && Order != Traversal::Groups)
          return usageError("--group applies to --order=groups only");
        return Error::success();
      });
}
