//===- SVGKit.h - The SVG chart kit: primitives, axes, colours --*- C++ -*-===//
//
// Private to lib/Report: what every chart is drawn with. Numbers go through
// num(), which formats with integer arithmetic: no locale, no printf, so the
// same input gives the same bytes. Charts.cpp draws the generic charts (bars,
// heat map) with it, PlanViews.cpp the views of a planned graph (occupancy,
// pipe timeline). docs/Charts.md describes the charts.
//
//===----------------------------------------------------------------------===//

#ifndef DAN_LIB_REPORT_SVGKIT_H
#define DAN_LIB_REPORT_SVGKIT_H

#include "llvm/ADT/ArrayRef.h"
#include "llvm/ADT/StringRef.h"
#include "llvm/Support/raw_ostream.h"
#include <cstdint>
#include <string>
#include <utility>
#include <vector>

namespace dan::svg {

//===----------------------------------------------------------------------===//
// Numbers, text and XML
//===----------------------------------------------------------------------===//

/// \p V rounded to \p Dec decimals (at most 6); trailing zeros are dropped
/// when \p Trim.
std::string num(double V, unsigned Dec = 2, bool Trim = true);

/// "1,234,567".
std::string grouped(uint64_t V);

/// Whether \p F is one printf conversion of a double: text, "%%", and
/// exactly one "%[-+ #0]*[0-9]{0,2}(.[0-9]{0,2})?[eEfFgG]".
bool isDoubleFormat(llvm::StringRef F);

/// \p V through the printf format \p F ("%.2f" when \p F is not one
/// conversion of a double); "n/a" for NaN. The locale's decimal point, should
/// a program have set one, is written as '.'.
std::string formatValue(double V, const std::string &F);

/// \p S as XML character data or attribute text: markup characters escaped,
/// characters XML does not allow (controls, invalid UTF-8) written as '?'.
std::string esc(llvm::StringRef S);

/// A width estimate of \p S at font size \p Size, for layout only (DejaVu
/// Sans averages about 0.6 em a character).
double textWidth(llvm::StringRef S, double Size);

//===----------------------------------------------------------------------===//
// Elements
//===----------------------------------------------------------------------===//

/// How a text element is set; the defaults are written as nothing.
struct Txt {
  double Size = 12;
  const char *Anchor = nullptr;
  bool Bold = false;
  const char *Fill = nullptr;
  double Rotate = 0;
};

void text(llvm::raw_ostream &OS, double X, double Y, llvm::StringRef S,
          const Txt &T = Txt());

void line(llvm::raw_ostream &OS, double X1, double Y1, double X2, double Y2,
          const char *Stroke, double Width = 1, const char *Dash = nullptr);

/// A rectangle; \p Extra is written inside the tag as is, \p Tip (when not
/// empty) as a <title> child, which browsers show as a tooltip.
void rect(llvm::raw_ostream &OS, double X, double Y, double W, double H,
          llvm::StringRef Fill, llvm::StringRef Extra = "",
          llvm::StringRef Tip = "");

/// The document's start (size, viewBox, fonts, title, white background) and
/// end.
void header(llvm::raw_ostream &OS, double W, double H, llvm::StringRef Title);
void footer(llvm::raw_ostream &OS);

/// The title at the top left and the subtitle lines under it; returns the
/// y below them. With no \p OS only the height is computed.
double titleBlock(llvm::raw_ostream *OS, llvm::StringRef Title,
                  llvm::ArrayRef<std::string> Sub);

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
  void layout(double X0, double Y0, double MaxX);
  void draw(llvm::raw_ostream &OS) const;
};

/// A step of 1, 2 or 5 times a power of ten that cuts \p Range into about
/// \p Target parts.
double niceStep(double Range, unsigned Target);

/// The multiples of \p Step from \p Lo to \p Hi (at most 1000).
std::vector<double> ticks(double Lo, double Hi, double Step);

/// Decimals that show a multiple of \p Step exactly (Step = 1, 2 or 5 times
/// a power of ten).
unsigned decimalsFor(double Step);

/// Tick labels of an axis of counts (cycles): "250k", "1.5M"; the unit is
/// chosen by the axis's largest value.
struct CountAxis {
  double Unit = 1;
  const char *Suffix = "";
  explicit CountAxis(double Max);
  std::string label(double V, double Step) const;
};

/// A tick label of a plain numeric axis.
std::string plainLabel(double V, double Step);

struct RGB {
  double R, G, B;
};

RGB rgb(uint32_t Hex);
/// "#rrggbb".
std::string hex(RGB C);
/// The colour at \p T in [0, 1] of a scale of evenly spaced stops.
RGB scaleColour(llvm::ArrayRef<uint32_t> Stops, double T);
/// Whether white text reads better than black on \p C.
bool isDark(RGB C);

} // namespace dan::svg

#endif // DAN_LIB_REPORT_SVGKIT_H
