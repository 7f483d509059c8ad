//===- CPETest.cpp - Stage 3: critical path enhancement -------------------===//
//
// The hand-timed graphs of test/dan-cpe (their comments have the timing),
// and random graphs, with and without a memory plan, on which every run
// must keep the plan, never raise the makespan, agree with replay() and be
// deterministic.
//
//===----------------------------------------------------------------------===//

#include "dan/Transforms/CPE.h"
#include "TestUtil.h"
#include "dan/Analysis/Replay.h"
#include "dan/Analysis/Verifier.h"
#include "dan/IR/Link.h"
#include "dan/IR/MemoryPlan.h"
#include "dan/Select/Select.h"
#include <gtest/gtest.h>
#include <map>
#include <random>

using namespace dan;
using namespace dan::test;

namespace {

/// The ids of the schedule, in order.
std::vector<uint64_t> ids(const Graph &G) {
  std::vector<uint64_t> Ids;
  for (NodeIdx I : G.Order)
    Ids.push_back(G[I].Id);
  return Ids;
}

/// The ids of the buffer and spill nodes, in schedule order.
std::vector<uint64_t> bufferNodeIds(const Graph &G) {
  std::vector<uint64_t> Ids;
  for (NodeIdx I : G.Order)
    if (G[I].isBufferNode())
      Ids.push_back(G[I].Id);
  return Ids;
}

/// The ids of the buffer nodes of each tier in schedule order, then those
/// of the spill nodes: what keeps a plan.
std::vector<std::vector<uint64_t>> planOrder(const Graph &G) {
  std::map<uint64_t, Tier> TierOf;
  for (const Node &N : G.Nodes)
    if (N.Kind == NodeKind::Alloc)
      TierOf.emplace(N.Buf, N.BufTier);
  std::vector<std::vector<uint64_t>> Seq(MaxTiers + 1);
  for (NodeIdx I : G.Order) {
    const Node &N = G[I];
    if (!N.isBufferNode())
      continue;
    Seq[static_cast<unsigned>(TierOf.at(N.Buf))].push_back(N.Id);
    if (N.isSpill())
      Seq[MaxTiers].push_back(N.Id);
  }
  return Seq;
}

/// The errors of verifying \p G, against \p Against when given.
std::vector<std::string> verifyErrors(const Graph &G,
                                      const Graph *Against = nullptr) {
  VerifyOptions Opts;
  Opts.Against = Against;
  Opts.ErrorLimit = 0;
  std::vector<std::string> Errors;
  verifyGraph(
      G, TargetDesc::davinci(), Opts,
      [&](llvm::SMLoc, llvm::SourceMgr::DiagKind Kind, const llvm::Twine &Msg) {
        if (Kind == llvm::SourceMgr::DK_Error)
          Errors.push_back(Msg.str());
      });
  return Errors;
}

/// The makespan of \p G timed without its reuse edges.
uint64_t makespanWithoutReuse(const Graph &G) {
  Graph Copy = G;
  for (Node &N : Copy.Nodes)
    N.ReusePreds.clear();
  return replay(Copy, TargetDesc::davinci()).Makespan;
}

struct Parsed {
  llvm::SourceMgr SM;
  std::unique_ptr<Graph> G;
};

std::unique_ptr<Parsed> parseText(const std::string &Text) {
  auto P = std::make_unique<Parsed>();
  std::string Diags;
  P->G = parse(P->SM, Text, Diags);
  EXPECT_TRUE(P->G) << Diags;
  return P;
}

CPEStats run(Graph &G, CPEOptions Opts = {}) {
  llvm::Expected<CPEStats> S = runCPE(G, TargetDesc::davinci(), Opts);
  if (!S) {
    ADD_FAILURE() << llvm::toString(S.takeError());
    return {};
  }
  return *S;
}

// The graph of test/dan-cpe/improve.dan.
const char *Improve = R"(graph @Improve {
  n0 = alloc b0 UB 64
  n1 = alloc b1 UB 64
  n2 = COPY_IN MTE2 100 (b0) after n0
  n3 = COPY_IN MTE2 50 (b1) after n1
  n4 = ADD VECTOR 200 (b1) after n3
  n5 = MUL VECTOR 10 (b0) after n2
  n6 = free b0 UB 64 after n5
  n7 = free b1 UB 64 after n4
})";

