//===- Generate.cpp - Graphs of known shape for the three workload families
//===//
//
// A small trace builder writes the graph in the order a compiler would emit
// it: an ALLOC right before the first operation that writes its buffer, each
// operation with an edge from the last writer of every buffer it names (or
// from the buffer's ALLOC when nothing wrote it yet), and at the end one FREE
// per buffer with edges from its ALLOC and from each user that has no direct
// successor using the same buffer (the last users). On the contest's matmul
// traces this rule reproduces every edge.
//
//===----------------------------------------------------------------------===//

#include "dan/Gen/Generate.h"
#include "llvm/ADT/STLExtras.h"
#include "llvm/ADT/SmallVector.h"
#include "llvm/ADT/StringExtras.h"
#include "llvm/Support/FormatVariadic.h"
#include "llvm/Support/MathExtras.h"
#include <random>

using namespace llvm;

namespace dan {

ArrayRef<EnumEntry<GenFamily>> genFamilyTable() {
  static const EnumEntry<GenFamily> Table[] = {
      {GenFamily::Matmul, "matmul", "tiled matrix multiply (default)"},
      {GenFamily::Attention, "attention", "FlashAttention with online softmax"},
      {GenFamily::Conv, "conv", "multi-layer convolution"},
  };
  return Table;
}

ArrayRef<EnumEntry<MatmulOrder>> matmulOrderTable() {
  static const EnumEntry<MatmulOrder> Table[] = {
      {MatmulOrder::MNK, "mnk", "row by row, as the traces (default)"},
      {MatmulOrder::NMK, "nmk", "column by column"},
      {MatmulOrder::Zigzag, "zigzag",
       "row by row, every other row right to left"},
  };
  return Table;
}

ArrayRef<EnumEntry<FreePlacement>> freePlacementTable() {
  static const EnumEntry<FreePlacement> Table[] = {
      {FreePlacement::End, "end",
       "all at the end, by buffer id, as the traces (default)"},
      {FreePlacement::LastUse, "last-use",
       "each right after the last operation that uses its buffer"},
  };
  return Table;
}

namespace {

constexpr NodeIdx NoNode = UINT32_MAX;

class TraceBuilder {
public:
  TraceBuilder(Graph &G, const TargetDesc &T, const GenOptions &Opts,
               StringRef FitHint)
      : G(G), T(T), Jitter(Opts.JitterPercent), Rng(Opts.Seed),
        FitHint(FitHint.str()) {}

  /// Emits an ALLOC and returns the new buffer's id.
  uint64_t alloc(Tier BufTier, uint64_t Size);
  /// Emits an operation on \p Bufs; when \p Writes, the first buffer is its
  /// output (later readers depend on this operation).
  NodeIdx op(unsigned Name, Pipe P, uint64_t Cycles, ArrayRef<uint64_t> Bufs,
             bool Writes = true);
  unsigned name(StringRef N) { return G.internOpName(N); }
  uint64_t cost(OpCost K, uint64_t X) const { return T.opCycles(K, X); }
  /// Emits the FREEs and places them; fails if an operation did not fit.
  Error finish(FreePlacement Frees);
  void reserve(uint64_t Nodes) {
    G.Nodes.reserve(Nodes);
    G.Order.reserve(Nodes);
    Succs.reserve(Nodes);
  }

private:
  uint64_t jitter(uint64_t Cycles);
  void checkFit(NodeIdx I);

