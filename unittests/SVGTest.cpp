#include "TestUtil.h"
#include "dan/Report/Charts.h"
#include "dan/Report/PlanViews.h"
#include "dan/Target/Davinci/Davinci.h"
#include "llvm/Support/MemoryBuffer.h"
#include <functional>
#include <gtest/gtest.h>

using namespace dan;
using namespace dan::test;

namespace {

/// A small well-formedness check: tags balance, attribute values are
/// quoted, '<' appears only as markup and '&' only in entity references.
/// Returns an empty string, or what is wrong.
std::string checkXML(llvm::StringRef S) {
  std::vector<std::string> Open;
  bool SawRoot = false;
  auto checkEntities = [](llvm::StringRef T) -> std::string {
    for (size_t I = T.find('&'); I != llvm::StringRef::npos;
         I = T.find('&', I + 1)) {
      llvm::StringRef Rest = T.substr(I);
      if (!Rest.starts_with("&amp;") && !Rest.starts_with("&lt;") &&
          !Rest.starts_with("&gt;") && !Rest.starts_with("&quot;") &&
          !Rest.starts_with("&apos;"))
        return "bare '&' in '" + T.str() + "'";
    }
    return "";
  };
  size_t I = 0;
  if (S.starts_with("<?xml")) {
    I = S.find("?>");
    if (I == llvm::StringRef::npos)
      return "unterminated XML declaration";
    I += 2;
  }
  while (I < S.size()) {
    size_t Lt = S.find('<', I);
    llvm::StringRef Text = S.slice(I, Lt);
    if (std::string E = checkEntities(Text); !E.empty())
      return E;
    if (Text.contains('>'))
      return "bare '>' in text";
    if (Lt == llvm::StringRef::npos)
      break;
    if (Open.empty() && SawRoot)
      return "content after the root element";
    size_t Gt = S.find('>', Lt);
    if (Gt == llvm::StringRef::npos)
      return "unterminated tag";
    llvm::StringRef Tag = S.slice(Lt + 1, Gt);
    if (Tag.contains('<'))
      return "'<' inside a tag";
    I = Gt + 1;
    if (Tag.starts_with("/")) {
      if (Open.empty() || Open.back() != Tag.drop_front().str())
        return "unbalanced </" + Tag.drop_front().str() + ">";
      Open.pop_back();
      continue;
    }
    bool SelfClosing = Tag.ends_with("/");
    if (SelfClosing)
      Tag = Tag.drop_back();
    llvm::StringRef Name = Tag.take_until([](char C) { return C == ' '; });
    if (Name.empty())
      return "empty tag name";
    // Attributes: name="value" pairs.
    llvm::StringRef Attrs = Tag.drop_front(Name.size()).trim();
    while (!Attrs.empty()) {
      size_t Eq = Attrs.find("=\"");
      if (Eq == llvm::StringRef::npos)
        return "attribute without a quoted value in <" + Name.str() + ">";
      size_t End = Attrs.find('"', Eq + 2);
      if (End == llvm::StringRef::npos)
        return "unterminated attribute value";
      if (std::string E = checkEntities(Attrs.slice(Eq + 2, End)); !E.empty())
        return E;
      Attrs = Attrs.drop_front(End + 1).trim();
    }
    SawRoot = true;
    if (!SelfClosing)
      Open.push_back(Name.str());
  }
  if (!Open.empty())
    return "unclosed <" + Open.back() + ">";
  return SawRoot ? "" : "no element";
}

size_t count(llvm::StringRef S, llvm::StringRef What) { return S.count(What); }

std::string render(const std::function<void(llvm::raw_ostream &)> &Write) {
  std::string S;
  llvm::raw_string_ostream OS(S);
  Write(OS);
  return S;
}

/// Renders twice and checks that the bytes agree, the XML is well formed and
/// the root is an svg element with a viewBox.
std::string renderChecked(const std::function<void(llvm::raw_ostream &)> &W) {
  std::string A = render(W), B = render(W);
  EXPECT_EQ(A, B);
  EXPECT_EQ(checkXML(A), "");
  EXPECT_NE(A.find("<svg xmlns=\"http://www.w3.org/2000/svg\""),
            std::string::npos);
  EXPECT_NE(A.find("viewBox=\"0 0 "), std::string::npos);
  return A;
}

struct Planned {
  llvm::SourceMgr SM;
  std::unique_ptr<Graph> G;
  ReplayResult R;
  TargetDesc T = TargetDesc::davinci();
};

std::unique_ptr<Planned> loadExample(const char *Name) {
  auto P = std::make_unique<Planned>();
  auto Buf =
      llvm::MemoryBuffer::getFile(std::string(DAN_EXAMPLES_DIR) + "/" + Name);
  EXPECT_TRUE(bool(Buf)) << Name;
  if (!Buf)
    return P;
  std::string Diags;
  P->G = parse(P->SM, (*Buf)->getBuffer(), Diags);
  EXPECT_TRUE(P->G) << Diags;
  if (P->G)
    P->R = replay(*P->G, P->T);
  return P;
}

/// A graph of \p N buffers in UB, each allocated, used by one VECTOR
/// operation and freed, in \p Slots slots of 1024 / Slots bytes; every third
/// operation is an EXP, the others ADD.
std::unique_ptr<Graph> bigGraph(unsigned N, unsigned Slots) {
  auto G = std::make_unique<Graph>();
  G->Name = "Big";
  uint64_t Id = 0;
  NodeIdx PrevFree = 0;
  for (unsigned B = 0; B != N; ++B) {
    Node A;
    A.Id = Id++;
    A.Kind = NodeKind::Alloc;
    A.BufTier = davinci::UB;
    A.Buf = B;
    A.Size = 1024 / Slots;
    A.HasOffset = true;
    A.Offset = A.Size * (B % Slots);
    if (B >= Slots)
      A.Preds.push_back(PrevFree);
    NodeIdx AI = G->addNode(A);
    Node O;
    O.Id = Id++;
    O.Kind = NodeKind::Op;
    O.OpPipe = davinci::VECTOR;
    O.OpName = G->internOpName(B % 3 == 0 ? "EXP" : "ADD");
    O.Cycles = 10 + B % 7;
    O.Bufs.push_back(B);
    O.Preds.push_back(AI);
    NodeIdx OI = G->addNode(O);
    Node F;
    F.Id = Id++;
    F.Kind = NodeKind::Free;
    F.BufTier = davinci::UB;
    F.Buf = B;
    F.Size = 1024 / Slots;
    F.Preds.push_back(OI);
    PrevFree = G->addNode(F);
  }
  G->sortEdges();
  return G;
}

} // namespace

