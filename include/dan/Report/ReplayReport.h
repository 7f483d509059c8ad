//===- ReplayReport.h - dan-replay's report and Chrome trace ----*- C++ -*-===//
//
// A replayed plan as dan-replay reports it: the four metrics (optionally
// normalized to a baseline plan of the same graph), per-tier peaks, the L0
// single-residency status, the two makespan lower bounds and each pipe's
// busy time, as text or JSON; and its timeline as a Chrome trace.
// docs/CommandGuide/dan-replay.md lists the keys.
//
//===----------------------------------------------------------------------===//

#ifndef DAN_REPORT_REPLAYREPORT_H
#define DAN_REPORT_REPLAYREPORT_H

#include "dan/Analysis/Replay.h"
#include "dan/IR/Graph.h"
#include "dan/IR/MemoryPlan.h"
#include "dan/Report/Document.h"
#include "dan/Support/EnumTable.h"
#include "llvm/Support/raw_ostream.h"
#include <memory>
#include <optional>
#include <string>

namespace dan {

/// dan-replay's report formats: text and JSON.
llvm::ArrayRef<EnumEntry<ReportFormat>> replayReportFormats();
/// The readings of address reuse a replay can time a plan under.
llvm::ArrayRef<EnumEntry<ReuseReading>> reuseReadings();

/// One replayed plan and what the report says about its reuse edges.
struct MeasuredPlan {
  std::unique_ptr<Graph> G;
  ReplayResult R;
  /// "none" (no memory plan, no reuse edge), "safe" (exactly the reuse edges
  /// the plan implies under the safe reading), "literal" (timed under the
  /// literal reading) or "as-written" (other edges; only a graph that was
  /// not verified).
  llvm::StringRef Reading;
  size_t ReuseEdges = 0;
};

/// Replays \p G under its own target. \p Verified: the graph verified, so
/// its reuse edges are those its plan implies (they need not be computed
/// again). Under ReuseReading::Literal a plan is timed with the literal
/// reading's reuse edges instead of its own.
MeasuredPlan measurePlan(std::unique_ptr<Graph> G, bool Verified,
                         ReuseReading Reading);

/// Why \p Base is not a plan of the same graph as \p In (the same original,
/// non-spill, node ids), with both counts; std::nullopt when it is.
std::optional<std::string> planMismatch(const Graph &In, const Graph &Base);

/// The report of \p M in \p F (Text or JSON), with the four metrics
/// normalized to \p Base when given (\p BaseName names its file).
void printReplayReport(ReportFormat F, const MeasuredPlan &M,
                       const MeasuredPlan *Base, llvm::StringRef BaseName,
                       llvm::raw_ostream &OS);

/// The Chrome trace-event JSON of a replay (Perfetto, chrome://tracing), one
/// event per line: metadata naming the process (the graph) and one thread
/// per pipe, then one complete ("X") event per node that runs on a pipe, in
/// schedule order; 1 cycle is shown as 1 us.
void writeChromeTrace(const Graph &G, const ReplayResult &R,
                      const TargetDesc &T, llvm::raw_ostream &OS);

} // namespace dan

#endif // DAN_REPORT_REPLAYREPORT_H
