//===- SelectTest.cpp - The auto selections of lib/Select -----------------===//
//
// The selections give the same graph and statistics for any number of
// threads, they keep what the single-setting pass makes under the setting
// they report, and the passes refuse 'auto'.
//
//===----------------------------------------------------------------------===//

#include "dan/Select/Select.h"
#include "TestUtil.h"
#include "dan/Gen/Generate.h"
#include "dan/IR/Link.h"
#include "dan/IR/Printer.h"
#include "dan/Target/Davinci/Davinci.h"
#include "gtest/gtest.h"

using namespace dan;
using namespace dan::test;

namespace {

/// Generated graphs of each family under a target small enough to spill.
std::vector<std::unique_ptr<Graph>> workloads(const TargetDesc &T) {
  return generatedFamilies(T, 4, 2, 7);
}

TargetDesc tightTarget() {
  TargetDesc T = TargetDesc::davinci();
  T.setCapacity(davinci::L1, 4096);
  T.setCapacity(davinci::UB, 1024);
  return T;
}

std::string mpasStats(const MPASStats &S) {
  std::string Out =
      std::to_string(S.PeakL1UB) + " " + l0ModeName(S.L0Chosen).str() + " " +
      traversalName(S.OrderChosen).str() + " " + std::to_string(S.GroupChosen);
  for (const MPASStats::L0Trial &Tr : S.L0Tried)
    Out += " [" + std::to_string(Tr.Traffic) + "," +
           std::to_string(Tr.Makespan) + "," + std::to_string(Tr.Planned) +
           "," + std::to_string(Tr.Placed) + "]";
  for (auto [W, Peak] : S.Tried)
    Out += " " + weightsName(W).str() + ":" + std::to_string(Peak);
  return Out;
}

} // namespace

TEST(SelectTest, MPASSameForAnyThreads) {
  TargetDesc T = tightTarget();
  for (const std::unique_ptr<Graph> &In : workloads(T))
    for (MPASWeights W : {MPASWeights::Auto, MPASWeights::Balanced}) {
      SCOPED_TRACE(In->Name + " weights " + weightsName(W).str());
      MPASOptions Opts;
      Opts.Weights = W;
      Graph One = *In, Four = *In;
      llvm::Expected<MPASStats> S1 = selectMPAS(One, T, Opts, {1});
      llvm::Expected<MPASStats> S4 = selectMPAS(Four, T, Opts, {4});
      ASSERT_TRUE(bool(S1)) << llvm::toString(S1.takeError());
      ASSERT_TRUE(bool(S4)) << llvm::toString(S4.takeError());
      EXPECT_EQ(print(One), print(Four));
      EXPECT_EQ(mpasStats(*S1), mpasStats(*S4));
      EXPECT_GE(S1->L0Tried.size(), 2u);
      // Leaving a sole order unplanned changes no choice.
      Graph Lazy = *In;
      SelectOptions NoSole;
      NoSole.MeasureSoleOrder = false;
      llvm::Expected<MPASStats> SL = selectMPAS(Lazy, T, Opts, NoSole);
      ASSERT_TRUE(bool(SL)) << llvm::toString(SL.takeError());
      EXPECT_EQ(print(One), print(Lazy));
      EXPECT_EQ(S1->L0Chosen, SL->L0Chosen);
      EXPECT_EQ(S1->OrderChosen, SL->OrderChosen);
    }
}

TEST(SelectTest, MPASKeepsWhatTheChosenSettingMakes) {
  // The kept order is the one runMPAS makes under the setting reported.
  TargetDesc T = tightTarget();
  for (const std::unique_ptr<Graph> &In : workloads(T)) {
    SCOPED_TRACE(In->Name);
    Graph Searched = *In;
    llvm::Expected<MPASStats> S = selectMPAS(Searched, T, MPASOptions(), {2});
    ASSERT_TRUE(bool(S)) << llvm::toString(S.takeError());
    MPASOptions One;
    One.L0 = S->L0Chosen;
    One.Order = S->OrderChosen;
    One.Group = S->GroupChosen;
    One.Place = S->Placed;
    One.Weights = S->Chosen ? *S->Chosen : MPASWeights::Balanced;
    Graph Direct = *In;
    llvm::Expected<MPASStats> D = runMPAS(Direct, T, One);
    ASSERT_TRUE(bool(D)) << llvm::toString(D.takeError());
    EXPECT_EQ(print(Searched), print(Direct));
  }
}

