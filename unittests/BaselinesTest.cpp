//===- BaselinesTest.cpp - HMCOS, COSMA, MAGIS, EDA and their DLR rules ---===//
//
// Every method on the bundled examples and on small hand-made and generated
// graphs: the result verifies, keeps every input edge, and two runs print the
// same IR. Plus the two eviction rules the baselines added to DLR, the L0
// gate, the refusals and the caps.
//
//===----------------------------------------------------------------------===//

#include "dan/Baselines/Baselines.h"
#include "TestUtil.h"
#include "dan/Analysis/Replay.h"
#include "dan/Analysis/Verifier.h"
#include "dan/IR/MemoryPlan.h"
#include "dan/IR/Printer.h"
#include "dan/Select/Methods.h"
#include "dan/Target/Davinci/Davinci.h"
#include "llvm/Support/FileSystem.h"
#include "llvm/Support/MemoryBuffer.h"
#include "llvm/Support/Path.h"
#include <gtest/gtest.h>

using namespace dan;
using namespace dan::test;

namespace {

const Method External[] = {Method::HMCOS, Method::COSMA, Method::MAGIS,
                           Method::EDA};

/// Every input edge of \p In holds in the schedule of \p Out (nodes are
/// matched by id; the input has no plan).
void expectKeepsEdges(const Graph &In, const Graph &Out) {
  IdIndex Ids = Out.idIndex();
  std::vector<uint32_t> Pos = Out.positions();
  for (const Node &N : In.Nodes)
    for (NodeIdx P : N.Preds)
      EXPECT_LT(Pos[Ids.lookup(In[P].Id)], Pos[Ids.lookup(N.Id)])
          << "edge n" << In[P].Id << " -> n" << N.Id;
}

/// Runs \p M twice on \p G: both verify, keep the input edges and print the
/// same IR. Returns the first result.
std::unique_ptr<Graph> runTwice(const Graph &G, const TargetDesc &T, Method M) {
  std::string Printed[2];
  std::unique_ptr<Graph> First;
  for (std::string &P : Printed) {
    llvm::Expected<std::unique_ptr<Graph>> R = runMethod(G, T, M);
    if (!R) {
      ADD_FAILURE() << methodName(M).str() << " on @" << G.Name << ": "
                    << llvm::toString(R.takeError());
      return nullptr;
    }
    EXPECT_EQ(verifyErrors(**R, T), "")
        << methodName(M).str() << " on @" << G.Name;
    expectKeepsEdges(G, **R);
    P = print(**R);
    if (!First)
      First = std::move(*R);
  }
  EXPECT_EQ(Printed[0], Printed[1])
      << methodName(M).str() << " on @" << G.Name << " is not deterministic";
  return First;
}

/// The number of spills of buffers in an L0 tier.
unsigned l0Spills(const Graph &G, const TargetDesc &T) {
  llvm::DenseMap<uint64_t, Tier> TierOf;
  for (const Node &N : G.Nodes)
    if (N.Kind == NodeKind::Alloc)
      TierOf[N.Buf] = N.BufTier;
  unsigned Count = 0;
  for (const Node &N : G.Nodes)
    if (N.Kind == NodeKind::SpillOut && T.isL0(TierOf.lookup(N.Buf)))
      ++Count;
  return Count;
}

/// A random DAG in the contest's shape: COPY_IN loads into L1, MOVEs into
/// L0A/L0B, MATMULs into L0C, FIXP moves out to UB, vector ops, COPY_OUTs;
/// every buffer allocated once and freed after its users. L0 buffers have
/// one size per tier (as in the workloads), so that live bytes within a
/// tier's capacity always find a contiguous range.
std::string randomGraph(unsigned Seed, unsigned Tiles) {
  uint64_t X = Seed * 0x9E3779B97F4A7C15ull + 1;
  auto Rand = [&](unsigned N) {
    X ^= X << 13;
    X ^= X >> 7;
    X ^= X << 17;
    return unsigned(X % N);
  };
  std::string S = "graph @rand" + std::to_string(Seed) + " {\n";
  unsigned NextNode = 0, NextBuf = 0;
  struct Buf {
    unsigned Id, Size;
    std::string Tier;
    std::vector<unsigned> Users;
    unsigned Alloc;
    bool Shared = false;
  };
  std::vector<Buf> Bufs;
  auto Alloc = [&](const std::string &Tier, unsigned Size) {
    unsigned N = NextNode++;
    S += "  n" + std::to_string(N) + " = alloc b" + std::to_string(NextBuf) +
         " " + Tier + " " + std::to_string(Size) + "\n";
    Bufs.push_back({NextBuf++, Size, Tier, {}, N, false});
    return unsigned(Bufs.size() - 1);
  };
  auto Op = [&](const std::string &Name, const std::string &Pipe,
                std::vector<unsigned> Uses, std::vector<unsigned> After) {
    unsigned N = NextNode++;
    S += "  n" + std::to_string(N) + " = " + Name + " " + Pipe + " " +
         std::to_string(10 + Rand(90)) + " (";
    for (size_t I = 0; I != Uses.size(); ++I)
      S += (I ? ", b" : "b") + std::to_string(Bufs[Uses[I]].Id);
    S += ")";
    // The buffer's producer for a shared input (its readers are not
    // ordered among themselves), else its last user.
    for (unsigned B : Uses)
      After.push_back(Bufs[B].Users.empty() ? Bufs[B].Alloc
                      : Bufs[B].Shared      ? Bufs[B].Users.front()
                                            : Bufs[B].Users.back());
    std::sort(After.begin(), After.end());
    After.erase(std::unique(After.begin(), After.end()), After.end());
    for (size_t I = 0; I != After.size(); ++I)
      S += (I ? ", n" : " after n") + std::to_string(After[I]);
    S += "\n";
    for (unsigned B : Uses)
      Bufs[B].Users.push_back(N);
    return N;
  };
  // Shared inputs, reused by several tiles.
  std::vector<unsigned> Inputs;
  for (unsigned I = 0; I != 2 + Tiles / 2; ++I) {
    unsigned B = Alloc("L1", 64 * (1 + Rand(8)));
    Op("COPY_IN", "MTE2", {B}, {});
    Bufs[B].Shared = true;
    Inputs.push_back(B);
  }
  for (unsigned T = 0; T != Tiles; ++T) {
    unsigned Acc = Alloc("L0C", 256);
    for (unsigned K = 0, E = 1 + Rand(3); K != E; ++K) {
      unsigned A = Alloc("L0A", 128);
      Op("MOVE", "MTE1", {A, Inputs[Rand(Inputs.size())]}, {});
      unsigned B = Alloc("L0B", 128);
      Op("MOVE", "MTE1", {B, Inputs[Rand(Inputs.size())]}, {});
      Op("MATMUL", "CUBE", {Acc, A, B}, {});
    }
    unsigned Out = Alloc("UB", 64 * (1 + Rand(6)));
    Op("FIXP_MOVE", "FIXP", {Out, Acc}, {});
    if (Rand(2)) {
      unsigned Tmp = Alloc("UB", 64 * (1 + Rand(4)));
      Op("EXP", "VECTOR", {Tmp, Out}, {});
      Op("ADD", "VECTOR", {Out, Tmp}, {});
    }
    Op("COPY_OUT", "MTE3", {Out}, {});
  }
  // Free every buffer after its users, in allocation order (the traces
  // free late, which is what the orderings fix).
  for (const Buf &B : Bufs) {
    S += "  n" + std::to_string(NextNode++) + " = free b" +
         std::to_string(B.Id) + " " + B.Tier + " " + std::to_string(B.Size) +
         " after n" + std::to_string(B.Alloc);
    for (unsigned U : B.Users)
      S += ", n" + std::to_string(U);
    S += "\n";
  }
  return S + "}\n";
}

} // namespace

