//===- RangeMap.h - Disjoint address ranges, each with a value --*- C++ -*-===//
//
// Disjoint half-open ranges of one tier's addresses, keyed by their start,
// each with a value. Assigning a value to [Begin, End) cuts the ranges at
// its two ends and replaces those inside. The memory plan keeps which node
// last released each byte this way (the reuse edges), and dan-dlr's timed
// fit when it was released.
//
//===----------------------------------------------------------------------===//

#ifndef DAN_IR_RANGEMAP_H
#define DAN_IR_RANGEMAP_H

#include <cstdint>
#include <iterator>
#include <map>

namespace dan {

template <typename ValueT> class RangeMap {
public:
  /// Gives [Begin, End) the value \p Value; nothing when the range is empty.
  void assign(uint64_t Begin, uint64_t End, ValueT Value) {
    if (Begin >= End)
      return;
    splitAt(Begin);
    splitAt(End);
    Ranges.erase(Ranges.lower_bound(Begin), Ranges.lower_bound(End));
    Ranges.emplace(Begin, Range{End, std::move(Value)});
  }

  /// Calls \p Fn(RangeBegin, RangeEnd, Value) for every range that overlaps
  /// [Begin, End), in address order.
  template <typename FnT>
  void forEachOverlap(uint64_t Begin, uint64_t End, FnT Fn) const {
    auto It = Ranges.upper_bound(Begin);
    if (It != Ranges.begin())
      --It;
    for (; It != Ranges.end() && It->first < End; ++It)
      if (It->second.End > Begin)
        Fn(It->first, It->second.End, It->second.Value);
  }

private:
  struct Range {
    uint64_t End;
    ValueT Value;
  };

  /// Cuts the range that holds \p At strictly inside it in two at \p At.
  void splitAt(uint64_t At) {
    auto It = Ranges.upper_bound(At);
    if (It == Ranges.begin())
      return;
    --It;
    if (It->first < At && At < It->second.End) {
      Range Tail = It->second;
      It->second.End = At;
      Ranges.emplace(At, std::move(Tail));
    }
  }

  std::map<uint64_t, Range> Ranges;
};

} // namespace dan

#endif // DAN_IR_RANGEMAP_H