TEST(SelectTest, DLRSameForAnyThreads) {
  TargetDesc T = tightTarget();
  for (const std::unique_ptr<Graph> &In : workloads(T)) {
    SCOPED_TRACE(In->Name);
    Graph Ordered = *In;
    ASSERT_TRUE(bool(selectMPAS(Ordered, T, MPASOptions())));
    DLROptions Opts;
    Opts.Fit = FitPolicy::Auto;
    Opts.AutoHorizon = true;
    Graph One = Ordered, Four = Ordered;
    llvm::Expected<DLRStats> S1 = selectDLR(One, T, Opts, {1});
    llvm::Expected<DLRStats> S4 = selectDLR(Four, T, Opts, {4});
    ASSERT_TRUE(bool(S1)) << llvm::toString(S1.takeError());
    ASSERT_TRUE(bool(S4)) << llvm::toString(S4.takeError());
    EXPECT_EQ(print(One), print(Four));
    EXPECT_EQ(S1->HorizonTried.size(), 12u);
    EXPECT_EQ(S1->Fit, S4->Fit);
    EXPECT_EQ(S1->Horizon, S4->Horizon);
    // The kept plan is the one runDLR makes under the fit and horizon kept.
    DLROptions Kept = Opts;
    Kept.Fit = S1->Fit;
    Kept.Horizon = S1->Horizon;
    Kept.AutoHorizon = false;
    Graph Direct = Ordered;
    ASSERT_TRUE(bool(runDLR(Direct, T, Kept)));
    EXPECT_EQ(print(One), print(Direct));
  }
}

TEST(SelectTest, PassesRefuseAuto) {
  TargetDesc T = TargetDesc::davinci();
  std::vector<std::unique_ptr<Graph>> Gs = workloads(T);
  ASSERT_FALSE(Gs.empty());
  Graph G = *Gs.front();
  std::string Before = print(G);
  llvm::Expected<MPASStats> M = runMPAS(G, T, MPASOptions());
  ASSERT_FALSE(bool(M));
  EXPECT_NE(llvm::toString(M.takeError()).find("resolves 'auto'"),
            std::string::npos);
  DLROptions D;
  D.Fit = FitPolicy::Auto;
  llvm::Expected<DLRStats> P = runDLR(G, T, D);
  ASSERT_FALSE(bool(P));
  EXPECT_NE(llvm::toString(P.takeError()).find("resolves 'auto'"),
            std::string::npos);
  // The defaults are dan-dlr's, --horizon=auto: a selection as well.
  llvm::Expected<DLRStats> Q = runDLR(G, T, DLROptions());
  ASSERT_FALSE(bool(Q));
  llvm::consumeError(Q.takeError());
  EXPECT_EQ(print(G), Before);
}

TEST(SelectTest, SameUnderSingleMeansTheSameOrder) {
  // A list-scheduler run under --l0=capacity that reports SameUnderSingle
  // gives the order and statistics of the same setting under --l0=single,
  // which the search then takes instead of running it. Both answers occur.
  unsigned Same = 0, Differs = 0;
  for (const TargetDesc &T : {TargetDesc::davinci(), tightTarget()})
    for (uint64_t Seed : {3, 7, 11})
      for (unsigned Tiles : {2u, 3u, 5u})
        for (const std::unique_ptr<Graph> &G :
             generatedFamilies(T, Tiles, 2, Seed))
          for (Traversal O : {Traversal::Free, Traversal::Tasks})
            for (MPASWeights W :
                 {MPASWeights::Balanced, MPASWeights::MemoryFirst,
                  MPASWeights::CriticalityFirst, MPASWeights::InputOrder}) {
              SCOPED_TRACE(G->Name + " " + traversalName(O).str() + " " +
                           weightsName(W).str());
              MPASOptions Opts;
              Opts.Order = O;
              Opts.Weights = W;
              Opts.L0 = L0Mode::Capacity;
              std::vector<NodeIdx> ByCapacity, BySingle;
              llvm::Expected<MPASStats> C = orderMPAS(*G, T, Opts, ByCapacity);
              ASSERT_TRUE(bool(C)) << llvm::toString(C.takeError());
              Opts.L0 = L0Mode::Single;
              llvm::Expected<MPASStats> S = orderMPAS(*G, T, Opts, BySingle);
              ASSERT_TRUE(bool(S)) << llvm::toString(S.takeError());
              EXPECT_FALSE(S->SameUnderSingle);
              if (!C->SameUnderSingle) {
                ++Differs;
                continue;
              }
              ++Same;
              EXPECT_EQ(ByCapacity, BySingle);
              EXPECT_EQ(C->PeakL1UB, S->PeakL1UB);
              EXPECT_EQ(C->Fallbacks, S->Fallbacks);
            }
  EXPECT_GT(Same, 0u);
  EXPECT_GT(Differs, 0u);
}