// The graph of test/dan-cpe/reject-plan.dan.
const char *RejectPlan = R"(graph @RejectPlan {
  n0 = alloc b0 UB 1024 at 0
  n1 = COPY_IN MTE2 100 (b0) after n0
  n2 = COPY_OUT MTE3 10 (b0) after n1
  n3 = free b0 UB 1024 after n2
  n4 = alloc b1 UB 1024 at 0 reuse n3
  n5 = COPY_IN MTE2 50 (b1) after n4
  n6 = ADD VECTOR 200 (b1) after n5
  n7 = free b1 UB 1024 after n6
})";

// The graph of test/dan-cpe/ignore.dan.
const char *IgnorePlan = R"(graph @Ignore {
  n0 = alloc b0 UB 1024 at 0
  n1 = COPY_IN MTE2 100 (b0) after n0
  n2 = ADD VECTOR 300 (b0) after n1
  n3 = free b0 UB 1024 after n2
  n4 = alloc b1 UB 1024 at 0 reuse n3
  n5 = alloc b2 L1 64 at 0
  n6 = COPY_IN MTE2 200 (b2) after n5
  n7 = COPY_IN MTE2 50 (b1) after n4
  n8 = MMAD CUBE 500 (b1) after n7
  n9 = COPY_OUT MTE3 100 (b2) after n6
  n10 = free b1 UB 1024 after n8
  n11 = free b2 L1 64 after n9
})";

// The graph of test/dan-cpe/window.dan.
const char *WindowGraph = R"(graph @Window {
  n0 = alloc b0 UB 64
  n1 = alloc b1 UB 64
  n2 = COPY_IN MTE2 100 (b0) after n0
  n3 = alloc b2 UB 64
  n4 = alloc b3 UB 64
  n5 = COPY_IN MTE2 50 (b1) after n1
  n6 = ADD VECTOR 200 (b1) after n5
  n7 = MUL VECTOR 10 (b0) after n2
  n8 = MOVE MTE1 5 (b2, b3) after n3, n4
  n9 = free b0 UB 64 after n7
  n10 = free b1 UB 64 after n6
  n11 = free b2 UB 64 after n8
  n12 = free b3 UB 64 after n8
})";

} // namespace

TEST(CPETest, OneHoistLowersTheMakespan) {
  auto P = parseText(Improve);
  CPEStats S = run(*P->G);
  EXPECT_EQ(S.MakespanBefore, 360u);
  EXPECT_EQ(S.MakespanAfter, 260u);
  EXPECT_EQ(S.Moves, 1u);
  EXPECT_EQ(S.Passes, 2u);
  EXPECT_EQ(S.Candidates, 3u);
  EXPECT_EQ(S.Illegal, 0u);
  EXPECT_EQ(ids(*P->G), (std::vector<uint64_t>{0, 1, 3, 2, 4, 5, 6, 7}));
  EXPECT_EQ(replay(*P->G, TargetDesc::davinci()).Makespan, 260u);
}

TEST(CPETest, NoFasterOrderKeepsThePlan) {
  // b1 takes the bytes b0 releases (reuse edge n3 -> n4), and its COPY_IN
  // n5 comes after its alloc n4: n1 [0, 100), n2 [100, 110), n5 [110, 160),
  // n6 [160, 360). Only n5 before n1 would be faster, and it would write b1
  // into bytes b0 still holds: no order of the plan's does it.
  auto P = parseText(RejectPlan);
  auto Input = parseText(RejectPlan);
  CPEStats S = run(*P->G);
  EXPECT_EQ(S.MakespanBefore, 360u);
  EXPECT_EQ(S.MakespanAfter, 360u);
  EXPECT_EQ(S.Moves, 0u);
  EXPECT_EQ(ids(*P->G), ids(*Input->G));
}

