//===- Orders.h - The operation orders of the four baselines ----*- C++ -*-===//
//
// Private to lib/Baselines: each baseline's ordering of the operations of a
// View (dan/Schedule/OpView.h), one file each. Each needs one operation at
// least.
//
//===----------------------------------------------------------------------===//

#ifndef DAN_LIB_BASELINES_ORDERS_H
#define DAN_LIB_BASELINES_ORDERS_H

#include "dan/Schedule/OpView.h"
#include <vector>

namespace dan {
namespace sched {

std::vector<uint32_t> orderHMCOS(const View &V);
std::vector<uint32_t> orderCOSMA(const View &V);
std::vector<uint32_t> orderMAGIS(const View &V);
std::vector<uint32_t> orderEDA(const View &V);

} // namespace sched
} // namespace dan

#endif // DAN_LIB_BASELINES_ORDERS_H
