//===- GenerateCase.h - Fuzzer bytes to a graph that verifies ---*- C++ -*-===//
//
// The structure-aware side of the fuzz targets: random text almost never
// verifies, so the stage passes and the baselines never run on it. Here the
// fuzzer's bytes are decisions instead of text: the target's capacities and
// spill cost, the options of the three stages, and a random DAG of ALLOCs,
// operations and FREEs (or a dan-gen workload) that verifies by
// construction. A mutation of one byte changes one decision, so libFuzzer's
// coverage feedback still steers. docs/Fuzzing.md describes the shapes.
//
//===----------------------------------------------------------------------===//

#ifndef DAN_FUZZ_GENERATECASE_H
#define DAN_FUZZ_GENERATECASE_H

#include "dan/IR/Graph.h"
#include "dan/Select/Select.h"
#include "dan/Target/Target.h"
#include "dan/Transforms/CPE.h"
#include "dan/Transforms/DLR.h"
#include "dan/Transforms/MPAS.h"
#include "llvm/ADT/ArrayRef.h"
#include <cstdint>
#include <memory>

namespace dan::fuzz {

/// Reads decisions from the fuzzer's bytes, front to back. Once the bytes
/// run out every decision is 0, so any input gives a whole case.
class ByteReader {
public:
  explicit ByteReader(llvm::ArrayRef<uint8_t> Data) : Data(Data) {}
  bool empty() const { return Data.empty(); }
  uint8_t byte();
  bool flag() { return byte() & 1; }
  /// A value in [Lo, Hi], from as few bytes as the range needs.
  uint64_t range(uint64_t Lo, uint64_t Hi);
  /// One of \p Choices.
  template <typename T> T pick(llvm::ArrayRef<T> Choices) {
    return Choices[range(0, Choices.size() - 1)];
  }

private:
  llvm::ArrayRef<uint8_t> Data;
};

/// One generated case: a graph without a memory plan that verifies under
/// Target, and the options the stages run it with.
struct FuzzCase {
  std::unique_ptr<Graph> G;
  TargetDesc Target = TargetDesc::davinci();
  MPASOptions MPAS;
  DLROptions DLR;
  CPEOptions CPE;
  /// Whether G came from dan-gen's generator (lib/Gen) rather than the
  /// random DAG.
  bool FromGen = false;
};

/// The most nodes of a random DAG, so that one input stays well within the
/// targets' 10-second limit with every method run on it.
constexpr unsigned MaxCaseNodes = 1500;

/// Builds a case from \p R. Every operation's buffers fit each tier
/// together, so every method can plan it. Returns no graph when dan-gen
/// refuses its options (a shape whose tiles do not fit the capacities).
FuzzCase generateCase(ByteReader &R);

} // namespace dan::fuzz

#endif // DAN_FUZZ_GENERATECASE_H
