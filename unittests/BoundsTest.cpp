#include "dan/Analysis/Bounds.h"
#include "TestUtil.h"
#include "dan/Analysis/Replay.h"
#include "dan/Target/Davinci/Davinci.h"
#include "dan/Transforms/DLR.h"
#include <gtest/gtest.h>
#include <map>
#include <numeric>
#include <random>

using namespace dan;
using namespace dan::test;

namespace {

/// A small random graph: Ops operations on a pool of buffers (L1, UB, and
/// some L0A), each buffer used by at least one operation, with an ALLOC
/// before and a FREE after all its users, and random edges between
/// operations (from lower to higher index).
std::string randomGraph(std::mt19937 &Rng, unsigned Ops, unsigned Bufs,
                        unsigned SizeUnit = 16) {
  std::uniform_int_distribution<unsigned> Pick(0, 99);
  static const char *Tiers[] = {"L1", "UB", "L0A"};
  std::vector<std::vector<unsigned>> Users(Bufs);
  std::vector<std::vector<unsigned>> BufsOf(Ops);
  for (unsigned O = 0; O != Ops; ++O) {
    unsigned Count = 1 + Pick(Rng) % 3;
    for (unsigned K = 0; K != Count; ++K) {
      unsigned B = Pick(Rng) % Bufs;
      if (std::find(BufsOf[O].begin(), BufsOf[O].end(), B) != BufsOf[O].end())
        continue;
      BufsOf[O].push_back(B);
      Users[B].push_back(O);
    }
  }
  // Every buffer has a user (as in the traces).
  for (unsigned B = 0; B != Bufs; ++B)
    if (Users[B].empty()) {
      unsigned O = Pick(Rng) % Ops;
      BufsOf[O].push_back(B);
      Users[B].push_back(O);
    }
  // Node ids: operation O is nO; buffer B's ALLOC and FREE follow.
  std::string Text = "graph @g {\n";
  std::vector<unsigned> Size(Bufs), Tier(Bufs);
  for (unsigned B = 0; B != Bufs; ++B) {
    Size[B] =
        SizeUnit == 1 ? 1 + Pick(Rng) % 3 : SizeUnit * (1 + Pick(Rng) % 8);
    Tier[B] = Pick(Rng) % 5 == 0 ? 2 : Pick(Rng) % 2;
    Text += "  n" + std::to_string(Ops + 2 * B) + " = alloc b" +
            std::to_string(B) + " " + Tiers[Tier[B]] + " " +
            std::to_string(Size[B]) + "\n";
  }
  for (unsigned O = 0; O != Ops; ++O) {
    Text += "  n" + std::to_string(O) + " = OP VECTOR " +
            std::to_string(1 + Pick(Rng) % 9) + " (";
    for (size_t K = 0; K != BufsOf[O].size(); ++K)
      Text += (K ? ", b" : "b") + std::to_string(BufsOf[O][K]);
    Text += ")";
    std::vector<std::string> After;
    for (unsigned P = 0; P != O; ++P)
      if (Pick(Rng) < 30)
        After.push_back("n" + std::to_string(P));
    for (unsigned B : BufsOf[O])
      After.push_back("n" + std::to_string(Ops + 2 * B));
    std::sort(After.begin(), After.end());
    After.erase(std::unique(After.begin(), After.end()), After.end());
    for (size_t K = 0; K != After.size(); ++K)
      Text += (K ? ", " : " after ") + After[K];
    Text += "\n";
  }
  for (unsigned B = 0; B != Bufs; ++B) {
    Text += "  n" + std::to_string(Ops + 2 * B + 1) + " = free b" +
            std::to_string(B) + " " + Tiers[Tier[B]] + " " +
            std::to_string(Size[B]) + " after n" + std::to_string(Ops + 2 * B);
    for (unsigned U : Users[B])
      Text += ", n" + std::to_string(U);
    Text += "\n";
  }
  return Text + "}\n";
}

/// The least peak L1+UB over every order of all of \p G's nodes that keeps
/// \p Rule (the replay's count), by dynamic programming over the sets of
/// nodes done; the order it found is left in \p Best. UINT64_MAX when no
/// order keeps the rule.
uint64_t leastPeak(const Graph &G, const TargetDesc &T, L0Rule Rule,
                   std::vector<NodeIdx> &Best) {
  size_t V = G.size();
  std::vector<uint32_t> PredMask(V, 0);
  for (NodeIdx I = 0; I != V; ++I)
    for (NodeIdx P : G[I].Preds)
      PredMask[I] |= 1u << P;
  std::vector<uint64_t> Least(size_t(1) << V, UINT64_MAX);
  std::vector<NodeIdx> Last(size_t(1) << V, 0);
  // What a node adds to the live L1+UB bytes and to its L0 tier's bytes
  // and buffers (a FREE takes away).
  std::vector<int64_t> Delta(V, 0), L0Delta(V, 0);
  std::vector<int> L0Tier(V, -1);
  for (NodeIdx I = 0; I != V; ++I) {
    const Node &N = G[I];
    if (N.Kind != NodeKind::Alloc && N.Kind != NodeKind::Free)
      continue;
    int64_t Sign = N.Kind == NodeKind::Alloc ? 1 : -1;
    if (T.countsInPeak(N.BufTier))
      Delta[I] = Sign * int64_t(N.Size);
    if (T.isL0(N.BufTier)) {
      L0Tier[I] = int(N.BufTier);
      L0Delta[I] = Sign * int64_t(N.Size);
    }
  }
  Least[0] = 0;
  for (uint32_t S = 0; S != (1u << V); ++S) {
    if (Least[S] == UINT64_MAX)
      continue;
    int64_t Live = 0;
    std::array<int64_t, MaxTiers> L0Bytes{}, L0Count{};
    for (NodeIdx J = 0; J != V; ++J)
      if (S >> J & 1) {
        Live += Delta[J];
        if (L0Tier[J] >= 0) {
          L0Bytes[L0Tier[J]] += L0Delta[J];
          L0Count[L0Tier[J]] += L0Delta[J] > 0 ? 1 : -1;
        }
      }
    for (NodeIdx I = 0; I != V; ++I) {
      if ((S >> I & 1) || (PredMask[I] & ~S))
        continue;
      uint32_t Next = S | 1u << I;
      if (L0Tier[I] >= 0 && L0Delta[I] > 0) {
        unsigned TI = L0Tier[I];
        if (Rule == L0Rule::Single && L0Count[TI] + 1 > 1)
          continue;
        if (Rule == L0Rule::Capacity && uint64_t(L0Bytes[TI] + L0Delta[I]) >
                                            T.capacity(static_cast<Tier>(TI)))
          continue;
      }
      uint64_t Peak = std::max<uint64_t>(Least[S], uint64_t(Live + Delta[I]));
      if (Peak < Least[Next]) {
        Least[Next] = Peak;
        Last[Next] = I;
      }
    }
  }
  uint32_t All = (1u << V) - 1;
  Best.clear();
  if (Least[All] == UINT64_MAX)
    return UINT64_MAX;
  for (uint32_t S = All; S; S &= ~(1u << Last[S]))
    Best.insert(Best.begin(), Last[S]);
  return Least[All];
}

} // namespace

