//===- Progress.cpp - A progress line for long runs -----------------------===//

#include "Progress.h"
#include "llvm/Support/Process.h"
#include "llvm/Support/raw_ostream.h"
#include <chrono>

using namespace llvm;

namespace dan::tool {

ArrayRef<EnumEntry<ProgressMode>> progressModeTable() {
  static const EnumEntry<ProgressMode> Table[] = {
      {ProgressMode::Auto, "auto",
       "after two seconds, when stderr is a terminal (default)"},
      {ProgressMode::Always, "always", "from the start, also in a pipe"},
      {ProgressMode::Never, "never", "never"},
  };
  return Table;
}

ProgressLine::ProgressLine(StringRef What, ProgressMode Mode)
    : What(What.str()) {
  if (Mode == ProgressMode::Never ||
      (Mode == ProgressMode::Auto && !sys::Process::StandardErrIsDisplayed()))
    return;
  Worker = std::thread(&ProgressLine::run, this,
                       Mode == ProgressMode::Always ? 0 : 2);
}

ProgressLine::~ProgressLine() {
  if (!Worker.joinable())
    return;
  {
    std::lock_guard<std::mutex> Lock(M);
    Done = true;
  }
  CV.notify_one();
  Worker.join();
}

void ProgressLine::run(unsigned DelaySeconds) {
  using Clock = std::chrono::steady_clock;
  auto Start = Clock::now();
  std::unique_lock<std::mutex> Lock(M);
  // Without a delay the line shows at least once, however short the run.
  if (DelaySeconds && CV.wait_for(Lock, std::chrono::seconds(DelaySeconds),
                                  [&] { return Done; }))
    return;
  bool Shown = false;
  do {
    auto Secs =
        std::chrono::duration_cast<std::chrono::seconds>(Clock::now() - Start)
            .count();
    // \r and erase-to-end: the line is rewritten in place.
    errs() << "\r" << What << ": " << Secs << " s\x1b[K";
    errs().flush();
    Shown = true;
  } while (!CV.wait_for(Lock, std::chrono::seconds(1), [&] { return Done; }));
  if (Shown) {
    errs() << "\r\x1b[K";
    errs().flush();
  }
}

} // namespace dan::tool
