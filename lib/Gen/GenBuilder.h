//===- GenBuilder.h - The trace builder and the families --------*- C++ -*-===//
//
// Private to lib/Gen. The trace builder every family writes its graph with
// (GenBuilder.cpp), the saturating arithmetic of the node counts, and each
// family's node count and builder (GenMatmul.cpp, GenAttention.cpp,
// GenConv.cpp), which generateGraph (Generate.cpp) calls.
//
//===----------------------------------------------------------------------===//

#ifndef DAN_LIB_GEN_GENBUILDER_H
#define DAN_LIB_GEN_GENBUILDER_H

#include "dan/Gen/Generate.h"
#include "dan/IR/Graph.h"
#include "dan/Target/Davinci/Davinci.h"
#include "llvm/ADT/ArrayRef.h"
#include "llvm/ADT/SmallVector.h"
#include "llvm/ADT/StringMap.h"
#include "llvm/ADT/StringRef.h"
#include "llvm/Support/Error.h"
#include <cstdint>
#include <random>
#include <string>
#include <vector>

namespace dan::gen {

/// The kernel families write Davinci graphs (lib/Target/Davinci).
using davinci::OpCost;

constexpr NodeIdx NoNode = UINT32_MAX;

/// Writes a graph as a compiler's trace (GenBuilder.cpp describes its
/// edges), checking that each operation's buffers fit the target.
class TraceBuilder {
public:
  TraceBuilder(Graph &G, const TargetDesc &T, const GenOptions &Opts,
               llvm::StringRef FitHint)
      : G(G), T(T), Jitter(Opts.JitterPercent), Rng(Opts.Seed),
        FitHint(FitHint.str()) {}

  /// Emits an ALLOC and returns the new buffer's id.
  uint64_t alloc(Tier BufTier, uint64_t Size);
  /// Emits an operation on \p Bufs; when \p Writes, the first buffer is its
  /// output (later readers depend on this operation).
  NodeIdx op(unsigned Name, Pipe P, uint64_t Cycles,
             llvm::ArrayRef<uint64_t> Bufs, bool Writes = true);
  unsigned name(llvm::StringRef N) { return G.internOpName(N); }
  /// Names the tile that operation \p I loads (\p Store false) or stores,
  /// when \p Namer names tiles. A load of a tile stored before gets an
  /// edge from the store.
  void nameTile(NodeIdx I, const TileNamer &Namer, uint64_t Row, uint64_t Col,
                bool Store);
  uint64_t cost(OpCost K, uint64_t X) const { return davinci::opCycles(K, X); }
  /// Emits the FREEs and places them; fails if an operation did not fit.
  llvm::Error finish(FreePlacement Frees);
  /// Whether an operation did not fit: finish fails, and a family whose
  /// graph grows faster than its nodes stops building.
  bool failed() const { return !FitError.empty(); }
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
    llvm::SmallVector<NodeIdx, 3> Users;
  };
  Graph &G;
  const TargetDesc &T;
  unsigned Jitter;
  std::mt19937_64 Rng;
  std::string FitHint;
  std::vector<BufInfo> Bufs;
  /// The operations that have an edge from each node (FREEs excluded).
  std::vector<llvm::SmallVector<NodeIdx, 2>> Succs;
  std::string FitError;
  /// The operation that stores each named tile.
  llvm::StringMap<NodeIdx> TileStore;
};

/// Saturating arithmetic for the counts, so absurd shapes fail the limit
/// check instead of wrapping.
uint64_t mul(uint64_t A, uint64_t B);
uint64_t add(uint64_t A, uint64_t B);

/// The nodes of each family's graph (saturating), and the builders.
uint64_t matmulNodes(const MatmulShape &S);
uint64_t attentionNodes(const AttentionShape &S);
uint64_t convNodes(const ConvShape &S);
uint64_t transformerNodes(const ModelShape &S);
uint64_t convNetNodes(const ModelShape &M, const ConvShape &S);
/// The buffer operands of the conv graphs' operations (saturating): each
/// CONV reads every channel tile within the kernel's reach, so they grow
/// with the square of the channel tiles, and so do the edges.
uint64_t convUses(const ConvShape &S);
uint64_t convNetUses(const ModelShape &M, const ConvShape &S);
uint64_t gemvNodes(const GemvShape &S);
void buildMatmul(TraceBuilder &B, const MatmulShape &S);
void buildAttention(TraceBuilder &B, const AttentionShape &S);
void buildConv(TraceBuilder &B, const ConvShape &S);
void buildTransformer(TraceBuilder &B, const ModelShape &S);
void buildConvNet(TraceBuilder &B, const ModelShape &M, const ConvShape &S);
void buildGemv(TraceBuilder &B, const GemvShape &S);

} // namespace dan::gen

#endif // DAN_LIB_GEN_GENBUILDER_H
