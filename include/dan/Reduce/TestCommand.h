//===- TestCommand.h - An interestingness test run as a process -*- C++ -*-===//
//
// dan-reduce's interestingness test: a program run as 'PROGRAM ARG... FILE'
// on each candidate, written to a temporary file that is removed afterwards.
// Exit status 0 means interesting; the program's output is discarded.
// reduceGraph itself takes any callback (InterestingFn); this is the one
// the tool gives it.
//
//===----------------------------------------------------------------------===//

#ifndef DAN_REDUCE_TESTCOMMAND_H
#define DAN_REDUCE_TESTCOMMAND_H

#include "dan/IR/Graph.h"
#include "llvm/Support/Error.h"
#include <string>
#include <vector>

namespace dan {

class TestCommand {
public:
  /// The test \p Name with \p Args: a name without '/' is looked up in PATH
  /// like a shell does; a path must be an executable file.
  static llvm::Expected<TestCommand> find(llvm::StringRef Name,
                                          std::vector<std::string> Args);

  /// The test's exit status on \p G (negative when it was killed; then
  /// \p Why says how), or an error when it could not run at all.
  llvm::Expected<int> run(const Graph &G, std::string *Why = nullptr) const;

  /// Whether the test exits with 0 on \p G.
  llvm::Expected<bool> isInteresting(const Graph &G) const;

  /// The command line as messages show it, "FILE" for the candidate.
  std::string commandLine() const;

private:
  TestCommand(std::string Program, std::vector<std::string> Args)
      : Program(std::move(Program)), Args(std::move(Args)) {}

  std::string Program;
  std::vector<std::string> Args;
};

} // namespace dan

#endif // DAN_REDUCE_TESTCOMMAND_H
