//===- OccupancyView.cpp - A planned graph's occupancy of each tier -------===//
//
// The occupancy: a panel per tier with its buffers' residency intervals,
// time across and offset up. The writer computes its layout first (the
// size depends only on the input), then writes the document top to
// bottom.
//
//===----------------------------------------------------------------------===//

#include "Residency.h"
#include "SVGKit.h"
#include "TimeAxis.h"
#include "dan/Report/PlanViews.h"
#include "llvm/ADT/STLExtras.h"
#include <algorithm>
#include <array>
#include <cmath>
#include <tuple>

using namespace llvm;

namespace dan::svg {

namespace {

const char *const IntervalColour[NumIntervalClasses] = {"#0072b2", "#e69f00",
                                                        "#cc79a7"};
const char *const IntervalName[NumIntervalClasses] = {
    "resident: ALLOC to FREE", "evicted: ALLOC to SPILL_OUT",
    "reloaded: SPILL_IN to FREE or SPILL_OUT"};

/// A merged rectangle of the occupancy in whole pixels of its panel: x from
/// the plot's left, y from the panel's bottom.
struct PxRect {
  unsigned Panel;
  IntervalClass Class;
  int64_t Y0, Y1, X0, X1;
};

/// A tier's panel of the occupancy: its extent and counts.
struct Panel {
  Tier BufTier;
  uint64_t YMax = 0, Drawn = 0, Spilled = 0, NoOffset = 0;
  double Top = 0;
};

/// The occupancy of one replayed graph, drawn in steps: the intervals and
/// the panels of the tiers that hold them, the rectangles (exact, or
/// snapped to pixels and merged), the layout, then each panel.
class Occupancy {
public:
  Occupancy(const Graph &G, const ReplayResult &R, const TargetDesc &T);
  void write(raw_ostream &OS) const;

private:
  static constexpr double PW = 1400, PanelH = 130;

  void buildPanels();
  std::vector<PxRect> pixelRects(unsigned CW) const;
  std::vector<std::string> subtitle() const;
  void layout();
  void drawPanel(raw_ostream &OS, unsigned PI) const;
  void drawExact(raw_ostream &OS, unsigned PI, double Bottom, double SY) const;
  void drawMerged(raw_ostream &OS, unsigned PI, double Bottom) const;

