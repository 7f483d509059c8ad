//===- WriteBehind.cpp - Writing an output on a thread of its own ---------===//

#include "WriteBehind.h"
#include "dan/Support/Threads.h"

using namespace llvm;

namespace dan::tool {

/// The blocks handed to the writer: as large as the 64 KiB writes of an
/// output (OutputFile::open).
static constexpr size_t BlockSize = 64 * 1024;

WriteBehindStream::WriteBehindStream(raw_fd_ostream &Out) : Out(Out) {
  Out.SetUnbuffered();
  SetBufferSize(BlockSize);
}

WriteBehindStream::~WriteBehindStream() { finish(); }

void WriteBehindStream::write_impl(const char *Ptr, size_t Size) {
  Pos += Size;
  if (Finishing && !Writer.joinable()) {
    // Everything fit in one block: no thread for it.
    Out.write(Ptr, Size);
    return;
  }
  if (!Writer.joinable())
    Writer = std::thread([this, Spread = CpuSpread()] {
      Spread.moveHelper(1);
      run();
    });
  std::unique_lock<std::mutex> Guard(Lock);
  Written.wait(Guard, [&] { return Pending.size() < MaxPending; });
  Pending.emplace_back(Ptr, Size);
  Guard.unlock();
  Added.notify_one();
}

void WriteBehindStream::run() {
  std::unique_lock<std::mutex> Guard(Lock);
  for (;;) {
    Added.wait(Guard, [&] { return !Pending.empty() || Closed; });
    if (Pending.empty())
      return;
    // Written without the lock; only this thread pops, so the front stays.
    std::string &Block = Pending.front();
    Guard.unlock();
    Out.write(Block.data(), Block.size());
    Guard.lock();
    Pending.pop_front();
    Written.notify_one();
  }
}

void WriteBehindStream::finish() {
  if (Finishing)
    return;
  // Set before the flush, so that an output of one block is written here.
  Finishing = true;
  flush();
  {
    std::lock_guard<std::mutex> Guard(Lock);
    Closed = true;
  }
  Added.notify_one();
  if (Writer.joinable())
    Writer.join();
}

} // namespace dan::tool