const char *AllocBarrier = R"(graph @g {
    n0 = alloc b0 UB 64
    n1 = COPY_IN MTE2 100 (b0) after n0
    n2 = COPY_OUT MTE3 50 (b0) after n1
    n3 = alloc b1 UB 64
    n4 = COPY_IN MTE2 10 (b1) after n3
    n5 = ADD VECTOR 200 (b1) after n4
    n6 = free b1 UB 64 after n5
    n7 = free b0 UB 64 after n2
  })";

TEST(CPETest, AnOperationNeverLeavesItsBuffersLifetime) {
  // Putting n4 ahead of n1 on MTE2 would lower the makespan
  // from 310 (n1 [0, 100), n4 [100, 110), n5 [110, 310)) to 210 (n4 [0, 10),
  // n5 [10, 210)), but with --move=ops n4 cannot pass its alloc n3, and n1
  // cannot sink behind n4 past its successor n2.
  auto P = parseText(AllocBarrier);
  CPEOptions Opts;
  Opts.Moves = CPEMoveSet::Ops;
  Opts.Start = CPEStart::Input;
  CPEStats S = run(*P->G, Opts);
  EXPECT_EQ(S.MakespanBefore, 310u);
  EXPECT_EQ(S.MakespanAfter, 310u);
  EXPECT_EQ(S.Moves, 0u);
  EXPECT_EQ(S.Illegal, 1u);
  EXPECT_EQ(ids(*P->G), (std::vector<uint64_t>{0, 1, 2, 3, 4, 5, 6, 7}));
}

TEST(CPETest, AListScheduleCanStartTheSearch) {
  // The list schedule starts the longer chain first on MTE2 (n4, then n1),
  // carrying alloc n3 ahead of n1 and n2 but past no buffer node: 210,
  // which the search from the input, moving operations only, cannot reach.
  auto P = parseText(AllocBarrier);
  auto Input = parseText(AllocBarrier);
  CPEOptions Opts;
  Opts.Moves = CPEMoveSet::Ops;
  CPEStats S = run(*P->G, Opts);
  EXPECT_EQ(S.MakespanBefore, 310u);
  EXPECT_EQ(S.ListMakespan, 210u);
  EXPECT_TRUE(S.FromList);
  EXPECT_EQ(S.MakespanAfter, 210u);
  EXPECT_EQ(ids(*P->G), (std::vector<uint64_t>{0, 3, 4, 1, 5, 2, 6, 7}));
  EXPECT_EQ(bufferNodeIds(*P->G), bufferNodeIds(*Input->G));
  EXPECT_TRUE(verifyErrors(*P->G, Input->G.get()).empty());
}

TEST(CPETest, AnAllocMovesWithItsOperation) {
  // The same graph with buffer nodes movable: n4 hoists ahead of n1 with
  // its alloc n3, which passes the operations n1 and n2 but no buffer node
  // (n0 stays before it): 310 -> 210, n4 still inside b1's lifetime.
  auto P = parseText(AllocBarrier);
  auto In = parseText(AllocBarrier);
  CPEOptions Opts;
  Opts.Moves = CPEMoveSet::OpsAndBuffers;
  CPEStats S = run(*P->G, Opts);
  EXPECT_EQ(S.MakespanBefore, 310u);
  EXPECT_EQ(S.MakespanAfter, 210u);
  EXPECT_EQ(S.Moves, 1u);
  EXPECT_EQ(S.BufferMoves, 1u);
  EXPECT_EQ(S.BufferNodesMoved, 1u);
  EXPECT_EQ(ids(*P->G), (std::vector<uint64_t>{0, 3, 4, 1, 2, 5, 6, 7}));
  EXPECT_EQ(verifyErrors(*P->G, In->G.get()), std::vector<std::string>());
}

