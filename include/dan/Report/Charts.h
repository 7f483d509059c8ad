//===- Charts.h - Generic charts as plain SVG 1.1 ---------------*- C++ -*-===//
//
// Grouped bars and a heat map, drawn from plain numbers. Each writer writes
// one self-contained SVG 1.1 document (no script, no external reference)
// with a viewBox and a fixed size that depends only on the input; the same
// input gives the same bytes. Numbers are formatted without the C locale.
// docs/Charts.md describes how to read each chart and the palettes
// (colour-blind safe). PlanViews.h draws the views of a planned graph.
//
//===----------------------------------------------------------------------===//

#ifndef DAN_REPORT_CHARTS_H
#define DAN_REPORT_CHARTS_H

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

} // namespace dan::svg

#endif // DAN_REPORT_CHARTS_H
