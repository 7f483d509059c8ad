//===- dan-link.cpp - Join graphs into one --------------------------------===//
//
// The driver of linkGraphs (dan/IR/Link.h): reads graphs (DAN IR or contest
// JSON), repeats each --copies times, joins them with disjoint ids, side by
// side, one after another or streamed (--join), and writes one graph
// (docs/CommandGuide/dan-link.md).
//
//===----------------------------------------------------------------------===//

#include "ToolSupport.h"
#include "dan/Analysis/Verifier.h"
#include "dan/Formats/Formats.h"
#include "dan/IR/Link.h"
#include "dan/IR/Printer.h"
#include "llvm/Support/InitLLVM.h"

using namespace llvm;
using namespace dan;
using namespace dan::tool;

static cl::list<std::string> Inputs(cl::Positional,
                                    cl::desc("<input files> (default: stdin)"),
                                    cl::cat(DANCategory));

static cl::opt<unsigned>
    Copies("copies", cl::init(1), cl::value_desc("K"),
           cl::desc("Join K copies of each input, one after another "
                    "(default 1)"),
           cl::cat(DANCategory));

static cl::opt<LinkJoin> Join("join", cl::init(LinkJoin::Parallel),
                              cl::desc("How consecutive parts are joined"),
                              enumValues(linkJoinTable()),
                              cl::cat(DANCategory));

static cl::opt<std::string>
    Name("name", cl::value_desc("NAME"),
         cl::desc("Graph name of the result (default: the first input's "
                  "name, with _xK when there are K copies of one input, "
                  "else _linked)"),
         cl::cat(DANCategory));

static cl::opt<std::string> OutputPath("o", cl::init("-"),
                                       cl::value_desc("path"),
                                       cl::desc("Output file (default: "
                                                "stdout)"),
                                       cl::cat(DANCategory));

static Error link(SourceMgr &SM) {
  if (Inputs.empty())
    Inputs.push_back("-");
  if (Copies == 0)
    return usageError("--copies must be at least 1");
  if (Name.getNumOccurrences() && !isGraphName(Name))
    return usageError("--name '" + Name +
                      "' is not a graph name: use letters, digits and _ . $ -");
  if (count(Inputs, "-") > 1)
    return usageError("standard input ('-') can be read only once");
  if (Error E = checkOutputIsNotInput("-o", OutputPath, Inputs))
    return E;

  std::vector<std::unique_ptr<Graph>> Graphs;
  for (const std::string &Path : Inputs) {
    Expected<std::unique_ptr<Graph>> G = readAnyGraph(SM, Path);
    if (!G)
      return G.takeError();
    Graphs.push_back(std::move(*G));
  }
  // One target for the whole: the parts' own, once the options apply.
  if (Error E =
          checkOneTarget(Graphs, Inputs, "the linked graph has one target"))
    return E;
  // Each part a legal graph under that target, as a stage asks of its
  // input: a cycle or a buffer larger than its tier would pass into the
  // result, and the joins assume every part has a first and a last node.
  for (const auto &G : Graphs)
    if (Error E = verifyPassInput(*G, G->Target, "dan-link",
                                  /*Scheduled=*/false))
      return E;

  std::vector<const Graph *> Parts;
  for (const auto &G : Graphs)
    for (unsigned K = 0; K != Copies; ++K)
      Parts.push_back(G.get());
  std::string Result = Name;
  if (Result.empty())
    Result =
        Graphs[0]->Name + (Graphs.size() == 1 ? "_x" + std::to_string(Copies)
                                              : std::string("_linked"));
  Expected<std::unique_ptr<Graph>> Linked = linkGraphs(Parts, Result, Join);
  if (!Linked)
    return Linked.takeError();
  return writeOutput(OutputPath,
                     [&](raw_ostream &OS) { printGraph(**Linked, OS); });
}

int main(int Argc, char **Argv) {
  InitLLVM X(Argc, Argv);
  return runTool(Argc, Argv,
                 "dan-link: join DAN graphs (kernels) into one graph with "
                 "disjoint ids\n",
                 link);
}
