//===- GenerateCase.cpp - Fuzzer bytes to a graph that verifies -----------===//

#include "GenerateCase.h"
#include "dan/Analysis/Verifier.h"
#include "dan/Gen/Generate.h"
#include "dan/Target/Davinci/Davinci.h"
#include "llvm/ADT/STLExtras.h"
#include "llvm/ADT/SmallVector.h"
#include <array>

using namespace llvm;

namespace dan::fuzz {

uint8_t ByteReader::byte() {
  if (Data.empty())
    return 0;
  uint8_t B = Data.front();
  Data = Data.drop_front();
  return B;
}

uint64_t ByteReader::range(uint64_t Lo, uint64_t Hi) {
  uint64_t Span = Hi - Lo;
  if (!Span)
    return Lo;
  // Only as many bytes as the span has, so small choices cost one byte.
  uint64_t V = 0;
  for (uint64_t Left = Span; Left; Left >>= 8)
    V = V << 8 | byte();
  return Span == UINT64_MAX ? Lo + V : Lo + V % (Span + 1);
}

namespace {

constexpr Tier AllTiers[] = {davinci::L1, davinci::UB, davinci::L0A,
                             davinci::L0B, davinci::L0C};
constexpr Pipe AllPipes[] = {davinci::MTE1, davinci::MTE2, davinci::MTE3,
                             davinci::FIXP, davinci::CUBE, davinci::VECTOR};

// In every list below the first choice is the tools' default, since a
// reader out of bytes picks index 0.

void chooseTarget(ByteReader &R, TargetDesc &T) {
  uint8_t Mode = R.byte();
  if (Mode & 1)
    for (Tier Tr : AllTiers) {
      uint64_t Def = T.capacity(Tr);
      switch (R.byte() % 6) {
      case 0:
        break;
      case 1:
        T.setCapacity(Tr, Def / 2);
        break;
      case 2:
        T.setCapacity(Tr, Def / 8);
        break;
      case 3:
        T.setCapacity(Tr, Def * 2);
        break;
      default:
        // Down to 0: a tier that only buffers of size 0 fit.
        T.setCapacity(Tr, R.range(0, 4 * Def));
        break;
      }
    }
  if (Mode & 2)
    T.setSpillCost(R.range(0, 1000), R.range(0, 16));
}

void chooseOptions(ByteReader &R, FuzzCase &C) {
  MPASOptions &M = C.MPAS;
  M.L0 = R.pick<L0Mode>(
      {L0Mode::Auto, L0Mode::Capacity, L0Mode::Single, L0Mode::Ignore});
  M.Weights = R.pick<MPASWeights>({MPASWeights::Auto, MPASWeights::Balanced,
                                   MPASWeights::MemoryFirst,
                                   MPASWeights::CriticalityFirst});
  M.Allocs = R.pick<AllocChoice>({AllocChoice::Demand, AllocChoice::Priority});
  M.Objective =
      R.pick<MPASObjective>({MPASObjective::Overflow, MPASObjective::Peak});
  M.Order = R.pick<Traversal>({Traversal::Auto, Traversal::Free,
                               Traversal::Tasks, Traversal::Window,
                               Traversal::Groups, Traversal::Staged});
  M.Group = R.pick<unsigned>({2, 0, 1, 3});
  // dan-mpas refuses the window search under a fixed L0 rule other than
  // capacity, and the staged order under --l0=ignore.
  if (M.Order == Traversal::Window && M.L0 != L0Mode::Auto)
    M.L0 = L0Mode::Capacity;
  if (M.Order == Traversal::Staged && M.L0 == L0Mode::Ignore)
    M.L0 = L0Mode::Single;
  // Rare: the input order is already legal, so this only checks it.
  if (R.byte() == 0xff)
    M.Order = Traversal::Input;

  DLROptions &D = C.DLR;
  D.Fit = R.pick<FitPolicy>(
      {FitPolicy::Timed, FitPolicy::Best, FitPolicy::First, FitPolicy::Next});
  D.Evict = R.pick<EvictPolicy>({EvictPolicy::Cost, EvictPolicy::LRU,
                                 EvictPolicy::Belady, EvictPolicy::CostPerByte,
                                 EvictPolicy::Traffic});
  D.Victims = R.pick<VictimSet>({VictimSet::Window, VictimSet::Single});
  D.LambdaByte = R.pick<double>({1.0, 0.0, 0.5, 2.0, 100.0});
  D.LambdaCyc = R.pick<double>({1.0, 0.0, 0.5, 2.0, 100.0});
  D.Horizon = R.pick<uint32_t>({0, 1, 8, 200, 800});
  // dan-dlr's default is --horizon=auto.
  D.AutoHorizon = !R.flag();
  if (R.flag())
    D.Fit = FitPolicy::Auto;

  CPEOptions &P = C.CPE;
  P.Mode = R.pick<CPEMode>({CPEMode::Refine, CPEMode::Freeze, CPEMode::Ignore});
  P.Moves = R.pick<CPEMoveSet>({CPEMoveSet::Ops, CPEMoveSet::OpsAndBuffers});
  P.Window = R.pick<unsigned>({16, 1, 2, 4, 64});
  P.Passes = R.pick<unsigned>({8, 1, 2, 0});
  P.MaxCandidates = R.pick<uint64_t>({4000, 1, 16, 0});
  P.DenseAfter = R.pick<uint64_t>({256, 1, 4});
}

/// A dan-gen workload of a small shape, or none when it refuses the shape.
std::unique_ptr<Graph> chooseGen(ByteReader &R, const TargetDesc &T) {
  GenOptions O;
  O.Family = R.pick<GenFamily>(
      {GenFamily::Matmul, GenFamily::Attention, GenFamily::Conv});
  O.Matmul.MTiles = R.range(1, 3);
  O.Matmul.NTiles = R.range(1, 3);
  O.Matmul.KTiles = R.range(1, 3);
  O.Matmul.TileM = R.pick<uint64_t>({8, 1, 4, 16});
  O.Matmul.TileN = R.pick<uint64_t>({8, 1, 4, 16});
  O.Matmul.TileK = R.pick<uint64_t>({8, 1, 4, 16});
  O.Matmul.Order = R.pick<MatmulOrder>(
      {MatmulOrder::MNK, MatmulOrder::NMK, MatmulOrder::Zigzag});
  O.Attention.QBlocks = R.range(1, 3);
  O.Attention.KVBlocks = R.range(1, 3);
  O.Attention.HeadTiles = R.range(1, 2);
  O.Conv.Layers = R.range(1, 3);
  O.Conv.FmapTiles = R.range(1, 3);
  O.Conv.ChannelTiles = R.range(1, 2);
  O.Conv.Kernels = {R.pick<uint64_t>({3, 1, 5})};
  O.Conv.TileBytes = R.pick<uint64_t>({128, 16, 64, 256});
  O.JitterPercent = R.pick<unsigned>({0, 10, 50});
  O.Seed = R.byte();
  O.Frees = R.pick<FreePlacement>({FreePlacement::End, FreePlacement::LastUse});
  if (countGenNodes(O) > MaxCaseNodes)
    return nullptr;
  Expected<std::unique_ptr<Graph>> G = generateGraph(O, T);
  if (!G) {
    consumeError(G.takeError());
    return nullptr;
  }
  return std::move(*G);
}

/// Builds the random DAG in schedule order: node K of Seq runs K-th, and its
/// Preds hold positions in Seq until the graph is laid out.
class DagBuilder {
public:
  DagBuilder(ByteReader &R, const TargetDesc &T) : R(R), T(T) {}
  std::unique_ptr<Graph> build();

private:
  struct Buffer {
    uint64_t Id;
    Tier BufTier;
    uint64_t Size;
    uint32_t Alloc;
    SmallVector<uint32_t, 4> Users;
  };
  uint32_t add(Node N);
  void edge(Node &N, uint32_t From);
  void extraEdges(Node &N);
  size_t alloc();
  void op();
  void free(size_t LiveSlot);