//===----------------------------------------------------------------------===//
// Every method on the bundled examples and generated graphs
//===----------------------------------------------------------------------===//

TEST(BaselinesTest, ExamplesVerifyAndAreDeterministic) {
  std::error_code EC;
  std::vector<std::string> Files;
  for (llvm::sys::fs::directory_iterator It(DAN_EXAMPLES_DIR, EC), End;
       It != End && !EC; It.increment(EC))
    if (llvm::sys::path::extension(It->path()) == ".dan")
      Files.push_back(It->path());
  ASSERT_FALSE(EC) << EC.message();
  std::sort(Files.begin(), Files.end());
  ASSERT_GE(Files.size(), 5u);
  TargetDesc T = TargetDesc::davinci();
  for (const std::string &F : Files) {
    SCOPED_TRACE(F);
    llvm::SourceMgr SM;
    auto Buf = llvm::MemoryBuffer::getFile(F);
    ASSERT_TRUE(bool(Buf));
    unsigned Id = SM.AddNewSourceBuffer(std::move(*Buf), llvm::SMLoc());
    std::unique_ptr<Graph> G = parseGraph(SM, Id);
    ASSERT_TRUE(G);
    stripMemoryPlan(*G); // spill.dan carries one
    for (Method M : allMethods())
      runTwice(*G, T, M);
  }
}

