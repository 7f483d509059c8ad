//===- CSR.h - Per-key lists in one array, built in two passes --*- C++ -*-===//
//
// Graph passes keep per-node lists (successors, waiters, predecessors) as
// compressed sparse rows: the lists one after another in one array, and an
// array of where each starts. Building them takes a pass that counts each
// key's values and one that places them; CSRBuilder is those two passes'
// bookkeeping.
//
//===----------------------------------------------------------------------===//

#ifndef DAN_SUPPORT_CSR_H
#define DAN_SUPPORT_CSR_H

#include <cassert>
#include <cstddef>
#include <cstdint>
#include <vector>

namespace dan {

/// Lists of values per key 0 .. Keys - 1 in one array: key K's values are
/// Values[Begin[K] .. Begin[K + 1]). Built from two passes over the same
/// (key, value) pairs in the same order: count() each key, startAdding(),
/// then add() each pair, and finish(). Each key's values keep the order
/// they were added in.
///
/// Each key's start counts up in place as its values are added, ending at
/// the next key's start, so the build needs no array but the two it
/// returns (a copy of the starts to fill with was, per list, one more
/// array of the graph's size in fresh memory).
template <typename ValueT> class CSRBuilder {
public:
  explicit CSRBuilder(size_t Keys) : Begin(Keys + 2, 0) {}

  /// First pass: one more value for \p Key.
  void count(size_t Key) { ++Begin[Key + 2]; }

  /// Between the passes: room for every value counted.
  void startAdding() {
    // Begin[K + 2] becomes the end of key K's list, so Begin[K + 1] is its
    // start, where add() places its values.
    for (size_t K = 2; K < Begin.size(); ++K)
      Begin[K] += Begin[K - 1];
    Values.resize(Begin.back());
  }

  /// Second pass: \p Value at the end of \p Key's list.
  void add(size_t Key, ValueT Value) {
    assert(Begin[Key + 1] < Begin[Key + 2] && "more values than counted");
    Values[Begin[Key + 1]++] = Value;
  }

  /// After the second pass: each key's start (Keys + 1 of them, the last
  /// the number of values) into \p OutBegin, the values into \p OutValues.
  void finish(std::vector<uint32_t> &OutBegin, std::vector<ValueT> &OutValues) {
    Begin.pop_back();
    OutBegin = std::move(Begin);
    OutValues = std::move(Values);
  }

private:
  std::vector<uint32_t> Begin;
  std::vector<ValueT> Values;
};

/// The predecessor and the successor lists of nodes 0 .. \p Nodes - 1, in
/// the order of the edges: \p ForEachEdge(Visit) calls Visit(From, To) for
/// each edge, the same edges in the same order each time (it runs twice).
template <typename NodeT, typename ForEachEdgeFn>
void buildEdgeLists(size_t Nodes, ForEachEdgeFn ForEachEdge,
                    std::vector<uint32_t> &PredBegin, std::vector<NodeT> &Preds,
                    std::vector<uint32_t> &SuccBegin,
                    std::vector<NodeT> &Succs) {
  CSRBuilder<NodeT> PredLists(Nodes), SuccLists(Nodes);
  ForEachEdge([&](NodeT From, NodeT To) {
    PredLists.count(To);
    SuccLists.count(From);
  });
  PredLists.startAdding();
  SuccLists.startAdding();
  ForEachEdge([&](NodeT From, NodeT To) {
    PredLists.add(To, From);
    SuccLists.add(From, To);
  });
  PredLists.finish(PredBegin, Preds);
  SuccLists.finish(SuccBegin, Succs);
}

} // namespace dan

#endif // DAN_SUPPORT_CSR_H
