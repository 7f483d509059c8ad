//===- Trace.cpp - A replay's timeline as a Chrome trace ------------------===//

#include "dan/IR/NodeCosts.h"
#include "dan/Report/ReplayReport.h"
#include "llvm/Support/JSON.h"

using namespace llvm;

namespace dan {

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
  for (unsigned P = 0; P != NumPipes; ++P) {
    Event([&](json::OStream &J) {
      J.attribute("name", "thread_name");
      J.attribute("ph", "M");
      J.attribute("pid", 1);
      J.attribute("tid", P);
      J.attributeObject(
          "args", [&] { J.attribute("name", pipeName(static_cast<Pipe>(P))); });
    });
    Event([&](json::OStream &J) {
      J.attribute("name", "thread_sort_index");
      J.attribute("ph", "M");
      J.attribute("pid", 1);
      J.attribute("tid", P);
      J.attributeObject("args", [&] { J.attribute("sort_index", P); });
    });
  }
  for (NodeIdx I : G.Order) {
    const Node &N = G[I];
    std::optional<Pipe> P = nodePipe(N, Target);
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
