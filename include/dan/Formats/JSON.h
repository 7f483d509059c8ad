//===- JSON.h - Contest JSON: the reader and the writer ---------*- C++ -*-===//
//
// {"Nodes": [...], "Edges": [[src, dst], ...]}, plus the memory plan's
// offsets, spill nodes and "ReuseEdges" that the writer adds and the reader
// reads back. docs/CommandGuide/dan-translate.md describes the format.
//
//===----------------------------------------------------------------------===//

#ifndef DAN_FORMATS_JSON_H
#define DAN_FORMATS_JSON_H

#include "dan/IR/Graph.h"
#include "dan/Target/Target.h"
#include "llvm/Support/SourceMgr.h"
#include "llvm/Support/raw_ostream.h"
#include <memory>

namespace dan {

/// Reads contest JSON from a buffer of \p SM, reporting errors through it
/// at file:line:col; never crashes or loops on malformed input. The order
/// of "Nodes" is the schedule. Also reads what exportJSON writes: offsets,
/// spill nodes and "ReuseEdges". A file larger than \p StreamAbove bytes
/// (by default every file) is parsed an element of its arrays at a time
/// instead of whole: the whole-file DOM of a million nodes takes about
/// 5 GB, and even on Matmul_Case1 the elements are faster (0.08 s against
/// 0.45 s) and smaller (18 MB against 158 MB). The graph and the
/// diagnostics are the same either way; a malformed file is read again
/// whole, which reports it.
constexpr size_t JSONStreamAbove = 0;
/// The graph starts with target \p Base (null: Davinci), whose names the
/// tiers and pipes must be.
std::unique_ptr<Graph> importJSON(llvm::SourceMgr &SM, unsigned BufferID,
                                  llvm::StringRef GraphName,
                                  size_t StreamAbove = JSONStreamAbove,
                                  const TargetDesc *Base = nullptr);

/// Contest JSON, nodes in schedule order. With a memory plan it adds each
/// placement's "Offset", the spill nodes (with the pipe and cycles the
/// target gives them) and "ReuseEdges"; importJSON reads all of it back.
void exportJSON(const Graph &G, const TargetDesc &T, llvm::raw_ostream &OS);

} // namespace dan

#endif // DAN_FORMATS_JSON_H