TEST(CPETest, ABufferNodeNeverPassesAnother) {
  // As above, but b0's free n3 sits between n1 and the alloc n4 of b1.
  // Putting n5 ahead of n1 would again give 210, but n5 needs n4 before it,
  // n4 may not pass the buffer node n3, and n3 may not pass n1 (a user of
  // b0, and its predecessor); sinking n1 past n5 fails the same way.
  // (Allowed, the move would hold b0 and b1 together: peak 128 instead of
  // 64.) Nothing moves.
  const char *Text = R"(graph @g {
    n0 = alloc b0 UB 64
    n1 = COPY_IN MTE2 100 (b0) after n0
    n3 = free b0 UB 64 after n1
    n4 = alloc b1 UB 64
    n5 = COPY_IN MTE2 10 (b1) after n4
    n6 = ADD VECTOR 200 (b1) after n5
    n7 = free b1 UB 64 after n6
  })";
  auto P = parseText(Text);
  CPEStats S = run(*P->G);
  EXPECT_EQ(S.MakespanBefore, 310u);
  EXPECT_EQ(S.MakespanAfter, 310u);
  EXPECT_EQ(S.Moves, 0u);
  EXPECT_EQ(S.Illegal, 1u);
  EXPECT_EQ(ids(*P->G), (std::vector<uint64_t>{0, 1, 3, 4, 5, 6, 7}));
}

TEST(CPETest, FreezeKeepsTheOrder) {
  auto P = parseText(Improve);
  CPEOptions Opts;
  Opts.Mode = CPEMode::Freeze;
  CPEStats S = run(*P->G, Opts);
  EXPECT_EQ(S.MakespanBefore, 360u);
  EXPECT_EQ(S.MakespanAfter, 360u);
  EXPECT_EQ(S.Passes, 0u);
  EXPECT_EQ(ids(*P->G), (std::vector<uint64_t>{0, 1, 2, 3, 4, 5, 6, 7}));
}

TEST(CPETest, IgnoreCountsOwnershipViolations) {
  auto P = parseText(IgnorePlan);
  auto Input = parseText(IgnorePlan);
  CPEOptions Opts;
  Opts.Mode = CPEMode::Ignore;
  CPEStats S = run(*P->G, Opts);
  EXPECT_EQ(S.MakespanBefore, 950u);
  EXPECT_EQ(S.MakespanAfter, 950u);
  EXPECT_EQ(S.IgnoreMakespanBefore, 850u);
  EXPECT_EQ(S.IgnoreMakespanAfter, 650u);
  EXPECT_EQ(S.ReuseEdges, 1u);
  EXPECT_EQ(S.ViolationsBefore, 1u);
  EXPECT_EQ(S.Violations, 1u);
  EXPECT_EQ(S.OrderViolations, 0u);
  EXPECT_EQ(S.Moves, 1u);
  EXPECT_EQ(makespanWithoutReuse(*P->G), 650u);
  EXPECT_TRUE(verifyErrors(*P->G, Input->G.get()).empty());

  // Refine finds nothing on the same graph.
  auto R = parseText(IgnorePlan);
  CPEStats SR = run(*R->G);
  EXPECT_EQ(SR.MakespanAfter, 950u);
  EXPECT_EQ(SR.Moves, 0u);
}

TEST(CPETest, WindowBoundsTheNeighbourhood) {
  CPEOptions Opts;
  Opts.Start = CPEStart::Input;
  Opts.Window = 2;
  auto Narrow = parseText(WindowGraph);
  CPEStats S2 = run(*Narrow->G, Opts);
  EXPECT_EQ(S2.MakespanAfter, 350u);
  Opts.Window = 3;
  auto Wide = parseText(WindowGraph);
  CPEStats S3 = run(*Wide->G, Opts);
  EXPECT_EQ(S3.MakespanAfter, 260u);
  Opts.Window = 0;
  auto None = parseText(WindowGraph);
  CPEStats S0 = run(*None->G, Opts);
  EXPECT_EQ(S0.MakespanAfter, 360u);
  EXPECT_EQ(S0.Candidates, 0u);
}

TEST(CPETest, LimitsStopTheSearch) {
  CPEOptions Opts;
  Opts.Start = CPEStart::Input;
  Opts.Passes = 0;
  auto P0 = parseText(Improve);
  EXPECT_EQ(run(*P0->G, Opts).MakespanAfter, 360u);
  Opts.Passes = 8;
  Opts.MaxCandidates = 1;
  auto P1 = parseText(Improve);
  CPEStats S = run(*P1->G, Opts);
  EXPECT_EQ(S.MakespanAfter, 260u);
  EXPECT_TRUE(S.HitCandidateLimit);
}

