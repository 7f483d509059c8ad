//===- UnionFind.h - Disjoint sets of dense indices -------------*- C++ -*-===//
//
// The parts of a graph (lib/IR/Components.cpp) and the tasks of a kernel
// (lib/Schedule/TaskOrder.cpp) are the sets of a union-find over node
// indices. The smaller index becomes the root, with path halving: near
// linear, and the root of a set does not depend on the order of the joins.
//
//===----------------------------------------------------------------------===//

#ifndef DAN_SUPPORT_UNIONFIND_H
#define DAN_SUPPORT_UNIONFIND_H

#include <algorithm>
#include <cstdint>
#include <numeric>
#include <vector>

namespace dan {

class UnionFind {
public:
  explicit UnionFind(size_t N) : Parent(N) {
    std::iota(Parent.begin(), Parent.end(), 0);
  }
  /// The root of \p X's set: its smallest index.
  uint32_t find(uint32_t X) {
    while (Parent[X] != X)
      X = Parent[X] = Parent[Parent[X]];
    return X;
  }
  void join(uint32_t A, uint32_t B) {
    A = find(A);
    B = find(B);
    if (A != B)
      Parent[std::max(A, B)] = std::min(A, B);
  }

private:
  std::vector<uint32_t> Parent;
};

} // namespace dan

#endif // DAN_SUPPORT_UNIONFIND_H
