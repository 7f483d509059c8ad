//===- Progress.h - A progress line for long runs ---------------*- C++ -*-===//
//
// A stage that runs for more than a couple of seconds on a large graph says
// so on stderr, when stderr is a terminal: one line, rewritten each second,
// "dan-mpas: @G (1392622 nodes): 5 s", and erased when the work ends. Never
// in a pipe or a file, so tests and logs see nothing (--progress=always
// shows it anyway, from the start, for the tests of the line itself).
//
//===----------------------------------------------------------------------===//

#ifndef DAN_TOOLS_COMMON_PROGRESS_H
#define DAN_TOOLS_COMMON_PROGRESS_H

#include "dan/Support/EnumTable.h"
#include "llvm/ADT/StringRef.h"
#include <condition_variable>
#include <mutex>
#include <string>
#include <thread>

namespace dan::tool {

enum class ProgressMode { Auto, Always, Never };
/// The values of --progress.
llvm::ArrayRef<EnumEntry<ProgressMode>> progressModeTable();

class ProgressLine {
public:
  /// Starts the line for \p What ("dan-mpas: @G (N nodes)"): under Auto,
  /// only when stderr is a terminal and after two seconds.
  ProgressLine(llvm::StringRef What, ProgressMode Mode);
  /// Stops the line and erases it.
  ~ProgressLine();

private:
  void run(unsigned DelaySeconds);

  std::string What;
  std::mutex M;
  std::condition_variable CV;
  bool Done = false;
  std::thread Worker;
};

} // namespace dan::tool

#endif // DAN_TOOLS_COMMON_PROGRESS_H
