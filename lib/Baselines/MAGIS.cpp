//===- MAGIS.cpp - the windowed exact search ------------------------------===//

#include "Orders.h"
#include "dan/Schedule/L0Gate.h"
#include "dan/Schedule/Order.h"

using namespace llvm;

namespace dan {
namespace sched {

std::vector<uint32_t> orderMAGIS(const View &V) {
  // MAGIS reorders by an exact search on sliding windows of its reverse
  // post-order; dan-mpas's --order=window runs the same search.
  return orderWindow(V);
}

} // namespace sched
} // namespace dan
