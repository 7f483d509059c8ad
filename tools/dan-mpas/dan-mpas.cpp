//===- dan-mpas.cpp - Stage 1: memory-pressure-aware ordering -------------===//

#include "ToolSupport.h"
#include "dan/Passes/Pipeline.h"
#include "llvm/Support/InitLLVM.h"

using namespace llvm;
using namespace dan;
using namespace dan::tool;

/// The options' defaults: the pass's own.
static const StagePass Defaults = defaultPass(StageKind::MPAS);

static cl::opt<L0Mode> L0("l0", cl::init(Defaults.MPAS.L0),
                          cl::desc("How the L0 tiers constrain the order"),
                          enumValues(l0ModeTable()), cl::cat(DANCategory));

static cl::opt<MPASWeights>
    Weights("weights", cl::init(Defaults.MPAS.Weights),
            cl::desc("Priority of the ready nodes (the paper's figure 7)"),
            enumValues(weightsTable()), cl::Hidden, cl::cat(TuningCategory));

static cl::opt<AllocChoice>
    Allocs("allocs", cl::init(Defaults.MPAS.Allocs),
           cl::desc("Which ALLOC to take when no FREE or operation is ready"),
           enumValues(allocChoiceTable()), cl::Hidden, cl::cat(TuningCategory));

static cl::opt<MPASObjective>
    Objective("objective", cl::init(Defaults.MPAS.Objective),
              cl::desc("What the demand-driven alloc choice minimizes first"),
              enumValues(objectiveTable()), cl::cat(DANCategory));

static cl::opt<Traversal> Order(
    "order", cl::init(Defaults.MPAS.Order),
    cl::desc("The order in which independent tasks are taken, or the input "
             "order kept"),
    enumValues(traversalTable()), cl::cat(DANCategory));

static cl::opt<unsigned>
    Group("group", cl::init(Defaults.MPAS.Group), cl::value_desc("N"),
          cl::desc("With --order=groups: tasks per group, 0 for all at once "
                   "(default 2; --order=auto tries 1, 2, 4 and all)"),
          cl::Hidden, cl::cat(TuningCategory));

static cl::opt<bool> Place(
    "place", cl::init(Defaults.MPAS.Place),
    cl::desc("End with the placement step: every ALLOC and its COPY_IN as "
             "late, every FREE as early as the order allows (default on; "
             "--l0=auto also plans the best two orders without it)"),
    cl::Hidden, cl::cat(TuningCategory));

static cl::opt<size_t> SampleAbove(
    "sample-above", cl::init(Defaults.SampleAbove), cl::value_desc("N"),
    cl::desc("With --l0=auto and --order=auto, on a graph of more than N "
             "nodes whose tasks form no reuse grid, or that has no tasks: "
             "rank the candidates on its first tasks (at most N/2 nodes, at "
             "least eight) or its first operations (N/2 nodes), then order "
             "and plan the best two, each with the weighting it kept, on the "
             "whole graph; 0 for always the whole graph (default 200000)"),
    cl::Hidden, cl::cat(TuningCategory));

/// The pass the command line asks for.
static StagePass passFromOptions() {
  StagePass P = Defaults;
  P.MPAS.L0 = L0;
  P.MPAS.Weights = Weights;
  P.MPAS.Allocs = Allocs;
  P.MPAS.Objective = Objective;
  P.MPAS.Order = Order;
  P.MPAS.Group = Group;
  P.GroupGiven = Group.getNumOccurrences();
  P.MPAS.Place = Place;
  P.SampleAbove = SampleAbove;
  return P;
}

int main(int Argc, char **Argv) {
  InitLLVM X(Argc, Argv);
  return runStageTool(
      Argc, Argv,
      "dan-mpas: stage 1, a legal order with low peak L1+UB residency\n",
      [](Graph &G, const TargetDesc &T, raw_ostream *Stats) {
        return runStagePass(G, T, passFromOptions(), toolThreads(), Stats,
                            statsAsJSON());
      },
      [] { return asUsageError(checkPassOptions(passFromOptions(), "--")); });
}