TEST(SVGTest, CheckerCatchesBrokenXML) {
  EXPECT_EQ(checkXML("<svg><g></g></svg>"), "");
  EXPECT_NE(checkXML("<svg><g></svg>"), "");
  EXPECT_NE(checkXML("<svg>a & b</svg>"), "");
  EXPECT_NE(checkXML("<svg><text>a <b</text></svg>"), "");
  EXPECT_NE(checkXML("<svg x=1/>"), "");
}

TEST(SVGTest, BarChart) {
  svg::BarChart C;
  C.Title = "Peak <L1+UB> & more";
  C.YLabel = "peak / base";
  C.Series = {"base", "dan"};
  C.Groups = {
      {"Conv_Case0", {1.0, 0.25}}, {"A&B", {1.0, NAN}}, {"short", {1.0}}};
  C.ReferenceLabel = "base";
  std::string S = renderChecked([&](auto &OS) { svg::writeBarChart(C, OS); });
  EXPECT_NE(S.find("Peak &lt;L1+UB&gt; &amp; more"), std::string::npos);
  EXPECT_NE(S.find(">A&amp;B</text>"), std::string::npos);
  EXPECT_EQ(S.find("A&B"), std::string::npos);
  // One bar (with a tooltip) per finite value; NaN and missing are "n/a".
  EXPECT_EQ(count(S, "</title></rect>"), 4u);
  EXPECT_EQ(count(S, ">n/a</text>"), 2u);
  EXPECT_NE(S.find(">0.25</text>"), std::string::npos);
  EXPECT_NE(S.find(">base</text>"), std::string::npos);
  EXPECT_NE(S.find(">dan</text>"), std::string::npos);
  // The reference line is dashed.
  EXPECT_EQ(count(S, "stroke-dasharray"), 1u);
  // Round ticks with one number of decimals.
  EXPECT_NE(S.find(">0.0</text>"), std::string::npos);
  EXPECT_NE(S.find(">1.0</text>"), std::string::npos);

  C.ReferenceLine = NAN;
  std::string NoRef = render([&](auto &OS) { svg::writeBarChart(C, OS); });
  EXPECT_EQ(count(NoRef, "stroke-dasharray"), 0u);
}

