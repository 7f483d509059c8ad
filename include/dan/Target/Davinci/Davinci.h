//===- Davinci.h - The Davinci target's tiers, pipes and costs --*- C++ -*-===//
//
// The built-in Davinci description (lib/Target/Davinci) by name: its tiers
// and pipes as constants, for code that writes Davinci graphs (dan-gen's
// kernel families, tests), and the operation costs dan-gen writes. Every
// library that plans reads tiers and pipes from the graph's target instead.
//
//===----------------------------------------------------------------------===//

#ifndef DAN_TARGET_DAVINCI_DAVINCI_H
#define DAN_TARGET_DAVINCI_DAVINCI_H

#include "dan/Target/Target.h"

namespace dan::davinci {

namespace detail {
enum TierIndex : uint8_t {
#define DAN_TIER(Name, Capacity, Align, CountsInPeak, IsL0) Name,
#include "dan/Target/Davinci/Davinci.def"
};
enum PipeIndex : uint8_t {
#define DAN_PIPE(Name) Name,
#include "dan/Target/Davinci/Davinci.def"
};
} // namespace detail

#define DAN_TIER(Name, Capacity, Align, CountsInPeak, IsL0)                    \
  constexpr Tier Name = static_cast<Tier>(detail::Name);
#include "dan/Target/Davinci/Davinci.def"
#define DAN_PIPE(Name) constexpr Pipe Name = static_cast<Pipe>(detail::Name);
#include "dan/Target/Davinci/Davinci.def"

/// The operation costs dan-gen writes (DAN_OP_COST in Davinci.def).
enum class OpCost : uint8_t {
#define DAN_OP_COST(Key, Base, Num, Den) Key,
#include "dan/Target/Davinci/Davinci.def"
};

/// Cycles of an operation of cost \p K on quantity \p X:
/// Base + Num * X / Den, saturating.
uint64_t opCycles(OpCost K, uint64_t X);

} // namespace dan::davinci

#endif // DAN_TARGET_DAVINCI_DAVINCI_H
