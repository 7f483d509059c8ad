//===- dan-translate.cpp - Convert between DAN IR and the contest formats -===//
//
// Chooses a reader and a writer of lib/Formats (dan/Formats/Formats.h lists
// the formats) and drives them: which files are read, where the output goes.
//
//===----------------------------------------------------------------------===//

#include "ToolSupport.h"
#include "dan/Analysis/Verifier.h"
#include "dan/Formats/CSV.h"
#include "dan/Formats/Formats.h"
#include "dan/Formats/JSON.h"
#include "dan/Formats/Submission.h"
#include "dan/IR/Components.h"
#include "dan/IR/MemoryPlan.h"
#include "llvm/Support/FileSystem.h"
#include "llvm/Support/InitLLVM.h"
#include "llvm/Support/Path.h"

using namespace llvm;
using namespace dan;
using namespace dan::tool;

static cl::list<std::string> Inputs(cl::Positional, cl::desc("<input files>"),
                                    cl::cat(DANCategory));

static cl::opt<ImportFormat> Import("import", cl::init(ImportFormat::IR),
                                    cl::desc("Input format"),
                                    enumValues<ImportFormat>(importFormats()),
                                    cl::cat(DANCategory));

static cl::opt<ExportFormat> Export("export", cl::init(ExportFormat::IR),
                                    cl::desc("Output format"),
                                    enumValues<ExportFormat>(exportFormats()),
                                    cl::cat(DANCategory));

static cl::opt<std::string>
    OutputPath("o", cl::init("-"), cl::value_desc("path"),
               cl::desc("Output file, or directory for --export=submission "
                        "(default: stdout)"),
               cl::cat(DANCategory));

static cl::opt<bool>
    Renumber("renumber",
             cl::desc("Rewrite the node ids as 0 to N-1, in the order of the "
                      "old ids, and the k-th spill to run as N + 2k and "
                      "N + 2k + 1, as the contest numbers them"),
             cl::cat(DANCategory));

static cl::opt<bool> FixPlan(
    "fix-plan",
    cl::desc("Make a hand-edited memory plan consistent: renumber the spills "
             "in schedule order, add missing spill edges, recompute the "
             "reuse edges from the offsets and the order"),
    cl::cat(DANCategory));

static cl::opt<bool> AddLifetimeEdges(
    "add-lifetime-edges",
    cl::desc("Add the edges a buffer's lifetime implies where no path "
             "orders a use: from its alloc to the use, and from the use to "
             "its free (a hand-written graph may leave them out; every "
             "stage needs them)"),
    cl::cat(DANCategory));

static cl::opt<bool>
    StripPlan("strip-plan",
              cl::desc("Remove the memory plan (spill nodes, offsets, reuse "
                       "edges): back to a stage-1 graph"),
              cl::cat(DANCategory));

static cl::opt<std::string>
    Focus("focus", cl::value_desc("nK"),
          cl::desc("--export=dot: draw only the nodes within --depth edges "
                   "of node nK"),
          cl::cat(DANCategory));

static cl::opt<unsigned>
    Depth("depth", cl::init(2), cl::value_desc("N"),
          cl::desc("--focus: how many edges away from the node to draw "
                   "(default 2)"),
          cl::cat(DANCategory));

static cl::opt<bool> PrintTarget(
    "print-target",
    cl::desc("Write the input's target instead of the graph: its whole "
             "description, every value written, with --capacity and "
             "--spill-cost applied"),
    cl::cat(DANCategory));

/// --focus: the part of \p G around the node it names, for a picture.
static Expected<std::unique_ptr<Graph>> focusedPart(const Graph &G) {
  uint64_t Id;
  if (!StringRef(Focus).starts_with("n") ||
      StringRef(Focus).drop_front().getAsInteger(10, Id))
    return usageError("invalid --focus '" + Focus +
                      "': expected a node id such as n42");
  NodeIdx Center = G.idIndex().lookup(Id);
  if (Center == IdIndex::None)
    return createStringError(inconvertibleErrorCode(),
                             "--focus: graph " + G.Name + " has no node " +
                                 Focus);
  return extractPart(G, neighbourhood(G, Center, Depth));
}

