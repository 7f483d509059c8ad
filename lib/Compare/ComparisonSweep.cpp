//===- ComparisonSweep.cpp - dan-bench's sensitivity sweep ----------------===//
//
// The sensitivity sweep: its settings (capacity scales, spill costs), the
// targets they make, every method rerun under each, and the rankings with
// their Kendall tau-b against the default setting.
// docs/CommandGuide/dan-bench.md defines every figure.
//
//===----------------------------------------------------------------------===//

#include "ComparisonRuns.h"
#include "llvm/ADT/STLExtras.h"
#include "llvm/Support/FormatVariadic.h"
#include <numeric>

using namespace llvm;

namespace dan::bench {

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
  for (unsigned I = 0; I != T.numTiers(); ++I) {
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
// Running and ranking
//===----------------------------------------------------------------------===//

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

void runSweep(ArrayRef<const Graph *> Graphs, const TargetDesc &T,
              const SweepSpec &Spec, Reporter &Progress, BenchReport &Rep) {
  SweepResult S;
  Expected<std::vector<SweepSetting>> Settings = sweepSettings(Spec, T);
  if (!Settings) {
    // The tool checks the spec first; nothing to sweep otherwise.
    consumeError(Settings.takeError());
    return;
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

} // namespace dan::bench
