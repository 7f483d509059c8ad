//===- Graph.h - The DAN IR: a command graph, its schedule ------*- C++ -*-===//
//
// A graph holds nodes in creation order (their storage never moves) and a
// schedule: the order in which the nodes run. Edges are stored on the
// destination as predecessor indices. Input edges and spill edges live in
// Preds; address-reuse edges, which a memory plan implies, live apart in
// ReusePreds so that the plan stays distinguishable from the trace.
//
// The IR records what a file says, including what a verifier would reject
// (two ALLOCs of one buffer, a use of an undeclared buffer); judging it is the
// verifier's job.
//
//===----------------------------------------------------------------------===//

#ifndef DAN_IR_GRAPH_H
#define DAN_IR_GRAPH_H

#include "dan/IR/IdIndex.h"
#include "dan/Target/Target.h"
#include "llvm/ADT/DenseMap.h"
#include "llvm/ADT/SmallVector.h"
#include "llvm/ADT/StringMap.h"
#include "llvm/Support/SMLoc.h"
#include <cstdint>
#include <string>
#include <vector>

namespace dan {

/// Index of a node in Graph::Nodes; stable for the life of the graph.
using NodeIdx = uint32_t;

/// A node's predecessors of one kind.
using EdgeList = llvm::SmallVector<NodeIdx, 2>;

struct Node {
  uint64_t Id = 0;
  NodeKind Kind = NodeKind::Op;
  /// Alloc, Free: the buffer's tier.
  Tier BufTier{};
  /// Op: the pipe it runs on.
  Pipe OpPipe{};
  /// Alloc, SpillIn: whether Offset is set.
  bool HasOffset = false;
  /// Op: index into Graph::OpNames.
  uint32_t OpName = 0;
  /// Op: 1 + the index into Graph::Tiles of the DDR tensor tiles it reads
  /// and writes; 0 for none.
  uint32_t TileSet = 0;
  /// 1 + the index into Graph::Attrs of the node's attributes; 0 for none.
  uint32_t AttrSet = 0;
  /// Alloc, Free, SpillOut, SpillIn: the buffer.
  uint64_t Buf = 0;
  /// Alloc, Free: the buffer's size.
  uint64_t Size = 0;
  /// Op: the cycle count.
  uint64_t Cycles = 0;
  /// Alloc, SpillIn: the placement's offset in the tier.
  uint64_t Offset = 0;
  /// Op: the buffers it reads or writes, in trace order.
  llvm::SmallVector<uint64_t, 3> Bufs;
  /// Input edges and spill edges, sorted by predecessor id.
  EdgeList Preds;
  /// Address-reuse edges of the memory plan, sorted by predecessor id.
  EdgeList ReusePreds;
  /// Where the node was defined, when it came from text.
  llvm::SMLoc Loc;

  bool isBufferNode() const { return Kind != NodeKind::Op; }
  bool isSpill() const {
    return Kind == NodeKind::SpillOut || Kind == NodeKind::SpillIn;
  }
  /// Whether this node places its buffer at an address (ALLOC or SPILL_IN).
  bool isPlacement() const {
    return Kind == NodeKind::Alloc || Kind == NodeKind::SpillIn;
  }
};

/// The DDR tensor tiles an operation reads and writes, by name ('reads @A.0,
/// writes @C.0' in the IR): how kernels in separate files feed each other
/// (dan-link resolves the names into edges).
struct TileAccess {
  llvm::SmallVector<std::string, 1> Reads, Writes;
};

/// A node's attributes, '{key = "value", ...}' in the IR: what a compiler
/// needs to map a plan back to its source (an op, a location). DAN reads
/// none of them; every stage carries them unchanged. In written order.
using NodeAttrs = llvm::SmallVector<std::pair<std::string, std::string>, 2>;

class Graph {
public:
  std::string Name;
  /// The target the graph is planned and measured for: a file's target
  /// header, the defaults for a graph without one (and for imported ones);
  /// tools apply their --capacity and --spill-cost on top.
  TargetDesc Target = TargetDesc::davinci();
  /// Where the file's target header names the target; invalid for a graph
  /// without one.
  llvm::SMLoc TargetLoc;
  /// Node storage in creation order.
  std::vector<Node> Nodes;
  /// The schedule: every node index exactly once.
  std::vector<NodeIdx> Order;
  /// Interned op names.
  std::vector<std::string> OpNames;
  /// The tiles of the operations that name some (Node::TileSet).
  std::vector<TileAccess> Tiles;

