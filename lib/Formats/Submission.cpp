//===- Submission.cpp - The submission triple: reader and writer ----------===//
//
// <name>_schedule.txt: one node id per line, spill nodes included.
// <name>_memory.txt:   BufId:Offset per buffer, the offset of its ALLOC.
// <name>_spill.txt:    BufId:NewOffset per spill, in spill order.
//
//===----------------------------------------------------------------------===//

#include "dan/Formats/Submission.h"
#include "GraphBuilder.h"
#include "dan/IR/MemoryPlan.h"
#include "llvm/ADT/SmallString.h"
#include "llvm/Support/MemoryBuffer.h"
#include "llvm/Support/Path.h"

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

std::vector<std::string> submissionPaths(StringRef Dir, StringRef GraphName) {
  std::vector<std::string> Paths;
  for (StringRef Suffix : SubmissionSuffixes) {
    SmallString<128> P(Dir);
    sys::path::append(P, GraphName + "_" + Suffix);
    Paths.push_back(std::string(P));
  }
  return Paths;
}

std::string submissionPrefix(StringRef Where, StringRef GraphName) {
  StringRef Schedule = SubmissionSuffixes[0];
  if (Where.ends_with(("_" + Schedule).str()))
    return Where.drop_back(Schedule.size()).str();
  SmallString<128> P(Where);
  sys::path::append(P, GraphName + "_");
  return std::string(P);
}

namespace {
/// Applies the three files in turn: the spills create the nodes the
/// schedule names, the schedule orders them, the memory file places the
/// buffers.
class SubmissionReader {
public:
  SubmissionReader(Graph &G, SourceMgr &SM)
      : G(G), B(SM, G), N0(G.firstSpillId()), Ids(G.idIndex()) {
    for (NodeIdx I = 0, E = G.size(); I != E; ++I)
      if (G[I].Kind == NodeKind::Alloc)
        Allocs.try_emplace(G[I].Buf, I);
  }
  bool readSpills(const MemoryBuffer &Buf);
  bool readSchedule(const MemoryBuffer &Buf);
  bool readMemory(const MemoryBuffer &Buf);
  detail::GraphBuilder &builder() { return B; }

private:
  Graph &G;
  detail::GraphBuilder B;
  /// The first spill node's id.
  uint64_t N0;
  IdIndex Ids;
  /// Each buffer's ALLOC node.
  DenseMap<uint64_t, NodeIdx> Allocs;
};
} // namespace

/// Spill k of the file becomes nodes N0 + 2k (SPILL_OUT) and N0 + 2k + 1
/// (SPILL_IN, at the line's offset).
bool SubmissionReader::readSpills(const MemoryBuffer &Buf) {
  uint64_t K = 0;
  for (const Line &L : lines(Buf)) {
    uint64_t BufId, Offset;
    if (!parsePair(B, L, "BufId:NewOffset", BufId, Offset))
      return false;
    if (!Allocs.count(BufId))
      return B.error(L.Loc, "spill of b" + Twine(BufId) +
                                ", which the graph never allocates");
    // The printed IR must read back: no id above MaxValue.
    if (N0 + 2 * K + 1 > MaxValue)
      return B.error(L.Loc,
                     "spill " + Twine(K) + " would be nodes n" +
                         Twine(N0 + 2 * K) + " and n" + Twine(N0 + 2 * K + 1) +
                         ", above the id limit 2^40 (" + Twine(MaxValue) + ")");
    Node Out, In;
    Out.Kind = NodeKind::SpillOut;
    In.Kind = NodeKind::SpillIn;
    Out.Buf = In.Buf = BufId;
    Out.Id = N0 + 2 * K;
    In.Id = N0 + 2 * K + 1;
    In.HasOffset = true;
    In.Offset = Offset;
    Out.Loc = In.Loc = L.Loc;
    Ids.set(Out.Id, G.addNode(std::move(Out)));
    Ids.set(In.Id, G.addNode(std::move(In)));
    ++K;
  }
  return true;
}

/// Every node once, in the order it runs.
bool SubmissionReader::readSchedule(const MemoryBuffer &Sched) {
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
  return true;
}

