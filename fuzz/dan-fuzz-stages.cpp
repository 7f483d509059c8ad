//===- dan-fuzz-stages.cpp - Fuzz the stages and the baselines ------------===//
//
// The input is not text but decisions (GenerateCase.h): a target, stage
// options and a graph that verifies. On it run the three stages with those
// options, then every method of runMethod (dan, base and the four
// baselines), and, for one input in four (of at most 500 nodes), dan-bench's
// comparison and ablations. What must hold:
//
//  - every output verifies, with the race check of every plan (stage 1
//    also under --l0-single when it chose the single rule without a
//    fallback), and stage 3 against stage 2;
//  - stage 1 only reorders; stage 2 keeps stage 1's order of the original
//    nodes; stage 3 keeps the peaks, the traffic and the spills, and with
//    --mode=refine never raises the makespan (and lowers it when it moved);
//  - the stages' statistics equal the replay's figures;
//  - the replay's figures equal a recomputation here (checkMetrics) from
//    its start and finish times and the plan alone;
//  - the same input gives the same bytes: the stages run twice, one method
//    runs twice, and stage 3 with another --dense-after (which changes only
//    the speed) gives the same output;
//  - dan-bench's cells equal the methods' own replays.
//
//===----------------------------------------------------------------------===//

#include "FuzzSupport.h"
#include "GenerateCase.h"
#include "dan/Analysis/Replay.h"
#include "dan/Compare/Comparison.h"
#include "dan/Compare/ComparisonCharts.h"
#include "dan/Compare/ComparisonReport.h"
#include "dan/Schedule/TaskOrder.h"
#include "dan/Select/Methods.h"
#include "llvm/ADT/DenseMap.h"
#include "llvm/ADT/DenseSet.h"
#include "llvm/Support/MathExtras.h"
#include "llvm/Support/raw_ostream.h"
#include <cstdlib>
#include <optional>

using namespace llvm;
using namespace dan;
using fuzz::fail;

