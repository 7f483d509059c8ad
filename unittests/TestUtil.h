//===- TestUtil.h - Helpers for the unit tests -----------------*- C++ -*-===//

#ifndef DAN_UNITTESTS_TESTUTIL_H
#define DAN_UNITTESTS_TESTUTIL_H

#include "dan/Analysis/Verifier.h"
#include "dan/IR/Graph.h"
#include "dan/Parse/Parser.h"
#include "dan/Target/Target.h"
#include "llvm/Support/SourceMgr.h"
#include "llvm/Support/raw_ostream.h"
#include <memory>
#include <string>

namespace dan::test {

/// Parses \p Text, collecting diagnostics in \p Diags instead of printing.
inline std::unique_ptr<Graph> parse(llvm::SourceMgr &SM, llvm::StringRef Text,
                                    std::string &Diags) {
  SM.setDiagHandler(
      [](const llvm::SMDiagnostic &D, void *Ctx) {
        llvm::raw_string_ostream OS(*static_cast<std::string *>(Ctx));
        D.print("", OS, /*ShowColors=*/false);
      },
      &Diags);
  return parseGraphString(Text, SM, "test.dan");
}

/// The errors of verifying \p G under \p T, one a line ("" when it
/// verifies).
inline std::string verifyErrors(const Graph &G, const TargetDesc &T) {
  std::string Out;
  verifyGraph(
      G, T, VerifyOptions(),
      [&](llvm::SMLoc, llvm::SourceMgr::DiagKind K, const llvm::Twine &Msg) {
        if (K == llvm::SourceMgr::DK_Error)
          Out += Msg.str() + "\n";
      });
  return Out;
}

/// The node index of id \p Id.
inline NodeIdx idx(const Graph &G, uint64_t Id) {
  for (NodeIdx I = 0; I != G.size(); ++I)
    if (G[I].Id == Id)
      return I;
  return UINT32_MAX;
}

} // namespace dan::test

#endif
