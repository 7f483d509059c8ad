//===- VNPU.h - The vnpu target's tiers, pipes and costs --------*- C++ -*-===//
//
// The built-in vnpu description (lib/Target/VNPU, docs/Targets.md): a
// vector NPU with two unified buffers and no L0, 32-byte alignment, one DMA
// engine each way and a vector unit. Its tiers and pipes as constants, for
// dan-gen's vnpu family and the tests, and the costs that family writes.
//
//===----------------------------------------------------------------------===//

#ifndef DAN_TARGET_VNPU_VNPU_H
#define DAN_TARGET_VNPU_VNPU_H

#include "dan/Target/Target.h"

namespace dan::vnpu {

constexpr Tier VA = static_cast<Tier>(0);
constexpr Tier VB = static_cast<Tier>(1);
constexpr Pipe DMA_IN = static_cast<Pipe>(0);
constexpr Pipe DMA_OUT = static_cast<Pipe>(1);
constexpr Pipe VEC = static_cast<Pipe>(2);

/// Cycles of a DMA transfer of \p Bytes (a load or store): the spill cost
/// of the description, 64 + 1 * bytes.
uint64_t dmaCycles(uint64_t Bytes);
/// Cycles of a vector operation writing \p Bytes: 8 + bytes / 32 (32 bytes
/// per cycle).
uint64_t vectorCycles(uint64_t Bytes);

} // namespace dan::vnpu

#endif // DAN_TARGET_VNPU_VNPU_H
