//===- SVG.cpp - Charts as plain SVG 1.1 ----------------------------------===//
//
// Every writer computes its layout first (the size depends only on the
// input), then writes the document top to bottom. Numbers go through num(),
// which formats with integer arithmetic: no locale, no printf, so the same
// input gives the same bytes. docs/Charts.md describes the charts.
//
//===----------------------------------------------------------------------===//

#include "dan/Formats/SVG.h"
#include "llvm/ADT/ArrayRef.h"
#include "llvm/ADT/DenseMap.h"
#include "llvm/ADT/STLExtras.h"
#include "llvm/ADT/StringExtras.h"
#include <algorithm>
#include <array>
#include <clocale>
#include <cstdio>
#include <cstring>
#include <limits>
#include <optional>
#include <tuple>

using namespace llvm;

namespace dan::svg {
namespace {

//===----------------------------------------------------------------------===//
// Numbers, text and XML
//===----------------------------------------------------------------------===//

/// \p V rounded to \p Dec decimals (at most 6); trailing zeros are dropped
/// when \p Trim.
std::string num(double V, unsigned Dec = 2, bool Trim = true) {
  static const double Pow[] = {1, 10, 100, 1000, 1e4, 1e5, 1e6};
  if (!std::isfinite(V))
    V = 0;
  Dec = std::min(Dec, 6u);
  double Scaled = std::round(V * Pow[Dec]);
  if (std::fabs(Scaled) >= 9e15) {
    Dec = 0;
    Scaled = std::round(std::clamp(V, -9e15, 9e15));
  }
  int64_t I = int64_t(Scaled);
  uint64_t U = I < 0 ? uint64_t(0) - uint64_t(I) : uint64_t(I);
  uint64_t P = uint64_t(Pow[Dec]);
  std::string S = I < 0 ? "-" : "";
  S += std::to_string(U / P);
  uint64_t F = U % P;
  if (F || (!Trim && Dec)) {
    std::string Frac = std::to_string(F);
    Frac.insert(0, Dec - Frac.size(), '0');
    while (Trim && Frac.back() == '0')
      Frac.pop_back();
    S += '.';
    S += Frac;
  }
  return S;
}

/// "1,234,567".
std::string grouped(uint64_t V) {
  std::string D = std::to_string(V), S;
  for (size_t I = 0; I != D.size(); ++I) {
    if (I && (D.size() - I) % 3 == 0)
      S += ',';
    S += D[I];
  }
  return S;
}

/// Whether \p F is one printf conversion of a double: text, "%%", and
/// exactly one "%[-+ #0]*[0-9]{0,2}(.[0-9]{0,2})?[eEfFgG]".
bool isDoubleFormat(StringRef F) {
  unsigned Conversions = 0;
  for (size_t I = 0; I < F.size(); ++I) {
    if (F[I] != '%')
      continue;
    if (++I == F.size())
      return false;
    if (F[I] == '%')
      continue;
    while (I < F.size() && StringRef("-+ #0").contains(F[I]))
      ++I;
    for (unsigned N = 0; I < F.size() && isDigit(F[I]); ++N, ++I)
      if (N == 2)
        return false;
    if (I < F.size() && F[I] == '.') {
      ++I;
      for (unsigned N = 0; I < F.size() && isDigit(F[I]); ++N, ++I)
        if (N == 2)
          return false;
    }
    if (I == F.size() || !StringRef("eEfFgG").contains(F[I]))
      return false;
    ++Conversions;
  }
  return Conversions == 1;
}

/// \p V through the printf format \p F ("%.2f" when \p F is not one
/// conversion of a double); "n/a" for NaN. The locale's decimal point, should
/// a program have set one, is written as '.'.
std::string formatValue(double V, const std::string &F) {
  if (std::isnan(V))
    return "n/a";
  const char *Fmt = isDoubleFormat(F) ? F.c_str() : "%.2f";
  char Buf[256];
  int N = std::snprintf(Buf, sizeof Buf, Fmt, V);
  std::string S(Buf, N < 0 ? 0 : std::min<size_t>(N, sizeof Buf - 1));
  const char *Point = std::localeconv()->decimal_point;
  if (Point && std::string(Point) != ".") {
    size_t At = S.find(Point);
    if (At != std::string::npos)
      S.replace(At, std::strlen(Point), ".");
  }
  return S;
}

/// The length of the valid UTF-8 sequence at \p S[I], or 0.
size_t utf8Length(StringRef S, size_t I) {
  auto B = [&](size_t K) { return uint8_t(S[I + K]); };
  uint8_t C = B(0);
  if (C < 0x80)
    return 1;
  size_t Len = C >= 0xC2 && C <= 0xDF   ? 2
               : C >= 0xE0 && C <= 0xEF ? 3
               : C >= 0xF0 && C <= 0xF4 ? 4
                                        : 0;
  if (!Len || I + Len > S.size())
    return 0;
  uint8_t Lo = 0x80, Hi = 0xBF;
  if (C == 0xE0)
    Lo = 0xA0;
  else if (C == 0xED)
    Hi = 0x9F;
  else if (C == 0xF0)
    Lo = 0x90;
  else if (C == 0xF4)
    Hi = 0x8F;
  if (B(1) < Lo || B(1) > Hi)
    return 0;
  for (size_t K = 2; K < Len; ++K)
    if (B(K) < 0x80 || B(K) > 0xBF)
      return 0;
  return Len;
}

/// \p S as XML character data or attribute text: markup characters escaped,
/// characters XML does not allow (controls, invalid UTF-8) written as '?'.
std::string esc(StringRef S) {
  std::string Out;
  Out.reserve(S.size());
  for (size_t I = 0; I < S.size();) {
    char C = S[I];
    switch (C) {
    case '&':
      Out += "&amp;";
      break;
    case '<':
      Out += "&lt;";
      break;
    case '>':
      Out += "&gt;";
      break;
    case '"':
      Out += "&quot;";
      break;
    case '\'':
      Out += "&apos;";
      break;
    default:
      if (uint8_t(C) < 0x20 && C != '\t' && C != '\n' && C != '\r') {
        Out += '?';
        break;
      }
      if (size_t Len = utf8Length(S, I)) {
        Out.append(S.data() + I, Len);
        I += Len;
        continue;
      }
      Out += '?';
    }
    ++I;
  }
  return Out;
}

/// A width estimate of \p S at font size \p Size, for layout only (DejaVu
/// Sans averages about 0.6 em a character).
double textWidth(StringRef S, double Size) {
  size_t Chars = 0;
  for (char C : S)
    if ((uint8_t(C) & 0xC0) != 0x80)
      ++Chars;
  return 0.62 * Size * double(Chars);
}

struct Txt {
  double Size = 12;
  const char *Anchor = nullptr;
  bool Bold = false;
  const char *Fill = nullptr;
  double Rotate = 0;
};

void text(raw_ostream &OS, double X, double Y, StringRef S,
          const Txt &T = Txt()) {
  OS << "<text x=\"" << num(X) << "\" y=\"" << num(Y) << '"';
  if (T.Size != 12)
    OS << " font-size=\"" << num(T.Size) << '"';
  if (T.Anchor)
    OS << " text-anchor=\"" << T.Anchor << '"';
  if (T.Bold)
    OS << " font-weight=\"bold\"";
  if (T.Fill)
    OS << " fill=\"" << T.Fill << '"';
  if (T.Rotate != 0)
    OS << " transform=\"rotate(" << num(T.Rotate) << ' ' << num(X) << ' '
       << num(Y) << ")\"";
  OS << '>' << esc(S) << "</text>\n";
}

void line(raw_ostream &OS, double X1, double Y1, double X2, double Y2,
          const char *Stroke, double Width = 1, const char *Dash = nullptr) {
  OS << "<line x1=\"" << num(X1) << "\" y1=\"" << num(Y1) << "\" x2=\""
     << num(X2) << "\" y2=\"" << num(Y2) << "\" stroke=\"" << Stroke << '"';
  if (Width != 1)
    OS << " stroke-width=\"" << num(Width) << '"';
  if (Dash)
    OS << " stroke-dasharray=\"" << Dash << '"';
  OS << "/>\n";
}

/// A rectangle; \p Extra is written inside the tag as is, \p Tip (when not
/// empty) as a <title> child, which browsers show as a tooltip.
void rect(raw_ostream &OS, double X, double Y, double W, double H,
          StringRef Fill, StringRef Extra = "", StringRef Tip = "") {
  OS << "<rect x=\"" << num(X) << "\" y=\"" << num(Y) << "\" width=\"" << num(W)
     << "\" height=\"" << num(H) << "\" fill=\"" << Fill << '"';
  if (!Extra.empty())
    OS << ' ' << Extra;
  if (Tip.empty())
    OS << "/>\n";
  else
    OS << "><title>" << esc(Tip) << "</title></rect>\n";
}

const char *const FontFamily = "DejaVu Sans, Arial, Helvetica, sans-serif";

void header(raw_ostream &OS, double W, double H, StringRef Title) {
  OS << "<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n"
     << "<svg xmlns=\"http://www.w3.org/2000/svg\" version=\"1.1\" width=\""
     << num(W) << "\" height=\"" << num(H) << "\" viewBox=\"0 0 " << num(W)
     << ' ' << num(H) << "\" font-family=\"" << FontFamily
     << "\" font-size=\"12\">\n"
     << "<title>" << esc(Title) << "</title>\n";
  rect(OS, 0, 0, W, H, "#ffffff");
}

void footer(raw_ostream &OS) { OS << "</svg>\n"; }

/// The title at the top left and the subtitle lines under it; returns the
/// y below them.
double titleBlock(raw_ostream *OS, StringRef Title, ArrayRef<std::string> Sub) {
  if (OS)
    text(*OS, 16, 28, Title, {18, nullptr, true});
  double Y = 28;
  for (const std::string &S : Sub) {
    if (S.empty())
      continue;
    Y += 18;
    if (OS)
      text(*OS, 16, Y, S, {12, nullptr, false, "#444444"});
  }
  return Y + 8;
}

//===----------------------------------------------------------------------===//
// Legends, ticks and colours
//===----------------------------------------------------------------------===//

struct LegendItem {
  std::string Colour, Label;
};

struct Legend {
  std::vector<LegendItem> Items;
  std::vector<std::pair<double, double>> At;
  double Bottom = 0;

