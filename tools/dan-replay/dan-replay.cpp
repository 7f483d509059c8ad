//===- dan-replay.cpp - Measure a schedule: the four metrics and timing ---===//
//
// Verifies a graph, replays it (lib/Analysis/Replay.cpp) and reports the
// four metrics, per-tier peaks, the L0 single-residency status, the two
// makespan lower bounds and each pipe's busy time; optionally normalized to
// a baseline plan of the same graph, and as a Chrome trace.
//
//===----------------------------------------------------------------------===//

#include "ToolSupport.h"
#include "dan/Analysis/Replay.h"
#include "dan/Analysis/Verifier.h"
#include "dan/IR/Diagnostic.h"
#include "dan/IR/MemoryPlan.h"
#include "llvm/Support/Format.h"
#include "llvm/Support/InitLLVM.h"
#include "llvm/Support/JSON.h"
#include "llvm/Support/WithColor.h"
#include <cmath>
#include <limits>

using namespace llvm;
using namespace dan;
using namespace dan::tool;

namespace {
enum class Format { Text, JSON };
} // namespace

static cl::opt<std::string> InputPath(cl::Positional, cl::init("-"),
                                      cl::desc("<input .dan file>"),
                                      cl::cat(DANCategory));

static cl::opt<std::string>
    OutputPath("o", cl::init("-"), cl::value_desc("path"),
               cl::desc("Write the report here (default: stdout)"),
               cl::cat(DANCategory));

static cl::opt<Format> OutFormat(
    "format", cl::init(Format::Text), cl::desc("Report format"),
    cl::values(clEnumValN(Format::Text, "text", "readable tables (default)"),
               clEnumValN(Format::JSON, "json", "one JSON object")),
    cl::cat(DANCategory));

static cl::opt<std::string> BaselinePath(
    "baseline", cl::value_desc("FILE"),
    cl::desc("Also replay this plan of the same graph and report the four "
             "metrics normalized to it (value / baseline)"),
    cl::cat(DANCategory));

static cl::opt<std::string> TracePath(
    "trace", cl::value_desc("FILE"),
    cl::desc("Write the timeline as a Chrome trace (Perfetto, "
             "chrome://tracing): one slice per pipe node, 1 cycle = 1 us"),
    cl::cat(DANCategory));

static cl::opt<bool>
    NoVerify("no-verify",
             cl::desc("Replay without verifying first (the figures of a graph "
                      "that does not verify mean nothing)"),
             cl::cat(DANCategory));

static cl::opt<ReuseReading> Reading(
    "reuse-reading", cl::init(ReuseReading::Safe),
    cl::desc("How address reuse orders the timing"),
    cl::values(clEnumValN(ReuseReading::Safe, "safe",
                          "the graph's reuse edges: every placement waits for "
                          "the release of the bytes it takes (default; DAN's "
                          "ruler)"),
               clEnumValN(ReuseReading::Literal, "literal",
                          "the contest statement's words: edges from ALLOC "
                          "offsets and FREE nodes only; a SPILL_IN may land "
                          "on bytes not yet released, so makespans can be "
                          "lower than a machine could run")),
    cl::cat(DANCategory));

namespace {
/// One replayed graph and what the report says about its reuse edges.
struct Measured {
  std::unique_ptr<Graph> G;
  ReplayResult R;
  /// "none" (no memory plan, no reuse edge), "safe" (exactly the reuse edges
  /// the plan implies under the safe reading), "literal" (with
  /// --reuse-reading=literal) or "as-written" (other edges; only with
  /// --no-verify).
  StringRef Reading;
  size_t ReuseEdges = 0;
};
} // namespace

/// Verifies \p G, printing its errors like dan-verify, with a note on
/// --no-verify after them.
static Error verify(const Graph &G, SourceMgr &SM, StringRef Path,
                    const TargetDesc &Target) {
  Error E = verifyAndReport(G, Target, VerifyOptions(), SM, Path);
  if (!E)
    return E;
  reportError(toString(std::move(E)));
  WithColor::note(errs(), "dan-replay")
      << "the replay measures only graphs that verify; --no-verify replays "
         "it anyway\n";
  return reportedError(ExitInvalid);
}

