//===- VerifyInput.cpp - Verifying a tool's input, with warnings ----------===//
//
// Its own file so that only the tools that verify their input (they call
// verifyAndReport, so the linker takes this object from the static library)
// have -w and --Werror in their --help.
//
//===----------------------------------------------------------------------===//

#include "ToolSupport.h"
#include "dan/Analysis/Lint.h"
#include "dan/IR/Diagnostic.h"
#include "dan/Support/Threads.h"
#include "llvm/Support/Threading.h"
#include <string>
#include <thread>
#include <vector>

using namespace llvm;

namespace dan::tool {

static cl::opt<bool> NoWarnings("w", cl::desc("Print no warnings"),
                                cl::cat(DANCategory));

static cl::opt<bool>
    WarningsAsErrors("Werror",
                     cl::desc("Treat warnings as errors: print them as errors "
                              "and exit with status 1"),
                     cl::cat(DANCategory));

/// "'<path>' <what>: N <noun>s", the error that ends a failed check.
static Error failedCheck(StringRef Path, StringRef What, unsigned N,
                         StringRef Noun) {
  return make_error<ToolError>(
      ExitInvalid,
      ("'" + displayName(Path) + "' " + What + ": " + countOf(N, Noun)).str());
}

Error verifyAndReport(const Graph &G, const TargetDesc &T,
                      const VerifyOptions &Opts, SourceMgr &SM,
                      StringRef Path) {
  // The lint reads the graph as the verifier does and shows only when the
  // graph verifies: with more than one thread it runs beside the verifier
  // into a list, printed afterwards in its order, the same bytes as a run
  // after it.
  bool Lint = !NoWarnings || WarningsAsErrors;
  struct Diagnostic {
    SMLoc Loc;
    SourceMgr::DiagKind Kind;
    std::string Msg;
  };
  std::vector<Diagnostic> LintDiags;
  unsigned Warnings = 0;
  auto RunLint = [&] {
    Warnings = lintGraph(
        G, [&](SMLoc Loc, SourceMgr::DiagKind Kind, const Twine &Msg) {
          if (Kind == SourceMgr::DK_Warning && WarningsAsErrors)
            Kind = SourceMgr::DK_Error;
          LintDiags.push_back({Loc, Kind, Msg.str()});
        });
  };
  std::thread Beside;
  bool Concurrent =
      Lint && hardware_concurrency(ToolThreads).compute_thread_count() > 1;
  if (Concurrent)
    Beside = startBeside(RunLint);
  unsigned Errors = verifyGraph(
      G, T, Opts, [&](SMLoc Loc, SourceMgr::DiagKind Kind, const Twine &Msg) {
        printDiagnostic(SM, Loc, Kind, Msg);
      });
  if (Concurrent)
    Beside.join();
  if (Errors)
    return failedCheck(Path, "does not verify", Errors, "error");
  if (!Lint)
    return Error::success();
  if (!Concurrent)
    RunLint();
  for (const Diagnostic &D : LintDiags)
    printDiagnostic(SM, D.Loc, D.Kind, D.Msg);
  if (Warnings && WarningsAsErrors)
    return failedCheck(Path, "has warnings, which --Werror makes errors",
                       Warnings, "warning");
  return Error::success();
}

} // namespace dan::tool
