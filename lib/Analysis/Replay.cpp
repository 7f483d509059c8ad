//===- Replay.cpp - The ruler: timing and the four metrics ----------------===//

#include "dan/Analysis/Replay.h"

using namespace llvm;

namespace dan {

ReplayResult replay(const Graph &G, const TargetDesc &T) {
  ReplayResult R;
  // Placeholder: filled in with the replay; no tool uses it yet.
  return R;
}

} // namespace dan
