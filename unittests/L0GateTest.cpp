//===- L0GateTest.cpp - The L0 legalization against a plain walk ----------===//
//
// legalizeL0 parks the operations the gate refuses until what they were
// refused for changes. Its contract is to make exactly the order of the
// plain walk that asks the gate about every ready operation, first by
// position, at every step. This test keeps that walk and compares the two
// on generated graphs of every family, under shrunk L0 tiers (so that the
// gate refuses often), with L0 counted in bytes and in buffers, and from
// many random preferred orders.
//
//===----------------------------------------------------------------------===//

#include "dan/Schedule/L0Gate.h"
#include "TestUtil.h"
#include "dan/Gen/Generate.h"
#include "dan/Target/Davinci/Davinci.h"
#include "gtest/gtest.h"
#include <random>
#include <set>

using namespace dan;
using namespace dan::sched;

namespace {

/// The walk legalizeL0 replaced: every step asks the gate about the ready
/// operations in position order and runs the first it admits, else the
/// first one.
std::vector<uint32_t> plainLegalize(const View &V,
                                    const std::vector<uint32_t> &Pref) {
  if (!V.SingleL0 && V.evaluate(Pref).first.L0Over == 0)
    return Pref;
  size_t N = V.Ops.size();
  std::vector<uint32_t> Pos(N), Left(N), Order;
  for (uint32_t I = 0; I != Pref.size(); ++I)
    Pos[Pref[I]] = I;
  std::vector<uint8_t> Done(N, 0);
  std::set<std::pair<uint32_t, uint32_t>> Ready;
  for (uint32_t O = 0; O != N; ++O)
    if (!(Left[O] = V.OpPreds[O].size()))
      Ready.insert({Pos[O], O});
  MemState S = V.initial();
  L0Gate Gate(V);
  while (!Ready.empty()) {
    auto It = Ready.begin();
    for (auto J = Ready.begin(); J != Ready.end(); ++J)
      if (Gate.admit(S, Done, J->second)) {
        It = J;
        break;
      }
    uint32_t O = It->second;
    Ready.erase(It);
    Order.push_back(O);
    Done[O] = 1;
    Gate.willRun(S, O);
    V.apply(S, O);
    for (uint32_t Su : V.OpSuccs[O])
      if (--Left[Su] == 0)
        Ready.insert({Pos[Su], Su});
  }
  return Order;
}

/// A random topological order of the operations.
std::vector<uint32_t> randomOrder(const View &V, std::mt19937 &Rng) {
  size_t N = V.Ops.size();
  std::vector<uint32_t> Left(N), Ready, Order;
  for (uint32_t O = 0; O != N; ++O)
    if (!(Left[O] = V.OpPreds[O].size()))
      Ready.push_back(O);
  while (!Ready.empty()) {
    size_t K = std::uniform_int_distribution<size_t>(0, Ready.size() - 1)(Rng);
    uint32_t O = Ready[K];
    Ready[K] = Ready.back();
    Ready.pop_back();
    Order.push_back(O);
    for (uint32_t S : V.OpSuccs[O])
      if (--Left[S] == 0)
        Ready.push_back(S);
  }
  return Order;
}

TEST(L0GateTest, ParkingMakesThePlainWalksOrder) {
  unsigned Compared = 0, Changed = 0;
  for (uint64_t L0 : {256, 384, 512}) {
    TargetDesc T = TargetDesc::davinci();
    for (Tier Ti : {davinci::L0A, davinci::L0B, davinci::L0C})
      T.setCapacity(Ti, L0);
    for (GenFamily F :
         {GenFamily::Matmul, GenFamily::Attention, GenFamily::Conv}) {
      GenOptions Opts;
      Opts.Family = F;
      Opts.Seed = 5;
      Opts.JitterPercent = 10;
      llvm::Expected<std::unique_ptr<Graph>> G =
          generateGraph(Opts, TargetDesc::davinci());
      ASSERT_TRUE(bool(G)) << llvm::toString(G.takeError());
      View V(**G, T);
      std::mt19937 Rng(uint32_t(L0) + uint32_t(F));
      for (unsigned Round = 0; Round != 20; ++Round) {
        // One buffer per L0 tier (--l0=single) in every fourth round: the
        // room is then counted in buffers.
        V.SingleL0 = Round % 4 == 3;
        std::vector<uint32_t> Pref = randomOrder(V, Rng);
        std::vector<uint32_t> Plain = plainLegalize(V, Pref);
        EXPECT_EQ(legalizeL0(V, Pref), Plain)
            << "L0 " << L0 << ", family " << unsigned(F) << ", round " << Round;
        ++Compared;
        Changed += Plain != Pref;
      }
    }
  }
  // The gate had work to do: most random orders overflow an L0 tier.
  EXPECT_EQ(Compared, 180u);
  EXPECT_GT(Changed, 90u);
}

/// Matmul tiles (an L0A, an L0B and an L0C buffer, a MOVE into each input,
/// a MATMUL, a COPY_OUT) with random edges between the operations of
/// different tiles, each from an earlier tile to a later one: the gate's
/// groups wait on each other, and it often admits no ready operation, so
/// that the first one runs anyway (and may start a group that is not open).
std::string tilesWithCrossEdges(std::mt19937 &Rng, int Tiles) {
  std::string T = "graph @g {\n";
  auto Id = [](int Tile, int K) { return "n" + std::to_string(10 * Tile + K); };
  bool SharedWithNext = false;
  for (int I = 0; I != Tiles; ++I) {
    std::string A = "b" + std::to_string(3 * I),
                B = "b" + std::to_string(3 * I + 1),
                C = "b" + std::to_string(3 * I + 2);
    auto Cross = [&](int K) {
      std::string E;
      for (int J = 0; J != I; ++J)
        for (int L : {1, 3, 5})
          if (Rng() % Tiles == 0)
            E += ", " + Id(J, L);
      (void)K;
      return E;
    };
    T += Id(I, 0) + " = alloc " + A + " L0A 64\n";
    T += Id(I, 1) + " = MOVE MTE1 10 (" + A + ") after " + Id(I, 0) + Cross(1) +
         "\n";
    T += Id(I, 2) + " = alloc " + B + " L0B 64\n";
    T += Id(I, 3) + " = MOVE MTE1 10 (" + B + ") after " + Id(I, 2) + Cross(3) +
         "\n";
    T += Id(I, 4) + " = alloc " + C + " L0C 64\n";
    // Now and then a tile's MATMUL also reads the tile before's L0A
    // buffer, whose free then waits for it: readers of one buffer chained.
    bool Shares = I + 1 != Tiles && Rng() % 3 == 0;
    bool Shared = I && SharedWithNext;
    std::string Prev = "b" + std::to_string(3 * (I - 1));
    T += Id(I, 5) + " = MATMUL CUBE 10 (" + C + ", " + A + ", " + B +
         (Shared ? ", " + Prev : "") + ") after " + Id(I, 1) + ", " + Id(I, 3) +
         ", " + Id(I, 4) + Cross(5) + "\n";
    if (Shared)
      T +=
          Id(I - 1, 6) + " = free " + Prev + " L0A 64 after " + Id(I, 5) + "\n";
    if (!Shares)
      T += Id(I, 6) + " = free " + A + " L0A 64 after " + Id(I, 5) + "\n";
    SharedWithNext = Shares;
    T += Id(I, 7) + " = free " + B + " L0B 64 after " + Id(I, 5) + "\n";
    T += Id(I, 8) + " = COPY_OUT FIXP 10 (" + C + ") after " + Id(I, 5) + "\n";
    T += Id(I, 9) + " = free " + C + " L0C 64 after " + Id(I, 8) + "\n";
  }
  return T + "}";
}

} // namespace

// Tiles whose groups wait on each other, under L0 tiers that hold one to
// three tiles, from random preferred orders: the gate often admits no
// ready operation and the first one runs anyway, starting buffers of a
// group that is not open; the orders are still the plain walk's.
TEST(L0GateTest, ParkingAfterTheFallback) {
  std::mt19937 Rng(3);
  unsigned Compared = 0;
  for (unsigned Round = 0; Round != 3000; ++Round) {
    llvm::SourceMgr SM;
    std::string Diags;
    auto G =
        test::parse(SM, tilesWithCrossEdges(Rng, 4 + Round % 5).c_str(), Diags);
    ASSERT_TRUE(G) << Diags;
    TargetDesc T = TargetDesc::davinci();
    uint64_t L0 = 64 * (1 + Round % 3);
    for (Tier Ti : {davinci::L0A, davinci::L0B, davinci::L0C})
      T.setCapacity(Ti, L0);
    View V(*G, T);
    V.SingleL0 = Round % 4 == 3;
    std::vector<uint32_t> Pref = randomOrder(V, Rng);
    EXPECT_EQ(legalizeL0(V, Pref), plainLegalize(V, Pref)) << "round " << Round;
    ++Compared;
  }
  EXPECT_EQ(Compared, 3000u);
}
