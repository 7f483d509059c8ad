//===- Builder.cpp - Building a graph from a program ----------------------===//

#include "dan/IR/Builder.h"
#include "llvm/ADT/STLExtras.h"
#include "llvm/Support/JSON.h"
#include <atomic>
#include <cassert>

using namespace llvm;

namespace dan {

static Error failure(const Twine &Msg) {
  return createStringError(inconvertibleErrorCode(), Msg);
}

/// The parser's message for an edge given twice.
static Error duplicateEdge(uint64_t FromId, uint64_t ToId) {
  return failure("duplicate edge from n" + Twine(FromId) + " to n" +
                 Twine(ToId));
}

uint64_t Builder::newOwner() {
  static std::atomic<uint64_t> Next{1};
  return Next.fetch_add(1);
}

Builder::Builder(StringRef Name, const TargetDesc &Target)
    : G(std::make_unique<Graph>()), Owner(newOwner()) {
  assert(isGraphName(Name) && "not a graph name; Builder::create checks");
  G->Name = Name.str();
  G->Target = Target;
}

Expected<Builder> Builder::create(StringRef Name, const TargetDesc &Target) {
  if (!isGraphName(Name))
    return failure("'" + Name + "' is not a graph name: use letters, " +
                   "digits and _ . $ -");
  return Builder(Name, Target);
}

Error Builder::checkHandle(NodeHandle H) const {
  if (H.Owner != Owner || H.Index >= G->size())
    return failure("node handle " + Twine(H.Index) +
                   " is not a node of this graph");
  return Error::success();
}

Error Builder::checkNumber(uint64_t V) const {
  if (V > MaxValue)
    return failure("number '" + Twine(V) + "' is too large; the limit is " +
                   "2^40 (" + Twine(MaxValue) + ")");
  return Error::success();
}

Error Builder::checkAfter(ArrayRef<NodeHandle> After) const {
  for (size_t I = 0; I != After.size(); ++I) {
    if (Error E = checkHandle(After[I]))
      return E;
    if (llvm::any_of(After.take_front(I),
                     [&](NodeHandle H) { return H.Index == After[I].Index; }))
      return duplicateEdge((*G)[After[I].Index].Id, G->size());
  }
  return Error::success();
}

NodeHandle Builder::addNode(Node N, ArrayRef<NodeHandle> After) {
  N.Id = G->size();
  NodeHandle H{G->addNode(std::move(N)), Owner};
  for (NodeHandle P : After)
    (*G)[H.Index].Preds.push_back(P.Index);
  return H;
}

Expected<BufferHandle> Builder::alloc(StringRef TierName, uint64_t Size,
                                      ArrayRef<NodeHandle> After) {
  std::optional<Tier> T = G->Target.lookupTier(TierName);
  if (!T)
    return failure(unknownNameMessage("tier", TierName, G->Target.tierNames()));
  if (Error E = checkNumber(Size))
    return E;
  if (Error E = checkAfter(After))
    return E;
  Node N;
  N.Kind = NodeKind::Alloc;
  N.Buf = NextBuffer;
  N.BufTier = *T;
  N.Size = Size;
  NodeHandle H = addNode(std::move(N), After);
  return BufferHandle{H, NextBuffer++, *T, Size};
}

Expected<NodeHandle> Builder::op(StringRef Name, StringRef PipeName,
                                 uint64_t Cycles, ArrayRef<BufferHandle> Bufs,
                                 ArrayRef<NodeHandle> After) {
  if (namesBufferNode(Name))
    return failure(quoteToken(Name) + " is not an operation; write '" +
                   Name.lower() + " bN ...' for a buffer node");
  if (std::string Problem =
          identifierError(Name, "an operation", "an operation name");
      !Problem.empty())
    return failure(Problem);
  std::optional<Pipe> P = G->Target.lookupPipe(PipeName);
  if (!P)
    return failure(unknownNameMessage("pipe", PipeName, G->Target.pipeNames()));
  if (Error E = checkNumber(Cycles))
    return E;
  Node N;
  N.Kind = NodeKind::Op;
  N.OpPipe = *P;
  N.Cycles = Cycles;
  for (const BufferHandle &B : Bufs) {
    if (Error E = checkBuffer(B))
      return E;
    N.Bufs.push_back(B.Id);
  }
  if (Error E = checkAfter(After))
    return E;
  N.OpName = G->internOpName(Name);
  return addNode(std::move(N), After);
}

Error Builder::checkBuffer(const BufferHandle &B) const {
  // A handle of another builder may name a buffer id this graph has, but
  // not its alloc node: the handle must be this graph's own.
  const Node *Alloc = B.Alloc.Owner == Owner && B.Alloc.Index < G->size()
                          ? &(*G)[B.Alloc.Index]
                          : nullptr;
  if (B.Id >= NextBuffer || !Alloc || Alloc->Kind != NodeKind::Alloc ||
      Alloc->Buf != B.Id || Alloc->BufTier != B.BufTier ||
      Alloc->Size != B.Size)
    return failure("buffer handle b" + Twine(B.Id) +
                   " is not a buffer of this graph");
  return Error::success();
}

Expected<NodeHandle> Builder::free(const BufferHandle &B,
                                   ArrayRef<NodeHandle> After) {
  if (Error E = checkBuffer(B))
    return E;
  if (Error E = checkAfter(After))
    return E;
  const Node &Alloc = (*G)[B.Alloc.Index];
  Node N;
  N.Kind = NodeKind::Free;
  N.Buf = B.Id;
  N.BufTier = Alloc.BufTier;
  N.Size = Alloc.Size;
  return addNode(std::move(N), After);
}

Error Builder::addEdge(NodeHandle From, NodeHandle To) {
  if (Error E = checkHandle(From))
    return E;
  if (Error E = checkHandle(To))
    return E;
  EdgeList &Preds = (*G)[To.Index].Preds;
  if (is_contained(Preds, From.Index))
    return duplicateEdge((*G)[From.Index].Id, (*G)[To.Index].Id);
  Preds.push_back(From.Index);
  return Error::success();
}

Error Builder::setAttr(NodeHandle N, StringRef Key, StringRef Value) {
  if (Error E = checkHandle(N))
    return E;
  if (std::string Problem =
          identifierError(Key, "an attribute", "an attribute key");
      !Problem.empty())
    return failure(Problem);
  if (!json::isUTF8(Value))
    return failure("a string must be valid UTF-8");
  Node &Target = (*G)[N.Index];
  if (!Target.AttrSet)
    Target.AttrSet = G->addAttrs({});
  NodeAttrs &Attrs = G->Attrs[Target.AttrSet - 1];
  if (any_of(Attrs, [&](const auto &A) { return A.first == Key; }))
    return failure("duplicate attribute " + quoteToken(Key));
  // By key, as the parser keeps them.
  auto At =
      partition_point(Attrs, [&](const auto &A) { return A.first < Key; });
  Attrs.insert(At, {Key.str(), Value.str()});
  return Error::success();
}

std::unique_ptr<Graph> Builder::take() {
  G->sortEdges();
  std::unique_ptr<Graph> Out = std::move(G);
  G = std::make_unique<Graph>();
  G->Name = Out->Name;
  G->Target = Out->Target;
  NextBuffer = 0;
  Owner = newOwner();
  return Out;
}

} // namespace dan
