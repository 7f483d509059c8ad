//===- TimeAxis.h - The time axis of the plan views -------------*- C++ -*-===//
//
// Private to lib/Report: the x axis, in cycles from 0 to the makespan,
// that the occupancy (OccupancyView.cpp) and the pipe timeline
// (TimelineView.cpp) share, with the plot's left edge and the charts'
// width.
//
//===----------------------------------------------------------------------===//

#ifndef DAN_LIB_REPORT_TIMEAXIS_H
#define DAN_LIB_REPORT_TIMEAXIS_H

#include "SVGKit.h"
#include "llvm/Support/raw_ostream.h"
#include <algorithm>
#include <cstdint>

namespace dan::svg {

inline constexpr double PlotLeft = 120;
inline constexpr double ChartWidth = 1600;

struct TimeAxis {
  double Left, Width, TMax;
  double Step;
  CountAxis Labels;
  TimeAxis(double Left, double Width, uint64_t Makespan)
      : Left(Left), Width(Width), TMax(double(std::max<uint64_t>(Makespan, 1))),
        Step(niceStep(TMax, 10)), Labels(TMax) {}
  double x(double T) const { return Left + T / TMax * Width; }
  /// Vertical grid lines from \p Top to \p Bottom.
  void grid(llvm::raw_ostream &OS, double Top, double Bottom) const {
    for (double T : ticks(0, TMax, Step))
      line(OS, x(T), Top, x(T), Bottom, "#d0d0d0", 0.5);
  }
  /// Tick marks and labels under \p Y.
  void labels(llvm::raw_ostream &OS, double Y) const {
    line(OS, Left, Y, Left + Width, Y, "#333333");
    for (double T : ticks(0, TMax, Step)) {
      line(OS, x(T), Y, x(T), Y + 4, "#333333");
      text(OS, x(T), Y + 15, Labels.label(T, Step), {10, "middle"});
    }
  }
};

} // namespace dan::svg

#endif // DAN_LIB_REPORT_TIMEAXIS_H
