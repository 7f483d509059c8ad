//===- PlanViews.h - A plan's occupancy and pipe timeline -------*- C++ -*-===//
//
// The views of a replayed plan, as SVG 1.1 documents drawn with the same kit
// as Charts.h (same properties: self-contained, fixed size, the same input
// gives the same bytes): the offset-by-time occupancy of every tier and the
// pipe timeline. docs/Charts.md describes how to read them and the size caps
// on big graphs.
//
//===----------------------------------------------------------------------===//

#ifndef DAN_REPORT_PLANVIEWS_H
#define DAN_REPORT_PLANVIEWS_H

#include "dan/Analysis/Replay.h"
#include "dan/IR/Graph.h"
#include "dan/Target/Target.h"
#include "llvm/Support/raw_ostream.h"
#include <cstddef>
#include <string>
#include <utility>
#include <vector>

namespace dan::svg {

/// Offset-by-time occupancy of every tier of a planned graph: one panel per
/// tier that holds buffers, x = time (cycles, from R.Start/R.Finish), y =
/// offset; one rectangle per residency interval of a buffer (placement to
/// its release: ALLOC or SPILL_IN to FREE or SPILL_OUT, timed by the replay:
/// from the placing node's start to the releasing node's finish), spilled
/// intervals visibly distinct; capacity line. Above 2,000 intervals the
/// rectangles are snapped to whole pixels and merged (docs/Charts.md).
void writeOccupancy(const Graph &G, const ReplayResult &R, const TargetDesc &T,
                    llvm::raw_ostream &OS);

/// Pipe timeline: one row per pipe, one rectangle per node on it
/// (start..finish from R), colour by op kind (spill nodes distinct), time
/// axis. Above 2,000 nodes on pipes each row is binned into 1-pixel columns
/// (docs/Charts.md).
void writePipeTimeline(const Graph &G, const ReplayResult &R,
                       const TargetDesc &T, llvm::raw_ostream &OS);

/// The views of one replayed graph as named SVG documents, the names from
/// the graph's: "<graph>-pipes.svg" (writePipeTimeline) and, when the graph
/// has a memory plan, "<graph>-occupancy.svg" (writeOccupancy).
std::vector<std::pair<std::string, std::string>>
drawPlanViews(const Graph &G, const ReplayResult &R, const TargetDesc &T);

/// The number of intervals or nodes up to which writeOccupancy and
/// writePipeTimeline draw every one exactly, with a tooltip each.
constexpr size_t ExactLimit = 2000;
/// The most rectangles writeOccupancy draws once it merges: past it, its
/// time grid coarsens by powers of two.
constexpr size_t OccupancyRectCap = 20000;

} // namespace dan::svg

#endif // DAN_REPORT_PLANVIEWS_H