TEST(CPETest, RefusesAGraphThatDoesNotVerify) {
  auto P = parseText(R"(graph @g {
    n0 = alloc b0 UB 64
    n2 = ADD VECTOR 10 (b0) after n1
    n1 = COPY_IN MTE2 100 (b0) after n0
    n3 = free b0 UB 64 after n2
  })");
  std::vector<uint64_t> Before = ids(*P->G);
  llvm::Expected<CPEStats> S =
      runCPE(*P->G, TargetDesc::davinci(), CPEOptions());
  ASSERT_FALSE(S);
  std::string Msg = llvm::toString(S.takeError());
  EXPECT_NE(Msg.find("n2 (ADD) is scheduled before its predecessor n1"),
            std::string::npos)
      << Msg;
  EXPECT_NE(Msg.find("the input does not verify (1 error)"), std::string::npos)
      << Msg;
  EXPECT_EQ(ids(*P->G), Before);
}

namespace {

/// A random graph that verifies: buffers allocated and freed in schedule
/// order, operations on live buffers with edges from the previous user (or,
/// mostly, the alloc), some extra edges. With \p Plan, every placement gets
/// a first-fit offset in a 256-byte window of its tier, so bytes are reused
/// often, and the reuse edges are added.
std::string randomGraph(unsigned Seed, bool Plan) {
  std::mt19937 R(Seed);
  auto Pick = [&](unsigned N) { return unsigned(R() % N); };
  struct Buf {
    uint64_t Id, Size, Offset;
    bool L1;
    int64_t Last; // the last node using it, or its alloc
  };
  std::vector<Buf> Live;
  std::vector<uint64_t> Ops;
  std::string Text = "graph @r" + std::to_string(Seed) + " {\n";
  uint64_t Next = 0, NextBuf = 0;
  static const char *Pipes[] = {"MTE1", "MTE2", "MTE3",
                                "FIXP", "CUBE", "VECTOR"};
  auto Free = [&](size_t K) {
    Buf B = Live[K];
    Live.erase(Live.begin() + K);
    Text += "  n" + std::to_string(Next++) + " = free b" +
            std::to_string(B.Id) + (B.L1 ? " L1 " : " UB ") +
            std::to_string(B.Size) + " after n" + std::to_string(B.Last) + "\n";
  };
  unsigned Steps = 30 + Pick(50);
  for (unsigned Step = 0; Step != Steps; ++Step) {
    unsigned Kind = Pick(10);
    if (Kind < 3 && Live.size() < 6) {
      Buf B{NextBuf, uint64_t(16) << Pick(4), 0, Pick(2) == 0, 0};
      if (Plan) {
        // First fit among the live buffers of the tier.
        std::vector<std::pair<uint64_t, uint64_t>> Used;
        for (const Buf &O : Live)
          if (O.L1 == B.L1)
            Used.push_back({O.Offset, O.Offset + O.Size});
        std::sort(Used.begin(), Used.end());
        uint64_t At = 0;
        for (auto [Begin, End] : Used) {
          if (At + B.Size <= Begin)
            break;
          At = std::max(At, End);
        }
        if (At + B.Size > 256)
          continue;
        B.Offset = At;
      }
      ++NextBuf;
      B.Last = Next;
      Text += "  n" + std::to_string(Next++) + " = alloc b" +
              std::to_string(B.Id) + (B.L1 ? " L1 " : " UB ") +
              std::to_string(B.Size) +
              (Plan ? " at " + std::to_string(B.Offset) : "") + "\n";
      Live.push_back(B);
    } else if (Kind < 8 && !Live.empty()) {
      uint64_t Id = Next++;
      std::vector<size_t> Used;
      for (unsigned K = 1 + Pick(2); K--;)
        Used.push_back(Pick(Live.size()));
      if (Pick(8) == 0)
        Used.push_back(Used.front()); // a buffer listed twice
      std::vector<uint64_t> Preds;
      // Every use after the buffer's last user or its alloc, as the
      // lifetime rule wants.
      for (size_t U : Used)
        Preds.push_back(Live[U].Last);
      if (!Ops.empty() && Pick(5) == 0)
        Preds.push_back(Ops[Pick(Ops.size())]);
      std::sort(Preds.begin(), Preds.end());
      Preds.erase(std::unique(Preds.begin(), Preds.end()), Preds.end());
      Text += "  n" + std::to_string(Id) + " = OP" + std::to_string(Pick(3)) +
              " " + Pipes[Pick(6)] + " " + std::to_string(1 + Pick(100)) + " (";
      for (size_t J = 0; J != Used.size(); ++J)
        Text += (J ? ", b" : "b") + std::to_string(Live[Used[J]].Id);
      Text += ")";
      for (size_t J = 0; J != Preds.size(); ++J)
        Text += (J ? ", n" : " after n") + std::to_string(Preds[J]);
      Text += "\n";
      for (size_t U : Used)
        Live[U].Last = Id;
      Ops.push_back(Id);
    } else if (!Live.empty()) {
      Free(Pick(Live.size()));
    }
  }
  while (!Live.empty())
    Free(0);
  return Text + "}\n";
}

} // namespace