TEST(SelectTest, TheOrderBeforePlacementIsTheUnplacedOrder) {
  // The selection plans the best candidates' orders without the placement
  // step from the order each run had before it, instead of ordering again
  // with --place=false: the two are the same, and so are their peaks.
  TargetDesc T = tightTarget();
  for (const std::unique_ptr<Graph> &G : workloads(T))
    for (L0Mode M : {L0Mode::Capacity, L0Mode::Single})
      for (Traversal O : {Traversal::Free, Traversal::Tasks, Traversal::Window,
                          Traversal::Groups, Traversal::Staged}) {
        if (O == Traversal::Window && M != L0Mode::Capacity)
          continue;
        SCOPED_TRACE(G->Name + " " + l0ModeName(M).str() + " " +
                     traversalName(O).str());
        MPASOptions Opts;
        Opts.L0 = M;
        Opts.Order = O;
        Opts.Weights = MPASWeights::Balanced;
        std::vector<NodeIdx> Placed, Before, Unplaced;
        llvm::Expected<MPASStats> P =
            orderMPAS(*G, T, Opts, Placed, nullptr, &Before);
        ASSERT_TRUE(bool(P)) << llvm::toString(P.takeError());
        Opts.Place = false;
        llvm::Expected<MPASStats> U = orderMPAS(*G, T, Opts, Unplaced);
        ASSERT_TRUE(bool(U)) << llvm::toString(U.takeError());
        EXPECT_EQ(Before, Unplaced);
        EXPECT_EQ(P->UnplacedPeakL1UB, U->PeakL1UB);
        EXPECT_TRUE(P->Placed);
        EXPECT_FALSE(U->Placed);
      }
}

TEST(SelectTest, AlikePartsChangeNoByte) {
  // Kernels alike up to their ids (copies side by side, in series,
  // streamed; a model's layers) take the first's result renamed: the same
  // bytes at every stage as running each part.
  TargetDesc T = tightTarget();
  std::vector<std::unique_ptr<Graph>> Graphs;
  for (const std::unique_ptr<Graph> &Kernel : workloads(T))
    for (LinkJoin J :
         {LinkJoin::Parallel, LinkJoin::Series, LinkJoin::Stream}) {
      llvm::Expected<std::unique_ptr<Graph>> L = linkGraphs(
          {Kernel.get(), Kernel.get(), Kernel.get()}, Kernel->Name, J);
      ASSERT_TRUE(bool(L)) << llvm::toString(L.takeError());
      Graphs.push_back(std::move(*L));
    }
  GenOptions Model;
  Model.Family = GenFamily::Transformer;
  Model.Model.Layers = 3;
  llvm::Expected<std::unique_ptr<Graph>> M = generateGraph(Model, T);
  ASSERT_TRUE(bool(M)) << llvm::toString(M.takeError());
  Graphs.push_back(std::move(*M));
  SelectOptions Reuse, NoReuse;
  NoReuse.ReuseAlikeParts = false;
  size_t Alike = 0;
  for (const std::unique_ptr<Graph> &In : Graphs) {
    SCOPED_TRACE(In->Name);
    Graph A = *In, B = *In;
    llvm::Expected<MPASStats> MA = selectMPAS(A, T, MPASOptions(), Reuse);
    ASSERT_TRUE(bool(MA)) << llvm::toString(MA.takeError());
    ASSERT_TRUE(bool(selectMPAS(B, T, MPASOptions(), NoReuse)));
    EXPECT_EQ(print(A), print(B));
    DLROptions Auto;
    Auto.Fit = FitPolicy::Auto;
    Auto.AutoHorizon = true;
    llvm::Expected<DLRStats> DA = selectDLR(A, T, Auto, Reuse);
    ASSERT_TRUE(bool(DA)) << llvm::toString(DA.takeError());
    ASSERT_TRUE(bool(selectDLR(B, T, Auto, NoReuse)));
    EXPECT_EQ(print(A), print(B));
    llvm::Expected<CPEStats> CA = selectCPE(A, T, CPEOptions(), Reuse);
    ASSERT_TRUE(bool(CA)) << llvm::toString(CA.takeError());
    ASSERT_TRUE(bool(selectCPE(B, T, CPEOptions(), NoReuse)));
    EXPECT_EQ(print(A), print(B));
    Alike += MA->AlikeParts + DA->AlikeParts + CA->AlikeParts;
  }
  // Most parts were renamed, not run (a count, not a bound: a test that
  // compared runs with no part alike could not fail).
  EXPECT_GT(Alike, Graphs.size() * 2);
}
