//===- StandaloneMain.cpp - Run a fuzz target on given inputs -------------===//
//
// The main of a fuzz target built without libFuzzer (DAN_FUZZ off): runs
// LLVMFuzzerTestOneInput once on each file given, and on each file of each
// directory given, so that any compiler can replay the seeds and the
// inputs that once crashed. A crash still crashes.
//
//===----------------------------------------------------------------------===//

#include "llvm/ADT/STLExtras.h"
#include "llvm/Support/FileSystem.h"
#include "llvm/Support/MemoryBuffer.h"
#include "llvm/Support/raw_ostream.h"
#include <string>
#include <vector>

using namespace llvm;

extern "C" int LLVMFuzzerTestOneInput(const uint8_t *Data, size_t Size);

static bool runFile(StringRef Path) {
  // Not as text: the fuzzer sees the bytes as they are.
  ErrorOr<std::unique_ptr<MemoryBuffer>> Buf = MemoryBuffer::getFile(Path);
  if (!Buf) {
    errs() << "cannot read '" << Path << "': " << Buf.getError().message()
           << '\n';
    return false;
  }
  // A copy of exactly the input's bytes, so that reading past the end is
  // caught the same way as under libFuzzer when a sanitizer is on.
  std::vector<uint8_t> Bytes((*Buf)->getBufferStart(), (*Buf)->getBufferEnd());
  LLVMFuzzerTestOneInput(Bytes.data(), Bytes.size());
  return true;
}

int main(int Argc, char **Argv) {
  if (Argc < 2) {
    errs() << "usage: " << Argv[0] << " FILE|DIR...\n"
           << "Runs the fuzz target once on each input (a DAN_FUZZ=OFF "
              "build: no fuzzing).\n";
    return 2;
  }
  unsigned Runs = 0;
  for (int I = 1; I < Argc; ++I) {
    StringRef Arg = Argv[I];
    if (!sys::fs::is_directory(Arg)) {
      if (!runFile(Arg))
        return 2;
      ++Runs;
      continue;
    }
    // In name order, so that a run is the same every time.
    std::vector<std::string> Files;
    std::error_code EC;
    for (sys::fs::directory_iterator It(Arg, EC), End; It != End && !EC;
         It.increment(EC))
      if (!sys::fs::is_directory(It->path()))
        Files.push_back(It->path());
    if (EC) {
      errs() << "cannot list '" << Arg << "': " << EC.message() << '\n';
      return 2;
    }
    llvm::sort(Files);
    for (const std::string &F : Files) {
      if (!runFile(F))
        return 2;
      ++Runs;
    }
  }
  outs() << "ran " << Runs << " input" << (Runs == 1 ? "" : "s") << '\n';
  return 0;
}
