//===- Charts.cpp - Generic charts as plain SVG 1.1 -----------------------===//
//
// Every writer computes its layout first (the size depends only on the
// input), then writes the document top to bottom.
//
//===----------------------------------------------------------------------===//

#include "dan/Report/Charts.h"
#include "SVGKit.h"
#include "llvm/ADT/ArrayRef.h"
#include <algorithm>
#include <cmath>

using namespace llvm;

namespace dan::svg {

/// Viridis, sampled at nine points: sequential, colour-blind safe, readable
/// in grey.
static const uint32_t Viridis[] = {0x440154, 0x472d7b, 0x3b528b,
                                   0x2c728e, 0x21918c, 0x28ae80,
                                   0x5ec962, 0xaddc30, 0xfde725};
/// ColorBrewer RdBu (9 classes) from blue to red: diverging, colour-blind
/// safe.
static const uint32_t BlueRed[] = {0x2166ac, 0x4393c3, 0x92c5de,
                                   0xd1e5f0, 0xf7f7f7, 0xfddbc7,
                                   0xf4a582, 0xd6604d, 0xb2182b};

/// Series colours: Okabe and Ito's palette (without black), then Paul Tol's
/// muted palette; both are colour-blind safe.
static const char *const SeriesPalette[] = {
    "#0072b2", "#e69f00", "#009e73", "#d55e00", "#56b4e9", "#cc79a7",
    "#f0e442", "#332288", "#88ccee", "#117733", "#999933", "#882255"};

//===----------------------------------------------------------------------===//
// Bar chart
//===----------------------------------------------------------------------===//

namespace {

/// A bar chart laid out: the value range and its ticks, the sizes of the
/// bars and their labels (turned when they do not fit), then drawn.
class BarLayout {
public:
  explicit BarLayout(const BarChart &C);
  void write(raw_ostream &OS) const;

private:
  static constexpr double W = 1000, PH = 360;

  double value(size_t G, size_t S) const {
    const std::vector<double> &V = C.Groups[G].Values;
    return S < V.size() && std::isfinite(V[S]) ? V[S] : NAN;
  }
  void range();
  void labels();
  double yOf(double V) const { return PlotBottom - (V - Lo) / (Hi - Lo) * PH; }
  void drawBars(raw_ostream &OS, size_t G) const;

