#include "dan/Analysis/Verifier.h"
#include "TestUtil.h"
#include <algorithm>
#include <gtest/gtest.h>
#include <random>

using namespace dan;
using namespace dan::test;

namespace {
struct Result {
  unsigned Errors = 0;
  std::vector<std::string> Messages;
};

Result verify(const char *Text, VerifyOptions Opts = {}) {
  llvm::SourceMgr SM;
  std::string Diags;
  auto G = parse(SM, Text, Diags);
  EXPECT_TRUE(G) << Diags;
  Result R;
  if (!G)
    return R;
  R.Errors = verifyGraph(
      *G, TargetDesc::davinci(), Opts,
      [&](llvm::SMLoc, llvm::SourceMgr::DiagKind Kind, const llvm::Twine &Msg) {
        if (Kind == llvm::SourceMgr::DK_Error)
          R.Messages.push_back(Msg.str());
      });
  return R;
}
} // namespace

TEST(VerifierTest, AcceptsAValidGraph) {
  Result R = verify(R"(graph @g {
    n0 = alloc b0 UB 64
    n1 = COPY_IN MTE2 80 (b0) after n0
    n2 = free b0 UB 64 after n1
  })");
  EXPECT_EQ(R.Errors, 0u);
}

TEST(VerifierTest, ReportsACycleOnce) {
  Result R = verify(R"(graph @g {
    n0 = X VECTOR 1 () after n2
    n1 = X VECTOR 1 () after n0
    n2 = X VECTOR 1 () after n1
  })");
  ASSERT_EQ(R.Errors, 1u);
  EXPECT_EQ(R.Messages[0], "the edges form a cycle: n0 -> n1 -> n2 -> n0");
}

TEST(VerifierTest, ErrorLimitStopsTheReport) {
  std::string Text = "graph @g {\n";
  for (int I = 0; I != 50; ++I)
    Text += "n" + std::to_string(I) + " = X VECTOR 1 (b" + std::to_string(I) +
            ")\n";
  Text += "}";
  VerifyOptions Opts;
  Opts.ErrorLimit = 5;
  Result R = verify(Text.c_str(), Opts);
  EXPECT_EQ(R.Errors, 5u);
  Opts.ErrorLimit = 0;
  EXPECT_EQ(verify(Text.c_str(), Opts).Errors, 50u);
}

TEST(VerifierTest, AgainstKeepsThePlan) {
  const char *Stage2 = R"(graph @g {
    n0 = alloc b0 UB 64 at 0
    n1 = free b0 UB 64 after n0
    n2 = alloc b1 UB 64 at 0 reuse n1
    n3 = free b1 UB 64 after n2
  })";
  llvm::SourceMgr SM;
  std::string Diags;
  auto S2 = parse(SM, Stage2, Diags);
  ASSERT_TRUE(S2) << Diags;
  VerifyOptions Opts;
  Opts.Against = S2.get();
  EXPECT_EQ(verify(Stage2, Opts).Errors, 0u);
  Result Moved = verify(R"(graph @g {
    n0 = alloc b0 UB 64 at 64
    n1 = free b0 UB 64 after n0
    n2 = alloc b1 UB 64 at 0
    n3 = free b1 UB 64 after n2
  })",
                        Opts);
  ASSERT_GE(Moved.Errors, 1u);
  EXPECT_NE(Moved.Messages[0].find("stage 3 keeps every offset"),
            std::string::npos)
      << Moved.Messages[0];
}

namespace {
/// K tiles, each loaded into its own buffer before one SYNC and stored
/// after it: every store follows its alloc, and every load precedes its
/// free, only through the SYNC. \p BrokenTile's store is not after the
/// SYNC, so no path orders it after its alloc or its load before its free.
std::string tilesAroundASync(int K, int BrokenTile = -1) {
  std::string T = "graph @g {\n", Loads;
  auto Id = [](int I) { return "n" + std::to_string(I); };
  int Sync = 3 * K;
  for (int I = 0; I != K; ++I) {
    std::string B = "b" + std::to_string(I);
    T += Id(I) + " = alloc " + B + " UB 1\n";
    T += Id(K + I) + " = COPY_IN MTE2 10 (" + B + ") after " + Id(I) + "\n";
    Loads += (I ? ", " : "") + Id(K + I);
  }
  T += Id(Sync) + " = SYNC VECTOR 1 () after " + Loads + "\n";
  for (int I = 0; I != K; ++I) {
    std::string B = "b" + std::to_string(I);
    std::string Store = Id(Sync + 1 + I);
    T += Store + " = COPY_OUT MTE3 10 (" + B + ")" +
         (I == BrokenTile ? "" : " after " + Id(Sync)) + "\n";
    T += Id(Sync + 1 + K + I) + " = free " + B + " UB 1 after " + Store + "\n";
  }
  return T + "}";
}
} // namespace