  struct BufInfo {
    NodeIdx Alloc = NoNode, Writer = NoNode;
    SmallVector<NodeIdx, 3> Users;
  };
  Graph &G;
  const TargetDesc &T;
  unsigned Jitter;
  std::mt19937_64 Rng;
  std::string FitHint;
  std::vector<BufInfo> Bufs;
  /// The operations that have an edge from each node (FREEs excluded).
  std::vector<SmallVector<NodeIdx, 2>> Succs;
  std::string FitError;
};

uint64_t TraceBuilder::alloc(Tier BufTier, uint64_t Size) {
  Node N;
  N.Id = G.size();
  N.Kind = NodeKind::Alloc;
  N.BufTier = BufTier;
  N.Buf = Bufs.size();
  N.Size = Size;
  NodeIdx I = G.addNode(std::move(N));
  Succs.emplace_back();
  Bufs.push_back({I, NoNode, {}});
  return Bufs.size() - 1;
}

uint64_t TraceBuilder::jitter(uint64_t Cycles) {
  if (!Jitter)
    return Cycles;
  // 53 random bits as a double in [0, 1): the same draw on every platform.
  double U = double(Rng() >> 11) * 0x1.0p-53;
  double Delta = double(Cycles) * (2 * U - 1) * Jitter / 100;
  int64_t Result = int64_t(Cycles) + int64_t(Delta);
  return Result < 1 ? 1 : uint64_t(Result);
}

NodeIdx TraceBuilder::op(unsigned Name, Pipe P, uint64_t Cycles,
                         ArrayRef<uint64_t> BufIds, bool Writes) {
  Node N;
  N.Id = G.size();
  N.Kind = NodeKind::Op;
  N.OpName = Name;
  N.OpPipe = P;
  N.Cycles = jitter(Cycles);
  N.Bufs.assign(BufIds.begin(), BufIds.end());
  NodeIdx I = G.size();
  for (uint64_t B : BufIds) {
    NodeIdx From = Bufs[B].Writer != NoNode ? Bufs[B].Writer : Bufs[B].Alloc;
    if (!is_contained(N.Preds, From))
      N.Preds.push_back(From);
  }
  for (NodeIdx From : N.Preds)
    Succs[From].push_back(I);
  G.addNode(std::move(N));
  Succs.emplace_back();
  for (uint64_t B : BufIds)
    if (Bufs[B].Users.empty() || Bufs[B].Users.back() != I)
      Bufs[B].Users.push_back(I);
  if (Writes)
    Bufs[BufIds.front()].Writer = I;
  if (FitError.empty())
    checkFit(I);
  return I;
}

void TraceBuilder::checkFit(NodeIdx I) {
  const Node &N = G[I];
  std::array<uint64_t, NumTiers> Bytes{};
  for (size_t K = 0; K != N.Bufs.size(); ++K) {
    if (is_contained(ArrayRef(N.Bufs).take_front(K), N.Bufs[K]))
      continue;
    const Node &A = G[Bufs[N.Bufs[K]].Alloc];
    Bytes[static_cast<unsigned>(A.BufTier)] += A.Size;
  }
  for (unsigned K = 0; K != NumTiers; ++K) {
    Tier Tr = static_cast<Tier>(K);
    if (Bytes[K] > T.capacity(Tr)) {
      FitError =
          ("one " + G.opName(N) + " needs " + Twine(Bytes[K]) + " bytes of " +
           tierName(Tr) + " at once, more than its capacity of " +
           Twine(T.capacity(Tr)) + "; " + FitHint)
              .str();
      return;
    }
  }
}

Error TraceBuilder::finish(FreePlacement Frees) {
  if (!FitError.empty())
    return createStringError(inconvertibleErrorCode(), FitError);
  size_t NumOps = G.size();
  for (uint64_t B = 0; B != Bufs.size(); ++B) {
    const BufInfo &Info = Bufs[B];
    const Node &A = G[Info.Alloc];
    Node F;
    F.Id = G.size();
    F.Kind = NodeKind::Free;
    F.BufTier = A.BufTier;
    F.Buf = B;
    F.Size = A.Size;
    F.Preds.push_back(Info.Alloc);
    for (NodeIdx U : Info.Users) {
      // A user with a direct successor on the same buffer is not last.
      bool Later = any_of(
          Succs[U], [&](NodeIdx S) { return is_contained(G[S].Bufs, B); });
      if (!Later)
        F.Preds.push_back(U);
    }
    G.addNode(std::move(F));
  }
  G.sortEdges();
  if (Frees == FreePlacement::End)
    return Error::success();
  // Each FREE right after the last operation that uses its buffer (or after
  // its ALLOC when nothing does), by buffer id among those of one operation.
  std::vector<SmallVector<NodeIdx, 2>> After(NumOps);
  for (uint64_t B = 0; B != Bufs.size(); ++B) {
    NodeIdx Last = Bufs[B].Users.empty() ? Bufs[B].Alloc : Bufs[B].Users.back();
    After[Last].push_back(NumOps + B);
  }
  G.Order.clear();
  for (NodeIdx I = 0; I != NumOps; ++I) {
    G.Order.push_back(I);
    G.Order.insert(G.Order.end(), After[I].begin(), After[I].end());
  }
  return Error::success();
}

//===----------------------------------------------------------------------===//
// Node counts
//===----------------------------------------------------------------------===//

/// Saturating arithmetic for the counts, so absurd shapes fail the limit
/// check instead of wrapping.
uint64_t mul(uint64_t A, uint64_t B) { return SaturatingMultiply(A, B); }
uint64_t add(uint64_t A, uint64_t B) { return SaturatingAdd(A, B); }

uint64_t matmulNodes(const MatmulShape &S) {
  // Seven per MATMUL (two L0 allocs, two MOVEs, the MATMUL, two L0 frees),
  // three per L1 tile and three per output tile.
  uint64_t Steps = mul(mul(S.MTiles, S.NTiles), S.KTiles);
  uint64_t L1 = add(mul(S.MTiles, S.KTiles), mul(S.KTiles, S.NTiles));
  return add(add(mul(7, Steps), mul(3, L1)), mul(3, mul(S.MTiles, S.NTiles)));
}

uint64_t attentionNodes(const AttentionShape &S) {
  uint64_t D = S.HeadTiles, Q = S.QBlocks, KV = S.KVBlocks;
  uint64_t Loads = add(mul(3, mul(D, Q)), mul(6, mul(D, KV)));
  uint64_t Block = add(mul(16, D), 30); // Q*K^T, softmax, P*V
  uint64_t Merge = add(mul(12, D), 24); // every block after the first
  uint64_t Final = add(mul(4, D), 5);
  uint64_t Blocks = mul(Q, KV);
  uint64_t Total = add(Loads, mul(Blocks, Block));
  Total = add(Total, mul(mul(Q, KV ? KV - 1 : 0), Merge));
  return add(Total, mul(Q, add(mul(3, D), Final)));
}

uint64_t convNodes(const ConvShape &S) {
  // Three per input tile, nine per CONV, one COPY_OUT per output tile.
  uint64_t Tiles = mul(S.FmapTiles, S.ChannelTiles);
  return mul(Tiles, add(mul(9, S.Layers), 4));
}

//===----------------------------------------------------------------------===//
// The families
//===----------------------------------------------------------------------===//

void buildMatmul(TraceBuilder &B, const MatmulShape &S) {
  unsigned CopyIn = B.name("COPY_IN"), Move = B.name("MOVE"),
           Matmul = B.name("MATMUL"), CopyOut = B.name("COPY_OUT");
  uint64_t SizeA = S.TileM * S.TileK * 2, SizeB = S.TileK * S.TileN * 2,
           SizeC = S.TileM * S.TileN * 4;
  uint64_t MACs = S.TileM * S.TileN * S.TileK;
  constexpr uint64_t Unset = UINT64_MAX;
  std::vector<uint64_t> A(S.MTiles * S.KTiles, Unset),
      Bt(S.KTiles * S.NTiles, Unset);
  auto Tile = [&](uint64_t M, uint64_t N) {
    uint64_t C = B.alloc(Tier::L0C, SizeC);
    for (uint64_t K = 0; K != S.KTiles; ++K) {
      uint64_t &AT = A[M * S.KTiles + K], &BT = Bt[K * S.NTiles + N];
      SmallVector<uint64_t, 2> New;
      if (AT == Unset)
        New.push_back(AT = B.alloc(Tier::L1, SizeA));
      if (BT == Unset)
        New.push_back(BT = B.alloc(Tier::L1, SizeB));
      for (uint64_t L : New)
        B.op(CopyIn, Pipe::MTE2,
             B.cost(OpCost::CopyIn, L == AT ? SizeA : SizeB), {L});
      uint64_t L0A = B.alloc(Tier::L0A, SizeA), L0B = B.alloc(Tier::L0B, SizeB);
      B.op(Move, Pipe::MTE1, B.cost(OpCost::MoveL0, SizeA), {L0A, AT});
      B.op(Move, Pipe::MTE1, B.cost(OpCost::MoveL0, SizeB), {L0B, BT});
      B.op(Matmul, Pipe::CUBE, B.cost(OpCost::Mmad, MACs), {C, L0B, L0A});
    }
    B.op(CopyOut, Pipe::FIXP, B.cost(OpCost::FixpOut, SizeC), {C},
         /*Writes=*/false);
  };
  switch (S.Order) {
  case MatmulOrder::MNK:
  case MatmulOrder::Zigzag:
    for (uint64_t M = 0; M != S.MTiles; ++M)
      for (uint64_t J = 0; J != S.NTiles; ++J) {
        bool Back = S.Order == MatmulOrder::Zigzag && M % 2 == 1;
        Tile(M, Back ? S.NTiles - 1 - J : J);
      }
    break;
  case MatmulOrder::NMK:
    for (uint64_t N = 0; N != S.NTiles; ++N)
      for (uint64_t M = 0; M != S.MTiles; ++M)
        Tile(M, N);
    break;
  }
}

/// FlashAttention with online softmax, in the traces' order: key/value
/// blocks outside, query blocks inside. Tiles have the traces' shapes.
/// FlashAttention, one (key/value block, query block) step at a time: the
/// scores, their softmax, the online rescaling against earlier blocks, the
/// P * V product, the output update, and after the last key/value block the
/// final division and the outputs.
class AttentionBuilder {
public:
  AttentionBuilder(TraceBuilder &B, const AttentionShape &S)
      : B(B), S(S), D(S.HeadTiles), Q(S.QBlocks * D, Unset),
        K(S.KVBlocks * D, Unset), V(S.KVBlocks * D, Unset), MOld(S.QBlocks),
        LOld(S.QBlocks), O(S.QBlocks * D) {}

