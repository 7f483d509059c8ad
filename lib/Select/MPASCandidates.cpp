//===- MPASCandidates.cpp - The settings stage 1's selections try ---------===//
//
// The candidate settings of --l0=auto and --order=auto, the weightings of
// --weights=auto, and the orders of a graph under all of them, made
// concurrently (each job into its own slot) and reduced to the best
// weighting of each candidate.
//
//===----------------------------------------------------------------------===//

#include "MPASSelect.h"
#include "Parallel.h"
#include "dan/Analysis/Replay.h"
#include "dan/IR/Components.h"
#include "dan/Schedule/Order.h"
#include "dan/Support/Timing.h"
#include "llvm/ADT/STLExtras.h"
#include <atomic>
#include <memory>
#include <numeric>

using namespace llvm;

namespace dan::mpas_select {

namespace {

/// The weightings --weights=auto tries, in tie-break order (the paper's
/// balanced weights first).
constexpr MPASWeights AutoWeights[] = {
    MPASWeights::Balanced, MPASWeights::MemoryFirst,
    MPASWeights::CriticalityFirst, MPASWeights::InputOrder};

/// The options that order under candidate \p C with weights \p W.
MPASOptions settingOf(const MPASOptions &Opts, const OrderCandidate &C,
                      MPASWeights W) {
  MPASOptions One = Opts;
  One.L0 = C.Mode;
  One.Order = C.Order;
  One.Group = C.Group;
  One.Place = C.Place;
  One.Weights = W;
  return One;
}

/// The weightings one candidate is ordered with: --weights=auto tries the
/// three on the list scheduler alone; under a task order the task rank
/// comes first and the weights only order nodes inside a task, where the
/// variants reach the same peak on every graph tried, so auto runs the
/// paper's balanced weights alone there (the window and groups orders use
/// no weights).
SmallVector<MPASWeights, 4> weightings(MPASWeights W, Traversal O) {
  if (W != MPASWeights::Auto)
    return {W};
  if (O != Traversal::Free)
    return {MPASWeights::Balanced};
  return SmallVector<MPASWeights, 4>(std::begin(AutoWeights),
                                     std::end(AutoWeights));
}

/// One order job of orderAll: a candidate under one weighting.
struct OrderJob {
  size_t Cand;
  MPASWeights W;
  /// For a list-scheduler job under L0Mode::Single, the job of the same
  /// setting under L0Mode::Capacity, if there is one (else SIZE_MAX).
  size_t Twin = SIZE_MAX;
};

/// The jobs of \p Cands, each candidate's weightings in turn, with their
/// twins.
std::vector<OrderJob> orderJobs(const MPASOptions &Opts,
                                ArrayRef<OrderCandidate> Cands,
                                const std::optional<TaskOrder> &Tasks) {
  std::vector<OrderJob> Jobs;
  std::vector<Traversal> Effective(Cands.size());
  for (size_t C = 0; C != Cands.size(); ++C) {
    // orderMPAS takes Tasks and Groups as Free when there are no tasks.
    Traversal O = Cands[C].Order;
    if ((O == Traversal::Tasks || O == Traversal::Groups) && !Tasks)
      O = Traversal::Free;
    Effective[C] = O;
    MPASWeights Asked =
        Cands[C].Weights != MPASWeights::Auto ? Cands[C].Weights : Opts.Weights;
    for (MPASWeights W : weightings(Asked, O))
      Jobs.push_back({C, W});
  }
  for (OrderJob &J : Jobs) {
    const OrderCandidate &C = Cands[J.Cand];
    Traversal O = Effective[J.Cand];
    if (C.Mode != L0Mode::Single ||
        (O != Traversal::Free && O != Traversal::Tasks))
      continue;
    for (size_t K = 0; K != Jobs.size(); ++K) {
      const OrderCandidate &D = Cands[Jobs[K].Cand];
      if (D.Mode == L0Mode::Capacity && Effective[Jobs[K].Cand] == O &&
          Jobs[K].W == J.W && D.Place == C.Place) {
        J.Twin = K;
        break;
      }
    }
  }
  return Jobs;
}

/// Per candidate, of its jobs' runs \p Runs: the first failure, else the
/// weighting of the lowest peak (ties to the earlier; an empty order, of a
/// graph without nodes, gives way to the next), with the peaks of all in
/// MPASStats::Tried when there were several.
std::vector<Ordered> keepBestWeighting(ArrayRef<OrderJob> Jobs,
                                       std::vector<Ordered> &Runs,
                                       size_t Cands) {
  std::vector<Ordered> Best(Cands);
  for (size_t J = 0, K; J != Jobs.size(); J = K) {
    for (K = J; K != Jobs.size() && Jobs[K].Cand == Jobs[J].Cand;)
      ++K;
    SmallVector<std::pair<MPASWeights, uint64_t>, 4> Tried;
    size_t Kept = K;
    for (size_t I = J; I != K; ++I) {
      if (!Runs[I].Stats) {
        Kept = I;
        break;
      }
      Tried.push_back({Jobs[I].W, Runs[I].Stats->PeakL1UB});
      if (Kept == K || Runs[Kept].Order.empty() ||
          Runs[I].Stats->PeakL1UB < Runs[Kept].Stats->PeakL1UB)
        Kept = I;
    }
    for (size_t I = J; I != K; ++I)
      if (I != Kept && !Runs[I].Stats)
        consumeError(Runs[I].Stats.takeError());
    Ordered &Out = Best[Jobs[J].Cand];
    Out = std::move(Runs[Kept]);
    if (Out.Stats && K - J > 1)
      Out.Stats->Tried = std::move(Tried);
  }
  return Best;
}

} // namespace

/// The candidates --l0=auto tries, in tie-break order.
SmallVector<OrderCandidate, 9>
orderCandidates(const MPASOptions &Opts,
                const std::optional<TaskOrder> &Tasks) {
  SmallVector<OrderCandidate, 9> List;
  auto BothModes = [&](Traversal O) {
    List.push_back({O, L0Mode::Capacity});
    List.push_back({O, L0Mode::Single});
  };
  switch (Opts.Order) {
  case Traversal::Input: // (selectMPAS keeps the input order before this)
    break;
  case Traversal::Free:
    BothModes(Traversal::Free);
    break;
  case Traversal::Tasks:
    BothModes(Tasks ? Traversal::Tasks : Traversal::Free);
    break;
  case Traversal::Window:
    List.push_back({Traversal::Window, L0Mode::Capacity});
    break;
  case Traversal::Staged:
    BothModes(Traversal::Staged);
    break;
  case Traversal::Groups:
    if (Tasks)
      List.push_back({Traversal::Groups, L0Mode::Capacity, Opts.Group});
    else
      BothModes(Traversal::Free);
    break;
  case Traversal::Auto:
    // On a reuse grid the blocked order is built to minimize reloads; the
    // others only cost time there (Matmul_Case1: four more plans).
    if (Tasks && Tasks->IsGrid) {
      BothModes(Traversal::Tasks);
      break;
    }
    BothModes(Traversal::Free);
    if (Tasks)
      BothModes(Traversal::Tasks);
    List.push_back({Traversal::Window, L0Mode::Capacity});
    if (Tasks)
      for (unsigned Group : AutoGroups)
        List.push_back({Traversal::Groups, L0Mode::Capacity, Group});
    break;
  }
  for (OrderCandidate &C : List)
    C.Place = Opts.Place;
  return List;
}

/// The orders of \p G under each candidate and each of its weightings
/// (orderMPAS: the jobs share the graph and \p Info, when the caller made
/// it), made concurrently; then keepBestWeighting.
std::vector<Ordered> orderAll(const Graph &G, const TargetDesc &T,
                              const MPASOptions &Opts,
                              ArrayRef<OrderCandidate> Cands,
                              const std::optional<TaskOrder> &Tasks,
                              JobRunner &Runner, bool Timed,
                              const MPASGraphInfo *Info, bool KeepUnplaced) {
  std::vector<OrderJob> Jobs = orderJobs(Opts, Cands, Tasks);
  // The orders of whole operations check their input graph, the same for
  // each of them: once is enough when it passes (when it fails, each
  // candidate reports it as before).
  bool OpOrderInputChecked = false;
  if (llvm::count_if(Cands, [&](const OrderCandidate &C) {
        return C.Order == Traversal::Window || C.Order == Traversal::Staged ||
               (C.Order == Traversal::Groups && Tasks);
      }) > 1) {
    Error E = checkOrderInput(G, T);
    OpOrderInputChecked = !E;
    consumeError(std::move(E));
  }
  std::vector<Ordered> Runs(Jobs.size());
  PhaseTimer Timer("mpas-order", "dan-mpas: ordering the candidates", Timed);
  // The jobs without a twin first, then those under Single that have one,
  // all in one batch. A job under Single whose twin under Capacity has
  // finished and made every L0 test as Single would takes the twin's order
  // (MPASStats::SameUnderSingle); otherwise, its twin unfinished (a thread
  // was free) or different, it runs. Either way its result is the same.
  // The window search, the slowest candidate by far on large graphs, starts
  // first, so that the other threads share out the rest meanwhile.
  SmallVector<size_t, 16> Sequence;
  for (size_t J = 0; J != Jobs.size(); ++J)
    if (Cands[Jobs[J].Cand].Order == Traversal::Window)
      Sequence.push_back(J);
  for (size_t J = 0; J != Jobs.size(); ++J)
    if (Jobs[J].Twin == SIZE_MAX &&
        Cands[Jobs[J].Cand].Order != Traversal::Window)
      Sequence.push_back(J);
  for (size_t J = 0; J != Jobs.size(); ++J)
    if (Jobs[J].Twin != SIZE_MAX)
      Sequence.push_back(J);
  std::unique_ptr<std::atomic<bool>[]> Finished(
      new std::atomic<bool>[Jobs.size()]);
  for (size_t J = 0; J != Jobs.size(); ++J)
    Finished[J].store(false, std::memory_order_relaxed);
  Runner.run(Sequence.size(), [&](size_t K) {
    size_t J = Sequence[K];
    size_t Twin = Jobs[J].Twin;
    if (Twin != SIZE_MAX && Finished[Twin].load(std::memory_order_acquire) &&
        Runs[Twin].Stats && Runs[Twin].Stats->SameUnderSingle) {
      Runs[J].Order = Runs[Twin].Order;
      Runs[J].Unplaced = Runs[Twin].Unplaced;
      Runs[J].Stats = *Runs[Twin].Stats;
      Runs[J].Stats->L0Chosen = L0Mode::Single;
      Runs[J].Stats->SameUnderSingle = false;
      return;
    }
    MPASOptions One = settingOf(Opts, Cands[Jobs[J].Cand], Jobs[J].W);
    One.OpOrderInputChecked = OpOrderInputChecked;
    Runs[J].Stats = orderMPAS(G, T, One, Runs[J].Order, &Tasks,
                              KeepUnplaced ? &Runs[J].Unplaced : nullptr, Info);
    Finished[J].store(true, std::memory_order_release);
  });
  return keepBestWeighting(Jobs, Runs, Cands.size());
}

} // namespace dan::mpas_select
