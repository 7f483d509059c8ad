//===- GenTest.cpp - The graph generator ----------------------------------===//

#include "dan/Analysis/Verifier.h"
#include "dan/Gen/Generate.h"
#include "gtest/gtest.h"

using namespace dan;

namespace {

std::unique_ptr<Graph> generate(const GenOptions &Opts) {
  auto G = generateGraph(Opts, TargetDesc::davinci());
  EXPECT_TRUE(bool(G)) << llvm::toString(G.takeError());
  return G ? std::move(*G) : nullptr;
}

unsigned errors(const Graph &G) {
  return verifyGraph(
      G, TargetDesc::davinci(), VerifyOptions(),
      [](llvm::SMLoc, llvm::SourceMgr::DiagKind, const llvm::Twine &) {});
}

GenOptions family(GenFamily F) {
  GenOptions O;
  O.Family = F;
  return O;
}

} // namespace

TEST(GenTest, CountsMatchTheFormulas) {
  for (GenFamily F : {GenFamily::Matmul, GenFamily::Attention, GenFamily::Conv,
                      GenFamily::Transformer, GenFamily::ConvNet})
    for (FreePlacement P : {FreePlacement::End, FreePlacement::LastUse}) {
      GenOptions O = family(F);
      O.Frees = P;
      O.Matmul.MTiles = 3;
      O.Matmul.NTiles = 4;
      O.Matmul.KTiles = 5;
      O.Matmul.Order = MatmulOrder::Zigzag;
      O.Attention.QBlocks = 3;
      O.Attention.KVBlocks = 5;
      O.Conv.Kernels = {1, 3, 5};
      O.Conv.Layers = 5;
      O.Model = {3, 3, 2};
      auto G = generate(O);
      ASSERT_TRUE(G);
      EXPECT_EQ(G->size(), countGenNodes(O));
      EXPECT_EQ(G->Order.size(), G->size());
      EXPECT_EQ(errors(*G), 0u);
    }
}

TEST(GenTest, FreePlacementKeepsTheEdges) {
  GenOptions O = family(GenFamily::Attention);
  auto End = generate(O);
  O.Frees = FreePlacement::LastUse;
  auto Last = generate(O);
  ASSERT_TRUE(End && Last);
  ASSERT_EQ(End->size(), Last->size());
  for (NodeIdx I = 0; I != End->size(); ++I) {
    EXPECT_EQ((*End)[I].Id, (*Last)[I].Id);
    EXPECT_EQ((*End)[I].Preds, (*Last)[I].Preds);
  }
  EXPECT_NE(End->Order, Last->Order);
  // Each FREE comes right after a node it depends on.
  std::vector<uint32_t> Pos = Last->positions();
  for (NodeIdx I = 0; I != Last->size(); ++I)
    if ((*Last)[I].Kind == NodeKind::Free) {
      NodeIdx Before = Last->Order[Pos[I] - 1];
      bool Adjacent = false;
      for (NodeIdx J = Pos[I] - 1; !Adjacent; --J) {
        NodeIdx N = Last->Order[J];
        Adjacent = llvm::is_contained((*Last)[I].Preds, N);
        if ((*Last)[N].Kind != NodeKind::Free)
          break;
      }
      EXPECT_TRUE(Adjacent)
          << "FREE n" << (*Last)[I].Id << " after n" << (*Last)[Before].Id;
    }
}

TEST(GenTest, JitterIsSeededAndBounded) {
  GenOptions O = family(GenFamily::Conv);
  auto Base = generate(O);
  O.JitterPercent = 30;
  O.Seed = 5;
  auto A = generate(O), B = generate(O);
  O.Seed = 6;
  auto C = generate(O);
  ASSERT_TRUE(Base && A && B && C);
  bool Differs = false;
  for (NodeIdx I = 0; I != Base->size(); ++I) {
    EXPECT_EQ((*A)[I].Cycles, (*B)[I].Cycles);
    Differs |= (*A)[I].Cycles != (*C)[I].Cycles;
    uint64_t Cyc = (*Base)[I].Cycles;
    EXPECT_LE((*A)[I].Cycles, Cyc + Cyc * 30 / 100);
    EXPECT_GE((*A)[I].Cycles + Cyc * 30 / 100, Cyc);
  }
  EXPECT_TRUE(Differs);
}

TEST(GenTest, Refusals) {
  auto Fails = [](const GenOptions &O) {
    auto G = generateGraph(O, TargetDesc::davinci());
    if (G)
      return std::string();
    return llvm::toString(G.takeError());
  };
  GenOptions O = family(GenFamily::Matmul);
  O.Matmul.KTiles = 0;
  EXPECT_EQ(Fails(O), "--k-tiles must be at least 1");
  O = family(GenFamily::Matmul);
  O.Matmul.TileK = 64; // L0A 2 * 8 * 64 = 1024 bytes
  EXPECT_NE(Fails(O).find("one MOVE needs 1024 bytes of L0A"),
            std::string::npos);
  O = family(GenFamily::Conv);
  O.Conv.Kernels = {};
  EXPECT_EQ(Fails(O), "--kernels needs at least one kernel size");
  O = family(GenFamily::Attention);
  O.Attention.QBlocks = 1u << 20;
  O.Attention.KVBlocks = 1u << 20;
  EXPECT_NE(Fails(O).find("more than the limit"), std::string::npos);
}
