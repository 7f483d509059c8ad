//===- Methods.cpp - Whole scheduling methods, selectable by name ---------===//

#include "dan/Select/Methods.h"
#include "dan/Select/Select.h"
#include "dan/Transforms/CPE.h"

using namespace llvm;

namespace dan {

static Error runDAN(Graph &G, const TargetDesc &T) {
  if (Expected<MPASStats> S = selectMPAS(G, T, MPASOptions()); !S)
    return S.takeError();
  if (Expected<DLRStats> S = selectDLR(G, T, DLROptions()); !S)
    return S.takeError();
  if (Expected<CPEStats> S = selectCPE(G, T, CPEOptions()); !S)
    return S.takeError();
  return Error::success();
}

static Error runBase(Graph &G, const TargetDesc &T) {
  DLROptions Opts = DLROptions::oneSetting();
  Opts.Fit = FitPolicy::First;
  Opts.Evict = EvictPolicy::LRU;
  Opts.Victims = VictimSet::Single;
  if (Expected<DLRStats> S = runDLR(G, T, Opts); !S)
    return S.takeError();
  return Error::success();
}

Expected<std::unique_ptr<Graph>> runMethod(const Graph &G, const TargetDesc &T,
                                           Method M) {
  auto Copy = std::make_unique<Graph>(G);
  Error E = Error::success();
  switch (M) {
  case Method::DAN:
    E = runDAN(*Copy, T);
    break;
  case Method::Base:
    E = runBase(*Copy, T);
    break;
  case Method::HMCOS:
  case Method::COSMA:
  case Method::MAGIS:
  case Method::EDA:
    E = runBaseline(*Copy, T, M);
    break;
  }
  if (E)
    return E;
  return Copy;
}

} // namespace dan