/// Which reading of address reuse the graph's reuse edges follow. \p Verified:
/// the graph verified, so its reuse edges are those its plan implies (the
/// verifier compares them, and both lists are sorted by predecessor id):
/// they need not be computed again.
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

/// Reads, verifies (unless --no-verify) and replays one file, under
/// \p Under when given (a baseline is measured under its input's target),
/// else under the file's own target with the options on top.
static Expected<Measured> measure(SourceMgr &SM, StringRef Path,
                                  const TargetDesc *Under) {
  Measured M;
  Expected<std::unique_ptr<Graph>> G = readIR(SM, Path);
  if (!G)
    return G.takeError();
  M.G = std::move(*G);
  if (Under)
    M.G->Target = *Under;
  else if (Error E = applyTargetOptions(*M.G))
    return E;
  const TargetDesc &Target = M.G->Target;
  if (!NoVerify)
    if (Error E = verify(*M.G, SM, Path, Target))
      return E;
  M.Reading = reuseReading(*M.G, /*Verified=*/!NoVerify, M.ReuseEdges);
  if (Reading == ReuseReading::Literal && M.G->hasMemoryPlan()) {
    // Time the plan with the literal reading's edges instead of its own.
    std::vector<EdgeList> Literal =
        computeReuseEdges(*M.G, ReuseReading::Literal);
    M.ReuseEdges = 0;
    for (NodeIdx I = 0, E = M.G->size(); I != E; ++I) {
      M.ReuseEdges += Literal[I].size();
      (*M.G)[I].ReusePreds = std::move(Literal[I]);
    }
    M.Reading = "literal";
  }
  M.R = replay(*M.G, Target);
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

/// Whether \p Base is a plan of the same graph as \p In: the same original
/// (non-spill) node ids; an error that says how they differ when not.
static Error checkSameGraph(const Graph &In, const Graph &Base) {
  std::vector<uint64_t> A = originalIds(In), B = originalIds(Base);
  if (A == B)
    return Error::success();
  std::string Why;
  auto [ItA, ItB] = std::mismatch(A.begin(), A.end(), B.begin(), B.end());
  if (ItA != A.end() && (ItB == B.end() || *ItA < *ItB))
    Why = "n" + std::to_string(*ItA) + " is not in the baseline";
  else
    Why = "the baseline's n" + std::to_string(*ItB) + " is not in the input";
  return createStringError(
      inconvertibleErrorCode(),
      "--baseline '" + BaselinePath + "' is not a plan of the same graph as '" +
          displayName(InputPath) + "': " + Why + " (" + Twine(A.size()) +
          " original nodes in the input, " + Twine(B.size()) +
          " in the baseline)");
}

/// Value / Baseline, with 0 / 0 = 1 and x / 0 = infinity for x > 0.
static double ratio(uint64_t Value, uint64_t Baseline) {
  if (Baseline == 0)
    return Value == 0 ? 1.0 : std::numeric_limits<double>::infinity();
  return double(Value) / double(Baseline);
}

/// Busy / makespan; 0 when the makespan is 0.
static double busyFraction(uint64_t Busy, uint64_t Makespan) {
  return Makespan == 0 ? 0.0 : double(Busy) / double(Makespan);
}

static std::string fixed3(double X) {
  if (std::isinf(X))
    return "inf";
  std::string S;
  raw_string_ostream(S) << format("%.3f", X);
  return S;
}

/// A ratio as JSON: a number, or null for infinity.
static json::Value jsonRatio(double X) {
  if (std::isinf(X))
    return nullptr;
  return X;
}

/// The busiest pipe (the first in target order on a tie), or std::nullopt
/// when no pipe is ever busy.
static std::optional<Pipe> busiestPipe(const ReplayResult &R) {
  if (R.PipeLB == 0)
    return std::nullopt;
  for (unsigned P = 0; P != NumPipes; ++P)
    if (R.PipeBusy[P] == R.PipeLB)
      return static_cast<Pipe>(P);
  return std::nullopt;
}

static std::string nodeName(const Graph &G, NodeIdx I) {
  return "n" + std::to_string(G[I].Id);
}

static size_t countKind(const Graph &G, NodeKind K) {
  return llvm::count_if(G.Nodes, [K](const Node &N) { return N.Kind == K; });
}

namespace {
/// Columns padded to their widest cell: the first left-aligned, the others
/// right-aligned.
class Table {
public:
  void row(std::vector<std::string> Cells) { Rows.push_back(std::move(Cells)); }
  void print(raw_ostream &OS) const {
    std::vector<size_t> Width;
    for (const auto &Row : Rows)
      for (size_t C = 0; C != Row.size(); ++C) {
        Width.resize(std::max(Width.size(), Row.size()));
        Width[C] = std::max(Width[C], Row[C].size());
      }
    for (const auto &Row : Rows) {
      for (size_t C = 0; C != Row.size(); ++C) {
        if (C == 0)
          OS << left_justify(Row[C], C + 1 == Row.size() ? 0 : Width[C]);
        else
          OS << "  " << right_justify(Row[C], Width[C]);
      }
      OS << '\n';
    }
  }

private:
  std::vector<std::vector<std::string>> Rows;
};
} // namespace

static std::string num(uint64_t X) { return std::to_string(X); }

static void describeReading(raw_ostream &OS, const Measured &M) {
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

static void printText(raw_ostream &OS, const Measured &M, const Measured *Base,
                      const TargetDesc &Target) {
  const Graph &G = *M.G;
  const ReplayResult &R = M.R;
  OS << "graph: " << G.Name << " (" << countOf(G.size(), "node") << ", "
     << countOf(countKind(G, NodeKind::Alloc), "buffer") << ")\n";
  OS << "reuse reading: ";
  describeReading(OS, M);
  OS << '\n';
  if (Base) {
    OS << "baseline: " << Base->G->Name << " (" << displayName(BaselinePath)
       << "), reuse reading: ";
    describeReading(OS, *Base);
    OS << '\n';
  }
  OS << '\n';

  Table Metrics;
  if (Base)
    Metrics.row({"metric", "value", "baseline", "normalized"});
  else
    Metrics.row({"metric", "value"});
  auto Metric = [&](StringRef Name, uint64_t V, uint64_t B) {
    if (Base)
      Metrics.row({Name.str(), num(V), num(B), fixed3(ratio(V, B))});
    else
      Metrics.row({Name.str(), num(V)});
  };
  const ReplayResult *BR = Base ? &Base->R : nullptr;
  Metric("peak L1+UB", R.PeakL1UB, BR ? BR->PeakL1UB : 0);
  Metric("extra DDR traffic", R.ExtraTraffic, BR ? BR->ExtraTraffic : 0);
  Metric("spill count", R.SpillCount, BR ? BR->SpillCount : 0);
  Metric("makespan", R.Makespan, BR ? BR->Makespan : 0);
  Metrics.print(OS);
  OS << '\n';

  Table Tiers;
  Tiers.row({"tier", "peak", "capacity"});
  for (unsigned T = 0; T != NumTiers; ++T)
    Tiers.row({tierName(static_cast<Tier>(T)).str(), num(R.TierPeak[T]),
               num(Target.capacity(static_cast<Tier>(T)))});
  Tiers.print(OS);
  OS << "L0 single residency: ";
  if (R.L0Single)
    OS << "yes\n";
  else
    OS << "no (first broken at " << describeNode(G, *R.L0Violation) << ")\n";
  OS << '\n';

  Table Bounds;
  Bounds.row({"lower bound", "cycles"});
  Bounds.row({"critical path", num(R.CriticalPathLB)});
  std::optional<Pipe> Busiest = busiestPipe(R);
  Bounds.row(
      {"busiest pipe" + (Busiest ? " (" + pipeName(*Busiest).str() + ")" : ""),
       num(R.PipeLB)});
  Bounds.print(OS);
  OS << "makespan / max(lower bounds): "
     << fixed3(ratio(R.Makespan, std::max(R.CriticalPathLB, R.PipeLB))) << '\n';
  OS << '\n';

  Table Pipes;
  Pipes.row({"pipe", "busy", "busy/makespan"});
  for (unsigned P = 0; P != NumPipes; ++P)
    Pipes.row({pipeName(static_cast<Pipe>(P)).str(), num(R.PipeBusy[P]),
               fixed3(busyFraction(R.PipeBusy[P], R.Makespan))});
  Pipes.print(OS);
}

static void printJSON(raw_ostream &OS, const Measured &M, const Measured *Base,
                      const TargetDesc &Target) {
  const Graph &G = *M.G;
  const ReplayResult &R = M.R;
  json::OStream J(OS, 2);
  J.object([&] {
    J.attribute("graph", G.Name);
    J.attribute("nodes", uint64_t(G.size()));
    J.attribute("reuse_reading", M.Reading);
    J.attribute("reuse_edges", uint64_t(M.ReuseEdges));
    J.attribute("peak_l1ub", R.PeakL1UB);
    J.attribute("extra_ddr_traffic", R.ExtraTraffic);
    J.attribute("spill_count", R.SpillCount);
    J.attribute("makespan", R.Makespan);
    J.attribute("critical_path_lb", R.CriticalPathLB);
    J.attribute("pipe_lb", R.PipeLB);
    std::optional<Pipe> Busiest = busiestPipe(R);
    J.attribute("busiest_pipe", Busiest ? json::Value(pipeName(*Busiest))
                                        : json::Value(nullptr));
    J.attribute(
        "makespan_over_lb",
        jsonRatio(ratio(R.Makespan, std::max(R.CriticalPathLB, R.PipeLB))));
    J.attribute("l0_single", R.L0Single);
    J.attribute("l0_violation", R.L0Violation
                                    ? json::Value(nodeName(G, *R.L0Violation))
                                    : json::Value(nullptr));
    J.attributeObject("tier_peak", [&] {
      for (unsigned T = 0; T != NumTiers; ++T)
        J.attribute(tierName(static_cast<Tier>(T)), R.TierPeak[T]);
    });
    J.attributeObject("tier_capacity", [&] {
      for (unsigned T = 0; T != NumTiers; ++T)
        J.attribute(tierName(static_cast<Tier>(T)),
                    Target.capacity(static_cast<Tier>(T)));
    });
    J.attributeObject("pipe_busy", [&] {
      for (unsigned P = 0; P != NumPipes; ++P)
        J.attribute(pipeName(static_cast<Pipe>(P)), R.PipeBusy[P]);
    });
    J.attributeObject("pipe_busy_fraction", [&] {
      for (unsigned P = 0; P != NumPipes; ++P)
        J.attribute(pipeName(static_cast<Pipe>(P)),
                    busyFraction(R.PipeBusy[P], R.Makespan));
    });
    J.attributeObject("spill_cost", [&] {
      J.attribute("alpha", Target.spillAlpha());
      J.attribute("beta", Target.spillBeta());
    });
    if (!Base)
      return;
    const ReplayResult &B = Base->R;
    J.attributeObject("baseline", [&] {
      J.attribute("graph", Base->G->Name);
      J.attribute("reuse_reading", Base->Reading);
      J.attribute("peak_l1ub", B.PeakL1UB);
      J.attribute("extra_ddr_traffic", B.ExtraTraffic);
      J.attribute("spill_count", B.SpillCount);
      J.attribute("makespan", B.Makespan);
    });
    J.attributeObject("normalized", [&] {
      J.attribute("peak_l1ub", jsonRatio(ratio(R.PeakL1UB, B.PeakL1UB)));
      J.attribute("extra_ddr_traffic",
                  jsonRatio(ratio(R.ExtraTraffic, B.ExtraTraffic)));
      J.attribute("spill_count", jsonRatio(ratio(R.SpillCount, B.SpillCount)));
      J.attribute("makespan", jsonRatio(ratio(R.Makespan, B.Makespan)));
    });
  });
  OS << '\n';
}

/// The Chrome trace-event JSON of the replay, one event per line: metadata
/// naming the process (the graph) and one thread per pipe, then one complete
/// ("X") event per node that runs on a pipe, in schedule order.
static void printTrace(raw_ostream &OS, const Graph &G, const ReplayResult &R,
                       const TargetDesc &Target) {
  bool First = true;
  auto Event = [&](function_ref<void(json::OStream &)> Body) {
    OS << (First ? "\n" : ",\n");
    First = false;
    json::OStream J(OS);
    J.object([&] { Body(J); });
  };
  OS << "{\"traceEvents\":[";
  Event([&](json::OStream &J) {
    J.attribute("name", "process_name");
    J.attribute("ph", "M");
    J.attribute("pid", 1);
    J.attributeObject("args", [&] { J.attribute("name", G.Name); });
  });
  for (unsigned P = 0; P != NumPipes; ++P) {
    Event([&](json::OStream &J) {
      J.attribute("name", "thread_name");
      J.attribute("ph", "M");
      J.attribute("pid", 1);
      J.attribute("tid", P);
      J.attributeObject(
          "args", [&] { J.attribute("name", pipeName(static_cast<Pipe>(P))); });
    });
    Event([&](json::OStream &J) {
      J.attribute("name", "thread_sort_index");
      J.attribute("ph", "M");
      J.attribute("pid", 1);
      J.attribute("tid", P);
      J.attributeObject("args", [&] { J.attribute("sort_index", P); });
    });
  }
  for (NodeIdx I : G.Order) {
    const Node &N = G[I];
    std::optional<Pipe> P = nodePipe(N, Target);
    if (!P)
      continue;
    Event([&](json::OStream &J) {
      if (N.isSpill())
        J.attribute("name", (N.Kind == NodeKind::SpillOut ? "spill_out b"
                                                          : "spill_in b") +
                                std::to_string(N.Buf));
      else
        J.attribute("name", G.opName(N));
      J.attribute("cat", N.isSpill() ? "spill" : "op");
      J.attribute("ph", "X");
      J.attribute("pid", 1);
      J.attribute("tid", static_cast<unsigned>(*P));
      J.attribute("ts", R.Start[I]);
      J.attribute("dur", R.Finish[I] - R.Start[I]);
      J.attributeObject("args", [&] {
        J.attribute("node", nodeName(G, I));
        J.attributeArray("bufs", [&] {
          if (N.isSpill())
            J.value("b" + std::to_string(N.Buf));
          else
            for (uint64_t B : N.Bufs)
              J.value("b" + std::to_string(B));
        });
      });
    });
  }
  OS << "\n],\n\"otherData\":";
  json::OStream J(OS);
  J.object([&] {
    J.attribute("graph", G.Name);
    J.attribute("time_unit", "cycle (shown as 1 us)");
    J.attribute("makespan", R.Makespan);
  });
  OS << "}\n";
}

static Error replayInput(SourceMgr &SM) {
  if (BaselinePath.getNumOccurrences() && BaselinePath.empty())
    return usageError("--baseline needs a file name");
  if (TracePath.getNumOccurrences() && TracePath.empty())
    return usageError("--trace needs a file name");
  // The report and the trace are not IR: neither may replace an input.
  std::vector<std::string> InputPaths = {InputPath};
  if (!BaselinePath.empty())
    InputPaths.push_back(BaselinePath);
  if (Error E = checkOutputIsNotInput("-o", OutputPath, InputPaths))
    return E;
  if (!TracePath.empty())
    if (Error E = checkOutputIsNotInput("--trace", TracePath, InputPaths))
      return E;
  if (InputPath == "-" && BaselinePath == "-")
    return usageError(
        "the input and --baseline cannot both be read from stdin");
  if (!TracePath.empty() && TracePath == OutputPath)
    return usageError(
        "--trace and -o cannot both write '" +
        (OutputPath == "-" ? std::string("<stdout>") : OutputPath) + "'");

  Expected<Measured> M = measure(SM, InputPath, nullptr);
  if (!M)
    return M.takeError();
  const TargetDesc &Target = M->G->Target;
  std::optional<Measured> Base;
  if (!BaselinePath.empty()) {
    Expected<Measured> B = measure(SM, BaselinePath, &Target);
    if (!B)
      return B.takeError();
    if (Error E = checkSameGraph(*M->G, *B->G))
      return E;
    Base = std::move(*B);
  }

  if (!TracePath.empty())
    if (Error E = writeOutput(TracePath, [&](raw_ostream &OS) {
          printTrace(OS, *M->G, M->R, Target);
        }))
      return E;
  const Measured *B = Base ? &*Base : nullptr;
  return writeOutput(OutputPath, [&](raw_ostream &OS) {
    if (OutFormat == Format::JSON)
      printJSON(OS, *M, B, Target);
    else
      printText(OS, *M, B, Target);
  });
}

int main(int Argc, char **Argv) {
  InitLLVM X(Argc, Argv);
  return runTool(Argc, Argv,
                 "dan-replay: measure a schedule: peak L1+UB residency, "
                 "extra DDR traffic, spill count, makespan and its lower "
                 "bounds\n",
                 replayInput);
}
