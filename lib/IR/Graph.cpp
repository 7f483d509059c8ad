//===- Graph.cpp - The DAN IR graph ---------------------------------------===//

#include "dan/IR/Graph.h"
#include "dan/IR/Diagnostic.h"
#include "dan/IR/MemoryPlan.h"
#include "llvm/ADT/STLExtras.h"
#include "llvm/ADT/StringExtras.h"

using namespace llvm;

namespace dan {

NodeIdx Graph::addNode(Node N) {
  NodeIdx I = static_cast<NodeIdx>(Nodes.size());
  Nodes.push_back(std::move(N));
  Order.push_back(I);
  return I;
}

unsigned Graph::internOpName(StringRef Name) {
  auto [It, Inserted] = OpNameIds.try_emplace(Name, OpNames.size());
  if (Inserted)
    OpNames.push_back(Name.str());
  return It->second;
}

Graph::Counts Graph::counts() const {
  Counts C;
  for (const Node &N : Nodes) {
    C.Edges += N.Preds.size();
    C.ReuseEdges += N.ReusePreds.size();
    C.Buffers += N.Kind == NodeKind::Alloc;
    C.Spills += N.Kind == NodeKind::SpillOut;
  }
  return C;
}

bool Graph::hasMemoryPlan() const {
  return any_of(Nodes,
                [](const Node &N) { return N.HasOffset || N.isSpill(); });
}

uint64_t Graph::firstSpillId() const {
  uint64_t Next = 0;
  for (const Node &N : Nodes)
    if (!N.isSpill())
      Next = std::max(Next, N.Id + 1);
  return Next;
}

std::vector<uint32_t> Graph::positions() const {
  std::vector<uint32_t> Pos(Nodes.size(), UINT32_MAX);
  for (uint32_t P = 0, E = Order.size(); P != E; ++P)
    Pos[Order[P]] = P;
  return Pos;
}

void Graph::sortEdges() {
  // The ids side by side: comparing through the nodes read a whole node,
  // anywhere in the graph, for every comparison.
  std::vector<uint64_t> Ids(Nodes.size());
  for (NodeIdx I = 0, E = Nodes.size(); I != E; ++I)
    Ids[I] = Nodes[I].Id;
  auto ById = [&Ids](NodeIdx A, NodeIdx B) { return Ids[A] < Ids[B]; };
  for (Node &N : Nodes) {
    llvm::sort(N.Preds, ById);
    llvm::sort(N.ReusePreds, ById);
  }
}

bool Graph::hasDenseIds() const {
  uint64_t NonSpill =
      llvm::count_if(Nodes, [](const Node &N) { return !N.isSpill(); });
  // Ids are unique, so N ids below N are exactly 0 to N-1.
  return llvm::all_of(
      Nodes, [&](const Node &N) { return N.isSpill() || N.Id < NonSpill; });
}

void Graph::renumberDensely() {
  std::vector<NodeIdx> NonSpill;
  for (NodeIdx I = 0, E = Nodes.size(); I != E; ++I)
    if (!Nodes[I].isSpill())
      NonSpill.push_back(I);
  llvm::sort(NonSpill,
             [&](NodeIdx A, NodeIdx B) { return Nodes[A].Id < Nodes[B].Id; });
  for (uint64_t K = 0; K != NonSpill.size(); ++K)
    Nodes[NonSpill[K]].Id = K;
  renumberSpills(*this);
}

IdIndex Graph::idIndex() const {
  IdIndex M(Nodes.size());
  for (NodeIdx I = 0, E = Nodes.size(); I != E; ++I)
    M.insert(Nodes[I].Id, I);
  return M;
}

bool namesBufferNode(StringRef OpName) {
  return OpName.equals_insensitive("ALLOC") ||
         OpName.equals_insensitive("FREE") ||
         OpName.equals_insensitive("SPILL_OUT") ||
         OpName.equals_insensitive("SPILL_IN");
}

namespace {
enum class IdentifierProblem { None, Shape, Keyword, IdLike };
} // namespace

static IdentifierProblem identifierProblem(StringRef Name) {
  bool Shaped =
      !Name.empty() && (isAlpha(Name[0]) || Name[0] == '_') &&
      all_of(Name, [](char C) { return isAlnum(C) || C == '_' || C == '.'; });
  if (!Shaped)
    return IdentifierProblem::Shape;
  // The keywords of lib/Parse/Lexer.re.
  if (is_contained({"target", "graph", "alloc", "free", "spill_out", "spill_in",
                    "at", "after", "reuse", "reads", "writes"},
                   Name))
    return IdentifierProblem::Keyword;
  if ((Name[0] == 'n' || Name[0] == 'b') && Name.size() > 1 &&
      all_of(Name.drop_front(), isDigit))
    return IdentifierProblem::IdLike;
  return IdentifierProblem::None;
}

bool isGraphNameChar(char C) {
  return isAlnum(C) || C == '_' || C == '.' || C == '$' || C == '-';
}

bool isGraphName(StringRef Name) {
  return !Name.empty() && llvm::all_of(Name, isGraphNameChar);
}

std::string identifierError(StringRef Name, StringRef Role, StringRef Noun) {
  switch (identifierProblem(Name)) {
  case IdentifierProblem::None:
    return "";
  case IdentifierProblem::Shape:
    return (quoteToken(Name) + " cannot name " + Role +
            " in DAN IR: write a letter or '_' followed by letters, digits, "
            "'_' or '.'")
        .str();
  case IdentifierProblem::Keyword:
    return (quoteToken(Name) + " is a keyword of DAN IR, not " + Noun).str();
  case IdentifierProblem::IdLike:
    return (quoteToken(Name) + " reads as a node or buffer id in DAN IR, not " +
            Noun)
        .str();
  }
  llvm_unreachable("covered switch");
}

std::string describeNode(const Graph &G, NodeIdx I) {
  const Node &N = G[I];
  std::string S = "n" + std::to_string(N.Id) + " (";
  switch (N.Kind) {
  case NodeKind::Alloc:
    S += "alloc b" + std::to_string(N.Buf);
    break;
  case NodeKind::Free:
    S += "free b" + std::to_string(N.Buf);
    break;
  case NodeKind::SpillOut:
    S += "spill_out b" + std::to_string(N.Buf);
    break;
  case NodeKind::SpillIn:
    S += "spill_in b" + std::to_string(N.Buf);
    break;
  case NodeKind::Op:
    S += G.opName(N).str();
    break;
  }
  return S + ")";
}

Error Graph::retarget(const TargetDesc &T) {
  // The new index of each old tier and pipe, if \p T has its name.
  std::array<std::optional<Tier>, MaxTiers> TierMap;
  std::array<std::optional<Pipe>, MaxPipes> PipeMap;
  for (unsigned I = 0, E = Target.numTiers(); I != E; ++I)
    TierMap[I] = T.lookupTier(Target.tierName(Tier(I)));
  for (unsigned I = 0, E = Target.numPipes(); I != E; ++I)
    PipeMap[I] = T.lookupPipe(Target.pipeName(Pipe(I)));
  for (NodeIdx I = 0, E = Nodes.size(); I != E; ++I) {
    const Node &N = Nodes[I];
    StringRef Missing, What;
    if (N.isBufferNode() && !N.isSpill() && !TierMap[index(N.BufTier)])
      Missing = Target.tierName(N.BufTier), What = "tier";
    else if (N.Kind == NodeKind::Op && !PipeMap[index(N.OpPipe)])
      Missing = Target.pipeName(N.OpPipe), What = "pipe";
    if (Missing.empty())
      continue;
    DiagList Diags;
    Diags.error(N.Loc, describeNode(*this, I) + " names " + What + " " +
                           quoteToken(Missing) + ", which target " +
                           quoteToken(T.name()) + " does not have");
    return Diags.takeError();
  }
  for (Node &N : Nodes) {
    if (N.Kind == NodeKind::Alloc || N.Kind == NodeKind::Free)
      N.BufTier = *TierMap[index(N.BufTier)];
    else if (N.Kind == NodeKind::Op)
      N.OpPipe = *PipeMap[index(N.OpPipe)];
  }
  Target = T;
  return Error::success();
}

} // namespace dan
