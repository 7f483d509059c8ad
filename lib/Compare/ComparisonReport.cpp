//===- ComparisonReport.cpp - dan-bench's report as text, Markdown --------===//
//
// Text and Markdown are one document (headings, paragraphs, tables)
// rendered two ways; JSON is written directly (ComparisonJSON.cpp). The
// keys and sections are listed in docs/CommandGuide/dan-bench.md.
//
//===----------------------------------------------------------------------===//

#include "dan/Compare/ComparisonReport.h"
#include "ComparisonJSON.h"
#include "llvm/ADT/STLExtras.h"
#include "llvm/Support/Format.h"
#include "llvm/Support/FormatVariadic.h"
#include <cmath>

using namespace llvm;

namespace dan::bench {

void printProgress(const Progress &P, raw_ostream &OS) {
  if (!P.Done) {
    OS << "dan-bench: [" << P.Index << '/' << P.Total << "] " << P.Graph << ' '
       << P.What << " ...";
    return;
  }
  if (P.Error.empty())
    OS << format(" %.2f s\n", P.Seconds);
  else
    OS << " error: " << P.Error << '\n';
}

std::string failureSummary(const BenchReport &R) {
  std::string Why;
  auto Add = [&](unsigned N, StringRef One, StringRef Many) {
    if (N)
      Why += (Why.empty() ? "" : ", ") + std::to_string(N) + " " +
             (N == 1 ? One : Many).str();
  };
  Add(R.Failures, "cell failed", "cells failed");
  Add(R.AblationFailures, "ablation failed", "ablations failed");
  Add(R.Sweep ? R.Sweep->NotVerified : 0, "plan of the sweep does not verify",
      "plans of the sweep do not verify");
  return Why;
}

std::string formatRanking(ArrayRef<Method> Methods,
                          ArrayRef<std::optional<unsigned>> Ranks) {
  std::vector<size_t> Idx;
  for (size_t I = 0; I != Methods.size(); ++I)
    if (Ranks[I])
      Idx.push_back(I);
  llvm::stable_sort(Idx,
                    [&](size_t A, size_t B) { return *Ranks[A] < *Ranks[B]; });
  std::string S;
  for (size_t K = 0; K != Idx.size(); ++K) {
    if (K)
      S += *Ranks[Idx[K]] == *Ranks[Idx[K - 1]] ? " = " : " < ";
    S += methodName(Methods[Idx[K]]).str();
  }
  return S;
}

static std::string num(uint64_t X) { return std::to_string(X); }

static std::string optRatio(const std::optional<double> &X) {
  return X ? formatRatio(*X) : "n/a";
}

static std::string optPercent(const std::optional<double> &X) {
  return X ? formatPercent(*X) : "n/a";
}

static std::string seconds(double S) { return formatv("{0:F2}", S).str(); }

//===----------------------------------------------------------------------===//
// The document
//===----------------------------------------------------------------------===//

static std::vector<std::string> metricHeads(const TargetDesc &T,
                                            StringRef First) {
  std::vector<std::string> H = {First.str()};
  for (Metric M : allMetrics())
    H.push_back(metricTitle(M, T));
  return H;
}

static std::string targetLine(const TargetDesc &T) {
  std::string S = "target: ";
  for (unsigned I = 0; I != T.numTiers(); ++I)
    S += (I ? ", " : "") + T.tierName(Tier(I)).str() + " " +
         num(T.capacity(Tier(I)));
  S += formatv("; spill cost {0} + {1} * size", T.spillAlpha(), T.spillBeta())
           .str();
  return S;
}

static std::string methodList(ArrayRef<Method> Ms) {
  std::string S;
  for (Method M : Ms)
    S += (S.empty() ? "" : ", ") + methodName(M).str();
  return S;
}

/// "TITLE:" and one "- " line per error, when there are errors.
static void errorList(Document &D, StringRef Title,
                      ArrayRef<std::string> Errors) {
  if (Errors.empty())
    return;
  std::string S = Title.str();
  for (const std::string &E : Errors)
    S += "\n- " + E;
  D.para(S);
}

/// Table 2, and the cells that failed.
static void table2(Document &D, const BenchReport &R) {
  D.heading("Table 2: each metric normalized to base (smaller is better)");
  D.para("Best external: the method among hmcos, cosma, magis and eda with "
         "the smallest value (the first on a tie). DAN margin: 1 - dan / "
         "best external, negative when DAN is worse.");
  Table T2;
  T2.Left = 2;
  T2.Head = metricHeads(R.Target, "graph");
  T2.Head.insert(T2.Head.begin() + 1, "method");
  std::vector<std::string> Errors;
  for (const Workload &W : R.Workloads) {
    for (size_t I = 0; I != W.Cells.size(); ++I) {
      const Cell &C = W.Cells[I];
      std::vector<std::string> Row = {W.Name, methodName(C.M).str()};
      for (Metric M : allMetrics())
        Row.push_back(C.Result.ok()
                          ? optRatio(W.Table.Normalized[I][unsigned(M)])
                          : "error");
      T2.Rows.push_back(std::move(Row));
      if (!C.Result.ok())
        Errors.push_back(W.Name + " " + methodName(C.M).str() + ": " +
                         C.Result.Error);
    }
    std::vector<std::string> Best = {W.Name, "best external"};
    std::vector<std::string> Margin = {W.Name, "DAN margin"};
    for (Metric M : allMetrics()) {
      const std::optional<Method> &B = W.Table.BestExternal[unsigned(M)];
      Best.push_back(B ? methodName(*B).str() : "n/a");
      Margin.push_back(optPercent(W.Table.Margin[unsigned(M)]));
    }
    T2.Rows.push_back(std::move(Best));
    T2.Rows.push_back(std::move(Margin));
  }
  D.table(std::move(T2));
  errorList(D, "Failed cells:", Errors);
}

/// Each cell's figures as the replay measures them.
static void valuesTable(Document &D, const BenchReport &R, bool Timings) {
  D.heading("Values");
  D.para("The four metrics as the replay measures them, the makespan's "
         "lower bounds (critical path, busiest pipe) and the makespan over "
         "the larger bound, both for the method's own plan; and the gap to "
         "bound: the makespan over the least makespan of every plan and "
         "schedule of the graph (the larger of its busiest pipe and its "
         "critical path, as dan-bound proves it).");
  Table V;
  V.Left = 2;
  V.Head = metricHeads(R.Target, "graph");
  V.Head.insert(V.Head.begin() + 1, "method");
  for (StringRef H : {"critical path", "busiest pipe", "makespan / bound",
                      "gap to bound", "L0 single"})
    V.Head.push_back(H.str());
  if (Timings)
    V.Head.push_back("seconds");
  for (const Workload &W : R.Workloads)
    for (const Cell &C : W.Cells) {
      std::vector<std::string> Row = {W.Name, methodName(C.M).str()};
      const Measurement &M = C.Result;
      if (M.ok()) {
        for (Metric K : allMetrics())
          Row.push_back(num(get(M.Values, K)));
        Row.push_back(num(M.CriticalPathLB));
        Row.push_back(num(M.PipeLB));
        Row.push_back(
            formatRatio(normalized(get(M.Values, Metric::Makespan),
                                   std::max(M.CriticalPathLB, M.PipeLB))));
        Row.push_back(formatRatio(
            normalized(get(M.Values, Metric::Makespan), W.MakespanBound)));
        Row.push_back(M.L0Single ? "yes" : "no");
      } else {
        Row.push_back("error");
        Row.resize(Row.size() + NumMetrics + 4, "");
      }
      if (Timings)
        Row.push_back(seconds(C.Seconds));
      V.Rows.push_back(std::move(Row));
    }
  D.table(std::move(V));
}

/// DAN's mean reduction against base and margin over the best external
/// method.
static void averageTable(Document &D, const BenchReport &R) {
  D.heading("DAN on average");
  D.para("The mean over the graphs of DAN's reduction against base (1 - dan "
         "/ base) and of its margin over the best external method; a graph "
         "where either is missing or infinite is left out (graphs counted "
         "in parentheses). The paper reports 38.3 / 62.0 / 64.9 / 57.5% "
         "against base and 18.3 / 20.4 / 14.2 / 16.3% against the best "
         "external method on its six graphs.");
  Table A;
  A.Head = metricHeads(R.Target, "mean over graphs");
  std::vector<std::string> VB = {"reduction against base"},
                           MG = {"margin over best external"};
  for (unsigned K = 0; K != NumMetrics; ++K) {
    VB.push_back(optPercent(R.MeanVersusBase[K]) + " (" +
                 num(R.VersusBaseCount[K]) + ")");
    MG.push_back(optPercent(R.MeanMargin[K]) + " (" + num(R.MarginCount[K]) +
                 ")");
  }
  A.Rows = {VB, MG};
  D.table(std::move(A));
  D.para(formatv("DAN is best or tied-best in {0} of {1} graph-metric cells "
                 "with an external method to compare.",
                 R.DANBestCells, R.ComparedCells)
             .str());
}

static void mainTables(Document &D, const BenchReport &R, bool Timings) {
  table2(D, R);
  valuesTable(D, R, Timings);
  averageTable(D, R);
}

static std::string optNum(bool OK, uint64_t X) { return OK ? num(X) : "error"; }

namespace {
/// The errors of the ablations, listed under their tables.
struct AblationErrors {
  std::vector<std::string> Errors;
  void note(StringRef Graph, StringRef What, StringRef Err) {
    if (!Err.empty())
      Errors.push_back((Graph + " " + What + ": " + Err).str());
  }
};
} // namespace

/// Table 3: stage 1 against the input order.
static void table3(Document &D, const BenchReport &R, AblationErrors &E) {
  D.heading("Table 3: peak " + R.Target.peakTierNames() +
            " of the input order and after stage 1 "
            "(MPAS)");
  Table T3;
  T3.Head = {"graph", "input order", "MPAS", "reduction"};
  double Sum = 0;
  unsigned N = 0;
  for (const Ablation &A : R.Ablations) {
    bool OK = A.Stage1Error.empty();
    E.note(A.Name, "stage 1", A.Stage1Error);
    std::optional<double> Red;
    if (OK) {
      Red = reduction(A.MPASPeak, A.InputPeak);
      if (std::isfinite(*Red)) {
        Sum += *Red;
        ++N;
      }
    }
    T3.Rows.push_back({A.Name, OK ? num(A.InputPeak) : "error",
                       optNum(OK, A.MPASPeak), optPercent(Red)});
  }
  T3.Rows.push_back(
      {"average", "", "", N ? formatPercent(Sum / N) : std::string("n/a")});
  D.table(std::move(T3));
}

/// Figure 7: stage 1 under each priority weighting.
static void figure7(Document &D, const BenchReport &R, AblationErrors &E) {
  D.heading("Figure 7: peak " + R.Target.peakTierNames() +
            " after stage 1 per priority weighting");
  D.para("Each variant alone (dan-mpas --weights=...). auto keeps: the "
         "weights of the order DAN's default kept (on a free order it runs "
         "these three and input-order and keeps the lowest peak, on a task "
         "order the balanced weights alone); n/a when the window search or "
         "the groups order made it, which use no weights.");
  Table F7;
  F7.Head = {"graph", "balanced", "memory-first", "criticality-first",
             "auto keeps"};
  for (const Ablation &A : R.Ablations) {
    std::vector<std::string> Row = {A.Name};
    for (const Ablation::Weighting &W : A.Weightings) {
      Row.push_back(optNum(W.Error.empty(), W.Peak));
      E.note(A.Name, ("--weights=" + weightsName(W.W)).str(), W.Error);
    }
    Row.push_back(A.AutoChosen ? weightsName(*A.AutoChosen).str() : "n/a");
    F7.Rows.push_back(std::move(Row));
  }
  D.table(std::move(F7));
}

/// Table 4: stage 2's cost-aware victims against LRU.
static void table4(Document &D, const BenchReport &R, AblationErrors &E) {
  D.heading("Table 4: stage 2 with cost-aware victims against LRU victims");
  D.para("Both on DAN's stage-1 order, measured after stage 2 (no CPE). "
         "Change: cost-aware / LRU - 1, negative when cost-aware is lower.");
  Table T4;
  T4.Head = {"graph"};
  for (Metric M : {Metric::Traffic, Metric::Spills, Metric::Makespan}) {
    T4.Head.push_back(metricTitle(M, R.Target) + " LRU");
    T4.Head.push_back("cost-aware");
    T4.Head.push_back("change");
  }
  for (const Ablation &A : R.Ablations) {
    E.note(A.Name, "DLR (cost-aware)", A.CostAware.Error);
    E.note(A.Name, "DLR --evict=lru", A.LRU.Error);
    std::vector<std::string> Row = {A.Name};
    bool OK = A.CostAware.ok() && A.LRU.ok();
    for (Metric M : {Metric::Traffic, Metric::Spills, Metric::Makespan}) {
      Row.push_back(optNum(A.LRU.ok(), get(A.LRU.Values, M)));
      Row.push_back(optNum(A.CostAware.ok(), get(A.CostAware.Values, M)));
      Row.push_back(OK ? formatPercent(-reduction(get(A.CostAware.Values, M),
                                                  get(A.LRU.Values, M)))
                       : "n/a");
    }
    T4.Rows.push_back(std::move(Row));
  }
  D.table(std::move(T4));
}

/// Table 5: the makespan without and with stage 3.
static void table5(Document &D, const BenchReport &R, AblationErrors &E) {
  D.heading("Table 5: makespan without and with stage 3 (CPE)");
  Table T5;
  T5.Head = {"graph", "DAN w/o CPE", "DAN (full)", "reduction"};
  for (const Ablation &A : R.Ablations) {
    bool OK = A.Stage3Error.empty();
    E.note(A.Name, "stage 3", A.Stage3Error);
    E.note(A.Name, "CPE output", A.CPEVerify);
    E.note(A.Name, "Ignore output", A.IgnoreVerify);
    T5.Rows.push_back(
        {A.Name, optNum(OK, A.FreezeMakespan), optNum(OK, A.CPEMakespan),
         OK ? formatPercent(reduction(A.CPEMakespan, A.FreezeMakespan))
            : "n/a"});
  }
  D.table(std::move(T5));
}

/// The review's Ignore / Freeze / CPE diagnostic.
static void ignoreFreezeTable(Document &D, const BenchReport &R) {
  D.heading("Ignore / Freeze / CPE on DAN's stage-2 plan");
  D.para("Ignore: stage 3's search timed without the plan's reuse edges; it "
         "claims the first makespan, its order really takes the second, and "
         "its violations are the reuse edges whose placement starts, in the "
         "claimed timing, before the release it waits for. Freeze: the "
         "stage-2 plan as it is. CPE: the default stage 3. Freeze and CPE "
         "keep every reuse edge (0 violations); every output verifies "
         "against the stage-2 plan.");
  Table IF;
  IF.Head = {"graph",       "reuse edges", "Ignore claims",
             "Ignore real", "violations",  "Freeze",
             "CPE"};
  for (const Ablation &A : R.Ablations) {
    bool OK = A.Stage3Error.empty();
    IF.Rows.push_back(
        {A.Name, optNum(OK, A.ReuseEdges), optNum(OK, A.IgnoreClaimed),
         optNum(OK, A.IgnoreReal), optNum(OK, A.IgnoreViolations),
         optNum(OK, A.FreezeMakespan), optNum(OK, A.CPEMakespan)});
  }
  D.table(std::move(IF));
}

static void ablationTables(Document &D, const BenchReport &R) {
  AblationErrors E;
  table3(D, R, E);
  figure7(D, R, E);
  table4(D, R, E);
  table5(D, R, E);
  ignoreFreezeTable(D, R);
  errorList(D, "Failed ablations:", E.Errors);
}

static void sweepTables(Document &D, const BenchReport &R) {
  const SweepResult &S = *R.Sweep;
  D.heading("Sensitivity: Kendall tau-b of each setting's ranking against "
            "the default");
  D.para("Per graph and metric the methods are ranked (smallest first, ties "
         "share the better rank) and the ranking is compared with the "
         "default setting's by Kendall's tau-b over the methods that "
         "succeeded in both. Cells: the mean over the graphs / the smallest; "
         "n/a where no graph has a defined tau.");
  Table T;
  T.Head = metricHeads(R.Target, "setting");
  for (size_t Si = 0; Si != S.Settings.size(); ++Si) {
    std::vector<std::string> Row = {S.Settings[Si].Label};
    for (unsigned K = 0; K != NumMetrics; ++K)
      Row.push_back(S.MeanTau[Si][K] ? formatRatio(*S.MeanTau[Si][K]) + " / " +
                                           formatRatio(*S.MinTau[Si][K])
                                     : "n/a");
    T.Rows.push_back(std::move(Row));
  }
  D.table(std::move(T));

  if (is_contained(R.Methods, Method::DAN)) {
    D.heading("Sensitivity: graphs where DAN ranks first (ties included)");
    Table F;
    F.Head = metricHeads(R.Target, "setting");
    for (size_t Si = 0; Si != S.Settings.size(); ++Si) {
      std::vector<std::string> Row = {S.Settings[Si].Label};
      for (unsigned K = 0; K != NumMetrics; ++K)
        Row.push_back(num(S.DANFirst[Si][K]) + " of " +
                      num(S.DANRanked[Si][K]));
      F.Rows.push_back(std::move(Row));
    }
    D.table(std::move(F));
  }

  D.heading("Sensitivity: rankings per setting and graph");
  Table RK;
  RK.Left = NumMetrics + 3;
  RK.Head = metricHeads(R.Target, "setting");
  RK.Head.insert(RK.Head.begin() + 1, "graph");
  RK.Head.push_back("failed");
  for (size_t Si = 0; Si != S.Settings.size(); ++Si)
    for (size_t Wi = 0; Wi != R.Workloads.size(); ++Wi) {
      std::vector<std::string> Row = {S.Settings[Si].Label,
                                      R.Workloads[Wi].Name};
      for (unsigned K = 0; K != NumMetrics; ++K) {
        std::string Cell = formatRanking(R.Methods, S.Ranks[Si][Wi][K]);
        if (Cell.empty())
          Cell = "n/a";
        if (!S.Settings[Si].IsDefault)
          Cell += " (tau " + optRatio(S.Tau[Si][Wi][K]) + ")";
        Row.push_back(Cell);
      }
      std::string Failed;
      for (size_t Mi = 0; Mi != R.Methods.size(); ++Mi)
        if (!S.Values[Si][Wi][Mi])
          Failed +=
              (Failed.empty() ? "" : ", ") + methodName(R.Methods[Mi]).str();
      Row.push_back(Failed.empty() ? "-" : Failed);
      RK.Rows.push_back(std::move(Row));
    }
  D.table(std::move(RK));
  if (S.Failures)
    D.para(formatv("{0} run{1} of the sweep failed ({2} plan{3} that do not "
                   "verify); the rankings leave them out.",
                   S.Failures, S.Failures == 1 ? "" : "s", S.NotVerified,
                   S.NotVerified == 1 ? "" : "s")
               .str());
}

static void printDocument(const BenchReport &R, const ReportOptions &Opts,
                          raw_ostream &OS) {
  Document D;
  std::string Graphs = "graphs: " + std::to_string(R.Workloads.size()) +
                       "; methods: " + methodList(R.Methods);
  // Markdown joins the lines of a paragraph: give each its own.
  if (Opts.Format == ReportFormat::Markdown) {
    D.para(Graphs);
    D.para(targetLine(R.Target));
  } else {
    D.para(Graphs + "\n" + targetLine(R.Target));
  }
  mainTables(D, R, Opts.Timings);
  if (!R.Ablations.empty())
    ablationTables(D, R);
  if (R.Sweep)
    sweepTables(D, R);
  D.print(OS, Opts.Format == ReportFormat::Markdown);
}

void printReport(const BenchReport &R, const ReportOptions &Opts,
                 raw_ostream &OS) {
  if (Opts.Format == ReportFormat::JSON)
    printJSON(R, Opts, OS);
  else
    printDocument(R, Opts, OS);
}

} // namespace dan::bench
