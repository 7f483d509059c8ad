//===- Components.cpp - The independent parts of a graph ------------------===//

#include "dan/IR/Components.h"
#include "llvm/ADT/DenseMap.h"
#include <numeric>

using namespace llvm;

namespace dan {

namespace {
/// Union-find over node indices, by size, with path halving.
class Parts {
public:
  explicit Parts(size_t N) : Parent(N), Size(N, 1) {
    std::iota(Parent.begin(), Parent.end(), 0);
  }
  NodeIdx find(NodeIdx X) {
    while (Parent[X] != X)
      X = Parent[X] = Parent[Parent[X]];
    return X;
  }
  void join(NodeIdx A, NodeIdx B) {
    A = find(A);
    B = find(B);
    if (A == B)
      return;
    if (Size[A] < Size[B])
      std::swap(A, B);
    Parent[B] = A;
    Size[A] += Size[B];
  }

private:
  std::vector<NodeIdx> Parent;
  std::vector<uint32_t> Size;
};
} // namespace

std::vector<std::vector<NodeIdx>> independentParts(const Graph &G) {
  Parts P(G.size());
  DenseMap<uint64_t, NodeIdx> FirstUser; // buffer -> a node that names it
  auto JoinBuffer = [&](uint64_t Buf, NodeIdx I) {
    auto [It, New] = FirstUser.try_emplace(Buf, I);
    if (!New)
      P.join(It->second, I);
  };
  for (NodeIdx I = 0, E = G.size(); I != E; ++I) {
    const Node &N = G[I];
    for (NodeIdx Pred : N.Preds)
      P.join(Pred, I);
    for (NodeIdx Pred : N.ReusePreds)
      P.join(Pred, I);
    if (N.isBufferNode())
      JoinBuffer(N.Buf, I);
    for (uint64_t B : N.Bufs)
      JoinBuffer(B, I);
  }
  std::vector<std::vector<NodeIdx>> Result;
  DenseMap<NodeIdx, size_t> PartOfRoot;
  for (NodeIdx I : G.Order) {
    auto [It, New] = PartOfRoot.try_emplace(P.find(I), Result.size());
    if (New)
      Result.emplace_back();
    Result[It->second].push_back(I);
  }
  return Result;
}

std::unique_ptr<Graph> extractPart(const Graph &G, ArrayRef<NodeIdx> Nodes) {
  auto Out = std::make_unique<Graph>();
  Out->Name = G.Name;
  Out->Target = G.Target;
  // The same op name table, index for index.
  for (const std::string &Name : G.OpNames)
    Out->internOpName(Name);
  DenseMap<NodeIdx, NodeIdx> NewIndex;
  for (NodeIdx I : Nodes)
    NewIndex[I] = NewIndex.size();
  Out->Nodes.reserve(Nodes.size());
  for (NodeIdx I : Nodes) {
    Node N = G[I];
    // The mapping keeps each list sorted: ids are unchanged.
    for (EdgeList *L : {&N.Preds, &N.ReusePreds})
      for (NodeIdx &Pred : *L)
        Pred = NewIndex.lookup(Pred);
    Out->addNode(std::move(N));
  }
  return Out;
}

} // namespace dan
