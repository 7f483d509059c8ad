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

using namespace llvm;

namespace dan::tool {

static DANOptionCategory
    WarningCategory("Warning options",
                    "The lint's warnings on an input that verifies.");

static cl::opt<bool> NoWarnings("w", cl::desc("Print no warnings"),
                                cl::cat(WarningCategory));

static cl::opt<bool>
    WarningsAsErrors("Werror",
                     cl::desc("Treat warnings as errors: print them as errors "
                              "and exit with status 1"),
                     cl::cat(WarningCategory));

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
  unsigned Errors = verifyGraph(
      G, T, Opts, [&](SMLoc Loc, SourceMgr::DiagKind Kind, const Twine &Msg) {
        printDiagnostic(SM, Loc, Kind, Msg);
      });
  if (Errors)
    return failedCheck(Path, "does not verify", Errors, "error");
  // The lint shows only when the graph verifies.
  if (NoWarnings && !WarningsAsErrors)
    return Error::success();
  unsigned Warnings =
      lintGraph(G, [&](SMLoc Loc, SourceMgr::DiagKind Kind, const Twine &Msg) {
        if (Kind == SourceMgr::DK_Warning && WarningsAsErrors)
          Kind = SourceMgr::DK_Error;
        printDiagnostic(SM, Loc, Kind, Msg);
      });
  if (Warnings && WarningsAsErrors)
    return failedCheck(Path, "has warnings, which --Werror makes errors",
                       Warnings, "warning");
  return Error::success();
}

} // namespace dan::tool
