//===- GenConv.cpp - Multi-layer convolution ------------------------------===//
//
// The conv family: layers of CONVs over feature-map and channel tiles in
// L1, each with its own weight, the network's input loaded from DDR and
// its output written back.
//
//===----------------------------------------------------------------------===//

#include "GenBuilder.h"
#include <algorithm>

using namespace llvm;

namespace dan::gen {

uint64_t convNodes(const ConvShape &S) {
  // Three per input tile, nine per CONV, one COPY_OUT per output tile.
  uint64_t Tiles = mul(S.FmapTiles, S.ChannelTiles);
  return mul(Tiles, add(mul(9, S.Layers), 4));
}

uint64_t convUses(const ConvShape &S) {
  // Per CONV: its result, its weight and the input tiles in its reach;
  // per tile a COPY_IN, a MOVE of two and a COPY_OUT besides.
  uint64_t Uses = 0;
  for (uint64_t L = 0; L != S.Layers && Uses != UINT64_MAX; ++L) {
    uint64_t Kernel = S.Kernels[L % S.Kernels.size()];
    uint64_t Reach = std::min(S.FmapTiles, Kernel);
    Uses = add(Uses, mul(mul(S.FmapTiles, S.ChannelTiles),
                         add(mul(Reach, S.ChannelTiles), 6)));
  }
  return add(Uses, mul(2, mul(S.FmapTiles, S.ChannelTiles)));
}

/// Layer after layer: each CONV writes one (feature-map tile, channel tile)
/// of its layer from the previous layer's tiles within the kernel's reach
/// (all channel tiles), with its own weight loaded to L1 and moved to L0B.
void buildConv(TraceBuilder &B, const ConvShape &S) {
  unsigned CopyIn = B.name("COPY_IN"), Move = B.name("MOVE"),
           Conv = B.name("CONV"), CopyOut = B.name("COPY_OUT");
  uint64_t Tiles = S.FmapTiles * S.ChannelTiles;
  constexpr uint64_t Unset = UINT64_MAX;
  std::vector<uint64_t> In(Tiles, Unset), Out(Tiles);
  for (uint64_t L = 0; L != S.Layers; ++L) {
    uint64_t Kernel = S.Kernels[L % S.Kernels.size()];
    uint64_t Reach = Kernel / 2, WeightL1 = 16 * Kernel * Kernel,
             WeightL0 = 8 * Kernel * Kernel;
    for (uint64_t T = 0; T != S.FmapTiles; ++T) {
      for (uint64_t C = 0; C != S.ChannelTiles; ++C) {
        // The rest would only repeat the error finish reports.
        if (B.failed())
          return;
        uint64_t Result = B.alloc(davinci::L1, S.TileBytes);
        SmallVector<uint64_t, 8> Bufs;
        uint64_t First = T >= Reach ? T - Reach : 0,
                 Last = std::min(S.FmapTiles - 1, T + Reach);
        for (uint64_t U = First; U <= Last; ++U)
          for (uint64_t CI = 0; CI != S.ChannelTiles; ++CI) {
            uint64_t &Tile = In[U * S.ChannelTiles + CI];
            if (Tile == Unset) { // the network's input, from DDR
              Tile = B.alloc(davinci::L1, S.TileBytes);
              B.nameTile(B.op(CopyIn, davinci::MTE2,
                              B.cost(OpCost::CopyIn, S.TileBytes), {Tile}),
                         S.NameIn, U, CI, /*Store=*/false);
            }
            Bufs.push_back(Tile);
          }
        uint64_t W = B.alloc(davinci::L1, WeightL1);
        B.op(CopyIn, davinci::MTE2, B.cost(OpCost::CopyIn, WeightL1), {W});
        uint64_t WL0 = B.alloc(davinci::L0B, WeightL0);
        B.op(Move, davinci::MTE1, B.cost(OpCost::MoveWeight, WeightL0),
             {WL0, W});
        Bufs.insert(Bufs.begin(), {Result, WL0});
        B.op(Conv, davinci::CUBE,
             B.cost(OpCost::Conv,
                    mul(mul(Kernel * Kernel, S.TileBytes), S.ChannelTiles)),
             Bufs);
        Out[T * S.ChannelTiles + C] = Result;
      }
    }
    In = Out;
  }
  for (uint64_t K = 0; K != In.size(); ++K)
    B.nameTile(B.op(CopyOut, davinci::MTE3,
                    B.cost(OpCost::CopyOutL1, S.TileBytes), {In[K]},
                    /*Writes=*/false),
               S.NameOut, K / S.ChannelTiles, K % S.ChannelTiles,
               /*Store=*/true);
}

} // namespace dan::gen