  ByteReader &R;
  const TargetDesc &T;
  std::vector<Node> Seq;
  std::vector<Buffer> Bufs;
  /// Buffers allocated and not yet freed, by index into Bufs.
  std::vector<size_t> Live;
  std::vector<std::string> Names;
  uint64_t BufIdBase = 0, BufIdStep = 1;
  // Which of the contest's edges the trace writes; the execution model
  // implies the others, which the stages must honour anyway.
  bool AllocEdges = true, FreeEdges = true, DataEdges = true;
  bool ExtraEdges = false;
};

uint32_t DagBuilder::add(Node N) {
  Seq.push_back(std::move(N));
  return Seq.size() - 1;
}

void DagBuilder::edge(Node &N, uint32_t From) {
  if (!is_contained(N.Preds, From))
    N.Preds.push_back(From);
}

void DagBuilder::extraEdges(Node &N) {
  // Any earlier node may precede any later one: the schedule stays legal.
  if (!ExtraEdges || Seq.empty())
    return;
  for (unsigned K = R.range(0, 3); K; --K)
    edge(N, R.range(0, Seq.size() - 1));
}

size_t DagBuilder::alloc() {
  Tier Tr = R.pick<Tier>(AllTiers);
  uint64_t Cap = T.capacity(Tr);
  // Mostly small buffers, so that several share a tier; sometimes up to the
  // whole tier.
  uint64_t Size = R.flag() ? R.range(0, Cap) : R.range(0, Cap / 4);
  Node N;
  N.Kind = NodeKind::Alloc;
  N.BufTier = Tr;
  N.Size = Size;
  N.Buf = BufIdBase + Bufs.size() * BufIdStep;
  extraEdges(N);
  uint32_t At = add(std::move(N));
  Bufs.push_back({Seq[At].Buf, Tr, Size, At, {}});
  Live.push_back(Bufs.size() - 1);
  return Bufs.size() - 1;
}

void DagBuilder::op() {
  Node N;
  N.Kind = NodeKind::Op;
  N.OpPipe = R.pick<Pipe>(AllPipes);
  N.OpName = R.range(0, Names.size() - 1);
  // The target's rules: a name that may not run on the drawn pipe takes
  // the first it may run on, and buffers of tiers it may not use are left
  // out below (so graphs that keep the rules are drawn as before).
  const OpRule *Rule = T.opRule(Names[N.OpName]);
  if (Rule && !(Rule->Pipes >> index(N.OpPipe) & 1))
    N.OpPipe = static_cast<Pipe>(countr_zero(Rule->Pipes));
  TierMask Allowed = T.pipeTiers(N.OpPipe) & (Rule ? Rule->Tiers : AllOfThem);
  N.Cycles = R.flag() ? R.range(0, 4000) : R.range(0, 200);
  // Zero to four buffers: an operation without any is legal (MAGIS's
  // subset DP once addressed an empty table on a window of them).
  std::array<uint64_t, MaxTiers> Bytes{};
  SmallVector<size_t, 4> Used;
  for (unsigned K = R.range(0, 4); K; --K) {
    size_t B = Live.empty() || R.byte() < 32
                   ? alloc()
                   : Live[R.range(0, Live.size() - 1)];
    // A buffer may be listed twice; distinct ones must fit their tier
    // together, or no plan exists.
    unsigned Ti = static_cast<unsigned>(Bufs[B].BufTier);
    if (!(Allowed >> Ti & 1))
      continue;
    if (!is_contained(Used, B)) {
      if (Bytes[Ti] + Bufs[B].Size > T.capacity(Bufs[B].BufTier))
        continue;
      Bytes[Ti] += Bufs[B].Size;
    }
    Used.push_back(B);
    N.Bufs.push_back(Bufs[B].Id);
  }
  for (size_t B : Used) {
    const Buffer &Info = Bufs[B];
    if (DataEdges && !Info.Users.empty())
      edge(N, Info.Users.back());
    else if (AllocEdges)
      edge(N, Info.Alloc);
  }
  extraEdges(N);
  uint32_t At = add(std::move(N));
  for (size_t B : Used)
    if (Bufs[B].Users.empty() || Bufs[B].Users.back() != At)
      Bufs[B].Users.push_back(At);
}

void DagBuilder::free(size_t LiveSlot) {
  const Buffer &Info = Bufs[Live[LiveSlot]];
  Node N;
  N.Kind = NodeKind::Free;
  N.BufTier = Info.BufTier;
  N.Size = Info.Size;
  N.Buf = Info.Id;
  if (FreeEdges) {
    edge(N, Info.Alloc);
    for (uint32_t U : Info.Users)
      edge(N, U);
  }
  extraEdges(N);
  add(std::move(N));
  Live.erase(Live.begin() + LiveSlot);
}

std::unique_ptr<Graph> DagBuilder::build() {
  uint8_t Edges = R.byte();
  // Mostly the contest's edges; sometimes only some of them, and the
  // lifetime rule's fewest (addLifetimeEdges) order the rest.
  if ((Edges & 0x30) == 0x30) {
    AllocEdges = Edges & 1;
    FreeEdges = Edges & 2;
    DataEdges = Edges & 4;
  }
  ExtraEdges = Edges & 8;
  // Mostly small graphs, which run fast; sometimes up to the limit.
  unsigned MaxNodes = (Edges >> 6) == 3   ? MaxCaseNodes
                      : (Edges >> 6) == 2 ? 40
                                          : 200;
  Names = {"COPY_IN", "COPY_OUT", "MOVE", "MATMUL", "EXP", "ADD", "COPY"};
  uint8_t Ids = R.byte();
  uint64_t IdBase = Ids & 1 ? R.range(0, uint64_t(1) << 30) : 0;
  uint64_t IdStep = Ids & 2 ? R.range(1, 7) : 1;
  BufIdBase = Ids & 4 ? R.range(0, uint64_t(1) << 30) : 0;
  BufIdStep = Ids & 8 ? R.range(1, 7) : 1;
  // Ids in storage order rather than schedule order, and storage itself
  // reversed or rotated: NodeIdx, position and id are three numberings.
  bool IdsByStorage = Ids & 16;
  unsigned Layout = (Ids >> 5) % 3;

  // Each step adds at most 5 nodes (an operation with four new buffers).
  while (!R.empty() && Seq.size() + Live.size() + 8 < MaxNodes) {
    uint8_t Step = R.byte() % 8;
    if (Step < 2)
      alloc();
    else if (Step < 6)
      op();
    else if (!Live.empty())
      free(R.range(0, Live.size() - 1));
  }
  while (!Live.empty())
    free(Live.size() - 1);

  auto G = std::make_unique<Graph>();
  G->Name = "fuzz";
  for (const std::string &Name : Names)
    G->internOpName(Name);
  size_t V = Seq.size();
  std::vector<uint32_t> PosOfIdx(V);
  size_t Shift = Layout == 2 ? R.range(0, V - 1) : 0;
  for (size_t I = 0; I != V; ++I)
    PosOfIdx[I] = Layout == 1 ? V - 1 - I : (I + Shift) % V;
  std::vector<NodeIdx> IdxOfPos(V);
  for (size_t I = 0; I != V; ++I)
    IdxOfPos[PosOfIdx[I]] = I;
  for (size_t I = 0; I != V; ++I) {
    Node N = Seq[PosOfIdx[I]];
    N.Id = IdBase + (IdsByStorage ? I : PosOfIdx[I]) * IdStep;
    for (NodeIdx &P : N.Preds)
      P = IdxOfPos[P];
    G->addNode(std::move(N));
  }
  G->Order = IdxOfPos;
  G->sortEdges();
  // Built in schedule order, so the edges it adds close no cycle.
  if (!AllocEdges || !FreeEdges)
    cantFail(addLifetimeEdges(*G));
  return G;
}

} // namespace

FuzzCase generateCase(ByteReader &R) {
  FuzzCase C;
  chooseTarget(R, C.Target);
  chooseOptions(R, C);
  if (R.byte() % 8 == 7) {
    C.FromGen = true;
    C.G = chooseGen(R, C.Target);
  } else {
    C.G = DagBuilder(R, C.Target).build();
  }
  return C;
}

} // namespace dan::fuzz
