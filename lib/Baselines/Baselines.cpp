//===- Baselines.cpp - The baselines' entry points and method names -------===//

#include "dan/Baselines/Baselines.h"
#include "Orders.h"

using namespace llvm;

namespace dan {

static const EnumEntry<Method> Methods[] = {
    {Method::DAN, "dan", "dan-mpas | dan-dlr | dan-cpe, default options"},
    {Method::Base, "base", "input order, first fit, LRU eviction"},
    {Method::HMCOS, "hmcos", "hierarchical memory-constrained ordering"},
    {Method::COSMA, "cosma", "joint ordering, allocation and replacement"},
    {Method::MAGIS, "magis", "reordering with windowed exact search"},
    {Method::EDA, "eda", "depth-first producer-to-consumer traversal"},
};

static const Method MethodValues[] = {Method::DAN,   Method::Base,
                                      Method::HMCOS, Method::COSMA,
                                      Method::MAGIS, Method::EDA};

ArrayRef<EnumEntry<Method>> methodTable() { return Methods; }

ArrayRef<Method> allMethods() { return MethodValues; }

StringRef methodName(Method M) { return enumName(methodTable(), M); }

std::optional<Method> lookupMethod(StringRef Name) {
  return lookupEnum(methodTable(), Name);
}

DLROptions baselineDLROptions(Method M) {
  DLROptions Opts = DLROptions::oneSetting();
  Opts.Fit = FitPolicy::Best;
  Opts.Victims = VictimSet::Single;
  switch (M) {
  case Method::HMCOS:
    Opts.Evict = EvictPolicy::LRU;
    break;
  case Method::COSMA:
    Opts.Evict = EvictPolicy::CostPerByte;
    break;
  case Method::MAGIS:
    Opts.Evict = EvictPolicy::Belady;
    break;
  case Method::EDA:
    Opts.Evict = EvictPolicy::Traffic;
    Opts.Victims = VictimSet::Window;
    break;
  case Method::Base:
    Opts.Fit = FitPolicy::First;
    Opts.Evict = EvictPolicy::LRU;
    break;
  case Method::DAN:
    Opts = DLROptions();
    break;
  }
  return Opts;
}

Error orderBaseline(Graph &G, const TargetDesc &T, Method M) {
  if (M == Method::DAN || M == Method::Base)
    return createStringError(inconvertibleErrorCode(),
                             "'%s' is not one of the external baselines",
                             methodName(M).str().c_str());
  auto Ops = [M]() -> std::vector<uint32_t> (*)(const sched::View &) {
    switch (M) {
    case Method::HMCOS:
      return sched::orderHMCOS;
    case Method::COSMA:
      return sched::orderCOSMA;
    case Method::MAGIS:
      return sched::orderMAGIS;
    case Method::EDA:
      return sched::orderEDA;
    case Method::DAN:
    case Method::Base:
      break;
    }
    llvm_unreachable("refused above");
  }();
  Expected<std::vector<NodeIdx>> Order = orderOperations(G, T, Ops);
  if (!Order)
    return Order.takeError();
  G.Order = std::move(*Order);
  return Error::success();
}

Error runBaseline(Graph &G, const TargetDesc &T, Method M) {
  if (Error E = orderBaseline(G, T, M))
    return E;
  Expected<DLRStats> S = runDLR(G, T, baselineDLROptions(M));
  if (!S)
    return S.takeError();
  return Error::success();
}

} // namespace dan
