//===- Generate.cpp - Graphs of known shape, the entry points -------------===//
//
// The spellings of dan-gen's enums, the checks of a shape, the node count
// and default name of each family, and generateGraph, which writes the
// family's graph (GenMatmul.cpp, GenAttention.cpp, GenConv.cpp) with the
// trace builder (GenBuilder.cpp).
//
//===----------------------------------------------------------------------===//

#include "dan/Gen/Generate.h"
#include "GenBuilder.h"
#include "llvm/ADT/StringExtras.h"
#include "llvm/Support/FormatVariadic.h"

using namespace llvm;
using namespace dan::gen;

namespace dan {

ArrayRef<EnumEntry<GenFamily>> genFamilyTable() {
  static const EnumEntry<GenFamily> Table[] = {
      {GenFamily::Matmul, "matmul", "tiled matrix multiply (default)"},
      {GenFamily::Attention, "attention", "FlashAttention with online softmax"},
      {GenFamily::Conv, "conv", "multi-layer convolution"},
      {GenFamily::Transformer, "transformer",
       "a model: transformer blocks (QKV, attention, output, norm, two MLP "
       "matmuls), each kernel's tiles loaded after the kernel before stores "
       "them"},
      {GenFamily::ConvNet, "convnet",
       "a model: a stack of convolution kernels, each loading the feature "
       "map the one before stores"},
      {GenFamily::Gemv, "gemv",
       "a matrix-vector product for the vnpu target (two unified buffers, "
       "no L0): row blocks of A streamed, the tiles of x kept"},
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
  case GenFamily::Transformer: {
    const ModelShape &S = Opts.Model;
    for (auto [V, Name] :
         {std::pair(S.Layers, "layers"), std::pair(S.SeqBlocks, "seq-blocks"),
          std::pair(S.HiddenTiles, "hidden-tiles")})
      if (Error E = Positive(V, Name))
        return E;
    return Error::success();
  }
  case GenFamily::ConvNet: {
    GenOptions Conv = Opts;
    Conv.Family = GenFamily::Conv;
    Conv.Conv.Layers = Opts.Model.Layers;
    return checkShape(Conv);
  }
  case GenFamily::Gemv:
    for (auto [V, Name] : {std::pair(Opts.Gemv.MTiles, "m-tiles"),
                           std::pair(Opts.Gemv.KTiles, "k-tiles")})
      if (Error E = Positive(V, Name))
        return E;
    return Error::success();
  }
  return Error::success();
}

} // namespace

StringRef genFamilyTarget(GenFamily F) {
  return F == GenFamily::Gemv ? "vnpu" : "davinci";
}

uint64_t countGenNodes(const GenOptions &Opts) {
  switch (Opts.Family) {
  case GenFamily::Matmul:
    return matmulNodes(Opts.Matmul);
  case GenFamily::Attention:
    return attentionNodes(Opts.Attention);
  case GenFamily::Conv:
    return convNodes(Opts.Conv);
  case GenFamily::Transformer:
    return transformerNodes(Opts.Model);
  case GenFamily::ConvNet:
    return convNetNodes(Opts.Model, Opts.Conv);
  case GenFamily::Gemv:
    return gemvNodes(Opts.Gemv);
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
  case GenFamily::Transformer:
    return formatv("transformer_{0}x{1}x{2}", Opts.Model.Layers,
                   Opts.Model.SeqBlocks, Opts.Model.HiddenTiles)
        .str();
  case GenFamily::ConvNet:
    return formatv("convnet_{0}x{1}x{2}", Opts.Model.Layers,
                   Opts.Conv.FmapTiles, Opts.Conv.ChannelTiles)
        .str();
  case GenFamily::Gemv:
    return formatv("gemv_{0}x{1}", Opts.Gemv.MTiles, Opts.Gemv.KTiles).str();
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
  if (Opts.Family == GenFamily::Conv || Opts.Family == GenFamily::ConvNet) {
    uint64_t Uses = Opts.Family == GenFamily::Conv
                        ? convUses(Opts.Conv)
                        : convNetUses(Opts.Model, Opts.Conv);
    if (Uses > MaxGenUses)
      return invalid("the graph would have " +
                     (Uses == UINT64_MAX ? std::string("more than 2^64")
                                         : std::to_string(Uses)) +
                     " buffer operands, more than the limit of " +
                     Twine(MaxGenUses) +
                     "; use fewer --channel-tiles, --fmap-tiles or "
                     "--layers");
  }
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
  case GenFamily::ConvNet:
    Hint = "use a smaller --tile-size, fewer --channel-tiles or smaller "
           "--kernels";
    break;
  case GenFamily::Transformer:
  case GenFamily::Gemv:
    Hint = "its tiles are fixed; raise it with --capacity";
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
  case GenFamily::Transformer:
    buildTransformer(B, Opts.Model);
    break;
  case GenFamily::ConvNet:
    buildConvNet(B, Opts.Model, Opts.Conv);
    break;
  case GenFamily::Gemv:
    buildGemv(B, Opts.Gemv);
    break;
  }
  if (Error E = B.finish(Opts.Frees))
    return E;
  assert(G->size() == Nodes && "node count formula out of date");
  return G;
}

} // namespace dan
