//===- dan-gen.cpp - Write graphs of known shape --------------------------===//
//
// Writes a tiled matmul, FlashAttention or multi-layer convolution graph as
// DAN IR or contest JSON (lib/Gen; docs/CommandGuide/dan-gen.md).
//
//===----------------------------------------------------------------------===//

#include "ToolSupport.h"
#include "dan/Formats/JSON.h"
#include "dan/Gen/Generate.h"
#include "dan/IR/Diagnostic.h"
#include "dan/IR/Printer.h"
#include "llvm/ADT/StringExtras.h"
#include "llvm/Support/InitLLVM.h"
#include "llvm/Support/Regex.h"

using namespace llvm;
using namespace dan;
using namespace dan::tool;

namespace {
enum class OutFormat { IR, JSON };
const EnumEntry<OutFormat> OutFormats[] = {
    {OutFormat::IR, "ir", "DAN IR (default)"},
    {OutFormat::JSON, "json", "contest JSON"},
};
} // namespace

static DANOptionCategory
    MatmulCategory("Shape of --family=matmul",
                   "A grid of output tiles, each accumulated over K tiles.");
static DANOptionCategory
    AttentionCategory("Shape of --family=attention",
                      "Query blocks, each over every key/value block.");
static DANOptionCategory
    ConvCategory("Shape of --family=conv",
                 "Layers of feature-map tiles, each read by a kernel window.");
static DANOptionCategory TransformerCategory(
    "Shape of --family=transformer",
    "Blocks of a QKV projection, attention, an output projection, a "
    "normalization and two MLP matmuls over a sequence of row blocks.");
static DANOptionCategory
    ConvNetCategory("Shape of --family=convnet",
                    "A stack of convolution kernels, one layer each.");
static DANOptionCategory
    GemvCategory("Shape of --family=gemv",
                 "Row blocks of A, each over every tile of x (target vnpu).");

static cl::opt<GenFamily> Family("family", cl::desc("The workload family"),
                                 cl::init(GenFamily::Matmul),
                                 enumValues(genFamilyTable()),
                                 cl::cat(DANCategory));

static cl::opt<uint64_t> MTiles("m-tiles", cl::init(8), cl::value_desc("N"),
                                cl::desc("Output tiles along M, or row "
                                         "blocks of gemv (default 8)"),
                                cl::cat(MatmulCategory), cl::cat(GemvCategory));
static cl::opt<uint64_t> NTiles("n-tiles", cl::init(8), cl::value_desc("N"),
                                cl::desc("Output tiles along N (default 8)"),
                                cl::cat(MatmulCategory));
static cl::opt<uint64_t> KTiles("k-tiles", cl::init(8), cl::value_desc("N"),
                                cl::desc("Tiles along K, the MATMULs "
                                         "accumulated per output tile, or "
                                         "the tiles of x of gemv (default 8)"),
                                cl::cat(MatmulCategory), cl::cat(GemvCategory));
static cl::opt<uint64_t>
    TileM("tile-m", cl::init(8), cl::value_desc("E"),
          cl::desc("Elements of a tile along M (default 8)"),
          cl::cat(MatmulCategory));
static cl::opt<uint64_t>
    TileN("tile-n", cl::init(8), cl::value_desc("E"),
          cl::desc("Elements of a tile along N (default 8)"),
          cl::cat(MatmulCategory));
static cl::opt<uint64_t>
    TileK("tile-k", cl::init(8), cl::value_desc("E"),
          cl::desc("Elements of a tile along K (default 8)"),
          cl::cat(MatmulCategory));
static cl::opt<MatmulOrder>
    Order("order", cl::desc("The order of the output tiles (K innermost)"),
          cl::init(MatmulOrder::MNK), enumValues(matmulOrderTable()),
          cl::cat(MatmulCategory));

static cl::opt<uint64_t> QBlocks("q-blocks", cl::init(4), cl::value_desc("N"),
                                 cl::desc("Query blocks (default 4)"),
                                 cl::cat(AttentionCategory));
static cl::opt<uint64_t> KVBlocks("kv-blocks", cl::init(4), cl::value_desc("N"),
                                  cl::desc("Key/value blocks (default 4)"),
                                  cl::cat(AttentionCategory));
