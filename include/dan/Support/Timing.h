//===- Timing.h - Timing the phases of a tool -------------------*- C++ -*-===//
//
// --time-passes: each phase of a run (reading, a stage's own steps,
// writing) is timed as a region of one LLVM timer group, "DAN phases",
// which LLVM prints to stderr at exit in its usual report. A PhaseTimer
// costs nothing when timing is off. Phases are timed on the thread that
// runs the tool; work spread over a thread pool is timed as the phase
// that waits for it.
//
//===----------------------------------------------------------------------===//

#ifndef DAN_SUPPORT_TIMING_H
#define DAN_SUPPORT_TIMING_H

#include "llvm/ADT/StringRef.h"
#include "llvm/Support/Timer.h"

namespace dan {

/// Whether phases are timed; set by the tools' --time-passes.
inline bool TimePhases = false;

/// Times its scope as the phase \p Name ("dlr-plan") described as \p Desc
/// ("DLR: memory plan") when TimePhases is set and \p Enabled (false in a
/// job of a thread pool, whose caller times the phase).
class PhaseTimer {
public:
  PhaseTimer(llvm::StringRef Name, llvm::StringRef Desc, bool Enabled = true)
      : Region(Name, Desc, "dan", "DAN phases", TimePhases && Enabled) {}

private:
  llvm::NamedRegionTimer Region;
};

} // namespace dan

#endif // DAN_SUPPORT_TIMING_H