  void build() {
    for (uint64_t J = 0; J != S.KVBlocks; ++J)
      for (uint64_t I = 0; I != S.QBlocks; ++I)
        step(J, I);
  }

private:
  static constexpr uint64_t L1Tile = 256, L0Tile = 128, AccTile = 256,
                            UBTile = 128, Row = 2, Scratch = 16;
  static constexpr uint64_t Unset = UINT64_MAX;

  void step(uint64_t J, uint64_t I) {
    uint64_t P = softmax(scores(J, I));
    auto [Alpha, Beta] = rescale(J, I);
    SmallVector<uint64_t, 4> Acc = timesV(J, P);
    updateOutput(J, I, Acc, Alpha, Beta);
    if (J + 1 == S.KVBlocks)
      finish(I);
  }

  /// S = Q * K^T, accumulated over the head tiles.
  uint64_t scores(uint64_t J, uint64_t I) {
    uint64_t Score = B.alloc(Tier::L0C, AccTile);
    for (uint64_t C = 0; C != D; ++C) {
      uint64_t &QT = Q[I * D + C], &KT = K[J * D + C];
      SmallVector<uint64_t, 2> New;
      if (QT == Unset)
        New.push_back(QT = B.alloc(Tier::L1, L1Tile));
      if (KT == Unset)
        New.push_back(KT = B.alloc(Tier::L1, L1Tile));
      for (uint64_t L : New)
        B.op(CopyIn, Pipe::MTE2, LoadCycles, {L});
      mmad(Score, QT, KT);
    }
    return Score;
  }

