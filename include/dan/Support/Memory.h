//===- Memory.h - Faulting in memory ahead of its writer ------*- C++ -*-===//
//
// A fresh page costs a fault the first time it is written (about 2 us on
// the machines this project is timed on, more with two threads faulting at
// once). Memory that one thread is about to fill in a serial step can be
// faulted in beforehand by another that has nothing else to do.
//
//===----------------------------------------------------------------------===//

#ifndef DAN_SUPPORT_MEMORY_H
#define DAN_SUPPORT_MEMORY_H

#include <cstddef>

namespace dan {

/// Faults in, writable, the whole pages inside [\p Begin, \p Begin +
/// \p Bytes) of memory this process owns, without changing what they hold
/// (Linux's MADV_POPULATE_WRITE); another thread may write them meanwhile.
/// Does nothing where that is not available.
void prefaultForWrite(const void *Begin, size_t Bytes);

} // namespace dan

#endif // DAN_SUPPORT_MEMORY_H