  /// Lays the items out in rows from (\p X0, \p Y0), wrapping at \p MaxX.
  void layout(double X0, double Y0, double MaxX) {
    At.clear();
    double X = X0, Y = Y0;
    for (const LegendItem &I : Items) {
      double W = 16 + textWidth(I.Label, 12) + 18;
      if (X > X0 && X + W > MaxX) {
        X = X0;
        Y += 20;
      }
      At.emplace_back(X, Y);
      X += W;
    }
    Bottom = Items.empty() ? Y0 : Y + 14;
  }

  void draw(raw_ostream &OS) const {
    for (size_t I = 0; I != Items.size(); ++I) {
      auto [X, Y] = At[I];
      rect(OS, X, Y, 12, 12, Items[I].Colour,
           "stroke=\"#333333\" stroke-width=\"0.5\"");
      text(OS, X + 16, Y + 10.5, Items[I].Label);
    }
  }
};

/// A step of 1, 2 or 5 times a power of ten that cuts \p Range into about
/// \p Target parts.
double niceStep(double Range, unsigned Target) {
  if (!(Range > 0) || !std::isfinite(Range))
    return 1;
  double Raw = Range / Target;
  double P = std::pow(10.0, std::floor(std::log10(Raw)));
  double M = Raw / P;
  return (M <= 1.0001 ? 1 : M <= 2.0001 ? 2 : M <= 5.0001 ? 5 : 10) * P;
}

std::vector<double> ticks(double Lo, double Hi, double Step) {
  std::vector<double> T;
  double First = std::ceil(Lo / Step - 1e-9);
  double Last = std::floor(Hi / Step + 1e-9);
  for (double K = First; K <= Last && T.size() < 1000; ++K)
    T.push_back(K * Step);
  return T;
}

/// Decimals that show a multiple of \p Step exactly (Step = 1, 2 or 5 times
/// a power of ten).
unsigned decimalsFor(double Step) {
  double L = std::floor(std::log10(Step) + 1e-9);
  return L >= 0 ? 0 : unsigned(std::min(-L, 6.0));
}

/// Tick labels of an axis of counts (cycles): "250k", "1.5M"; the unit is
/// chosen by the axis's largest value.
struct CountAxis {
  double Unit = 1;
  const char *Suffix = "";
  explicit CountAxis(double Max) {
    if (Max >= 1e6) {
      Unit = 1e6;
      Suffix = "M";
    } else if (Max >= 1e4) {
      Unit = 1e3;
      Suffix = "k";
    }
  }
  std::string label(double V, double Step) const {
    if (Unit == 1 && Step >= 1)
      return grouped(uint64_t(std::llround(std::max(V, 0.0))));
    if (V == 0)
      return "0";
    return num(V / Unit, decimalsFor(Step / Unit), false) + Suffix;
  }
};

/// A tick label of a plain numeric axis.
std::string plainLabel(double V, double Step) {
  if (Step >= 1 && std::fabs(V) < 1e15) {
    std::string S = grouped(uint64_t(std::llround(std::fabs(V))));
    return V < 0 && std::llround(V) != 0 ? "-" + S : S;
  }
  return num(V, decimalsFor(Step), false);
}

struct RGB {
  double R, G, B;
};

RGB rgb(uint32_t Hex) {
  return {double(Hex >> 16 & 0xFF), double(Hex >> 8 & 0xFF),
          double(Hex & 0xFF)};
}

std::string hex(RGB C) {
  static const char *D = "0123456789abcdef";
  std::string S = "#";
  for (double V : {C.R, C.G, C.B}) {
    int I = int(std::lround(std::clamp(V, 0.0, 255.0)));
    S += D[I >> 4];
    S += D[I & 15];
  }
  return S;
}

/// The colour at \p T in [0, 1] of a scale of evenly spaced stops.
RGB scaleColour(ArrayRef<uint32_t> Stops, double T) {
  T = std::clamp(std::isfinite(T) ? T : 0.5, 0.0, 1.0) * (Stops.size() - 1);
  size_t I = std::min<size_t>(size_t(T), Stops.size() - 2);
  double F = T - double(I);
  RGB A = rgb(Stops[I]), B = rgb(Stops[I + 1]);
  return {A.R + (B.R - A.R) * F, A.G + (B.G - A.G) * F, A.B + (B.B - A.B) * F};
}

bool isDark(RGB C) {
  return (0.299 * C.R + 0.587 * C.G + 0.114 * C.B) / 255 < 0.5;
}

/// Viridis, sampled at nine points: sequential, colour-blind safe, readable
/// in grey.
const uint32_t Viridis[] = {0x440154, 0x472d7b, 0x3b528b, 0x2c728e, 0x21918c,
                            0x28ae80, 0x5ec962, 0xaddc30, 0xfde725};
/// ColorBrewer RdBu (9 classes) from blue to red: diverging, colour-blind
/// safe.
const uint32_t BlueRed[] = {0x2166ac, 0x4393c3, 0x92c5de, 0xd1e5f0, 0xf7f7f7,
                            0xfddbc7, 0xf4a582, 0xd6604d, 0xb2182b};

/// Series colours: Okabe and Ito's palette (without black), then Paul Tol's
/// muted palette; both are colour-blind safe.
const char *const SeriesPalette[] = {
    "#0072b2", "#e69f00", "#009e73", "#d55e00", "#56b4e9", "#cc79a7",
    "#f0e442", "#332288", "#88ccee", "#117733", "#999933", "#882255"};

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

/// R's time of node \p I, or 0 when R does not cover it.
uint64_t timeOf(const std::vector<uint64_t> &V, NodeIdx I) {
  return I < V.size() ? V[I] : 0;
}

/// The schedule without repeated or out-of-range entries (the replay skips
/// them the same way).
std::vector<NodeIdx> scheduled(const Graph &G) {
  std::vector<NodeIdx> Out;
  std::vector<bool> Seen(G.size());
  for (NodeIdx I : G.Order)
    if (I < G.size() && !Seen[I]) {
      Seen[I] = true;
      Out.push_back(I);
    }
  return Out;
}

} // namespace

//===----------------------------------------------------------------------===//
// Bar chart
//===----------------------------------------------------------------------===//

void writeBarChart(const BarChart &C, raw_ostream &OS) {
  const double W = 1000, PH = 360;
  size_t NS = std::max<size_t>(1, C.Series.size());
  size_t NG = std::max<size_t>(1, C.Groups.size());
  auto value = [&](size_t G, size_t S) {
    const std::vector<double> &V = C.Groups[G].Values;
    return S < V.size() && std::isfinite(V[S]) ? V[S] : NAN;
  };

  double Lo = 0, Hi = 0;
  for (size_t G = 0; G != C.Groups.size(); ++G)
    for (size_t S = 0; S != NS; ++S)
      if (double V = value(G, S); !std::isnan(V)) {
        Lo = std::min(Lo, V);
        Hi = std::max(Hi, V);
      }
  bool Ref = std::isfinite(C.ReferenceLine);
  if (Ref) {
    Lo = std::min(Lo, C.ReferenceLine);
    Hi = std::max(Hi, C.ReferenceLine);
  }
  if (Hi <= Lo)
    Hi = Lo + 1;
  double Step = niceStep(Hi - Lo, 6);
  Lo = std::floor(Lo / Step + 1e-9) * Step;
  Hi = std::ceil(Hi / Step - 1e-9) * Step;

  double Right = 24;
  if (Ref && !C.ReferenceLabel.empty())
    Right += textWidth(C.ReferenceLabel, 11) + 6;
  const double Left = C.YLabel.empty() ? 64 : 84;
  double PW = W - Left - Right, GW = PW / double(NG);
  double BW = GW * 0.8 / double(NS);

  std::vector<std::vector<std::string>> Labels(C.Groups.size());
  double MaxLW = 0;
  for (size_t G = 0; G != C.Groups.size(); ++G)
    for (size_t S = 0; S != NS; ++S) {
      Labels[G].push_back(formatValue(value(G, S), C.ValueFormat));
      MaxLW = std::max(MaxLW, textWidth(Labels[G].back(), 10));
    }
  bool RotV = MaxLW + 2 > BW;
  double LabelRoom = RotV ? MaxLW + 8 : 16;

  // Group labels: 12 px, else 11 px, else turned by 35 degrees.
  double MaxGLW = 0;
  for (const BarGroup &G : C.Groups)
    MaxGLW = std::max(MaxGLW, textWidth(G.Label, 12));
  double GSize = MaxGLW > GW - 6 && MaxGLW * 11 / 12 <= GW - 6 ? 11 : 12;
  bool RotG = MaxGLW * GSize / 12 > GW - 6;
  double BottomRoom = RotG ? MaxGLW * 0.574 + 28 : 32;

  Legend L;
  for (size_t S = 0; S != C.Series.size(); ++S)
    L.Items.push_back(
        {SeriesPalette[S % std::size(SeriesPalette)], C.Series[S]});
  double Y = titleBlock(nullptr, C.Title, {C.Subtitle});
  L.layout(Left, Y + 4, W - 16);
  double PlotTop = L.Bottom + 8 + LabelRoom;
  double PlotBottom = PlotTop + PH;
  double H = std::ceil(PlotBottom + BottomRoom);
  auto yOf = [&](double V) { return PlotBottom - (V - Lo) / (Hi - Lo) * PH; };

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

  double Zero = yOf(0);
  for (size_t G = 0; G != C.Groups.size(); ++G) {
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
        rect(OS, X + Gap / 2, std::min(YV, Zero), BW - Gap,
             std::fabs(Zero - YV), SeriesPalette[S % std::size(SeriesPalette)],
             "", Tip);
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

//===----------------------------------------------------------------------===//
// Heat map
//===----------------------------------------------------------------------===//

void writeHeatMap(const HeatMap &HM, raw_ostream &OS) {
  size_t NR = std::max(HM.Rows.size(), HM.Values.size());
  size_t NC = HM.Cols.size();
  for (const std::vector<double> &R : HM.Values)
    NC = std::max(NC, R.size());
  auto value = [&](size_t R, size_t C) {
    return R < HM.Values.size() && C < HM.Values[R].size() &&
                   std::isfinite(HM.Values[R][C])
               ? HM.Values[R][C]
               : NAN;
  };
  auto rowName = [&](size_t R) {
    return R < HM.Rows.size() ? HM.Rows[R] : std::string();
  };
  auto colName = [&](size_t C) {
    return C < HM.Cols.size() ? HM.Cols[C] : std::string();
  };

  // The colour scale.
  double Lo = INFINITY, Hi = -INFINITY;
  for (size_t R = 0; R != NR; ++R)
    for (size_t C = 0; C != NC; ++C)
      if (double V = value(R, C); !std::isnan(V)) {
        Lo = std::min(Lo, V);
        Hi = std::max(Hi, V);
      }
  bool Diverging = std::isfinite(HM.Center);
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
  ArrayRef<uint32_t> Stops =
      Diverging ? ArrayRef<uint32_t>(BlueRed) : ArrayRef<uint32_t>(Viridis);
  auto colourOf = [&](double V) {
    return scaleColour(Stops, (V - Lo) / (Hi - Lo));
  };

  // Layout.
  std::vector<std::vector<std::string>> Labels(NR);
  double MaxVW = 0;
  for (size_t R = 0; R != NR; ++R)
    for (size_t C = 0; C != NC; ++C) {
      Labels[R].push_back(formatValue(value(R, C), HM.ValueFormat));
      MaxVW = std::max(MaxVW, textWidth(Labels[R].back(), 11));
    }
  double CellW =
      std::clamp(880.0 / double(std::max<size_t>(NC, 1)), 48.0, 120.0);
  CellW = std::max(CellW, std::ceil(MaxVW + 10));
  const double CellH = 30;
  double MaxRLW = 0, MaxCLW = 0;
  for (size_t R = 0; R != NR; ++R)
    MaxRLW = std::max(MaxRLW, textWidth(rowName(R), 12));
  for (size_t C = 0; C != NC; ++C)
    MaxCLW = std::max(MaxCLW, textWidth(colName(C), 12));
  double Left = std::ceil(16 + (HM.RowLabel.empty() ? 0 : 22) + MaxRLW + 10);
  double GridW = CellW * double(NC), GridH = CellH * double(NR);
  bool RotC = MaxCLW > CellW - 6;
  double ColRoom = RotC ? MaxCLW * 0.707 + 24 : 24;

  double Top = titleBlock(nullptr, HM.Title, {HM.Subtitle}) + 8;
  double BarX = Left + GridW + 28, BarH = std::max(GridH, 160.0);
  double TStep = niceStep(Hi - Lo, 5);
  std::vector<double> BarTicks = ticks(Lo, Hi, TStep);
  double MaxTW = 0;
  for (double T : BarTicks)
    MaxTW = std::max(MaxTW, textWidth(plainLabel(T, TStep), 11));
  double W = std::ceil(
      std::max({BarX + 16 + 8 + MaxTW + 16, 32 + textWidth(HM.Title, 18),
                32 + textWidth(HM.Subtitle, 12)}));
  double Below = GridH + ColRoom + (HM.ColLabel.empty() ? 0 : 22);
  double H = std::ceil(Top + std::max(Below, BarH + 8) + 16);

  header(OS, W, H, HM.Title);
  titleBlock(&OS, HM.Title, {HM.Subtitle});
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
      RGB Col = colourOf(V);
      rect(OS, X, Y, CellW, CellH, hex(Col),
           "stroke=\"#ffffff\" stroke-width=\"1\"", Tip);
      text(OS, X + CellW / 2, Y + CellH / 2 + 4, Labels[R][C],
           {11, "middle", false, isDark(Col) ? "#ffffff" : "#000000"});
    }
  }
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

  // The colour bar: low at the bottom.
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
  footer(OS);
}

//===----------------------------------------------------------------------===//
// Occupancy
//===----------------------------------------------------------------------===//

namespace {

/// How a residency interval began and ended.
enum IntervalClass : uint8_t {
  Resident, // ALLOC to FREE (or to the end)
  Evicted,  // ALLOC to SPILL_OUT
  Reloaded, // SPILL_IN to FREE or SPILL_OUT
  NumIntervalClasses
};

const char *const IntervalColour[NumIntervalClasses] = {"#0072b2", "#e69f00",
                                                        "#cc79a7"};
const char *const IntervalName[NumIntervalClasses] = {
    "resident: ALLOC to FREE", "evicted: ALLOC to SPILL_OUT",
    "reloaded: SPILL_IN to FREE or SPILL_OUT"};

struct Interval {
  uint64_t Buf = 0, Offset = 0, Size = 0, T0 = 0, T1 = 0;
  NodeIdx Placer = 0;
  std::optional<NodeIdx> Releaser;
  Tier BufTier = Tier::L1;
  IntervalClass Class = Resident;
  bool HasOffset = false;
};

/// Every residency interval, in the order their placements run, following
/// the replay's state transitions (docs/Replay.md, Residency).
std::vector<Interval> residencyIntervals(const Graph &G,
                                         const ReplayResult &R) {
  enum State : uint8_t { Placed, Spilled, Freed };
  struct Buf {
    State S;
    Tier BufTier;
    uint64_t Size;
    size_t Open; // index in Out while Placed
  };
  DenseMap<uint64_t, Buf> Bufs;
  std::vector<Interval> Out;
  std::vector<bool> IsOpen;
  auto open = [&](NodeIdx I, const Buf &B, IntervalClass C) {
    Interval V;
    const Node &N = G[I];
    V.Buf = N.Buf;
    V.Offset = N.Offset;
    V.HasOffset = N.HasOffset;
    V.Size = B.Size;
    V.BufTier = B.BufTier;
    V.Placer = I;
    V.Class = C;
    V.T0 = timeOf(R.Start, I);
    Out.push_back(V);
    IsOpen.push_back(true);
    return Out.size() - 1;
  };
  auto close = [&](size_t K, NodeIdx I, bool BySpill) {
    Interval &V = Out[K];
    V.Releaser = I;
    V.T1 = std::max(V.T0, timeOf(R.Finish, I));
    if (BySpill && V.Class == Resident)
      V.Class = Evicted;
    IsOpen[K] = false;
  };
  for (NodeIdx I : scheduled(G)) {
    const Node &N = G[I];
    if (!N.isBufferNode())
      continue;
    auto It = Bufs.find(N.Buf);
    switch (N.Kind) {
    case NodeKind::Alloc:
      if (It == Bufs.end()) {
        Buf B{Placed, N.BufTier, N.Size, 0};
        B.Open = open(I, B, Resident);
        Bufs[N.Buf] = B;
      }
      break;
    case NodeKind::SpillOut:
      if (It != Bufs.end() && It->second.S == Placed) {
        close(It->second.Open, I, true);
        It->second.S = Spilled;
      }
      break;
    case NodeKind::SpillIn:
      if (It != Bufs.end() && It->second.S == Spilled) {
        It->second.Open = open(I, It->second, Reloaded);
        It->second.S = Placed;
      }
      break;
    case NodeKind::Free:
      if (It != Bufs.end() && It->second.S != Freed) {
        if (It->second.S == Placed)
          close(It->second.Open, I, false);
        It->second.S = Freed;
      }
      break;
    case NodeKind::Op:
      break;
    }
  }
  for (size_t K = 0; K != Out.size(); ++K)
    if (IsOpen[K])
      Out[K].T1 = std::max(Out[K].T0, R.Makespan);
  return Out;
}

/// A merged rectangle of the occupancy in whole pixels of its panel: x from
/// the plot's left, y from the panel's bottom.
struct PxRect {
  unsigned Panel;
  IntervalClass Class;
  int64_t Y0, Y1, X0, X1;
};

} // namespace

void writeOccupancy(const Graph &G, const ReplayResult &R, const TargetDesc &T,
                    raw_ostream &OS) {
  const double PW = 1400, PanelH = 130;
  std::vector<Interval> Intervals = residencyIntervals(G, R);

  // The panels: tiers that hold a buffer, in the target's order.
  struct Panel {
    Tier BufTier;
    uint64_t YMax = 0, Drawn = 0, Spilled = 0, NoOffset = 0;
    double Top = 0;
  };
  std::vector<Panel> Panels;
  std::array<int, NumTiers> PanelOf;
  PanelOf.fill(-1);
  for (const Interval &V : Intervals)
    PanelOf[unsigned(V.BufTier)] = 0;
  for (unsigned K = 0; K != NumTiers; ++K)
    if (PanelOf[K] == 0) {
      PanelOf[K] = int(Panels.size());
      Panels.push_back({Tier(K)});
      Panels.back().YMax = T.capacity(Tier(K));
    }
  size_t NoOffset = 0, Drawn = 0, SpilledCount = 0;
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

  TimeAxis X(PlotLeft, PW, R.Makespan);
  bool Exact = Drawn <= ExactLimit;

  // Snapped and merged rectangles; the time grid coarsens by powers of two
  // until at most OccupancyRectCap remain.
  std::vector<PxRect> Px;
  unsigned ColW = 1;
  if (!Exact) {
    auto build = [&](unsigned CW) {
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
      llvm::sort(Out, [&](const PxRect &A, const PxRect &B) {
        return Key(A) < Key(B);
      });
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
    };
    Px = build(ColW);
    while (Px.size() > OccupancyRectCap && ColW < unsigned(PW)) {
      ColW *= 2;
      Px = build(ColW);
    }
  }

  // Layout.
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
  Legend L;
  for (unsigned C = 0; C != NumIntervalClasses; ++C)
    L.Items.push_back({IntervalColour[C], IntervalName[C]});
  double Y = titleBlock(nullptr, "", Sub);
  L.layout(16, Y + 2, ChartWidth - 16);
  double PanelTop = L.Bottom + 30;
  for (Panel &P : Panels) {
    P.Top = PanelTop;
    PanelTop += PanelH + 58;
  }
  double H = std::ceil(PanelTop - 58 + 44);
  if (Panels.empty())
    H = std::ceil(L.Bottom + 40);

  std::string Title = "Occupancy of each tier: " + G.Name;
  header(OS, ChartWidth, H, Title);
  titleBlock(&OS, Title, Sub);
  L.draw(OS);
  if (Panels.empty())
    text(OS, PlotLeft, L.Bottom + 24, "No buffer is placed.", {12});
  for (size_t PI = 0; PI != Panels.size(); ++PI) {
    const Panel &P = Panels[PI];
    double Top = P.Top, Bottom = P.Top + PanelH;
    uint64_t Cap = T.capacity(P.BufTier);
    std::string Head =
        tierName(P.BufTier).str() + ": capacity " + grouped(Cap) + " B, peak " +
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

    if (Exact) {
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
              (V.Releaser ? describeNode(G, *V.Releaser)
                          : std::string("the end")) +
              " at " + grouped(V.T1);
          // A white outline parts neighbouring buffers; on a rectangle
          // under 4 px it would wash the colour out.
          double Hh = std::max(Y1 - Y0, 1.0);
          Y0 = std::min(Y0, Y1 - Hh);
          rect(OS, X0, Y0, W, Hh, IntervalColour[C],
               W >= 4 && Hh >= 4 ? "stroke=\"#ffffff\" stroke-width=\"0.4\""
                                 : "",
               Tip);
        }
    } else {
      // One group per class keeps the fill out of every rectangle.
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
    rect(OS, PlotLeft, Top, PW, PanelH, "none",
         "stroke=\"#888888\" stroke-width=\"0.5\"");
    if (Cap <= P.YMax) {
      double YC = Bottom - double(Cap) * SY;
      line(OS, PlotLeft, YC, PlotLeft + PW, YC, "#000000", 1.5, "6 3");
      text(OS, PlotLeft + PW + 6, YC + 4, "capacity", {10});
    }
    X.labels(OS, Bottom);
  }
  if (!Panels.empty())
    text(OS, PlotLeft + PW / 2, H - 10, "time (cycles)", {12, "middle"});
  footer(OS);
}

//===----------------------------------------------------------------------===//
// Pipe timeline
//===----------------------------------------------------------------------===//

void writePipeTimeline(const Graph &G, const ReplayResult &R,
                       const TargetDesc &T, raw_ostream &OS) {
  const double PW = 1440, StripH = 5, BarH = 24, RowH = 56;
  std::vector<NodeIdx> Sched = scheduled(G);

  // Nodes by pipe, in schedule order (each pipe runs them in that order).
  std::array<std::vector<NodeIdx>, NumPipes> OnPipe;
  size_t NumOnPipes = 0, NumSpills = 0;
  for (NodeIdx I : Sched)
    if (std::optional<Pipe> P = nodePipe(G[I], T)) {
      OnPipe[unsigned(*P)].push_back(I);
      ++NumOnPipes;
      NumSpills += G[I].isSpill();
    }

  // Op kinds (operation names) and their cycles, in total and per pipe.
  size_t NK = G.OpNames.size();
  std::vector<uint64_t> KindCycles(NK);
  std::vector<std::array<uint64_t, NumPipes>> KindPipeCycles(NK);
  std::vector<unsigned> KindPipes(NK); // bit P: the kind runs on pipe P
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
  std::vector<unsigned> Kinds;
  for (unsigned K = 0; K != NK; ++K)
    if (KindPipes[K])
      Kinds.push_back(K);
  llvm::sort(Kinds, [&](unsigned A, unsigned B) {
    if (KindCycles[A] != KindCycles[B])
      return KindCycles[A] > KindCycles[B];
    return G.OpNames[A] < G.OpNames[B];
  });

  // Colours: the kinds of one pipe differ, a kind keeps its colour on every
  // pipe, and colours repeat across pipes only once all are taken. Greedily,
  // most cycles first, each kind takes the first palette colour that no kind
  // has taken, else the first that no kind on its pipes has taken; a kind
  // that finds none is grey ("other ops").
  const unsigned OtherClass = NumOpColours, SpillClass = NumOpColours + 1,
                 NumClasses = NumOpColours + 2;
  std::vector<unsigned> ClassOf(NK, OtherClass);
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
  auto classOf = [&](NodeIdx I) -> unsigned {
    const Node &N = G[I];
    if (N.isSpill())
      return SpillClass;
    return N.OpName < NK ? ClassOf[N.OpName] : OtherClass;
  };
  auto colourOf = [&](unsigned C) {
    return C < NumOpColours  ? OpPalette[C]
           : C == OtherClass ? OtherOpColour
                             : SpillColour;
  };

  TimeAxis X(PlotLeft, PW, R.Makespan);
  bool Exact = NumOnPipes <= ExactLimit;
  const int64_t Cols = int64_t(PW);
  double TC = X.TMax / double(Cols);

  std::vector<std::string> Sub;
  Sub.push_back(G.Name + ": makespan " + grouped(R.Makespan) + " cycles; " +
                grouped(NumOnPipes) + " nodes on pipes, " + grouped(NumSpills) +
                " of them spills (black); each row lists its op kinds, most "
                "cycles first.");
  if (Exact)
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
  double PlotTop = titleBlock(nullptr, "", Sub) + 8;
  double PlotBottom = PlotTop + RowH * NumPipes;
  double H = std::ceil(PlotBottom + 46);

  std::string Title = "Pipe timeline: " + G.Name;
  header(OS, ChartWidth, H, Title);
  titleBlock(&OS, Title, Sub);
  auto barTop = [&](unsigned P) { return PlotTop + RowH * P + StripH + 1; };
  for (unsigned P = 0; P != NumPipes; ++P)
    rect(OS, PlotLeft, barTop(P), PW, BarH, "#f2f2f2");
  for (unsigned P = 0; P != NumPipes; ++P)
    X.grid(OS, barTop(P), barTop(P) + BarH);
  std::vector<std::array<double, NumOpColours + 2>> Busy;
  std::vector<bool> SpillCol;
  for (unsigned P = 0; P != NumPipes; ++P) {
    double RowTop = PlotTop + RowH * P;
    double BarTop = barTop(P), BarBottom = BarTop + BarH;
    double Frac = double(R.PipeBusy[P]) / X.TMax;
    text(OS, PlotLeft - 10, BarTop + 11, pipeName(Pipe(P)), {12, "end", true});
    text(OS, PlotLeft - 10, BarTop + 23, "busy " + num(100 * Frac, 0) + "%",
         {10, "end", false, "#444444"});

    // The row's legend under its bar.
    const std::vector<NodeIdx> &Nodes = OnPipe[P];
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
      Items.push_back(
          {OtherOpColour, "other ops (" + std::to_string(Others) +
                              (Others == 1 ? " kind)" : " kinds)")});
    if (llvm::any_of(Nodes, [&](NodeIdx I) { return G[I].isSpill(); }))
      Items.push_back({SpillColour, "spill"});
    double LX = PlotLeft;
    for (const LegendItem &I : Items) {
      rect(OS, LX, BarBottom + 4, 9, 9, I.Colour,
           "stroke=\"#333333\" stroke-width=\"0.5\"");
      text(OS, LX + 12, BarBottom + 12, I.Label, {10});
      LX += 12 + textWidth(I.Label, 10) + 12;
    }
    if (Nodes.empty())
      text(OS, PlotLeft, BarBottom + 12, "no node",
           {10, nullptr, false, "#666666"});

    if (Exact) {
      for (NodeIdx I : Nodes) {
        uint64_t S = timeOf(R.Start, I), F = timeOf(R.Finish, I);
        double X0 = X.x(double(S));
        double W = std::max(X.x(double(F)) - X0, 1.0);
        X0 = std::min(X0, PlotLeft + PW - W);
        std::string Tip = describeNode(G, I) + ": " + grouped(S) + " to " +
                          grouped(F) + " (" + grouped(F - std::min(S, F)) +
                          " cycles)";
        rect(OS, X0, BarTop, W, BarH, colourOf(classOf(I)), "", Tip);
      }
      continue;
    }
    Busy.assign(size_t(Cols), {});
    SpillCol.assign(size_t(Cols), false);
    for (NodeIdx I : Nodes) {
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
      OS << "<rect x=\"" << num(PlotLeft + double(K)) << "\" y=\""
         << num(RowTop) << "\" width=\"" << (E - K) << "\" height=\""
         << num(StripH) << "\" fill=\"" << SpillColour << "\"/>\n";
      K = E;
    }
  }
  X.labels(OS, PlotBottom);
  text(OS, PlotLeft + PW / 2, H - 8, "time (cycles)", {12, "middle"});
  footer(OS);
}

} // namespace dan::svg
