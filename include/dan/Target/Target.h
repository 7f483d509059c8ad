//===- Target.h - The target and the execution model ------------*- C++ -*-===//
//
// The lowest layer of DAN. A target description names the memory tiers
// (capacity, which count toward peak residency, which are L0 operand
// buffers), the pipes, which pipes run the spill nodes, the spill cost
// model and the operations that load from DDR; the rules of the execution
// model use them: which buffers DDR still holds, what a spill costs in bytes
// and cycles, and the pipe and cycles of each kind of node. Every library
// above asks here; none writes these rules again. The built-in descriptions
// live in their own folders (lib/Target/Davinci); a file's target header
// (docs/LangRef.md, "Target") and the tools' --capacity and --spill-cost
// options change the numbers.
//
//===----------------------------------------------------------------------===//

#ifndef DAN_TARGET_TARGET_H
#define DAN_TARGET_TARGET_H

#include "dan/Target/Enums.h"
#include "llvm/ADT/STLExtras.h"
#include "llvm/ADT/SmallVector.h"
#include "llvm/Support/Error.h"
#include "llvm/Support/MathExtras.h"
#include "llvm/Support/raw_ostream.h"
#include <array>
#include <optional>
#include <string>

namespace dan {

/// The largest number DAN accepts anywhere: a size, cycle count, offset or
/// id of the IR, or a value of the target (2^40).
constexpr uint64_t MaxValue = uint64_t(1) << 40;

/// A set of tiers or of pipes: bit I for index I.
using TierMask = uint32_t;
using PipeMask = uint32_t;
constexpr uint32_t AllOfThem = ~0u;

/// Which pipes an operation of one name may run on, and which tiers it may
/// use (AllOfThem: any).
struct OpRule {
  std::string Name;
  PipeMask Pipes = AllOfThem;
  TierMask Tiers = AllOfThem;
  bool operator==(const OpRule &O) const {
    return Name == O.Name && Pipes == O.Pipes && Tiers == O.Tiers;
  }
};

/// How a tier's buffers spill: the pipes of SPILL_OUT and SPILL_IN and the
/// cycles of one transfer, Alpha + Beta * size.
struct SpillPath {
  Pipe Out{}, In{};
  uint64_t Alpha = 0, Beta = 0;
  /// Cycles of one transfer of \p Size bytes, saturating at 2^64 - 1
  /// (alpha, beta and size may each be up to 2^40).
  uint64_t transferCycles(uint64_t Size) const {
    return llvm::SaturatingMultiplyAdd(Beta, Size, Alpha);
  }
  bool operator==(const SpillPath &O) const {
    return Out == O.Out && In == O.In && Alpha == O.Alpha && Beta == O.Beta;
  }
  bool operator!=(const SpillPath &O) const { return !(*this == O); }
};

/// One memory tier of a target.
struct TierDesc {
  std::string Name;
  /// Bytes (trace units) of the on-chip memory.
  uint64_t Capacity = 0;
  /// Every placement's offset is a multiple of it (a power of two).
  uint64_t Align = 1;
  /// Whether its live bytes add to the peak residency (metric 1).
  bool CountsInPeak = false;
  /// Whether it is an L0 operand buffer (stage 1's rule: at most one live
  /// buffer at a time).
  bool IsL0 = false;
  bool operator==(const TierDesc &O) const {
    return Name == O.Name && Capacity == O.Capacity && Align == O.Align &&
           CountsInPeak == O.CountsInPeak && IsL0 == O.IsL0;
  }
};

class TargetDesc {
public:
  /// The Davinci core (lib/Target/Davinci), the default target.
  static TargetDesc davinci();
  /// A vector NPU with two unified buffers and no L0 (lib/Target/VNPU).
  static TargetDesc vnpu();
  /// The built-in description named \p Name, if there is one.
  static std::optional<TargetDesc> builtin(llvm::StringRef Name);
  /// The names of the built-in descriptions.
  static llvm::ArrayRef<llvm::StringRef> builtinNames();

  /// The target's name in a file's header: 'target davinci'.
  llvm::StringRef name() const { return Name; }
  /// The key of the spill cost in a file's target header.
  static llvm::StringRef spillCostKey() { return "spill_cost"; }
  /// The keys a target header may set, in the order the printer writes
  /// them: the tiers in table order, then spill_cost.
  llvm::SmallVector<llvm::StringRef, MaxTiers + 1> headerKeys() const;
  /// Writes the target header of a file (without a newline). A built-in
  /// description, or one that differs from it only in values headerKeys()
  /// names, as 'target davinci' followed by the values that differ in
  /// headerKeys() order, as in 'target davinci { L1 = 192, spill_cost =
  /// 100 + 3 * size }'; any other as printDescription writes it.
  void printHeader(llvm::raw_ostream &OS) const;
  /// Writes the whole description with every value, one entry per line
  /// (docs/LangRef.md, "Target descriptions"), without a final newline.
  void printDescription(llvm::raw_ostream &OS) const;

