//===- Memory.h - Faulting in memory ahead of its writer ------*- C++ -*-===//
//
// A fresh page costs a fault the first time it is touched: about 2 us on
// some of the machines this project is timed on, 10 us and more on others
// (where the hypervisor keeps page tables of its own, and maps each page
// again the first time the guest touches it), and more with two threads
// faulting at once. Memory that one thread is about to fill in a serial
// step can be faulted in beforehand by another that has nothing else to
// do.
//
//===----------------------------------------------------------------------===//

#ifndef DAN_SUPPORT_MEMORY_H
#define DAN_SUPPORT_MEMORY_H

#include "llvm/ADT/STLFunctionalExtras.h"
#include <cstddef>

namespace dan {

/// Faults in, writable, the whole pages inside [\p Begin, \p Begin +
/// \p Bytes) of memory this process owns, without changing what they hold
/// (Linux's MADV_POPULATE_WRITE); another thread may write them meanwhile.
/// Does nothing where that is not available. On a machine whose hypervisor
/// maps a page again at its first touch, the writer still pays for that
/// (faultIn does not leave it to the writer).
void prefaultForWrite(const void *Begin, size_t Bytes);

/// What prefaultForWrite does, and then reads a byte of each of those
/// pages, so that no first touch is left for the writer on any machine
/// (where the hypervisor maps pages on first touch, the advice alone left
/// the writer 5 of the 12 us a fresh page cost on the machine it was
/// measured on). No other thread may write the range meanwhile.
void faultIn(const void *Begin, size_t Bytes);

/// Faults in (faultIn) up to \p Bytes (at most 32 MiB) of fresh memory of
/// this thread's allocator, 32 KiB at a time while \p KeepOn says so (always,
/// when it is empty), and gives the block back: the thread's next allocations
/// of that much find their pages ready. For a thread with nothing else to do
/// ahead of work that allocates: a page faulted in ahead costs that work
/// nothing, and faulted in this way it costs about half of a first touch (9
/// against 17 us on the machine of docs/Performance.md). The memory stays with
/// the thread's allocator where freed memory is kept, as the tools keep it
/// (ToolSupport's mallopt); elsewhere the allocator may give it back to the
/// kernel, and the work is lost.
void warmHeap(size_t Bytes, llvm::function_ref<bool()> KeepOn = {});

} // namespace dan

#endif // DAN_SUPPORT_MEMORY_H
