//===- ReplayReport.cpp - dan-replay's report -----------------------------===//

#include "dan/Report/ReplayReport.h"
#include "dan/IR/Diagnostic.h"
#include "dan/Report/Metrics.h"
#include "llvm/ADT/STLExtras.h"
#include "llvm/Support/ErrorHandling.h"
#include "llvm/Support/JSON.h"
#include <algorithm>

using namespace llvm;

namespace dan {

static const EnumEntry<ReuseReading> ReuseReadings[] = {
    {ReuseReading::Safe, "safe",
     "the graph's reuse edges: every placement waits for the release of the "
     "bytes it takes (default; DAN's ruler)"},
    {ReuseReading::Literal, "literal",
     "the contest statement's words: edges from ALLOC offsets and FREE nodes "
     "only; a SPILL_IN may land on bytes not yet released, so makespans can "
     "be lower than a machine could run"},
};

ArrayRef<EnumEntry<ReportFormat>> replayReportFormats() {
  return reportFormats().take_front(2);
}
ArrayRef<EnumEntry<ReuseReading>> reuseReadings() { return ReuseReadings; }

//===----------------------------------------------------------------------===//
// Measuring
//===----------------------------------------------------------------------===//

/// Which reading of address reuse the graph's reuse edges follow, and how
/// many there are. A verified graph's reuse edges are those its plan implies
/// (the verifier compares them, and both lists are sorted by predecessor
/// id).
static StringRef reuseReading(const Graph &G, bool Verified, size_t &Count) {
  Count = 0;
  for (const Node &N : G.Nodes)
    Count += N.ReusePreds.size();
  if (!G.hasMemoryPlan() && Count == 0)
    return "none";
  if (Verified)
    return "safe";
  std::vector<EdgeList> Implied = computeReuseEdges(G);
  for (NodeIdx I = 0, E = G.size(); I != E; ++I)
    if (G[I].ReusePreds != Implied[I])
      return "as-written";
  return "safe";
}

MeasuredPlan measurePlan(std::unique_ptr<Graph> G, bool Verified,
                         ReuseReading Reading) {
  MeasuredPlan M;
  M.G = std::move(G);
  M.Reading = reuseReading(*M.G, Verified, M.ReuseEdges);
  if (Reading == ReuseReading::Literal && M.G->hasMemoryPlan()) {
    // Time the plan with the literal reading's edges instead of its own.
    setReuseEdges(*M.G, ReuseReading::Literal);
    M.ReuseEdges = 0;
    for (const Node &N : M.G->Nodes)
      M.ReuseEdges += N.ReusePreds.size();
    M.Reading = "literal";
  }
  M.R = replay(*M.G, M.G->Target);
  return M;
}

/// The ids of the nodes that are not spill nodes, sorted.
static std::vector<uint64_t> originalIds(const Graph &G) {
  std::vector<uint64_t> Ids;
  for (const Node &N : G.Nodes)
    if (!N.isSpill())
      Ids.push_back(N.Id);
  llvm::sort(Ids);
  return Ids;
}

std::optional<std::string> planMismatch(const Graph &In, const Graph &Base) {
  std::vector<uint64_t> A = originalIds(In), B = originalIds(Base);
  if (A == B)
    return std::nullopt;
  std::string Why;
  auto [ItA, ItB] = std::mismatch(A.begin(), A.end(), B.begin(), B.end());
  if (ItA != A.end() && (ItB == B.end() || *ItA < *ItB))
    Why = "n" + std::to_string(*ItA) + " is not in the baseline";
  else
    Why = "the baseline's n" + std::to_string(*ItB) + " is not in the input";
  return Why + " (" + std::to_string(A.size()) +
         " original nodes in the input, " + std::to_string(B.size()) +
         " in the baseline)";
}

//===----------------------------------------------------------------------===//
// Text
//===----------------------------------------------------------------------===//

/// The busiest pipe (the first in target order on a tie), or std::nullopt
/// when no pipe is ever busy.
static std::optional<Pipe> busiestPipe(const ReplayResult &R,
                                       const TargetDesc &T) {
  if (R.PipeLB == 0)
    return std::nullopt;
  for (unsigned P = 0; P != T.numPipes(); ++P)
    if (R.PipeBusy[P] == R.PipeLB)
      return static_cast<Pipe>(P);
  return std::nullopt;
}

/// The makespan over the larger of its two lower bounds.
static double makespanOverLB(const ReplayResult &R) {
  return normalized(R.Makespan, std::max(R.CriticalPathLB, R.PipeLB));
}

static std::string num(uint64_t X) { return std::to_string(X); }

static void describeReading(raw_ostream &OS, const MeasuredPlan &M) {
  OS << M.Reading;
  if (M.Reading == "none") {
    OS << " (no memory plan)";
    return;
  }
  OS << " (" << M.ReuseEdges
     << (M.ReuseEdges == 1 ? " reuse edge" : " reuse edges")
     << (M.Reading == "safe"      ? ", as the plan implies)"
         : M.Reading == "literal" ? " from ALLOC offsets and FREE nodes only)"
                                  : " as written, not as the plan implies)");
}

/// The lines above the tables: the graph, the reading, the baseline.
static void printHeading(raw_ostream &OS, const MeasuredPlan &M,
                         const MeasuredPlan *Base, StringRef BaseName) {
  const Graph &G = *M.G;
  size_t Buffers = llvm::count_if(
      G.Nodes, [](const Node &N) { return N.Kind == NodeKind::Alloc; });
  OS << "graph: " << G.Name << " (" << countOf(G.size(), "node") << ", "
     << countOf(Buffers, "buffer") << ")\n";
  OS << "reuse reading: ";
  describeReading(OS, M);
  OS << '\n';
  if (Base) {
    OS << "baseline: " << Base->G->Name << " (" << BaseName
       << "), reuse reading: ";
    describeReading(OS, *Base);
    OS << '\n';
  }
  OS << '\n';
}

/// The four metrics, with the baseline's and the ratios when there is one.
static Table metricTable(const ReplayResult &R, const ReplayResult *B,
                         const TargetDesc &Target) {
  Table T;
  T.Head = {"metric", "value"};
  if (B)
    T.Head.insert(T.Head.end(), {"baseline", "normalized"});
  Metrics V = metricsOf(R);
  for (Metric K : allMetrics()) {
    T.Rows.push_back({metricTitle(K, Target), num(get(V, K))});
    if (!B)
      continue;
    uint64_t BV = get(metricsOf(*B), K);
    T.Rows.back().insert(T.Rows.back().end(),
                         {num(BV), formatRatio(normalized(get(V, K), BV))});
  }
  return T;
}

/// Each tier's peak and capacity, then the L0 rule.
static void printTiers(raw_ostream &OS, const MeasuredPlan &M) {
  const ReplayResult &R = M.R;
  const TargetDesc &Target = M.G->Target;
  Table T;
  T.Head = {"tier", "peak", "capacity"};
  for (unsigned K = 0; K != Target.numTiers(); ++K)
    T.Rows.push_back({Target.tierName(static_cast<Tier>(K)).str(),
                      num(R.TierPeak[K]),
                      num(Target.capacity(static_cast<Tier>(K)))});
  printTextTable(T, OS);
  // Named by its reading: the other one counts a buffer from ALLOC to FREE.
  OS << "L0 single residency (a spilled-out buffer holds nothing): ";
  if (R.L0Single)
    OS << "yes\n";
  else
    OS << "no (first broken at " << describeNode(*M.G, *R.L0Violation) << ")\n";
}

/// The two lower bounds and how far the makespan is above them.
static void printBounds(raw_ostream &OS, const ReplayResult &R,
                        const TargetDesc &Target) {
  Table T;
  T.Head = {"lower bound", "cycles"};
  T.Rows.push_back({"critical path", num(R.CriticalPathLB)});
  std::optional<Pipe> Busiest = busiestPipe(R, Target);
  T.Rows.push_back(
      {"busiest pipe" +
           (Busiest ? " (" + Target.pipeName(*Busiest).str() + ")" : ""),
       num(R.PipeLB)});
  printTextTable(T, OS);
  OS << "makespan / max(lower bounds): " << formatRatio(makespanOverLB(R))
     << '\n';
}

static void printPipes(raw_ostream &OS, const ReplayResult &R,
                       const TargetDesc &Target) {
  Table T;
  T.Head = {"pipe", "busy", "busy/makespan"};
  for (unsigned P = 0; P != Target.numPipes(); ++P)
    T.Rows.push_back({Target.pipeName(static_cast<Pipe>(P)).str(),
                      num(R.PipeBusy[P]),
                      formatRatio(fraction(R.PipeBusy[P], R.Makespan))});
  printTextTable(T, OS);
}

static void printText(raw_ostream &OS, const MeasuredPlan &M,
                      const MeasuredPlan *Base, StringRef BaseName) {
  printHeading(OS, M, Base, BaseName);
  printTextTable(metricTable(M.R, Base ? &Base->R : nullptr, M.G->Target), OS);
  OS << '\n';
  printTiers(OS, M);
  OS << '\n';
  printBounds(OS, M.R, M.G->Target);
  OS << '\n';
  printPipes(OS, M.R, M.G->Target);
}

//===----------------------------------------------------------------------===//
// JSON
//===----------------------------------------------------------------------===//

/// The makespan's lower bounds and the L0 rule.
static void jsonBounds(json::OStream &J, const MeasuredPlan &M) {
  const ReplayResult &R = M.R;
  J.attribute("critical_path_lb", R.CriticalPathLB);
  J.attribute("pipe_lb", R.PipeLB);
  const TargetDesc &T = M.G->Target;
  std::optional<Pipe> Busiest = busiestPipe(R, T);
  J.attribute("busiest_pipe", Busiest ? json::Value(T.pipeName(*Busiest))
                                      : json::Value(nullptr));
  J.attribute("makespan_over_lb", jsonRatio(makespanOverLB(R)));
  J.attribute("l0_single", R.L0Single);
  J.attribute("l0_reading", "resident");
  J.attribute("l0_violation",
              R.L0Violation
                  ? json::Value("n" + std::to_string((*M.G)[*R.L0Violation].Id))
                  : json::Value(nullptr));
}

/// Per-tier and per-pipe objects, and the target's spill cost.
static void jsonResources(json::OStream &J, const ReplayResult &R,
                          const TargetDesc &T) {
  auto PerTier = [&](StringRef Key, auto Value) {
    J.attributeObject(Key, [&] {
      for (unsigned K = 0; K != T.numTiers(); ++K)
        J.attribute(T.tierName(static_cast<Tier>(K)), Value(K));
    });
  };
  auto PerPipe = [&](StringRef Key, auto Value) {
    J.attributeObject(Key, [&] {
      for (unsigned P = 0; P != T.numPipes(); ++P)
        J.attribute(T.pipeName(static_cast<Pipe>(P)), Value(P));
    });
  };
  PerTier("tier_peak", [&](unsigned K) { return R.TierPeak[K]; });
  PerTier("tier_capacity",
          [&](unsigned K) { return T.capacity(static_cast<Tier>(K)); });
  PerPipe("pipe_busy", [&](unsigned P) { return R.PipeBusy[P]; });
  PerPipe("pipe_busy_fraction",
          [&](unsigned P) { return fraction(R.PipeBusy[P], R.Makespan); });
  J.attributeObject("spill_cost", [&] {
    J.attribute("alpha", T.spillAlpha());
    J.attribute("beta", T.spillBeta());
  });
}

static void printJSON(raw_ostream &OS, const MeasuredPlan &M,
                      const MeasuredPlan *Base) {
  const Graph &G = *M.G;
  json::OStream J(OS, 2);
  J.object([&] {
    J.attribute("graph", G.Name);
    J.attribute("nodes", uint64_t(G.size()));
    J.attribute("reuse_reading", M.Reading);
    J.attribute("reuse_edges", uint64_t(M.ReuseEdges));
    writeMetricsJSON(J, metricsOf(M.R));
    jsonBounds(J, M);
    jsonResources(J, M.R, G.Target);
    if (!Base)
      return;
    J.attributeObject("baseline", [&] {
      J.attribute("graph", Base->G->Name);
      J.attribute("reuse_reading", Base->Reading);
      writeMetricsJSON(J, metricsOf(Base->R));
    });
    Metrics V = metricsOf(M.R), B = metricsOf(Base->R);
    writePerMetricJSON(J, "normalized", [&](unsigned K) {
      return jsonRatio(normalized(V[K], B[K]));
    });
  });
  OS << '\n';
}

void printReplayReport(ReportFormat F, const MeasuredPlan &M,
                       const MeasuredPlan *Base, StringRef BaseName,
                       raw_ostream &OS) {
  switch (F) {
  case ReportFormat::Text:
    return printText(OS, M, Base, BaseName);
  case ReportFormat::JSON:
    return printJSON(OS, M, Base);
  case ReportFormat::Markdown:
    break;
  }
  llvm_unreachable("dan-replay's report has no Markdown form");
}

} // namespace dan