  /// Softmax of the block: row max, exp, row sum; sets MCur and LCur.
  uint64_t softmax(uint64_t Score) {
    uint64_t Scores = B.alloc(Tier::UB, UBTile),
             MaxT = B.alloc(Tier::UB, UBTile);
    B.op(Copy, Pipe::FIXP, FixpCycles, {Scores, Score});
    B.op(RowMax, Pipe::VECTOR, B.cost(OpCost::RowMax, 0), {MaxT, Scores});
    MCur = compactRow(MaxT);
    uint64_t Diff =
        vec(Sub, OpCost::SubRowMax, Tier::UB, UBTile, {Scores, MaxT});
    uint64_t P = vec(Exp, OpCost::ExpTile, Tier::UB, UBTile, {Diff});
    uint64_t SumT = vec(RowSum, OpCost::RowSum, Tier::UB, UBTile, {P});
    LCur = compactRow(SumT);
    return P;
  }

  /// Online rescaling against the previous blocks: alpha and beta (unset
  /// for the first block), the new running max and sum.
  std::pair<uint64_t, uint64_t> rescale(uint64_t J, uint64_t I) {
    if (J == 0) {
      MOld[I] = MCur;
      LOld[I] = LCur;
      return {Unset, Unset};
    }
    uint64_t MNew = vec(Max, OpCost::MaxRow, Tier::UB, Row, {MOld[I], MCur});
    uint64_t T1 = vec(Sub, OpCost::SubRow, Tier::UB, Row, {MOld[I], MNew});
    uint64_t Alpha = vec(Exp, OpCost::ExpRow, Tier::UB, Row, {T1});
    uint64_t T2 = vec(Sub, OpCost::SubRow, Tier::UB, Row, {MCur, MNew});
    uint64_t Beta = vec(Exp, OpCost::ExpRow, Tier::UB, Row, {T2});
    uint64_t X1 = vec(Mul, OpCost::MulRow, Tier::UB, Row, {Beta, LCur});
    uint64_t X2 = vec(Mul, OpCost::MulRow, Tier::UB, Row, {Alpha, LOld[I]});
    LOld[I] = vec(Add, OpCost::AddRow, Tier::UB, Row, {X2, X1});
    MOld[I] = MNew;
    return {Alpha, Beta};
  }

