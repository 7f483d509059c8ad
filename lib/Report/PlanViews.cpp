//===- PlanViews.cpp - A planned graph's occupancy and pipe timeline ------===//
//
// Every writer computes its layout first (the size depends only on the
// input), then writes the document top to bottom.
//
//===----------------------------------------------------------------------===//

#include "dan/Report/PlanViews.h"
#include "Residency.h"
#include "SVGKit.h"
#include "dan/IR/NodeCosts.h"
#include "llvm/ADT/DenseMap.h"
#include "llvm/ADT/STLExtras.h"
#include <algorithm>
#include <array>
#include <cmath>
#include <optional>
#include <tuple>

using namespace llvm;

namespace dan::svg {
namespace {

/// Operation kinds in the timeline: Paul Tol's muted palette without its
/// indigo, which is too close to the black of spills in thin slivers.
const char *const OpPalette[] = {"#cc6677", "#ddcc77", "#117733", "#88ccee",
                                 "#882255", "#44aa99", "#999933", "#aa4499"};
constexpr unsigned NumOpColours = std::size(OpPalette);
const char *const OtherOpColour = "#bbbbbb";
const char *const SpillColour = "#000000";

//===----------------------------------------------------------------------===//
// Time axis of the timeline and the occupancy
//===----------------------------------------------------------------------===//

constexpr double PlotLeft = 120;
constexpr double ChartWidth = 1600;

struct TimeAxis {
  double Left, Width, TMax;
  double Step;
  CountAxis Labels;
  TimeAxis(double Left, double Width, uint64_t Makespan)
      : Left(Left), Width(Width), TMax(double(std::max<uint64_t>(Makespan, 1))),
        Step(niceStep(TMax, 10)), Labels(TMax) {}
  double x(double T) const { return Left + T / TMax * Width; }
  /// Vertical grid lines from \p Top to \p Bottom.
  void grid(raw_ostream &OS, double Top, double Bottom) const {
    for (double T : ticks(0, TMax, Step))
      line(OS, x(T), Top, x(T), Bottom, "#d0d0d0", 0.5);
  }
  /// Tick marks and labels under \p Y.
  void labels(raw_ostream &OS, double Y) const {
    line(OS, Left, Y, Left + Width, Y, "#333333");
    for (double T : ticks(0, TMax, Step)) {
      line(OS, x(T), Y, x(T), Y + 4, "#333333");
      text(OS, x(T), Y + 15, Labels.label(T, Step), {10, "middle"});
    }
  }
};

} // namespace

//===----------------------------------------------------------------------===//
// Occupancy
//===----------------------------------------------------------------------===//

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
  std::array<int, NumTiers> PanelOf;
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
  for (unsigned K = 0; K != NumTiers; ++K)
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
  std::string Head = tierName(P.BufTier).str() + ": capacity " + grouped(Cap) +
                     " B, peak " + grouped(R.TierPeak[unsigned(P.BufTier)]) +
                     " B, " + grouped(P.Drawn) + " intervals (" +
                     grouped(P.Spilled) + " around a spill)";
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

//===----------------------------------------------------------------------===//
// Pipe timeline
//===----------------------------------------------------------------------===//

namespace {

/// The pipe timeline of one replayed graph, drawn in steps: which nodes run
/// on each pipe, which op kinds there are and their colours, then each row
/// exactly (a rectangle per node) or binned (1-px columns).
class PipeTimeline {
public:
  PipeTimeline(const Graph &G, const ReplayResult &R, const TargetDesc &T)
      : G(G), R(R), NK(G.OpNames.size()), X(PlotLeft, PW, R.Makespan),
        TC(X.TMax / double(Cols)) {
    collectNodes(T);
    collectKinds();
    assignColours();
    Sub = subtitle();
    PlotTop = titleBlock(nullptr, "", Sub) + 8;
  }
  void write(raw_ostream &OS) const;

private:
  static constexpr double PW = 1440, StripH = 5, BarH = 24, RowH = 56;
  static constexpr int64_t Cols = int64_t(PW);
  static constexpr unsigned OtherClass = NumOpColours,
                            SpillClass = NumOpColours + 1,
                            NumClasses = NumOpColours + 2;