static cl::opt<uint64_t>
    HeadTiles("head-tiles", cl::init(2), cl::value_desc("N"),
              cl::desc("Tiles along the head dimension (default 2)"),
              cl::cat(AttentionCategory));

static cl::opt<uint64_t>
    Layers("layers", cl::init(4), cl::value_desc("N"),
           cl::desc("Convolution layers, transformer blocks or convnet "
                    "kernels (default 4)"),
           cl::cat(ConvCategory), cl::cat(TransformerCategory),
           cl::cat(ConvNetCategory));
static cl::opt<uint64_t>
    SeqBlocks("seq-blocks", cl::init(4), cl::value_desc("N"),
              cl::desc("Row blocks of the sequence: the query and key/value "
                       "blocks of the attention (default 4)"),
              cl::cat(TransformerCategory));
static cl::opt<uint64_t>
    HiddenTiles("hidden-tiles", cl::init(2), cl::value_desc("N"),
                cl::desc("Tiles of the hidden dimension: the attention's "
                         "head tiles (default 2)"),
                cl::cat(TransformerCategory));
static cl::opt<uint64_t>
    FmapTiles("fmap-tiles", cl::init(8), cl::value_desc("N"),
              cl::desc("Feature-map tiles per layer (default 8)"),
              cl::cat(ConvCategory), cl::cat(ConvNetCategory));
static cl::opt<uint64_t>
    ChannelTiles("channel-tiles", cl::init(2), cl::value_desc("N"),
                 cl::desc("Channel tiles per feature-map tile (default 2)"),
                 cl::cat(ConvCategory), cl::cat(ConvNetCategory));
static cl::list<uint64_t>
    Kernels("kernels", cl::CommaSeparated, cl::value_desc("K,..."),
            cl::desc("Kernel size of each layer, repeated over the layers "
                     "(odd, default 3)"),
            cl::cat(ConvCategory), cl::cat(ConvNetCategory));
static cl::opt<uint64_t>
    TileSize("tile-size", cl::init(128), cl::value_desc("BYTES"),
             cl::desc("Bytes of one feature-map tile in L1 (default 128)"),
             cl::cat(ConvCategory), cl::cat(ConvNetCategory));

static cl::opt<uint64_t> Seed("seed", cl::init(0), cl::value_desc("N"),
                              cl::desc("Seed of the cycle jitter (default 0)"),
                              cl::cat(DANCategory));
static cl::opt<unsigned>
    Jitter("jitter", cl::init(0), cl::value_desc("PERCENT"),
           cl::desc("Move each operation's cycles by a random amount within "
                    "+-PERCENT, drawn from --seed (default 0: the cost formula "
                    "exactly)"),
           cl::cat(DANCategory));
static cl::opt<FreePlacement>
    Frees("frees",
          cl::desc("Where the FREE statements stand in the written order"),
          cl::init(FreePlacement::End), enumValues(freePlacementTable()),
          cl::cat(DANCategory));
static cl::opt<std::string>
    Name("name", cl::value_desc("NAME"),
         cl::desc("Graph name (default: family and shape, e.g. "
                  "matmul_8x8x8)"),
         cl::cat(DANCategory));
static cl::opt<OutFormat> Format("format", cl::desc("Output format"),
                                 cl::init(OutFormat::IR),
                                 enumValues<OutFormat>(OutFormats),
                                 cl::cat(DANCategory));
static cl::opt<std::string> Output("o", cl::init("-"), cl::value_desc("path"),
                                   cl::desc("Output file (default: stdout)"),
                                   cl::cat(DANCategory));

/// An option of one family given with another is a usage error: it would
/// silently do nothing. The family an option belongs to is the category
/// --help shows it under, so --help and this check always agree.
static Error checkFamilyOptions() {
  const std::pair<const cl::OptionCategory *, GenFamily> Owners[] = {
      {&MatmulCategory, GenFamily::Matmul},
      {&AttentionCategory, GenFamily::Attention},
      {&ConvCategory, GenFamily::Conv},
      {&TransformerCategory, GenFamily::Transformer},
      {&ConvNetCategory, GenFamily::ConvNet},
      {&GemvCategory, GenFamily::Gemv}};
  for (auto &[Name, Opt] : cl::getRegisteredOptions()) {
    if (!Opt->getNumOccurrences())
      continue;
    SmallVector<StringRef, 3> Families;
    bool Applies = true;
    for (auto [Category, Owner] : Owners)
      if (llvm::is_contained(Opt->Categories, Category)) {
        Families.push_back(enumName(genFamilyTable(), Owner));
        Applies = Owner == Family;
        if (Applies)
          break;
      }
    if (!Applies)
      return usageError("--" + Opt->ArgStr + " applies to --family=" +
                        llvm::join(Families, " or --family=") + " only");
  }
  return Error::success();
}

