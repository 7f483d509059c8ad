//===- Order.cpp - Whole-graph orders of passes and baselines -------------===//

#include "dan/Schedule/Order.h"
#include "dan/Analysis/Verifier.h"
#include "dan/IR/Diagnostic.h"
#include "dan/IR/IdIndex.h"
#include "dan/Schedule/L0Gate.h"
#include "llvm/ADT/STLExtras.h"
#include <set>

using namespace llvm;

namespace dan {

Error checkPlannableInput(const Graph &G, const TargetDesc &T, bool Verified) {
  // A plan cannot be planned again: its offsets and spills would be lost.
  if (Error E = verifyNoMemoryPlan(G, "dan-dlr",
                                   "plans a graph without one (stage 1's "
                                   "output or an imported trace)"))
    return E;
  if (Verified)
    return Error::success();

  // The scan relies on a legal schedule: every buffer allocated once, used
  // inside its lifetime, freed once. The verifier says where it is not.
  if (Error E = verifyPassInput(G, T, "dan-dlr"))
    return E;

  // (The verifier also refuses a buffer larger than its tier, and an
  // operation whose own buffers of one tier exceed it: no placement can
  // hold the one, no eviction helps the other.)
  return Error::success();
}

Error checkOrderInput(const Graph &G, const TargetDesc &T) {
  bool Bad = G.hasMemoryPlan();
  if (!Bad) {
    VerifyOptions Opts;
    Opts.ErrorLimit = 1;
    Bad = verifyGraph(G, T, Opts,
                      [](SMLoc, SourceMgr::DiagKind, const Twine &) {}) != 0;
  }
  if (!Bad)
    return Error::success();
  // The verifier says where, naming what needs the legal order.
  if (!G.hasMemoryPlan())
    if (Error E = verifyPassInput(G, T,
                                  "an order of whole operations (dan-mpas "
                                  "--order=window or groups, the baselines)"))
      return E;
  // The planner's other checks (a plan, sizes) say where too.
  if (Error E = checkPlannableInput(G, T))
    return E;
  return createStringError(inconvertibleErrorCode(),
                           "internal error: an input DLR accepts was refused");
}

Expected<std::vector<NodeIdx>> orderOperations(
    const Graph &G, const TargetDesc &T,
    function_ref<std::vector<uint32_t>(const sched::View &)> OrderOps,
    bool InputChecked, bool SingleL0, bool IgnoreL0) {
  if (!InputChecked)
    if (Error E = checkOrderInput(G, T))
      return E;
  sched::View V(G, T);
  V.SingleL0 = SingleL0;
  V.IgnoreL0 = IgnoreL0;
  // With no operation there is one order of them, the empty one; the
  // orderings assume at least one step.
  std::vector<uint32_t> Ops;
  if (!V.Ops.empty())
    Ops = OrderOps(V);
  return sched::materialize(V, Ops);
}

Expected<std::vector<NodeIdx>>
orderOperationsByKey(const Graph &G, const TargetDesc &T,
                     ArrayRef<uint64_t> KeyOfNode, bool InputChecked,
                     bool SingleL0, bool IgnoreL0) {
  return orderOperations(
      G, T,
      [&](const sched::View &V) {
        // A list schedule of the operations: the ready one with the smallest
        // key (then the earlier in input order) runs next, so edges always win.
        size_t N = V.Ops.size();
        std::vector<uint32_t> Left(N), Ops;
        Ops.reserve(N);
        std::set<std::pair<uint64_t, uint32_t>> Ready;
        for (uint32_t O = 0; O != N; ++O)
          if (!(Left[O] = V.OpPreds[O].size()))
            Ready.insert({KeyOfNode[V.Ops[O]], O});
        while (!Ready.empty()) {
          uint32_t O = Ready.begin()->second;
          Ready.erase(Ready.begin());
          Ops.push_back(O);
          for (uint32_t S : V.OpSuccs[O])
            if (--Left[S] == 0)
              Ready.insert({KeyOfNode[V.Ops[S]], S});
        }
        return sched::legalizeL0(V, std::move(Ops));
      },
      InputChecked, SingleL0, IgnoreL0);
}

namespace sched {

std::vector<uint32_t> orderWindow(const View &V) {
  std::vector<uint32_t> Order = legalizeL0(V, reversePostOrder(V));
  size_t N = Order.size();
  MemState S = V.initial();
  std::vector<uint32_t> PosInWindow(V.Ops.size(), None);
  for (size_t I = 0; I < N;) {
    size_t W = std::min<size_t>(baseline::MAGISWindow, N - I);
    std::vector<std::vector<uint32_t>> Units(W);
    std::vector<uint32_t> Mask(W, 0);
    for (size_t J = 0; J != W; ++J) {
      Units[J] = {Order[I + J]};
      PosInWindow[Order[I + J]] = J;
    }
    for (size_t J = 0; J != W; ++J)
      for (uint32_t P : V.OpPreds[Order[I + J]])
        if (PosInWindow[P] != None)
          Mask[J] |= uint32_t(1) << PosInWindow[P];
    std::vector<unsigned> Best = subsetDP(V, S, Units, Mask);
    for (size_t J = 0; J != W; ++J)
      PosInWindow[Order[I + J]] = None;
    for (size_t J = 0; J != W; ++J)
      Order[I + J] = Units[Best[J]][0];
    size_t Commit = I + W == N ? W : std::min<size_t>(baseline::MAGISStride, W);
    for (size_t J = 0; J != Commit; ++J)
      V.apply(S, Order[I + J]);
    I += Commit;
  }
  return Order;
}

} // namespace sched

Expected<std::vector<NodeIdx>>
orderWindowed(const Graph &G, const TargetDesc &T, bool InputChecked) {
  return orderOperations(G, T, sched::orderWindow, InputChecked);
}

} // namespace dan
