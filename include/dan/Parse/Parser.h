//===- Parser.h - Reading the DAN IR text form ------------------*- C++ -*-===//
//
// The whole public parsing API. The lexer, the grammar and the token kinds
// are private to lib/Parse. Parsing checks syntax and names (unknown tiers,
// redefined or undefined node ids); well-formedness is the verifier's job.
//
//===----------------------------------------------------------------------===//

#ifndef DAN_PARSE_PARSER_H
#define DAN_PARSE_PARSER_H

#include "dan/IR/Graph.h"
#include "llvm/Support/SourceMgr.h"
#include <memory>

namespace dan {

class JobRunner;

/// How a file is read.
struct ParseOptions {
  /// Threads that read a large file in pieces at once, 0 for one per
  /// hardware thread; the graph is the same for any number.
  unsigned Threads = 1;
  /// When set, the pieces are read on this runner's threads instead (and
  /// Threads is not read): a tool keeps one runner for its whole run, so
  /// that its pool threads start once.
  JobRunner *Runner = nullptr;
  /// The fewest bytes of a piece: a smaller file is read whole.
  size_t MinPieceBytes = 256 * 1024;
  /// When set, receives how many pieces the file was read in (1: whole,
  /// also when a piece failed and the file was read again whole).
  unsigned *PiecesRead = nullptr;
};

/// Parses the graph in buffer \p BufferID of \p SM, which must end in a NUL
/// byte (as MemoryBuffer guarantees). Reports errors through \p SM and
/// returns null on failure.
std::unique_ptr<Graph> parseGraph(llvm::SourceMgr &SM, unsigned BufferID,
                                  const ParseOptions &Opts = {});

/// Parses \p Text (named \p BufferName in messages); for tests.
std::unique_ptr<Graph> parseGraphString(llvm::StringRef Text,
                                        llvm::SourceMgr &SM,
                                        llvm::StringRef BufferName = "<string>",
                                        const ParseOptions &Opts = {});

} // namespace dan

#endif // DAN_PARSE_PARSER_H
