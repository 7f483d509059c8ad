//===- TestUtil.h - Helpers for the unit tests -----------------*- C++ -*-===//

#ifndef DAN_UNITTESTS_TESTUTIL_H
#define DAN_UNITTESTS_TESTUTIL_H

#include "dan/IR/Graph.h"
#include "dan/Parse/Parser.h"
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

/// The node index of id \p Id.
inline NodeIdx idx(const Graph &G, uint64_t Id) {
  for (NodeIdx I = 0; I != G.size(); ++I)
    if (G[I].Id == Id)
      return I;
  return UINT32_MAX;
}

} // namespace dan::test

#endif
