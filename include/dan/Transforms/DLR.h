//===- DLR.h - Stage 2: deterministic linear repackaging ---------*- C++ -*-===//

#ifndef DAN_TRANSFORMS_DLR_H
#define DAN_TRANSFORMS_DLR_H

#include "dan/IR/Graph.h"
#include "dan/Target/Target.h"
#include "llvm/Support/Error.h"

namespace dan {

enum class FitPolicy { Best, First };
enum class EvictPolicy { Cost, LRU, Belady };

struct DLROptions {
  FitPolicy Fit = FitPolicy::Best;
  EvictPolicy Evict = EvictPolicy::Cost;
  double LambdaByte = 1.0;
  double LambdaCyc = 1.0;
};

struct DLRStats {
  uint64_t Spills = 0;
  uint64_t ExtraTraffic = 0;
};

/// Places every buffer of \p G (which must have no memory plan) in schedule
/// order, inserting spills where nothing fits, and adds the spill and reuse
/// edges the plan implies.
llvm::Expected<DLRStats> runDLR(Graph &G, const TargetDesc &T,
                                const DLROptions &Opts);

} // namespace dan

#endif // DAN_TRANSFORMS_DLR_H
