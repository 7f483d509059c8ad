//===- TimelineView.cpp - A planned graph's pipe timeline -----------------===//
//
// The pipe timeline: a row per pipe with the nodes it runs over time,
// coloured by op kind. The writer computes its layout first (the size
// depends only on the input), then writes the document top to bottom.
//
//===----------------------------------------------------------------------===//

#include "Residency.h"
#include "SVGKit.h"
#include "TimeAxis.h"
#include "dan/IR/NodeCosts.h"
#include "dan/Report/PlanViews.h"
#include "llvm/ADT/STLExtras.h"
#include <algorithm>
#include <array>
#include <cmath>
#include <optional>

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

/// The pipe timeline of one replayed graph, drawn in steps: which nodes run
/// on each pipe, which op kinds there are and their colours, then each row
/// exactly (a rectangle per node) or binned (1-px columns).
class PipeTimeline {
public:
  PipeTimeline(const Graph &G, const ReplayResult &R, const TargetDesc &T)
      : G(G), R(R), T(T), NK(G.OpNames.size()), X(PlotLeft, PW, R.Makespan),
        TC(X.TMax / double(Cols)) {
    collectNodes();
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

  void collectNodes();
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
  const TargetDesc &T;
  /// Nodes by pipe, in schedule order (each pipe runs them in that order).
  std::array<std::vector<NodeIdx>, MaxPipes> OnPipe;
  size_t NumOnPipes = 0, NumSpills = 0;
  /// Op kinds (operation names) and their cycles, in total and per pipe.
  size_t NK;
  std::vector<uint64_t> KindCycles;
  std::vector<std::array<uint64_t, MaxPipes>> KindPipeCycles;
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

void PipeTimeline::collectNodes() {
  BufferCosts Costs = bufferCosts(G);
  for (NodeIdx I : scheduled(G))
    if (std::optional<Pipe> P = nodePipe(G, I, T, Costs)) {
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
  for (unsigned P = 0; P != T.numPipes(); ++P)
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
  std::array<unsigned, MaxPipes> Taken{}; // bit C: colour C is taken
  unsigned TakenAnywhere = 0;
  for (unsigned K : Kinds) {
    unsigned Used = 0;
    for (unsigned P = 0; P != T.numPipes(); ++P)
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
    for (unsigned P = 0; P != T.numPipes(); ++P)
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
  text(OS, PlotLeft - 10, barTop(P) + 11, T.pipeName(Pipe(P)),
       {12, "end", true});
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
  double PlotBottom = PlotTop + RowH * T.numPipes();
  double H = std::ceil(PlotBottom + 46);

  std::string Title = "Pipe timeline: " + G.Name;
  header(OS, ChartWidth, H, Title);
  titleBlock(&OS, Title, Sub);
  for (unsigned P = 0; P != T.numPipes(); ++P)
    rect(OS, PlotLeft, barTop(P), PW, BarH, "#f2f2f2");
  for (unsigned P = 0; P != T.numPipes(); ++P)
    X.grid(OS, barTop(P), barTop(P) + BarH);
  bool Exact = NumOnPipes <= ExactLimit;
  for (unsigned P = 0; P != T.numPipes(); ++P) {
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

} // namespace dan::svg
