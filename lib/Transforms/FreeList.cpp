//===- FreeList.cpp - Free segments of one memory tier --------------------===//

#include "dan/Transforms/FreeList.h"
#include <cassert>
#include <iterator>

namespace dan {

FreeList::FreeList(uint64_t Capacity) : Capacity(Capacity) {
  if (Capacity)
    insert(0, Capacity);
}

void FreeList::insert(uint64_t Begin, uint64_t End) {
  ByOffset.emplace(Begin, End);
  BySize.emplace(End - Begin, Begin);
  Free += End - Begin;
}

void FreeList::erase(std::map<uint64_t, uint64_t>::iterator It) {
  BySize.erase({It->second - It->first, It->first});
  Free -= It->second - It->first;
  ByOffset.erase(It);
}

std::optional<uint64_t> FreeList::find(uint64_t Size, FitPolicy Fit) const {
  assert(Size > 0 && "a zero-size buffer takes no segment");
  assert(Fit != FitPolicy::Auto && "the search layer resolves auto");
  if (Fit == FitPolicy::Best || Fit == FitPolicy::Timed) {
    // The smallest size >= Size; among equal sizes the lowest offset.
    auto It = BySize.lower_bound({Size, 0});
    if (It == BySize.end())
      return std::nullopt;
    return It->second;
  }
  if (Fit == FitPolicy::Next) {
    // From the segment holding the cursor (or the first after it) on; the
    // room may start inside a segment, at the cursor.
    auto It = ByOffset.upper_bound(Cursor);
    if (It != ByOffset.begin())
      --It;
    for (; It != ByOffset.end(); ++It) {
      uint64_t Start = std::max(It->first, Cursor);
      if (Start < It->second && It->second - Start >= Size)
        return Start;
    }
  }
  for (const auto &[Begin, End] : ByOffset)
    if (End - Begin >= Size)
      return Begin;
  return std::nullopt;
}

void FreeList::take(uint64_t Offset, uint64_t Size) {
  if (Size == 0)
    return;
  Cursor = Offset + Size;
  auto It = ByOffset.upper_bound(Offset);
  assert(It != ByOffset.begin() && "take outside every free segment");
  --It;
  uint64_t Begin = It->first, End = It->second;
  assert(Offset >= Begin && Offset + Size <= End &&
         "take outside every free segment");
  erase(It);
  if (Begin < Offset)
    insert(Begin, Offset);
  if (Offset + Size < End)
    insert(Offset + Size, End);
}

void FreeList::release(uint64_t Offset, uint64_t Size) {
  if (Size == 0)
    return;
  uint64_t Begin = Offset, End = Offset + Size;
  auto Next = ByOffset.lower_bound(Begin);
  assert((Next == ByOffset.end() || Next->first >= End) &&
         "release overlaps a free segment");
  if (Next != ByOffset.end() && Next->first == End) {
    End = Next->second;
    auto Dead = Next++;
    erase(Dead);
  }
  if (Next != ByOffset.begin()) {
    auto Prev = std::prev(Next);
    assert(Prev->second <= Begin && "release overlaps a free segment");
    if (Prev->second == Begin) {
      Begin = Prev->first;
      erase(Prev);
    }
  }
  insert(Begin, End);
}

std::vector<std::pair<uint64_t, uint64_t>> FreeList::segments() const {
  return {ByOffset.begin(), ByOffset.end()};
}

} // namespace dan
