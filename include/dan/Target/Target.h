//===- Target.h - The target description -------------------------*- C++
//-*-===//
//
// Tier capacities, which tiers count toward peak residency, which tiers are
// L0, which pipes run the spill nodes and the spill cost model. The defaults
// come from Davinci.def; tools override them from the command line.
//
//===----------------------------------------------------------------------===//

#ifndef DAN_TARGET_TARGET_H
#define DAN_TARGET_TARGET_H

#include "dan/IR/Enums.h"
#include "llvm/Support/Error.h"
#include "llvm/Support/MathExtras.h"
#include <array>

namespace dan {

/// The operation costs dan-gen uses (DAN_OP_COST in Davinci.def).
enum class OpCost : uint8_t {
#define DAN_OP_COST(Key, Base, Num, Den) Key,
#include "dan/Target/Davinci.def"
};

constexpr unsigned NumOpCosts = 0
#define DAN_OP_COST(Key, Base, Num, Den) +1
#include "dan/Target/Davinci.def"
    ;

class TargetDesc {
public:
  /// The Davinci core with the numbers of Davinci.def.
  static TargetDesc davinci();

  uint64_t capacity(Tier T) const { return Capacity[index(T)]; }
  bool countsInPeak(Tier T) const { return CountsInPeak[index(T)]; }
  bool isL0(Tier T) const { return IsL0[index(T)]; }
  Pipe spillOutPipe() const { return SpillOutPipe; }
  Pipe spillInPipe() const { return SpillInPipe; }
  uint64_t spillAlpha() const { return Alpha; }
  uint64_t spillBeta() const { return Beta; }
  /// Cycles of one transfer of \p Size bytes: alpha + beta * size,
  /// saturating at 2^64 - 1 (alpha, beta and size may each be up to 2^40).
  uint64_t transferCycles(uint64_t Size) const {
    return llvm::SaturatingMultiplyAdd(Beta, Size, Alpha);
  }
  /// Cycles of a SPILL_OUT: nothing moves when DDR still holds the data.
  uint64_t spillOutCycles(uint64_t Size, bool DDRBacked) const {
    return DDRBacked ? 0 : transferCycles(Size);
  }
  /// Cycles of a SPILL_IN.
  uint64_t spillInCycles(uint64_t Size) const { return transferCycles(Size); }
  /// Cycles of an operation of cost \p K on quantity \p X:
  /// Base + Num * X / Den, saturating.
  uint64_t opCycles(OpCost K, uint64_t X) const {
    const OpCostRow &R = OpCosts[static_cast<unsigned>(K)];
    return llvm::SaturatingAdd(R.Base,
                               llvm::SaturatingMultiply(R.Num, X) / R.Den);
  }

  void setCapacity(Tier T, uint64_t Bytes) { Capacity[index(T)] = Bytes; }
  void setSpillCost(uint64_t A, uint64_t B) {
    Alpha = A;
    Beta = B;
  }

  /// Applies "TIER=N" (as given to --capacity).
  llvm::Error parseCapacity(llvm::StringRef Spec);
  /// Applies "ALPHA,BETA" (as given to --spill-cost).
  llvm::Error parseSpillCost(llvm::StringRef Spec);

private:
  static unsigned index(Tier T) { return static_cast<unsigned>(T); }
  std::array<uint64_t, NumTiers> Capacity{};
  std::array<bool, NumTiers> CountsInPeak{};
  std::array<bool, NumTiers> IsL0{};
  Pipe SpillOutPipe = Pipe::MTE3;
  Pipe SpillInPipe = Pipe::MTE2;
  uint64_t Alpha = 0;
  uint64_t Beta = 0;
  struct OpCostRow {
    uint64_t Base = 0, Num = 0, Den = 1;
  };
  std::array<OpCostRow, NumOpCosts> OpCosts{};
};

} // namespace dan

#endif // DAN_TARGET_TARGET_H
