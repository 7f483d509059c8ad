//===- dan-verify.cpp - Judge a DAN graph, its schedule and its plan ------===//

#include "ToolSupport.h"
#include "dan/Analysis/Verifier.h"
#include "dan/IR/Diagnostic.h"
#include "llvm/Support/InitLLVM.h"

using namespace llvm;
using namespace dan;
using namespace dan::tool;

static cl::opt<std::string> InputPath(cl::Positional, cl::init("-"),
                                      cl::desc("<input .dan file>"),
                                      cl::cat(DANCategory));

static cl::opt<std::string>
    Against("against", cl::value_desc("STAGE2.dan"),
            cl::desc("Also check that the input keeps the memory plan of "
                     "this stage-2 file (same offsets, same spill stream, "
                     "every reuse edge)"),
            cl::cat(DANCategory));

static cl::opt<bool>
    L0Single("l0-single",
             cl::desc("Also check the stage-1 rule: at most one live buffer "
                      "per L0 tier"),
             cl::cat(DANCategory));

static cl::opt<unsigned>
    ErrorLimit("error-limit", cl::init(20), cl::value_desc("N"),
               cl::desc("Stop after N errors; 0 reports them all "
                        "(default 20)"),
               cl::cat(DANCategory));

static cl::opt<bool>
    Summary("summary",
            cl::desc("Print one line about the graph to stdout when it "
                     "verifies"),
            cl::cat(DANCategory));

int main(int Argc, char **Argv) {
  InitLLVM X(Argc, Argv);
  parseCommandLine(Argc, Argv,
                   "dan-verify: check a DAN graph, its schedule and its "
                   "memory plan\n");
  TargetDesc Target = targetFromOptions();

  SourceMgr SM;
  int Status = ExitSuccess;
  std::unique_ptr<Graph> G = readIR(SM, InputPath, Status);
  if (!G)
    return Status;
  std::unique_ptr<Graph> Stage2;
  if (!Against.empty()) {
    Stage2 = readIR(SM, Against, Status);
    if (!Stage2)
      return Status;
  }

  VerifyOptions Opts;
  Opts.L0Single = L0Single;
  Opts.Against = Stage2.get();
  Opts.ErrorLimit = ErrorLimit;
  if (verifyAndReport(*G, Target, Opts, SM, InputPath))
    return ExitInvalid;
  if (Summary) {
    size_t Edges = 0, Reuse = 0, Spills = 0, Buffers = 0;
    for (const Node &N : G->Nodes) {
      Edges += N.Preds.size();
      Reuse += N.ReusePreds.size();
      Spills += N.Kind == NodeKind::SpillOut;
      Buffers += N.Kind == NodeKind::Alloc;
    }
    outs() << G->Name << ": valid: " << countOf(G->size(), "node") << ", "
           << countOf(Edges, "edge") << ", " << countOf(Buffers, "buffer")
           << ", ";
    if (G->hasMemoryPlan())
      outs() << "memory plan with " << countOf(Spills, "spill") << " and "
             << countOf(Reuse, "reuse edge") << "\n";
    else
      outs() << "no memory plan\n";
    if (!finishStdout())
      return ExitUsage;
  }
  return ExitSuccess;
}
