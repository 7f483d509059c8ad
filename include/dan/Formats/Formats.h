//===- Formats.h - The interchange formats, chosen by name ------*- C++ -*-===//
//
// The formats a graph is read from and written to, each described once by a
// table (dan/Support/EnumTable.h) that gives dan-translate its --import and
// --export values, and the entry points that do not depend on one format:
// the graph name of a file, and reading IR or contest JSON told apart by
// content. Each format's reader and writer live side by side in a header of
// their own: JSON.h, CSV.h, Submission.h, Dot.h; the text IR is lib/Parse's.
//
//===----------------------------------------------------------------------===//

#ifndef DAN_FORMATS_FORMATS_H
#define DAN_FORMATS_FORMATS_H

#include "dan/IR/Graph.h"
#include "dan/Support/EnumTable.h"
#include "dan/Support/ReadFile.h"
#include "llvm/ADT/STLFunctionalExtras.h"
#include "llvm/Support/Error.h"
#include "llvm/Support/SourceMgr.h"
#include "llvm/Support/raw_ostream.h"
#include <memory>

namespace dan {

/// The formats a graph is read from.
enum class ImportFormat { IR, JSON, CSV, Submission };
/// The formats a graph is written to.
enum class ExportFormat { IR, JSON, Submission, Dot };

llvm::ArrayRef<EnumEntry<ImportFormat>> importFormats();
llvm::ArrayRef<EnumEntry<ExportFormat>> exportFormats();

/// How many input files a format reads: at least Min, at most Max (0 or 1:
/// a file, or stdin when none is given).
struct InputCount {
  unsigned Min, Max;
};
InputCount inputCount(ImportFormat F);

/// Whether \p F is written to one stream (every format but Submission,
/// which is three files).
bool isStreamFormat(ExportFormat F);

/// Writes \p G in the stream format \p F under its own target.
void exportGraph(ExportFormat F, const Graph &G, llvm::raw_ostream &OS);

/// The graph name for a file: its stem, with characters that an IR graph
/// name cannot hold replaced by '_'.
std::string graphNameForFile(llvm::StringRef Path);

/// Whether \p Text is contest JSON rather than DAN IR: its first character
/// other than white space (after a UTF-8 byte-order mark) is '{'.
bool isJSONText(llvm::StringRef Text);

/// Reads a graph in either form, told apart by content: contest JSON (named
/// \p JSONName) when isJSONText, DAN IR otherwise.
/// \p MaxIncludeSize as parseGraph takes it.
std::unique_ptr<Graph>
importGraph(llvm::SourceMgr &SM, unsigned BufferID, llvm::StringRef JSONName,
            const TargetDesc *Base = nullptr,
            uint64_t MaxIncludeSize = DefaultMaxInputSize);

/// Reads the file \p Path into the caller's SourceMgr and returns its buffer
/// id: the tool's rules for input (stdin for "-", a size limit) and its
/// errors.
using ReadFile = llvm::function_ref<llvm::Expected<unsigned>(llvm::StringRef)>;

/// Reads the graph that \p Paths name in format \p F, each file through
/// \p Read: IR or JSON (one path, "-" for stdin), the CSV pair (the nodes
/// file and the edges file), or a graph and where its submission triple is
/// (the schedule file, and the memory and spill files when they exist).
/// The caller checks the number of paths (inputCount) and finds the CSV
/// edges file (csvEdgesPath). Null when a reader found an error in the
/// text, which it printed through \p SM; an error of \p Read is passed on.
/// A graph whose file names no target has \p Base (null: Davinci);
/// \p MaxIncludeSize as parseGraph takes it.
llvm::Expected<std::unique_ptr<Graph>>
importFiles(ImportFormat F, llvm::SourceMgr &SM,
            llvm::ArrayRef<std::string> Paths, ReadFile Read,
            const TargetDesc *Base = nullptr,
            uint64_t MaxIncludeSize = DefaultMaxInputSize);

} // namespace dan

#endif // DAN_FORMATS_FORMATS_H