// On small random graphs, every peak bound is at most the least peak of
// every schedule (found by exhaustive search and confirmed by the replay),
// and the exact subproblem over all operations is that least peak.
TEST(BoundsTest, PeakBoundsNeverExceedTheOptimum) {
  std::mt19937 Rng(7);
  TargetDesc T = TargetDesc::davinci();
  unsigned Checked = 0, Tight = 0;
  for (unsigned Case = 0; Case != 300; ++Case) {
    unsigned Ops = 2 + Case % 5, Bufs = 2 + Case % 4;
    std::string Text = randomGraph(Rng, Ops, Bufs);
    llvm::SourceMgr SM;
    std::string Diags;
    std::unique_ptr<Graph> G = parse(SM, Text, Diags);
    ASSERT_TRUE(G) << Diags << Text;
    ASSERT_LE(G->size(), 20u);
    for (L0Rule Rule : {L0Rule::Ignore, L0Rule::Single, L0Rule::Capacity}) {
      std::vector<NodeIdx> Order;
      uint64_t Least = leastPeak(*G, T, Rule, Order);
      if (Least == UINT64_MAX)
        continue;
      Graph Copy = *G;
      Copy.Order = Order;
      ReplayResult R = replay(Copy, T);
      ASSERT_EQ(R.PeakL1UB, Least) << Text;
      if (Rule == L0Rule::Single) {
        ASSERT_TRUE(R.L0Single) << Text;
      }
      PeakBoundOptions Opts;
      Opts.L0 = Rule;
      Opts.WindowOps = 64;
      Opts.StatesPerWindow = 1000000;
      llvm::Expected<std::vector<LowerBound>> Bounds =
          peakLowerBounds(*G, T, Opts);
      ASSERT_TRUE(bool(Bounds)) << llvm::toString(Bounds.takeError());
      for (const LowerBound &B : *Bounds)
        EXPECT_LE(B.Value, Least) << B.Method << "\n" << Text;
      ASSERT_EQ(Bounds->size(), 3u);
      EXPECT_EQ(Bounds->back().Value, Least) << Text;
      ++Checked;
      Tight += bestOf(*Bounds) == Least;
    }
  }
  EXPECT_GT(Checked, 600u);
  EXPECT_EQ(Tight, Checked);
}

