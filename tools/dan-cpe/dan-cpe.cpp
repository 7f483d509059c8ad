//===- dan-cpe.cpp - Stage 3: critical path enhancement -------------------===//

#include "ToolSupport.h"
#include "dan/Passes/Pipeline.h"
#include "llvm/Support/InitLLVM.h"
#include <string>

using namespace llvm;
using namespace dan;
using namespace dan::tool;

/// The options' defaults: the pass's own.
static const StagePass Defaults = defaultPass(StageKind::CPE);

static cl::opt<CPEMode> Mode("mode", cl::init(Defaults.CPE.Mode),
                             cl::desc("What the stage does"),
                             enumValues(cpeModeTable()), cl::cat(DANCategory));

static cl::opt<CPEMoveSet> MoveSet("move", cl::init(Defaults.CPE.Moves),
                                   cl::desc("Which nodes a move may carry"),
                                   enumValues(cpeMoveSetTable()), cl::Hidden,
                                   cl::cat(TuningCategory));

static cl::opt<CPEStart> Start("start", cl::init(Defaults.CPE.Start),
                               cl::desc("Where the search starts"),
                               enumValues(cpeStartTable()), cl::Hidden,
                               cl::cat(TuningCategory));

static cl::opt<unsigned>
    Window("window", cl::init(Defaults.CPE.Window), cl::value_desc("W"),
           cl::desc("Neighbourhood of a critical node: the nodes at most W "
                    "schedule positions away from it (default 16)"),
           cl::Hidden, cl::cat(TuningCategory));

static cl::opt<unsigned>
    Passes("passes", cl::init(Defaults.CPE.Passes), cl::value_desc("P"),
           cl::desc("At most P passes; a pass that accepts no move ends "
                    "the search (default 8)"),
           cl::Hidden, cl::cat(TuningCategory));

static cl::opt<uint64_t> MaxCandidates(
    "max-candidates", cl::init(Defaults.CPE.MaxCandidates), cl::value_desc("N"),
    cl::desc("At most N candidate moves timed per pass; 0 for no limit "
             "(default 4000)"),
    cl::Hidden, cl::cat(TuningCategory));

// cl::desc keeps a StringRef: the text must outlive the option.
static const std::string EffortDesc =
    "Stop once the candidates have retimed K times (nodes + edges) nodes in "
    "all, K a whole number, or --min-retimes if that is more; 0 for no "
    "limit (default " +
    std::to_string(Defaults.CPE.Effort) + ")";
static const std::string MinRetimesDesc =
    "The least number of retimed nodes --effort allows (default " +
    std::to_string(Defaults.CPE.MinRetimes) + ")";
static cl::opt<uint64_t> Effort("effort", cl::init(Defaults.CPE.Effort),
                                cl::value_desc("K"), cl::desc(EffortDesc),
                                cl::cat(DANCategory));
static cl::opt<uint64_t> MinRetimes("min-retimes",
                                    cl::init(Defaults.CPE.MinRetimes),
                                    cl::value_desc("N"),
                                    cl::desc(MinRetimesDesc), cl::Hidden,
                                    cl::cat(TuningCategory));

static cl::opt<double, false, NonNegativeParser> TimeBudget(
    "time-budget", cl::init(0), cl::value_desc("SECONDS"),
    cl::desc("Try no further candidate after SECONDS of search (wall clock; "
             "the result then depends on the machine); 0 for no limit "
             "(default)"),
    cl::Hidden, cl::cat(TuningCategory));

static cl::opt<uint64_t> DenseAfter(
    "dense-after", cl::init(Defaults.CPE.DenseAfter), cl::value_desc("N"),
    cl::desc("Retime a candidate by a forward walk once N finish times have "
             "changed, back to the queue once the walk has passed 4N positions "
             "more than it retimed (a tuning knob for tests: the result is the "
             "same for every N)"),
    cl::Hidden, cl::cat(TuningCategory));

/// The pass the command line asks for.
static StagePass passFromOptions() {
  StagePass P = Defaults;
  P.CPE.Mode = Mode;
  P.CPE.Moves = MoveSet;
  P.CPE.Start = Start;
  P.CPE.Window = Window;
  P.CPE.Passes = Passes;
  P.CPE.MaxCandidates = MaxCandidates;
  P.CPE.Effort = Effort;
  P.CPE.MinRetimes = MinRetimes;
  P.CPE.TimeBudget = TimeBudget;
  P.CPE.DenseAfter = DenseAfter;
  return P;
}

int main(int Argc, char **Argv) {
  InitLLVM X(Argc, Argv);
  return runStageTool(
      Argc, Argv,
      "dan-cpe: stage 3, a schedule with a lower makespan and the same "
      "memory plan\n\n"
      "  Starts from the input and from a list schedule that keeps each\n"
      "  tier's order of buffer nodes and the order of the spills, then\n"
      "  moves operations (and, with --move=ops-and-buffers, buffer nodes\n"
      "  across operations but never past each other), so every offset,\n"
      "  spill node, spill edge, reuse edge and tier peak stays as stage 2\n"
      "  made it; the output passes 'dan-verify --against INPUT'. With\n"
      "  --mode=ignore the search times the plan without its reuse edges:\n"
      "  the output is not a stage-3 result, only a diagnostic.\n",
      [](Graph &G, const TargetDesc &T, raw_ostream *Stats) {
        return runStagePass(G, T, passFromOptions(), toolThreads(), Stats,
                            statsAsJSON());
      });
}
