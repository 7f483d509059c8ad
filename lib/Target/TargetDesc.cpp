//===- TargetDesc.cpp - Target descriptions -------------------------------===//

#include "dan/Target/Target.h"
#include "llvm/ADT/StringExtras.h"

using namespace llvm;

namespace dan {

Tier TargetDesc::addTier(TierDesc D) {
  assert(Tiers.size() < MaxTiers && "too many tiers");
  Tiers.push_back(std::move(D));
  return static_cast<Tier>(Tiers.size() - 1);
}

Pipe TargetDesc::addPipe(StringRef PipeName) {
  assert(PipeNames.size() < MaxPipes && "too many pipes");
  PipeNames.push_back(PipeName.str());
  return static_cast<Pipe>(PipeNames.size() - 1);
}

bool TargetDesc::uniformSpill() const {
  for (unsigned I = 0, E = Tiers.size(); I != E; ++I)
    if (TierSpill[I] && *TierSpill[I] != DefaultSpill)
      return false;
  return true;
}

Pipe TargetDesc::syncPipe() const {
  const OpRule *Rule = opRule("SYNC");
  PipeMask Allowed = Rule ? Rule->Pipes : AllOfThem;
  if (VectorPipe && (Allowed >> index(*VectorPipe) & 1))
    return *VectorPipe;
  for (unsigned I = 0, E = numPipes(); I != E; ++I)
    if (Allowed >> I & 1)
      return static_cast<Pipe>(I);
  return Pipe{};
}

const OpRule *TargetDesc::opRule(StringRef OpName) const {
  for (const OpRule &R : OpRules)
    if (R.Name == OpName)
      return &R;
  return nullptr;
}

std::optional<Tier> TargetDesc::lookupTier(StringRef TierName) const {
  for (unsigned I = 0, E = Tiers.size(); I != E; ++I)
    if (Tiers[I].Name == TierName)
      return static_cast<Tier>(I);
  return std::nullopt;
}

std::optional<Pipe> TargetDesc::lookupPipe(StringRef Name) const {
  for (unsigned I = 0, E = PipeNames.size(); I != E; ++I)
    if (PipeNames[I] == Name)
      return static_cast<Pipe>(I);
  return std::nullopt;
}

SmallVector<StringRef, MaxTiers> TargetDesc::tierNames() const {
  SmallVector<StringRef, MaxTiers> Names;
  for (const TierDesc &D : Tiers)
    Names.push_back(D.Name);
  return Names;
}

std::string TargetDesc::peakTierNames() const {
  std::string Out;
  for (const TierDesc &D : Tiers)
    if (D.CountsInPeak)
      Out += (Out.empty() ? "" : "+") + D.Name;
  return Out.empty() ? "(no tier counts)" : Out;
}

SmallVector<StringRef, MaxPipes> TargetDesc::pipeNames() const {
  return SmallVector<StringRef, MaxPipes>(PipeNames.begin(), PipeNames.end());
}

SmallVector<StringRef, MaxTiers + 1> TargetDesc::headerKeys() const {
  SmallVector<StringRef, MaxTiers + 1> Keys;
  for (const TierDesc &D : Tiers)
    Keys.push_back(D.Name);
  Keys.push_back(spillCostKey());
  return Keys;
}

std::optional<TargetDesc> TargetDesc::builtin(StringRef BuiltinName) {
  if (BuiltinName == "davinci")
    return davinci();
  if (BuiltinName == "vnpu")
    return vnpu();
  return std::nullopt;
}

ArrayRef<StringRef> TargetDesc::builtinNames() {
  static const StringRef Names[] = {"davinci", "vnpu"};
  return Names;
}

/// Whether \p A and \p B differ at most in the values a header's
/// overrides set: the capacities and the spill cost.
static bool sameShape(TargetDesc A, const TargetDesc &B) {
  if (A.numTiers() != B.numTiers())
    return false;
  for (unsigned I = 0, E = A.numTiers(); I != E; ++I)
    A.setCapacity(Tier(I), B.capacity(Tier(I)));
  A.setSpillCost(B.spillAlpha(), B.spillBeta());
  return A == B;
}

void TargetDesc::printHeader(raw_ostream &OS) const {
  std::optional<TargetDesc> Builtin = builtin(Name);
  if (!Builtin || !sameShape(*Builtin, *this)) {
    printDescription(OS);
    return;
  }
  OS << "target " << name();
  bool Any = false;
  auto Key = [&](StringRef Name) -> raw_ostream & {
    OS << (Any ? ", " : " { ") << Name << " = ";
    Any = true;
    return OS;
  };
  for (unsigned I = 0, E = Tiers.size(); I != E; ++I)
    if (Tiers[I].Capacity != Builtin->Tiers[I].Capacity)
      Key(Tiers[I].Name) << Tiers[I].Capacity;
  if (spillAlpha() != Builtin->spillAlpha() ||
      spillBeta() != Builtin->spillBeta())
    Key(spillCostKey()) << spillAlpha() << " + " << spillBeta() << " * size";
  if (Any)
    OS << " }";
}

void TargetDesc::printDescription(raw_ostream &OS) const {
  auto Bool = [](bool B) { return B ? "true" : "false"; };
  OS << "target " << Name << " {\n";
  for (const TierDesc &T : Tiers)
    OS << "  tier " << T.Name << " { capacity = " << T.Capacity
       << ", align = " << T.Align << ", peak = " << Bool(T.CountsInPeak)
       << ", operand = " << Bool(T.IsL0) << " }\n";
  // "[A, B]": the names of the set bits of \p Mask among \p Names.
  auto List = [&](uint32_t Mask, ArrayRef<StringRef> Names) {
    OS << '[';
    bool First = true;
    for (unsigned I = 0, E = Names.size(); I != E; ++I)
      if (Mask >> I & 1) {
        OS << (First ? "" : ", ") << Names[I];
        First = false;
      }
    OS << ']';
  };
  auto AllTiers = tierNames();
  auto AllPipes = pipeNames();
  for (unsigned P = 0, E = PipeNames.size(); P != E; ++P) {
    OS << "  pipe " << PipeNames[P];
    if (PipeTiers[P] != AllOfThem) {
      OS << " { tiers = ";
      List(PipeTiers[P], AllTiers);
      OS << " }";
    }
    OS << "\n";
  }
  if (VectorPipe)
    OS << "  vector " << pipeName(*VectorPipe) << "\n";
  auto Spill = [&](StringRef Tier, const SpillPath &P) {
    OS << "  spill " << Tier << (Tier.empty() ? "" : " ")
       << "{ out = " << pipeName(P.Out) << ", in = " << pipeName(P.In)
       << ", cost = " << P.Alpha << " + " << P.Beta << " * size }\n";
  };
  Spill("", DefaultSpill);
  for (unsigned I = 0, E = Tiers.size(); I != E; ++I)
    if (TierSpill[I])
      Spill(Tiers[I].Name, *TierSpill[I]);
  for (const std::string &Op : LoadOps)
    OS << "  load " << Op << "\n";
  for (const OpRule &R : OpRules) {
    OS << "  op " << R.Name << " {";
    const char *Sep = " ";
    if (R.Pipes != AllOfThem) {
      OS << Sep << "pipes = ";
      List(R.Pipes, AllPipes);
      Sep = ", ";
    }
    if (R.Tiers != AllOfThem) {
      OS << Sep << "tiers = ";
      List(R.Tiers, AllTiers);
    }
    OS << " }\n";
  }
  OS << "}";
}

bool TargetDesc::operator==(const TargetDesc &O) const {
  return Name == O.Name && Tiers == O.Tiers && PipeNames == O.PipeNames &&
         VectorPipe == O.VectorPipe && DefaultSpill == O.DefaultSpill &&
         TierSpill == O.TierSpill && LoadOps == O.LoadOps &&
         PipeTiers == O.PipeTiers && OpRules == O.OpRules;
}

static Error parseNumber(StringRef Text, StringRef What, uint64_t &Value) {
  if (Text.trim().getAsInteger(10, Value) || Value > MaxValue)
    return createStringError(inconvertibleErrorCode(),
                             "invalid %s '%s': expected an integer from 0 to "
                             "2^40",
                             What.str().c_str(), Text.str().c_str());
  return Error::success();
}

static Error checkCapacityForm(StringRef Spec) {
  if (Spec.split('=').first.trim().empty() || !Spec.contains('='))
    return createStringError(inconvertibleErrorCode(),
                             "invalid --capacity '%s': expected TIER=N, a "
                             "tier of the target and its capacity",
                             Spec.str().c_str());
  return Error::success();
}

Error TargetDesc::checkCapacitySpec(StringRef Spec) {
  if (Error E = checkCapacityForm(Spec))
    return E;
  uint64_t Bytes;
  return parseNumber(Spec.split('=').second, "capacity", Bytes);
}

Error TargetDesc::parseCapacity(StringRef Spec) {
  if (Error E = checkCapacityForm(Spec))
    return E;
  auto [Name, Value] = Spec.split('=');
  std::optional<Tier> T = lookupTier(Name.trim());
  if (!T)
    return createStringError(
        inconvertibleErrorCode(),
        "--capacity: " + unknownNameMessage("tier", Name.trim(), tierNames()));
  uint64_t Bytes;
  if (Error E = parseNumber(Value, "capacity", Bytes))
    return E;
  if (Bytes % alignment(*T))
    return createStringError(
        inconvertibleErrorCode(),
        "--capacity: %s = %llu is not a multiple of the tier's alignment "
        "%llu",
        Name.trim().str().c_str(), (unsigned long long)Bytes,
        (unsigned long long)alignment(*T));
  setCapacity(*T, Bytes);
  return Error::success();
}

Error TargetDesc::parseSpillCost(StringRef Spec) {
  auto [A, B] = Spec.split(',');
  if (!Spec.contains(','))
    return createStringError(inconvertibleErrorCode(),
                             "invalid --spill-cost '%s': expected ALPHA,BETA, "
                             "for example 150,2",
                             Spec.str().c_str());
  uint64_t Alpha, Beta;
  if (Error E = parseNumber(A, "spill cost alpha", Alpha))
    return E;
  if (Error E = parseNumber(B, "spill cost beta", Beta))
    return E;
  setSpillCost(Alpha, Beta);
  return Error::success();
}

} // namespace dan