/// Generates the graph the options describe and writes it.
static Error generate(bool Stats) {
  if (Error E = checkFamilyOptions())
    return E;
  if (Name.getNumOccurrences() && !Regex("^[A-Za-z0-9_.$-]+$").match(Name))
    return usageError("--name '" + Name +
                      "' is not a graph name: use letters, digits and _ . $ -");
  // Each family writes for its own built-in target; the options on top.
  Expected<TargetDesc> Target =
      targetFromOptions(*TargetDesc::builtin(genFamilyTarget(Family)));
  if (!Target)
    return Target.takeError();

  GenOptions Opts;
  Opts.Family = Family;
  Opts.Matmul.MTiles = MTiles;
  Opts.Matmul.NTiles = NTiles;
  Opts.Matmul.KTiles = KTiles;
  Opts.Matmul.TileM = TileM;
  Opts.Matmul.TileN = TileN;
  Opts.Matmul.TileK = TileK;
  Opts.Matmul.Order = Order;
  Opts.Attention.QBlocks = QBlocks;
  Opts.Attention.KVBlocks = KVBlocks;
  Opts.Attention.HeadTiles = HeadTiles;
  Opts.Conv.Layers = Layers;
  Opts.Conv.FmapTiles = FmapTiles;
  Opts.Conv.ChannelTiles = ChannelTiles;
  if (Kernels.getNumOccurrences())
    Opts.Conv.Kernels.assign(Kernels.begin(), Kernels.end());
  Opts.Conv.TileBytes = TileSize;
  Opts.Model.Layers = Layers;
  Opts.Model.SeqBlocks = SeqBlocks;
  Opts.Model.HiddenTiles = HiddenTiles;
  Opts.Gemv.MTiles = MTiles;
  Opts.Gemv.KTiles = KTiles;
  Opts.JitterPercent = Jitter;
  Opts.Seed = Seed;
  Opts.Frees = Frees;
  Opts.Name = Name;

  Expected<std::unique_ptr<Graph>> G = generateGraph(Opts, *Target);
  if (!G) // A shape the generator refuses is a bad option value.
    return usageError(toString(G.takeError()));
  // The output records the target the costs were computed for.
  (*G)->Target = *Target;
  if (Stats) {
    Graph::Counts C = (*G)->counts();
    errs() << "dan-gen: @" << (*G)->Name << ": "
           << countOf((*G)->size(), "node") << ", " << countOf(C.Edges, "edge")
           << ", " << countOf(C.Buffers, "buffer") << "\n";
  }
  return writeOutput(Output, [&](raw_ostream &OS) {
    if (Format == OutFormat::JSON)
      exportJSON(**G, *Target, OS);
    else
      printGraph(**G, OS);
  });
}

int main(int Argc, char **Argv) {
  InitLLVM X(Argc, Argv);
  removeLLVMStatsOption();
  // dan-gen reads no input, so it has no input size limit.
  if (cl::Option *Limit = cl::getRegisteredOptions().lookup("max-input-size"))
    Limit->removeArgument();
  // Each family writes for its own built-in target (genFamilyTarget).
  if (cl::Option *Target = cl::getRegisteredOptions().lookup("target"))
    Target->removeArgument();
  cl::opt<bool> Stats(
      "stats",
      cl::desc("Print the graph's node, edge and buffer counts to "
               "stderr"),
      cl::cat(DANCategory));
  return runTool(Argc, Argv,
                 "dan-gen: write a tiled matmul, FlashAttention or "
                 "convolution graph with the structure of the contest "
                 "traces\n",
                 [&](SourceMgr &) { return generate(Stats); });
}