TEST(BaselinesTest, GeneratedGraphsUnderPressure) {
  // The default target, then one small enough that every upper tier and
  // L0 tier must spill or wait.
  TargetDesc Tight = TargetDesc::davinci();
  Tight.setCapacity(davinci::L1, 768);
  Tight.setCapacity(davinci::UB, 640);
  for (unsigned Seed = 1; Seed != 9; ++Seed) {
    SCOPED_TRACE("seed " + std::to_string(Seed));
    llvm::SourceMgr SM;
    std::string Diags;
    auto G = parse(SM, randomGraph(Seed, 4 + Seed % 5), Diags);
    ASSERT_TRUE(G) << Diags;
    ASSERT_EQ(verifyErrors(*G, Tight), "");
    for (const TargetDesc &T : {TargetDesc::davinci(), Tight})
      for (Method M : allMethods())
        runTwice(*G, T, M);
  }
}

TEST(BaselinesTest, GeneratedGraphsKeepL0WithinCapacity) {
  // The L0 gate: no baseline spills an L0 buffer on these graphs (each
  // consumer's L0 operands fit their tiers together, and one size per L0
  // tier leaves no fragments).
  TargetDesc T = TargetDesc::davinci();
  for (unsigned Seed = 1; Seed != 9; ++Seed) {
    SCOPED_TRACE("seed " + std::to_string(Seed));
    llvm::SourceMgr SM;
    std::string Diags;
    auto G = parse(SM, randomGraph(Seed, 12), Diags);
    ASSERT_TRUE(G) << Diags;
    for (Method M : External) {
      std::unique_ptr<Graph> R = runTwice(*G, T, M);
      ASSERT_TRUE(R);
      EXPECT_EQ(l0Spills(*R, T), 0u) << methodName(M).str();
    }
  }
}

//===----------------------------------------------------------------------===//
// Hand-made graphs
//===----------------------------------------------------------------------===//

// Four producers of L0A buffers and their consumers, in an input order that
// makes all four L0A buffers live at once (L0A holds two). Input order
// (Base) spills L0A; every baseline orders around it.
static const char *L0PileUp = R"(graph @pileup {
  n0 = alloc b0 L1 128
  n1 = COPY_IN MTE2 50 (b0) after n0
  n2 = alloc b1 L0A 128
  n3 = alloc b2 L0A 128
  n4 = alloc b3 L0A 128
  n5 = alloc b4 L0A 128
  n6 = MOVE MTE1 10 (b1, b0) after n1, n2
  n7 = MOVE MTE1 10 (b2, b0) after n1, n3
  n8 = MOVE MTE1 10 (b3, b0) after n1, n4
  n9 = MOVE MTE1 10 (b4, b0) after n1, n5
  n10 = alloc b5 UB 64
  n11 = alloc b6 UB 64
  n12 = alloc b7 UB 64
  n13 = alloc b8 UB 64
  n14 = USE VECTOR 10 (b5, b1) after n6, n10
  n15 = USE VECTOR 10 (b6, b2) after n7, n11
  n16 = USE VECTOR 10 (b7, b3) after n8, n12
  n17 = USE VECTOR 10 (b8, b4) after n9, n13
  n18 = free b1 L0A 128 after n14
  n19 = free b2 L0A 128 after n15
  n20 = free b3 L0A 128 after n16
  n21 = free b4 L0A 128 after n17
  n22 = free b0 L1 128 after n6, n7, n8, n9
  n23 = free b5 UB 64 after n14
  n24 = free b6 UB 64 after n15
  n25 = free b7 UB 64 after n16
  n26 = free b8 UB 64 after n17
})";

