//===- SVGKit.cpp - The SVG chart kit: primitives, axes, colours ----------===//

#include "SVGKit.h"
#include "llvm/ADT/StringExtras.h"
#include <algorithm>
#include <clocale>
#include <cmath>
#include <cstdio>
#include <cstring>

using namespace llvm;

namespace dan::svg {

//===----------------------------------------------------------------------===//
// Numbers, text and XML
//===----------------------------------------------------------------------===//

/// \p V rounded to \p Dec decimals (at most 6); trailing zeros are dropped
/// when \p Trim.
std::string num(double V, unsigned Dec, bool Trim) {
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
static size_t utf8Length(StringRef S, size_t I) {
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

void text(raw_ostream &OS, double X, double Y, StringRef S, const Txt &T) {
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
          const char *Stroke, double Width, const char *Dash) {
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
          StringRef Fill, StringRef Extra, StringRef Tip) {
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

/// A tick label of a plain numeric axis.
std::string plainLabel(double V, double Step) {
  if (Step >= 1 && std::fabs(V) < 1e15) {
    std::string S = grouped(uint64_t(std::llround(std::fabs(V))));
    return V < 0 && std::llround(V) != 0 ? "-" + S : S;
  }
  return num(V, decimalsFor(Step), false);
}

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

void Legend::layout(double X0, double Y0, double MaxX) {
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

void Legend::draw(raw_ostream &OS) const {
  for (size_t I = 0; I != Items.size(); ++I) {
    auto [X, Y] = At[I];
    rect(OS, X, Y, 12, 12, Items[I].Colour,
         "stroke=\"#333333\" stroke-width=\"0.5\"");
    text(OS, X + 16, Y + 10.5, Items[I].Label);
  }
}

CountAxis::CountAxis(double Max) {
  if (Max >= 1e6) {
    Unit = 1e6;
    Suffix = "M";
  } else if (Max >= 1e4) {
    Unit = 1e3;
    Suffix = "k";
  }
}

std::string CountAxis::label(double V, double Step) const {
  if (Unit == 1 && Step >= 1)
    return grouped(uint64_t(std::llround(std::max(V, 0.0))));
  if (V == 0)
    return "0";
  return num(V / Unit, decimalsFor(Step / Unit), false) + Suffix;
}

} // namespace dan::svg