/// Reads the graph named by the positional inputs in the --import format.
static Expected<std::unique_ptr<Graph>> readGraph(SourceMgr &SM) {
  InputCount N = inputCount(Import);
  if (Inputs.size() < N.Min || Inputs.size() > N.Max)
    return usageError(
        "--import=" + enumName(importFormats(), Import.getValue()) + " takes " +
        (N.Min == N.Max ? Twine(N.Min) : Twine(N.Min) + " or " + Twine(N.Max)) +
        " input file" + (N.Max > 1 ? "s" : "") + ", not " +
        Twine(Inputs.size()));
  std::vector<std::string> Paths(Inputs.begin(), Inputs.end());
  // A CSV nodes file alone: its edges file beside it.
  if (Import == ImportFormat::CSV && Paths.size() == 1) {
    Expected<std::string> Edges = csvEdgesPath(Paths[0]);
    if (!Edges)
      return usageError(toString(Edges.takeError()));
    Paths.push_back(*Edges);
  }
  Expected<std::unique_ptr<Graph>> G = importFiles(
      Import, SM, Paths, [&](StringRef Path) { return readInput(SM, Path); },
      optionTarget(), maxInputSize());
  // A reader prints its diagnostics as it finds them.
  if (G && !*G)
    return reportedError(ExitInvalid);
  return G;
}

static Error writeSubmission(const Graph &G) {
  if (OutputPath == "-")
    return usageError("--export=submission writes three files: give a "
                      "directory with -o DIR");
  Expected<Submission> S = exportSubmission(G);
  if (!S)
    return S.takeError();
  // A failed export takes the folders it made away again.
  std::vector<std::string> Made;
  if (Error E = makeFolder(OutputPath, &Made))
    return E;
  std::vector<std::string> Paths = submissionPaths(OutputPath, G.Name);
  std::vector<std::pair<std::string, std::string>> Files = {
      {Paths[0], S->Schedule}};
  std::vector<std::string> Stale;
  // Without a plan there is only a schedule; memory and spill files left by
  // an earlier export of this graph would no longer belong to it.
  if (G.hasMemoryPlan()) {
    Files.emplace_back(Paths[1], S->Memory);
    Files.emplace_back(Paths[2], S->Spill);
  } else {
    Stale.assign(Paths.begin() + 1, Paths.end());
  }
  Error E = writeOutputs(Files, Stale);
  if (E) // writeOutputs left no file behind
    removeFolders(Made);
  return E;
}

static Error translate(SourceMgr &SM) {
  if (FixPlan && StripPlan)
    return usageError("--fix-plan and --strip-plan exclude each other");
  if ((Focus.getNumOccurrences() || Depth.getNumOccurrences()) &&
      Export != ExportFormat::Dot)
    return usageError("--focus and --depth draw part of a graph: they go "
                      "with --export=dot only");
  if (Depth.getNumOccurrences() && !Focus.getNumOccurrences())
    return usageError("--depth needs --focus=nK");
  if (PrintTarget && Export != ExportFormat::IR)
    return usageError("--print-target writes IR text: it goes with "
                      "--export=ir only");
  // Output in another format than the input must not replace it; IR to IR
  // and JSON to JSON may (the write is atomic).
  bool SameFormat =
      (Import == ImportFormat::IR && Export == ExportFormat::IR) ||
      (Import == ImportFormat::JSON && Export == ExportFormat::JSON);
  if (!SameFormat)
    if (Error E = checkOutputIsNotInput("-o", OutputPath, Inputs))
      return E;
  // The inputs named may be replaced in their own format; nothing else
  // read (a CSV edges file or a submission's files found beside them, a
  // target description) may.
  if (SameFormat) {
    for (const std::string &Input : Inputs)
      allowOutputOver(Input);
    if (Inputs.empty()) // standard input
      allowOutputOver("-");
  }

  Expected<std::unique_ptr<Graph>> Read = readGraph(SM);
  if (!Read)
    return Read.takeError();
  Graph &G = **Read;
  // An IR file's target header, or the defaults for the formats that have
  // none; the options on top. The IR output records the result.
  if (Error E = applyTargetOptions(G))
    return E;
  if (PrintTarget)
    return writeOutput(OutputPath, [&](raw_ostream &OS) {
      G.Target.printDescription(OS);
      OS << '\n';
    });
  if (StripPlan)
    stripMemoryPlan(G);
  if (FixPlan)
    if (Error E = fixMemoryPlan(G))
      return E;
  if (AddLifetimeEdges)
    if (Expected<unsigned> Added = addLifetimeEdges(G); !Added)
      return Added.takeError();
  if (Renumber)
    G.renumberDensely();

  if (!isStreamFormat(Export))
    return writeSubmission(G);
  // --focus: the neighbourhood of one node, for a picture of a large graph.
  std::unique_ptr<Graph> Part;
  if (Focus.getNumOccurrences()) {
    Expected<std::unique_ptr<Graph>> P = focusedPart(G);
    if (!P)
      return P.takeError();
    Part = std::move(*P);
  }
  const Graph &Out = Part ? *Part : G;
  return writeOutput(OutputPath,
                     [&](raw_ostream &OS) { exportGraph(Export, Out, OS); });
}

int main(int Argc, char **Argv) {
  InitLLVM X(Argc, Argv);
  return runTool(Argc, Argv,
                 "dan-translate: convert between DAN IR and the contest's "
                 "JSON, CSV and submission formats\n",
                 translate);
}