  /// O_block = P * V, one accumulator per head tile.
  SmallVector<uint64_t, 4> timesV(uint64_t J, uint64_t P) {
    uint64_t PL1 = Unset;
    SmallVector<uint64_t, 4> Acc;
    for (uint64_t C = 0; C != D; ++C) {
      Acc.push_back(B.alloc(Tier::L0C, AccTile));
      uint64_t &VT = V[J * D + C];
      SmallVector<uint64_t, 2> New;
      if (PL1 == Unset)
        New.push_back(PL1 = B.alloc(Tier::L1, L1Tile));
      if (VT == Unset)
        New.push_back(VT = B.alloc(Tier::L1, L1Tile));
      for (uint64_t L : New) {
        if (L == PL1)
          B.op(Copy, Pipe::MTE3, B.cost(OpCost::Mte3Copy, UBTile), {PL1, P});
        else
          B.op(CopyIn, Pipe::MTE2, LoadCycles, {L});
      }
      mmad(Acc.back(), PL1, VT);
    }
    return Acc;
  }

  /// The first block's output, or O = O * alpha + O_block * beta.
  void updateOutput(uint64_t J, uint64_t I, ArrayRef<uint64_t> Acc,
                    uint64_t Alpha, uint64_t Beta) {
    if (J == 0) {
      for (uint64_t C = 0; C != D; ++C) {
        O[I * D + C] = B.alloc(Tier::UB, UBTile);
        B.op(Copy, Pipe::FIXP, FixpCycles, {O[I * D + C], Acc[C]});
      }
      return;
    }
    SmallVector<uint64_t, 4> Scaled, Old;
    for (uint64_t C = 0; C != D; ++C) {
      uint64_t U = B.alloc(Tier::UB, UBTile), W = B.alloc(Tier::UB, UBTile);
      B.op(Copy, Pipe::FIXP, FixpCycles, {U, Acc[C]});
      B.op(Mul, Pipe::VECTOR, B.cost(OpCost::MulTileRow, 0), {W, U, Beta});
      Scaled.push_back(W);
    }
    for (uint64_t C = 0; C != D; ++C)
      Old.push_back(vec(Mul, OpCost::MulTileRow, Tier::UB, UBTile,
                        {O[I * D + C], Alpha}));
    for (uint64_t C = 0; C != D; ++C)
      O[I * D + C] =
          vec(Add, OpCost::AddTile, Tier::UB, UBTile, {Old[C], Scaled[C]});
  }

