//===- TargetHeader.cpp - The target header of the IR ---------------------===//
//
// 'target NAME', a built-in target with values that override its own
// ('target davinci { UB = 768 }'), or a whole description in braces
// (docs/LangRef.md, "Target descriptions").
//
//===----------------------------------------------------------------------===//

#include "ParseState.h"
#include "llvm/ADT/SmallString.h"
#include "llvm/ADT/StringExtras.h"
#include "llvm/Support/MemoryBuffer.h"
#include "llvm/Support/Path.h"

using namespace llvm;

namespace dan::detail {

namespace {
using Form = ParseState::DescForm;

struct KeySpec {
  StringRef Key;
  Form Takes;
};

const KeySpec TierKeys[] = {{"capacity", Form::Int},
                            {"align", Form::Int},
                            {"peak", Form::Bool},
                            {"operand", Form::Bool}};
const KeySpec SpillKeys[] = {
    {"out", Form::PipeName}, {"in", Form::PipeName}, {"cost", Form::Cost}};
const KeySpec PipeKeys[] = {{"tiers", Form::TierList}};
const KeySpec OpKeys[] = {{"pipes", Form::PipeList}, {"tiers", Form::TierList}};
const StringRef EntryKeywords[] = {"tier",  "pipe", "vector",
                                   "spill", "load", "op"};
} // namespace

static ArrayRef<KeySpec> keysOf(ParseState::DescEntryKind K) {
  switch (K) {
  case ParseState::DescEntryKind::Tier:
    return TierKeys;
  case ParseState::DescEntryKind::Spill:
    return SpillKeys;
  case ParseState::DescEntryKind::Pipe:
    return PipeKeys;
  case ParseState::DescEntryKind::Op:
    return OpKeys;
  default:
    return {};
  }
}

static StringRef formText(Form F) {
  switch (F) {
  case Form::Int:
    return "an integer";
  case Form::Bool:
    return "'true' or 'false'";
  case Form::PipeName:
    return "a pipe of the description";
  case Form::Cost:
    return "a cost formula 'ALPHA + BETA * size'";
  case Form::TierList:
    return "a list of tiers '[A, B]'";
  case Form::PipeList:
    return "a list of pipes '[A, B]'";
  }
  return "";
}

static std::string unknownTargetMessage(StringRef Name) {
  return "unknown target " + quoteToken(Name) + "; the built-in targets are " +
         join(map_range(TargetDesc::builtinNames(),
                        [](StringRef N) { return "'" + N.str() + "'"; }),
              ", ") +
         ", and a new target is described in braces: 'target " + Name.str() +
         " { tier ... pipe ... spill { ... } }'";
}

bool ParseState::beginTarget(StringRef Name, SrcRange R) {
  TargetName = Name;
  TargetNameR = R;
  G.TargetLoc = R.begin;
  std::optional<TargetDesc> Builtin = TargetDesc::builtin(Name);
  TargetIsBuiltin = Builtin.has_value();
  if (Builtin)
    G.Target = std::move(*Builtin);
  return true;
}

bool ParseState::endTarget() {
  if (!Desc) {
    if (TargetIsBuiltin)
      return true;
    error(TargetNameR.begin, unknownTargetMessage(TargetName));
    return false;
  }
  const TargetDesc &T = Desc->Target;
  auto Missing = [&](const Twine &What) {
    error(TargetNameR.begin,
          "target description " + quoteToken(TargetName) + " has no " + What);
    return false;
  };
  if (T.numTiers() == 0)
    return Missing("tier: add 'tier NAME { capacity = N }'");
  if (T.numPipes() == 0)
    return Missing("pipe: add 'pipe NAME'");
  if (!Desc->SpillLoc.isValid())
    return Missing("spill path: add 'spill { out = PIPE, in = PIPE, cost = "
                   "ALPHA + BETA * size }'");
  G.Target = std::move(Desc->Target);
  Desc.reset();
  return true;
}

bool ParseState::includeTarget(StringRef Path, SrcRange R) {
  G.TargetLoc = R.begin;
  // Relative to the directory of the file that names it; from standard
  // input, to the working directory.
  SmallString<256> Full;
  StringRef Including = SM.getMemoryBuffer(SM.FindBufferContainingLoc(R.begin))
                            ->getBufferIdentifier();
  if (sys::path::is_relative(Path) && Including != "<stdin>")
    Full = sys::path::parent_path(Including);
  sys::path::append(Full, Path);
  // Bounded as every input is: a description names any path, /dev/zero
  // among them.
  Expected<std::unique_ptr<MemoryBuffer>> Buf =
      readFileBounded(Full, MaxIncludeSize);
  if (!Buf) {
    error(R.begin, "cannot read target description " + quoteToken(Path) + ": " +
                       toString(Buf.takeError()));
    return false;
  }
  unsigned ID = addSourceBuffer(SM, std::move(*Buf), R.begin);
  std::optional<TargetDesc> T = parseTargetBuffer(SM, ID);
  if (!T) {
    HadError = true;
    return false;
  }
  G.Target = std::move(*T);
  return true;
}

//===----------------------------------------------------------------------===//
// The values of a built-in target
//===----------------------------------------------------------------------===//

std::optional<unsigned> ParseState::targetKey(StringRef Key, SrcRange KeyR) {
  auto Keys = G.Target.headerKeys();
  auto It = llvm::find(Keys, Key);
  if (It == Keys.end()) {
    error(KeyR.begin, unknownNameMessage("target key", Key, Keys));
    return std::nullopt;
  }
  unsigned I = It - Keys.begin();
  TargetKeyLocs.resize(Keys.size());
  if (TargetKeyLocs[I].isValid()) {
    error(KeyR.begin, "duplicate target key '" + Key + "'");
    note(TargetKeyLocs[I], "previous value is here");
    return std::nullopt;
  }
  TargetKeyLocs[I] = KeyR.begin;
  return I;
}

bool ParseState::beginTargetValue(StringRef Key, SrcRange KeyR) {
  if (!TargetIsBuiltin) {
    error(TargetNameR.begin, unknownTargetMessage(TargetName));
    return false;
  }
  std::optional<unsigned> I = targetKey(Key, KeyR);
  if (!I)
    return false;
  TargetValue = {Key, KeyR, *I};
  return true;
}

void ParseState::reportTargetValueForm() {
  StringRef Key = TargetValue->Key;
  if (Key == TargetDesc::spillCostKey())
    error(TargetValue->KeyR.begin,
          "'" + Key +
              "' takes a cost formula 'ALPHA + BETA * size', for example "
              "'spill_cost = 150 + 2 * size'");
  else
    error(TargetValue->KeyR.begin,
          "'" + Key + "' takes a capacity, for example '" + Key + " = " +
              Twine(TargetDesc::builtin(TargetName)
                        ->capacity(static_cast<Tier>(TargetValue->Index))) +
              "'");
}

bool ParseState::setTargetCapacity(uint64_t Value) {
  if (TargetValue->Key == TargetDesc::spillCostKey()) {
    reportTargetValueForm();
    return false;
  }
  Tier T = static_cast<Tier>(TargetValue->Index);
  // As a description and --capacity require, so that --print-target
  // writes a description that reads back.
  if (uint64_t Align = G.Target.alignment(T); Value % Align) {
    error(TargetValue->KeyR.begin,
          "capacity " + Twine(Value) + " of tier '" + TargetValue->Key +
              "' is not a multiple of its alignment " + Twine(Align));
    return false;
  }
  G.Target.setCapacity(T, Value);
  TargetValue.reset();
  return true;
}

bool ParseState::setTargetSpillCost(uint64_t Alpha, uint64_t Beta,
                                    StringRef Var, SrcRange VarR) {
  if (TargetValue->Key != TargetDesc::spillCostKey()) {
    reportTargetValueForm();
    return false;
  }
  if (Var != "size") {
    error(VarR.begin,
          "expected 'size' in 'spill_cost = ALPHA + BETA * size', not " +
              quoteToken(Var));
    return false;
  }
  G.Target.setSpillCost(Alpha, Beta);
  TargetValue.reset();
  return true;
}

//===----------------------------------------------------------------------===//
// A target description
//===----------------------------------------------------------------------===//

/// Whether \p Name may join \p Names (the tiers' or the pipes'): it is new
/// and there are fewer than \p Limit; reports why not.
static bool mayDeclare(ParseState &PS, StringRef What, StringRef Name,
                       SrcRange R, ArrayRef<StringRef> Names, unsigned Limit) {
  if (is_contained(Names, Name)) {
    PS.error(R.begin, "duplicate " + What + " " + quoteToken(Name));
    return false;
  }
  if (Names.size() < Limit)
    return true;
  PS.error(R.begin, "a target has at most " + Twine(Limit) + " " + What + "s");
  return false;
}

/// The error for \p Name, a \p What ("tier", "pipe") not among \p Declared:
/// before any is declared, how to declare it (\p Declaration).
static std::string undeclaredMessage(StringRef What, StringRef Name,
                                     ArrayRef<StringRef> Declared,
                                     const Twine &Declaration) {
  if (Declared.empty())
    return ("unknown " + What + " " + quoteToken(Name) + ": declare it with '" +
            Declaration + "' before the entries that name it")
        .str();
  return unknownNameMessage(What, Name, Declared) + " (a " + What.str() +
         " is declared before the entries that name it)";
}

std::optional<Pipe> ParseState::declaredPipe(StringRef Name, SrcRange R) {
  const TargetDesc &T = Desc->Target;
  if (std::optional<Pipe> P = T.lookupPipe(Name))
    return P;
  error(R.begin,
        undeclaredMessage("pipe", Name, T.pipeNames(), "pipe " + Name));
  return std::nullopt;
}

std::optional<Tier> ParseState::declaredTier(StringRef Name, SrcRange R) {
  const TargetDesc &T = Desc->Target;
  if (std::optional<Tier> Tr = T.lookupTier(Name))
    return Tr;
  error(R.begin, undeclaredMessage("tier", Name, T.tierNames(),
                                   "tier " + Name + " { capacity = N }"));
  return std::nullopt;
}

bool ParseState::descEntry(StringRef Keyword, SrcRange KeywordR, StringRef Name,
                           SrcRange NameR) {
  if (!Desc)
    Desc.emplace(TargetName);
  DescState &D = *Desc;
  D.EntryName = Name;
  D.EntryR = Name.empty() ? KeywordR : NameR;
  D.KeysSet.clear();
  TargetDesc &T = D.Target;
  auto NeedsName = [&](StringRef Example) {
    if (!Name.empty())
      return true;
    error(KeywordR.begin,
          "a '" + Keyword + "' entry needs a name: '" + Example + "'");
    return false;
  };
  if (Keyword == "tier") {
    D.Kind = DescEntryKind::Tier;
    if (!NeedsName("tier NAME { capacity = N }") ||
        !mayDeclare(*this, "tier", Name, NameR, T.tierNames(), MaxTiers))
      return false;
    D.NewTier = TierDesc{Name.str()};
    return true;
  }
  if (Keyword == "pipe") {
    D.Kind = DescEntryKind::Pipe;
    if (!NeedsName("pipe NAME") ||
        !mayDeclare(*this, "pipe", Name, NameR, T.pipeNames(), MaxPipes))
      return false;
    D.CurPipe = T.addPipe(Name);
    return true;
  }
  if (Keyword == "vector") {
    D.Kind = DescEntryKind::Vector;
    if (!NeedsName("vector PIPE"))
      return false;
    if (T.vectorPipe()) {
      error(KeywordR.begin, "duplicate 'vector' entry");
      return false;
    }
    std::optional<Pipe> P = declaredPipe(Name, NameR);
    if (!P)
      return false;
    T.setVectorPipe(*P);
    return true;
  }
  if (Keyword == "load") {
    D.Kind = DescEntryKind::Load;
    if (!NeedsName("load OPERATION"))
      return false;
    if (T.loadsFromDDR(Name)) {
      error(NameR.begin, "duplicate 'load' entry " + quoteToken(Name));
      return false;
    }
    T.addLoadOp(Name);
    return true;
  }
  if (Keyword == "op") {
    D.Kind = DescEntryKind::Op;
    if (!NeedsName("op NAME { pipes = [PIPE, ...] }"))
      return false;
    if (T.opRule(Name)) {
      error(NameR.begin, "duplicate 'op' entry " + quoteToken(Name));
      return false;
    }
    D.NewRule = OpRule{Name.str()};
    return true;
  }
  if (Keyword == "spill") {
    D.Kind = DescEntryKind::Spill;
    D.SpillTier.reset();
    SMLoc *Previous = &D.SpillLoc;
    // 'spill TIER { ... }': that tier's own path.
    if (!Name.empty()) {
      D.SpillTier = declaredTier(Name, NameR);
      if (!D.SpillTier)
        return false;
      Previous = &D.TierSpillLocs[index(*D.SpillTier)];
    }
    if (Previous->isValid()) {
      error(KeywordR.begin,
            "duplicate 'spill' entry" +
                (Name.empty() ? "" : " of tier " + quoteToken(Name)));
      note(*Previous, "previous 'spill' entry is here");
      return false;
    }
    *Previous = KeywordR.begin;
    return true;
  }
  error(KeywordR.begin,
        unknownNameMessage("target description entry", Keyword, EntryKeywords));
  return false;
}

bool ParseState::descKey(StringRef Key, SrcRange KeyR) {
  DescState &D = *Desc;
  ArrayRef<KeySpec> Keys = keysOf(D.Kind);
  StringRef Entry = D.Kind == DescEntryKind::Vector ? "vector" : "load";
  if (Keys.empty()) {
    error(KeyR.begin, "a '" + Entry + "' entry takes no values");
    return false;
  }
  SmallVector<StringRef, 4> Names;
  for (const KeySpec &K : Keys)
    Names.push_back(K.Key);
  if (!is_contained(Names, Key)) {
    error(KeyR.begin, unknownNameMessage("key", Key, Names));
    return false;
  }
  auto [It, New] = D.KeysSet.try_emplace(Key, KeyR.begin);
  if (!New) {
    error(KeyR.begin, "duplicate key '" + Key + "'");
    note(It->second, "previous value is here");
    return false;
  }
  D.Key = Key;
  D.KeyR = KeyR;
  return true;
}

void ParseState::reportDescValueForm() {
  error(Desc->KeyR.begin, "'" + Desc->Key + "' takes " + formText(descForm()));
}

ParseState::DescForm ParseState::descForm() const {
  for (const KeySpec &K : keysOf(Desc->Kind))
    if (K.Key == Desc->Key)
      return K.Takes;
  llvm_unreachable("descKey accepted a key its entry does not take");
}

bool ParseState::descTakes(DescForm F) {
  if (descForm() == F)
    return true;
  reportDescValueForm();
  return false;
}

bool ParseState::descInt(uint64_t Value, SrcRange R) {
  if (!descTakes(Form::Int))
    return false;
  DescState &D = *Desc;
  if (D.Key == "align" && !isPowerOf2_64(Value)) {
    error(R.begin, "alignment " + Twine(Value) + " is not a power of two");
    return false;
  }
  (D.Key == "capacity" ? D.NewTier.Capacity : D.NewTier.Align) = Value;
  D.Key = {};
  return true;
}

bool ParseState::descName(StringRef Value, SrcRange R) {
  DescState &D = *Desc;
  if (descForm() == Form::Bool) {
    if (Value != "true" && Value != "false") {
      reportDescValueForm();
      return false;
    }
    (D.Key == "peak" ? D.NewTier.CountsInPeak : D.NewTier.IsL0) =
        Value == "true";
    D.Key = {};
    return true;
  }
  if (!descTakes(Form::PipeName))
    return false;
  std::optional<Pipe> P = declaredPipe(Value, R);
  if (!P)
    return false;
  (D.Key == "out" ? D.SpillOut : D.SpillIn) = *P;
  D.Key = {};
  return true;
}

bool ParseState::descCost(uint64_t Alpha, uint64_t Beta, StringRef Var,
                          SrcRange VarR) {
  if (!descTakes(Form::Cost))
    return false;
  if (Var != "size") {
    error(VarR.begin, "expected 'size' in 'cost = ALPHA + BETA * size', not " +
                          quoteToken(Var));
    return false;
  }
  Desc->Alpha = Alpha;
  Desc->Beta = Beta;
  Desc->Key = {};
  return true;
}

bool ParseState::descListBegin() {
  if (descForm() != Form::TierList && !descTakes(Form::PipeList))
    return false;
  Desc->List = 0;
  return true;
}

bool ParseState::descListName(StringRef Name, SrcRange R) {
  DescState &D = *Desc;
  std::optional<unsigned> Index;
  if (descForm() == Form::TierList) {
    if (std::optional<Tier> Tr = declaredTier(Name, R))
      Index = index(*Tr);
  } else if (std::optional<Pipe> P = declaredPipe(Name, R)) {
    Index = index(*P);
  }
  if (!Index)
    return false;
  if (D.List >> *Index & 1) {
    error(R.begin, quoteToken(Name) + " is listed twice");
    return false;
  }
  D.List |= 1u << *Index;
  return true;
}

bool ParseState::descListEnd() {
  DescState &D = *Desc;
  if (D.Kind == DescEntryKind::Pipe) {
    D.Target.setPipeTiers(D.CurPipe, D.List);
  } else if (D.Key == "pipes") {
    // Tiers may be none (an operation without buffers); pipes may not.
    if (!D.List) {
      error(D.KeyR.begin, "'pipes' of operation " + quoteToken(D.EntryName) +
                              " names no pipe: it could run nowhere");
      return false;
    }
    D.NewRule.Pipes = D.List;
  } else {
    D.NewRule.Tiers = D.List;
  }
  D.Key = {};
  return true;
}

bool ParseState::endDescEntry() {
  DescState &D = *Desc;
  if (D.Kind == DescEntryKind::Tier) {
    if (!D.KeysSet.count("capacity")) {
      error(D.EntryR.begin, "tier " + quoteToken(D.EntryName) +
                                " has no capacity: add '{ capacity = N }'");
      return false;
    }
    if (D.NewTier.Capacity % D.NewTier.Align) {
      error(D.EntryR.begin, "capacity " + Twine(D.NewTier.Capacity) +
                                " of tier " + quoteToken(D.EntryName) +
                                " is not a multiple of its alignment " +
                                Twine(D.NewTier.Align));
      return false;
    }
    D.Target.addTier(std::move(D.NewTier));
  } else if (D.Kind == DescEntryKind::Spill) {
    for (const KeySpec &K : SpillKeys)
      if (!D.KeysSet.count(K.Key)) {
        error(D.EntryR.begin, "the 'spill' entry has no '" + K.Key + "'");
        return false;
      }
    SpillPath Path{D.SpillOut, D.SpillIn, D.Alpha, D.Beta};
    if (D.SpillTier)
      D.Target.setTierSpillPath(*D.SpillTier, Path);
    else
      D.Target.setDefaultSpillPath(Path);
  } else if (D.Kind == DescEntryKind::Op) {
    if (D.KeysSet.empty()) {
      error(D.EntryR.begin, "an 'op' entry needs a rule: '{ pipes = [...] }' "
                            "or '{ tiers = [...] }'");
      return false;
    }
    D.Target.addOpRule(std::move(D.NewRule));
    D.NewRule = OpRule();
  }
  return true;
}

} // namespace dan::detail
