//===- MPASKernels.cpp - Stage 1 on a graph of several kernels ------------===//
//
// Each kernel is ordered as it would be alone (the kernels at once) and the
// kernels follow one another in the order their edges allow: the floor.
// Other compositions of the whole are candidates beside it, planned as
// dan-dlr plans them under one setting; one is kept only if it is no worse
// than the floor in traffic, spills and makespan, and cheaper, so and again
// after dan-dlr's and dan-cpe's defaults (docs/Kernels.md).
//
//===----------------------------------------------------------------------===//

#include "MPASSelect.h"
#include "Parallel.h"
#include "dan/Analysis/Replay.h"
#include "dan/IR/Kernels.h"
#include "dan/Support/Timing.h"

using namespace llvm;

namespace dan::mpas_select {

namespace {

/// A copy of \p G under \p Order planned by \p Plan with \p Select's
/// options; std::nullopt if planning fails.
std::optional<Graph> planCopy(
    const Graph &G, ArrayRef<NodeIdx> Order, const SelectOptions &Select,
    function_ref<Expected<DLRStats>(Graph &, const SelectOptions &)> Plan) {
  Graph Copy = copyForPlan(G);
  Copy.Order.assign(Order.begin(), Order.end());
  // InputVerified speaks of the graph in its input order, not of this one.
  SelectOptions Unchecked = Select;
  Unchecked.InputVerified = false;
  Expected<DLRStats> D = Plan(Copy, Unchecked);
  if (!D) {
    consumeError(D.takeError());
    return std::nullopt;
  }
  return Copy;
}

/// The stage-2 figures of \p G under \p Order, planned as dan-dlr plans it
/// (planSegmented), each segment under one setting, DLROptions::oneSetting().
MPASStats::Composition measure(const Graph &G, const TargetDesc &T,
                               ArrayRef<NodeIdx> Order, CompositionKind Kind,
                               const SelectOptions &Select) {
  MPASStats::Composition C{Kind};
  std::optional<Graph> Planned =
      planCopy(G, Order, Select, [&](Graph &Copy, const SelectOptions &Plan) {
        return planSegmented(Copy, T, Plan, [&](Graph &Part, bool) {
          return runDLR(Part, T, DLROptions::oneSetting(),
                        /*InputChecked=*/true);
        });
      });
  if (!Planned)
    return C;
  ReplayResult R = replay(*Planned, T);
  C.Planned = true;
  C.Traffic = R.ExtraTraffic;
  C.Spills = R.SpillCount;
  C.Makespan = R.Makespan;
  return C;
}

/// The figures of \p G under \p Order after dan-dlr's and dan-cpe's
/// defaults, as the pipe will plan and refine it; std::nullopt if a stage
/// fails.
std::optional<ReplayResult> pipeFigures(const Graph &G, const TargetDesc &T,
                                        ArrayRef<NodeIdx> Order,
                                        const SelectOptions &Select) {
  std::optional<Graph> Planned =
      planCopy(G, Order, Select, [&](Graph &Copy, const SelectOptions &Plan) {
        return selectDLR(Copy, T, DLROptions(), Plan);
      });
  if (!Planned)
    return std::nullopt;
  return refineAndMeasure(*Planned, T, Select);
}

/// \p C's figures as the replay reports them.
ReplayResult figuresOf(const MPASStats::Composition &C) {
  ReplayResult R;
  R.ExtraTraffic = C.Traffic;
  R.SpillCount = C.Spills;
  R.Makespan = C.Makespan;
  return R;
}

/// Whether \p C is kept over the floor \p Floor (beatsFloor); a planned
/// composition beats an unplanned floor.
bool keptOver(const MPASStats::Composition &C,
              const MPASStats::Composition &Floor, const TargetDesc &T) {
  if (!C.Planned)
    return false;
  return !Floor.Planned || beatsFloor(figuresOf(C), figuresOf(Floor), T);
}

/// Each kernel of \p K ordered alone (selectWhole, the kernels at once),
/// the units in topological order into \p Order; the figures of the kernel
/// with the highest peak (the first such), the peak and the fallbacks of
/// all.
Expected<MPASStats> orderInTurn(const Graph &G, const TargetDesc &T,
                                const MPASOptions &Opts,
                                const SelectOptions &Select,
                                const KernelSplit &K,
                                std::vector<NodeIdx> &Order) {
  std::vector<std::vector<NodeIdx>> Kernels;
  std::vector<uint32_t> KernelOfUnit(K.Units.size(), UINT32_MAX);
  for (uint32_t U = 0; U != K.Units.size(); ++U)
    if (K.IsKernel[U]) {
      KernelOfUnit[U] = Kernels.size();
      Kernels.push_back(K.Units[U]);
    }
  SelectOptions Inner = insideJob(Select);
  // The kernels run at once, and a timer is not for two threads.
  Inner.TimePhases = false;
  Expected<std::vector<PartResult<MPASStats>>> Ordered = runOnParts<MPASStats>(
      G, Kernels, Select,
      [&](Graph &Part) { return selectWhole(Part, T, Opts, Inner); },
      PartUse::Order);
  if (!Ordered)
    return Ordered.takeError();
  Order.clear();
  for (uint32_t U : K.Topo) {
    if (!K.IsKernel[U]) {
      llvm::append_range(Order, K.Units[U]);
      continue;
    }
    uint32_t Kernel = KernelOfUnit[U];
    for (NodeIdx I : (*Ordered)[Kernel].order())
      Order.push_back(Kernels[Kernel][I]);
  }
  std::vector<PartResult<MPASStats>> &Results = *Ordered;
  size_t Binding = 0;
  uint64_t Fallbacks = 0;
  for (size_t P = 0; P != Results.size(); ++P) {
    Fallbacks += Results[P].Stats.Fallbacks;
    if (Results[P].Stats.PeakL1UB > Results[Binding].Stats.PeakL1UB)
      Binding = P;
  }
  MPASStats All = std::move(Results[Binding].Stats);
  All.Fallbacks = Fallbacks;
  All.Parts = Results.size();
  All.AlikeParts = countRenamed<MPASStats>(Results);
  All.Tried.clear();
  All.L0Tried.clear();
  All.Tasks.reset();
  return All;
}

} // namespace

Expected<MPASStats> selectKernels(Graph &G, const TargetDesc &T,
                                  const MPASOptions &Opts,
                                  const SelectOptions &Select,
                                  const KernelSplit &K) {
  std::vector<NodeIdx> InTurn;
  Expected<MPASStats> Floor = [&] {
    PhaseTimer Timer("mpas-kernels", "dan-mpas: ordering each kernel alone",
                     Select.TimePhases);
    return orderInTurn(G, T, Opts, Select, K, InTurn);
  }();
  if (!Floor)
    return Floor;
  Floor->Kernels = K.NumKernels;
  // The whole graph ordered as one is a candidate up to the size at which
  // a selection samples; above it, its cost would double the stage's.
  if (Select.SampleAbove && G.size() > Select.SampleAbove) {
    Floor->Compositions.push_back({CompositionKind::InTurn});
    Floor->Compositions.back().Kept = true;
    G.Order = std::move(InTurn);
    return Floor;
  }
  std::vector<NodeIdx> Input = G.Order;
  Expected<MPASStats> Whole = selectWhole(G, T, Opts, Select);
  std::vector<NodeIdx> WholeOrder = std::move(G.Order);
  G.Order = std::move(Input);
  if (!Whole)
    consumeError(Whole.takeError());

  PhaseTimer Timer("mpas-compositions",
                   "dan-mpas: planning the compositions of the kernels",
                   Select.TimePhases);
  MPASStats::Composition CI =
      measure(G, T, InTurn, CompositionKind::InTurn, Select);
  MPASStats::Composition CW{CompositionKind::Whole};
  if (Whole)
    CW = measure(G, T, WholeOrder, CompositionKind::Whole, Select);
  bool KeepWhole = Whole && keptOver(CW, CI, T);
  // The estimate above plans under one setting and stops before stage 3,
  // which may lower the floor's makespan more than the whole's: a
  // composition that beats the floor so is kept only if it still beats it
  // once the pipe's later stages have planned and refined both.
  if (KeepWhole) {
    std::optional<ReplayResult> FI = pipeFigures(G, T, InTurn, Select);
    std::optional<ReplayResult> FW = pipeFigures(G, T, WholeOrder, Select);
    if (FI)
      CI.PipeMakespan = FI->Makespan;
    if (FW)
      CW.PipeMakespan = FW->Makespan;
    KeepWhole = FW && (!FI || beatsFloor(*FW, *FI, T));
  }
  CI.Kept = !KeepWhole;
  CW.Kept = KeepWhole;
  MPASStats Kept = KeepWhole ? std::move(*Whole) : std::move(*Floor);
  Kept.Kernels = K.NumKernels;
  Kept.Compositions = {CI, CW};
  G.Order = KeepWhole ? std::move(WholeOrder) : std::move(InTurn);
  return Kept;
}

} // namespace dan::mpas_select
