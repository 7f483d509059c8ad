//===- GenBuilder.cpp - The trace builder of every family -----------------===//
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

#include "GenBuilder.h"
#include "llvm/ADT/STLExtras.h"
#include "llvm/ADT/Twine.h"
#include "llvm/Support/MathExtras.h"
#include <array>

using namespace llvm;

namespace dan::gen {

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
  // What the IR cannot hold would be written and not read back.
  if (FitError.empty() && G[I].Cycles > MaxValue)
    FitError = ("one " + G.opName(G[I]) + " would take " + Twine(G[I].Cycles) +
                " cycles, more than the IR holds (2^40); " + FitHint)
                   .str();
  return I;
}

void TraceBuilder::nameTile(NodeIdx I, const TileNamer &Namer, uint64_t Row,
                            uint64_t Col, bool Store) {
  if (!Namer)
    return;
  std::string Name = Namer(Row, Col);
  Node &N = G[I];
  if (!N.TileSet)
    N.TileSet = G.addTiles({});
  TileAccess &A = G.Tiles[N.TileSet - 1];
  if (Store) {
    A.Writes.push_back(Name);
    TileStore.try_emplace(Name, I);
    return;
  }
  A.Reads.push_back(Name);
  auto It = TileStore.find(Name);
  if (It == TileStore.end() || is_contained(N.Preds, It->second))
    return;
  N.Preds.push_back(It->second);
  Succs[It->second].push_back(I);
}

void TraceBuilder::checkFit(NodeIdx I) {
  const Node &N = G[I];
  std::array<uint64_t, MaxTiers> Bytes{};
  for (size_t K = 0; K != N.Bufs.size(); ++K) {
    if (is_contained(ArrayRef(N.Bufs).take_front(K), N.Bufs[K]))
      continue;
    const Node &A = G[Bufs[N.Bufs[K]].Alloc];
    Bytes[static_cast<unsigned>(A.BufTier)] += A.Size;
  }
  for (unsigned K = 0; K != T.numTiers(); ++K) {
    Tier Tr = static_cast<Tier>(K);
    if (Bytes[K] > T.capacity(Tr)) {
      FitError =
          ("one " + G.opName(N) + " needs " + Twine(Bytes[K]) + " bytes of " +
           T.tierName(Tr) + " at once, more than its capacity of " +
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

uint64_t mul(uint64_t A, uint64_t B) { return SaturatingMultiply(A, B); }
uint64_t add(uint64_t A, uint64_t B) { return SaturatingAdd(A, B); }

} // namespace dan::gen
