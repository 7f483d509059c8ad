//===- GenAttention.cpp - FlashAttention with online softmax --------------===//
//
// The attention family: FlashAttention, one (key/value block, query block)
// step at a time, with the online softmax's rescaling between the
// key/value blocks of each query block.
//
//===----------------------------------------------------------------------===//

#include "GenBuilder.h"
#include <utility>

using namespace llvm;

namespace dan::gen {

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

namespace {

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
    uint64_t Score = B.alloc(davinci::L0C, AccTile);
    for (uint64_t C = 0; C != D; ++C) {
      uint64_t &QT = Q[I * D + C], &KT = K[J * D + C];
      SmallVector<uint64_t, 2> New;
      if (QT == Unset)
        New.push_back(QT = B.alloc(davinci::L1, L1Tile));
      if (KT == Unset)
        New.push_back(KT = B.alloc(davinci::L1, L1Tile));
      for (uint64_t L : New) {
        NodeIdx Load = B.op(CopyIn, davinci::MTE2, LoadCycles, {L});
        if (L == QT)
          B.nameTile(Load, S.NameQ, I, C, /*Store=*/false);
        else
          B.nameTile(Load, S.NameK, J, C, /*Store=*/false);
      }
      mmad(Score, QT, KT);
    }
    return Score;
  }

  /// Softmax of the block: row max, exp, row sum; sets MCur and LCur.
  uint64_t softmax(uint64_t Score) {
    uint64_t Scores = B.alloc(davinci::UB, UBTile),
             MaxT = B.alloc(davinci::UB, UBTile);
    B.op(Copy, davinci::FIXP, FixpCycles, {Scores, Score});
    B.op(RowMax, davinci::VECTOR, B.cost(OpCost::RowMax, 0), {MaxT, Scores});
    MCur = compactRow(MaxT);
    uint64_t Diff =
        vec(Sub, OpCost::SubRowMax, davinci::UB, UBTile, {Scores, MaxT});
    uint64_t P = vec(Exp, OpCost::ExpTile, davinci::UB, UBTile, {Diff});
    uint64_t SumT = vec(RowSum, OpCost::RowSum, davinci::UB, UBTile, {P});
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
    uint64_t MNew = vec(Max, OpCost::MaxRow, davinci::UB, Row, {MOld[I], MCur});
    uint64_t T1 = vec(Sub, OpCost::SubRow, davinci::UB, Row, {MOld[I], MNew});
    uint64_t Alpha = vec(Exp, OpCost::ExpRow, davinci::UB, Row, {T1});
    uint64_t T2 = vec(Sub, OpCost::SubRow, davinci::UB, Row, {MCur, MNew});
    uint64_t Beta = vec(Exp, OpCost::ExpRow, davinci::UB, Row, {T2});
    uint64_t X1 = vec(Mul, OpCost::MulRow, davinci::UB, Row, {Beta, LCur});
    uint64_t X2 = vec(Mul, OpCost::MulRow, davinci::UB, Row, {Alpha, LOld[I]});
    LOld[I] = vec(Add, OpCost::AddRow, davinci::UB, Row, {X2, X1});
    MOld[I] = MNew;
    return {Alpha, Beta};
  }

