//===- dan-fuzz-export.cpp - Fuzz the exporters by round trip -------------===//
//
// The first byte chooses the graph: below 64, the rest is a graph as text
// (DAN IR, or contest JSON when it starts with '{'); otherwise the rest are
// decisions (GenerateCase.h) for a graph that verifies, taken as generated,
// after stage 1, after stages 1 and 2, or after a whole method (the first
// byte says which), so that plans with spills and reuse edges come often.
// What must hold:
//
//  - IR -> JSON -> IR: importJSON reads exportJSON's output back to a graph
//    that prints the same IR;
//  - IR -> submission -> IR: on a graph that verifies, applySubmission of
//    exportSubmission's triple to the graph rebuilds the same IR (the plan
//    included); exportSubmission refuses only node ids other than 0 to N-1
//    (then the graph is renumbered first) and a plan without an offset;
//  - DOT is well formed: one statement a line, each node once in schedule
//    order, each edge once between declared nodes, quotes balanced;
//  - the SVG charts of the replay (occupancy, pipe timeline) are one
//    balanced <svg> element.
//
//===----------------------------------------------------------------------===//

#include "FuzzSupport.h"
#include "GenerateCase.h"
#include "dan/Analysis/Replay.h"
#include "dan/Formats/Dot.h"
#include "dan/Formats/Formats.h"
#include "dan/Formats/JSON.h"
#include "dan/Formats/Submission.h"
#include "dan/Report/Charts.h"
#include "dan/Report/PlanViews.h"
#include "dan/Select/Methods.h"
#include "llvm/ADT/StringSet.h"
#include "llvm/Support/raw_ostream.h"

using namespace llvm;
using namespace dan;
using fuzz::fail;

namespace {

void checkJSON(const Graph &G, const TargetDesc &T) {
  std::string Text;
  raw_string_ostream OS(Text);
  exportJSON(G, T, OS);
  SourceMgr SM;
  fuzz::quietDiagnostics(SM);
  unsigned ID = fuzz::addBuffer(SM, Text, "exported.json");
  std::unique_ptr<Graph> Back = importJSON(SM, ID, G.Name);
  std::string Before = fuzz::printed(G);
  if (!Back)
    fail("importJSON refuses exportJSON's output", Before, Text);
  std::string After = fuzz::printed(*Back);
  if (After != Before)
    fail("IR -> JSON -> IR changes the graph", Before, After);
}

void checkSubmission(const Graph &In, const TargetDesc &T) {
  // The contest numbers the nodes 0 to N-1: the export refuses other ids,
  // and the round trip runs on the graph renumbered as dan-translate
  // --renumber does.
  Graph G = In;
  if (!In.hasDenseIds()) {
    Expected<Submission> Gaps = exportSubmission(In);
    if (Gaps)
      fail("exportSubmission accepts node ids with gaps", fuzz::printed(In));
    consumeError(Gaps.takeError());
    G.renumberDensely();
  }
  Expected<Submission> S = exportSubmission(G);
  bool Incomplete = any_of(
      G.Nodes, [](const Node &N) { return N.isPlacement() && !N.HasOffset; });
  if (!S) {
    std::string Msg = toString(S.takeError());
    if (!G.hasMemoryPlan() || !Incomplete)
      fail("exportSubmission refuses a complete plan: " + Msg,
           fuzz::printed(G));
    return;
  }
  // Only a graph that verifies has a plan that the triple holds whole (spill
  // numbering, spill and reuse edges are rebuilt from it).
  if (verifyGraph(G, T, VerifyOptions(),
                  [](SMLoc, SourceMgr::DiagKind, const Twine &) {}))
    return;
  SourceMgr SM;
  fuzz::quietDiagnostics(SM);
  SubmissionBuffers Files;
  Files.Schedule = fuzz::addBuffer(SM, S->Schedule, "out_schedule.txt");
  if (G.hasMemoryPlan()) {
    Files.Memory = fuzz::addBuffer(SM, S->Memory, "out_memory.txt");
    Files.Spill = fuzz::addBuffer(SM, S->Spill, "out_spill.txt");
  }
  Graph Back = G;
  std::string Before = fuzz::printed(G);
  if (!applySubmission(Back, SM, Files))
    fail("applySubmission refuses exportSubmission's triple", Before,
         S->Schedule + "%% memory\n" + S->Memory + "%% spill\n" + S->Spill);
  std::string After = fuzz::printed(Back);
  if (After != Before)
    fail("IR -> submission -> IR changes the graph", Before, After);
}

/// The text of a quoted DOT string starting at \p S[0] == '"', unescaped;
/// \p S is left after the closing quote. Fails on an unterminated string.
std::string takeQuoted(StringRef &S, StringRef Dot) {
  std::string Out;
  size_t K = 1;
  for (; K < S.size() && S[K] != '"'; ++K) {
    if (S[K] == '\\' && K + 1 < S.size()) {
      ++K;
      // DOT keeps label escapes such as \n; only \" and \\ stand for
      // themselves.
      if (S[K] != '"' && S[K] != '\\')
        Out += '\\';
    }
    Out += S[K];
  }
  if (K >= S.size())
    fail("an unterminated string in the DOT output", Dot);
  S = S.drop_front(K + 1);
  return Out;
}

void checkDot(const Graph &G) {
  std::string Dot;
  raw_string_ostream OS(Dot);
  exportDot(G, OS);
  SmallVector<StringRef, 0> Lines;
  StringRef(Dot).split(Lines, '\n');
  // "digraph NAME {", the node defaults, nodes, edges, "}", and the empty
  // string after the last newline.
  if (Lines.size() < 4 || !Lines.back().empty() ||
      Lines[Lines.size() - 2] != "}")
    fail("the DOT output does not end with '}' and a newline", Dot);
  StringRef Head = Lines[0];
  if (!Head.consume_front("digraph ") || !Head.starts_with("\""))
    fail("the DOT output does not start with 'digraph \"NAME\"'", Dot);
  if (takeQuoted(Head, Dot) != G.Name || Head != " {")
    fail("the DOT graph name is not the graph's", Dot);

  size_t Edges = 0;
  for (const Node &N : G.Nodes)
    Edges += N.Preds.size() + N.ReusePreds.size();
  if (Lines.size() != 4 + G.size() + Edges)
    fail("the DOT output has " + Twine(Lines.size()) + " lines for " +
             Twine(G.size()) + " nodes and " + Twine(Edges) + " edges",
         Dot);
  StringSet<> Declared;
  for (size_t K = 0; K != G.size(); ++K) {
    StringRef L = Lines[2 + K];
    std::string Name = "n" + std::to_string(G[G.Order[K]].Id);
    if (!L.consume_front("  " + Name + " [label=") || !L.starts_with("\""))
      fail("DOT line " + Twine(3 + K) + " does not declare " + Name, Dot);
    takeQuoted(L, Dot);
    if (!L.ends_with("];") || L.count('"') % 2)
      fail("DOT line " + Twine(3 + K) + " is malformed", Dot);
    Declared.insert(Name);
  }
  StringSet<> Seen;
  for (size_t K = 2 + G.size(); K != Lines.size() - 2; ++K) {
    StringRef L = Lines[K].trim();
    auto [From, Rest] = L.split(" -> ");
    StringRef To = Rest.take_until([](char C) { return C == ' ' || C == ';'; });
    if (!Declared.count(From) || !Declared.count(To) || !L.ends_with(";"))
      fail("DOT line " + Twine(K + 1) + " is not an edge between nodes", Dot);
    // Input and reuse edges may join the same two nodes, once each.
    bool Reuse = L.contains("style=dashed");
    if (!Seen.insert((From + ">" + To + (Reuse ? "r" : "")).str()).second)
      fail("DOT line " + Twine(K + 1) + " repeats an edge", Dot);
  }
}

/// An SVG document: one <svg> element, every other tag closed in order.
void checkSVG(StringRef Svg) {
  SmallVector<StringRef, 16> Open;
  for (size_t K = Svg.find('<'); K != StringRef::npos;
       K = Svg.find('<', K + 1)) {
    size_t E = Svg.find('>', K);
    if (E == StringRef::npos)
      fail("an SVG tag is not closed", Svg);
    StringRef Tag = Svg.slice(K + 1, E);
    if (Tag.starts_with("?") || Tag.starts_with("!"))
      continue;
    StringRef Name = Tag.take_until(
        [](char C) { return C == ' ' || C == '/' || C == '\n'; });
    if (Tag.starts_with("/")) {
      if (Open.empty() || Open.back() != Tag.drop_front())
        fail("SVG closes <" + Tag.drop_front() + "> out of order", Svg);
      Open.pop_back();
    } else if (!Tag.ends_with("/")) {
      if (Open.empty() && Name != "svg")
        fail("an SVG element outside <svg>", Svg);
      Open.push_back(Name);
    }
  }
  if (!Open.empty())
    fail("SVG leaves <" + Open.back() + "> open", Svg);
}

void checkCharts(const Graph &G, const TargetDesc &T) {
  ReplayResult R = replay(G, T);
  std::string A, B;
  raw_string_ostream OA(A), OB(B);
  svg::writeOccupancy(G, R, T, OA);
  svg::writePipeTimeline(G, R, T, OB);
  checkSVG(A);
  checkSVG(B);
}

} // namespace