// The makespan bounds hold for every order: checked against the replay of
// random topological orders of small random graphs.
TEST(BoundsTest, MakespanBoundsNeverExceedAReplay) {
  std::mt19937 Rng(11);
  TargetDesc T = TargetDesc::davinci();
  for (unsigned Case = 0; Case != 100; ++Case) {
    std::string Text = randomGraph(Rng, 2 + Case % 6, 2 + Case % 4);
    llvm::SourceMgr SM;
    std::string Diags;
    std::unique_ptr<Graph> G = parse(SM, Text, Diags);
    ASSERT_TRUE(G) << Diags;
    std::vector<LowerBound> Bounds = makespanLowerBounds(*G, T);
    ASSERT_EQ(Bounds.size(), 2u);
    for (unsigned Sample = 0; Sample != 20; ++Sample) {
      // A random topological order.
      std::vector<uint32_t> Deg(G->size());
      for (NodeIdx I = 0; I != G->size(); ++I)
        Deg[I] = (*G)[I].Preds.size();
      std::vector<NodeIdx> Ready, Order;
      for (NodeIdx I = 0; I != G->size(); ++I)
        if (!Deg[I])
          Ready.push_back(I);
      while (!Ready.empty()) {
        size_t K = Rng() % Ready.size();
        NodeIdx I = Ready[K];
        Ready.erase(Ready.begin() + K);
        Order.push_back(I);
        for (NodeIdx S = 0; S != G->size(); ++S)
          if (llvm::is_contained((*G)[S].Preds, I) && --Deg[S] == 0)
            Ready.push_back(S);
      }
      ASSERT_EQ(Order.size(), G->size());
      Graph Copy = *G;
      Copy.Order = Order;
      ReplayResult R = replay(Copy, T);
      for (const LowerBound &B : Bounds)
        EXPECT_LE(B.Value, R.Makespan) << B.Method << "\n" << Text;
      EXPECT_EQ(Bounds.back().Value, R.CriticalPathLB);
    }
  }
}

TEST(BoundsTest, ACycleIsAnError) {
  llvm::SourceMgr SM;
  std::string Diags;
  std::unique_ptr<Graph> G = parse(SM,
                                   "graph @g {\n"
                                   "  n0 = A VECTOR 1 () after n1\n"
                                   "  n1 = B VECTOR 1 () after n0\n}\n",
                                   Diags);
  ASSERT_TRUE(G) << Diags;
  llvm::Expected<std::vector<LowerBound>> B =
      peakLowerBounds(*G, TargetDesc::davinci());
  ASSERT_FALSE(bool(B));
  EXPECT_NE(llvm::toString(B.takeError()).find("have a cycle"),
            std::string::npos);
}

