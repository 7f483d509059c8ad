//===- GraphBuilder.h - A graph from an external format ---------*- C++ -*-===//
//
// Private to lib/Formats: the checks every importer shares (unique ids, known
// edge ends, no duplicate edge), reported through a SourceMgr.
//
//===----------------------------------------------------------------------===//

#ifndef DAN_LIB_FORMATS_GRAPHBUILDER_H
#define DAN_LIB_FORMATS_GRAPHBUILDER_H

#include "dan/IR/Diagnostic.h"
#include "dan/IR/Graph.h"
#include "dan/IR/IdIndex.h"
#include "llvm/ADT/DenseSet.h"
#include "llvm/ADT/STLFunctionalExtras.h"
#include "llvm/ADT/Twine.h"
#include "llvm/Support/SourceMgr.h"

namespace dan::detail {

class GraphBuilder {
public:
  GraphBuilder(llvm::SourceMgr &SM, Graph &G) : SM(SM), G(G) {}

  bool error(llvm::SMLoc Loc, const llvm::Twine &Msg);
  void note(llvm::SMLoc Loc, const llvm::Twine &Msg);
  /// While quiet, errors and notes are not reported: the caller reads the
  /// input again, reporting, when a check fails.
  void setQuiet(bool Q) { Quiet = Q; }

  /// Adds \p N (its Id and Loc set); fails on a duplicate id.
  bool addNode(Node N);
  /// Adds the edge From -> To written at \p Loc; fails on an unknown id or a
  /// duplicate edge.
  bool addEdge(uint64_t From, uint64_t To, llvm::SMLoc Loc, bool Reuse);
  /// Sorts the edge lists; call once all nodes and edges are in.
  void finish() { G.sortEdges(); }
  /// Sizes the id index for about \p N nodes, before the first addNode, so
  /// that dense ids are found by one array access.
  void expectNodes(size_t N) { Ids = IdIndex(N); }

  Graph &graph() { return G; }

private:
  /// Whether \p List, the edge list of \p To, has an edge from \p From.
  /// A short list is searched; one that grew past ShortList is mirrored in
  /// LongLists, since the search would be quadratic for a node with a
  /// million predecessors.
  bool hasEdge(const EdgeList &List, NodeIdx From, NodeIdx To, bool Reuse);
  static constexpr size_t ShortList = 16;

  llvm::SourceMgr &SM;
  Graph &G;
  bool Quiet = false;
  IdIndex Ids;
  /// (to, from) of every edge in a list longer than ShortList; [1]: reuse.
  llvm::DenseSet<std::pair<NodeIdx, NodeIdx>> LongLists[2];
};

/// Where a checked name is written, found only when the check fails (in
/// JSON that is a scan of the element's text).
using LazyLoc = llvm::function_ref<llvm::SMLoc()>;

/// Checks that \p Name is a tier (or a pipe), with a "did you mean" hint.
bool checkTierName(GraphBuilder &B, llvm::StringRef Name, LazyLoc Where,
                   Tier &T);
bool checkPipeName(GraphBuilder &B, llvm::StringRef Name, LazyLoc Where,
                   Pipe &P);
/// Checks that \p Name (the field \p What) can name an operation in DAN IR,
/// so that the imported graph prints as IR that parses back: an identifier,
/// not a keyword, not shaped like a node or buffer id, and not a buffer
/// node's name (ALLOC, FREE, SPILL_OUT, SPILL_IN) in any case.
bool checkOpName(GraphBuilder &B, llvm::StringRef Name, LazyLoc Where,
                 const llvm::Twine &What);
/// Checks that \p Name (the field \p What) is an identifier of DAN IR
/// (identifierError); the error says what it names, \p Role ("an
/// operation") and \p Noun ("an operation name").
bool checkIdentifier(GraphBuilder &B, llvm::StringRef Name, LazyLoc Where,
                     const llvm::Twine &What, llvm::StringRef Role,
                     llvm::StringRef Noun);

} // namespace dan::detail

#endif // DAN_LIB_FORMATS_GRAPHBUILDER_H
