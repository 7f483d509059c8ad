//===- consumer.cpp - Calling DAN through its installed headers -----------===//
//
// Parses a DAN IR file, plans it with DAN's default pipeline (stage 1, 2
// and 3), verifies the plan and replays it: the four metrics on one line.
//
//===----------------------------------------------------------------------===//

#include "dan/Analysis/Replay.h"
#include "dan/Analysis/Verifier.h"
#include "dan/Parse/Parser.h"
#include "dan/Select/Methods.h"
#include "llvm/Support/MemoryBuffer.h"
#include "llvm/Support/SourceMgr.h"
#include "llvm/Support/raw_ostream.h"

using namespace llvm;

int main(int Argc, char **Argv) {
  if (Argc != 2) {
    errs() << "usage: dan-consumer FILE.dan\n";
    return 2;
  }
  ErrorOr<std::unique_ptr<MemoryBuffer>> Buf = MemoryBuffer::getFile(Argv[1]);
  if (!Buf) {
    errs() << "cannot read " << Argv[1] << "\n";
    return 2;
  }
  SourceMgr SM;
  unsigned ID = SM.AddNewSourceBuffer(std::move(*Buf), SMLoc());
  std::unique_ptr<dan::Graph> G = dan::parseGraph(SM, ID);
  if (!G)
    return 1; // the parser printed the error
  Expected<std::unique_ptr<dan::Graph>> Planned =
      dan::runMethod(*G, G->Target, dan::Method::DAN);
  if (!Planned) {
    errs() << toString(Planned.takeError()) << "\n";
    return 1;
  }
  unsigned Errors = dan::verifyGraph(
      **Planned, G->Target, dan::VerifyOptions(),
      [&](SMLoc Loc, SourceMgr::DiagKind Kind, const Twine &Msg) {
        SM.PrintMessage(Loc, Kind, Msg);
      });
  if (Errors)
    return 1;
  dan::ReplayResult R = dan::replay(**Planned, G->Target);
  outs() << (*Planned)->Name << ": peak " << R.PeakL1UB << ", traffic "
         << R.ExtraTraffic << ", spills " << R.SpillCount << ", makespan "
         << R.Makespan << "\n";
  return 0;
}