// The traffic bound of a fixed order is the least number of bytes that must
// be out of each tier (priced at 2 per byte: no buffer is DDR-backed here),
// checked against an exhaustive search over how many bytes of each stretch
// between two events of a buffer are out, on tiny buffers and tiers.
TEST(BoundsTest, TrafficBoundIsTheLeastCoverOfTheOrder) {
  std::mt19937 Rng(5);
  TargetDesc T = TargetDesc::davinci();
  T.setCapacity(davinci::L1, 3);
  T.setCapacity(davinci::UB, 3);
  unsigned Positive = 0;
  for (unsigned Case = 0; Case != 200; ++Case) {
    std::string Text = randomGraph(Rng, 2 + Case % 4, 2 + Case % 3, 1);
    llvm::SourceMgr SM;
    std::string Diags;
    std::unique_ptr<Graph> G = parse(SM, Text, Diags);
    ASSERT_TRUE(G) << Diags;
    // Events of each buffer at their positions in the order.
    std::map<uint64_t, std::vector<uint32_t>> Events;
    std::map<uint64_t, std::pair<Tier, uint64_t>> Info;
    for (uint32_t P = 0; P != G->Order.size(); ++P) {
      const Node &N = (*G)[G->Order[P]];
      if (N.Kind == NodeKind::Op)
        for (uint64_t B : N.Bufs)
          Events[B].push_back(P);
      else
        Events[N.Buf].push_back(P);
      if (N.Kind == NodeKind::Alloc)
        Info[N.Buf] = {N.BufTier, N.Size};
    }
    uint64_t Expected = 0;
    for (Tier Tr : {davinci::L1, davinci::UB, davinci::L0A}) {
      std::vector<std::array<uint64_t, 3>> Stretches; // first, last, size
      std::vector<uint64_t> Live(G->Order.size(), 0);
      for (auto &[B, List] : Events) {
        if (Info[B].first != Tr)
          continue;
        std::sort(List.begin(), List.end());
        for (uint32_t P = List.front(); P <= List.back(); ++P)
          Live[P] += Info[B].second;
        for (size_t K = 0; K + 1 < List.size(); ++K)
          if (List[K] + 1 < List[K + 1])
            Stretches.push_back({List[K] + 1, List[K + 1] - 1, Info[B].second});
      }
      // Every way of taking 0 to size bytes of each stretch out.
      uint64_t Least = UINT64_MAX;
      std::vector<uint64_t> Out(Stretches.size(), 0);
      for (;;) {
        bool Fits = true;
        for (uint32_t P = 0; P != Live.size() && Fits; ++P) {
          uint64_t Away = 0;
          for (size_t K = 0; K != Stretches.size(); ++K)
            if (Stretches[K][0] <= P && P <= Stretches[K][1])
              Away += Out[K];
          Fits = Live[P] <= T.capacity(Tr) + Away;
        }
        if (Fits)
          Least = std::min<uint64_t>(
              Least, std::accumulate(Out.begin(), Out.end(), uint64_t(0)));
        size_t K = 0;
        while (K != Out.size() && Out[K] == Stretches[K][2])
          Out[K++] = 0;
        if (K == Out.size())
          break;
        ++Out[K];
      }
      if (Least == UINT64_MAX) // no plan of this order fits: no bound to check
        goto NextCase;
      Expected += 2 * Least;
    }
    EXPECT_EQ(trafficLowerBound(*G, T).Value, Expected) << Text;
    Positive += Expected > 0;
  NextCase:;
  }
  EXPECT_GT(Positive, 20u);
}

