//===- FuzzSupport.h - What the DAN fuzz targets share ----------*- C++ -*-===//
//
// Each fuzz target calls the library directly: no file, no exit. Inputs that
// need several files carry them as sections (splitSections). The checks
// below turn a broken promise of the library into an abort, which libFuzzer
// reports like a crash. docs/Fuzzing.md describes the targets.
//
//===----------------------------------------------------------------------===//

#ifndef DAN_FUZZ_FUZZSUPPORT_H
#define DAN_FUZZ_FUZZSUPPORT_H

#include "dan/Analysis/Verifier.h"
#include "dan/IR/Graph.h"
#include "dan/Target/Target.h"
#include "llvm/ADT/ArrayRef.h"
#include "llvm/ADT/StringRef.h"
#include "llvm/Support/SourceMgr.h"
#include <cstdint>
#include <optional>
#include <vector>

namespace dan::fuzz {

/// Makes \p SM format every diagnostic and print none. A diagnostic at a
/// location outside every buffer of \p SM (a dangling SMLoc) aborts.
void quietDiagnostics(llvm::SourceMgr &SM);

/// Adds a NUL-terminated copy of \p Text to \p SM, as a file would be.
unsigned addBuffer(llvm::SourceMgr &SM, llvm::StringRef Text,
                   llvm::StringRef Name);

/// Splits \p Data at marker lines "%% NAME" (NAME one of \p Names): the text
/// before the first marker goes to \p Head, each section to its slot in
/// \p Sections (std::nullopt when absent). Returns false when a section is
/// given twice.
bool splitSections(llvm::StringRef Data, llvm::ArrayRef<llvm::StringRef> Names,
                   llvm::StringRef &Head,
                   std::vector<std::optional<llvm::StringRef>> &Sections);

/// The IR printed from \p G.
std::string printed(const Graph &G);

/// The printer's promise: the IR printed from \p G parses back, and prints
/// the same bytes again.
void checkRoundTrip(const Graph &G);

/// Aborts, with \p Context, the verifier's errors and the IR, unless \p G
/// verifies under \p T with \p Opts. \p What names the graph in the
/// message.
void expectVerifies(const Graph &G, const TargetDesc &T,
                    const VerifyOptions &Opts, const llvm::Twine &What,
                    llvm::StringRef Context = "");

/// Verifies \p G (with the default error limit, with none, against itself,
/// with --l0-single, and as a stage pass's input check) and replays it,
/// checking that the verifier's counts agree and that the replay's figures
/// hold together; the replay's bounds, edges and capacities are checked only
/// on a graph that verifies. Returns the number of errors without a limit.
unsigned checkVerifyAndReplay(const Graph &G, llvm::SourceMgr &SM,
                              const TargetDesc &T = TargetDesc::davinci());

/// Prints \p Msg and the texts that show it to stderr, then aborts.
[[noreturn]] void fail(const llvm::Twine &Msg, llvm::StringRef First = "",
                       llvm::StringRef Second = "");

} // namespace dan::fuzz

#endif // DAN_FUZZ_FUZZSUPPORT_H
