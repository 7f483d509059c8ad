//===- dan-dlr.cpp - Stage 2: memory plan for a scheduled graph -----------===//
//
// Reads a graph without a memory plan, in a legal schedule, and writes it
// with one: offsets, spill nodes and the edges they imply (docs/DLR.md,
// docs/CommandGuide/dan-dlr.md).
//
//===----------------------------------------------------------------------===//

#include "ToolSupport.h"
#include "dan/Passes/Pipeline.h"
#include "llvm/Support/InitLLVM.h"

using namespace llvm;
using namespace dan;
using namespace dan::tool;

/// The options' defaults: the pass's own.
static const StagePass Defaults = defaultPass(StageKind::DLR);

static cl::opt<FitPolicy>
    Fit("fit", cl::desc("How a placement chooses its free segment"),
        cl::init(Defaults.DLR.Fit), enumValues(fitPolicyTable()), cl::Hidden,
        cl::cat(TuningCategory));

static cl::opt<EvictPolicy>
    Evict("evict",
          cl::desc("How a victim is chosen in L1 and UB (L0 tiers always "
                   "flush eagerly)"),
          cl::init(Defaults.DLR.Evict),
          enumValues(evictPolicyTable().take_front(UserEvictPolicies)),
          cl::Hidden, cl::cat(TuningCategory));

static cl::opt<VictimSet>
    Victims("victims", cl::init(Defaults.DLR.Victims),
            cl::desc("Which buffers a placement that does not fit evicts"),
            enumValues(victimSetTable()), cl::Hidden, cl::cat(TuningCategory));

static cl::opt<double, false, NonNegativeParser>
    LambdaByte("lambda-byte", cl::init(Defaults.DLR.LambdaByte),
               cl::value_desc("X"),
               cl::desc("Weight of a spill's extra traffic in the cost score "
                        "(default 1)"),
               cl::Hidden, cl::cat(TuningCategory));

static cl::opt<double, false, NonNegativeParser>
    LambdaCyc("lambda-cyc", cl::init(Defaults.DLR.LambdaCyc),
              cl::value_desc("X"),
              cl::desc("Weight of a spill's cycles in the cost score "
                       "(default 1)"),
              cl::Hidden, cl::cat(TuningCategory));

static cl::opt<std::string> Horizon(
    "horizon", cl::init(passOption(StageKind::DLR, "horizon").Get(Defaults)),
    cl::value_desc("auto|off|N"),
    cl::desc("Release horizon: when room is needed, evict first the least "
             "recently used buffer not needed for N schedule positions; "
             "'auto' plans with none, 800, 400 and 200 and keeps the least "
             "makespan + beta * extra traffic, then the least traffic, then "
             "the lowest makespan (default auto)"),
    cl::Hidden, cl::cat(TuningCategory));

/// The pass the command line asks for; --horizon's value is checked
/// before (the option check).
static StagePass passFromOptions() {
  StagePass P = Defaults;
  P.DLR.Fit = Fit;
  P.DLR.Evict = Evict;
  P.DLR.Victims = Victims;
  P.DLR.LambdaByte = LambdaByte;
  P.DLR.LambdaCyc = LambdaCyc;
  cantFail(passOption(StageKind::DLR, "horizon").Set(P, Horizon));
  return P;
}

int main(int Argc, char **Argv) {
  InitLLVM X(Argc, Argv);
  return runStageTool(
      Argc, Argv,
      "dan-dlr: stage 2, place every buffer and insert spills (deterministic "
      "linear repackaging)\n",
      [](Graph &G, const TargetDesc &T, raw_ostream *Stats) {
        return runStagePass(G, T, passFromOptions(), toolThreads(), Stats,
                            statsAsJSON());
      },
      []() -> Error {
        StagePass P = Defaults;
        if (Error E = passOption(StageKind::DLR, "horizon").Set(P, Horizon))
          return usageError("invalid --horizon '" + Horizon +
                            "': " + toString(std::move(E)));
        return Error::success();
      });
}
