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

static Error verifyInput(SourceMgr &SM) {
  if (Against.getNumOccurrences() && Against.empty())
    return usageError("--against needs a file name");
  Expected<std::unique_ptr<Graph>> G = readIR(SM, InputPath);
  if (!G)
    return G.takeError();
  // Judged under the file's own target, with the options on top.
  if (Error E = applyTargetOptions(**G))
    return E;
  std::unique_ptr<Graph> Stage2;
  if (!Against.empty()) {
    Expected<std::unique_ptr<Graph>> S = readIR(SM, Against);
    if (!S)
      return S.takeError();
    Stage2 = std::move(*S);
  }

  VerifyOptions Opts;
  Opts.L0Single = L0Single;
  Opts.Against = Stage2.get();
  Opts.ErrorLimit = ErrorLimit;
  Opts.ShowAllHint = "--error-limit=0 shows them all";
  if (Error E = verifyAndReport(**G, (*G)->Target, Opts, SM, InputPath))
    return E;
  if (!Summary)
    return Error::success();
  Graph::Counts C = (*G)->counts();
  outs() << (*G)->Name << ": valid: " << countOf((*G)->size(), "node") << ", "
         << countOf(C.Edges, "edge") << ", " << countOf(C.Buffers, "buffer")
         << ", ";
  if ((*G)->hasMemoryPlan())
    outs() << "memory plan with " << countOf(C.Spills, "spill") << " and "
           << countOf(C.ReuseEdges, "reuse edge") << "\n";
  else
    outs() << "no memory plan\n";
  return finishStdout();
}

int main(int Argc, char **Argv) {
  InitLLVM X(Argc, Argv);
  return runTool(Argc, Argv,
                 "dan-verify: check a DAN graph, its schedule and its "
                 "memory plan\n",
                 verifyInput);
}
