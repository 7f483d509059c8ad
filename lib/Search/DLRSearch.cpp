//===- DLRSearch.cpp - dan-dlr's auto selections --------------------------===//
//
// --fit=auto and --horizon=auto: one plan per fit and horizon, each
// replayed, made concurrently; the lowest plan cost wins (docs/DLR.md).
//
//===----------------------------------------------------------------------===//

#include "Parallel.h"
#include "dan/Analysis/Replay.h"
#include "dan/Schedule/Order.h"
#include "dan/Search/Search.h"
#include "llvm/ADT/SmallVector.h"
#include <optional>
#include <tuple>

using namespace llvm;

namespace dan {

Expected<DLRStats> searchDLR(Graph &G, const TargetDesc &T,
                             const DLROptions &Opts,
                             const SearchOptions &Search) {
  bool AutoFit = Opts.Fit == FitPolicy::Auto;
  if (!Opts.AutoHorizon && !AutoFit)
    return runDLR(G, T, Opts);
  SmallVector<FitPolicy, 3> Fits = {Opts.Fit};
  if (AutoFit)
    Fits = {FitPolicy::Timed, FitPolicy::Best, FitPolicy::Next};
  SmallVector<uint32_t, 4> Horizons = {Opts.Horizon};
  if (Opts.AutoHorizon)
    Horizons.assign(std::begin(AutoHorizons), std::end(AutoHorizons));
  // The input checks depend on the graph alone: once for every plan (each
  // plan would fail them with the same first error).
  if (Error E = checkPlannableInput(G, T))
    return E;
  struct Plan {
    FitPolicy Fit;
    uint32_t Horizon;
    std::optional<Graph> Planned;
    Expected<DLRStats> Stats = DLRStats();
    ReplayResult Measured;
  };
  std::vector<Plan> Plans;
  for (FitPolicy F : Fits)
    for (uint32_t H : Horizons)
      Plans.push_back({F, H, std::nullopt, DLRStats(), ReplayResult()});
  runConcurrently(Search.Threads, Plans.size(), [&](size_t I) {
    Plan &P = Plans[I];
    DLROptions One = Opts;
    One.AutoHorizon = false;
    One.Horizon = P.Horizon;
    One.Fit = P.Fit;
    P.Planned.emplace(G);
    P.Stats = runDLR(*P.Planned, T, One, /*InputChecked=*/true);
    if (P.Stats)
      P.Measured = replay(*P.Planned, T);
  });
  // The lowest planCost wins, then the least traffic, then the lowest
  // makespan, ties to the earlier. When every plan fails, the first error
  // stands.
  SmallVector<DLRStats::HorizonTrial, 8> Tried;
  std::optional<size_t> Best;
  std::tuple<uint64_t, uint64_t, uint64_t> BestKey;
  std::optional<size_t> FirstFailed;
  for (size_t I = 0; I != Plans.size(); ++I) {
    Plan &P = Plans[I];
    if (!P.Stats) {
      Tried.push_back({P.Fit, P.Horizon, 0, 0, false});
      if (!FirstFailed)
        FirstFailed = I;
      continue;
    }
    const ReplayResult &R = P.Measured;
    Tried.push_back({P.Fit, P.Horizon, R.ExtraTraffic, R.Makespan, true});
    std::tuple<uint64_t, uint64_t, uint64_t> Key = {planCost(R, T),
                                                    R.ExtraTraffic, R.Makespan};
    if (!Best || Key < BestKey) {
      Best = I;
      BestKey = Key;
    }
  }
  for (size_t I = 0; I != Plans.size(); ++I)
    if (!Plans[I].Stats && (Best || I != *FirstFailed))
      consumeError(Plans[I].Stats.takeError());
  if (!Best)
    return Plans[*FirstFailed].Stats.takeError();
  DLRStats S = std::move(*Plans[*Best].Stats);
  G = std::move(*Plans[*Best].Planned);
  S.HorizonTried = std::move(Tried);
  return S;
}

} // namespace dan