// The path searches stop at a node with an edge to the use they look for
// (the SYNC, reached from each alloc); the answers stay exact, in both
// directions.
TEST(VerifierTest, UsesBehindAHub) {
  EXPECT_EQ(verify(tilesAroundASync(100).c_str()).Errors, 0u);
  Result R = verify(tilesAroundASync(100, /*BrokenTile=*/7).c_str());
  ASSERT_EQ(R.Errors, 2u);
  EXPECT_EQ(R.Messages[0], "n308 (COPY_OUT) uses b7, but no path of edges "
                           "orders it after its alloc n7 (alloc b7)");
  EXPECT_EQ(R.Messages[1], "n107 (COPY_IN) uses b7, but no path of edges "
                           "orders it before its free n408 (free b7)");
}

// A search that finds the use it looks for still expands the whole node
// where it found it. The uses are asked about in rank order (the verifier's
// Kahn order: n5, then n6, which waits for n0). n5's search stops while it
// expands n2, at n3 (an edge to n5); n6 is reached only through n4, n2's
// other successor.
TEST(VerifierTest, UsesFoundMidExpansion) {
  EXPECT_EQ(verify(R"(graph @g {
    n0 = X VECTOR 1 ()
    n1 = alloc b0 UB 64
    n2 = X VECTOR 1 () after n1
    n3 = X VECTOR 1 () after n2
    n4 = X VECTOR 1 () after n2
    n5 = X VECTOR 1 (b0) after n3
    n6 = X VECTOR 1 (b0) after n0, n4
    n7 = free b0 UB 64 after n5, n6
  })")
                .Errors,
            0u);
}

// A use with more edges in than the searches mark (64) is searched for
// without marks, and the marks an earlier question left count for nothing:
// n104's question marks n102 and n103 and stops at n102; n105's question
// (100 edges in) then reaches n103, which has no edge to n105. n105 is
// reached only when the alloc reaches n0.
TEST(VerifierTest, UseWithManyEdgesIn) {
  auto Graph = [](bool AllocReachesRoot) {
    std::string T = "graph @g {\n";
    T += AllocReachesRoot ? "n0 = X VECTOR 1 () after n101\n"
                          : "n0 = X VECTOR 1 ()\n";
    std::string Preds;
    for (int I = 1; I <= 100; ++I) {
      T += "n" + std::to_string(I) + " = X VECTOR 1 () after n0\n";
      Preds += (I > 1 ? ", n" : "n") + std::to_string(I);
    }
    return T + R"(n101 = alloc b0 UB 64
      n102 = X VECTOR 1 () after n101
      n103 = X VECTOR 1 () after n102
      n104 = X VECTOR 1 (b0) after n102, n103
      n105 = X VECTOR 1 (b0) after )" +
           Preds + "\nn106 = free b0 UB 64 after n104, n105\n}";
  };
  // The file order is not a schedule here (n0 comes before n101).
  VerifyOptions Unscheduled;
  Unscheduled.Schedule = false;
  EXPECT_EQ(verify(Graph(true).c_str(), Unscheduled).Errors, 0u);
  Result R = verify(Graph(false).c_str(), Unscheduled);
  ASSERT_EQ(R.Errors, 1u);
  EXPECT_EQ(R.Messages[0], "n105 (X) uses b0, but no path of edges orders "
                           "it after its alloc n101 (alloc b0)");
}