namespace {

/// The target's numbers, for a message: the IR does not carry them.
std::string describeTarget(const TargetDesc &T) {
  std::string S;
  raw_string_ostream OS(S);
  OS << "target:";
  for (unsigned Ti = 0; Ti != T.numTiers(); ++Ti)
    OS << " --capacity=" << T.tierName(static_cast<Tier>(Ti)) << '='
       << T.capacity(static_cast<Tier>(Ti));
  OS << " --spill-cost=" << T.spillAlpha() << ',' << T.spillBeta() << '\n';
  return S;
}

/// The case's stage options as the tools spell them (the DLR victim rules
/// of the baselines and the CPE mode as numbers: no tool offers them all).
std::string describeOptions(const fuzz::FuzzCase &C) {
  std::string S;
  raw_string_ostream OS(S);
  const MPASOptions &M = C.MPAS;
  OS << "dan-mpas --l0=" << l0ModeName(M.L0)
     << " --weights=" << weightsName(M.Weights)
     << " --allocs=" << enumName(allocChoiceTable(), M.Allocs)
     << " --objective=" << enumName(objectiveTable(), M.Objective)
     << " --order=" << traversalName(M.Order) << " --group=" << M.Group << '\n';
  const DLROptions &D = C.DLR;
  OS << "DLR: fit " << unsigned(D.Fit) << " evict " << unsigned(D.Evict)
     << " victims " << unsigned(D.Victims) << " lambdas " << D.LambdaByte << ','
     << D.LambdaCyc << " horizon "
     << (D.AutoHorizon ? "auto" : std::to_string(D.Horizon))
     << (D.Fit == FitPolicy::Auto ? " fit auto" : "") << '\n';
  const CPEOptions &P = C.CPE;
  OS << "CPE: mode " << unsigned(P.Mode) << " moves " << unsigned(P.Moves)
     << " window " << P.Window << " passes " << P.Passes << " candidates "
     << P.MaxCandidates << " dense-after " << P.DenseAfter << '\n';
  return S;
}

/// The case being checked, for the messages.
const fuzz::FuzzCase *Current = nullptr;

std::string context(const TargetDesc &T) {
  return describeTarget(T) + (Current ? describeOptions(*Current) : "");
}

[[noreturn]] void failOn(const Graph &G, const TargetDesc &T,
                         const Twine &Msg) {
  fail(Msg, context(T), fuzz::printed(G));
}

/// Recomputes the replay's figures of \p G (which verifies) from R.Start,
/// R.Finish and the plan, without lib/Analysis: each node's cycles, that it
/// starts exactly when its predecessors and its pipe let it, the makespan,
/// the busy pipes, the peaks per tier and of L1+UB (from the placements and
/// releases by schedule position), L0 single residency, the extra DDR
/// traffic and the spill count (docs/Replay.md).
void checkMetrics(const Graph &G, const TargetDesc &T, const ReplayResult &R,
                  StringRef What) {
  size_t V = G.size();
  if (G.Order.size() != V || R.Start.size() != V || R.Finish.size() != V)
    failOn(G, T, What + ": the schedule or the times miss nodes");
  std::vector<uint32_t> Pos(V, UINT32_MAX);
  for (uint32_t P = 0; P != V; ++P) {
    if (G.Order[P] >= V || Pos[G.Order[P]] != UINT32_MAX)
      failOn(G, T, What + ": the schedule is not a permutation");
    Pos[G.Order[P]] = P;
  }
  // A buffer's size and tier are its ALLOC's; COPY_IN's operands still live
  // in DDR.
  DenseMap<uint64_t, std::pair<uint64_t, Tier>> Buf;
  DenseSet<uint64_t> InDDR;
  for (const Node &N : G.Nodes) {
    if (N.Kind == NodeKind::Alloc)
      Buf.try_emplace(N.Buf, N.Size, N.BufTier);
    if (N.Kind == NodeKind::Op && G.opName(N) == "COPY_IN")
      InDDR.insert(N.Bufs.begin(), N.Bufs.end());
  }
  auto SizeOf = [&](const Node &N) { return Buf.lookup(N.Buf).first; };
  // A spill takes its buffer's tier's path.
  auto PathOf = [&](const Node &N) -> const SpillPath & {
    return T.spillPath(Buf.lookup(N.Buf).second);
  };
  auto Transfer = [&](const Node &N) {
    const SpillPath &Path = PathOf(N);
    return SaturatingAdd(SaturatingMultiply(Path.Beta, SizeOf(N)), Path.Alpha);
  };

  std::array<std::optional<NodeIdx>, MaxPipes> LastOn;
  std::array<uint64_t, MaxPipes> Busy{};
  uint64_t Makespan = 0, Traffic = 0, Spills = 0;
  // Live bytes (and L0 buffers) change at placements and releases; summing
  // the changes by position gives the live state after each node.
  std::vector<std::array<int64_t, MaxTiers>> Delta(V);
  std::vector<std::array<int64_t, MaxTiers>> Count(V);
  for (uint32_t P = 0; P != V; ++P) {
    NodeIdx I = G.Order[P];
    const Node &N = G[I];
    uint64_t Cycles = 0;
    std::optional<Pipe> On;
    switch (N.Kind) {
    case NodeKind::Op:
      Cycles = N.Cycles;
      On = N.OpPipe;
      break;
    case NodeKind::SpillOut:
      Cycles = InDDR.count(N.Buf) ? 0 : Transfer(N);
      On = PathOf(N).Out;
      ++Spills;
      Traffic += InDDR.count(N.Buf) ? SizeOf(N) : 2 * SizeOf(N);
      break;
    case NodeKind::SpillIn:
      Cycles = Transfer(N);
      On = PathOf(N).In;
      break;
    case NodeKind::Alloc:
    case NodeKind::Free:
      break;
    }
    if (N.isBufferNode()) {
      auto [Size, Tr] = Buf.lookup(N.Buf);
      unsigned Ti = static_cast<unsigned>(Tr);
      int64_t Sign = N.isPlacement() ? 1 : -1;
      Delta[P][Ti] += Sign * int64_t(Size);
      Count[P][Ti] += Sign;
    }
    uint64_t Ready = 0;
    for (const EdgeList *Preds : {&N.Preds, &N.ReusePreds})
      for (NodeIdx From : *Preds) {
        if (Pos[From] >= P)
          failOn(G, T,
                 What + ": " + describeNode(G, I) +
                     " runs before its predecessor " + describeNode(G, From));
        Ready = std::max(Ready, R.Finish[From]);
      }
    if (On) {
      unsigned Pi = static_cast<unsigned>(*On);
      if (LastOn[Pi])
        Ready = std::max(Ready, R.Finish[*LastOn[Pi]]);
      LastOn[Pi] = I;
      Busy[Pi] = SaturatingAdd(Busy[Pi], Cycles);
    }
    if (R.Start[I] != Ready || R.Finish[I] != SaturatingAdd(Ready, Cycles))
      failOn(G, T,
             What + ": the replay times " + describeNode(G, I) + " at [" +
                 Twine(R.Start[I]) + ", " + Twine(R.Finish[I]) +
                 "], but its predecessors and its pipe let it run at [" +
                 Twine(Ready) + ", " + Twine(SaturatingAdd(Ready, Cycles)) +
                 "]");
    Makespan = std::max(Makespan, R.Finish[I]);
  }

  std::array<int64_t, MaxTiers> Live{}, Buffers{};
  std::array<uint64_t, MaxTiers> TierPeak{};
  uint64_t PeakL1UB = 0;
  bool L0Single = true;
  for (uint32_t P = 0; P != V; ++P) {
    int64_t InPeak = 0;
    for (unsigned Ti = 0; Ti != T.numTiers(); ++Ti) {
      Tier Tr = static_cast<Tier>(Ti);
      Live[Ti] += Delta[P][Ti];
      Buffers[Ti] += Count[P][Ti];
      if (Live[Ti] < 0 || Buffers[Ti] < 0)
        failOn(G, T, What + ": a tier holds less than nothing");
      TierPeak[Ti] = std::max<uint64_t>(TierPeak[Ti], Live[Ti]);
      if (T.countsInPeak(Tr))
        InPeak += Live[Ti];
      if (T.isL0(Tr) && Buffers[Ti] > 1)
        L0Single = false;
    }
    PeakL1UB = std::max<uint64_t>(PeakL1UB, InPeak);
  }

  auto Expect = [&](StringRef Figure, uint64_t Replayed, uint64_t Here) {
    if (Replayed != Here)
      failOn(G, T,
             What + ": the replay's " + Figure + " is " + Twine(Replayed) +
                 ", recomputed " + Twine(Here));
  };
  Expect("makespan", R.Makespan, Makespan);
  Expect("extra DDR traffic", R.ExtraTraffic, Traffic);
  Expect("spill count", R.SpillCount, Spills);
  Expect("peak L1+UB", R.PeakL1UB, PeakL1UB);
  Expect("L0 single residency", R.L0Single, L0Single);
  for (unsigned Ti = 0; Ti != T.numTiers(); ++Ti)
    Expect(("peak of " + T.tierName(static_cast<Tier>(Ti))).str(),
           R.TierPeak[Ti], TierPeak[Ti]);
  for (unsigned Pi = 0; Pi != T.numPipes(); ++Pi)
    Expect(("busy time of " + T.pipeName(static_cast<Pipe>(Pi))).str(),
           R.PipeBusy[Pi], Busy[Pi]);
  Expect("busiest pipe", R.PipeLB, *std::max_element(Busy.begin(), Busy.end()));
}

/// Verifies \p G, replays it and checks the figures; returns the replay.
ReplayResult checkOutput(const Graph &G, const TargetDesc &T, StringRef What,
                         const Graph *Against = nullptr) {
  VerifyOptions Opts;
  Opts.ErrorLimit = 0;
  Opts.Against = Against;
  fuzz::expectVerifies(G, T, Opts, What, context(T));
  ReplayResult R = replay(G, T);
  checkMetrics(G, T, R, What);
  return R;
}

bool sameNode(const Node &A, const Node &B) {
  return A.Id == B.Id && A.Kind == B.Kind && A.BufTier == B.BufTier &&
         A.OpPipe == B.OpPipe && A.OpName == B.OpName && A.Buf == B.Buf &&
         A.Size == B.Size && A.Cycles == B.Cycles && A.Bufs == B.Bufs &&
         A.Preds == B.Preds && A.ReusePreds == B.ReusePreds &&
         A.HasOffset == B.HasOffset && (!A.HasOffset || A.Offset == B.Offset);
}

/// The ids of the nodes of \p G that are not spill nodes, in schedule order.
std::vector<uint64_t> originalOrder(const Graph &G) {
  std::vector<uint64_t> Ids;
  for (NodeIdx I : G.Order)
    if (!G[I].isSpill())
      Ids.push_back(G[I].Id);
  return Ids;
}

template <typename StatsT>
StatsT orFail(Expected<StatsT> S, const Graph &In, const TargetDesc &T,
              StringRef Stage) {
  if (!S)
    failOn(In, T,
           Stage +
               " refuses a graph that verifies: " + toString(S.takeError()));
  return *S;
}

/// The three stages with the case's options; returns stage 3's IR.
std::string runStages(const fuzz::FuzzCase &C) {
  const TargetDesc &T = C.Target;
  const Graph &In = *C.G;

  // In one process (dan-opt) a stage after the first takes its input
  // unchecked; it must write the same bytes.
  SelectOptions Verified;
  Verified.InputVerified = true;
  Graph S1 = In;
  MPASStats M = orFail(selectMPAS(S1, T, C.MPAS), In, T, "dan-mpas");
  Graph S1v = In;
  orFail(selectMPAS(S1v, T, C.MPAS, Verified), In, T,
         "dan-mpas in one process");
  if (fuzz::printed(S1v) != fuzz::printed(S1))
    fail("dan-mpas orders a verified input otherwise", fuzz::printed(S1),
         fuzz::printed(S1v));
  for (NodeIdx I = 0; I != In.size(); ++I)
    if (!sameNode(In[I], S1[I]))
      failOn(S1, T, "dan-mpas changed " + describeNode(In, I));
  ReplayResult R1 = checkOutput(S1, T, "dan-mpas's output");
  if (M.PeakL1UB != R1.PeakL1UB)
    failOn(S1, T,
           "dan-mpas reports a peak of " + Twine(M.PeakL1UB) +
               " but the replay finds " + Twine(R1.PeakL1UB));
  // (--order=input keeps the input order whatever its L0 buffers.)
  if (M.L0Chosen == L0Mode::Single && !M.Fallbacks &&
      C.MPAS.Order != Traversal::Input) {
    VerifyOptions Single;
    Single.L0Single = true;
    fuzz::expectVerifies(S1, T, Single,
                         "dan-mpas's output under its own L0 rule", context(T));
  }

  // The selection on a sample (dan-mpas --sample-above): on a graph of
  // more tasks than a sample holds at least, sampled whatever its size, and
  // on a graph without tasks, sampled by its first operations up to half
  // its nodes, the order must be as legal and the peak as true as the whole
  // selection's.
  if (C.MPAS.L0 == L0Mode::Auto && C.MPAS.Order == Traversal::Auto) {
    auto CheckSampled = [&](size_t Above) {
      SelectOptions Sampled;
      Sampled.SampleAbove = Above;
      std::string Run = "dan-mpas --sample-above=" + std::to_string(Above);
      Graph SS = In;
      MPASStats MS = orFail(selectMPAS(SS, T, C.MPAS, Sampled), In, T, Run);
      ReplayResult RS = checkOutput(SS, T, Run + "'s output");
      if (MS.PeakL1UB != RS.PeakL1UB)
        failOn(SS, T,
               Run + " reports a peak of " + Twine(MS.PeakL1UB) +
                   " but the replay finds " + Twine(RS.PeakL1UB));
    };
    std::optional<TaskSplit> Split = splitTasks(In);
    if (Split && Split->NumTasks > 8)
      CheckSampled(1);
    else if ((!Split || Split->NumTasks < 2) && In.size() > 2)
      CheckSampled(In.size() - 1);
  }

  Graph S2 = S1;
  DLRStats D = orFail(selectDLR(S2, T, C.DLR), S1, T, "dan-dlr");
  ReplayResult R2 = checkOutput(S2, T, "dan-dlr's output");
  if (D.Spills != R2.SpillCount || D.ExtraTraffic != R2.ExtraTraffic)
    failOn(S2, T,
           "dan-dlr reports " + Twine(D.Spills) + " spills and " +
               Twine(D.ExtraTraffic) + " bytes, the replay " +
               Twine(R2.SpillCount) + " and " + Twine(R2.ExtraTraffic));
  if (originalOrder(S2) != originalOrder(S1))
    failOn(S2, T, "dan-dlr reordered the nodes of its input");
  std::string Planned = fuzz::printed(S2);
  Graph S2v = S1;
  orFail(selectDLR(S2v, T, C.DLR, Verified), S1, T, "dan-dlr in one process");
  if (fuzz::printed(S2v) != Planned)
    fail("dan-dlr plans a verified input otherwise", Planned,
         fuzz::printed(S2v));
  Graph S3s = S2, S3v = S2;
  orFail(selectCPE(S3s, T, C.CPE), S2, T, "dan-cpe");
  orFail(selectCPE(S3v, T, C.CPE, Verified), S2, T, "dan-cpe in one process");
  if (fuzz::printed(S3v) != fuzz::printed(S3s))
    fail("dan-cpe refines a verified input otherwise", fuzz::printed(S3s),
         fuzz::printed(S3v));

  Graph S3 = S2;
  CPEStats P = orFail(runCPE(S3, T, C.CPE), S2, T, "dan-cpe");
  ReplayResult R3 = checkOutput(S3, T, "dan-cpe's output", &S2);
  if (P.MakespanBefore != R2.Makespan || P.MakespanAfter != R3.Makespan)
    failOn(S3, T,
           "dan-cpe reports makespans " + Twine(P.MakespanBefore) + " -> " +
               Twine(P.MakespanAfter) + ", the replay " + Twine(R2.Makespan) +
               " -> " + Twine(R3.Makespan));
  // A start from a list schedule of the plan keeps each tier's order of
  // buffer nodes, not their interleaving, so the L1+UB peak in schedule
  // order may change then (docs/CPE.md, "Contract"); each tier's may not.
  bool KeepsL1UB = !P.FromList || !S2.hasMemoryPlan();
  if ((KeepsL1UB && R3.PeakL1UB != R2.PeakL1UB) || R3.TierPeak != R2.TierPeak ||
      R3.ExtraTraffic != R2.ExtraTraffic || R3.SpillCount != R2.SpillCount)
    failOn(S3, T, "dan-cpe changed a peak, the traffic or the spills");
  if (C.CPE.Mode == CPEMode::Refine &&
      (R3.Makespan > R2.Makespan || (P.Moves && R3.Makespan == R2.Makespan)))
    failOn(S3, T,
           "dan-cpe moved " + Twine(P.Moves) + " times, makespan " +
               Twine(R2.Makespan) + " -> " + Twine(R3.Makespan));
  std::string Out = fuzz::printed(S3);
  if (C.CPE.Mode == CPEMode::Freeze && Out != fuzz::printed(S2))
    failOn(S3, T, "dan-cpe --mode=freeze changed the schedule");

  // Only the speed depends on when a retiming switches to the forward walk.
  CPEOptions Other = C.CPE;
  Other.DenseAfter = C.CPE.DenseAfter == 1 ? 256 : 1;
  Graph S3b = S2;
  orFail(runCPE(S3b, T, Other), S2, T, "dan-cpe");
  if (fuzz::printed(S3b) != Out)
    fail("dan-cpe's output depends on --dense-after", Out, fuzz::printed(S3b));
  return Out;
}

std::unique_ptr<Graph> runChecked(const Graph &In, const TargetDesc &T,
                                  Method M) {
  Expected<std::unique_ptr<Graph>> P = runMethod(In, T, M);
  if (!P)
    failOn(In, T,
           "method " + methodName(M) +
               " refuses a graph that verifies: " + toString(P.takeError()));
  checkOutput(**P, T, ("the output of method " + methodName(M)).str());
  return std::move(*P);
}

/// dan-bench on the graph: no cell fails, and each cell's figures are those
/// of the method's own plan. The report and charts are written and dropped.
void checkBench(const Graph &In, const TargetDesc &T,
                ArrayRef<std::unique_ptr<Graph>> Plans) {
  bench::BenchOptions Opts;
  Opts.Methods.assign(allMethods().begin(), allMethods().end());
  Opts.Ablations = true;
  Opts.KeepPlans = true;
  const Graph *Graphs[] = {&In};
  bench::BenchReport Report = bench::runBench(Graphs, T, Opts);
  if (Report.failed() || Report.Workloads.size() != 1)
    failOn(In, T, "dan-bench fails on a graph that every method plans");
  for (const bench::Cell &C : Report.Workloads[0].Cells) {
    if (!C.Result.ok())
      failOn(In, T,
             "dan-bench's cell " + methodName(C.M) + ": " + C.Result.Error);
    size_t K = find(allMethods(), C.M) - allMethods().begin();
    if (C.Result.Values != metricsOf(replay(*Plans[K], T)))
      failOn(In, T,
             "dan-bench's figures of " + methodName(C.M) +
                 " differ from the method's own plan");
  }
  for (ReportFormat F :
       {ReportFormat::Text, ReportFormat::JSON, ReportFormat::Markdown})
    bench::printReport(Report, {F, false}, nulls());
  bench::drawCharts(Report);
}

} // namespace