  /// The tiers and pipes, in the order the description lists them.
  unsigned numTiers() const { return Tiers.size(); }
  unsigned numPipes() const { return PipeNames.size(); }
  llvm::StringRef tierName(Tier T) const { return Tiers[index(T)].Name; }
  llvm::StringRef pipeName(Pipe P) const { return PipeNames[index(P)]; }
  std::optional<Tier> lookupTier(llvm::StringRef Name) const;
  std::optional<Pipe> lookupPipe(llvm::StringRef Name) const;
  llvm::SmallVector<llvm::StringRef, MaxTiers> tierNames() const;
  /// The tiers that count in the peak, joined by '+' ("L1+UB" on Davinci),
  /// as the peak metric's title names them.
  std::string peakTierNames() const;
  llvm::SmallVector<llvm::StringRef, MaxPipes> pipeNames() const;

  uint64_t capacity(Tier T) const { return Tiers[index(T)].Capacity; }
  bool countsInPeak(Tier T) const { return Tiers[index(T)].CountsInPeak; }
  bool isL0(Tier T) const { return Tiers[index(T)].IsL0; }
  uint64_t alignment(Tier T) const { return Tiers[index(T)].Align; }
  const TierDesc &tier(Tier T) const { return Tiers[index(T)]; }
  /// The pipe of vector (element-wise) work, if the target names one:
  /// stage 1's staged traversal orders its operations late.
  std::optional<Pipe> vectorPipe() const { return VectorPipe; }
  /// The pipe of dan-link's SYNC between kernels: the vector pipe, else the
  /// first; among the pipes the rule of 'SYNC' allows, when it has one.
  Pipe syncPipe() const;
  /// The operations that load from DDR, in the description's order.
  llvm::ArrayRef<std::string> loadOps() const { return LoadOps; }
  /// The tiers an operation on pipe \p P may use.
  TierMask pipeTiers(Pipe P) const { return PipeTiers[index(P)]; }
  /// The rules of operation names, in the description's order; the rule of
  /// \p OpName, if it has one.
  llvm::ArrayRef<OpRule> opRules() const { return OpRules; }
  const OpRule *opRule(llvm::StringRef OpName) const;
  /// How buffers of tier \p T spill: the tier's own path, else the
  /// description's default ('spill { ... }').
  const SpillPath &spillPath(Tier T) const {
    const std::optional<SpillPath> &Own = TierSpill[index(T)];
    return Own ? *Own : DefaultSpill;
  }
  /// The default path; whether every tier spills by it.
  const SpillPath &defaultSpillPath() const { return DefaultSpill; }
  bool uniformSpill() const;
  /// The default path's cost, as reports and the plan cost name it.
  uint64_t spillAlpha() const { return DefaultSpill.Alpha; }
  uint64_t spillBeta() const { return DefaultSpill.Beta; }
  /// Cycles of one transfer of \p Size bytes of tier \p T.
  uint64_t transferCycles(Tier T, uint64_t Size) const {
    return spillPath(T).transferCycles(Size);
  }
  /// Cycles of a SPILL_OUT: nothing moves when DDR still holds the data.
  uint64_t spillOutCycles(Tier T, uint64_t Size, bool DDRBacked) const {
    return DDRBacked ? 0 : transferCycles(T, Size);
  }
  /// Cycles of a SPILL_IN.
  uint64_t spillInCycles(Tier T, uint64_t Size) const {
    return transferCycles(T, Size);
  }
  /// The cycles of the SPILL_OUT and SPILL_IN of one spill (S(b,k), eq. 29
  /// of docs/DLR.md), saturating.
  uint64_t spillCycles(Tier T, uint64_t Size, bool DDRBacked) const {
    return llvm::SaturatingAdd(spillOutCycles(T, Size, DDRBacked),
                               spillInCycles(T, Size));
  }
  /// The extra DDR traffic of one spill of \p Size bytes (metric 2; T(b,k),
  /// eq. 28 of docs/DLR.md): the reload only when DDR still holds the data,
  /// the write-back too otherwise. Saturating.
  static uint64_t spillTraffic(uint64_t Size, bool DDRBacked) {
    return DDRBacked ? Size : llvm::SaturatingAdd(Size, Size);
  }
  /// Whether an operation named \p OpName loads its buffers from DDR: DDR
  /// then still holds their data, so a spill of such a buffer writes
  /// nothing back (a "DDR-backed" buffer).
  bool loadsFromDDR(llvm::StringRef OpName) const {
    return llvm::is_contained(LoadOps, OpName);
  }

