//===- GenGemv.cpp - A matrix-vector product on vnpu ----------------------===//
//
// The gemv family, written for the vnpu target (docs/Targets.md): y = A x
// in row blocks. Each x tile is loaded into VA on its first use and kept
// for every row block after (more x than VA holds makes stage 2 choose which
// to evict); each A tile is streamed into VB, multiplied by its x tile into
// a partial sum in VB, and added to the row block's accumulator in VA,
// which is stored once the row is done.
//
//===----------------------------------------------------------------------===//

#include "GenBuilder.h"
#include "dan/Target/VNPU/VNPU.h"

using namespace llvm;

namespace dan::gen {

/// Bytes of an A tile (32 x 32 fp16), an x tile, a partial sum and a row
/// block's accumulator.
static constexpr uint64_t ATileBytes = 2048, XTileBytes = 512, PartBytes = 64,
                          AccBytes = 64;

uint64_t gemvNodes(const GemvShape &S) {
  // Seven per step (the A tile's and the partial's ALLOC and FREE, the
  // LOAD, the MUL and the ADD), three per x tile and three per row block.
  uint64_t Steps = mul(S.MTiles, S.KTiles);
  return add(mul(7, Steps), add(mul(3, S.KTiles), mul(3, S.MTiles)));
}

void buildGemv(TraceBuilder &B, const GemvShape &S) {
  using namespace vnpu;
  unsigned Load = B.name("LOAD"), Mul = B.name("MUL"), Add = B.name("ADD"),
           Store = B.name("STORE");
  constexpr uint64_t Unset = UINT64_MAX;
  std::vector<uint64_t> X(S.KTiles, Unset);
  for (uint64_t M = 0; M != S.MTiles; ++M) {
    uint64_t Acc = B.alloc(VA, AccBytes);
    for (uint64_t K = 0; K != S.KTiles; ++K) {
      if (X[K] == Unset) {
        X[K] = B.alloc(VA, XTileBytes);
        B.op(Load, DMA_IN, dmaCycles(XTileBytes), {X[K]});
      }
      uint64_t A = B.alloc(VB, ATileBytes);
      B.op(Load, DMA_IN, dmaCycles(ATileBytes), {A});
      uint64_t Part = B.alloc(VB, PartBytes);
      B.op(Mul, VEC, vectorCycles(ATileBytes), {Part, A, X[K]});
      B.op(Add, VEC, vectorCycles(AccBytes), {Acc, Part});
    }
    B.op(Store, DMA_OUT, dmaCycles(AccBytes), {Acc}, /*Writes=*/false);
  }
}

} // namespace dan::gen