TEST(SVGTest, BarChartEmpty) {
  svg::BarChart C;
  renderChecked([&](auto &OS) { svg::writeBarChart(C, OS); });
}

TEST(SVGTest, HeatMap) {
  svg::HeatMap H;
  H.Title = "Sensitivity <w> & peak";
  H.RowLabel = "alpha";
  H.ColLabel = "beta";
  H.Rows = {"0.1", "0.5"};
  H.Cols = {"x<1", "2", "3"};
  H.Values = {{0.5, 0.75, 1.0}, {1.25, NAN, 1.5}};
  std::string S = renderChecked([&](auto &OS) { svg::writeHeatMap(H, OS); });
  EXPECT_NE(S.find("Sensitivity &lt;w&gt; &amp; peak"), std::string::npos);
  EXPECT_NE(S.find(">x&lt;1</text>"), std::string::npos);
  EXPECT_EQ(count(S, "</title></rect>"), 6u);
  EXPECT_EQ(count(S, ">n/a</text>"), 1u);
  EXPECT_NE(S.find(">0.75</text>"), std::string::npos);
  EXPECT_NE(S.find("linearGradient"), std::string::npos);
  // Sequential: the smallest value is viridis's first colour.
  EXPECT_NE(S.find("fill=\"#440154\""), std::string::npos);

  // Diverging around 1: the center is white-ish, values below are blue.
  H.Center = 1.0;
  H.ValueFormat = "%s"; // not a double conversion: falls back to %.2f
  std::string D = renderChecked([&](auto &OS) { svg::writeHeatMap(H, OS); });
  EXPECT_NE(D.find("fill=\"#f7f7f7\""), std::string::npos);
  EXPECT_NE(D.find("fill=\"#2166ac\""), std::string::npos);
  EXPECT_NE(D.find(">1.00</text>"), std::string::npos);
}

TEST(SVGTest, HeatMapRagged) {
  svg::HeatMap H;
  H.Values = {{1}, {2, 3}, {}};
  H.ValueFormat = "%.1e%%";
  std::string S = renderChecked([&](auto &OS) { svg::writeHeatMap(H, OS); });
  EXPECT_NE(S.find(">3.0e+00%</text>"), std::string::npos);
  EXPECT_EQ(count(S, ">n/a</text>"), 3u);
}

TEST(SVGTest, OccupancyOfSpillExample) {
  auto P = loadExample("spill.dan");
  ASSERT_TRUE(P->G);
  std::string S = renderChecked(
      [&](auto &OS) { svg::writeOccupancy(*P->G, P->R, P->T, OS); });
  // One panel (UB), four residency intervals: b0 until its spill_out
  // (evicted), b1 and b2 (resident), b0 again from its spill_in (reloaded).
  EXPECT_NE(S.find(">UB: capacity 1,024 B, peak 1,024 B, 4 intervals (2 "
                   "around a spill)</text>"),
            std::string::npos);
  EXPECT_EQ(S.find(">L1: "), std::string::npos);
  EXPECT_EQ(count(S, "</title></rect>"), 4u);
  EXPECT_NE(S.find("fill=\"#e69f00\" stroke=\"#ffffff\" stroke-width=\"0.4\">"
                   "<title>b0: 512 B at offset 0, n0 (alloc b0) at 0 to n11 "
                   "(spill_out b0) at 80</title>"),
            std::string::npos);
  EXPECT_NE(S.find("<title>b0: 512 B at offset 512, n12 (spill_in b0) at 260 "
                   "to n8 (free b0) at 1,534</title>"),
            std::string::npos);
  EXPECT_NE(S.find(">capacity</text>"), std::string::npos);
  EXPECT_NE(S.find(">time (cycles)</text>"), std::string::npos);
}