namespace {
/// \p K buffers whose allocs form a chain (each after the one before), then
/// one use of each, in a chain after the last alloc, then the frees: each
/// alloc reaches its use only along both chains, longer than the path
/// searches' budget once K passes a few hundred. Buffer \p NoPathFromAlloc's
/// use is a second one with no edge in; buffer \p NoPathToFree's free has
/// an edge from its alloc only (-1: no such buffer).
std::string allocsChained(int K, int NoPathFromAlloc = -1,
                          int NoPathToFree = -1) {
  auto Id = [](int I) { return "n" + std::to_string(I); };
  auto Buf = [](int I) { return "b" + std::to_string(I); };
  std::string T = "graph @g {\n";
  for (int I = 0; I != K; ++I)
    T += Id(I) + " = alloc " + Buf(I) + " UB 1" +
         (I ? " after " + Id(I - 1) : "") + "\n";
  for (int I = 0; I != K; ++I)
    T += Id(K + I) + " = X VECTOR 1 (" + Buf(I) + ") after " + Id(K + I - 1) +
         "\n";
  if (NoPathFromAlloc >= 0)
    T += Id(3 * K) + " = X VECTOR 1 (" + Buf(NoPathFromAlloc) + ")\n";
  for (int I = 0; I != K; ++I)
    T += Id(2 * K + I) + " = free " + Buf(I) + " UB 1 after " +
         (I == NoPathToFree      ? Id(I)
          : I == NoPathFromAlloc ? Id(K + I) + ", " + Id(3 * K)
                                 : Id(K + I)) +
         "\n";
  return T + "}";
}
} // namespace

// The searches of a buffer's uses stop after a budget of edges (the chain
// of allocs is longer), and the questions left open are answered 64
// buffers at a time: the answers, and the order of the messages, are the
// ones a search without a budget gives (b3's questions are left open, b5's
// search ends at once, before its alloc).
TEST(VerifierTest, UsesBeyondTheSearchBudget) {
  const int K = 3000;
  EXPECT_EQ(verify(allocsChained(K).c_str()).Errors, 0u);
  Result R = verify(allocsChained(K, 3, 5).c_str());
  ASSERT_EQ(R.Errors, 2u);
  EXPECT_EQ(R.Messages[0], "n9000 (X) uses b3, but no path of edges orders it "
                           "after its alloc n3 (alloc b3)");
  EXPECT_EQ(R.Messages[1], "n3005 (X) uses b5, but no path of edges orders it "
                           "before its free n6005 (free b5)");
}

namespace {
/// A random graph along a chain of \p Steps operations: \p Bufs buffers
/// whose alloc, \p UsesPerBuf uses and free hang on the chain at random
/// places far apart, most with an edge from the chain and many with one
/// back into it, some with none; a use also has an edge from its alloc,
/// and a free from a use, now and then. The file order is a schedule.
struct ChainGraph {
  struct Buffer {
    int Alloc = -1, Free = -1;
    std::vector<int> Uses;
  };
  std::string Text;
  std::vector<std::vector<int>> Preds;
  std::vector<Buffer> Bufs;
};

ChainGraph randomChainGraph(std::mt19937 &Rng, int Steps, int Bufs,
                            int UsesPerBuf) {
  ChainGraph C;
  C.Bufs.resize(Bufs);
  // What happens at each step of the chain: (buffer, event), events 0
  // (alloc), 1 .. UsesPerBuf (uses), UsesPerBuf + 1 (free).
  std::vector<std::vector<std::pair<int, int>>> At(Steps);
  for (int B = 0; B != Bufs; ++B) {
    std::vector<int> When;
    for (int E = 0; E != UsesPerBuf + 2; ++E)
      When.push_back(Rng() % Steps);
    std::sort(When.begin(), When.end());
    for (int E = 0; E != UsesPerBuf + 2; ++E)
      At[When[E]].push_back({B, E});
  }
  C.Text = "graph @g {\n";
  auto Node = [&](const std::string &Body, const std::vector<int> &In) {
    int Id = C.Preds.size();
    C.Preds.push_back(In);
    C.Text += "n" + std::to_string(Id) + " = " + Body;
    for (size_t I = 0; I != In.size(); ++I)
      C.Text += (I ? ", n" : " after n") + std::to_string(In[I]);
    C.Text += "\n";
    return Id;
  };
  auto Chance = [&](int Percent) { return int(Rng() % 100) < Percent; };
  int Link = -1;
  for (int Step = 0; Step != Steps; ++Step) {
    std::vector<int> Into;
    if (Link >= 0)
      Into.push_back(Link);
    for (auto [B, E] : At[Step]) {
      ChainGraph::Buffer &Bf = C.Bufs[B];
      std::string Name = "b" + std::to_string(B);
      std::vector<int> In;
      if (Link >= 0 && Chance(85))
        In.push_back(Link);
      int N;
      if (E == 0) {
        N = Bf.Alloc = Node("alloc " + Name + " UB 1", In);
      } else if (E <= UsesPerBuf) {
        if (Chance(20))
          In.push_back(Bf.Alloc);
        N = Node("X VECTOR 1 (" + Name + ")", In);
        Bf.Uses.push_back(N);
      } else {
        if (Chance(20))
          In.push_back(Bf.Uses[Rng() % UsesPerBuf]);
        N = Bf.Free = Node("free " + Name + " UB 1", In);
      }
      if (Chance(60))
        Into.push_back(N);
    }
    Link = Node("X VECTOR 1 ()", Into);
  }
  C.Text += "}";
  return C;
}
} // namespace

