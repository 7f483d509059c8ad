//===- WriteBehind.h - Writing an output on a thread of its own -*- C++ -*-===//
//
// A tool formats its output and the kernel copies it into the file; on a
// large output both take milliseconds (Matmul_Case1's 1.6 MB stage-1 file:
// about 1.5 ms to format, 2 ms to write), and with a second core they need
// not wait for each other: a WriteBehindStream takes each full block of
// what the tool formats and hands it to a thread that writes it.
//
//===----------------------------------------------------------------------===//

#ifndef DAN_TOOLS_COMMON_WRITEBEHIND_H
#define DAN_TOOLS_COMMON_WRITEBEHIND_H

#include "llvm/Support/raw_ostream.h"
#include <condition_variable>
#include <deque>
#include <mutex>
#include <string>
#include <thread>

namespace dan::tool {

class WriteBehindStream : public llvm::raw_ostream {
public:
  /// Writes to \p Out, which it makes unbuffered. The thread starts with
  /// the first full block: an output that fits in one block is written by
  /// finish() on the calling thread.
  explicit WriteBehindStream(llvm::raw_fd_ostream &Out);
  ~WriteBehindStream() override;

  /// Writes what is left and waits until every block is written; then any
  /// write error is Out's.
  void finish();

private:
  /// The blocks formatted and not yet written, at most this many.
  static constexpr size_t MaxPending = 8;

  void write_impl(const char *Ptr, size_t Size) override;
  uint64_t current_pos() const override { return Pos; }
  /// The writer thread: writes each pending block in order until finish()
  /// has handed over the last one.
  void run();

  llvm::raw_fd_ostream &Out;
  std::thread Writer;
  std::mutex Lock;
  /// Signalled when a block is added or the stream finishes (to the
  /// writer), and when a block is written (to a caller waiting for room).
  std::condition_variable Added, Written;
  std::deque<std::string> Pending;
  /// finish() has begun (read and written by the formatting thread only).
  bool Finishing = false;
  /// Every block is pending: the writer ends once none is left.
  bool Closed = false;
  uint64_t Pos = 0;
};

} // namespace dan::tool

#endif // DAN_TOOLS_COMMON_WRITEBEHIND_H
