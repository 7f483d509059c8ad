//===- dan-translate.cpp - Convert between DAN IR and the contest formats -===//

#include "ToolSupport.h"
#include "dan/Formats/Export.h"
#include "dan/IR/MemoryPlan.h"
#include "dan/IR/Printer.h"
#include "dan/Parse/Import.h"
#include "dan/Parse/Parser.h"
#include "llvm/Support/FileSystem.h"
#include "llvm/Support/InitLLVM.h"
#include "llvm/Support/MemoryBuffer.h"
#include "llvm/Support/Path.h"

using namespace llvm;
using namespace dan;
using namespace dan::tool;

namespace {
enum class ImportFormat { IR, JSON, CSV, Submission };
enum class ExportFormat { IR, JSON, Submission, Dot };

const EnumEntry<ImportFormat> ImportFormats[] = {
    {ImportFormat::IR, "ir", "DAN IR (default)"},
    {ImportFormat::JSON, "json",
     "contest JSON: {\"Nodes\": [...], \"Edges\": [...]}"},
    {ImportFormat::CSV, "csv",
     "<name>_Nodes.csv and <name>_Edges.csv (give the nodes file, or both)"},
    {ImportFormat::Submission, "submission",
     "a graph (IR or JSON) and a directory or _schedule.txt path holding "
     "<name>_schedule.txt, _memory.txt, _spill.txt"},
};

const EnumEntry<ExportFormat> ExportFormats[] = {
    {ExportFormat::IR, "ir", "DAN IR (default)"},
    {ExportFormat::JSON, "json",
     "contest JSON, plus offsets, spill nodes and ReuseEdges when the graph "
     "has a memory plan (ReuseEdges also when it has reuse edges)"},
    {ExportFormat::Submission, "submission",
     "<graph>_schedule.txt, _memory.txt, _spill.txt in the directory given "
     "by -o"},
    {ExportFormat::Dot, "dot", "Graphviz DOT"},
};
} // namespace

static cl::list<std::string> Inputs(cl::Positional, cl::desc("<input files>"),
                                    cl::cat(DANCategory));

static cl::opt<ImportFormat> Import("import", cl::init(ImportFormat::IR),
                                    cl::desc("Input format"),
                                    enumValues<ImportFormat>(ImportFormats),
                                    cl::cat(DANCategory));