  /// The attributes of the nodes that have some (Node::AttrSet).
  std::vector<NodeAttrs> Attrs;

  /// Appends a node to storage and to the end of the schedule.
  NodeIdx addNode(Node N);
  unsigned internOpName(llvm::StringRef Name);
  llvm::StringRef opName(const Node &N) const { return OpNames[N.OpName]; }
  /// The tiles \p N names, or null.
  const TileAccess *tilesOf(const Node &N) const {
    return N.TileSet ? &Tiles[N.TileSet - 1] : nullptr;
  }
  /// Records \p A and returns the Node::TileSet that names it.
  uint32_t addTiles(TileAccess A) {
    Tiles.push_back(std::move(A));
    return Tiles.size();
  }

  /// The attributes of \p N, or null.
  const NodeAttrs *attrsOf(const Node &N) const {
    return N.AttrSet ? &Attrs[N.AttrSet - 1] : nullptr;
  }
  /// Records \p A and returns the Node::AttrSet that names it.
  uint32_t addAttrs(NodeAttrs A) {
    Attrs.push_back(std::move(A));
    return Attrs.size();
  }

  size_t size() const { return Nodes.size(); }
  Node &operator[](NodeIdx I) { return Nodes[I]; }
  const Node &operator[](NodeIdx I) const { return Nodes[I]; }

  /// Whether the graph carries a memory plan: any offset or spill node.
  bool hasMemoryPlan() const;

  /// What the tools' summaries count.
  struct Counts {
    size_t Edges = 0;      ///< dependence edges
    size_t ReuseEdges = 0; ///< reuse edges
    size_t Buffers = 0;    ///< ALLOC nodes
    size_t Spills = 0;     ///< SPILL_OUT nodes
  };
  Counts counts() const;
  /// One past the largest id of a non-spill node: the N of the spill
  /// numbering rule (spill k is N + 2k and N + 2k + 1).
  uint64_t firstSpillId() const;
  /// The position of every node in the schedule, indexed by NodeIdx.
  std::vector<uint32_t> positions() const;
  /// Sorts every edge list by predecessor id; builders call it once done.
  void sortEdges();
  /// Whether the non-spill nodes are numbered 0 to N-1, as the contest
  /// numbers a graph's nodes.
  bool hasDenseIds() const;
  /// Rewrites the ids of the non-spill nodes as 0 to N-1, keeping their
  /// order, and numbers the spills after them as the IR does
  /// (renumberSpills). Edges, the schedule and every buffer stay as they
  /// are.
  void renumberDensely();
  /// The node index of each id (the first node of an id that occurs twice).
  IdIndex idIndex() const;
  /// Plans the graph for \p T instead: every tier and pipe a node names is
  /// matched by name in \p T. Fails, changing nothing, with an error at
  /// the first node (by index) whose tier or pipe \p T lacks.
  llvm::Error retarget(const TargetDesc &T);

private:
  llvm::StringMap<unsigned> OpNameIds;
};

/// Whether \p OpName, in any case, is the name of a buffer node (ALLOC,
/// FREE, SPILL_OUT, SPILL_IN), which no operation may take.
bool namesBufferNode(llvm::StringRef OpName);

/// What keeps \p Name from being written where DAN IR takes an identifier
/// (an operation's name, an attribute's key), so that a graph imported or
/// built in a program prints as IR that parses back: it must be a letter
/// or '_' followed by letters, digits, '_' or '.', not a keyword, and not
/// shaped like a node or buffer id. Said of what it would name, \p Role ("an
/// operation") and \p Noun ("an operation name"):
/// "'COPY-IN' cannot name an operation in DAN IR: ...", "'after' is a
/// keyword of DAN IR, not an operation name"; empty when nothing is.
std::string identifierError(llvm::StringRef Name, llvm::StringRef Role,
                            llvm::StringRef Noun);

/// Whether \p C may be in a name after '@' in DAN IR (a graph's or a
/// tile's): a letter, a digit or one of '_' '.' '$' '-'.
bool isGraphNameChar(char C);

/// Whether \p Name can follow '@' in DAN IR: one or more isGraphNameChar.
bool isGraphName(llvm::StringRef Name);

/// A short human name of a node for messages: "n5 (COPY_IN)", "n7 (alloc b3)".
std::string describeNode(const Graph &G, NodeIdx I);

} // namespace dan

#endif // DAN_IR_GRAPH_H