  /// O_block = P * V, one accumulator per head tile.
  SmallVector<uint64_t, 4> timesV(uint64_t J, uint64_t P) {
    uint64_t PL1 = Unset;
    SmallVector<uint64_t, 4> Acc;
    for (uint64_t C = 0; C != D; ++C) {
      Acc.push_back(B.alloc(davinci::L0C, AccTile));
      uint64_t &VT = V[J * D + C];
      SmallVector<uint64_t, 2> New;
      if (PL1 == Unset)
        New.push_back(PL1 = B.alloc(davinci::L1, L1Tile));
      if (VT == Unset)
        New.push_back(VT = B.alloc(davinci::L1, L1Tile));
      for (uint64_t L : New) {
        if (L == PL1)
          B.op(Copy, davinci::MTE3, B.cost(OpCost::Mte3Copy, UBTile), {PL1, P});
        else
          B.nameTile(B.op(CopyIn, davinci::MTE2, LoadCycles, {L}), S.NameV, J,
                     C,
                     /*Store=*/false);
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
        O[I * D + C] = B.alloc(davinci::UB, UBTile);
        B.op(Copy, davinci::FIXP, FixpCycles, {O[I * D + C], Acc[C]});
      }
      return;
    }
    SmallVector<uint64_t, 4> Scaled, Old;
    for (uint64_t C = 0; C != D; ++C) {
      uint64_t U = B.alloc(davinci::UB, UBTile),
               W = B.alloc(davinci::UB, UBTile);
      B.op(Copy, davinci::FIXP, FixpCycles, {U, Acc[C]});
      B.op(Mul, davinci::VECTOR, B.cost(OpCost::MulTileRow, 0), {W, U, Beta});
      Scaled.push_back(W);
    }
    for (uint64_t C = 0; C != D; ++C)
      Old.push_back(vec(Mul, OpCost::MulTileRow, davinci::UB, UBTile,
                        {O[I * D + C], Alpha}));
    for (uint64_t C = 0; C != D; ++C)
      O[I * D + C] =
          vec(Add, OpCost::AddTile, davinci::UB, UBTile, {Old[C], Scaled[C]});
  }

  /// The last block: O / l, then the output and the row statistics.
  void finish(uint64_t I) {
    uint64_t R = vec(Rec, OpCost::RecRow, davinci::UB, Row, {LOld[I]});
    SmallVector<uint64_t, 4> Out;
    for (uint64_t C = 0; C != D; ++C)
      Out.push_back(
          vec(Mul, OpCost::MulTileRow, davinci::UB, UBTile, {O[I * D + C], R}));
    for (uint64_t C = 0; C != D; ++C)
      B.nameTile(B.op(CopyOut, davinci::MTE3, B.cost(OpCost::CopyOutUB, UBTile),
                      {Out[C]}, /*Writes=*/false),
                 S.NameO, I, C, /*Store=*/true);
    B.op(CopyOut, davinci::MTE3, B.cost(OpCost::CopyOutUB, Row), {LOld[I]},
         /*Writes=*/false);
    B.op(CopyOut, davinci::MTE3, B.cost(OpCost::CopyOutUB, Row), {MOld[I]},
         /*Writes=*/false);
  }

  void mmad(uint64_t Acc, uint64_t Left, uint64_t Right) {
    uint64_t L0A = B.alloc(davinci::L0A, L0Tile),
             L0B = B.alloc(davinci::L0B, L0Tile);
    B.op(Move, davinci::MTE1, MoveA, {L0A, Left});
    B.op(Move, davinci::MTE1, MoveT, {L0B, Right});
    B.op(Matmul, davinci::CUBE, MMCycles, {Acc, L0B, L0A});
  }

  uint64_t vec(unsigned Name, OpCost C, Tier Tr, uint64_t Size,
               ArrayRef<uint64_t> Ins) {
    uint64_t Out = B.alloc(Tr, Size);
    SmallVector<uint64_t, 3> Bufs = {Out};
    Bufs.append(Ins.begin(), Ins.end());
    B.op(Name, davinci::VECTOR, B.cost(C, 0), Bufs);
    return Out;
  }

  uint64_t compactRow(uint64_t In) {
    uint64_t Out = B.alloc(davinci::UB, Row),
             Tmp = B.alloc(davinci::UB, Scratch);
    B.op(Compact, davinci::VECTOR, B.cost(OpCost::Compact, 0), {Out, In, Tmp});
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

} // namespace

void buildAttention(TraceBuilder &B, const AttentionShape &S) {
  AttentionBuilder(B, S).build();
}

} // namespace dan::gen