  const Graph &G;
  const ReplayResult &R;
  const TargetDesc &T;
  std::vector<Interval> Intervals;
  /// The panels: tiers that hold a buffer, in the target's order.
  std::vector<Panel> Panels;
  std::array<int, MaxTiers> PanelOf;
  size_t NoOffset = 0, Drawn = 0, SpilledCount = 0;
  TimeAxis X;
  bool Exact;
  /// Snapped and merged rectangles (when not Exact), on a time grid of
  /// ColW-px columns.
  std::vector<PxRect> Px;
  unsigned ColW = 1;
  std::vector<std::string> Sub;
  Legend L;
  double H = 0;
};

Occupancy::Occupancy(const Graph &G, const ReplayResult &R, const TargetDesc &T)
    : G(G), R(R), T(T), Intervals(residencyIntervals(G, R)),
      X(PlotLeft, PW, R.Makespan) {
  buildPanels();
  Exact = Drawn <= ExactLimit;
  // The time grid coarsens by powers of two until at most OccupancyRectCap
  // rectangles remain.
  if (!Exact) {
    Px = pixelRects(ColW);
    while (Px.size() > OccupancyRectCap && ColW < unsigned(PW)) {
      ColW *= 2;
      Px = pixelRects(ColW);
    }
  }
  Sub = subtitle();
  layout();
}

void Occupancy::buildPanels() {
  PanelOf.fill(-1);
  for (const Interval &V : Intervals)
    PanelOf[unsigned(V.BufTier)] = 0;
  for (unsigned K = 0; K != T.numTiers(); ++K)
    if (PanelOf[K] == 0) {
      PanelOf[K] = int(Panels.size());
      Panels.push_back({Tier(K)});
      Panels.back().YMax = T.capacity(Tier(K));
    }
  for (const Interval &V : Intervals) {
    Panel &P = Panels[PanelOf[unsigned(V.BufTier)]];
    if (!V.HasOffset) {
      ++P.NoOffset;
      ++NoOffset;
      continue;
    }
    ++P.Drawn;
    ++Drawn;
    if (V.Class != Resident) {
      ++P.Spilled;
      ++SpilledCount;
    }
    P.YMax = std::max(P.YMax, V.Offset + V.Size);
  }
  for (Panel &P : Panels)
    P.YMax = std::max<uint64_t>(P.YMax, 1);
}

/// The intervals snapped to whole pixels (x to CW-px columns) and merged
/// where a slot's intervals touch.
std::vector<PxRect> Occupancy::pixelRects(unsigned CW) const {
  std::vector<PxRect> Out;
  const int64_t Cols = int64_t(PW);
  for (const Interval &V : Intervals) {
    if (!V.HasOffset)
      continue;
    const Panel &P = Panels[PanelOf[unsigned(V.BufTier)]];
    double SX = PW / X.TMax, SY = PanelH / double(P.YMax);
    int64_t X0 = int64_t(std::floor(double(V.T0) * SX / CW)) * CW;
    int64_t X1 = int64_t(std::ceil(double(V.T1) * SX / CW)) * CW;
    X0 = std::clamp<int64_t>(X0, 0, Cols - 1);
    X1 = std::clamp<int64_t>(std::max<int64_t>(X1, X0 + CW), X0 + 1, Cols);
    int64_t Y0 = std::llround(double(V.Offset) * SY);
    int64_t Y1 = std::llround(double(V.Offset + V.Size) * SY);
    Y0 = std::clamp<int64_t>(Y0, 0, int64_t(PanelH) - 1);
    Y1 = std::clamp<int64_t>(std::max(Y1, Y0 + 1), Y0 + 1, int64_t(PanelH));
    Out.push_back(
        {unsigned(PanelOf[unsigned(V.BufTier)]), V.Class, Y0, Y1, X0, X1});
  }
  auto Key = [](const PxRect &A) {
    return std::make_tuple(A.Panel, A.Class, A.Y0, A.Y1, A.X0, A.X1);
  };
  llvm::sort(Out,
             [&](const PxRect &A, const PxRect &B) { return Key(A) < Key(B); });
  std::vector<PxRect> Merged;
  for (const PxRect &A : Out) {
    if (!Merged.empty()) {
      PxRect &M = Merged.back();
      if (M.Panel == A.Panel && M.Class == A.Class && M.Y0 == A.Y0 &&
          M.Y1 == A.Y1 && A.X0 <= M.X1) {
        M.X1 = std::max(M.X1, A.X1);
        continue;
      }
    }
    Merged.push_back(A);
  }
  return Merged;
}

std::vector<std::string> Occupancy::subtitle() const {
  std::vector<std::string> Sub;
  Sub.push_back(G.Name + ": x = time in cycles (makespan " +
                grouped(R.Makespan) + "), y = offset in bytes; " +
                grouped(Drawn) + " residency intervals, " +
                grouped(SpilledCount) +
                " of them around a spill; dashed: the tier's capacity");
  if (Exact)
    Sub.push_back("Each interval runs from its placing node's start to its "
                  "releasing node's finish (at least 1 px each way); hover for "
                  "the buffer and its nodes.");
  else
    Sub.push_back("Over " + grouped(ExactLimit) + " intervals: snapped to " +
                  (ColW == 1 ? std::string("whole pixels")
                             : std::to_string(ColW) + "-px columns") +
                  " and merged where a slot's intervals touch, " +
                  grouped(Px.size()) + " rectangles; gaps under " +
                  std::to_string(ColW) + " px do not show.");
  if (NoOffset)
    Sub.push_back(grouped(NoOffset) +
                  " placements without an offset are not drawn.");
  return Sub;
}

/// The legend under the title, then the panels one under another.
void Occupancy::layout() {
  for (unsigned C = 0; C != NumIntervalClasses; ++C)
    L.Items.push_back({IntervalColour[C], IntervalName[C]});
  double Y = titleBlock(nullptr, "", Sub);
  L.layout(16, Y + 2, ChartWidth - 16);
  double PanelTop = L.Bottom + 30;
  for (Panel &P : Panels) {
    P.Top = PanelTop;
    PanelTop += PanelH + 58;
  }
  H = std::ceil(PanelTop - 58 + 44);
  if (Panels.empty())
    H = std::ceil(L.Bottom + 40);
}

/// One rectangle per interval, by class, with a tooltip.
void Occupancy::drawExact(raw_ostream &OS, unsigned PI, double Bottom,
                          double SY) const {
  for (unsigned C = 0; C != NumIntervalClasses; ++C)
    for (const Interval &V : Intervals) {
      if (!V.HasOffset || V.Class != C ||
          PanelOf[unsigned(V.BufTier)] != int(PI))
        continue;
      double X0 = X.x(double(V.T0));
      double W = std::max(X.x(double(V.T1)) - X0, 1.0);
      X0 = std::min(X0, PlotLeft + PW - W);
      double Y1 = Bottom - double(V.Offset) * SY;
      double Y0 = Bottom - double(V.Offset + V.Size) * SY;
      std::string Tip =
          "b" + std::to_string(V.Buf) + ": " + grouped(V.Size) +
          " B at offset " + grouped(V.Offset) + ", " +
          describeNode(G, V.Placer) + " at " + grouped(V.T0) + " to " +
          (V.Releaser ? describeNode(G, *V.Releaser) : std::string("the end")) +
          " at " + grouped(V.T1);
      // A white outline parts neighbouring buffers; on a rectangle under
      // 4 px it would wash the colour out.
      double Hh = std::max(Y1 - Y0, 1.0);
      Y0 = std::min(Y0, Y1 - Hh);
      rect(OS, X0, Y0, W, Hh, IntervalColour[C],
           W >= 4 && Hh >= 4 ? "stroke=\"#ffffff\" stroke-width=\"0.4\"" : "",
           Tip);
    }
}

/// The merged rectangles; one group per class keeps the fill out of every
/// rectangle.
void Occupancy::drawMerged(raw_ostream &OS, unsigned PI, double Bottom) const {
  for (unsigned C = 0; C != NumIntervalClasses; ++C) {
    bool Any = false;
    for (const PxRect &A : Px) {
      if (A.Panel != PI || A.Class != C)
        continue;
      if (!Any)
        OS << "<g fill=\"" << IntervalColour[C] << "\">\n";
      Any = true;
      OS << "<rect x=\"" << num(PlotLeft + double(A.X0)) << "\" y=\""
         << num(Bottom - double(A.Y1)) << "\" width=\"" << (A.X1 - A.X0)
         << "\" height=\"" << (A.Y1 - A.Y0) << "\"/>\n";
    }
    if (Any)
      OS << "</g>\n";
  }
}

/// A panel: its heading, background and axes, the intervals, the capacity.
void Occupancy::drawPanel(raw_ostream &OS, unsigned PI) const {
  const Panel &P = Panels[PI];
  double Top = P.Top, Bottom = P.Top + PanelH;
  uint64_t Cap = T.capacity(P.BufTier);
  std::string Head =
      T.tierName(P.BufTier).str() + ": capacity " + grouped(Cap) + " B, peak " +
      grouped(R.TierPeak[unsigned(P.BufTier)]) + " B, " + grouped(P.Drawn) +
      " intervals (" + grouped(P.Spilled) + " around a spill)";
  if (P.NoOffset)
    Head += ", " + grouped(P.NoOffset) + " without an offset";
  text(OS, PlotLeft, Top - 8, Head, {12, nullptr, true});
  rect(OS, PlotLeft, Top, PW, PanelH, "#f4f4f4");
  X.grid(OS, Top, Bottom);
  double SY = PanelH / double(P.YMax);
  double YStep = niceStep(double(P.YMax), 4);
  for (double V : ticks(0, double(P.YMax), YStep)) {
    double YV = Bottom - V * SY;
    line(OS, PlotLeft - 4, YV, PlotLeft, YV, "#333333");
    text(OS, PlotLeft - 7, YV + 4, plainLabel(V, YStep), {10, "end"});
  }
  text(OS, 22, (Top + Bottom) / 2, "offset (B)",
       {11, "middle", false, nullptr, -90});
  if (Exact)
    drawExact(OS, PI, Bottom, SY);
  else
    drawMerged(OS, PI, Bottom);
  rect(OS, PlotLeft, Top, PW, PanelH, "none",
       "stroke=\"#888888\" stroke-width=\"0.5\"");
  if (Cap <= P.YMax) {
    double YC = Bottom - double(Cap) * SY;
    line(OS, PlotLeft, YC, PlotLeft + PW, YC, "#000000", 1.5, "6 3");
    text(OS, PlotLeft + PW + 6, YC + 4, "capacity", {10});
  }
  X.labels(OS, Bottom);
}

void Occupancy::write(raw_ostream &OS) const {
  std::string Title = "Occupancy of each tier: " + G.Name;
  header(OS, ChartWidth, H, Title);
  titleBlock(&OS, Title, Sub);
  L.draw(OS);
  if (Panels.empty())
    text(OS, PlotLeft, L.Bottom + 24, "No buffer is placed.", {12});
  for (unsigned PI = 0; PI != Panels.size(); ++PI)
    drawPanel(OS, PI);
  if (!Panels.empty())
    text(OS, PlotLeft + PW / 2, H - 10, "time (cycles)", {12, "middle"});
  footer(OS);
}

} // namespace

void writeOccupancy(const Graph &G, const ReplayResult &R, const TargetDesc &T,
                    raw_ostream &OS) {
  Occupancy(G, R, T).write(OS);
}

} // namespace dan::svg