TEST(BaselinesTest, L0PileUpIsAvoided) {
  llvm::SourceMgr SM;
  std::string Diags;
  auto G = parse(SM, L0PileUp, Diags);
  ASSERT_TRUE(G) << Diags;
  TargetDesc T = TargetDesc::davinci();
  std::unique_ptr<Graph> Base = runTwice(*G, T, Method::Base);
  ASSERT_TRUE(Base);
  EXPECT_GT(l0Spills(*Base, T), 0u);
  for (Method M : External) {
    std::unique_ptr<Graph> R = runTwice(*G, T, M);
    ASSERT_TRUE(R);
    EXPECT_EQ(l0Spills(*R, T), 0u) << methodName(M).str();
    EXPECT_EQ(replay(*R, T).SpillCount, 0u) << methodName(M).str();
  }
}

TEST(BaselinesTest, LifetimeEdgesAdded) {
  // No edge from the ALLOCs to their users or from the users to the FREEs:
  // the verifier refuses the graph (every use must be ordered inside its
  // buffer's lifetime by edges); addLifetimeEdges writes the edges in, and
  // every method then orders it.
  llvm::SourceMgr SM;
  std::string Diags;
  auto G = parse(SM, R"(graph @implicit {
  n0 = alloc b0 UB 256
  n1 = alloc b1 UB 256
  n2 = COPY_IN MTE2 10 (b1)
  n3 = COPY_IN MTE2 10 (b0)
  n4 = ADD VECTOR 10 (b0, b1) after n2, n3
  n5 = free b1 UB 256
  n6 = free b0 UB 256
})",
                 Diags);
  ASSERT_TRUE(G) << Diags;
  EXPECT_NE(
      verifyErrors(*G, TargetDesc::davinci())
          .find("n2 (COPY_IN) uses b1, but no path of edges orders it after "
                "its alloc n1 (alloc b1)"),
      std::string::npos);
  // n1 -> n2, n0 -> n3, n4 -> n5, n4 -> n6: n4's edges imply the rest.
  EXPECT_EQ(cantFail(addLifetimeEdges(*G)), 4u);
  EXPECT_EQ(verifyErrors(*G, TargetDesc::davinci()), "");
  for (Method M : {Method::DAN, Method::Base, Method::HMCOS, Method::COSMA,
                   Method::MAGIS, Method::EDA})
    runTwice(*G, TargetDesc::davinci(), M);
}

TEST(BaselinesTest, WideFanInBeyondTheCaps) {
  // 40 independent producers joined by one consumer: one HMCOS group with
  // more members than its DP takes (it keeps their reverse post-order),
  // and more operations than a MAGIS window. UB holds exactly the 41
  // buffers JOIN needs, so the COPY_INs must not run far ahead.
  std::string S = "graph @fanin {\n";
  std::string Join = "  n200 = alloc b100 UB 64\n  n201 = JOIN VECTOR 10 (b100";
  std::string After = " after n200";
  std::string Frees;
  for (unsigned I = 0; I != 40; ++I) {
    std::string N = std::to_string(2 * I), N1 = std::to_string(2 * I + 1);
    std::string B = std::to_string(I);
    S += "  n" + N + " = alloc b" + B + " UB 64\n";
    S += "  n" + N1 + " = COPY_IN MTE2 10 (b" + B + ") after n" + N + "\n";
    Join += ", b" + B;
    After += ", n" + N1;
    Frees += "  n" + std::to_string(300 + I) + " = free b" + B +
             " UB 64 after n201\n";
  }
  S += Join + ")" + After + "\n" + Frees +
       "  n400 = free b100 UB 64 after n201\n}\n";
  llvm::SourceMgr SM;
  std::string Diags;
  auto G = parse(SM, S, Diags);
  ASSERT_TRUE(G) << Diags;
  TargetDesc T = TargetDesc::davinci();
  T.setCapacity(davinci::UB, 41 * 64); // JOIN needs all 41 at once
  for (Method M : allMethods())
    runTwice(*G, T, M);
}

