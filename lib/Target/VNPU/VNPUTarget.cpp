//===- VNPUTarget.cpp - The vnpu target description -----------------------===//
//
// A vector NPU of another shape than Davinci (docs/Targets.md): two unified
// buffers that both count in the peak, no operand (L0) tier, 32-byte
// alignment, DMA in and out, a vector unit, and a spill at the DMA's cost.
//
//===----------------------------------------------------------------------===//

#include "dan/Target/VNPU/VNPU.h"

using namespace llvm;

namespace dan {

TargetDesc TargetDesc::vnpu() {
  using namespace vnpu;
  TargetDesc T("vnpu");
  T.addTier({"VA", 16384, 32, /*CountsInPeak=*/true, /*IsL0=*/false});
  T.addTier({"VB", 16384, 32, /*CountsInPeak=*/true, /*IsL0=*/false});
  T.addPipe("DMA_IN");
  T.addPipe("DMA_OUT");
  T.addPipe("VEC");
  T.setVectorPipe(VEC);
  T.setSpillPipes(DMA_OUT, DMA_IN);
  T.setSpillCost(64, 1);
  T.addLoadOp("LOAD");
  T.addOpRule({"LOAD", 1u << index(DMA_IN)});
  T.addOpRule({"STORE", 1u << index(DMA_OUT)});
  return T;
}

namespace vnpu {

uint64_t dmaCycles(uint64_t Bytes) {
  return SaturatingAdd<uint64_t>(64, Bytes);
}

uint64_t vectorCycles(uint64_t Bytes) { return 8 + Bytes / 32; }

} // namespace vnpu
} // namespace dan
