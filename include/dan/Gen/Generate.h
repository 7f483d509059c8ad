//===- Generate.h - Graphs of known shape for the three workload families -===//
//
// Writes command graphs with the structure of the contest traces (ALLOC
// before the first writer, COPY_IN on MTE2, MOVE on MTE1 into L0A/L0B,
// compute on CUBE or VECTOR into L0C or UB, FIXP or MTE3 out, FREE after the
// last users) for parameterized tiled matmul, FlashAttention and multi-layer
// convolution. Cycles come from Davinci's operation costs (DAN_OP_COST in
// Davinci/Davinci.def). The result is deterministic for given options and seed.
// docs/CommandGuide/dan-gen.md describes every family and count.
//
//===----------------------------------------------------------------------===//

#ifndef DAN_GEN_GENERATE_H
#define DAN_GEN_GENERATE_H

#include "dan/IR/Graph.h"
#include "dan/Support/EnumTable.h"
#include "dan/Target/Target.h"
#include "llvm/Support/Error.h"
#include <cstdint>
#include <functional>
#include <memory>
#include <string>
#include <vector>

namespace dan {

enum class GenFamily : uint8_t {
  Matmul,
  Attention,
  Conv,
  Transformer,
  ConvNet,
  Gemv
};

/// The built-in target a family writes its graphs for: "davinci", or
/// "vnpu" for gemv.
llvm::StringRef genFamilyTarget(GenFamily F);

/// The name of the DDR tile at (\p Row, \p Col) of a tensor that a family
/// loads or stores ('reads @X.0.1'); empty for a family whose tiles are
/// not named. The model families name their kernels' tiles, so that a
/// consumer's load waits for the producer's store.
using TileNamer = std::function<std::string(uint64_t Row, uint64_t Col)>;

/// The loop order of a matmul's output tiles; K is always innermost, so each
/// output tile accumulates in one L0C buffer.
enum class MatmulOrder : uint8_t {
  MNK,    // row by row (the traces' order)
  NMK,    // column by column
  Zigzag, // row by row, every other row right to left
};

/// Where the FREE statements stand in the written order (their edges are the
/// same either way).
enum class FreePlacement : uint8_t {
  End,     // all after the last operation, by buffer id (as in the traces)
  LastUse, // each right after the last operation that uses its buffer
};

/// The spellings of the three enums above (dan-gen's --family, --order and
/// --frees), in the order --help lists them.
llvm::ArrayRef<EnumEntry<GenFamily>> genFamilyTable();
llvm::ArrayRef<EnumEntry<MatmulOrder>> matmulOrderTable();
llvm::ArrayRef<EnumEntry<FreePlacement>> freePlacementTable();

struct MatmulShape {
  uint64_t MTiles = 8, NTiles = 8, KTiles = 8;
  /// Elements of one tile along M, N and K (A and B in 2-byte elements, C
  /// in 4-byte elements).
  uint64_t TileM = 8, TileN = 8, TileK = 8;
  MatmulOrder Order = MatmulOrder::MNK;
  /// The tiles of A (M x K), B (K x N) and C (M x N).
  TileNamer NameA, NameB, NameC;
};

struct AttentionShape {
  uint64_t QBlocks = 4, KVBlocks = 4;
  /// Tiles along the head dimension: the K steps of Q*K^T and the output
  /// tiles of P*V.
  uint64_t HeadTiles = 2;
  /// The tiles of Q (query block x head tile), K and V (key/value block x
  /// head tile) and the output (query block x head tile).
  TileNamer NameQ, NameK, NameV, NameO;
};

struct ConvShape {
  uint64_t Layers = 4;
  /// Feature-map tiles per layer (spatial) and channel tiles per tile.
  uint64_t FmapTiles = 8, ChannelTiles = 2;
  /// Kernel size of each layer; layer l uses Kernels[l % Kernels.size()].
  std::vector<uint64_t> Kernels = {3};
  /// Bytes of one feature-map tile in L1.
  uint64_t TileBytes = 128;
  /// The input and output tiles (feature-map tile x channel tile).
  TileNamer NameIn, NameOut;
};

/// The model families: kernels of the families above, one after another,
/// each consumer tile's load after the producer tiles' store
/// (docs/CommandGuide/dan-gen.md, "Models").
struct ModelShape {
  /// Transformer blocks, or convolution kernels of a ConvNet.
  uint64_t Layers = 2;
  /// Transformer: blocks of the sequence (rows of every activation) and
  /// tiles of the hidden dimension (the attention's head tiles).
  uint64_t SeqBlocks = 4, HiddenTiles = 2;
};

/// A matrix-vector product on vnpu: row blocks of A and tiles of x.
struct GemvShape {
  uint64_t MTiles = 8, KTiles = 8;
};

struct GenOptions {
  GenFamily Family = GenFamily::Matmul;
  MatmulShape Matmul;
  AttentionShape Attention;
  ConvShape Conv;
  ModelShape Model;
  GemvShape Gemv;
  /// Each operation's cycles move by a uniform random fraction in
  /// [-Jitter%, +Jitter%] drawn from Seed; 0 keeps the cost formula exactly.
  unsigned JitterPercent = 0;
  uint64_t Seed = 0;
  FreePlacement Frees = FreePlacement::End;
  /// The graph name; empty for the default name of the family and shape.
  std::string Name;
};

/// The largest graph dan-gen writes.
constexpr uint64_t MaxGenNodes = 50'000'000;

/// The most buffer operands (about half the edges) a graph may have: the
/// conv families' grow with the square of --channel-tiles, not with the
/// nodes.
constexpr uint64_t MaxGenUses = 100'000'000;

/// The number of nodes the options give, saturating; checked against
/// MaxGenNodes before anything is built.
uint64_t countGenNodes(const GenOptions &Opts);

/// The default graph name for the family and shape, e.g. "matmul_8x8x8".
std::string defaultGenName(const GenOptions &Opts);

/// Builds the graph. Fails (with a message that names the option to change)
/// when a count is 0, the graph would exceed MaxGenNodes or MaxGenUses, or
/// one operation's buffers do not fit a tier of \p T together.
llvm::Expected<std::unique_ptr<Graph>> generateGraph(const GenOptions &Opts,
                                                     const TargetDesc &T);

} // namespace dan

#endif // DAN_GEN_GENERATE_H
