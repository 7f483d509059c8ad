//===- Import.h - Reading the contest's trace and result formats -*- C++
//-*-===//
//
// Importers of the contest formats. Each reads buffers already added to a
// SourceMgr and reports errors through it at file:line:col; none of them
// crashes or loops on malformed input. docs/CommandGuide/dan-translate.md
// describes the formats.
//
//===----------------------------------------------------------------------===//

#ifndef DAN_PARSE_IMPORT_H
#define DAN_PARSE_IMPORT_H

#include "dan/IR/Graph.h"
#include "llvm/Support/SourceMgr.h"
#include <memory>
#include <optional>

namespace dan {

/// The graph name for a file: its stem, with characters that an IR graph
/// name cannot hold replaced by '_'.
std::string graphNameForFile(llvm::StringRef Path);

/// Reads contest JSON: {"Nodes": [...], "Edges": [[src, dst], ...]}. The
/// order of "Nodes" is the schedule. Also reads what --export=json writes:
/// offsets, spill nodes and "ReuseEdges". A file larger than
/// \p StreamAbove bytes (by default every file) is parsed an element of
/// its arrays at a time instead of whole: the whole-file DOM of a million
/// nodes takes about 5 GB, and even on Matmul_Case1 the elements are faster
/// (0.08 s against 0.45 s) and smaller (18 MB against 158 MB). The graph
/// and the diagnostics are the same either way; a malformed file is read
/// again whole, which reports it.
constexpr size_t JSONStreamAbove = 0;
std::unique_ptr<Graph> importJSON(llvm::SourceMgr &SM, unsigned BufferID,
                                  llvm::StringRef GraphName,
                                  size_t StreamAbove = JSONStreamAbove);

/// Reads a graph in either form, told apart by content: contest JSON (named
/// \p JSONName) when the text starts with '{', DAN IR otherwise.
std::unique_ptr<Graph> importGraph(llvm::SourceMgr &SM, unsigned BufferID,
                                   llvm::StringRef JSONName);

/// Reads the <name>_Nodes.csv / <name>_Edges.csv pair.
std::unique_ptr<Graph> importCSV(llvm::SourceMgr &SM, unsigned NodesBufferID,
                                 unsigned EdgesBufferID,
                                 llvm::StringRef GraphName);

/// Buffers of a submission triple; memory and spill are optional (a
/// stage-1 result has only a schedule).
struct SubmissionBuffers {
  unsigned Schedule;
  std::optional<unsigned> Memory;
  std::optional<unsigned> Spill;
};

/// Applies a submission to \p G, replacing any memory plan it has: sets the
/// schedule, the offsets, creates the spill nodes (spill k is SPILL_OUT
/// N + 2k and SPILL_IN N + 2k + 1) and the edges the plan implies.
bool applySubmission(Graph &G, llvm::SourceMgr &SM,
                     const SubmissionBuffers &Files);

} // namespace dan

#endif // DAN_PARSE_IMPORT_H