  /// The last block: O / l, then the output and the row statistics.
  void finish(uint64_t I) {
    uint64_t R = vec(Rec, OpCost::RecRow, Tier::UB, Row, {LOld[I]});
    SmallVector<uint64_t, 4> Out;
    for (uint64_t C = 0; C != D; ++C)
      Out.push_back(
          vec(Mul, OpCost::MulTileRow, Tier::UB, UBTile, {O[I * D + C], R}));
    for (uint64_t C = 0; C != D; ++C)
      B.op(CopyOut, Pipe::MTE3, B.cost(OpCost::CopyOutUB, UBTile), {Out[C]},
           /*Writes=*/false);
    B.op(CopyOut, Pipe::MTE3, B.cost(OpCost::CopyOutUB, Row), {LOld[I]},
         /*Writes=*/false);
    B.op(CopyOut, Pipe::MTE3, B.cost(OpCost::CopyOutUB, Row), {MOld[I]},
         /*Writes=*/false);
  }

  void mmad(uint64_t Acc, uint64_t Left, uint64_t Right) {
    uint64_t L0A = B.alloc(Tier::L0A, L0Tile), L0B = B.alloc(Tier::L0B, L0Tile);
    B.op(Move, Pipe::MTE1, MoveA, {L0A, Left});
    B.op(Move, Pipe::MTE1, MoveT, {L0B, Right});
    B.op(Matmul, Pipe::CUBE, MMCycles, {Acc, L0B, L0A});
  }

  uint64_t vec(unsigned Name, OpCost C, Tier Tr, uint64_t Size,
               ArrayRef<uint64_t> Ins) {
    uint64_t Out = B.alloc(Tr, Size);
    SmallVector<uint64_t, 3> Bufs = {Out};
    Bufs.append(Ins.begin(), Ins.end());
    B.op(Name, Pipe::VECTOR, B.cost(C, 0), Bufs);
    return Out;
  }

  uint64_t compactRow(uint64_t In) {
    uint64_t Out = B.alloc(Tier::UB, Row), Tmp = B.alloc(Tier::UB, Scratch);
    B.op(Compact, Pipe::VECTOR, B.cost(OpCost::Compact, 0), {Out, In, Tmp});
    return Out;
  }

