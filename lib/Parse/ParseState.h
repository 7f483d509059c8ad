//===- ParseState.h - State shared by the lexer and the grammar -*- C++ -*-===//
//
// Private to lib/Parse.
//
//===----------------------------------------------------------------------===//

#ifndef DAN_LIB_PARSE_PARSESTATE_H
#define DAN_LIB_PARSE_PARSESTATE_H

#include "dan/IR/Diagnostic.h"
#include "dan/IR/Graph.h"
#include "dan/Support/ReadFile.h"
#include "llvm/ADT/StringMap.h"
#include "llvm/ADT/Twine.h"
#include "llvm/Support/SMLoc.h"
#include "llvm/Support/SourceMgr.h"
#include <array>
#include <optional>
#include <utility>
#include <vector>

namespace dan::detail {

/// Bison's location type: a range of source characters.
struct SrcRange {
  llvm::SMLoc begin, end;
};

/// A node reference as written: the id and where it was written.
using IdRef = std::pair<uint64_t, llvm::SMLoc>;
using IdRefList = std::vector<IdRef>;

class ParseState {
public:
  /// \p MaxIncludeSize: the most bytes of a target description file a
  /// header names.
  ParseState(llvm::SourceMgr &SM, Graph &G,
             uint64_t MaxIncludeSize = DefaultMaxInputSize)
      : SM(SM), G(G), MaxIncludeSize(MaxIncludeSize) {}

  void error(llvm::SMLoc Loc, const llvm::Twine &Msg);
  void note(llvm::SMLoc Loc, const llvm::Twine &Msg);
  bool hadError() const { return HadError; }
  /// After the first ShownErrorLimit errors the rest (and their notes) are
  /// only counted; this notes how many, about buffer \p BufferID.
  void reportDropped(unsigned BufferID);

  /// Name checks; each reports its own error and returns false on failure.
  bool lookupTier(llvm::StringRef Name, SrcRange R, Tier &T);
  bool lookupPipe(llvm::StringRef Name, SrcRange R, Pipe &P);
  bool checkOpName(llvm::StringRef Name, SrcRange R);

  /// The target header (TargetHeader.cpp). beginTarget reads the name;
  /// then the values of a built-in target or a whole description may
  /// follow; endTarget checks the description and installs it. Each returns
  /// false after an error.
  bool beginTarget(llvm::StringRef Name, SrcRange R);
  bool endTarget();
  /// 'target "PATH"': the description in file PATH (relative to the
  /// directory of the file naming it).
  bool includeTarget(llvm::StringRef Path, SrcRange R);

  /// A value of a built-in target, 'KEY = ...': beginTargetValue checks
  /// the key (an unknown key, a key set twice); then 'TIER = N' sets a
  /// capacity and 'spill_cost = ALPHA + BETA * VAR' the spill cost, each
  /// reporting a value of the other form. Each returns false after an
  /// error.
  bool beginTargetValue(llvm::StringRef Key, SrcRange KeyR);
  bool setTargetCapacity(uint64_t Value);
  bool setTargetSpillCost(uint64_t Alpha, uint64_t Beta, llvm::StringRef Var,
                          SrcRange VarR);
  /// Whether a target value is being read (its key is known, its value not
  /// yet), and the error that says which form its key takes.
  bool inTargetValue() const { return TargetValue.has_value(); }
  void reportTargetValueForm();

  /// An entry of a target description: 'tier NAME { KEY = VALUE, ... }',
  /// 'pipe NAME', 'vector PIPE', 'load OP' or 'spill { ... }' (\p Name
  /// empty). descKey checks a key of the entry's block; descInt, descName
  /// and descCost give its value; endDescEntry checks the entry and adds
  /// it to the description.
  enum class DescEntryKind { Tier, Pipe, Vector, Load, Spill, Op };
  /// What a description key takes as its value.
  enum class DescForm { Int, Bool, PipeName, Cost, TierList, PipeList };
  bool descEntry(llvm::StringRef Keyword, SrcRange KeywordR,
                 llvm::StringRef Name, SrcRange NameR);
  bool descKey(llvm::StringRef Key, SrcRange KeyR);
  bool descInt(uint64_t Value, SrcRange R);
  bool descName(llvm::StringRef Value, SrcRange R);
  bool descCost(uint64_t Alpha, uint64_t Beta, llvm::StringRef Var,
                SrcRange VarR);
  /// A list value '[A, B]': its start, then each name.
  bool descListBegin();
  bool descListName(llvm::StringRef Name, SrcRange R);
  bool descListEnd();
  bool endDescEntry();
  /// Whether a description key's value is being read, and the error that
  /// says which form it takes.
  bool inDescValue() const { return Desc && !Desc->Key.empty(); }
  void reportDescValueForm();

  /// What the syntax error messages need of the statement being read: the
  /// buffer-node keyword it started with, if any (the lexer notes it), and
  /// the operation name it started with, if any (the parser notes it).
  enum class StmtKeyword { None, Alloc, Free, SpillOut, SpillIn };
  void noteStmtStart() {
    Keyword = StmtKeyword::None;
    OpName = {};
  }
  void noteKeyword(StmtKeyword K) { Keyword = K; }
  void noteOpName(llvm::StringRef Name, SrcRange R) { OpName = {Name, R}; }
  StmtKeyword stmtKeyword() const { return Keyword; }
  const std::pair<llvm::StringRef, SrcRange> &opName() const { return OpName; }

