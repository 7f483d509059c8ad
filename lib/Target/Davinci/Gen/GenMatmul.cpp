//===- GenMatmul.cpp - Tiled matrix multiply ------------------------------===//
//
// The matmul family: C = A * B in tiles, each output tile accumulated in
// one L0C buffer over the K tiles, the A and B tiles loaded to L1 once and
// moved to L0A and L0B for every MATMUL; the output tiles in MatmulOrder.
//
//===----------------------------------------------------------------------===//

#include "GenBuilder.h"

using namespace llvm;

namespace dan::gen {

uint64_t matmulNodes(const MatmulShape &S) {
  // Seven per MATMUL (two L0 allocs, two MOVEs, the MATMUL, two L0 frees),
  // three per L1 tile and three per output tile.
  uint64_t Steps = mul(mul(S.MTiles, S.NTiles), S.KTiles);
  uint64_t L1 = add(mul(S.MTiles, S.KTiles), mul(S.KTiles, S.NTiles));
  return add(add(mul(7, Steps), mul(3, L1)), mul(3, mul(S.MTiles, S.NTiles)));
}

void buildMatmul(TraceBuilder &B, const MatmulShape &S) {
  unsigned CopyIn = B.name("COPY_IN"), Move = B.name("MOVE"),
           Matmul = B.name("MATMUL"), CopyOut = B.name("COPY_OUT");
  uint64_t SizeA = S.TileM * S.TileK * 2, SizeB = S.TileK * S.TileN * 2,
           SizeC = S.TileM * S.TileN * 4;
  uint64_t MACs = S.TileM * S.TileN * S.TileK;
  constexpr uint64_t Unset = UINT64_MAX;
  std::vector<uint64_t> A(S.MTiles * S.KTiles, Unset),
      Bt(S.KTiles * S.NTiles, Unset);
  auto Tile = [&](uint64_t M, uint64_t N) {
    uint64_t C = B.alloc(davinci::L0C, SizeC);
    for (uint64_t K = 0; K != S.KTiles; ++K) {
      uint64_t &AT = A[M * S.KTiles + K], &BT = Bt[K * S.NTiles + N];
      SmallVector<uint64_t, 2> New;
      if (AT == Unset)
        New.push_back(AT = B.alloc(davinci::L1, SizeA));
      if (BT == Unset)
        New.push_back(BT = B.alloc(davinci::L1, SizeB));
      for (uint64_t L : New) {
        NodeIdx Load =
            B.op(CopyIn, davinci::MTE2,
                 B.cost(OpCost::CopyIn, L == AT ? SizeA : SizeB), {L});
        if (L == AT)
          B.nameTile(Load, S.NameA, M, K, /*Store=*/false);
        else
          B.nameTile(Load, S.NameB, K, N, /*Store=*/false);
      }
      uint64_t L0A = B.alloc(davinci::L0A, SizeA),
               L0B = B.alloc(davinci::L0B, SizeB);
      B.op(Move, davinci::MTE1, B.cost(OpCost::MoveL0, SizeA), {L0A, AT});
      B.op(Move, davinci::MTE1, B.cost(OpCost::MoveL0, SizeB), {L0B, BT});
      B.op(Matmul, davinci::CUBE, B.cost(OpCost::Mmad, MACs), {C, L0B, L0A});
    }
    NodeIdx Store = B.op(CopyOut, davinci::FIXP, B.cost(OpCost::FixpOut, SizeC),
                         {C}, /*Writes=*/false);
    B.nameTile(Store, S.NameC, M, N, /*Store=*/true);
  };
  switch (S.Order) {
  case MatmulOrder::MNK:
  case MatmulOrder::Zigzag:
    for (uint64_t M = 0; M != S.MTiles; ++M)
      for (uint64_t J = 0; J != S.NTiles; ++J) {
        bool Back = S.Order == MatmulOrder::Zigzag && M % 2 == 1;
        Tile(M, Back ? S.NTiles - 1 - J : J);
      }
    break;
  case MatmulOrder::NMK:
    for (uint64_t N = 0; N != S.NTiles; ++N)
      for (uint64_t M = 0; M != S.MTiles; ++M)
        Tile(M, N);
    break;
  }
}

} // namespace dan::gen
