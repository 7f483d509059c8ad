//===- ImportSubmission.cpp - Reading a submission triple -----------------===//
//
// <name>_schedule.txt: one node id per line, spill nodes included.
// <name>_memory.txt:   BufId:Offset per buffer, the offset of its ALLOC.
// <name>_spill.txt:    BufId:NewOffset per spill, in spill order.
//
//===----------------------------------------------------------------------===//

#include "GraphBuilder.h"
#include "dan/IR/MemoryPlan.h"
#include "dan/Parse/Import.h"
#include "llvm/Support/MemoryBuffer.h"

using namespace llvm;

namespace dan {

namespace {

struct Line {
  StringRef Text;
  SMLoc Loc;
};

/// The non-blank lines of a buffer, trimmed.
std::vector<Line> lines(const MemoryBuffer &Buf) {
  std::vector<Line> Out;
  StringRef Rest = Buf.getBuffer();
  while (!Rest.empty()) {
    auto [L, Tail] = Rest.split('\n');
    StringRef T = L.trim();
    if (!T.empty())
      Out.push_back({T, SMLoc::getFromPointer(T.data())});
    Rest = Tail;
  }
  return Out;
}

/// Parses "A:B" with both integers in range.
bool parsePair(detail::GraphBuilder &B, const Line &L, StringRef What,
               uint64_t &A, uint64_t &V) {
  auto [Left, Right] = L.Text.split(':');
  if (!L.Text.contains(':') || Left.trim().getAsInteger(10, A) ||
      Right.trim().getAsInteger(10, V) || A > MaxValue || V > MaxValue)
    return B.error(L.Loc, "expected '" + What + "', not " + quoteToken(L.Text));
  return true;
}

} // namespace

bool applySubmission(Graph &G, SourceMgr &SM, const SubmissionBuffers &Files) {
  detail::GraphBuilder B(SM, G);
  // The submission replaces any plan the graph has.
  stripMemoryPlan(G);
  uint64_t N0 = G.firstSpillId();
  IdIndex Ids = G.idIndex();
  DenseMap<uint64_t, NodeIdx> Allocs;
  for (NodeIdx I = 0, E = G.size(); I != E; ++I)
    if (G[I].Kind == NodeKind::Alloc)
      Allocs.try_emplace(G[I].Buf, I);

  // Spills first: they create the nodes the schedule names.
  if (Files.Spill) {
    uint64_t K = 0;
    for (const Line &L : lines(*SM.getMemoryBuffer(*Files.Spill))) {
      uint64_t Buf, Offset;
      if (!parsePair(B, L, "BufId:NewOffset", Buf, Offset))
        return false;
      if (!Allocs.count(Buf))
        return B.error(L.Loc, "spill of b" + Twine(Buf) +
                                  ", which the graph never allocates");
      // The printed IR must read back: no id above MaxValue.
      if (N0 + 2 * K + 1 > MaxValue)
        return B.error(
            L.Loc, "spill " + Twine(K) + " would be nodes n" +
                       Twine(N0 + 2 * K) + " and n" + Twine(N0 + 2 * K + 1) +
                       ", above the id limit 2^40 (" + Twine(MaxValue) + ")");
      Node Out, In;
      Out.Kind = NodeKind::SpillOut;
      In.Kind = NodeKind::SpillIn;
      Out.Buf = In.Buf = Buf;
      Out.Id = N0 + 2 * K;
      In.Id = N0 + 2 * K + 1;
      In.HasOffset = true;
      In.Offset = Offset;
      Out.Loc = In.Loc = L.Loc;
      Ids.set(Out.Id, G.addNode(std::move(Out)));
      Ids.set(In.Id, G.addNode(std::move(In)));
      ++K;
    }
  }

  const MemoryBuffer &Sched = *SM.getMemoryBuffer(Files.Schedule);
  std::vector<NodeIdx> Order;
  std::vector<SMLoc> SeenAt(G.size());
  for (const Line &L : lines(Sched)) {
    uint64_t Id;
    if (L.Text.getAsInteger(10, Id))
      return B.error(L.Loc, "expected a node id, not " + quoteToken(L.Text));
    NodeIdx I = Id <= MaxValue ? Ids.lookup(Id) : IdIndex::None;
    if (I == IdIndex::None)
      return B.error(L.Loc, "node " + Twine(Id) + " is not in the graph" +
                                (Id >= N0 ? " nor in the spill file" : ""));
    if (SeenAt[I].isValid()) {
      B.error(L.Loc, "node " + Twine(Id) + " is scheduled twice");
      B.note(SeenAt[I], "first scheduled here");
      return false;
    }
    SeenAt[I] = L.Loc;
    Order.push_back(I);
  }
  for (NodeIdx I = 0, E = G.size(); I != E; ++I)
    if (!SeenAt[I].isValid())
      return B.error(SMLoc::getFromPointer(Sched.getBufferEnd()),
                     "node " + Twine(G[I].Id) +
                         " is missing from the "
                         "schedule");
  G.Order = std::move(Order);
  // Spill nodes keep the schedule file's positions for messages.
  for (NodeIdx I = 0, E = G.size(); I != E; ++I)
    if (G[I].isSpill())
      G[I].Loc = SeenAt[I];
  // The contest numbers spill k after line k of the spill file, whatever
  // order its nodes run in; the IR numbers spills in the order their
  // spill_out nodes run. A stage-3 schedule that starts spill 1 before
  // spill 0 (both in flight) is the same plan, renumbered.
  renumberSpills(G);

  if (Files.Memory) {
    DenseMap<uint64_t, SMLoc> Placed;
    for (const Line &L : lines(*SM.getMemoryBuffer(*Files.Memory))) {
      uint64_t Buf, Offset;
      if (!parsePair(B, L, "BufId:Offset", Buf, Offset))
        return false;
      auto It = Allocs.find(Buf);
      if (It == Allocs.end())
        return B.error(L.Loc, "offset for b" + Twine(Buf) +
                                  ", which the graph never allocates");
      auto [P, New] = Placed.try_emplace(Buf, L.Loc);
      if (!New) {
        B.error(L.Loc, "second offset for b" + Twine(Buf));
        B.note(P->second, "first offset is here");
        return false;
      }
      G[It->second].HasOffset = true;
      G[It->second].Offset = Offset;
    }
    for (NodeIdx I : G.Order)
      if (G[I].Kind == NodeKind::Alloc && !G[I].HasOffset)
        return B.error(SMLoc::getFromPointer(
                           SM.getMemoryBuffer(*Files.Memory)->getBufferEnd()),
                       "no offset for b" + Twine(G[I].Buf));
  }
  if (Files.Spill && !Files.Memory && G.hasMemoryPlan())
    return B.error(SMLoc::getFromPointer(
                       SM.getMemoryBuffer(*Files.Spill)->getBufferStart()),
                   "spills without a memory file: give <name>_memory.txt "
                   "with the offset of every buffer");

  addSpillEdges(G);
  setReuseEdges(G);
  return true;
}

} // namespace dan