  const BarChart &C;
  size_t NS, NG;
  bool Ref;
  /// The value axis: from Lo to Hi in steps of Step.
  double Lo = 0, Hi = 0, Step = 1;
  double Left, PW, GW, BW;
  /// Each bar's value label, and whether they (RotV) or the group labels
  /// (RotG, at GSize px) are turned.
  std::vector<std::vector<std::string>> Labels;
  bool RotV = false, RotG = false;
  double GSize = 12, LabelRoom = 16, BottomRoom = 32;
  Legend L;
  double PlotTop = 0, PlotBottom = 0, H = 0;
};

BarLayout::BarLayout(const BarChart &C)
    : C(C), NS(std::max<size_t>(1, C.Series.size())),
      NG(std::max<size_t>(1, C.Groups.size())),
      Ref(std::isfinite(C.ReferenceLine)) {
  range();
  double Right = 24;
  if (Ref && !C.ReferenceLabel.empty())
    Right += textWidth(C.ReferenceLabel, 11) + 6;
  Left = C.YLabel.empty() ? 64 : 84;
  PW = W - Left - Right;
  GW = PW / double(NG);
  BW = GW * 0.8 / double(NS);
  labels();
  for (size_t S = 0; S != C.Series.size(); ++S)
    L.Items.push_back(
        {SeriesPalette[S % std::size(SeriesPalette)], C.Series[S]});
  double Y = titleBlock(nullptr, C.Title, {C.Subtitle});
  L.layout(Left, Y + 4, W - 16);
  PlotTop = L.Bottom + 8 + LabelRoom;
  PlotBottom = PlotTop + PH;
  H = std::ceil(PlotBottom + BottomRoom);
}

/// The value axis covers every value, the reference line and 0, in round
/// steps.
void BarLayout::range() {
  for (size_t G = 0; G != C.Groups.size(); ++G)
    for (size_t S = 0; S != NS; ++S)
      if (double V = value(G, S); !std::isnan(V)) {
        Lo = std::min(Lo, V);
        Hi = std::max(Hi, V);
      }
  if (Ref) {
    Lo = std::min(Lo, C.ReferenceLine);
    Hi = std::max(Hi, C.ReferenceLine);
  }
  if (Hi <= Lo)
    Hi = Lo + 1;
  Step = niceStep(Hi - Lo, 6);
  Lo = std::floor(Lo / Step + 1e-9) * Step;
  Hi = std::ceil(Hi / Step - 1e-9) * Step;
}

/// Value labels are turned when wider than a bar; group labels take 12 px,
/// else 11 px, else are turned by 35 degrees.
void BarLayout::labels() {
  Labels.resize(C.Groups.size());
  double MaxLW = 0;
  for (size_t G = 0; G != C.Groups.size(); ++G)
    for (size_t S = 0; S != NS; ++S) {
      Labels[G].push_back(formatValue(value(G, S), C.ValueFormat));
      MaxLW = std::max(MaxLW, textWidth(Labels[G].back(), 10));
    }
  RotV = MaxLW + 2 > BW;
  LabelRoom = RotV ? MaxLW + 8 : 16;
  double MaxGLW = 0;
  for (const BarGroup &G : C.Groups)
    MaxGLW = std::max(MaxGLW, textWidth(G.Label, 12));
  GSize = MaxGLW > GW - 6 && MaxGLW * 11 / 12 <= GW - 6 ? 11 : 12;
  RotG = MaxGLW * GSize / 12 > GW - 6;
  BottomRoom = RotG ? MaxGLW * 0.574 + 28 : 32;
}

/// Group \p G's bars with their value labels, and the group's label.
void BarLayout::drawBars(raw_ostream &OS, size_t G) const {
  double Zero = yOf(0);
  double GX = Left + GW * double(G) + GW * 0.1;
  for (size_t S = 0; S != NS; ++S) {
    double V = value(G, S);
    double X = GX + BW * double(S);
    double XC = X + BW / 2;
    double Top = Zero;
    if (!std::isnan(V)) {
      double YV = yOf(V);
      double Gap = BW > 6 ? 1 : 0;
      std::string Tip = (S < C.Series.size() ? C.Series[S] : "") + ", " +
                        C.Groups[G].Label + ": " + Labels[G][S];
      rect(OS, X + Gap / 2, std::min(YV, Zero), BW - Gap, std::fabs(Zero - YV),
           SeriesPalette[S % std::size(SeriesPalette)], "", Tip);
      Top = YV;
    }
    bool Below = !std::isnan(V) && V < 0;
    if (!RotV)
      text(OS, XC, Below ? Top + 12 : Top - 4, Labels[G][S], {10, "middle"});
    else
      text(OS, XC + 3.5, Below ? Top + 4 : Top - 4, Labels[G][S],
           {10, Below ? "end" : "start", false, nullptr, -90});
  }
  const std::string &GL = C.Groups[G].Label;
  double XM = Left + GW * (double(G) + 0.5);
  if (RotG)
    text(OS, XM, PlotBottom + 16, GL, {GSize, "end", false, nullptr, -35});
  else
    text(OS, XM, PlotBottom + 20, GL, {GSize, "middle"});
}

void BarLayout::write(raw_ostream &OS) const {
  header(OS, W, H, C.Title);
  titleBlock(&OS, C.Title, {C.Subtitle});
  L.draw(OS);
  for (double T : ticks(Lo, Hi, Step)) {
    line(OS, Left, yOf(T), Left + PW, yOf(T), "#e0e0e0");
    text(OS, Left - 6, yOf(T) + 4, plainLabel(T, Step), {11, "end"});
  }
  if (!C.YLabel.empty())
    text(OS, 22, (PlotTop + PlotBottom) / 2, C.YLabel,
         {12, "middle", false, nullptr, -90});
  for (size_t G = 0; G != C.Groups.size(); ++G)
    drawBars(OS, G);
  double Zero = yOf(0);
  line(OS, Left, PlotTop, Left, PlotBottom, "#333333");
  line(OS, Left, Zero, Left + PW, Zero, "#333333");
  if (Ref) {
    double YR = yOf(C.ReferenceLine);
    line(OS, Left, YR, Left + PW, YR, "#000000", 1.5, "6 4");
    if (!C.ReferenceLabel.empty())
      text(OS, Left + PW + 6, YR + 4, C.ReferenceLabel, {11});
  }
  footer(OS);
}

} // namespace

void writeBarChart(const BarChart &C, raw_ostream &OS) {
  BarLayout(C).write(OS);
}

//===----------------------------------------------------------------------===//
// Heat map
//===----------------------------------------------------------------------===//

namespace {

/// A heat map laid out: its colour scale, the sizes of its cells and labels,
/// then drawn: the cells, the labels, the colour bar.
class HeatLayout {
public:
  explicit HeatLayout(const HeatMap &HM);
  void write(raw_ostream &OS) const;

private:
  static constexpr double CellH = 30;