TEST(CPETest, RandomGraphsKeepThePlanAndNeverGetSlower) {
  unsigned Improved = 0, WithReuse = 0, Carried = 0, FromList = 0;
  for (unsigned Seed = 0; Seed != 300; ++Seed) {
    for (bool Plan : {false, true}) {
      for (CPEMoveSet MS : {CPEMoveSet::Ops, CPEMoveSet::OpsAndBuffers}) {
        SCOPED_TRACE("seed " + std::to_string(Seed) +
                     (Plan ? " with a plan" : " without a plan") +
                     (MS == CPEMoveSet::Ops ? ", ops" : ", ops-and-buffers"));
        std::string Text = randomGraph(Seed, Plan);
        auto In = parseText(Text);
        auto Out = parseText(Text);
        auto Again = parseText(Text);
        ASSERT_TRUE(In->G && Out->G && Again->G);
        if (Plan) {
          setReuseEdges(*In->G);
          setReuseEdges(*Out->G);
          setReuseEdges(*Again->G);
        }
        ASSERT_EQ(verifyErrors(*In->G), std::vector<std::string>()) << Text;
        for (const Node &N : In->G->Nodes)
          WithReuse += !N.ReusePreds.empty();

        CPEOptions Opts;
        Opts.Window = 1 + Seed % 16;
        Opts.Moves = MS;
        CPEStats S = run(*Out->G, Opts);
        EXPECT_EQ(verifyErrors(*Out->G, In->G.get()),
                  std::vector<std::string>());
        // Each tier's buffer nodes and the spills keep their order; all
        // buffer nodes, and so the L1+UB peak, when the search started from
        // the input or there is no plan.
        EXPECT_EQ(planOrder(*Out->G), planOrder(*In->G));
        ReplayResult RIn = replay(*In->G, TargetDesc::davinci()),
                     ROut = replay(*Out->G, TargetDesc::davinci());
        if (!S.FromList || !Plan) {
          EXPECT_EQ(bufferNodeIds(*Out->G), bufferNodeIds(*In->G));
          EXPECT_EQ(ROut.PeakL1UB, RIn.PeakL1UB);
        }
        FromList += S.FromList;
        EXPECT_EQ(ROut.TierPeak, RIn.TierPeak);
        if (MS == CPEMoveSet::Ops) {
          EXPECT_EQ(S.BufferMoves, 0u);
        }
        // The list schedule never loses: the search from it is kept only
        // when faster, and it is tried whenever it beats the other.
        EXPECT_LE(S.MakespanAfter, S.ListMakespan);
        Carried += S.BufferMoves;
        EXPECT_EQ(S.MakespanBefore,
                  replay(*In->G, TargetDesc::davinci()).Makespan);
        EXPECT_EQ(S.MakespanAfter,
                  replay(*Out->G, TargetDesc::davinci()).Makespan);
        EXPECT_LE(S.MakespanAfter, S.MakespanBefore);
        EXPECT_EQ(S.Moves > 0 || S.FromList,
                  S.MakespanAfter < S.MakespanBefore);
        Improved += S.Moves > 0 || S.FromList;

        // Deterministic.
        run(*Again->G, Opts);
        EXPECT_EQ(ids(*Again->G), ids(*Out->G));

        // A fixed point of the search when no limit stopped it; a second
        // run from the best start is never slower.
        if (!S.HitCandidateLimit && S.Passes < Opts.Passes) {
          std::vector<uint64_t> First = ids(*Out->G);
          auto Copy = parseText(Text);
          Copy->G->Order = Out->G->Order;
          if (Plan)
            setReuseEdges(*Copy->G);
          CPEOptions FromInput = Opts;
          FromInput.Start = CPEStart::Input;
          CPEStats S2 = run(*Out->G, FromInput);
          EXPECT_EQ(S2.Moves, 0u);
          EXPECT_EQ(ids(*Out->G), First);
          EXPECT_LE(run(*Copy->G, Opts).MakespanAfter, S.MakespanAfter);
        }

        // Ignore: the search's own figures are the replay without reuse
        // edges, and no reuse edge is broken in order.
        auto Ign = parseText(Text);
        if (Plan)
          setReuseEdges(*Ign->G);
        Opts.Mode = CPEMode::Ignore;
        CPEStats SI = run(*Ign->G, Opts);
        EXPECT_EQ(SI.IgnoreMakespanBefore, makespanWithoutReuse(*In->G));
        EXPECT_EQ(SI.IgnoreMakespanAfter, makespanWithoutReuse(*Ign->G));
        EXPECT_LE(SI.IgnoreMakespanAfter, SI.IgnoreMakespanBefore);
        EXPECT_EQ(SI.OrderViolations, 0u);
        EXPECT_LE(SI.Violations, SI.ReuseEdges);
        EXPECT_EQ(verifyErrors(*Ign->G, In->G.get()),
                  std::vector<std::string>());
      }
    }
  }
  // The random graphs exercise the search, not only the checks, and the
  // moves that carry buffer nodes.
  EXPECT_GT(Improved, 200u);
  EXPECT_GT(FromList, 0u);
  EXPECT_GT(WithReuse, 600u);
  EXPECT_GT(Carried, 50u);
}

