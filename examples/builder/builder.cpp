//===- builder.cpp - A graph built by a program, planned in process -------===//
//
// What a compiler does with DAN's libraries: build the command graph of
// some tiles with dan::Builder (tiers and pipes by name, buffers by
// handle, each node tagged with the source it came from), plan it with the
// default pipeline, verify the plan and print its four metrics.
//
//   dan-builder TILES [GRAPH.dan]
//
// writes the unplanned graph to GRAPH.dan when given, so that the stage
// tools can plan the same graph (test/Install/install.test compares).
//
//===----------------------------------------------------------------------===//

#include "dan/IR/Builder.h"
#include "dan/Analysis/Replay.h"
#include "dan/Analysis/Verifier.h"
#include "dan/IR/Printer.h"
#include "dan/Select/Methods.h"
#include "llvm/Support/FileSystem.h"
#include "llvm/Support/raw_ostream.h"
#include <string>

/// Tile K: load an input into L1, move it to L0A beside a weight in L0B,
/// multiply into L0C, fix it into UB, store it.
static llvm::Error addTile(dan::Builder &B, unsigned K) {
  std::string Src = "tile." + std::to_string(K);
  auto In = B.alloc("L1", 256);
  auto W = B.alloc("L1", 256);
  if (!In || !W)
    return llvm::joinErrors(In.takeError(), W.takeError());
  auto LoadIn = B.op("COPY_IN", "MTE2", 200, {*In}, {In->Alloc});
  auto LoadW = B.op("COPY_IN", "MTE2", 200, {*W}, {W->Alloc});
  auto A = B.alloc("L0A", 128);
  auto Bw = B.alloc("L0B", 128);
  auto C = B.alloc("L0C", 256);
  auto Out = B.alloc("UB", 256);
  if (!LoadIn || !LoadW || !A || !Bw || !C || !Out)
    return llvm::createStringError(llvm::inconvertibleErrorCode(),
                                   "a tile's buffers could not be built");
  auto MoveA = B.op("MOVE", "MTE1", 50, {*In, *A}, {*LoadIn, A->Alloc});
  auto MoveB = B.op("MOVE", "MTE1", 50, {*W, *Bw}, {*LoadW, Bw->Alloc});
  if (!MoveA || !MoveB)
    return llvm::joinErrors(MoveA.takeError(), MoveB.takeError());
  auto Mul =
      B.op("mmad.f16", "CUBE", 300, {*A, *Bw, *C}, {*MoveA, *MoveB, C->Alloc});
  if (!Mul)
    return Mul.takeError();
  if (llvm::Error E = B.setAttr(*Mul, "src", Src + ".matmul"))
    return E;
  auto Fix = B.op("FIXPIPE", "FIXP", 60, {*C, *Out}, {*Mul, Out->Alloc});
  if (!Fix)
    return Fix.takeError();
  auto Store = B.op("COPY_OUT", "MTE3", 100, {*Out}, {*Fix});
  if (!Store)
    return Store.takeError();
  for (auto [Buf, Last] :
       {std::pair(*In, *MoveA), std::pair(*W, *MoveB), std::pair(*A, *Mul),
        std::pair(*Bw, *Mul), std::pair(*C, *Fix), std::pair(*Out, *Store)})
    if (auto F = B.free(Buf, {Last}); !F)
      return F.takeError();
  return llvm::Error::success();
}

int main(int Argc, char **Argv) {
  if (Argc < 2 || Argc > 3) {
    llvm::errs() << "usage: dan-builder TILES [GRAPH.dan]\n";
    return 2;
  }
  unsigned Tiles;
  if (llvm::StringRef(Argv[1]).getAsInteger(10, Tiles)) {
    llvm::errs() << "dan-builder: error: TILES must be a whole number below "
                    "2^32, not '"
                 << Argv[1] << "'\n";
    return 2;
  }
  dan::TargetDesc Target = dan::TargetDesc::davinci();
  dan::Builder B("Tiles", Target);
  for (unsigned K = 0; K != Tiles; ++K)
    if (llvm::Error E = addTile(B, K)) {
      llvm::errs() << llvm::toString(std::move(E)) << "\n";
      return 1;
    }
  std::unique_ptr<dan::Graph> G = B.take();
  if (Argc == 3) {
    std::error_code EC;
    llvm::raw_fd_ostream OS(Argv[2], EC, llvm::sys::fs::OF_Text);
    if (EC) {
      llvm::errs() << "dan-builder: error: cannot write '" << Argv[2]
                   << "': " << EC.message() << "\n";
      return 2;
    }
    dan::printGraph(*G, OS);
  }
  auto Planned = dan::runMethod(*G, Target, dan::Method::DAN);
  if (!Planned) {
    llvm::errs() << llvm::toString(Planned.takeError()) << "\n";
    return 1;
  }
  if (dan::verifyGraph(**Planned, Target, dan::VerifyOptions(),
                       [](llvm::SMLoc, llvm::SourceMgr::DiagKind,
                          const llvm::Twine &M) { llvm::errs() << M << "\n"; }))
    return 1;
  dan::ReplayResult R = dan::replay(**Planned, Target);
  llvm::outs() << "peak " << R.PeakL1UB << ", traffic " << R.ExtraTraffic
               << ", spills " << R.SpillCount << ", makespan " << R.Makespan
               << "\n";
  return 0;
}