/// One offset per allocated buffer, for its ALLOC.
bool SubmissionReader::readMemory(const MemoryBuffer &Buf) {
  DenseMap<uint64_t, SMLoc> Placed;
  for (const Line &L : lines(Buf)) {
    uint64_t BufId, Offset;
    if (!parsePair(B, L, "BufId:Offset", BufId, Offset))
      return false;
    auto It = Allocs.find(BufId);
    if (It == Allocs.end())
      return B.error(L.Loc, "offset for b" + Twine(BufId) +
                                ", which the graph never allocates");
    auto [P, New] = Placed.try_emplace(BufId, L.Loc);
    if (!New) {
      B.error(L.Loc, "second offset for b" + Twine(BufId));
      B.note(P->second, "first offset is here");
      return false;
    }
    G[It->second].HasOffset = true;
    G[It->second].Offset = Offset;
  }
  for (NodeIdx I : G.Order)
    if (G[I].Kind == NodeKind::Alloc && !G[I].HasOffset)
      return B.error(SMLoc::getFromPointer(Buf.getBufferEnd()),
                     "no offset for b" + Twine(G[I].Buf));
  return true;
}

bool applySubmission(Graph &G, SourceMgr &SM, const SubmissionBuffers &Files) {
  // The submission replaces any plan the graph has.
  stripMemoryPlan(G);
  SubmissionReader R(G, SM);
  // Spills first: they create the nodes the schedule names.
  if (Files.Spill && !R.readSpills(*SM.getMemoryBuffer(*Files.Spill)))
    return false;
  if (!R.readSchedule(*SM.getMemoryBuffer(Files.Schedule)))
    return false;
  // The contest numbers spill k after line k of the spill file, whatever
  // order its nodes run in; the IR numbers spills in the order their
  // spill_out nodes run. A stage-3 schedule that starts spill 1 before
  // spill 0 (both in flight) is the same plan, renumbered.
  renumberSpills(G);
  if (Files.Memory && !R.readMemory(*SM.getMemoryBuffer(*Files.Memory)))
    return false;
  if (Files.Spill && !Files.Memory && G.hasMemoryPlan())
    return R.builder().error(
        SMLoc::getFromPointer(
            SM.getMemoryBuffer(*Files.Spill)->getBufferStart()),
        "spills without a memory file: give <name>_memory.txt with the "
        "offset of every buffer");
  addSpillEdges(G);
  setReuseEdges(G);
  return true;
}

Expected<Submission> exportSubmission(const Graph &G) {
  // The contest numbers a graph's nodes 0 to N-1 and spill k N + 2k; ids
  // with gaps give a schedule no contest checker reads as this graph.
  if (!G.hasDenseIds())
    return createStringError(
        inconvertibleErrorCode(),
        "cannot export a submission: the contest numbers the nodes 0 to "
        "N-1, and this graph's ids have gaps; 'dan-translate --renumber' "
        "rewrites them so, and its spills after them");
  Submission S;
  raw_string_ostream Sched(S.Schedule), Mem(S.Memory), Spill(S.Spill);
  for (NodeIdx I : G.Order)
    Sched << G[I].Id << '\n';
  if (!G.hasMemoryPlan())
    return S;
  std::vector<std::pair<uint64_t, uint64_t>> Offsets, Spills;
  for (const Node &N : G.Nodes) {
    if (N.isPlacement() && !N.HasOffset) {
      DiagList Diags;
      Diags.error(N.Loc, "cannot export the memory plan: " +
                             describeNode(G, &N - G.Nodes.data()) +
                             " has no offset (dan-verify explains what the "
                             "plan lacks)");
      return Diags.takeError();
    }
    if (N.Kind == NodeKind::Alloc)
      Offsets.emplace_back(N.Buf, N.Offset);
    else if (N.Kind == NodeKind::SpillIn)
      Spills.emplace_back(N.Id, N.Buf);
  }
  llvm::sort(Offsets);
  for (auto [Buf, Offset] : Offsets)
    Mem << Buf << ':' << Offset << '\n';
  // Spill k is the k-th spill_in by id; its line holds its new offset.
  llvm::sort(Spills);
  IdIndex Ids = G.idIndex();
  for (auto [Id, Buf] : Spills)
    Spill << Buf << ':' << G[Ids.lookup(Id)].Offset << '\n';
  return S;
}

} // namespace dan
