//===- GenModel.cpp - Models: kernels that feed each other tile by tile ---===//
//
// The model families write a whole model as a compiler emits it: kernels
// of the other families one after another in one graph, each loading from
// DDR the tiles the kernel before it stored. Every tile is named
// ('writes @L0.QKV.1.2', 'reads @L0.QKV.1.2'), and a load waits for the
// store of its tile, so a consumer may start on the first tiles while its
// producer still works on the last.
//
//===----------------------------------------------------------------------===//

#include "GenBuilder.h"
#include "llvm/Support/FormatVariadic.h"

using namespace llvm;

namespace dan::gen {

namespace {

/// The tiles of tensor \p Tensor of layer \p Layer, columns from
/// \p ColBase on: "L<layer>.<tensor>.<row>.<col>".
TileNamer tiles(uint64_t Layer, StringRef Tensor, uint64_t ColBase = 0) {
  return [Layer, Tensor = Tensor.str(), ColBase](uint64_t Row, uint64_t Col) {
    return formatv("L{0}.{1}.{2}.{3}", Layer, Tensor, Row, ColBase + Col).str();
  };
}

/// A matmul of the model: M x K by K x N tiles, A read from \p A, C stored
/// to \p C; the weights are the model's own, loaded unnamed.
MatmulShape matmul(uint64_t M, uint64_t N, uint64_t K, TileNamer A,
                   TileNamer C) {
  MatmulShape S;
  S.MTiles = M;
  S.NTiles = N;
  S.KTiles = K;
  S.NameA = std::move(A);
  S.NameC = std::move(C);
  return S;
}

/// The normalization of a Rows x Cols tile grid on the vector pipe: each
/// row block's tiles loaded to UB, their row sums accumulated, the
/// reciprocal taken, each tile scaled and stored.
uint64_t normNodes(uint64_t Rows, uint64_t Cols) {
  // Per row: two per load, the sum's alloc and its Cols ROWSUMs, two for
  // the reciprocal, three per scaled tile, and a FREE per buffer.
  return mul(Rows, add(mul(8, Cols), 5));
}

void buildNorm(TraceBuilder &B, uint64_t Rows, uint64_t Cols,
               const TileNamer &In, const TileNamer &Out) {
  constexpr uint64_t Tile = 128, Row = 2;
  unsigned CopyIn = B.name("COPY_IN"), RowSum = B.name("ROWSUM"),
           Rec = B.name("REC"), Mul = B.name("MUL"),
           CopyOut = B.name("COPY_OUT");
  for (uint64_t R = 0; R != Rows; ++R) {
    SmallVector<uint64_t, 8> Loaded;
    for (uint64_t C = 0; C != Cols; ++C) {
      Loaded.push_back(B.alloc(davinci::UB, Tile));
      B.nameTile(B.op(CopyIn, davinci::MTE2, B.cost(OpCost::CopyIn, Tile),
                      {Loaded.back()}),
                 In, R, C, /*Store=*/false);
    }
    uint64_t Sum = B.alloc(davinci::UB, Row);
    for (uint64_t L : Loaded)
      B.op(RowSum, davinci::VECTOR, B.cost(OpCost::RowSum, 0), {Sum, L});
    uint64_t Scale = B.alloc(davinci::UB, Row);
    B.op(Rec, davinci::VECTOR, B.cost(OpCost::RecRow, 0), {Scale, Sum});
    for (uint64_t C = 0; C != Cols; ++C) {
      uint64_t Result = B.alloc(davinci::UB, Tile);
      B.op(Mul, davinci::VECTOR, B.cost(OpCost::MulTileRow, 0),
           {Result, Loaded[C], Scale});
      B.nameTile(B.op(CopyOut, davinci::MTE3, B.cost(OpCost::CopyOutUB, Tile),
                      {Result}, /*Writes=*/false),
                 Out, R, C, /*Store=*/true);
    }
  }
}

/// The attention of layer \p L: Q, K and V are the three column ranges of
/// the QKV projection's output, the output its tensor O.
AttentionShape attention(uint64_t L, uint64_t S, uint64_t D) {
  AttentionShape A;
  A.QBlocks = A.KVBlocks = S;
  A.HeadTiles = D;
  A.NameQ = tiles(L, "QKV");
  A.NameK = tiles(L, "QKV", D);
  A.NameV = tiles(L, "QKV", 2 * D);
  A.NameO = tiles(L, "O");
  return A;
}

} // namespace

uint64_t transformerNodes(const ModelShape &M) {
  uint64_t S = M.SeqBlocks, D = M.HiddenTiles;
  uint64_t Layer = matmulNodes(matmul(S, 3 * D, D, {}, {}));
  Layer = add(Layer, attentionNodes(attention(0, S, D)));
  Layer = add(Layer, matmulNodes(matmul(S, D, D, {}, {})));
  Layer = add(Layer, normNodes(S, D));
  Layer = add(Layer, matmulNodes(matmul(S, 4 * D, D, {}, {})));
  Layer = add(Layer, matmulNodes(matmul(S, D, 4 * D, {}, {})));
  return mul(M.Layers, Layer);
}

/// Each layer: the QKV projection (X to QKV), attention (QKV to O), the
/// output projection (O to Y), the normalization (Y to Z), and the two
/// MLP matmuls (Z to H, four times as wide, and H to the next layer's X).
void buildTransformer(TraceBuilder &B, const ModelShape &M) {
  uint64_t S = M.SeqBlocks, D = M.HiddenTiles;
  for (uint64_t L = 0; L != M.Layers; ++L) {
    buildMatmul(B, matmul(S, 3 * D, D, tiles(L, "X"), tiles(L, "QKV")));
    buildAttention(B, attention(L, S, D));
    buildMatmul(B, matmul(S, D, D, tiles(L, "O"), tiles(L, "Y")));
    buildNorm(B, S, D, tiles(L, "Y"), tiles(L, "Z"));
    buildMatmul(B, matmul(S, 4 * D, D, tiles(L, "Z"), tiles(L, "H")));
    buildMatmul(B, matmul(S, D, 4 * D, tiles(L, "H"), tiles(L + 1, "X")));
  }
}

uint64_t convNetNodes(const ModelShape &M, const ConvShape &S) {
  ConvShape One = S;
  One.Layers = 1;
  return mul(M.Layers, convNodes(One));
}

uint64_t convNetUses(const ModelShape &M, const ConvShape &S) {
  // Each layer a one-layer conv graph with its own loads and stores, as
  // buildConvNet makes it.
  uint64_t Uses = 0;
  for (uint64_t L = 0; L != M.Layers && Uses != UINT64_MAX; ++L) {
    ConvShape One = S;
    One.Layers = 1;
    One.Kernels = {S.Kernels[L % S.Kernels.size()]};
    Uses = add(Uses, convUses(One));
  }
  return Uses;
}

/// Layer after layer, one convolution kernel each (its kernel size from
/// S.Kernels in turn), reading the feature map the kernel before stored.
void buildConvNet(TraceBuilder &B, const ModelShape &M, const ConvShape &S) {
  for (uint64_t L = 0; L != M.Layers; ++L) {
    ConvShape One = S;
    One.Layers = 1;
    One.Kernels = {S.Kernels[L % S.Kernels.size()]};
    One.NameIn = tiles(L, "F");
    One.NameOut = tiles(L + 1, "F");
    buildConv(B, One);
  }
}

} // namespace dan::gen
