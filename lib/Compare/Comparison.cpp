//===- Comparison.cpp - Methods compared on graphs, as data ---------------===//
//
// Every method on every graph, each plan verified and replayed, and table 2
// (the ablations are in ComparisonAblation.cpp, the sensitivity sweep in
// ComparisonSweep.cpp); the files --save writes.
// docs/CommandGuide/dan-bench.md defines every figure computed here.
//
//===----------------------------------------------------------------------===//

#include "dan/Compare/Comparison.h"
#include "ComparisonRuns.h"
#include "dan/Analysis/Bounds.h"
#include "dan/Analysis/Verifier.h"
#include "dan/Formats/Submission.h"
#include "dan/Select/JobRunner.h"
#include "llvm/ADT/STLExtras.h"
#include "llvm/Support/FormatVariadic.h"
#include "llvm/Support/Path.h"
#include <chrono>
#include <cmath>
#include <mutex>
#include <tuple>

using namespace llvm;

namespace dan::bench {

bool isExternal(Method M) {
  return M == Method::HMCOS || M == Method::COSMA || M == Method::MAGIS ||
         M == Method::EDA;
}

std::optional<double> kendallTauB(ArrayRef<unsigned> A, ArrayRef<unsigned> B) {
  assert(A.size() == B.size() && "rankings of different items");
  size_t N = A.size();
  if (N < 2)
    return std::nullopt;
  // Concordant minus discordant pairs, and the pairs tied in each ranking.
  int64_t Score = 0;
  uint64_t Pairs = 0, TiedA = 0, TiedB = 0;
  for (size_t I = 0; I != N; ++I)
    for (size_t J = I + 1; J != N; ++J) {
      ++Pairs;
      int DA = A[I] < A[J] ? -1 : A[I] > A[J] ? 1 : 0;
      int DB = B[I] < B[J] ? -1 : B[I] > B[J] ? 1 : 0;
      TiedA += DA == 0;
      TiedB += DB == 0;
      Score += DA * DB;
    }
  if (TiedA == Pairs && TiedB == Pairs)
    return 1.0;
  if (TiedA == Pairs || TiedB == Pairs)
    return std::nullopt;
  return double(Score) /
         std::sqrt(double(Pairs - TiedA) * double(Pairs - TiedB));
}

std::vector<std::optional<unsigned>>
rankSmallestFirst(ArrayRef<std::optional<uint64_t>> Values) {
  std::vector<std::optional<unsigned>> Ranks(Values.size());
  for (size_t I = 0; I != Values.size(); ++I) {
    if (!Values[I])
      continue;
    unsigned Smaller = 0;
    for (const std::optional<uint64_t> &Other : Values)
      if (Other && *Other < *Values[I])
        ++Smaller;
    Ranks[I] = Smaller + 1;
  }
  return Ranks;
}

Measurement measure(const Graph &G, const TargetDesc &T, const Graph *Against) {
  Measurement M;
  VerifyOptions VO;
  VO.Against = Against;
  VO.ErrorLimit = 20;
  std::string First;
  unsigned Errors = verifyGraph(
      G, T, VO, [&](SMLoc, SourceMgr::DiagKind Kind, const Twine &Msg) {
        if (First.empty() && Kind == SourceMgr::DK_Error)
          First = Msg.str();
      });
  if (Errors) {
    M.Error = formatv("the plan does not verify: {0} error{1}; the first: {2}",
                      Errors, Errors == 1 ? "" : "s", First)
                  .str();
    M.NotVerified = true;
    return M;
  }
  ReplayResult R = replay(G, T);
  M.Values = metricsOf(R);
  M.CriticalPathLB = R.CriticalPathLB;
  M.PipeLB = R.PipeLB;
  M.L0Single = R.L0Single;
  return M;
}

std::string firstLine(Error E) {
  std::string S = toString(std::move(E));
  return S.substr(0, S.find('\n'));
}

const Cell *Workload::cell(Method M) const {
  for (const Cell &C : Cells)
    if (C.M == M)
      return &C;
  return nullptr;
}

std::vector<Method> tableMethods(ArrayRef<Method> Requested) {
  std::vector<Method> Out;
  for (Method M : allMethods())
    if (M == Method::Base || is_contained(Requested, M))
      Out.push_back(M);
  return Out;
}

//===----------------------------------------------------------------------===//
// Running
//===----------------------------------------------------------------------===//

double Reporter::step(StringRef Graph, StringRef What,
                      const std::function<std::string()> &Body) {
  ++Index;
  Progress P;
  P.Index = Index;
  P.Total = Total;
  P.Graph = Graph;
  P.What = What;
  if (Opts.OnProgress)
    Opts.OnProgress(P);
  auto Start = std::chrono::steady_clock::now();
  std::string Error = Body();
  P.Seconds =
      std::chrono::duration<double>(std::chrono::steady_clock::now() - Start)
          .count();
  P.Done = true;
  P.Error = Error;
  if (Opts.OnProgress)
    Opts.OnProgress(P);
  return P.Seconds;
}

void Reporter::steps(
    size_t N,
    const std::function<std::pair<StringRef, StringRef>(size_t)> &Label,
    const std::function<std::string(size_t)> &Body) {
  if (Opts.Threads == 1 || N < 2) {
    for (size_t K = 0; K != N; ++K) {
      auto [Graph, What] = Label(K);
      step(Graph, What, [&] { return Body(K); });
    }
    return;
  }
  unsigned First = Index;
  Index += N;
  std::vector<Progress> Done(N);
  std::vector<std::string> Errors(N);
  std::vector<bool> Finished(N, false);
  size_t Reported = 0;
  std::mutex Lock;
  JobRunner(Opts.Threads).run(N, [&](size_t K) {
    auto Start = std::chrono::steady_clock::now();
    std::string Error = Body(K);
    double Seconds =
        std::chrono::duration<double>(std::chrono::steady_clock::now() - Start)
            .count();
    std::lock_guard<std::mutex> Guard(Lock);
    Errors[K] = std::move(Error);
    Progress &P = Done[K];
    P.Index = First + K + 1;
    P.Total = Total;
    std::tie(P.Graph, P.What) = Label(K);
    P.Seconds = Seconds;
    P.Error = Errors[K];
    Finished[K] = true;
    for (; Reported != N && Finished[Reported]; ++Reported) {
      if (!Opts.OnProgress)
        continue;
      Progress Begin = Done[Reported];
      Begin.Done = false;
      Opts.OnProgress(Begin);
      Done[Reported].Done = true;
      Opts.OnProgress(Done[Reported]);
    }
  });
}

Cell runCell(const Graph &G, const TargetDesc &T, Method M, bool KeepPlan) {
  Cell C;
  C.M = M;
  auto Start = std::chrono::steady_clock::now();
  Expected<std::unique_ptr<Graph>> Plan = runMethod(G, T, M);
  C.Seconds =
      std::chrono::duration<double>(std::chrono::steady_clock::now() - Start)
          .count();
  if (!Plan) {
    C.Result.Error = firstLine(Plan.takeError());
    return C;
  }
  C.Result = measure(**Plan, T);
  if (KeepPlan && C.Result.ok())
    C.Plan = std::move(*Plan);
  return C;
}

Comparison compareCells(ArrayRef<Cell> Cells) {
  Comparison Tb;
  auto Find = [&](Method M) -> const Cell * {
    for (const Cell &C : Cells)
      if (C.M == M)
        return &C;
    return nullptr;
  };
  const Cell *Base = Find(Method::Base);
  const Cell *DAN = Find(Method::DAN);
  bool BaseOK = Base && Base->Result.ok();
  bool DANOK = DAN && DAN->Result.ok();
  Tb.Normalized.resize(Cells.size());
  for (size_t I = 0; I != Cells.size(); ++I) {
    const Cell &C = Cells[I];
    if (!BaseOK || !C.Result.ok())
      continue;
    for (Metric M : allMetrics())
      Tb.Normalized[I][unsigned(M)] =
          normalized(get(C.Result.Values, M), get(Base->Result.Values, M));
  }
  for (Metric M : allMetrics()) {
    unsigned K = unsigned(M);
    const Cell *Best = nullptr;
    for (const Cell &C : Cells)
      if (isExternal(C.M) && C.Result.ok() &&
          (!Best || get(C.Result.Values, M) < get(Best->Result.Values, M)))
        Best = &C;
    if (Best)
      Tb.BestExternal[K] = Best->M;
    if (DANOK && Best)
      Tb.Margin[K] =
          reduction(get(DAN->Result.Values, M), get(Best->Result.Values, M));
    if (DANOK && BaseOK)
      Tb.VersusBase[K] =
          reduction(get(DAN->Result.Values, M), get(Base->Result.Values, M));
  }
  return Tb;
}

/// Means of the finite entries; counts how many entered.
static void
meanOver(const std::vector<Workload> &Ws,
         std::array<std::optional<double>, NumMetrics> Comparison::*Field,
         std::array<std::optional<double>, NumMetrics> &Mean,
         std::array<unsigned, NumMetrics> &Count) {
  for (unsigned K = 0; K != NumMetrics; ++K) {
    double Sum = 0;
    unsigned N = 0;
    for (const Workload &W : Ws) {
      const std::optional<double> &V = (W.Table.*Field)[K];
      if (V && std::isfinite(*V)) {
        Sum += *V;
        ++N;
      }
    }
    Count[K] = N;
    if (N)
      Mean[K] = Sum / N;
  }
}

unsigned countRuns(size_t NumGraphs, const TargetDesc &T,
                   const BenchOptions &Opts) {
  size_t NM = tableMethods(Opts.Methods).size();
  unsigned N = NumGraphs * NM;
  if (Opts.Ablations)
    N += NumGraphs * 7;
  if (Opts.Sweep.enabled()) {
    if (Expected<std::vector<SweepSetting>> S = sweepSettings(Opts.Sweep, T))
      N += (S->size() - 1) * NumGraphs * NM;
    else
      consumeError(S.takeError());
  }
  return N;
}

BenchReport runBench(ArrayRef<const Graph *> Graphs, const TargetDesc &T,
                     const BenchOptions &Opts) {
  BenchReport Rep;
  Rep.Target = T;
  Rep.Methods = tableMethods(Opts.Methods);
  Reporter Progress(Opts, countRuns(Graphs.size(), T, Opts));

  // Every cell into its own slot, the cells at once (Opts.Threads).
  size_t NumMethods = Rep.Methods.size();
  std::vector<Cell> Cells(Graphs.size() * NumMethods);
  Progress.steps(
      Cells.size(),
      [&](size_t K) {
        return std::pair<StringRef, StringRef>(
            Graphs[K / NumMethods]->Name,
            methodName(Rep.Methods[K % NumMethods]));
      },
      [&](size_t K) {
        Cells[K] = runCell(*Graphs[K / NumMethods], T,
                           Rep.Methods[K % NumMethods], Opts.KeepPlans);
        return Cells[K].Result.Error;
      });
  for (size_t Gi = 0; Gi != Graphs.size(); ++Gi) {
    Workload W;
    W.Name = Graphs[Gi]->Name;
    W.Nodes = Graphs[Gi]->size();
    W.MakespanBound = bestOf(makespanLowerBounds(*Graphs[Gi], T));
    for (size_t Mi = 0; Mi != NumMethods; ++Mi) {
      Cell &C = Cells[Gi * NumMethods + Mi];
      Rep.Failures += !C.Result.ok();
      W.Cells.push_back(std::move(C));
    }
    W.Table = compareCells(W.Cells);
    Rep.Workloads.push_back(std::move(W));
  }
  meanOver(Rep.Workloads, &Comparison::VersusBase, Rep.MeanVersusBase,
           Rep.VersusBaseCount);
  meanOver(Rep.Workloads, &Comparison::Margin, Rep.MeanMargin, Rep.MarginCount);
  for (const Workload &W : Rep.Workloads)
    for (unsigned K = 0; K != NumMetrics; ++K)
      if (W.Table.Margin[K]) {
        ++Rep.ComparedCells;
        Rep.DANBestCells += *W.Table.Margin[K] >= 0;
      }

  if (Opts.Ablations)
    for (const Graph *G : Graphs) {
      Rep.Ablations.push_back(runAblation(*G, T, Progress, Opts.KeepPlans));
      Rep.AblationFailures += ablationFailures(Rep.Ablations.back());
    }

  if (Opts.Sweep.enabled())
    runSweep(Graphs, T, Opts.Sweep, Progress, Rep);
  return Rep;
}

void planFiles(const BenchReport &R, StringRef Dir,
               std::vector<std::pair<std::string, std::string>> &Files,
               std::vector<std::string> &Stale,
               std::vector<std::string> &Unwritten) {
  for (const Workload &W : R.Workloads)
    for (const Cell &C : W.Cells) {
      SmallString<128> MethodDir(Dir);
      sys::path::append(MethodDir, methodName(C.M));
      std::vector<std::string> Paths = submissionPaths(MethodDir, W.Name);
      Expected<Submission> S =
          C.Plan ? exportSubmission(*C.Plan)
                 : Expected<Submission>(
                       createStringError(inconvertibleErrorCode(), "no plan"));
      if (!S) {
        std::string Why = toString(S.takeError());
        if (C.Plan)
          Unwritten.push_back(
              (methodName(C.M) + "'s plan of " + W.Name + ": " + Why).str());
        Stale.insert(Stale.end(), Paths.begin(), Paths.end());
        continue;
      }
      const std::string *Texts[] = {&S->Schedule, &S->Memory, &S->Spill};
      for (size_t K = 0; K != Paths.size(); ++K)
        Files.emplace_back(Paths[K], *Texts[K]);
    }
}

std::vector<std::string> outputFolders(ArrayRef<Method> Methods,
                                       StringRef SaveDir, StringRef ChartsDir) {
  std::vector<std::string> Dirs;
  if (!SaveDir.empty())
    for (Method M : tableMethods(Methods)) {
      SmallString<128> Dir(SaveDir);
      sys::path::append(Dir, methodName(M));
      Dirs.push_back(std::string(Dir));
    }
  if (!ChartsDir.empty())
    Dirs.push_back(ChartsDir.str());
  return Dirs;
}

} // namespace dan::bench