TEST(CPETest, RandomKernelsAlikeChangeNoByte) {
  // Three copies of a random kernel, side by side and in series: each stage
  // with and without renaming an alike part's result (SelectOptions::
  // ReuseAlikeParts) writes the same bytes, or fails with the same error.
  auto Same = [](Graph &A, Graph &B, auto RunA, auto RunB) {
    auto SA = RunA(A), SB = RunB(B);
    EXPECT_EQ(bool(SA), bool(SB));
    if (!SA || !SB) {
      std::string EA = SA ? "" : llvm::toString(SA.takeError());
      std::string EB = SB ? "" : llvm::toString(SB.takeError());
      EXPECT_EQ(EA, EB);
      return false;
    }
    EXPECT_EQ(print(A), print(B));
    return true;
  };
  SelectOptions Reuse, NoReuse;
  NoReuse.ReuseAlikeParts = false;
  for (unsigned Seed = 0; Seed != 40; ++Seed)
    for (LinkJoin J : {LinkJoin::Parallel, LinkJoin::Series}) {
      auto One = parseText(randomGraph(Seed, /*Plan=*/false));
      ASSERT_TRUE(One->G);
      llvm::Expected<std::unique_ptr<Graph>> L =
          linkGraphs({One->G.get(), One->G.get(), One->G.get()}, "r", J);
      ASSERT_TRUE(bool(L)) << llvm::toString(L.takeError());
      SCOPED_TRACE("seed " + std::to_string(Seed) + " join " +
                   std::to_string(unsigned(J)));
      const TargetDesc &T = (*L)->Target;
      Graph A = **L, B = **L;
      auto Stage = [&](auto Select, auto Opts) {
        return Same(
            A, B, [&](Graph &G) { return Select(G, T, Opts, Reuse); },
            [&](Graph &G) { return Select(G, T, Opts, NoReuse); });
      };
      if (!Stage(selectMPAS, MPASOptions()) || !Stage(selectDLR, DLROptions()))
        continue;
      Stage(selectCPE, CPEOptions());
    }
}
