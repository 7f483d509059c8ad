//===- OpView.cpp - A graph as the operation-level orderings see it -------===//

#include "dan/Schedule/OpView.h"
#include "llvm/ADT/DenseMap.h"
#include "llvm/ADT/STLExtras.h"
#include <algorithm>

using namespace llvm;

namespace dan {
namespace sched {

View::View(const Graph &G, const TargetDesc &T) : G(G), T(T) {
  size_t N = G.size();
  Preds.resize(N);
  Succs.resize(N);
  InPos.assign(N, 0);
  OpOf.assign(N, None);
  for (unsigned TI = 0; TI != T.numTiers(); ++TI) {
    Tier Tr = static_cast<Tier>(TI);
    Cap[TI] = T.capacity(Tr);
    IsL0[TI] = T.isL0(Tr);
    InPeak[TI] = T.countsInPeak(Tr);
  }
  DenseMap<uint64_t, uint32_t> BufIdx;
  std::vector<NodeIdx> AllocOf, FreeOf;
  for (uint32_t P = 0; P != G.Order.size(); ++P) {
    NodeIdx I = G.Order[P];
    InPos[I] = P;
    const Node &Nd = G[I];
    if (Nd.Kind == NodeKind::Alloc && !BufIdx.count(Nd.Buf)) {
      BufIdx[Nd.Buf] = Bufs.size();
      Buf B;
      B.Size = Nd.Size;
      B.TI = static_cast<unsigned>(Nd.BufTier);
      Bufs.push_back(B);
      AllocOf.push_back(I);
      FreeOf.push_back(None);
    }
    if (Nd.Kind == NodeKind::Op) {
      OpOf[I] = Ops.size();
      Ops.push_back(I);
    }
  }
  for (NodeIdx I : G.Order)
    if (G[I].Kind == NodeKind::Free) {
      auto It = BufIdx.find(G[I].Buf);
      if (It != BufIdx.end() && FreeOf[It->second] == None)
        FreeOf[It->second] = I;
    }
  for (NodeIdx I = 0; I != N; ++I)
    for (NodeIdx P : G[I].Preds) {
      Preds[I].push_back(P);
      Succs[P].push_back(I);
    }
  OpBufs.resize(Ops.size());
  for (uint32_t O = 0; O != Ops.size(); ++O) {
    NodeIdx I = Ops[O];
    for (uint64_t Id : G[I].Bufs) {
      auto It = BufIdx.find(Id);
      if (It == BufIdx.end() || is_contained(OpBufs[O], It->second))
        continue;
      uint32_t B = It->second;
      OpBufs[O].push_back(B);
      ++Bufs[B].Users;
      // The execution model's implicit edges: a buffer is used inside its
      // lifetime.
      Preds[I].push_back(AllocOf[B]);
      Succs[AllocOf[B]].push_back(I);
      if (FreeOf[B] != None) {
        Preds[FreeOf[B]].push_back(I);
        Succs[I].push_back(FreeOf[B]);
      }
    }
  }
  // A buffer no operation uses has no use to order its FREE after its
  // ALLOC, so that edge is added directly.
  for (uint32_t B = 0; B != Bufs.size(); ++B)
    if (!Bufs[B].Users && FreeOf[B] != None &&
        !is_contained(Preds[FreeOf[B]], AllocOf[B])) {
      Preds[FreeOf[B]].push_back(AllocOf[B]);
      Succs[AllocOf[B]].push_back(FreeOf[B]);
    }
  // The op ancestors of every buffer node, in input order (a topological
  // order, since the input verifies), then the op-level edges.
  std::vector<std::vector<uint32_t>> Anc(N);
  auto Collect = [&](NodeIdx I, std::vector<uint32_t> &Out) {
    for (NodeIdx P : Preds[I]) {
      if (OpOf[P] != None)
        Out.push_back(OpOf[P]);
      else
        Out.insert(Out.end(), Anc[P].begin(), Anc[P].end());
    }
    llvm::sort(Out);
    Out.erase(std::unique(Out.begin(), Out.end()), Out.end());
  };
  OpPreds.resize(Ops.size());
  OpSuccs.resize(Ops.size());
  for (NodeIdx I : G.Order) {
    if (OpOf[I] == None) {
      // Only buffer nodes with successors need their ancestors.
      if (!Succs[I].empty())
        Collect(I, Anc[I]);
      continue;
    }
    Collect(I, OpPreds[OpOf[I]]);
  }
  for (uint32_t O = 0; O != Ops.size(); ++O)
    for (uint32_t P : OpPreds[O])
      OpSuccs[P].push_back(O);
}

//===----------------------------------------------------------------------===//
// From an order of the operations to a schedule and a plan
//===----------------------------------------------------------------------===//

std::vector<NodeIdx> materialize(const View &V, ArrayRef<uint32_t> OpOrder) {
  const Graph &G = V.G;
  size_t N = G.size();
  std::vector<NodeIdx> Out;
  Out.reserve(N);
  std::vector<uint8_t> Emitted(N, 0);
  std::vector<uint32_t> Left(N);
  for (NodeIdx I = 0; I != N; ++I)
    Left[I] = V.Preds[I].size();
  SmallVector<NodeIdx, 8> Work;
  auto Emit = [&](NodeIdx I) {
    Work.push_back(I);
    while (!Work.empty()) {
      NodeIdx X = Work.pop_back_val();
      if (Emitted[X])
        continue;
      Emitted[X] = 1;
      Out.push_back(X);
      for (NodeIdx S : V.Succs[X])
        if (--Left[S] == 0 && G[S].Kind == NodeKind::Free && !Emitted[S])
          Work.push_back(S);
    }
  };
  std::vector<std::pair<NodeIdx, uint32_t>> Stack;
  auto Pull = [&](NodeIdx Root) {
    if (Emitted[Root])
      return;
    Stack.push_back({Root, 0});
    while (!Stack.empty()) {
      auto &[I, Next] = Stack.back();
      if (Emitted[I]) {
        Stack.pop_back();
        continue;
      }
      if (Next < V.Preds[I].size()) {
        NodeIdx P = V.Preds[I][Next++];
        if (!Emitted[P])
          Stack.push_back({P, 0});
        continue;
      }
      NodeIdx Done = I;
      Stack.pop_back();
      Emit(Done);
    }
  };
  for (uint32_t O : OpOrder)
    Pull(V.Ops[O]);
  for (NodeIdx I : G.Order)
    Pull(I);
  return Out;
}

std::vector<uint32_t> reversePostOrder(const View &V) {
  size_t N = V.Ops.size();
  std::vector<uint32_t> Post;
  Post.reserve(N);
  std::vector<uint8_t> Seen(N, 0);
  std::vector<std::pair<uint32_t, uint32_t>> Stack;
  for (uint32_t R = N; R-- != 0;) {
    if (!V.OpPreds[R].empty() || Seen[R])
      continue;
    Seen[R] = 1;
    Stack.push_back({R, 0});
    while (!Stack.empty()) {
      auto &[O, Next] = Stack.back();
      const std::vector<uint32_t> &S = V.OpSuccs[O];
      if (Next < S.size()) {
        uint32_t C = S[S.size() - 1 - Next++];
        if (!Seen[C]) {
          Seen[C] = 1;
          Stack.push_back({C, 0});
        }
        continue;
      }
      Post.push_back(O);
      Stack.pop_back();
    }
  }
  std::reverse(Post.begin(), Post.end());
  return Post;
}

} // namespace sched
} // namespace dan
