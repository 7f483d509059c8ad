//===- TestCommand.cpp - An interestingness test run as a process ---------===//

#include "dan/Reduce/TestCommand.h"
#include "dan/IR/Printer.h"
#include "llvm/Support/FileSystem.h"
#include "llvm/Support/FileUtilities.h"
#include "llvm/Support/Program.h"
#include "llvm/Support/Signals.h"

using namespace llvm;

namespace dan {

Expected<TestCommand> TestCommand::find(StringRef Name,
                                        std::vector<std::string> Args) {
  if (!Name.contains('/')) {
    ErrorOr<std::string> Found = sys::findProgramByName(Name);
    if (!Found)
      return createStringError(Found.getError(),
                               "cannot run the test '" + Name +
                                   "': " + Found.getError().message());
    return TestCommand(*Found, std::move(Args));
  }
  if (sys::fs::is_directory(Name))
    return createStringError(std::make_error_code(std::errc::is_a_directory),
                             "cannot run the test '" + Name +
                                 "': it is a directory");
  if (std::error_code EC = sys::fs::access(Name, sys::fs::AccessMode::Execute))
    return createStringError(EC, "cannot run the test '" + Name +
                                     "': " + EC.message());
  return TestCommand(Name.str(), std::move(Args));
}

std::string TestCommand::commandLine() const {
  std::string S = "'" + Program;
  for (const std::string &A : Args)
    S += " " + A;
  return S + " FILE'";
}

Expected<int> TestCommand::run(const Graph &G, std::string *Why) const {
  SmallString<128> Path;
  int FD;
  if (std::error_code EC =
          sys::fs::createTemporaryFile("dan-reduce", "dan", FD, Path))
    return createStringError(EC,
                             "cannot create a temporary file: " + EC.message());
  FileRemover Remove(Path);
  sys::RemoveFileOnSignal(Path);
  {
    raw_fd_ostream OS(FD, /*shouldClose=*/true);
    printGraph(G, OS);
    OS.close();
    if (std::error_code EC = OS.error()) {
      OS.clear_error();
      sys::DontRemoveFileOnSignal(Path);
      return createStringError(EC,
                               "cannot write '" + Path + "': " + EC.message());
    }
  }
  SmallVector<StringRef, 8> Argv{Program};
  for (const std::string &A : Args)
    Argv.push_back(A);
  Argv.push_back(Path);
  // The test reads nothing and its output would drown the progress.
  std::optional<StringRef> Redirects[] = {StringRef(), StringRef(),
                                          StringRef()};
  std::string ErrMsg;
  bool Failed = false;
  int Status = sys::ExecuteAndWait(Program, Argv, std::nullopt, Redirects,
                                   /*SecondsToWait=*/0, /*MemoryLimit=*/0,
                                   &ErrMsg, &Failed);
  sys::DontRemoveFileOnSignal(Path);
  if (Failed)
    return createStringError(inconvertibleErrorCode(), "cannot run the test '" +
                                                           Program +
                                                           "': " + ErrMsg);
  if (Why)
    *Why = ErrMsg;
  return Status;
}

Expected<bool> TestCommand::isInteresting(const Graph &G) const {
  Expected<int> Status = run(G);
  if (!Status)
    return Status.takeError();
  return *Status == 0;
}

} // namespace dan
