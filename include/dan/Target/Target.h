//===- Target.h - The target and the execution model ------------*- C++ -*-===//
//
// The lowest layer of DAN. Tier capacities, which tiers count toward peak
// residency, which tiers are L0, which pipes run the spill nodes, the spill
// cost model, and the rules of the execution model that use them: which
// buffers DDR still holds, what a spill costs in bytes and cycles, and the
// pipe and cycles of each kind of node. Every library above asks here; none
// writes these rules again. The defaults come from Davinci.def; a file's
// target header (docs/LangRef.md, "Target") and the tools' --capacity and
// --spill-cost options change the numbers.
//
//===----------------------------------------------------------------------===//

#ifndef DAN_TARGET_TARGET_H
#define DAN_TARGET_TARGET_H

#include "dan/Target/Enums.h"
#include "llvm/Support/Error.h"
#include "llvm/Support/MathExtras.h"
#include "llvm/Support/raw_ostream.h"
#include <array>
#include <optional>

namespace dan {

/// The largest number DAN accepts anywhere: a size, cycle count, offset or
/// id of the IR, or a value of the target (2^40).
constexpr uint64_t MaxValue = uint64_t(1) << 40;

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

  /// The target's name in a file's header: 'target davinci'.
  static llvm::StringRef name() { return "davinci"; }
  /// The key of the spill cost in a file's target header.
  static llvm::StringRef spillCostKey() { return "spill_cost"; }
  /// The keys a target header may set, in the order the printer writes
  /// them: the tiers in table order, then spill_cost.
  static llvm::ArrayRef<llvm::StringRef> headerKeys();
  /// Writes the target header of a file (without a newline): 'target
  /// davinci' alone when every
  /// value is the default, else followed by the values that differ from the
  /// defaults in headerKeys() order, as in
  /// 'target davinci { L1 = 192, spill_cost = 100 + 3 * size }'.
  void printHeader(llvm::raw_ostream &OS) const;

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
  /// The cycles of the SPILL_OUT and SPILL_IN of one spill (S(b,k), eq. 29
  /// of docs/DLR.md), saturating.
  uint64_t spillCycles(uint64_t Size, bool DDRBacked) const {
    return llvm::SaturatingAdd(spillOutCycles(Size, DDRBacked),
                               spillInCycles(Size));
  }
  /// The extra DDR traffic of one spill of \p Size bytes (metric 2; T(b,k),
  /// eq. 28 of docs/DLR.md): the reload only when DDR still holds the data,
  /// the write-back too otherwise. Saturating.
  static uint64_t spillTraffic(uint64_t Size, bool DDRBacked) {
    return DDRBacked ? Size : llvm::SaturatingAdd(Size, Size);
  }
  /// Whether an operation named \p OpName loads its buffers from DDR
  /// (DAN_DDR_LOAD in Davinci.def): DDR then still holds their data, so a
  /// spill of such a buffer writes nothing back (a "DDR-backed" buffer).
  static bool loadsFromDDR(llvm::StringRef OpName);

  /// The pipe a node of kind \p K occupies: an operation its own \p OpPipe,
  /// a spill node the target's spill pipe; std::nullopt for ALLOC and FREE,
  /// which occupy none.
  std::optional<Pipe> nodePipe(NodeKind K, Pipe OpPipe) const {
    switch (K) {
    case NodeKind::Op:
      return OpPipe;
    case NodeKind::SpillOut:
      return SpillOutPipe;
    case NodeKind::SpillIn:
      return SpillInPipe;
    case NodeKind::Alloc:
    case NodeKind::Free:
      return std::nullopt;
    }
    return std::nullopt;
  }
  /// The cycles a node of kind \p K takes: an operation its own
  /// \p OpCycles, a spill node the transfer of its buffer (\p BufSize
  /// bytes; nothing for a SPILL_OUT of a DDR-backed buffer), ALLOC and FREE
  /// none.
  uint64_t nodeCycles(NodeKind K, uint64_t OpCycles, uint64_t BufSize,
                      bool DDRBacked) const {
    switch (K) {
    case NodeKind::Op:
      return OpCycles;
    case NodeKind::SpillOut:
      return spillOutCycles(BufSize, DDRBacked);
    case NodeKind::SpillIn:
      return spillInCycles(BufSize);
    case NodeKind::Alloc:
    case NodeKind::Free:
      return 0;
    }
    return 0;
  }
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

  /// Whether every number is the same.
  bool operator==(const TargetDesc &O) const;
  bool operator!=(const TargetDesc &O) const { return !(*this == O); }

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
    bool operator==(const OpCostRow &O) const {
      return Base == O.Base && Num == O.Num && Den == O.Den;
    }
  };
  std::array<OpCostRow, NumOpCosts> OpCosts{};
};

} // namespace dan

#endif // DAN_TARGET_TARGET_H