// Random graphs along a chain longer than the searches' budget: the
// verifier reports exactly the uses that a search of the whole graph finds
// out of order.
TEST(VerifierTest, UsePathsMatchAFullSearch) {
  const int Bufs = 400;
  std::mt19937 Rng(7);
  for (int Round = 0; Round != 4; ++Round) {
    ChainGraph C = randomChainGraph(Rng, 2000, Bufs, 3);
    const std::vector<std::vector<int>> &Preds = C.Preds;
    const std::vector<ChainGraph::Buffer> &Bs = C.Bufs;
    const std::string &T = C.Text;
    // Who reaches whom: a search from each alloc and, against the edges,
    // from each free.
    std::vector<std::vector<int>> Succs(Preds.size());
    for (size_t N = 0; N != Preds.size(); ++N)
      for (int P : Preds[N])
        Succs[P].push_back(N);
    auto Reached = [&](int From, bool Backward) {
      std::vector<char> Seen(Preds.size(), 0);
      std::vector<int> Stack = {From};
      Seen[From] = 1;
      while (!Stack.empty()) {
        int N = Stack.back();
        Stack.pop_back();
        for (int M : Backward ? Preds[N] : Succs[N])
          if (!Seen[M]++)
            Stack.push_back(M);
      }
      return Seen;
    };
    std::vector<std::string> Expected;
    for (int B = 0; B != Bufs; ++B) {
      std::vector<char> FromAlloc = Reached(Bs[B].Alloc, false),
                        ToFree = Reached(Bs[B].Free, true);
      std::string Name = "b" + std::to_string(B);
      // "nU (X) uses bB, but no path of edges orders it after its alloc
      // nA (alloc bB)", and the same before its free.
      auto Unordered = [&](int U, const char *Side, const char *Kind, int At) {
        Expected.push_back("n" + std::to_string(U) + " (X) uses " + Name +
                           ", but no path of edges orders it " + Side +
                           " its " + Kind + " n" + std::to_string(At) + " (" +
                           Kind + " " + Name + ")");
      };
      for (int U : Bs[B].Uses) {
        if (!FromAlloc[U])
          Unordered(U, "after", "alloc", Bs[B].Alloc);
        if (!ToFree[U])
          Unordered(U, "before", "free", Bs[B].Free);
      }
    }
    VerifyOptions Opts;
    Opts.ErrorLimit = 0;
    Result R = verify(T.c_str(), Opts);
    std::sort(Expected.begin(), Expected.end());
    std::sort(R.Messages.begin(), R.Messages.end());
    EXPECT_GT(Expected.size(), 10u);
    EXPECT_EQ(R.Messages, Expected) << "round " << Round;
  }
}

// The lifetime edges --add-lifetime-edges adds do not depend on how far a
// buffer's search may go before its questions are answered with other
// buffers' (a budget of one edge leaves nearly all of them to the batches,
// where an edge added counts as a path for the uses after it).
TEST(VerifierTest, LifetimeEdgesWhateverTheBudget) {
  std::mt19937 Rng(11);
  for (int Round = 0; Round != 4; ++Round) {
    ChainGraph C = randomChainGraph(Rng, 600, 200, 3);
    std::string Out[2];
    unsigned Added[2];
    for (int Budget : {0, 1}) {
      llvm::SourceMgr SM;
      std::string Diags;
      auto G = parse(SM, C.Text.c_str(), Diags);
      ASSERT_TRUE(G) << Diags;
      llvm::Expected<unsigned> N = addLifetimeEdges(*G, Budget);
      ASSERT_TRUE(bool(N)) << llvm::toString(N.takeError());
      Added[Budget] = *N;
      llvm::raw_string_ostream OS(Out[Budget]);
      printGraph(*G, OS);
    }
    EXPECT_GT(Added[0], 50u) << "round " << Round;
    EXPECT_EQ(Added[0], Added[1]) << "round " << Round;
    EXPECT_EQ(Out[0], Out[1]) << "round " << Round;
  }
}