TEST(BaselinesTest, LongChainThroughManyWindows) {
  // A chain of 60 vector ops, each reading the last one's buffer: one
  // order only; MAGIS's windows and HMCOS's sequences must keep it.
  std::string S = "graph @chain {\n  n0 = alloc b0 UB 64\n"
                  "  n1 = COPY_IN MTE2 10 (b0) after n0\n";
  unsigned Node = 2, Prev = 1;
  for (unsigned I = 1; I != 60; ++I) {
    unsigned A = Node++, Op = Node++;
    S += "  n" + std::to_string(A) + " = alloc b" + std::to_string(I) +
         " UB 64\n";
    S += "  n" + std::to_string(Op) + " = EXP VECTOR 10 (b" +
         std::to_string(I) + ", b" + std::to_string(I - 1) + ") after n" +
         std::to_string(Prev) + ", n" + std::to_string(A) + "\n";
    S += "  n" + std::to_string(Node++) + " = free b" + std::to_string(I - 1) +
         " UB 64 after n" + std::to_string(Op) + "\n";
    Prev = Op;
  }
  S += "  n" + std::to_string(Node) + " = free b59 UB 64 after n" +
       std::to_string(Prev) + "\n}\n";
  llvm::SourceMgr SM;
  std::string Diags;
  auto G = parse(SM, S, Diags);
  ASSERT_TRUE(G) << Diags;
  for (Method M : External) {
    std::unique_ptr<Graph> R = runTwice(*G, TargetDesc::davinci(), M);
    ASSERT_TRUE(R);
    EXPECT_EQ(replay(*R, TargetDesc::davinci()).PeakL1UB, 128u);
  }
}

//===----------------------------------------------------------------------===//
// Refusals
//===----------------------------------------------------------------------===//

TEST(BaselinesTest, RefusesAPlanAndAnIllegalInput) {
  TargetDesc T = TargetDesc::davinci();
  {
    llvm::SourceMgr SM;
    std::string Diags;
    auto G = parse(SM, R"(graph @g {
  n0 = alloc b0 UB 8 at 0
  n1 = free b0 UB 8 after n0
})",
                   Diags);
    ASSERT_TRUE(G) << Diags;
    for (Method M : External) {
      llvm::Expected<std::unique_ptr<Graph>> R = runMethod(*G, T, M);
      ASSERT_FALSE(bool(R));
      EXPECT_NE(llvm::toString(R.takeError()).find("memory plan"),
                std::string::npos);
    }
  }
  {
    // The FREE comes before the use: the input does not verify.
    llvm::SourceMgr SM;
    std::string Diags;
    auto G = parse(SM, R"(graph @g {
  n0 = alloc b0 UB 8
  n1 = free b0 UB 8 after n0
  n2 = COPY_IN MTE2 10 (b0) after n0
})",
                   Diags);
    ASSERT_TRUE(G) << Diags;
    for (Method M : External) {
      llvm::Expected<std::unique_ptr<Graph>> R = runMethod(*G, T, M);
      ASSERT_FALSE(bool(R));
      EXPECT_NE(llvm::toString(R.takeError()).find("does not verify"),
                std::string::npos);
    }
  }
  {
    llvm::SourceMgr SM;
    std::string Diags;
    auto G = parse(SM,
                   "graph @g {\n  n0 = alloc b0 UB 8\n"
                   "  n1 = free b0 UB 8 after n0\n}\n",
                   Diags);
    ASSERT_TRUE(G) << Diags;
    llvm::Error E = orderBaseline(*G, T, Method::DAN);
    ASSERT_TRUE(bool(E));
    llvm::consumeError(std::move(E));
  }
}

//===----------------------------------------------------------------------===//
// The eviction rules the baselines added to DLR
//===----------------------------------------------------------------------===//

