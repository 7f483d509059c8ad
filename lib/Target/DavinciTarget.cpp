//===- DavinciTarget.cpp - The Davinci target description -----------------===//

#include "dan/Target/Target.h"
#include "llvm/ADT/StringExtras.h"

using namespace llvm;

namespace dan {

TargetDesc TargetDesc::davinci() {
  TargetDesc T;
#define DAN_TIER(Name, Cap, Peak, L0)                                          \
  T.Capacity[index(Tier::Name)] = Cap;                                         \
  T.CountsInPeak[index(Tier::Name)] = Peak;                                    \
  T.IsL0[index(Tier::Name)] = L0;
#define DAN_SPILL_PIPES(Out, In)                                               \
  T.SpillOutPipe = Pipe::Out;                                                  \
  T.SpillInPipe = Pipe::In;
#define DAN_SPILL_COST(A, B)                                                   \
  T.Alpha = A;                                                                 \
  T.Beta = B;
#define DAN_OP_COST(Key, Base, Num, Den)                                       \
  T.OpCosts[static_cast<unsigned>(OpCost::Key)] = {Base, Num, Den};
#include "dan/Target/Davinci.def"
  return T;
}

ArrayRef<StringRef> TargetDesc::headerKeys() {
  static const StringRef Keys[] = {
#define DAN_TIER(Name, Cap, Peak, L0) #Name,
#include "dan/Target/Davinci.def"
      spillCostKey()};
  return Keys;
}

void TargetDesc::printHeader(raw_ostream &OS) const {
  OS << "target " << name();
  const TargetDesc Default = davinci();
  bool Any = false;
  auto Key = [&](StringRef Name) -> raw_ostream & {
    OS << (Any ? ", " : " { ") << Name << " = ";
    Any = true;
    return OS;
  };
  for (unsigned I = 0; I != NumTiers; ++I)
    if (Capacity[I] != Default.Capacity[I])
      Key(tierName(static_cast<Tier>(I))) << Capacity[I];
  if (Alpha != Default.Alpha || Beta != Default.Beta)
    Key(spillCostKey()) << Alpha << " + " << Beta << " * size";
  if (Any)
    OS << " }";
}

bool TargetDesc::operator==(const TargetDesc &O) const {
  return Capacity == O.Capacity && CountsInPeak == O.CountsInPeak &&
         IsL0 == O.IsL0 && SpillOutPipe == O.SpillOutPipe &&
         SpillInPipe == O.SpillInPipe && Alpha == O.Alpha && Beta == O.Beta &&
         OpCosts == O.OpCosts;
}

bool TargetDesc::loadsFromDDR(StringRef OpName) {
#define DAN_DDR_LOAD(Name)                                                     \
  if (OpName == #Name)                                                         \
    return true;
#include "dan/Target/Davinci.def"
  return false;
}

static Error parseNumber(StringRef Text, StringRef What, uint64_t &Value) {
  if (Text.trim().getAsInteger(10, Value) || Value > MaxValue)
    return createStringError(inconvertibleErrorCode(),
                             "invalid %s '%s': expected an integer from 0 to "
                             "2^40",
                             What.str().c_str(), Text.str().c_str());
  return Error::success();
}

Error TargetDesc::parseCapacity(StringRef Spec) {
  auto [Name, Value] = Spec.split('=');
  if (Name.trim().empty() || !Spec.contains('='))
    return createStringError(inconvertibleErrorCode(),
                             "invalid --capacity '%s': expected TIER=N, "
                             "for example UB=2048",
                             Spec.str().c_str());
  std::optional<Tier> T = lookupTier(Name.trim());
  if (!T)
    return createStringError(
        inconvertibleErrorCode(),
        "--capacity: " +
            unknownNameMessage("tier", Name.trim(), allTierNames()));
  uint64_t Bytes;
  if (Error E = parseNumber(Value, "capacity", Bytes))
    return E;
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