  TraceBuilder &B;
  const AttentionShape &S;
  uint64_t D;
  std::vector<uint64_t> Q, K, V;
  /// Per query block: the running row max and sum, and the output tiles.
  std::vector<uint64_t> MOld, LOld, O;
  /// The current block's row max and sum (softmax).
  uint64_t MCur = Unset, LCur = Unset;
  unsigned CopyIn = B.name("COPY_IN"), Move = B.name("MOVE"),
           Matmul = B.name("MATMUL"), Copy = B.name("COPY"),
           RowMax = B.name("ROWMAX"), Compact = B.name("COMPACT"),
           Sub = B.name("SUB"), Exp = B.name("EXP"), RowSum = B.name("ROWSUM"),
           Max = B.name("MAX"), Mul = B.name("MUL"), Add = B.name("ADD"),
           Rec = B.name("REC"), CopyOut = B.name("COPY_OUT");
  uint64_t MoveA = B.cost(OpCost::MoveL0, L0Tile),
           MoveT = B.cost(OpCost::MoveL0Transposed, L0Tile),
           MMCycles = B.cost(OpCost::Mmad, 8 * 8 * 8),
           LoadCycles = B.cost(OpCost::CopyIn, L1Tile),
           FixpCycles = B.cost(OpCost::FixpCopy, UBTile);
};

void buildAttention(TraceBuilder &B, const AttentionShape &S) {
  AttentionBuilder(B, S).build();
}

/// Layer after layer: each CONV writes one (feature-map tile, channel tile)
/// of its layer from the previous layer's tiles within the kernel's reach
/// (all channel tiles), with its own weight loaded to L1 and moved to L0B.
void buildConv(TraceBuilder &B, const ConvShape &S) {
  unsigned CopyIn = B.name("COPY_IN"), Move = B.name("MOVE"),
           Conv = B.name("CONV"), CopyOut = B.name("COPY_OUT");
  uint64_t Tiles = S.FmapTiles * S.ChannelTiles;
  constexpr uint64_t Unset = UINT64_MAX;
  std::vector<uint64_t> In(Tiles, Unset), Out(Tiles);
  for (uint64_t L = 0; L != S.Layers; ++L) {
    uint64_t Kernel = S.Kernels[L % S.Kernels.size()];
    uint64_t Reach = Kernel / 2, WeightL1 = 16 * Kernel * Kernel,
             WeightL0 = 8 * Kernel * Kernel;
    for (uint64_t T = 0; T != S.FmapTiles; ++T) {
      for (uint64_t C = 0; C != S.ChannelTiles; ++C) {
        uint64_t Result = B.alloc(Tier::L1, S.TileBytes);
        SmallVector<uint64_t, 8> Bufs;
        uint64_t First = T >= Reach ? T - Reach : 0,
                 Last = std::min(S.FmapTiles - 1, T + Reach);
        for (uint64_t U = First; U <= Last; ++U)
          for (uint64_t CI = 0; CI != S.ChannelTiles; ++CI) {
            uint64_t &Tile = In[U * S.ChannelTiles + CI];
            if (Tile == Unset) { // the network's input, from DDR
              Tile = B.alloc(Tier::L1, S.TileBytes);
              B.op(CopyIn, Pipe::MTE2, B.cost(OpCost::CopyIn, S.TileBytes),
                   {Tile});
            }
            Bufs.push_back(Tile);
          }
        uint64_t W = B.alloc(Tier::L1, WeightL1);
        B.op(CopyIn, Pipe::MTE2, B.cost(OpCost::CopyIn, WeightL1), {W});
        uint64_t WL0 = B.alloc(Tier::L0B, WeightL0);
        B.op(Move, Pipe::MTE1, B.cost(OpCost::MoveWeight, WeightL0), {WL0, W});
        Bufs.insert(Bufs.begin(), {Result, WL0});
        B.op(Conv, Pipe::CUBE,
             B.cost(OpCost::Conv,
                    mul(mul(Kernel * Kernel, S.TileBytes), S.ChannelTiles)),
             Bufs);
        Out[T * S.ChannelTiles + C] = Result;
      }
    }
    In = Out;
  }
  for (uint64_t Tile : In)
    B.op(CopyOut, Pipe::MTE3, B.cost(OpCost::CopyOutL1, S.TileBytes), {Tile},
         /*Writes=*/false);
}

Error invalid(const Twine &Msg) {
  return createStringError(inconvertibleErrorCode(), Msg);
}

Error checkShape(const GenOptions &Opts) {
  auto Positive = [](uint64_t V, StringRef Option) -> Error {
    if (V == 0)
      return invalid("--" + Option + " must be at least 1");
    return Error::success();
  };
  switch (Opts.Family) {
  case GenFamily::Matmul: {
    const MatmulShape &S = Opts.Matmul;
    for (auto [V, Name] :
         {std::pair(S.MTiles, "m-tiles"), std::pair(S.NTiles, "n-tiles"),
          std::pair(S.KTiles, "k-tiles"), std::pair(S.TileM, "tile-m"),
          std::pair(S.TileN, "tile-n"), std::pair(S.TileK, "tile-k")})
      if (Error E = Positive(V, Name))
        return E;
    for (auto [V, Name] :
         {std::pair(S.TileM, "tile-m"), std::pair(S.TileN, "tile-n"),
          std::pair(S.TileK, "tile-k")})
      if (V > 4096)
        return invalid("--" + Twine(Name) + " must be at most 4096");
    return Error::success();
  }
  case GenFamily::Attention: {
    const AttentionShape &S = Opts.Attention;
    for (auto [V, Name] :
         {std::pair(S.QBlocks, "q-blocks"), std::pair(S.KVBlocks, "kv-blocks"),
          std::pair(S.HeadTiles, "head-tiles")})
      if (Error E = Positive(V, Name))
        return E;
    return Error::success();
  }
  case GenFamily::Conv: {
    const ConvShape &S = Opts.Conv;
    for (auto [V, Name] :
         {std::pair(S.Layers, "layers"), std::pair(S.FmapTiles, "fmap-tiles"),
          std::pair(S.ChannelTiles, "channel-tiles"),
          std::pair(S.TileBytes, "tile-size")})
      if (Error E = Positive(V, Name))
        return E;
    if (S.TileBytes > MaxValue)
      return invalid("--tile-size must be at most 2^40");
    if (S.Kernels.empty())
      return invalid("--kernels needs at least one kernel size");
    for (uint64_t K : S.Kernels)
      if (K == 0 || K % 2 == 0 || K > 15)
        return invalid("--kernels: " + Twine(K) +
                       " is not an odd kernel size from 1 to 15");
    return Error::success();
  }
  }
  return Error::success();
}

} // namespace

uint64_t countGenNodes(const GenOptions &Opts) {
  switch (Opts.Family) {
  case GenFamily::Matmul:
    return matmulNodes(Opts.Matmul);
  case GenFamily::Attention:
    return attentionNodes(Opts.Attention);
  case GenFamily::Conv:
    return convNodes(Opts.Conv);
  }
  return 0;
}

std::string defaultGenName(const GenOptions &Opts) {
  switch (Opts.Family) {
  case GenFamily::Matmul:
    return formatv("matmul_{0}x{1}x{2}", Opts.Matmul.MTiles, Opts.Matmul.NTiles,
                   Opts.Matmul.KTiles)
        .str();
  case GenFamily::Attention:
    return formatv("attention_{0}x{1}x{2}", Opts.Attention.QBlocks,
                   Opts.Attention.KVBlocks, Opts.Attention.HeadTiles)
        .str();
  case GenFamily::Conv:
    return formatv("conv_{0}x{1}x{2}", Opts.Conv.Layers, Opts.Conv.FmapTiles,
                   Opts.Conv.ChannelTiles)
        .str();
  }
  return "";
}

Expected<std::unique_ptr<Graph>> generateGraph(const GenOptions &Opts,
                                               const TargetDesc &T) {
  if (Error E = checkShape(Opts))
    return E;
  uint64_t Nodes = countGenNodes(Opts);
  if (Nodes > MaxGenNodes)
    return invalid("the graph would have " +
                   (Nodes == UINT64_MAX ? std::string("more than 2^64")
                                        : std::to_string(Nodes)) +
                   " nodes, more than the limit of " + Twine(MaxGenNodes));
  if (Opts.JitterPercent > 100)
    return invalid("--jitter must be at most 100 (percent)");
  auto G = std::make_unique<Graph>();
  G->Name = Opts.Name.empty() ? defaultGenName(Opts) : Opts.Name;
  StringRef Hint;
  switch (Opts.Family) {
  case GenFamily::Matmul:
    Hint = "use smaller tiles (--tile-m, --tile-n, --tile-k)";
    break;
  case GenFamily::Attention:
    Hint = "FlashAttention's tiles are fixed; raise it with --capacity";
    break;
  case GenFamily::Conv:
    Hint = "use a smaller --tile-size, fewer --channel-tiles or smaller "
           "--kernels";
    break;
  }
  TraceBuilder B(*G, T, Opts, Hint);
  B.reserve(Nodes);
  switch (Opts.Family) {
  case GenFamily::Matmul:
    buildMatmul(B, Opts.Matmul);
    break;
  case GenFamily::Attention:
    buildAttention(B, Opts.Attention);
    break;
  case GenFamily::Conv:
    buildConv(B, Opts.Conv);
    break;
  }
  if (Error E = B.finish(Opts.Frees))
    return E;
  assert(G->size() == Nodes && "node count formula out of date");
  return G;
}

} // namespace dan