// UB (1024) holds b0 (256, written by a vector op: a spill writes it back,
// 512 bytes of traffic) and b1 (768, filled by COPY_IN: a spill only
// reloads it, 768 bytes). b2 needs 256 at n4. Per byte, b1 is cheaper (1
// against 2); in bytes, b0 is (512 against 768).
static const char *CleanDirty = R"(graph @cleandirty {
  n0 = alloc b0 UB 256
  n1 = V VECTOR 10 (b0) after n0
  n2 = alloc b1 UB 768
  n3 = COPY_IN MTE2 10 (b1) after n2
  n4 = alloc b2 UB 256
  n5 = W VECTOR 10 (b2) after n4
  n6 = free b2 UB 256 after n5
  n7 = X VECTOR 10 (b0, b1) after n1, n3, n6
  n8 = free b0 UB 256 after n7
  n9 = free b1 UB 768 after n7
})";

static uint64_t spilledBuffer(EvictPolicy Evict, VictimSet Victims,
                              uint64_t &Traffic) {
  llvm::SourceMgr SM;
  std::string Diags;
  auto G = parse(SM, CleanDirty, Diags);
  EXPECT_TRUE(G) << Diags;
  DLROptions Opts = DLROptions::oneSetting();
  Opts.Evict = Evict;
  Opts.Victims = Victims;
  llvm::Expected<DLRStats> S = runDLR(*G, TargetDesc::davinci(), Opts);
  EXPECT_TRUE(bool(S));
  if (!S) {
    llvm::consumeError(S.takeError());
    return UINT64_MAX;
  }
  EXPECT_EQ(S->Spills, 1u);
  EXPECT_EQ(verifyErrors(*G, TargetDesc::davinci()), "");
  Traffic = S->ExtraTraffic;
  for (const Node &N : G->Nodes)
    if (N.Kind == NodeKind::SpillOut)
      return N.Buf;
  return UINT64_MAX;
}

TEST(BaselinesTest, CostPerByteEvictsTheCleanBuffer) {
  uint64_t Traffic = 0;
  for (VictimSet VS : {VictimSet::Single, VictimSet::Window}) {
    EXPECT_EQ(spilledBuffer(EvictPolicy::CostPerByte, VS, Traffic), 1u);
    EXPECT_EQ(Traffic, 768u);
  }
}

TEST(BaselinesTest, TrafficEvictsTheFewestBytes) {
  uint64_t Traffic = 0;
  for (VictimSet VS : {VictimSet::Single, VictimSet::Window}) {
    EXPECT_EQ(spilledBuffer(EvictPolicy::Traffic, VS, Traffic), 0u);
    EXPECT_EQ(Traffic, 512u);
  }
}

TEST(BaselinesTest, DLROptionsPerMethod) {
  EXPECT_EQ(baselineDLROptions(Method::HMCOS).Evict, EvictPolicy::LRU);
  EXPECT_EQ(baselineDLROptions(Method::HMCOS).Fit, FitPolicy::Best);
  EXPECT_EQ(baselineDLROptions(Method::COSMA).Evict, EvictPolicy::CostPerByte);
  EXPECT_EQ(baselineDLROptions(Method::MAGIS).Evict, EvictPolicy::Belady);
  EXPECT_EQ(baselineDLROptions(Method::EDA).Evict, EvictPolicy::Traffic);
  EXPECT_EQ(baselineDLROptions(Method::EDA).Victims, VictimSet::Window);
  // The baselines place by best fit (base by first fit), never by DAN's
  // timed fit.
  for (Method M : {Method::HMCOS, Method::COSMA, Method::MAGIS, Method::EDA})
    EXPECT_EQ(baselineDLROptions(M).Fit, FitPolicy::Best);
  EXPECT_EQ(baselineDLROptions(Method::Base).Fit, FitPolicy::First);
  // Every DLR default is DAN's own.
  DLROptions D;
  EXPECT_EQ(D.Evict, EvictPolicy::Cost);
  EXPECT_EQ(D.Victims, VictimSet::Window);
  EXPECT_EQ(D.Fit, FitPolicy::Timed);
  EXPECT_EQ(baselineDLROptions(Method::DAN).Fit, FitPolicy::Timed);
}
