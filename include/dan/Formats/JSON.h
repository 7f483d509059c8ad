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
/// spill nodes and "ReuseEdges". The text is read as tokens, not as a JSON
/// DOM (which takes about 5 GB for a million nodes). The first error of
/// the text is reported: JSON's grammar first, then what is inside its
/// strings, then the graph's shape, nodes and edges, in that order. The
/// graph starts with target \p Base (null: Davinci), whose
/// names the tiers and pipes must be.
std::unique_ptr<Graph> importJSON(llvm::SourceMgr &SM, unsigned BufferID,
                                  llvm::StringRef GraphName,
                                  const TargetDesc *Base = nullptr);

/// Contest JSON, nodes in schedule order. With a memory plan it adds each
/// placement's "Offset", the spill nodes (with the pipe and cycles the
/// target gives them) and "ReuseEdges"; importJSON reads all of it back.
void exportJSON(const Graph &G, const TargetDesc &T, llvm::raw_ostream &OS);

} // namespace dan

#endif // DAN_FORMATS_JSON_H