// No plan of stage 2 moves less than the traffic bound of its order: the
// generated families under a shrunk L1 and UB, planned by dan-dlr's pass.
TEST(BoundsTest, TrafficBoundNeverExceedsAPlan) {
  TargetDesc T = TargetDesc::davinci();
  T.setCapacity(davinci::L1, 1024);
  T.setCapacity(davinci::UB, 512);
  unsigned Positive = 0;
  for (uint64_t Seed : {1, 2, 3})
    for (std::unique_ptr<Graph> &G : generatedFamilies(T, 3, 4, Seed)) {
      LowerBound B = trafficLowerBound(*G, T);
      Graph Plan = *G;
      llvm::Expected<DLRStats> S = runDLR(Plan, T, DLROptions::oneSetting());
      ASSERT_TRUE(bool(S)) << llvm::toString(S.takeError());
      ReplayResult R = replay(Plan, T);
      EXPECT_LE(B.Value, R.ExtraTraffic) << G->Name << ": " << B.Where;
      // Nor does it finish before the busiest pipe with those transfers.
      OrderBounds O = orderLowerBounds(*G, T);
      EXPECT_EQ(O.Traffic.Value, B.Value) << G->Name;
      const LowerBound &M = O.Makespan;
      EXPECT_LE(M.Value, R.Makespan) << G->Name << ": " << M.Where;
      // The plan's own order gives the same bound: spills are left out.
      EXPECT_EQ(trafficLowerBound(Plan, T).Value, B.Value) << G->Name;
      Positive += B.Value > 0;
    }
  EXPECT_GT(Positive, 3u);
}

// The task grid bound never exceeds the least peak under the L0 rule, which
// the exact subproblem over all operations finds on small matmul grids.
TEST(BoundsTest, TaskGridNeverExceedsTheOptimum) {
  TargetDesc T = TargetDesc::davinci();
  unsigned Grids = 0;
  for (auto [M, N] : {std::pair(3u, 3u), std::pair(3u, 4u), std::pair(4u, 3u)})
    for (uint64_t Seed : {1, 2}) {
      GenOptions Opts;
      Opts.Family = GenFamily::Matmul;
      Opts.Matmul.MTiles = M;
      Opts.Matmul.NTiles = N;
      Opts.Matmul.KTiles = 1;
      Opts.JitterPercent = 20;
      Opts.Seed = Seed;
      llvm::Expected<std::unique_ptr<Graph>> G = generateGraph(Opts, T);
      ASSERT_TRUE(bool(G)) << llvm::toString(G.takeError());
      PeakBoundOptions B;
      B.WindowOps = 64;
      B.StatesPerWindow = 2000000;
      llvm::Expected<std::vector<LowerBound>> Bounds =
          peakLowerBounds(**G, T, B);
      ASSERT_TRUE(bool(Bounds)) << llvm::toString(Bounds.takeError());
      const LowerBound *Exact = nullptr, *Grid = nullptr;
      for (const LowerBound &L : *Bounds) {
        if (L.Method == "exact subproblem")
          Exact = &L;
        if (L.Method == "task grid")
          Grid = &L;
      }
      ASSERT_TRUE(Exact && Grid) << (*G)->Name;
      // The whole graph is one window, solved to the end.
      ASSERT_NE(Exact->Where.find(", optimal"), std::string::npos)
          << Exact->Where;
      EXPECT_LE(Grid->Value, Exact->Value) << (*G)->Name;
      ++Grids;
    }
  EXPECT_EQ(Grids, 6u);
}

// Above its budget the must-be-live method says so and proves nothing.
TEST(BoundsTest, MustBeLiveOverBudgetSaysSo) {
  llvm::SourceMgr SM;
  std::string Diags;
  std::unique_ptr<Graph> G = parse(SM, SpillExample, Diags);
  ASSERT_TRUE(G) << Diags;
  PeakBoundOptions Opts;
  Opts.MustLiveWords = 1;
  llvm::Expected<std::vector<LowerBound>> B =
      peakLowerBounds(*G, TargetDesc::davinci(), Opts);
  ASSERT_TRUE(bool(B)) << llvm::toString(B.takeError());
  ASSERT_GE(B->size(), 2u);
  EXPECT_EQ((*B)[1].Method, "must be live");
  EXPECT_EQ((*B)[1].Value, 0u);
  EXPECT_NE((*B)[1].Where.find("not computed"), std::string::npos);
  Opts.MustLiveWords = PeakBoundOptions().MustLiveWords;
  B = peakLowerBounds(*G, TargetDesc::davinci(), Opts);
  ASSERT_TRUE(bool(B));
  EXPECT_EQ((*B)[1].Value, 1024u);
}