extern "C" int LLVMFuzzerTestOneInput(const uint8_t *Data, size_t Size) {
  fuzz::ByteReader R(ArrayRef(Data, Size));
  // What the target does besides the stages and the methods.
  uint8_t Extra = R.byte();
  fuzz::FuzzCase C = fuzz::generateCase(R);
  if (!C.G)
    return -1; // dan-gen refused the shape: nothing to keep
  Current = &C;
  const TargetDesc &T = C.Target;
  const Graph &In = *C.G;
  // To replay a finding with the tools: the case as the tools take it.
  if (getenv("DAN_FUZZ_PRINT_CASE"))
    errs() << context(T) << fuzz::printed(In);
  fuzz::checkRoundTrip(In);
  checkOutput(In, T, "the generated graph");
  SourceMgr SM;
  fuzz::quietDiagnostics(SM);
  fuzz::checkVerifyAndReplay(In, SM, T);

  std::string Staged = runStages(C);
  if (runStages(C) != Staged)
    fail("the stages give different output on the same input", Staged);

  std::vector<std::unique_ptr<Graph>> Plans;
  for (Method M : allMethods())
    Plans.push_back(runChecked(In, T, M));
  size_t Again = Extra % allMethods().size();
  if (fuzz::printed(*runChecked(In, T, allMethods()[Again])) !=
      fuzz::printed(*Plans[Again]))
    failOn(In, T,
           "method " + methodName(allMethods()[Again]) +
               " gives different output on the same input");
  // dan-bench runs every method again and its ablations: on small graphs
  // only, so that an input stays well within the 10-second limit.
  if ((Extra >> 4) % 4 == 3 && In.size() <= 500)
    checkBench(In, T, Plans);
  Current = nullptr;
  return 0;
}
