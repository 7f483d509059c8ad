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
#include "dan/Support/ReadFile.h"
#include "llvm/Support/SourceMgr.h"
#include <memory>

namespace dan {

/// Parses the graph in buffer \p BufferID of \p SM, which must end in a NUL
/// byte (as MemoryBuffer guarantees). Reports errors through \p SM and
/// returns null on failure.
/// A file without a target header has target \p Base (null: Davinci). A
/// target description file the header names ('target "PATH"') is refused
/// above \p MaxIncludeSize bytes.
std::unique_ptr<Graph>
parseGraph(llvm::SourceMgr &SM, unsigned BufferID,
           const TargetDesc *Base = nullptr,
           uint64_t MaxIncludeSize = DefaultMaxInputSize);

/// Reads a target description file, 'target NAME { ... }' alone
/// (docs/LangRef.md, "Target descriptions"), from buffer \p BufferID of
/// \p SM; reports errors through \p SM and returns std::nullopt after one.
std::optional<TargetDesc> parseTargetDescription(llvm::SourceMgr &SM,
                                                 unsigned BufferID);

/// Parses \p Text (named \p BufferName in messages); for tests.
std::unique_ptr<Graph>
parseGraphString(llvm::StringRef Text, llvm::SourceMgr &SM,
                 llvm::StringRef BufferName = "<string>");

} // namespace dan

#endif // DAN_PARSE_PARSER_H
