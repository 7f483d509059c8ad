//===- Formats.cpp - The interchange formats, chosen by name --------------===//

#include "dan/Formats/Formats.h"
#include "dan/Formats/Dot.h"
#include "dan/Formats/JSON.h"
#include "dan/IR/Printer.h"
#include "dan/Parse/Parser.h"
#include "llvm/ADT/StringExtras.h"
#include "llvm/Support/ErrorHandling.h"
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
    if (!isAlnum(C) && C != '_' && C != '.' && C != '$' && C != '-')
      C = '_';
  if (Name.empty() || Name == "-")
    Name = "graph";
  return Name;
}

std::unique_ptr<Graph> importGraph(SourceMgr &SM, unsigned BufferID,
                                   StringRef JSONName) {
  if (SM.getMemoryBuffer(BufferID)->getBuffer().ltrim().starts_with("{"))
    return importJSON(SM, BufferID, JSONName);
  return parseGraph(SM, BufferID);
}

} // namespace dan
