//===- Parallel.cpp - Run independent candidates on a thread pool ---------===//

#include "Parallel.h"
#include "llvm/ADT/DenseMap.h"
#include <numeric>

using namespace llvm;

namespace dan {

void runConcurrently(const SelectOptions &Select, size_t N,
                     function_ref<void(size_t)> Job) {
  JobRunner(Select.Threads).run(N, Job);
}

std::vector<size_t> findAlikeParts(const PartMap &Map, ArrayRef<PartIds> Ids,
                                   ArrayRef<uint64_t> Shapes,
                                   const SelectOptions &Select) {
  std::vector<size_t> FirstAlike(Map.size());
  std::iota(FirstAlike.begin(), FirstAlike.end(), 0);
  if (!Select.ReuseAlikeParts)
    return FirstAlike;
  // Each part against the first part of its hash, the parts at once: parts
  // of one hash that are not alike (a collision) each run the pass.
  DenseMap<uint64_t, size_t> FirstOfShape;
  std::vector<size_t> Candidates;
  for (size_t K = 0; K != Map.size(); ++K)
    if (!FirstOfShape.try_emplace(Shapes[K], K).second)
      Candidates.push_back(K);
  runConcurrently(Select, Candidates.size(), [&](size_t I) {
    size_t K = Candidates[I], F = FirstOfShape.find(Shapes[K])->second;
    if (partsAlike(Map, F, Ids[F], K, Ids[K]))
      FirstAlike[K] = F;
  });
  return FirstAlike;
}

} // namespace dan