TEST(SVGTest, TimelineOfSpillExample) {
  auto P = loadExample("spill.dan");
  ASSERT_TRUE(P->G);
  std::string S = renderChecked(
      [&](auto &OS) { svg::writePipeTimeline(*P->G, P->R, P->T, OS); });
  // Seven nodes on pipes, two of them spills (black).
  EXPECT_EQ(count(S, "</title></rect>"), 7u);
  EXPECT_NE(S.find("fill=\"#000000\"><title>n12 (spill_in b0): 260 to 1,434 "
                   "(1,174 cycles)</title>"),
            std::string::npos);
  EXPECT_NE(S.find("fill=\"#000000\"><title>n11 (spill_out b0): 80 to 80 (0 "
                   "cycles)</title>"),
            std::string::npos);
  // One row per pipe, with its busy share.
  for (const char *Pipe : {"MTE1", "MTE2", "MTE3", "FIXP", "CUBE", "VECTOR"})
    EXPECT_NE(S.find(std::string(">") + Pipe + "</text>"), std::string::npos)
        << Pipe;
  EXPECT_NE(S.find(">busy 83%</text>"), std::string::npos);
  EXPECT_NE(S.find(">COPY_IN</text>"), std::string::npos);
  EXPECT_NE(S.find(">spill</text>"), std::string::npos);
}

TEST(SVGTest, EscapesGraphNames) {
  auto P = loadExample("spill.dan");
  ASSERT_TRUE(P->G);
  P->G->Name = "a<b&c";
  for (bool Occupancy : {true, false}) {
    std::string S = renderChecked([&](auto &OS) {
      if (Occupancy)
        svg::writeOccupancy(*P->G, P->R, P->T, OS);
      else
        svg::writePipeTimeline(*P->G, P->R, P->T, OS);
    });
    EXPECT_NE(S.find("a&lt;b&amp;c"), std::string::npos);
    EXPECT_EQ(S.find("a<b"), std::string::npos);
  }
}

TEST(SVGTest, BigGraphsAreBinnedAndBounded) {
  auto G = bigGraph(6000, 16);
  TargetDesc T = TargetDesc::davinci();
  ReplayResult R = replay(*G, T);
  ASSERT_GT(R.Makespan, 0u);
  std::string Tl =
      renderChecked([&](auto &OS) { svg::writePipeTimeline(*G, R, T, OS); });
  std::string Occ =
      renderChecked([&](auto &OS) { svg::writeOccupancy(*G, R, T, OS); });
  // No tooltip per node or interval once over the exact limit, and far
  // fewer rectangles than nodes.
  EXPECT_EQ(count(Tl, "<title>"), 1u);
  EXPECT_EQ(count(Occ, "<title>"), 1u);
  EXPECT_NE(Tl.find("binned into 1-px columns"), std::string::npos);
  EXPECT_NE(Occ.find("6,000 residency intervals"), std::string::npos);
  EXPECT_LT(count(Tl, "<rect"), 1600u);
  EXPECT_LT(count(Occ, "<rect"), 6100u);
  EXPECT_LT(Tl.size(), 200000u);
  EXPECT_LT(Occ.size(), 400000u);
  EXPECT_NE(Tl.find(">EXP</text>"), std::string::npos);
  EXPECT_NE(Tl.find(">ADD</text>"), std::string::npos);
}

TEST(SVGTest, OccupancyCoarsensPastTheCap) {
  // 64 slots: each slot's intervals lie about 3 px apart, so merging at
  // whole pixels leaves one rectangle per interval, over the cap.
  auto G = bigGraph(30000, 64);
  TargetDesc T = TargetDesc::davinci();
  ReplayResult R = replay(*G, T);
  std::string Occ =
      renderChecked([&](auto &OS) { svg::writeOccupancy(*G, R, T, OS); });
  EXPECT_NE(Occ.find("30,000 residency intervals"), std::string::npos);
  EXPECT_NE(Occ.find("-px columns"), std::string::npos);
  EXPECT_LE(count(Occ, "<rect"), svg::OccupancyRectCap + 20);
  EXPECT_LT(Occ.size(), 1000000u);
}

TEST(SVGTest, EmptyGraph) {
  Graph G;
  G.Name = "Empty";
  TargetDesc T = TargetDesc::davinci();
  ReplayResult R = replay(G, T);
  std::string Occ =
      renderChecked([&](auto &OS) { svg::writeOccupancy(G, R, T, OS); });
  EXPECT_NE(Occ.find("No buffer is placed."), std::string::npos);
  renderChecked([&](auto &OS) { svg::writePipeTimeline(G, R, T, OS); });
}