  /// The pipe a node of kind \p K occupies: an operation its own \p OpPipe,
  /// a spill node the spill pipe of its buffer's tier \p BufTier;
  /// std::nullopt for ALLOC and FREE, which occupy none.
  std::optional<Pipe> nodePipe(NodeKind K, Pipe OpPipe, Tier BufTier) const {
    switch (K) {
    case NodeKind::Op:
      return OpPipe;
    case NodeKind::SpillOut:
      return spillPath(BufTier).Out;
    case NodeKind::SpillIn:
      return spillPath(BufTier).In;
    case NodeKind::Alloc:
    case NodeKind::Free:
      return std::nullopt;
    }
    return std::nullopt;
  }
  /// The cycles a node of kind \p K takes: an operation its own
  /// \p OpCycles, a spill node the transfer of its buffer (\p BufSize
  /// bytes of tier \p BufTier; nothing for a SPILL_OUT of a DDR-backed
  /// buffer), ALLOC and FREE none.
  uint64_t nodeCycles(NodeKind K, uint64_t OpCycles, Tier BufTier,
                      uint64_t BufSize, bool DDRBacked) const {
    switch (K) {
    case NodeKind::Op:
      return OpCycles;
    case NodeKind::SpillOut:
      return spillOutCycles(BufTier, BufSize, DDRBacked);
    case NodeKind::SpillIn:
      return spillInCycles(BufTier, BufSize);
    case NodeKind::Alloc:
    case NodeKind::Free:
      return 0;
    }
    return 0;
  }
  /// Building a description: a tier, a pipe, the vector and spill pipes, an
  /// operation that loads from DDR. At most MaxTiers tiers and MaxPipes
  /// pipes.
  explicit TargetDesc(llvm::StringRef Name) : Name(Name.str()) {}
  Tier addTier(TierDesc D);
  Pipe addPipe(llvm::StringRef Name);
  void setVectorPipe(Pipe P) { VectorPipe = P; }
  /// The default spill path's pipes.
  void setSpillPipes(Pipe Out, Pipe In) {
    DefaultSpill.Out = Out;
    DefaultSpill.In = In;
  }
  void setDefaultSpillPath(SpillPath P) { DefaultSpill = P; }
  /// Tier \p T's own spill path.
  void setTierSpillPath(Tier T, SpillPath P) { TierSpill[index(T)] = P; }
  void addLoadOp(llvm::StringRef OpName) { LoadOps.push_back(OpName.str()); }
  void setPipeTiers(Pipe P, TierMask M) { PipeTiers[index(P)] = M; }
  void addOpRule(OpRule R) { OpRules.push_back(std::move(R)); }

  void setCapacity(Tier T, uint64_t Bytes) { Tiers[index(T)].Capacity = Bytes; }
  /// Every spill path's cost (--spill-cost and the 'spill_cost' key set
  /// them all).
  void setSpillCost(uint64_t A, uint64_t B) {
    DefaultSpill.Alpha = A;
    DefaultSpill.Beta = B;
    for (std::optional<SpillPath> &P : TierSpill)
      if (P) {
        P->Alpha = A;
        P->Beta = B;
      }
  }

  /// Applies "TIER=N" (as given to --capacity).
  llvm::Error parseCapacity(llvm::StringRef Spec);
  /// Checks the form and number of "TIER=N" but not the tier, which only
  /// the target it applies to names.
  static llvm::Error checkCapacitySpec(llvm::StringRef Spec);
  /// Applies "ALPHA,BETA" (as given to --spill-cost).
  llvm::Error parseSpillCost(llvm::StringRef Spec);

  /// Whether every number is the same.
  bool operator==(const TargetDesc &O) const;
  bool operator!=(const TargetDesc &O) const { return !(*this == O); }

private:
  std::string Name;
  llvm::SmallVector<TierDesc, MaxTiers> Tiers;
  llvm::SmallVector<std::string, MaxPipes> PipeNames;
  std::optional<Pipe> VectorPipe;
  SpillPath DefaultSpill;
  std::array<std::optional<SpillPath>, MaxTiers> TierSpill{};
  llvm::SmallVector<std::string, 1> LoadOps;
  std::array<TierMask, MaxPipes> PipeTiers = filledMasks();
  std::vector<OpRule> OpRules;
  static std::array<TierMask, MaxPipes> filledMasks() {
    std::array<TierMask, MaxPipes> M;
    M.fill(AllOfThem);
    return M;
  }
};

} // namespace dan

#endif // DAN_TARGET_TARGET_H