extern "C" int LLVMFuzzerTestOneInput(const uint8_t *Data, size_t Size) {
  if (!Size)
    return 0;
  uint8_t Mode = Data[0];
  TargetDesc T = TargetDesc::davinci();
  std::unique_ptr<Graph> G;
  if (Mode < 64) {
    SourceMgr SM;
    fuzz::quietDiagnostics(SM);
    StringRef Text(reinterpret_cast<const char *>(Data + 1), Size - 1);
    G = importGraph(SM, fuzz::addBuffer(SM, Text, "input.dan"), "input");
    if (!G)
      return 0;
  } else {
    fuzz::ByteReader R(ArrayRef(Data + 1, Size - 1));
    fuzz::FuzzCase C = fuzz::generateCase(R);
    if (!C.G)
      return -1;
    T = C.Target;
    G = std::move(C.G);
    // dan-fuzz-stages judges the stages; here a refusal only means there
    // is less to export. A stage runs on a copy, since one that fails late
    // may leave its graph half changed (runDLR's spill-id limit).
    auto Stage = [&](auto Run) {
      Graph Copy = *G;
      auto Result = Run(Copy);
      if (!Result) {
        consumeError(Result.takeError());
        return false;
      }
      *G = std::move(Copy);
      return true;
    };
    auto MPAS = [&](Graph &X) { return selectMPAS(X, T, C.MPAS); };
    auto DLR = [&](Graph &X) { return selectDLR(X, T, C.DLR); };
    switch (Mode % 4) {
    case 0:
      break;
    case 1:
      Stage(MPAS);
      break;
    case 2:
      if (Stage(MPAS))
        Stage(DLR);
      break;
    case 3: {
      Method M = allMethods()[(Mode >> 2) % allMethods().size()];
      Expected<std::unique_ptr<Graph>> P = runMethod(*G, T, M);
      if (P)
        G = std::move(*P);
      else
        consumeError(P.takeError());
      break;
    }
    }
  }
  checkJSON(*G, T);
  checkSubmission(*G, T);
  checkDot(*G);
  checkCharts(*G, T);
  return 0;
}
