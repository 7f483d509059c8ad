//===- IdIndex.h - Node and buffer ids to dense indices ---------*- C++ -*-===//
//
// Node and buffer ids are names (docs/LangRef.md): usually 0..N-1 or close,
// but any value up to 2^40. An IdIndex maps them to 32-bit indices through a
// direct table for ids below a limit a few times the element count, and a
// hash map for the rest, so that the common dense case is one array access
// instead of a hash probe into a table that outgrows the caches.
//
//===----------------------------------------------------------------------===//

#ifndef DAN_IR_IDINDEX_H
#define DAN_IR_IDINDEX_H

#include "llvm/ADT/DenseMap.h"
#include <cassert>
#include <cstdint>
#include <vector>

namespace dan {

class IdIndex {
public:
  static constexpr uint32_t None = UINT32_MAX;

  /// An index for about \p Count ids: ids below 4 * Count + 1024 go to the
  /// direct table.
  explicit IdIndex(uint64_t Count = 0) : DenseLimit(4 * Count + 1024) {}

  /// The index of \p Id, or None.
  uint32_t lookup(uint64_t Id) const {
    if (Id < DenseLimit)
      return Id < Dense.size() ? Dense[Id] : None;
    // The hash map's reserved keys would find an empty slot.
    if (Id > MaxId)
      return None;
    auto It = Sparse.find(Id);
    return It == Sparse.end() ? None : It->second;
  }
  bool contains(uint64_t Id) const { return lookup(Id) != None; }

  /// Maps \p Id to \p V unless it is mapped already (the first one stays,
  /// as with DenseMap::try_emplace); returns whether it was inserted.
  bool insert(uint64_t Id, uint32_t V) {
    uint32_t &Slot = slot(Id);
    if (Slot != None)
      return false;
    Slot = V;
    return true;
  }
  /// Maps \p Id to \p V, replacing an earlier mapping.
  void set(uint64_t Id, uint32_t V) { slot(Id) = V; }

  /// The largest id that can be mapped (2^64 - 1 and 2^64 - 2 are the hash
  /// map's reserved keys); far above the IR's limit of 2^40.
  static constexpr uint64_t MaxId = UINT64_MAX - 2;

private:
  uint32_t &slot(uint64_t Id) {
    assert(Id <= MaxId && "id reserved by the hash map");
    if (Id >= DenseLimit)
      return Sparse.try_emplace(Id, None).first->second;
    if (Id >= Dense.size())
      Dense.resize(
          std::min<uint64_t>(DenseLimit,
                             std::max<uint64_t>(Id + 1, 2 * Dense.size())),
          None);
    return Dense[Id];
  }

  uint64_t DenseLimit;
  std::vector<uint32_t> Dense;
  llvm::DenseMap<uint64_t, uint32_t> Sparse;
};

/// Values keyed by id, stored in insertion order and found through an
/// IdIndex.
template <typename T> class IdTable {
public:
  /// A table for about \p Count ids (see IdIndex).
  explicit IdTable(uint64_t Count = 0) : Index(Count) {}

  T *find(uint64_t Id) {
    uint32_t I = Index.lookup(Id);
    return I == IdIndex::None ? nullptr : &Values[I];
  }
  const T *find(uint64_t Id) const {
    uint32_t I = Index.lookup(Id);
    return I == IdIndex::None ? nullptr : &Values[I];
  }
  bool contains(uint64_t Id) const { return Index.contains(Id); }
  /// The value of \p Id, default-constructed if it has none yet.
  T &operator[](uint64_t Id) { return *tryEmplace(Id).first; }
  /// Adds \p Id with a value made of \p Args unless it has one; returns the
  /// value and whether it was added.
  template <typename... ArgTs>
  std::pair<T *, bool> tryEmplace(uint64_t Id, ArgTs &&...Args) {
    uint32_t I = Index.lookup(Id);
    if (I != IdIndex::None)
      return {&Values[I], false};
    Index.insert(Id, Values.size());
    Values.emplace_back(std::forward<ArgTs>(Args)...);
    return {&Values.back(), true};
  }
  size_t size() const { return Values.size(); }
  /// Room for \p N values, so that adding them does not move the others.
  void reserve(size_t N) { Values.reserve(N); }

private:
  IdIndex Index;
  std::vector<T> Values;
};

} // namespace dan

#endif // DAN_IR_IDINDEX_H
