//===- SVG.h - Charts as plain SVG 1.1 ----------------------------*- C++
//-*-===//
//
// Writers of the charts dan-bench draws: grouped bars of normalized metrics,
// a heat map, the offset-by-time occupancy of every tier of a planned graph
// and the pipe timeline. Each writes one self-contained SVG 1.1 document
// (no script, no external reference) with a viewBox and a fixed size that
// depends only on the input; the same input gives the same bytes. Numbers are
// formatted without the C locale. docs/Charts.md describes how to read each
// chart, the palettes (colour-blind safe) and the size caps on big graphs.
//
//===----------------------------------------------------------------------===//

#ifndef DAN_FORMATS_SVG_H
#define DAN_FORMATS_SVG_H

#include "dan/Analysis/Replay.h"
#include "dan/IR/Graph.h"
#include "dan/Target/Target.h"
#include "llvm/Support/raw_ostream.h"
#include <cmath>
#include <string>
#include <vector>

namespace dan::svg {

/// One group of bars: one bar per series, in BarChart::Series order.
struct BarGroup {
  std::string Label;
  /// Values[i] belongs to Series[i]; NaN (or a missing value) draws no bar
  /// and writes "n/a" in its place.
  std::vector<double> Values;
};

struct BarChart {
  std::string Title, YLabel;
  /// The legend, one colour per series.
  std::vector<std::string> Series;
  std::vector<BarGroup> Groups;
  /// A dashed horizontal line at this value (1.0: the base); NaN for none.
  double ReferenceLine = 1.0;
  /// Written at the right end of the reference line, when not empty.
  std::string ReferenceLabel;
  /// A line of smaller text under the title, when not empty.
  std::string Subtitle;
  /// printf format of one double for the value written on each bar.
  std::string ValueFormat = "%.2f";
};

/// Grouped bars with a legend, round y ticks, grid lines and value labels.
void writeBarChart(const BarChart &C, llvm::raw_ostream &OS);

struct HeatMap {
  std::string Title, RowLabel, ColLabel;
  std::vector<std::string> Rows, Cols;
  /// Values[r][c]; NaN (or a missing value) is an empty cell ("n/a").
  std::vector<std::vector<double>> Values;
  /// printf format of one double (one %f, %e or %g conversion); another
  /// format falls back to "%.2f".
  std::string ValueFormat = "%.2f";
  /// NaN: a sequential scale (viridis, dark = low, yellow = high) from the
  /// smallest to the largest value. A number: a diverging scale (blue below,
  /// white at, red above) symmetric around it, e.g. 1.0 for ratios to a base.
  double Center = NAN;
  /// A line of smaller text under the title, when not empty.
  std::string Subtitle;
};

/// Cells coloured by value with their value written in them, row and column
/// labels and a colour bar.
void writeHeatMap(const HeatMap &H, llvm::raw_ostream &OS);

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

/// The number of intervals or nodes up to which writeOccupancy and
/// writePipeTimeline draw every one exactly, with a tooltip each.
constexpr size_t ExactLimit = 2000;
/// The most rectangles writeOccupancy draws once it merges: past it, its
/// time grid coarsens by powers of two.
constexpr size_t OccupancyRectCap = 20000;

} // namespace dan::svg

#endif // DAN_FORMATS_SVG_H
