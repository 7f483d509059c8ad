//===- Formats.cpp - The interchange formats, chosen by name --------------===//

#include "dan/Formats/Formats.h"
#include "dan/Formats/CSV.h"
#include "dan/Formats/Dot.h"
#include "dan/Formats/JSON.h"
#include "dan/Formats/Submission.h"
#include "dan/IR/Printer.h"
#include "dan/Parse/Parser.h"
#include "llvm/ADT/StringExtras.h"
#include "llvm/Support/ErrorHandling.h"
#include "llvm/Support/FileSystem.h"
#include "llvm/Support/Path.h"

using namespace llvm;

namespace dan {

static const EnumEntry<ImportFormat> ImportFormats[] = {
    {ImportFormat::IR, "ir", "DAN IR (default)"},
    {ImportFormat::JSON, "json",
     "contest JSON: {\"Nodes\": [...], \"Edges\": [...]}"},
    {ImportFormat::CSV, "csv",
     "<name>_Nodes.csv and <name>_Edges.csv (give the nodes file, or both)"},
    {ImportFormat::Submission, "submission",
     "a graph (IR or JSON) and a directory or _schedule.txt path holding "
     "<name>_schedule.txt, _memory.txt, _spill.txt"},
};

static const EnumEntry<ExportFormat> ExportFormats[] = {
    {ExportFormat::IR, "ir", "DAN IR (default)"},
    {ExportFormat::JSON, "json",
     "contest JSON, plus offsets, spill nodes and ReuseEdges when the graph "
     "has a memory plan (ReuseEdges also when it has reuse edges)"},
    {ExportFormat::Submission, "submission",
     "<graph>_schedule.txt, _memory.txt, _spill.txt in the directory given "
     "by -o"},
    {ExportFormat::Dot, "dot", "Graphviz DOT"},
};

ArrayRef<EnumEntry<ImportFormat>> importFormats() { return ImportFormats; }
ArrayRef<EnumEntry<ExportFormat>> exportFormats() { return ExportFormats; }

InputCount inputCount(ImportFormat F) {
  switch (F) {
  case ImportFormat::IR:
  case ImportFormat::JSON:
    return {0, 1};
  case ImportFormat::CSV:
    return {1, 2};
  case ImportFormat::Submission:
    return {2, 2};
  }
  llvm_unreachable("unknown import format");
}

bool isStreamFormat(ExportFormat F) { return F != ExportFormat::Submission; }

void exportGraph(ExportFormat F, const Graph &G, raw_ostream &OS) {
  switch (F) {
  case ExportFormat::IR:
    return printGraph(G, OS);
  case ExportFormat::JSON:
    return exportJSON(G, G.Target, OS);
  case ExportFormat::Dot:
    return exportDot(G, OS);
  case ExportFormat::Submission:
    break;
  }
  llvm_unreachable("the submission is three files, not a stream");
}

std::string graphNameForFile(StringRef Path) {
  std::string Name = sys::path::stem(Path).str();
  for (char &C : Name)
    if (!isGraphNameChar(C))
      C = '_';
  if (Name.empty() || Name == "-")
    Name = "graph";
  return Name;
}

bool isJSONText(StringRef Text) {
  // Both readers skip the mark: it must not decide the form either.
  Text.consume_front("\xEF\xBB\xBF");
  return Text.ltrim().starts_with("{");
}

std::unique_ptr<Graph> importGraph(SourceMgr &SM, unsigned BufferID,
                                   StringRef JSONName, const TargetDesc *Base,
                                   uint64_t MaxIncludeSize) {
  if (isJSONText(SM.getMemoryBuffer(BufferID)->getBuffer()))
    return importJSON(SM, BufferID, JSONName, Base);
  return parseGraph(SM, BufferID, Base, MaxIncludeSize);
}

/// A graph and its submission triple, named after the graph.
static Expected<std::unique_ptr<Graph>>
importSubmissionFiles(SourceMgr &SM, StringRef GraphPath, StringRef Where,
                      ReadFile Read, const TargetDesc *Base,
                      uint64_t MaxIncludeSize) {
  Expected<unsigned> ID = Read(GraphPath);
  if (!ID)
    return ID.takeError();
  std::unique_ptr<Graph> G =
      importGraph(SM, *ID, graphNameForFile(GraphPath), Base, MaxIncludeSize);
  if (!G)
    return nullptr;
  std::string Prefix = submissionPrefix(Where, G->Name);
  SubmissionBuffers Files;
  Expected<unsigned> Sched = Read(Prefix + SubmissionSuffixes[0]);
  if (!Sched)
    return Sched.takeError();
  Files.Schedule = *Sched;
  for (auto [Suffix, Slot] : {std::pair{SubmissionSuffixes[1], &Files.Memory},
                              {SubmissionSuffixes[2], &Files.Spill}})
    if (sys::fs::exists(Prefix + Suffix)) {
      Expected<unsigned> File = Read(Prefix + Suffix);
      if (!File)
        return File.takeError();
      *Slot = *File;
    }
  if (!applySubmission(*G, SM, Files))
    return nullptr;
  return G;
}

Expected<std::unique_ptr<Graph>>
importFiles(ImportFormat F, SourceMgr &SM, ArrayRef<std::string> Paths,
            ReadFile Read, const TargetDesc *Base, uint64_t MaxIncludeSize) {
  StringRef First = Paths.empty() ? StringRef("-") : StringRef(Paths[0]);
  switch (F) {
  case ImportFormat::IR:
  case ImportFormat::JSON: {
    Expected<unsigned> ID = Read(First);
    if (!ID)
      return ID.takeError();
    if (F == ImportFormat::IR)
      return parseGraph(SM, *ID, Base, MaxIncludeSize);
    return importJSON(SM, *ID, graphNameForFile(First), Base);
  }
  case ImportFormat::CSV: {
    Expected<unsigned> Nodes = Read(Paths[0]);
    if (!Nodes)
      return Nodes.takeError();
    Expected<unsigned> Edges = Read(Paths[1]);
    if (!Edges)
      return Edges.takeError();
    return importCSV(SM, *Nodes, *Edges, csvGraphName(Paths[0]), Base);
  }
  case ImportFormat::Submission:
    return importSubmissionFiles(SM, Paths[0], Paths[1], Read, Base,
                                 MaxIncludeSize);
  }
  llvm_unreachable("an import format without a reader");
}

} // namespace dan
