//===- CPE.h - Stage 3: critical path enhancement ----------------*- C++ -*-===//

#ifndef DAN_TRANSFORMS_CPE_H
#define DAN_TRANSFORMS_CPE_H

#include "dan/IR/Graph.h"
#include "dan/Target/Target.h"
#include "llvm/Support/Error.h"

namespace dan {

enum class CPEMode { Refine, Freeze, Ignore };

struct CPEOptions {
  CPEMode Mode = CPEMode::Refine;
  unsigned Window = 8;
  unsigned Passes = 4;
};

struct CPEStats {
  uint64_t MakespanBefore = 0;
  uint64_t MakespanAfter = 0;
  uint64_t Moves = 0;
  uint64_t Violations = 0; ///< --mode=ignore only
};

llvm::Expected<CPEStats> runCPE(Graph &G, const TargetDesc &T,
                                const CPEOptions &Opts);

} // namespace dan

#endif // DAN_TRANSFORMS_CPE_H
