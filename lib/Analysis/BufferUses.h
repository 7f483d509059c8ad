//===- BufferUses.h - The operations of each buffer -------------*- C++ -*-===//
//
// Private to lib/Analysis: each buffer's operations in schedule order, as
// the verifier's path checks and the lint ask about them.
//
//===----------------------------------------------------------------------===//

#ifndef DAN_LIB_ANALYSIS_BUFFERUSES_H
#define DAN_LIB_ANALYSIS_BUFFERUSES_H

#include "dan/IR/Graph.h"
#include "dan/IR/IdIndex.h"
#include "dan/Support/CSR.h"
#include "llvm/ADT/ArrayRef.h"
#include "llvm/ADT/STLExtras.h"
#include <cstdint>
#include <vector>

namespace dan::detail {

/// The operations that name each of \p Keys buffers, in schedule order, an
/// operation once however often it names the buffer; \p KeyOf maps a
/// buffer id to its key, or to IdIndex::None for a buffer not asked about.
class BufferUses {
public:
  template <typename KeyFnT>
  BufferUses(const Graph &G, size_t Keys, KeyFnT KeyOf) {
    auto ForEachUse = [&](auto F) {
      for (NodeIdx I : G.Order) {
        const Node &N = G[I];
        if (N.Kind != NodeKind::Op)
          continue;
        // An operation names a few buffers: a scan of those before finds
        // a repeat.
        llvm::ArrayRef<uint64_t> Bufs = N.Bufs;
        for (size_t J = 0; J != Bufs.size(); ++J) {
          uint32_t K = KeyOf(Bufs[J]);
          if (K != IdIndex::None &&
              !llvm::is_contained(Bufs.take_front(J), Bufs[J]))
            F(K, I);
        }
      }
    };
    CSRBuilder<NodeIdx> Lists(Keys);
    ForEachUse([&](uint32_t K, NodeIdx) { Lists.count(K); });
    Lists.startAdding();
    ForEachUse([&](uint32_t K, NodeIdx I) { Lists.add(K, I); });
    Lists.finish(Begin, Uses);
  }

  /// The operations of the buffer with key \p K.
  llvm::MutableArrayRef<NodeIdx> of(uint32_t K) {
    return llvm::MutableArrayRef(Uses).slice(Begin[K], Begin[K + 1] - Begin[K]);
  }

private:
  std::vector<uint32_t> Begin;
  std::vector<NodeIdx> Uses;
};

} // namespace dan::detail

#endif // DAN_LIB_ANALYSIS_BUFFERUSES_H
