//===- MPASSelect.cpp - dan-mpas's auto selections ------------------------===//
//
// --weights=auto orders under each weighting and keeps the lowest peak;
// --l0=auto (with --order=auto) orders under each candidate, has default
// dan-dlr plan each distinct order and the replay measure it, and keeps the
// lowest plan cost (docs/MPAS.md). Both run their candidates concurrently:
// first every order, then every plan. This file decides which of them
// runs: on the whole graph, on a sample first, or kernel by kernel.
//
//===----------------------------------------------------------------------===//

#include "MPASSelect.h"
#include "Parallel.h"
#include "dan/Schedule/TaskOrder.h"
#include "dan/Support/Timing.h"
#include "llvm/ADT/STLExtras.h"
#include <memory>

using namespace llvm;

namespace dan {

using namespace mpas_select;

/// The graph's tasks, unless the order needs none.
static std::optional<TaskOrder> findTasks(const Graph &G, const TargetDesc &T,
                                          const MPASOptions &Opts,
                                          const SelectOptions &Select,
                                          JobRunner &Runner) {
  if (Opts.Order == Traversal::Free || Opts.Order == Traversal::Window)
    return std::nullopt;
  PhaseTimer Timer("mpas-tasks", "dan-mpas: finding the tasks",
                   Select.TimePhases);
  return findTaskOrder(G, T, [&](size_t N, function_ref<void(size_t)> Job) {
    Runner.run(N, Job);
  });
}

Expected<MPASStats> mpas_select::selectWhole(Graph &G, const TargetDesc &T,
                                             const MPASOptions &Opts,
                                             const SelectOptions &Select) {
  JobRunner Runner(Select.Threads);
  std::optional<TaskOrder> Tasks = findTasks(G, T, Opts, Select, Runner);
  // What the list scheduler knows of the graph, made once for every
  // candidate that runs it (the others order whole operations).
  std::shared_ptr<const MPASGraphInfo> Info;
  // (Groups is the list scheduler on a graph with fewer than two tasks.)
  bool ListScheduled = Opts.Order == Traversal::Auto ||
                       Opts.Order == Traversal::Free ||
                       Opts.Order == Traversal::Tasks ||
                       (Opts.Order == Traversal::Groups && !Tasks);
  auto MakeInfo = [&] {
    if (!Info)
      Info = analyzeForMPAS(G, T);
  };
  Expected<MPASStats> S = [&]() -> Expected<MPASStats> {
    // A large graph whose tasks form no grid, or that has no tasks, tries
    // every candidate (about fifteen orders, eight plans) on a sample of its
    // tasks or its first operations, and only the best two settings, each
    // with the weighting it won with, on the whole (docs/MPAS.md, "Large
    // graphs").
    if (Opts.L0 == L0Mode::Auto && Opts.Order == Traversal::Auto &&
        Select.SampleAbove && G.size() > Select.SampleAbove &&
        (!Tasks || !Tasks->IsGrid)) {
      MPASStats Sampled;
      std::optional<SmallVector<OrderCandidate, 2>> Settings;
      {
        PhaseTimer Timer("mpas-sample",
                         "dan-mpas: ranking the candidates on a sample",
                         Select.TimePhases);
        Settings = rankOnSample(G, T, Opts, Tasks, Select, Sampled);
      }
      if (Settings) {
        // Only a setting of the list scheduler needs its view of the graph.
        if (llvm::any_of(*Settings, [](const OrderCandidate &C) {
              return C.Order == Traversal::Free || C.Order == Traversal::Tasks;
            }))
          MakeInfo();
        if (std::optional<MPASStats> S =
                autoL0Sampled(G, T, Opts, Tasks, Select, Runner, Info.get(),
                              *Settings, Sampled))
          return std::move(*S);
      }
    }
    if (ListScheduled)
      MakeInfo();
    if (Opts.L0 == L0Mode::Auto)
      return autoL0(G, T, Opts, Tasks, Select, Runner, Info.get());
    // One L0 mode: --order=auto is the list scheduler alone; under
    // --l0=single (stage 1's contest rule, judged by its peak) also the
    // orders of whole operations a group of tasks at a time and the staged
    // one, the lowest peak kept, ties to the earlier (docs/MPAS.md,
    // "--order=auto").
    Traversal O = Opts.Order == Traversal::Auto ? Traversal::Free : Opts.Order;
    SmallVector<OrderCandidate, 6> Cands = {
        {O, Opts.L0, Opts.Group, Opts.Place}};
    if (Opts.Order == Traversal::Auto &&
        (Opts.L0 == L0Mode::Single || Opts.L0 == L0Mode::Ignore)) {
      if (Tasks)
        for (unsigned Group : AutoGroups)
          Cands.push_back({Traversal::Groups, Opts.L0, Group, Opts.Place});
      if (Opts.L0 == L0Mode::Single)
        Cands.push_back({Traversal::Staged, L0Mode::Single, 0, Opts.Place});
    }
    std::vector<Ordered> Runs = orderAll(G, T, Opts, Cands, Tasks, Runner,
                                         Select.TimePhases, Info.get());
    size_t Kept = 0;
    for (size_t C = 1; C != Runs.size(); ++C) {
      if (!Runs[C].Stats) {
        consumeError(Runs[C].Stats.takeError());
        continue;
      }
      if (Runs[Kept].Stats &&
          Runs[C].Stats->PeakL1UB < Runs[Kept].Stats->PeakL1UB)
        Kept = C;
    }
    if (Kept != 0 && !Runs[0].Stats)
      consumeError(Runs[0].Stats.takeError());
    if (Runs[Kept].Stats)
      G.Order = std::move(Runs[Kept].Order);
    return std::move(Runs[Kept].Stats);
  }();
  if (S && Tasks) {
    S->Tasks = std::move(Tasks);
    S->Tasks->Rank.clear();
  }
  return S;
}

Expected<MPASStats> selectMPAS(Graph &G, const TargetDesc &T,
                               const MPASOptions &Opts,
                               const SelectOptions &Select) {
  if (Opts.Order == Traversal::Input)
    return runMPAS(G, T, Opts);
  if (Error E = checkMPASInput(G, T, Select.InputVerified))
    return E;
  // The kernels are composed under --order=auto; a traversal asked for is
  // one of the whole graph.
  if (Opts.Order != Traversal::Auto)
    return selectWhole(G, T, Opts, Select);
  KernelSplit K = splitKernels(G);
  if (K.NumKernels < 2)
    return selectWhole(G, T, Opts, Select);
  // Several kernels: each is ordered as it would be alone, the kernels at
  // once, and the orders follow one another; other compositions compete
  // with that floor (docs/Kernels.md).
  return selectKernels(G, T, Opts, Select, K);
}

} // namespace dan
