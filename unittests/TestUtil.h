//===- TestUtil.h - Helpers for the unit tests ------------------*- C++ -*-===//

#ifndef DAN_UNITTESTS_TESTUTIL_H
#define DAN_UNITTESTS_TESTUTIL_H

#include "dan/Analysis/Verifier.h"
#include "dan/Gen/Generate.h"
#include "dan/IR/Graph.h"
#include "dan/IR/Printer.h"
#include "dan/Parse/Parser.h"
#include "dan/Target/Target.h"
#include "llvm/Support/SourceMgr.h"
#include "llvm/Support/raw_ostream.h"
#include "gtest/gtest.h"
#include <memory>
#include <string>

namespace dan::test {

/// examples/spill.dan without its comments: a plan with one spill.
inline constexpr const char *SpillExample = R"(graph @Spill {
  n0 = alloc b0 UB 512 at 0
  n1 = COPY_IN MTE2 80 (b0) after n0
  n2 = alloc b1 UB 512 at 512
  n3 = COPY_IN MTE2 80 (b1) after n2
  n11 = spill_out b0 after n0, n1
  n4 = alloc b2 UB 512 at 0 reuse n11
  n5 = ADD VECTOR 100 (b2, b1) after n3, n4
  n6 = free b1 UB 512 after n5
  n12 = spill_in b0 at 512 after n11 reuse n6
  n7 = MUL VECTOR 100 (b2, b0) after n1, n5, n12
  n8 = free b0 UB 512 after n7, n12
  n9 = COPY_OUT MTE3 80 (b2) after n7
  n10 = free b2 UB 512 after n9
})";

/// \p G in the canonical text form.
inline std::string print(const Graph &G) {
  std::string S;
  llvm::raw_string_ostream OS(S);
  printGraph(G, OS);
  return S;
}

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

/// One dan-gen graph of each family (matmul, attention, conv) for \p T,
/// with the matmul's tiles \p MNTiles x \p MNTiles x \p KTiles and the
/// cycle jitter of \p Seed (a failure to generate fails the test).
inline std::vector<std::unique_ptr<Graph>>
generatedFamilies(const TargetDesc &T, unsigned MNTiles, unsigned KTiles,
                  uint64_t Seed, unsigned JitterPercent = 20) {
  std::vector<std::unique_ptr<Graph>> Out;
  for (GenFamily F :
       {GenFamily::Matmul, GenFamily::Attention, GenFamily::Conv}) {
    GenOptions Opts;
    Opts.Family = F;
    Opts.Matmul.MTiles = Opts.Matmul.NTiles = MNTiles;
    Opts.Matmul.KTiles = KTiles;
    Opts.JitterPercent = JitterPercent;
    Opts.Seed = Seed;
    llvm::Expected<std::unique_ptr<Graph>> G = generateGraph(Opts, T);
    EXPECT_TRUE(bool(G)) << llvm::toString(G.takeError());
    if (G)
      Out.push_back(std::move(*G));
  }
  return Out;
}

} // namespace dan::test

#endif
