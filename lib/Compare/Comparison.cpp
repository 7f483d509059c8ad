//===- Comparison.cpp - Methods compared on graphs, as data ---------------===//
//
// docs/CommandGuide/dan-bench.md defines every figure computed here.
//
//===----------------------------------------------------------------------===//

#include "dan/Compare/Comparison.h"
#include "dan/Analysis/Bounds.h"
#include "dan/Analysis/Verifier.h"
#include "dan/Formats/Submission.h"
#include "dan/IR/MemoryPlan.h"
#include "dan/Select/JobRunner.h"
#include "dan/Select/Select.h"
#include "dan/Transforms/CPE.h"
#include "dan/Transforms/DLR.h"
#include "llvm/ADT/STLExtras.h"
#include "llvm/Support/FormatVariadic.h"
#include "llvm/Support/Path.h"
#include "llvm/Support/Threading.h"
#include <chrono>
#include <cmath>
#include <limits>
#include <mutex>
#include <numeric>
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

/// The first line of an error's message.
static std::string firstLine(Error E) {
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
// Sweep settings
//===----------------------------------------------------------------------===//

static const EnumEntry<SweepKind> SweepKinds[] = {
    {SweepKind::Capacity, "capacity",
     "the capacity scales, at the default cost"},
    {SweepKind::Cost, "cost",
     "the alpha x beta grid, at the default capacities"},
    {SweepKind::Grid, "grid", "every scale with every alpha and beta"},
};

ArrayRef<EnumEntry<SweepKind>> sweepKinds() { return SweepKinds; }

void enableSweep(SweepSpec &S, SweepKind K) {
  switch (K) {
  case SweepKind::Capacity:
    S.Capacity = true;
    return;
  case SweepKind::Cost:
    S.Cost = true;
    return;
  case SweepKind::Grid:
    S.Grid = true;
    return;
  }
}

Expected<std::pair<uint64_t, uint64_t>> parseScale(StringRef S) {
  auto Bad = [&](const Twine &Why) {
    return createStringError(inconvertibleErrorCode(),
                             "bad scale '" + S + "': " + Why);
  };
  auto [Int, Frac] = S.split('.');
  if (Int.empty() && Frac.empty())
    return Bad("expected a decimal such as 0.75");
  if (S.contains('.') && Frac.empty())
    return Bad("expected digits after the point");
  if (Frac.size() > 6)
    return Bad("at most 6 digits after the point");
  if (Int.size() > 6)
    return Bad("at most 6 digits before the point");
  uint64_t Num = 0, Den = 1;
  for (char C : Int.str() + Frac.str()) {
    if (C < '0' || C > '9')
      return Bad("expected a decimal such as 0.75");
    Num = Num * 10 + uint64_t(C - '0');
  }
  for (size_t I = 0; I != Frac.size(); ++I)
    Den *= 10;
  if (Num == 0)
    return Bad("must be above 0");
  uint64_t G = std::gcd(Num, Den);
  return std::make_pair(Num / G, Den / G);
}

/// "0.75" for 3/4: the decimal the scale was written as, canonical.
static std::string scaleText(uint64_t Num, uint64_t Den) {
  std::string S = std::to_string(Num / Den);
  uint64_t Rem = Num % Den;
  if (Rem == 0)
    return S;
  S += '.';
  for (int I = 0; I != 6 && Rem; ++I) {
    Rem *= 10;
    S += char('0' + Rem / Den);
    Rem %= Den;
  }
  return S;
}

Expected<std::vector<SweepSetting>> sweepSettings(const SweepSpec &Spec,
                                                  const TargetDesc &T) {
  std::vector<std::pair<uint64_t, uint64_t>> Scales;
  for (const std::string &S : Spec.Scales) {
    Expected<std::pair<uint64_t, uint64_t>> P = parseScale(S);
    if (!P)
      return P.takeError();
    Scales.push_back(*P);
  }
  std::vector<SweepSetting> Out;
  auto Add = [&](std::pair<uint64_t, uint64_t> Scale, uint64_t A, uint64_t B) {
    for (const SweepSetting &S : Out)
      if (S.ScaleNum == Scale.first && S.ScaleDen == Scale.second &&
          S.Alpha == A && S.Beta == B)
        return;
    SweepSetting S;
    S.ScaleNum = Scale.first;
    S.ScaleDen = Scale.second;
    S.Alpha = A;
    S.Beta = B;
    S.IsDefault = Out.empty();
    if (S.IsDefault)
      S.Label = "default";
    else
      S.Label = formatv("capacity x{0}, alpha {1}, beta {2}",
                        scaleText(S.ScaleNum, S.ScaleDen), A, B)
                    .str();
    Out.push_back(std::move(S));
  };
  uint64_t A0 = T.spillAlpha(), B0 = T.spillBeta();
  Add({1, 1}, A0, B0);
  if (Spec.Capacity)
    for (auto Scale : Scales)
      Add(Scale, A0, B0);
  if (Spec.Cost)
    for (uint64_t A : Spec.Alphas)
      for (uint64_t B : Spec.Betas)
        Add({1, 1}, A, B);
  if (Spec.Grid)
    for (auto Scale : Scales)
      for (uint64_t A : Spec.Alphas)
        for (uint64_t B : Spec.Betas)
          Add(Scale, A, B);
  return Out;
}

TargetDesc applySetting(const TargetDesc &T, const SweepSetting &S) {
  TargetDesc Out = T;
  for (unsigned I = 0; I != NumTiers; ++I) {
    Tier Tr = static_cast<Tier>(I);
    // Capacities are at most 2^40 and scales have at most 12 digits:
    // the product fits in 128 bits.
    unsigned __int128 C = (unsigned __int128)T.capacity(Tr) * S.ScaleNum;
    C /= S.ScaleDen;
    Out.setCapacity(Tr, C > UINT64_MAX ? UINT64_MAX : uint64_t(C));
  }
  Out.setSpillCost(S.Alpha, S.Beta);
  return Out;
}

//===----------------------------------------------------------------------===//
// Running
//===----------------------------------------------------------------------===//

namespace {
/// Counts runs and reports them.
class Reporter {
public:
  Reporter(const BenchOptions &Opts, unsigned Total)
      : Opts(Opts), Total(Total) {}

  /// Runs \p Body as one step; it returns the error of a failed run, or
  /// an empty string. Returns the wall time of \p Body.
  double step(StringRef Graph, StringRef What,
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

  /// Runs Body(0) ... Body(N - 1), the next N steps, on Opts.Threads
  /// threads; Label(K) names step K (graph, what). With one thread they run
  /// as step does; with more, each step's progress (its start and its end)
  /// is reported once it and every step before it are done, so the lines
  /// come in step order whatever finishes first.
  void
  steps(size_t N,
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
      double Seconds = std::chrono::duration<double>(
                           std::chrono::steady_clock::now() - Start)
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

private:
  const BenchOptions &Opts;
  unsigned Total;
  unsigned Index = 0;
};
} // namespace

/// Runs \p M on \p G under \p T: the plan, verified and replayed.
static Cell runCell(const Graph &G, const TargetDesc &T, Method M,
                    bool KeepPlan) {
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

/// Runs the ablations of one graph.
static Ablation runAblation(const Graph &G, const TargetDesc &T, Reporter &Rep,
                            bool KeepPlans) {
  Ablation A;
  A.Name = G.Name;
  auto Err = [](Error E) { return firstLine(std::move(E)); };

  // Table 3 and figure 7: stage 1 alone.
  Graph S1 = G;
  Rep.step(G.Name, "ablation: stage 1 (MPAS)", [&]() -> std::string {
    A.InputPeak = replay(G, T).PeakL1UB;
    Expected<MPASStats> S = selectMPAS(S1, T, MPASOptions());
    if (!S)
      return A.Stage1Error = Err(S.takeError());
    A.MPASPeak = replay(S1, T).PeakL1UB;
    A.AutoChosen = S->Chosen;
    return "";
  });
  for (MPASWeights W : {MPASWeights::Balanced, MPASWeights::MemoryFirst,
                        MPASWeights::CriticalityFirst}) {
    Ablation::Weighting R;
    R.W = W;
    std::string What = ("ablation: MPAS --weights=" + weightsName(W)).str();
    Rep.step(G.Name, What, [&]() -> std::string {
      Graph Copy = G;
      MPASOptions Opts;
      Opts.Weights = W;
      Expected<MPASStats> S = selectMPAS(Copy, T, Opts);
      if (!S)
        return R.Error = Err(S.takeError());
      R.Peak = replay(Copy, T).PeakL1UB;
      return "";
    });
    A.Weightings.push_back(std::move(R));
  }

  // Table 4: stage 2's victims, on the stage-1 order.
  Graph S2 = S1;
  for (bool LRU : {false, true}) {
    Measurement &M = LRU ? A.LRU : A.CostAware;
    Rep.step(G.Name, LRU ? "ablation: DLR --evict=lru" : "ablation: DLR",
             [&]() -> std::string {
               if (!A.Stage1Error.empty())
                 return M.Error = "stage 1 failed";
               Graph Copy = S1;
               DLROptions Opts; // dan-dlr's defaults, the victim rule apart
               Opts.AutoHorizon = true;
               if (LRU)
                 Opts.Evict = EvictPolicy::LRU;
               Expected<DLRStats> S = selectDLR(Copy, T, Opts);
               if (!S)
                 return M.Error = Err(S.takeError());
               M = measure(Copy, T);
               if (!LRU)
                 S2 = std::move(Copy);
               return M.Error;
             });
  }

  // Table 5 and Ignore / Freeze / CPE, on the cost-aware stage-2 plan.
  Rep.step(G.Name, "ablation: CPE, freeze, ignore", [&]() -> std::string {
    if (!A.CostAware.ok())
      return A.Stage3Error = "stage 2 failed";
    A.FreezeMakespan = get(A.CostAware.Values, Metric::Makespan);
    Graph Refined = S2;
    Expected<CPEStats> R = runCPE(Refined, T, CPEOptions());
    if (!R)
      return A.Stage3Error = Err(R.takeError());
    Measurement MR = measure(Refined, T, &S2);
    A.CPEVerify = MR.Error;
    A.CPEMakespan = R->MakespanAfter;
    Graph Ignored = S2;
    CPEOptions IO;
    IO.Mode = CPEMode::Ignore;
    Expected<CPEStats> I = runCPE(Ignored, T, IO);
    if (!I)
      return A.Stage3Error = Err(I.takeError());
    Measurement MI = measure(Ignored, T, &S2);
    A.IgnoreVerify = MI.Error;
    A.ReuseEdges = I->ReuseEdges;
    A.IgnoreClaimed = I->IgnoreMakespanAfter;
    A.IgnoreReal = I->MakespanAfter;
    A.IgnoreViolations = I->Violations;
    if (MR.ok())
      A.CPEMakespan = get(MR.Values, Metric::Makespan);
    if (MI.ok())
      A.IgnoreReal = get(MI.Values, Metric::Makespan);
    if (KeepPlans)
      A.Stage2Plan = std::make_unique<Graph>(S2);
    return !A.CPEVerify.empty() ? A.CPEVerify : A.IgnoreVerify;
  });
  return A;
}

static unsigned ablationFailures(const Ablation &A) {
  unsigned N = !A.Stage1Error.empty() + !A.CostAware.ok() + !A.LRU.ok() +
               !A.Stage3Error.empty() + !A.CPEVerify.empty() +
               !A.IgnoreVerify.empty();
  for (const Ablation::Weighting &W : A.Weightings)
    N += !W.Error.empty();
  return N;
}

/// Ranks and taus of a finished sweep.
static void rankSweep(SweepResult &S, size_t NumWorkloads,
                      ArrayRef<Method> Methods) {
  size_t NS = S.Settings.size();
  S.Ranks.assign(NS, {});
  S.Tau.assign(NS, {});
  S.MeanTau.assign(NS, {});
  S.MinTau.assign(NS, {});
  S.DANFirst.assign(NS, {});
  S.DANRanked.assign(NS, {});
  auto DANIt = find(Methods, Method::DAN);
  std::optional<size_t> DANPos;
  if (DANIt != Methods.end())
    DANPos = DANIt - Methods.begin();
  for (size_t Si = 0; Si != NS; ++Si) {
    S.Ranks[Si].resize(NumWorkloads);
    S.Tau[Si].resize(NumWorkloads);
    for (size_t Wi = 0; Wi != NumWorkloads; ++Wi)
      for (Metric M : allMetrics()) {
        std::vector<std::optional<uint64_t>> V;
        for (const std::optional<Metrics> &C : S.Values[Si][Wi])
          V.push_back(C ? std::optional<uint64_t>(get(*C, M)) : std::nullopt);
        S.Ranks[Si][Wi][unsigned(M)] = rankSmallestFirst(V);
        const std::vector<std::optional<unsigned>> &R =
            S.Ranks[Si][Wi][unsigned(M)];
        if (DANPos && R[*DANPos]) {
          ++S.DANRanked[Si][unsigned(M)];
          S.DANFirst[Si][unsigned(M)] += *R[*DANPos] == 1;
        }
      }
  }
  // Tau against the default setting (index 0), over the methods ranked in
  // both: ranks are recomputed over that common set.
  for (size_t Si = 0; Si != NS; ++Si)
    for (Metric M : allMetrics()) {
      unsigned K = unsigned(M);
      double Sum = 0;
      unsigned N = 0;
      std::optional<double> Min;
      for (size_t Wi = 0; Wi != NumWorkloads; ++Wi) {
        std::vector<std::optional<uint64_t>> A, B;
        for (size_t Mi = 0; Mi != Methods.size(); ++Mi) {
          const std::optional<Metrics> &X = S.Values[0][Wi][Mi];
          const std::optional<Metrics> &Y = S.Values[Si][Wi][Mi];
          if (X && Y) {
            A.push_back(get(*X, M));
            B.push_back(get(*Y, M));
          }
        }
        std::vector<unsigned> RA, RB;
        for (const std::optional<unsigned> &R : rankSmallestFirst(A))
          RA.push_back(*R);
        for (const std::optional<unsigned> &R : rankSmallestFirst(B))
          RB.push_back(*R);
        std::optional<double> T = kendallTauB(RA, RB);
        S.Tau[Si][Wi][K] = T;
        if (T) {
          Sum += *T;
          ++N;
          Min = Min ? std::min(*Min, *T) : *T;
        }
      }
      if (N)
        S.MeanTau[Si][K] = Sum / N;
      S.MinTau[Si][K] = Min;
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

  if (Opts.Sweep.enabled()) {
    SweepResult S;
    Expected<std::vector<SweepSetting>> Settings = sweepSettings(Opts.Sweep, T);
    if (!Settings) {
      // The tool checks the spec first; nothing to sweep otherwise.
      consumeError(Settings.takeError());
      return Rep;
    }
    S.Settings = std::move(*Settings);
    for (const SweepSetting &Set : S.Settings) {
      std::vector<std::vector<std::optional<Metrics>>> PerSetting;
      TargetDesc TS = applySetting(T, Set);
      for (size_t Gi = 0; Gi != Graphs.size(); ++Gi) {
        std::vector<std::optional<Metrics>> Row;
        for (size_t Mi = 0; Mi != Rep.Methods.size(); ++Mi) {
          if (Set.IsDefault) {
            const Measurement &R = Rep.Workloads[Gi].Cells[Mi].Result;
            Row.push_back(R.ok() ? std::optional<Metrics>(R.Values)
                                 : std::nullopt);
            continue;
          }
          Method M = Rep.Methods[Mi];
          std::string What = (methodName(M) + " @ " + Set.Label).str();
          Cell C;
          Progress.step(Graphs[Gi]->Name, What, [&] {
            C = runCell(*Graphs[Gi], TS, M, /*KeepPlan=*/false);
            return C.Result.Error;
          });
          S.Failures += !C.Result.ok();
          S.NotVerified += C.Result.NotVerified;
          Row.push_back(C.Result.ok() ? std::optional<Metrics>(C.Result.Values)
                                      : std::nullopt);
        }
        PerSetting.push_back(std::move(Row));
      }
      S.Values.push_back(std::move(PerSetting));
    }
    rankSweep(S, Graphs.size(), Rep.Methods);
    Rep.Sweep = std::move(S);
  }
  return Rep;
}

void planFiles(const BenchReport &R, StringRef Dir,
               std::vector<std::pair<std::string, std::string>> &Files,
               std::vector<std::string> &Stale) {
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
        consumeError(S.takeError());
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

static Error argError(const Twine &Msg) {
  return createStringError(inconvertibleErrorCode(), Msg);
}

/// --methods into Opts.Methods.
static Error parseMethods(ArrayRef<std::string> Names, BenchOptions &Opts) {
  for (const std::string &Name : Names) {
    if (Name.empty())
      return argError("--methods needs method names: dan, base, hmcos, "
                      "cosma, magis, eda");
    std::optional<Method> M = lookupMethod(Name);
    if (!M) {
      std::vector<StringRef> Known;
      for (Method K : allMethods())
        Known.push_back(methodName(K));
      return argError("--methods: " +
                      unknownNameMessage("method", Name, Known));
    }
    Opts.Methods.push_back(*M);
  }
  if (Opts.Methods.empty())
    Opts.Methods.assign(allMethods().begin(), allMethods().end());
  return Error::success();
}

Error parseBenchArgs(const BenchArgs &Args, const TargetDesc &T,
                     BenchOptions &Opts) {
  if (Error E = parseMethods(Args.Methods, Opts))
    return E;
  SweepSpec &Sweep = Opts.Sweep;
  for (const std::string &S : Args.Sweeps) {
    if (S.empty())
      return argError("--sweep needs capacity, cost or grid");
    std::optional<SweepKind> K = lookupEnum(sweepKinds(), S);
    if (!K)
      return argError("--sweep: " +
                      unknownNameMessage("sweep", S, enumNames(sweepKinds())));
    enableSweep(Sweep, *K);
  }
  if (Args.Scales)
    Sweep.Scales = *Args.Scales;
  if (Args.Alphas)
    Sweep.Alphas = *Args.Alphas;
  if (Args.Betas)
    Sweep.Betas = *Args.Betas;
  for (uint64_t V : concat<uint64_t>(Sweep.Alphas, Sweep.Betas))
    if (V > MaxValue)
      return argError("--sweep-alpha and --sweep-beta take values up to "
                      "2^40, not " +
                      Twine(V));
  if (Expected<std::vector<SweepSetting>> S = sweepSettings(Sweep, T); !S)
    return argError("--sweep-scales: " + toString(S.takeError()));
  if (Sweep.Scales.empty() || Sweep.Alphas.empty() || Sweep.Betas.empty())
    return argError("--sweep-scales, --sweep-alpha and --sweep-beta need at "
                    "least one value");
  return Error::success();
}

} // namespace dan::bench