static cl::opt<ExportFormat> Export("export", cl::init(ExportFormat::IR),
                                    cl::desc("Output format"),
                                    enumValues<ExportFormat>(ExportFormats),
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

static cl::opt<bool>
    StripPlan("strip-plan",
              cl::desc("Remove the memory plan (spill nodes, offsets, reuse "
                       "edges): back to a stage-1 graph"),
              cl::cat(DANCategory));

/// Reads the graph named by the positional inputs in the --import format.
static Expected<std::unique_ptr<Graph>> readGraph(SourceMgr &SM) {
  auto Need = [&](size_t Min, size_t Max, StringRef What) -> Error {
    if (Inputs.size() >= Min && Inputs.size() <= Max)
      return Error::success();
    return usageError(
        "--import=" + What + " takes " +
        (Min == Max ? Twine(Min) : Twine(Min) + " or " + Twine(Max)) +
        " input file" + (Max > 1 ? "s" : "") + ", not " + Twine(Inputs.size()));
  };
  // The importers print their diagnostics as they find them.
  auto Parsed =
      [&](std::unique_ptr<Graph> G) -> Expected<std::unique_ptr<Graph>> {
    if (!G)
      return reportedError(ExitInvalid);
    return G;
  };

  switch (Import) {
  case ImportFormat::IR: {
    if (Error E = Need(0, 1, "ir"))
      return E;
    return readIR(SM, Inputs.empty() ? "-" : StringRef(Inputs[0]));
  }
  case ImportFormat::JSON: {
    if (Error E = Need(0, 1, "json"))
      return E;
    StringRef Path = Inputs.empty() ? "-" : StringRef(Inputs[0]);
    Expected<unsigned> ID = readInput(SM, Path);
    if (!ID)
      return ID.takeError();
    return Parsed(importJSON(SM, *ID, graphNameForFile(Path)));
  }
  case ImportFormat::CSV: {
    if (Error E = Need(1, 2, "csv"))
      return E;
    std::string NodesPath = Inputs[0], EdgesPath;
    StringRef Stem = sys::path::stem(NodesPath);
    if (Inputs.size() == 2) {
      EdgesPath = Inputs[1];
    } else if (Stem.ends_with("_Nodes")) {
      SmallString<128> P(sys::path::parent_path(NodesPath));
      sys::path::append(P, Stem.drop_back(strlen("_Nodes")) + "_Edges.csv");
      EdgesPath = std::string(P);
    } else {
      return usageError("cannot find the edges file for '" + NodesPath +
                        "': name it <name>_Nodes.csv or give both files");
    }
    Expected<unsigned> NodesID = readInput(SM, NodesPath);
    if (!NodesID)
      return NodesID.takeError();
    Expected<unsigned> EdgesID = readInput(SM, EdgesPath);
    if (!EdgesID)
      return EdgesID.takeError();
    StringRef Base =
        Stem.ends_with("_Nodes") ? Stem.drop_back(strlen("_Nodes")) : Stem;
    // graphNameForFile drops an extension: give Base one, so that a dot in
    // it ('conv.v2_Nodes.csv') is kept.
    std::string Name = graphNameForFile((Base + ".csv").str());
    return Parsed(importCSV(SM, *NodesID, *EdgesID, Name));
  }
  case ImportFormat::Submission: {
    if (Error E = Need(2, 2, "submission"))
      return E;
    StringRef GraphPath = Inputs[0];
    Expected<unsigned> ID = readInput(SM, GraphPath);
    if (!ID)
      return ID.takeError();
    std::unique_ptr<Graph> G =
        importGraph(SM, *ID, graphNameForFile(GraphPath));
    if (!G)
      return reportedError(ExitInvalid);
    // The triple is named after the graph: DIR/<name>_schedule.txt, or the
    // prefix of a given _schedule.txt path.
    std::string Prefix;
    StringRef Where = Inputs[1];
    if (Where.ends_with("_schedule.txt"))
      Prefix = Where.drop_back(strlen("schedule.txt")).str();
    else {
      SmallString<128> P(Where);
      sys::path::append(P, G->Name + "_");
      Prefix = std::string(P);
    }
    SubmissionBuffers Files;
    Expected<unsigned> Sched = readInput(SM, Prefix + "schedule.txt");
    if (!Sched)
      return Sched.takeError();
    Files.Schedule = *Sched;
    for (auto [Suffix, Slot] :
         {std::pair{"memory.txt", &Files.Memory}, {"spill.txt", &Files.Spill}})
      if (sys::fs::exists(Prefix + Suffix)) {
        Expected<unsigned> ID = readInput(SM, Prefix + Suffix);
        if (!ID)
          return ID.takeError();
        *Slot = *ID;
      }
    if (!applySubmission(*G, SM, Files))
      return reportedError(ExitInvalid);
    return G;
  }
  }
  llvm_unreachable("an import format without a reader");
}

static Error writeSubmission(const Graph &G) {
  if (OutputPath == "-")
    return usageError("--export=submission writes three files: give a "
                      "directory with -o DIR");
  Expected<Submission> S = exportSubmission(G);
  if (!S)
    return S.takeError();
  // The folders this export makes, deepest first: a failed export takes
  // them away again instead of leaving an empty folder behind.
  std::vector<std::string> Made;
  for (SmallString<128> Dir(OutputPath.getValue());
       !Dir.empty() && !sys::fs::exists(Dir); sys::path::remove_filename(Dir))
    Made.push_back(std::string(Dir));
  if (std::error_code EC = sys::fs::create_directories(
          OutputPath, /*IgnoreExisting=*/true, sys::fs::all_all))
    return usageError("cannot create directory '" + OutputPath +
                      "': " + EC.message());
  auto PathOf = [&](StringRef Suffix) {
    SmallString<128> Path(OutputPath.getValue());
    sys::path::append(Path, G.Name + Suffix);
    return std::string(Path);
  };
  std::vector<std::pair<std::string, std::string>> Files = {
      {PathOf("_schedule.txt"), S->Schedule}};
  std::vector<std::string> Stale;
  // Without a plan there is only a schedule; memory and spill files left by
  // an earlier export of this graph would no longer belong to it.
  for (auto [Suffix, Text] : {std::pair{"_memory.txt", &S->Memory},
                              std::pair{"_spill.txt", &S->Spill}}) {
    if (G.hasMemoryPlan())
      Files.emplace_back(PathOf(Suffix), *Text);
    else
      Stale.push_back(PathOf(Suffix));
  }
  Error E = writeOutputs(Files, Stale);
  if (E) {
    // writeOutputs left no file behind; a folder that is not empty (another
    // process wrote there meanwhile) stays.
    for (const std::string &Dir : Made)
      (void)sys::fs::remove(Dir);
  }
  return E;
}

static Error translate(SourceMgr &SM) {
  if (FixPlan && StripPlan)
    return usageError("--fix-plan and --strip-plan exclude each other");
  // Output in another format than the input must not replace it; IR to IR
  // and JSON to JSON may (the write is atomic).
  bool SameFormat =
      (Import == ImportFormat::IR && Export == ExportFormat::IR) ||
      (Import == ImportFormat::JSON && Export == ExportFormat::JSON);
  if (!SameFormat)
    if (Error E = checkOutputIsNotInput("-o", OutputPath, Inputs))
      return E;

  Expected<std::unique_ptr<Graph>> Read = readGraph(SM);
  if (!Read)
    return Read.takeError();
  Graph &G = **Read;
  // An IR file's target header, or the defaults for the formats that have
  // none; the options on top. The IR output records the result.
  if (Error E = applyTargetOptions(G))
    return E;
  if (StripPlan)
    stripMemoryPlan(G);
  if (FixPlan)
    fixMemoryPlan(G);
  if (Renumber)
    G.renumberDensely();

  switch (Export) {
  case ExportFormat::IR:
    return writeOutput(OutputPath, [&](raw_ostream &OS) { printGraph(G, OS); });
  case ExportFormat::JSON:
    return writeOutput(OutputPath,
                       [&](raw_ostream &OS) { exportJSON(G, G.Target, OS); });
  case ExportFormat::Dot:
    return writeOutput(OutputPath, [&](raw_ostream &OS) { exportDot(G, OS); });
  case ExportFormat::Submission:
    return writeSubmission(G);
  }
  llvm_unreachable("an export format without a writer");
}

int main(int Argc, char **Argv) {
  InitLLVM X(Argc, Argv);
  return runTool(Argc, Argv,
                 "dan-translate: convert between DAN IR and the contest's "
                 "JSON, CSV and submission formats\n",
                 translate);
}