  /// The node of the statement being read.
  Node &node() { return Cur; }
  /// A node reference of the statement being read: 'after' ones first, then
  /// endAfter(), then 'reuse' ones.
  void addRef(uint64_t Id, llvm::SMLoc Loc) { CurRefs.emplace_back(Id, Loc); }
  void endAfter() { AfterEnd = CurRefs.size(); }
  /// A tile name of the statement being read: 'reads' ones, then
  /// endReads(), then 'writes' ones.
  void addTile(llvm::StringRef Name) {
    (ReadsDone ? CurTiles.Writes : CurTiles.Reads).push_back(Name.str());
  }
  void endReads() { ReadsDone = true; }
  /// An attribute of the statement being read, 'KEY = "VALUE"' with KEY at
  /// \p KeyR; fails on a key the statement already has.
  bool addAttr(llvm::StringRef Key, SrcRange KeyR, std::string Value);
  /// Adds node() as defined at \p R with its references, and starts the
  /// next statement; fails on a redefined id.
  bool defineNode(uint64_t Id, SrcRange R);
  /// Resolves edges once every node is known, reporting every reference
  /// to an undefined node and every duplicate edge in file order; each
  /// edge list comes out sorted by predecessor id (as Graph::sortEdges
  /// sorts it).
  bool finish();

  Graph &graph() { return G; }
  /// Room for \p N node references, so that the list is rarely regrown
  /// (and copied) while a large file is read.
  void reserveRefs(size_t N) { Refs.reserve(N); }

private:
  struct PendingRef {
    NodeIdx User;
    uint64_t Id;
    llvm::SMLoc Loc;
    bool Reuse;
  };
  /// The node index of an id: ids below DenseIds.size() are looked up
  /// directly (UINT32_MAX: not defined), larger ones in SparseIds. Ids are
  /// dense in practice, so a graph of a million nodes needs no hashing.
  NodeIdx *findId(uint64_t Id);
  bool addId(uint64_t Id, NodeIdx I);
  /// Finds a target header key, reporting an unknown one; records where it
  /// is set and reports a second setting. Returns its index in
  /// TargetDesc::headerKeys().
  std::optional<unsigned> targetKey(llvm::StringRef Key, SrcRange KeyR);

  llvm::SourceMgr &SM;
  Graph &G;
  uint64_t MaxIncludeSize;
  Node Cur;
  IdRefList CurRefs;
  size_t AfterEnd = 0;
  TileAccess CurTiles;
  bool ReadsDone = false;
  NodeAttrs CurAttrs;
  std::vector<NodeIdx> DenseIds;
  llvm::DenseMap<uint64_t, NodeIdx> SparseIds;
  std::vector<PendingRef> Refs;
  bool HadError = false;
  ErrorLimiter Limiter{ShownErrorLimit};
  struct PendingTargetValue {
    llvm::StringRef Key;
    SrcRange KeyR;
    unsigned Index; ///< in TargetDesc::headerKeys()
  };
  std::optional<PendingTargetValue> TargetValue;
  StmtKeyword Keyword = StmtKeyword::None;
  std::pair<llvm::StringRef, SrcRange> OpName;
  /// Where each target header key was set (invalid: not yet).
  std::vector<llvm::SMLoc> TargetKeyLocs;
  /// The header's target name, and whether it names a built-in target.
  llvm::StringRef TargetName;
  SrcRange TargetNameR;
  bool TargetIsBuiltin = false;

  /// A target description being read (TargetHeader.cpp).
  struct DescState {
    explicit DescState(llvm::StringRef Name) : Target(Name) {}
    TargetDesc Target;
    DescEntryKind Kind = DescEntryKind::Tier;
    llvm::StringRef EntryName;
    SrcRange EntryR;
    /// The key whose value is being read (empty: none), and where each key
    /// of the entry was set.
    llvm::StringRef Key;
    SrcRange KeyR;
    llvm::StringMap<llvm::SMLoc> KeysSet;
    TierDesc NewTier;
    Pipe SpillOut{}, SpillIn{};
    uint64_t Alpha = 0, Beta = 0;
    llvm::SMLoc SpillLoc;
    /// The tier of a 'spill TIER { ... }' entry being read (none: the
    /// default path), and where each tier's own path was given.
    std::optional<Tier> SpillTier;
    std::array<llvm::SMLoc, MaxTiers> TierSpillLocs{};
    /// The list being read, and the rule of a 'pipe' or 'op' entry.
    uint32_t List = 0;
    Pipe CurPipe{};
    OpRule NewRule;
  };
  std::optional<DescState> Desc;
  /// The form of the key being read.
  DescForm descForm() const;
  /// Whether the key being read takes \p F; reports its form otherwise.
  bool descTakes(DescForm F);
  /// The pipe \p Name of the description, declared before; reports an
  /// unknown one.
  std::optional<Pipe> declaredPipe(llvm::StringRef Name, SrcRange R);
  /// The same for tier \p Name.
  std::optional<Tier> declaredTier(llvm::StringRef Name, SrcRange R);
};

/// Reads the target description file in buffer \p BufferID of \p SM
/// ('target NAME { ... }' alone), reporting errors through \p SM.
std::optional<TargetDesc> parseTargetBuffer(llvm::SourceMgr &SM,
                                            unsigned BufferID);

} // namespace dan::detail

#endif // DAN_LIB_PARSE_PARSESTATE_H