  void collectNodes(const TargetDesc &T);
  void collectKinds();
  void assignColours();
  std::vector<std::string> subtitle() const;
  unsigned classOf(NodeIdx I) const {
    const Node &N = G[I];
    if (N.isSpill())
      return SpillClass;
    return N.OpName < NK ? ClassOf[N.OpName] : OtherClass;
  }
  static const char *colourOf(unsigned C) {
    return C < NumOpColours  ? OpPalette[C]
           : C == OtherClass ? OtherOpColour
                             : SpillColour;
  }
  double barTop(unsigned P) const { return PlotTop + RowH * P + StripH + 1; }
  void drawRowLabels(raw_ostream &OS, unsigned P) const;
  void drawRowLegend(raw_ostream &OS, unsigned P) const;
  void drawExact(raw_ostream &OS, unsigned P) const;
  void drawBinned(raw_ostream &OS, unsigned P) const;

  const Graph &G;
  const ReplayResult &R;
  /// Nodes by pipe, in schedule order (each pipe runs them in that order).
  std::array<std::vector<NodeIdx>, NumPipes> OnPipe;
  size_t NumOnPipes = 0, NumSpills = 0;
  /// Op kinds (operation names) and their cycles, in total and per pipe.
  size_t NK;
  std::vector<uint64_t> KindCycles;
  std::vector<std::array<uint64_t, NumPipes>> KindPipeCycles;
  std::vector<unsigned> KindPipes; // bit P: the kind runs on pipe P
  /// The kinds that run, most cycles first.
  std::vector<unsigned> Kinds;
  std::vector<unsigned> ClassOf;
  TimeAxis X;
  /// Cycles per column of the binned rows.
  double TC;
  std::vector<std::string> Sub;
  double PlotTop = 0;
};

void PipeTimeline::collectNodes(const TargetDesc &T) {
  for (NodeIdx I : scheduled(G))
    if (std::optional<Pipe> P = nodePipe(G[I], T)) {
      OnPipe[unsigned(*P)].push_back(I);
      ++NumOnPipes;
      NumSpills += G[I].isSpill();
    }
}

void PipeTimeline::collectKinds() {
  KindCycles.assign(NK, 0);
  KindPipeCycles.assign(NK, {});
  KindPipes.assign(NK, 0);
  auto sat = [](uint64_t A, uint64_t B) {
    return A + B < A ? UINT64_MAX : A + B;
  };
  for (unsigned P = 0; P != NumPipes; ++P)
    for (NodeIdx I : OnPipe[P])
      if (G[I].Kind == NodeKind::Op && G[I].OpName < NK) {
        unsigned K = G[I].OpName;
        KindCycles[K] = sat(KindCycles[K], G[I].Cycles);
        KindPipeCycles[K][P] = sat(KindPipeCycles[K][P], G[I].Cycles);
        KindPipes[K] |= 1u << P;
      }
  for (unsigned K = 0; K != NK; ++K)
    if (KindPipes[K])
      Kinds.push_back(K);
  llvm::sort(Kinds, [&](unsigned A, unsigned B) {
    if (KindCycles[A] != KindCycles[B])
      return KindCycles[A] > KindCycles[B];
    return G.OpNames[A] < G.OpNames[B];
  });
}

/// The kinds of one pipe differ, a kind keeps its colour on every pipe, and
/// colours repeat across pipes only once all are taken. Greedily, most
/// cycles first, each kind takes the first palette colour that no kind has
/// taken, else the first that no kind on its pipes has taken; a kind that
/// finds none is grey ("other ops").
void PipeTimeline::assignColours() {
  ClassOf.assign(NK, OtherClass);
  std::array<unsigned, NumPipes> Taken{}; // bit C: colour C is taken
  unsigned TakenAnywhere = 0;
  for (unsigned K : Kinds) {
    unsigned Used = 0;
    for (unsigned P = 0; P != NumPipes; ++P)
      if (KindPipes[K] >> P & 1)
        Used |= Taken[P];
    std::optional<unsigned> Pick;
    for (unsigned Avoid : {Used | TakenAnywhere, Used})
      for (unsigned C = 0; C != NumOpColours && !Pick; ++C)
        if (!(Avoid >> C & 1))
          Pick = C;
    if (!Pick)
      continue;
    ClassOf[K] = *Pick;
    TakenAnywhere |= 1u << *Pick;
    for (unsigned P = 0; P != NumPipes; ++P)
      if (KindPipes[K] >> P & 1)
        Taken[P] |= 1u << *Pick;
  }
}

std::vector<std::string> PipeTimeline::subtitle() const {
  std::vector<std::string> Sub;
  Sub.push_back(G.Name + ": makespan " + grouped(R.Makespan) + " cycles; " +
                grouped(NumOnPipes) + " nodes on pipes, " + grouped(NumSpills) +
                " of them spills (black); each row lists its op kinds, most "
                "cycles first.");
  if (NumOnPipes <= ExactLimit)
    Sub.push_back("One rectangle per node from its start to its finish (at "
                  "least 1 px wide); hover for the node.");
  else
    Sub.push_back(
        "Over " + grouped(ExactLimit) +
        " nodes: each row is binned into 1-px columns of " +
        num(TC, TC < 10 ? 2 : 0) +
        " cycles; a column takes the colour of the kind with the most busy "
        "time in it and a height of its busy fraction, rounded up to "
        "quarters; a black tick above a row marks a column with a spill.");
  return Sub;
}

/// The pipe's name and busy fraction left of its bar.
void PipeTimeline::drawRowLabels(raw_ostream &OS, unsigned P) const {
  double Frac = double(R.PipeBusy[P]) / X.TMax;
  text(OS, PlotLeft - 10, barTop(P) + 11, pipeName(Pipe(P)), {12, "end", true});
  text(OS, PlotLeft - 10, barTop(P) + 23, "busy " + num(100 * Frac, 0) + "%",
       {10, "end", false, "#444444"});
}

/// The row's legend under its bar: its kinds, most cycles on the pipe first.
void PipeTimeline::drawRowLegend(raw_ostream &OS, unsigned P) const {
  double BarBottom = barTop(P) + BarH;
  std::vector<unsigned> RowKinds;
  for (unsigned K : Kinds)
    if (KindPipes[K] >> P & 1)
      RowKinds.push_back(K);
  llvm::stable_sort(RowKinds, [&](unsigned A, unsigned B) {
    return KindPipeCycles[A][P] > KindPipeCycles[B][P];
  });
  std::vector<LegendItem> Items;
  unsigned Others = 0;
  for (unsigned K : RowKinds)
    if (ClassOf[K] == OtherClass)
      ++Others;
    else
      Items.push_back({OpPalette[ClassOf[K]], G.OpNames[K]});
  if (Others)
    Items.push_back({OtherOpColour, "other ops (" + std::to_string(Others) +
                                        (Others == 1 ? " kind)" : " kinds)")});
  if (llvm::any_of(OnPipe[P], [&](NodeIdx I) { return G[I].isSpill(); }))
    Items.push_back({SpillColour, "spill"});
  double LX = PlotLeft;
  for (const LegendItem &I : Items) {
    rect(OS, LX, BarBottom + 4, 9, 9, I.Colour,
         "stroke=\"#333333\" stroke-width=\"0.5\"");
    text(OS, LX + 12, BarBottom + 12, I.Label, {10});
    LX += 12 + textWidth(I.Label, 10) + 12;
  }
  if (OnPipe[P].empty())
    text(OS, PlotLeft, BarBottom + 12, "no node",
         {10, nullptr, false, "#666666"});
}

/// One rectangle per node, with its times as a tooltip.
void PipeTimeline::drawExact(raw_ostream &OS, unsigned P) const {
  for (NodeIdx I : OnPipe[P]) {
    uint64_t S = timeOf(R.Start, I), F = timeOf(R.Finish, I);
    double X0 = X.x(double(S));
    double W = std::max(X.x(double(F)) - X0, 1.0);
    X0 = std::min(X0, PlotLeft + PW - W);
    std::string Tip = describeNode(G, I) + ": " + grouped(S) + " to " +
                      grouped(F) + " (" + grouped(F - std::min(S, F)) +
                      " cycles)";
    rect(OS, X0, barTop(P), W, BarH, colourOf(classOf(I)), "", Tip);
  }
}

/// 1-px columns: each the colour of the class with the most busy time in it,
/// as high as its busy fraction (in quarters); a tick above for a spill.
void PipeTimeline::drawBinned(raw_ostream &OS, unsigned P) const {
  double RowTop = PlotTop + RowH * P, BarBottom = barTop(P) + BarH;
  std::vector<std::array<double, NumClasses>> Busy(static_cast<size_t>(Cols));
  std::vector<bool> SpillCol(size_t(Cols), false);
  for (NodeIdx I : OnPipe[P]) {
    double S = double(timeOf(R.Start, I)), F = double(timeOf(R.Finish, I));
    unsigned C = classOf(I);
    int64_t C0 = std::clamp<int64_t>(int64_t(S / TC), 0, Cols - 1), Last = C0;
    for (int64_t K = C0; K < Cols && double(K) * TC < F; ++K) {
      double Over =
          std::min(F, double(K + 1) * TC) - std::max(S, double(K) * TC);
      if (Over > 0)
        Busy[K][C] += Over;
      Last = K;
    }
    if (C == SpillClass)
      for (int64_t K = C0; K <= Last; ++K)
        SpillCol[K] = true;
  }
  // Runs of columns of one (class, level).
  auto key = [&](int64_t K) -> std::pair<unsigned, unsigned> {
    double Sum = 0, Best = 0;
    unsigned BestC = 0;
    for (unsigned C = 0; C != NumClasses; ++C) {
      Sum += Busy[K][C];
      if (Busy[K][C] > Best) {
        Best = Busy[K][C];
        BestC = C;
      }
    }
    if (!(Sum > 0))
      return {0, 0};
    unsigned Level =
        unsigned(std::clamp(std::ceil(Sum / TC * 4 - 1e-6), 1.0, 4.0));
    return {BestC, Level};
  };
  for (int64_t K = 0; K < Cols;) {
    auto KK = key(K);
    int64_t E = K + 1;
    while (E < Cols && key(E) == KK)
      ++E;
    if (KK.second) {
      double Hh = BarH * KK.second / 4;
      OS << "<rect x=\"" << num(PlotLeft + double(K)) << "\" y=\""
         << num(BarBottom - Hh) << "\" width=\"" << (E - K) << "\" height=\""
         << num(Hh) << "\" fill=\"" << colourOf(KK.first) << "\"/>\n";
    }
    K = E;
  }
  for (int64_t K = 0; K < Cols;) {
    if (!SpillCol[K]) {
      ++K;
      continue;
    }
    int64_t E = K + 1;
    while (E < Cols && SpillCol[E])
      ++E;
    OS << "<rect x=\"" << num(PlotLeft + double(K)) << "\" y=\"" << num(RowTop)
       << "\" width=\"" << (E - K) << "\" height=\"" << num(StripH)
       << "\" fill=\"" << SpillColour << "\"/>\n";
    K = E;
  }
}

void PipeTimeline::write(raw_ostream &OS) const {
  double PlotBottom = PlotTop + RowH * NumPipes;
  double H = std::ceil(PlotBottom + 46);

  std::string Title = "Pipe timeline: " + G.Name;
  header(OS, ChartWidth, H, Title);
  titleBlock(&OS, Title, Sub);
  for (unsigned P = 0; P != NumPipes; ++P)
    rect(OS, PlotLeft, barTop(P), PW, BarH, "#f2f2f2");
  for (unsigned P = 0; P != NumPipes; ++P)
    X.grid(OS, barTop(P), barTop(P) + BarH);
  bool Exact = NumOnPipes <= ExactLimit;
  for (unsigned P = 0; P != NumPipes; ++P) {
    drawRowLabels(OS, P);
    drawRowLegend(OS, P);
    if (Exact)
      drawExact(OS, P);
    else
      drawBinned(OS, P);
  }
  X.labels(OS, PlotBottom);
  text(OS, PlotLeft + PW / 2, H - 8, "time (cycles)", {12, "middle"});
  footer(OS);
}

} // namespace

void writePipeTimeline(const Graph &G, const ReplayResult &R,
                       const TargetDesc &T, raw_ostream &OS) {
  PipeTimeline(G, R, T).write(OS);
}

std::vector<std::pair<std::string, std::string>>
drawPlanViews(const Graph &G, const ReplayResult &R, const TargetDesc &T) {
  std::vector<std::pair<std::string, std::string>> Files;
  auto Draw = [&](StringRef Suffix, auto Writer) {
    std::string SVG;
    raw_string_ostream OS(SVG);
    Writer(G, R, T, OS);
    Files.emplace_back(G.Name + Suffix.str(), std::move(SVG));
  };
  if (G.hasMemoryPlan())
    Draw("-occupancy.svg", writeOccupancy);
  Draw("-pipes.svg", writePipeTimeline);
  return Files;
}

} // namespace dan::svg
