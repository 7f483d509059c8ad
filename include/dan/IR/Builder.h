//===- Builder.h - Building a graph from a program --------------*- C++ -*-===//
//
// What a compiler that hands DAN a graph calls instead of writing IR text:
// tiers and pipes by name from the target, buffers and nodes by handle, a
// free that knows its buffer's tier and size. Each call checks what the
// parser checks of the same statement and fails with the parser's message,
// so a graph the builder accepts prints as IR that parses back.
//
//===----------------------------------------------------------------------===//

#ifndef DAN_IR_BUILDER_H
#define DAN_IR_BUILDER_H

#include "dan/IR/Graph.h"
#include "llvm/ADT/ArrayRef.h"
#include "llvm/Support/Error.h"
#include <memory>

namespace dan {

/// A node of the graph being built. Owner tells the builders apart: a
/// handle is valid only in the graph that made it.
struct NodeHandle {
  NodeIdx Index = UINT32_MAX;
  uint64_t Owner = 0;
};

/// A buffer of the graph being built: its alloc node, id, tier and size.
struct BufferHandle {
  NodeHandle Alloc;
  uint64_t Id = 0;
  Tier BufTier{};
  uint64_t Size = 0;
};

class Builder {
public:
  /// An empty graph named \p Name (what 'graph @Name' writes) for
  /// \p Target. \p Name must be a graph name (isGraphName); create checks
  /// one that is not known to be.
  explicit Builder(llvm::StringRef Name,
                   const TargetDesc &Target = TargetDesc::davinci());
  /// The builder of the constructor, or an error when \p Name is not a
  /// graph name.
  static llvm::Expected<Builder>
  create(llvm::StringRef Name,
         const TargetDesc &Target = TargetDesc::davinci());

  /// 'alloc bN TIER SIZE after ...': a new buffer, numbered from 0 in
  /// creation order.
  llvm::Expected<BufferHandle> alloc(llvm::StringRef TierName, uint64_t Size,
                                     llvm::ArrayRef<NodeHandle> After = {});
  /// 'NAME PIPE CYCLES (bufs) after ...'.
  llvm::Expected<NodeHandle> op(llvm::StringRef Name, llvm::StringRef PipeName,
                                uint64_t Cycles,
                                llvm::ArrayRef<BufferHandle> Bufs,
                                llvm::ArrayRef<NodeHandle> After = {});
  /// 'free bN TIER SIZE after ...' of \p B: its tier and size are the
  /// alloc's.
  llvm::Expected<NodeHandle> free(const BufferHandle &B,
                                  llvm::ArrayRef<NodeHandle> After = {});
  /// An edge From -> To, besides those given at creation.
  llvm::Error addEdge(NodeHandle From, NodeHandle To);
  /// The attribute 'Key = "Value"' of \p N.
  llvm::Error setAttr(NodeHandle N, llvm::StringRef Key, llvm::StringRef Value);

  /// The node ids are 0, 1, ... in creation order, the schedule is that
  /// order, and every edge list is sorted, as the parser leaves a graph.
  /// The builder is empty afterwards, and the handles it gave are no
  /// longer valid in it. A call that fails changes nothing.
  std::unique_ptr<Graph> take();

private:
  /// Adds \p N with edges from \p After, which checkAfter passed.
  NodeHandle addNode(Node N, llvm::ArrayRef<NodeHandle> After);
  llvm::Error checkHandle(NodeHandle H) const;
  /// Every handle of \p After is this graph's, and none is there twice.
  llvm::Error checkAfter(llvm::ArrayRef<NodeHandle> After) const;
  /// \p B must be a buffer of this graph, made by alloc.
  llvm::Error checkBuffer(const BufferHandle &B) const;
  llvm::Error checkNumber(uint64_t V) const;

  /// A number no other builder, nor this one before take, has had.
  static uint64_t newOwner();

  std::unique_ptr<Graph> G;
  uint64_t NextBuffer = 0;
  uint64_t Owner;
};

} // namespace dan

#endif // DAN_IR_BUILDER_H