  double value(size_t R, size_t C) const {
    return R < HM.Values.size() && C < HM.Values[R].size() &&
                   std::isfinite(HM.Values[R][C])
               ? HM.Values[R][C]
               : NAN;
  }
  std::string rowName(size_t R) const {
    return R < HM.Rows.size() ? HM.Rows[R] : std::string();
  }
  std::string colName(size_t C) const {
    return C < HM.Cols.size() ? HM.Cols[C] : std::string();
  }
  void scale();
  void layout();
  void drawCells(raw_ostream &OS) const;
  void drawLabels(raw_ostream &OS) const;
  void drawColourBar(raw_ostream &OS) const;

  const HeatMap &HM;
  size_t NR, NC;
  /// The colour scale: Stops from Lo to Hi, diverging around HM.Center.
  double Lo = INFINITY, Hi = -INFINITY;
  bool Diverging;
  ArrayRef<uint32_t> Stops;
  std::vector<std::vector<std::string>> Labels;
  double CellW = 48, Left = 0, GridW = 0, GridH = 0, Top = 0;
  bool RotC = false;
  double ColRoom = 24, BarX = 0, BarH = 0, TStep = 1;
  std::vector<double> BarTicks;
  double W = 0, H = 0;
};

HeatLayout::HeatLayout(const HeatMap &HM)
    : HM(HM), NR(std::max(HM.Rows.size(), HM.Values.size())),
      NC(HM.Cols.size()), Diverging(std::isfinite(HM.Center)) {
  for (const std::vector<double> &R : HM.Values)
    NC = std::max(NC, R.size());
  scale();
  layout();
}

/// Sequential from the smallest value to the largest; diverging: symmetric
/// around the centre.
void HeatLayout::scale() {
  for (size_t R = 0; R != NR; ++R)
    for (size_t C = 0; C != NC; ++C)
      if (double V = value(R, C); !std::isnan(V)) {
        Lo = std::min(Lo, V);
        Hi = std::max(Hi, V);
      }
  if (Diverging) {
    double E = 0;
    if (Lo <= Hi)
      E = std::max(std::fabs(Lo - HM.Center), std::fabs(Hi - HM.Center));
    if (!(E > 0))
      E = 1;
    Lo = HM.Center - E;
    Hi = HM.Center + E;
  } else if (!(Lo <= Hi)) {
    Lo = 0;
    Hi = 1;
  } else if (Lo == Hi) {
    Lo -= 0.5;
    Hi += 0.5;
  }
  Stops = Diverging ? ArrayRef<uint32_t>(BlueRed) : ArrayRef<uint32_t>(Viridis);
}

/// Cells wide enough for their values; column labels turned when wider
/// than a cell; the colour bar right of the grid.
void HeatLayout::layout() {
  Labels.resize(NR);
  double MaxVW = 0;
  for (size_t R = 0; R != NR; ++R)
    for (size_t C = 0; C != NC; ++C) {
      Labels[R].push_back(formatValue(value(R, C), HM.ValueFormat));
      MaxVW = std::max(MaxVW, textWidth(Labels[R].back(), 11));
    }
  CellW = std::clamp(880.0 / double(std::max<size_t>(NC, 1)), 48.0, 120.0);
  CellW = std::max(CellW, std::ceil(MaxVW + 10));
  double MaxRLW = 0, MaxCLW = 0;
  for (size_t R = 0; R != NR; ++R)
    MaxRLW = std::max(MaxRLW, textWidth(rowName(R), 12));
  for (size_t C = 0; C != NC; ++C)
    MaxCLW = std::max(MaxCLW, textWidth(colName(C), 12));
  Left = std::ceil(16 + (HM.RowLabel.empty() ? 0 : 22) + MaxRLW + 10);
  GridW = CellW * double(NC);
  GridH = CellH * double(NR);
  RotC = MaxCLW > CellW - 6;
  ColRoom = RotC ? MaxCLW * 0.707 + 24 : 24;

  Top = titleBlock(nullptr, HM.Title, {HM.Subtitle}) + 8;
  BarX = Left + GridW + 28;
  BarH = std::max(GridH, 160.0);
  TStep = niceStep(Hi - Lo, 5);
  BarTicks = ticks(Lo, Hi, TStep);
  double MaxTW = 0;
  for (double T : BarTicks)
    MaxTW = std::max(MaxTW, textWidth(plainLabel(T, TStep), 11));
  W = std::ceil(
      std::max({BarX + 16 + 8 + MaxTW + 16, 32 + textWidth(HM.Title, 18),
                32 + textWidth(HM.Subtitle, 12)}));
  double Below = GridH + ColRoom + (HM.ColLabel.empty() ? 0 : 22);
  H = std::ceil(Top + std::max(Below, BarH + 8) + 16);
}

/// Each row's name and cells: coloured with the value written in a
/// contrasting colour, or empty ("n/a").
void HeatLayout::drawCells(raw_ostream &OS) const {
  for (size_t R = 0; R != NR; ++R) {
    double Y = Top + CellH * double(R);
    text(OS, Left - 8, Y + CellH / 2 + 4, rowName(R), {12, "end"});
    for (size_t C = 0; C != NC; ++C) {
      double X = Left + CellW * double(C);
      double V = value(R, C);
      std::string Tip = rowName(R) + ", " + colName(C) + ": " + Labels[R][C];
      if (std::isnan(V)) {
        rect(OS, X, Y, CellW, CellH, "#ffffff",
             "stroke=\"#cccccc\" stroke-width=\"1\"", Tip);
        text(OS, X + CellW / 2, Y + CellH / 2 + 4, Labels[R][C],
             {11, "middle", false, "#888888"});
        continue;
      }
      RGB Col = scaleColour(Stops, (V - Lo) / (Hi - Lo));
      rect(OS, X, Y, CellW, CellH, hex(Col),
           "stroke=\"#ffffff\" stroke-width=\"1\"", Tip);
      text(OS, X + CellW / 2, Y + CellH / 2 + 4, Labels[R][C],
           {11, "middle", false, isDark(Col) ? "#ffffff" : "#000000"});
    }
  }
}

/// The row axis's name, the column names and the column axis's name.
void HeatLayout::drawLabels(raw_ostream &OS) const {
  if (!HM.RowLabel.empty())
    text(OS, 24, Top + GridH / 2, HM.RowLabel,
         {12, "middle", true, nullptr, -90});
  for (size_t C = 0; C != NC; ++C) {
    double XM = Left + CellW * (double(C) + 0.5);
    if (RotC)
      text(OS, XM, Top + GridH + 14, colName(C),
           {12, "end", false, nullptr, -45});
    else
      text(OS, XM, Top + GridH + 16, colName(C), {12, "middle"});
  }
  if (!HM.ColLabel.empty())
    text(OS, Left + GridW / 2, Top + GridH + ColRoom + 12, HM.ColLabel,
         {12, "middle", true});
}

/// The colour bar, low at the bottom, with its ticks and, when diverging,
/// a mark at the centre.
void HeatLayout::drawColourBar(raw_ostream &OS) const {
  OS << "<defs><linearGradient id=\"scale\" x1=\"0\" y1=\"1\" x2=\"0\" "
        "y2=\"0\">\n";
  for (size_t I = 0; I != Stops.size(); ++I)
    OS << "<stop offset=\"" << num(double(I) / double(Stops.size() - 1), 4)
       << "\" stop-color=\"" << hex(rgb(Stops[I])) << "\"/>\n";
  OS << "</linearGradient></defs>\n";
  rect(OS, BarX, Top, 16, BarH, "url(#scale)",
       "stroke=\"#333333\" stroke-width=\"0.5\"");
  for (double T : BarTicks) {
    double Y = Top + BarH - (T - Lo) / (Hi - Lo) * BarH;
    line(OS, BarX + 16, Y, BarX + 20, Y, "#333333");
    text(OS, BarX + 23, Y + 4, plainLabel(T, TStep), {11});
  }
  if (Diverging) {
    double Y = Top + BarH / 2;
    line(OS, BarX - 3, Y, BarX + 16, Y, "#000000", 1.5);
  }
}

void HeatLayout::write(raw_ostream &OS) const {
  header(OS, W, H, HM.Title);
  titleBlock(&OS, HM.Title, {HM.Subtitle});
  drawCells(OS);
  drawLabels(OS);
  drawColourBar(OS);
  footer(OS);
}

} // namespace

void writeHeatMap(const HeatMap &HM, raw_ostream &OS) {
  HeatLayout(HM).write(OS);
}

} // namespace dan::svg
