//===- DavinciTarget.cpp - The Davinci target description -----------------===//
//
// The Davinci NPU core as a target description, from the numbers of
// Davinci.def, and the operation costs dan-gen writes for it.
//
//===----------------------------------------------------------------------===//

#include "dan/Target/Davinci/Davinci.h"

using namespace llvm;

namespace dan {

/// The mask of \p Items (tiers or pipes).
template <typename T> static uint32_t maskOf(std::initializer_list<T> Items) {
  uint32_t M = 0;
  for (T I : Items)
    M |= 1u << index(I);
  return M;
}

TargetDesc TargetDesc::davinci() {
  TargetDesc T("davinci");
#define DAN_TIER(Name, Cap, Align, Peak, L0)                                   \
  T.addTier({#Name, Cap, Align, Peak, L0});
#define DAN_PIPE(Name) T.addPipe(#Name);
#define DAN_VECTOR_PIPE(Name) T.setVectorPipe(davinci::Name);
#define DAN_SPILL_PIPES(Out, In) T.setSpillPipes(davinci::Out, davinci::In);
#define DAN_SPILL_COST(A, B) T.setSpillCost(A, B);
#define DAN_DDR_LOAD(Name) T.addLoadOp(#Name);
  // Each name's pipes and tiers, in the table's order of names.
  std::vector<OpRule> Rules;
  auto RuleOf = [&](StringRef Name) -> OpRule & {
    for (OpRule &R : Rules)
      if (R.Name == Name)
        return R;
    return Rules.emplace_back(OpRule{Name.str()});
  };
#define DAN_OP_PIPES(Name, ...)                                                \
  {                                                                            \
    using namespace davinci;                                                   \
    RuleOf(#Name).Pipes = maskOf<dan::Pipe>({__VA_ARGS__});                    \
  }
#define DAN_OP_TIERS(Name, ...)                                                \
  {                                                                            \
    using namespace davinci;                                                   \
    RuleOf(#Name).Tiers = maskOf<Tier>({__VA_ARGS__});                         \
  }
#include "dan/Target/Davinci/Davinci.def"
  for (OpRule &R : Rules)
    T.addOpRule(std::move(R));
  return T;
}

namespace davinci {

namespace {
struct OpCostRow {
  uint64_t Base, Num, Den;
};
} // namespace

static const OpCostRow OpCosts[] = {
#define DAN_OP_COST(Key, Base, Num, Den) {Base, Num, Den},
#include "dan/Target/Davinci/Davinci.def"
};

uint64_t opCycles(OpCost K, uint64_t X) {
  const OpCostRow &R = OpCosts[static_cast<unsigned>(K)];
  return SaturatingAdd(R.Base, SaturatingMultiply(R.Num, X) / R.Den);
}

} // namespace davinci
} // namespace dan
