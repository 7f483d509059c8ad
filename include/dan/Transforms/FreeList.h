//===- FreeList.h - Free segments of one memory tier ------------*- C++ -*-===//
//
// The free-segment list F_m of the paper's stage 2 (eq. 22) for one tier:
// disjoint half-open ranges [begin, end) ordered by offset, with adjacent
// ranges merged as soon as they touch. Two indexes over the same segments:
// by offset (first fit, merging) and by (size, offset) (best fit).
//
//===----------------------------------------------------------------------===//

#ifndef DAN_TRANSFORMS_FREELIST_H
#define DAN_TRANSFORMS_FREELIST_H

#include <cstdint>
#include <map>
#include <optional>
#include <set>
#include <utility>
#include <vector>

namespace dan {

enum class FitPolicy {
  Best,  ///< the smallest segment that fits; ties to the lowest offset
  First, ///< the segment at the lowest offset that fits
  /// Next fit: the first room at or after the end of the last placement,
  /// wrapping to the lowest offset; consecutive placements rotate through
  /// the tier instead of reusing the bytes just released.
  Next,
  /// Timed fit (dan-dlr only): the room whose previous holders released it
  /// early enough that the placement can start soonest in the plan's
  /// estimated timeline; ties to best fit. FreeList::find treats it as Best.
  Timed,
  /// Plan under Timed, Best and Next and keep the best plan (a selection of
  /// the search layer, dan/Select/Select.h); never given to FreeList::find.
  Auto,
};

class FreeList {
public:
  /// A list holding the whole tier [0, Capacity) as one free segment.
  explicit FreeList(uint64_t Capacity);

  /// The offset a buffer of \p Size gets under \p Fit: the start of the
  /// chosen segment (eq. 24), or std::nullopt when no segment is large
  /// enough (the candidate set of eq. 23 is empty). Best fit is O(log S),
  /// first and next fit O(S) for S segments. \p Size must be positive.
  std::optional<uint64_t> find(uint64_t Size, FitPolicy Fit) const;

  /// Marks [Offset, Offset + Size) used; it must lie inside one free
  /// segment. O(log S).
  void take(uint64_t Offset, uint64_t Size);

  /// Returns [Offset, Offset + Size) to the list, merging it with the
  /// segments it touches. It must not overlap a free segment. O(log S).
  void release(uint64_t Offset, uint64_t Size);

  /// The free segments as (begin, end) pairs in offset order.
  std::vector<std::pair<uint64_t, uint64_t>> segments() const;
  uint64_t freeBytes() const { return Free; }
  uint64_t capacity() const { return Capacity; }

private:
  void insert(uint64_t Begin, uint64_t End);
  void erase(std::map<uint64_t, uint64_t>::iterator It);

  uint64_t Capacity;
  uint64_t Free = 0;
  /// The end of the last take(): where next fit starts looking.
  uint64_t Cursor = 0;
  /// begin -> end.
  std::map<uint64_t, uint64_t> ByOffset;
  /// (end - begin, begin).
  std::set<std::pair<uint64_t, uint64_t>> BySize;
};

} // namespace dan

#endif // DAN_TRANSFORMS_FREELIST_H
