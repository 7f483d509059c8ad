//===- Trace.cpp - A replay's timeline as a Chrome trace ------------------===//

#include "Residency.h"
#include "dan/IR/NodeCosts.h"
#include "dan/Report/ReplayReport.h"
#include "llvm/Support/JSON.h"
#include <map>

using namespace llvm;

namespace dan {

namespace {
/// Bytes resident in each tier over time: (time, tier) -> bytes after every
/// change at that time, from the residency intervals (a placement's start to
/// its release's finish).
std::map<std::pair<uint64_t, unsigned>, uint64_t>
tierCounters(const Graph &G, const ReplayResult &R) {
  std::map<std::pair<uint64_t, unsigned>, int64_t> Delta;
  for (const Interval &V : residencyIntervals(G, R)) {
    unsigned T = static_cast<unsigned>(V.BufTier);
    Delta[{V.T0, T}] += int64_t(V.Size);
    Delta[{V.T1, T}] -= int64_t(V.Size);
  }
  std::map<std::pair<uint64_t, unsigned>, uint64_t> Out;
  int64_t Held[MaxTiers] = {};
  for (const auto &[Key, D] : Delta) {
    Held[Key.second] += D;
    Out[Key] = uint64_t(Held[Key.second]);
  }
  return Out;
}

/// The critical path as arrows between nodes on pipes: walking back from
/// the node that finishes last, at each node the predecessor whose finish
/// is its start (the first by id), else the node before it on its pipe that
/// finishes at its start (a pipe wait). Nodes on no pipe (ALLOC, FREE) are
/// passed through; an arrow joins two pipe nodes that a chain of edges with
/// no pipe wait links. Pairs (from, to), from the end back.
std::vector<std::pair<NodeIdx, NodeIdx>>
criticalArrows(const Graph &G, const ReplayResult &R, const TargetDesc &T) {
  std::vector<std::pair<NodeIdx, NodeIdx>> Arrows;
  std::vector<NodeIdx> Order = scheduled(G);
  BufferCosts Costs = bufferCosts(G);
  auto PipeOf = [&](NodeIdx I) { return nodePipe(G, I, T, Costs); };
  if (Order.empty() || R.Finish.size() != G.size())
    return Arrows;
  std::vector<uint32_t> Pos(G.size(), 0);
  for (size_t K = 0; K != Order.size(); ++K)
    Pos[Order[K]] = K;
  NodeIdx N = Order.front();
  for (NodeIdx I : Order)
    if (R.Finish[I] > R.Finish[N])
      N = I;
  // The pipe node the chain of edges walked back from (None: none).
  constexpr NodeIdx None = UINT32_MAX;
  NodeIdx To = PipeOf(N) ? N : None;
  while (R.Start[N] > 0) {
    std::optional<NodeIdx> Next;
    bool ByEdge = false;
    for (const EdgeList *L : {&G[N].Preds, &G[N].ReusePreds})
      for (NodeIdx P : *L)
        if (!Next && R.Finish[P] == R.Start[N]) {
          Next = P;
          ByEdge = true;
        }
    std::optional<Pipe> Own = PipeOf(N);
    for (size_t K = Pos[N]; !Next && Own && K-- > 0;)
      if (PipeOf(Order[K]) == Own && R.Finish[Order[K]] == R.Start[N])
        Next = Order[K];
    if (!Next)
      break;
    if (!ByEdge)
      To = None;
    N = *Next;
    if (PipeOf(N)) {
      if (To != None)
        Arrows.emplace_back(N, To);
      To = N;
    }
  }
  return Arrows;
}
} // namespace

void writeChromeTrace(const Graph &G, const ReplayResult &R,
                      const TargetDesc &Target, raw_ostream &OS) {
  bool First = true;
  auto Event = [&](function_ref<void(json::OStream &)> Body) {
    OS << (First ? "\n" : ",\n");
    First = false;
    json::OStream J(OS);
    J.object([&] { Body(J); });
  };
  OS << "{\"traceEvents\":[";
  Event([&](json::OStream &J) {
    J.attribute("name", "process_name");
    J.attribute("ph", "M");
    J.attribute("pid", 1);
    J.attributeObject("args", [&] { J.attribute("name", G.Name); });
  });
  for (unsigned P = 0; P != Target.numPipes(); ++P) {
    Event([&](json::OStream &J) {
      J.attribute("name", "thread_name");
      J.attribute("ph", "M");
      J.attribute("pid", 1);
      J.attribute("tid", P);
      J.attributeObject("args", [&] {
        J.attribute("name", Target.pipeName(static_cast<Pipe>(P)));
      });
    });
    Event([&](json::OStream &J) {
      J.attribute("name", "thread_sort_index");
      J.attribute("ph", "M");
      J.attribute("pid", 1);
      J.attribute("tid", P);
      J.attributeObject("args", [&] { J.attribute("sort_index", P); });
    });
  }
  BufferCosts Costs = bufferCosts(G);
  for (NodeIdx I : G.Order) {
    const Node &N = G[I];
    std::optional<Pipe> P = nodePipe(G, I, Target, Costs);
    if (!P)
      continue;
    Event([&](json::OStream &J) {
      if (N.isSpill())
        J.attribute("name", (N.Kind == NodeKind::SpillOut ? "spill_out b"
                                                          : "spill_in b") +
                                std::to_string(N.Buf));
      else
        J.attribute("name", G.opName(N));
      J.attribute("cat", N.isSpill() ? "spill" : "op");
      J.attribute("ph", "X");
      J.attribute("pid", 1);
      J.attribute("tid", static_cast<unsigned>(*P));
      J.attribute("ts", R.Start[I]);
      J.attribute("dur", R.Finish[I] - R.Start[I]);
      J.attributeObject("args", [&] {
        J.attribute("node", "n" + std::to_string(N.Id));
        J.attributeArray("bufs", [&] {
          if (N.isSpill())
            J.value("b" + std::to_string(N.Buf));
          else
            for (uint64_t B : N.Bufs)
              J.value("b" + std::to_string(B));
        });
      });
    });
  }
  // One counter track per tier: the bytes resident.
  for (const auto &[Key, Bytes] : tierCounters(G, R))
    Event([&](json::OStream &J) {
      J.attribute(
          "name",
          (Target.tierName(static_cast<Tier>(Key.second)) + " bytes").str());
      J.attribute("ph", "C");
      J.attribute("pid", 1);
      J.attribute("ts", Key.first);
      J.attributeObject("args", [&] { J.attribute("bytes", Bytes); });
    });
  // A flow arrow along the critical path, from the start of one pipe node's
  // slice to the start of the next one's.
  uint64_t FlowId = 0;
  for (auto [P, N] : criticalArrows(G, R, Target)) {
    Pipe From = *nodePipe(G, P, Target, Costs),
         To = *nodePipe(G, N, Target, Costs);
    ++FlowId;
    for (bool Start : {true, false})
      Event([&](json::OStream &J) {
        J.attribute("name", "critical path");
        J.attribute("cat", "critical");
        J.attribute("ph", Start ? "s" : "f");
        if (!Start)
          J.attribute("bp", "e");
        J.attribute("id", FlowId);
        J.attribute("pid", 1);
        J.attribute("tid", static_cast<unsigned>(Start ? From : To));
        J.attribute("ts", Start ? R.Start[P] : R.Start[N]);
      });
  }
  OS << "\n],\n\"otherData\":";
  json::OStream J(OS);
  J.object([&] {
    J.attribute("graph", G.Name);
    J.attribute("time_unit", "cycle (shown as 1 us)");
    J.attribute("makespan", R.Makespan);
  });
  OS << "}\n";
}

} // namespace dan
