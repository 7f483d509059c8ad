//===- CSV.h - The <name>_Nodes.csv / <name>_Edges.csv pair -----*- C++ -*-===//
//
// The reader of the CSV pair, and how the pair's files are named. There is
// no writer: contest JSON is the exchange format DAN writes.
// docs/CommandGuide/dan-translate.md describes the format.
//
//===----------------------------------------------------------------------===//

#ifndef DAN_FORMATS_CSV_H
#define DAN_FORMATS_CSV_H

#include "dan/IR/Graph.h"
#include "llvm/Support/Error.h"
#include "llvm/Support/SourceMgr.h"
#include <memory>

namespace dan {

/// Reads the pair from two buffers of \p SM, reporting errors through it.
/// The graph starts with target \p Base (null: Davinci).
std::unique_ptr<Graph> importCSV(llvm::SourceMgr &SM, unsigned NodesBufferID,
                                 unsigned EdgesBufferID,
                                 llvm::StringRef GraphName,
                                 const TargetDesc *Base = nullptr);

/// The edges file beside \p NodesPath: DIR/<name>_Edges.csv for
/// DIR/<name>_Nodes.csv; an error for a nodes file not named so.
llvm::Expected<std::string> csvEdgesPath(llvm::StringRef NodesPath);

/// The graph name of a pair: the nodes file's stem without "_Nodes".
std::string csvGraphName(llvm::StringRef NodesPath);

} // namespace dan

#endif // DAN_FORMATS_CSV_H
