//===- FuzzSupport.cpp - What the DAN fuzz targets share ------------------===//

#include "FuzzSupport.h"
#include "dan/Analysis/Replay.h"
#include "dan/Analysis/Verifier.h"
#include "dan/IR/Diagnostic.h"
#include "dan/IR/Printer.h"
#include "dan/Parse/Parser.h"
#include "llvm/Support/MemoryBuffer.h"
#include "llvm/Support/raw_ostream.h"
#include <algorithm>
#include <cstdlib>

using namespace llvm;

namespace dan::fuzz {

void fail(const Twine &Msg, StringRef First, StringRef Second) {
  errs() << "dan-fuzz: " << Msg << '\n';
  for (StringRef Text : {First, Second})
    if (!Text.empty())
      errs() << "----\n" << Text << (Text.ends_with("\n") ? "" : "\n");
  errs().flush();
  std::abort();
}

void quietDiagnostics(SourceMgr &SM) {
  SM.setDiagHandler(
      [](const SMDiagnostic &D, void *Context) {
        auto &SM = *static_cast<SourceMgr *>(Context);
        if (D.getLoc().isValid() && !SM.FindBufferContainingLoc(D.getLoc()))
          fail("a diagnostic points outside every buffer: " + D.getMessage());
        D.print(nullptr, nulls());
      },
      &SM);
}

unsigned addBuffer(SourceMgr &SM, StringRef Text, StringRef Name) {
  return SM.AddNewSourceBuffer(MemoryBuffer::getMemBufferCopy(Text, Name),
                               SMLoc());
}

bool splitSections(StringRef Data, ArrayRef<StringRef> Names, StringRef &Head,
                   std::vector<std::optional<StringRef>> &Sections) {
  Sections.assign(Names.size(), std::nullopt);
  // Where the current section's text starts, and which slot it fills (-1:
  // the head).
  size_t TextStart = 0;
  int Slot = -1;
  auto Close = [&](size_t End) {
    StringRef Text = Data.slice(TextStart, End);
    if (Slot < 0)
      Head = Text;
    else
      Sections[Slot] = Text;
  };
  for (size_t Pos = 0; Pos < Data.size();) {
    size_t EOL = Data.find('\n', Pos);
    size_t Next = EOL == StringRef::npos ? Data.size() : EOL + 1;
    StringRef Line = Data.slice(Pos, Next).rtrim("\r\n");
    if (Line.consume_front("%% ")) {
      auto It = llvm::find(Names, Line);
      if (It != Names.end()) {
        Close(Pos);
        Slot = It - Names.begin();
        if (Sections[Slot])
          return false;
        Sections[Slot] = StringRef();
        TextStart = Next;
      }
    }
    Pos = Next;
  }
  Close(Data.size());
  return true;
}

std::string printed(const Graph &G) {
  std::string Text;
  raw_string_ostream OS(Text);
  printGraph(G, OS);
  return Text;
}

void checkRoundTrip(const Graph &G) {
  std::string First = printed(G);
  SourceMgr SM;
  quietDiagnostics(SM);
  std::unique_ptr<Graph> Back = parseGraphString(First, SM, "<printed>");
  if (!Back) {
    // Parse again, printing the errors, to show them.
    SourceMgr Loud;
    parseGraphString(First, Loud, "<printed>");
    fail("the printed IR does not parse", First);
  }
  std::string Second = printed(*Back);
  if (First != Second)
    fail("printing the parsed IR changes it", First, Second);
}

void expectVerifies(const Graph &G, const TargetDesc &T,
                    const VerifyOptions &Opts, const Twine &What,
                    StringRef Context) {
  std::string Errors = Context.str();
  unsigned N = verifyGraph(
      G, T, Opts, [&](SMLoc, SourceMgr::DiagKind Kind, const Twine &Msg) {
        Errors += (Kind == SourceMgr::DK_Error ? "error: " : "note: ") +
                  Msg.str() + "\n";
      });
  if (N)
    fail(What + " does not verify (" + Twine(N) + " errors)", Errors,
         printed(G));
}

unsigned checkVerifyAndReplay(const Graph &G, SourceMgr &SM,
                              const TargetDesc &T) {
  DiagHandler Diag = [&](SMLoc Loc, SourceMgr::DiagKind Kind,
                         const Twine &Msg) {
    if (Loc.isValid())
      SM.PrintMessage(Loc, Kind, Msg);
  };
  VerifyOptions Limited, All;
  All.ErrorLimit = 0;
  unsigned Errors = verifyGraph(G, T, All, Diag);
  unsigned Shown = verifyGraph(G, T, Limited, Diag);
  if (Shown != std::min(Errors, Limited.ErrorLimit))
    fail("the verifier reports " + Twine(Shown) + " errors with a limit of " +
         Twine(Limited.ErrorLimit) + " but " + Twine(Errors) + " without");
  VerifyOptions Self = All;
  Self.Against = &G;
  if (unsigned E = verifyGraph(G, T, Self, Diag); E != Errors)
    fail("verifying a graph against itself gives " + Twine(E) +
         " errors instead of " + Twine(Errors));
  // The stage tools' input check agrees, and its errors point into the
  // input too.
  Error PassInput = verifyPassInput(G, T, "dan-fuzz");
  if (bool(PassInput) != (Errors != 0))
    fail("verifyPassInput disagrees with " + Twine(Errors) + " errors");
  handleAllErrors(std::move(PassInput), [&](const DiagError &D) {
    for (const Diagnostic &X : D.diags())
      if (X.Loc.isValid())
        SM.PrintMessage(X.Loc, X.Kind, X.Msg);
  });
  VerifyOptions L0 = All;
  L0.L0Single = true;
  unsigned L0Errors = verifyGraph(G, T, L0, Diag);
  if (L0Errors < Errors)
    fail("--l0-single removes errors");

  ReplayResult R = replay(G, T);
  if (R.Start.size() != G.size() || R.Finish.size() != G.size())
    fail("the replay times are not one per node");
  uint64_t Last = 0;
  for (NodeIdx I : G.Order) {
    if (R.Start[I] > R.Finish[I])
      fail("a node finishes before it starts: " + describeNode(G, I));
    Last = std::max(Last, R.Finish[I]);
  }
  if (Last != R.Makespan)
    fail("the makespan is not the last finish");
  if (Errors)
    return Errors;

  // A graph that verifies: the figures must agree with the verifier.
  if (R.Makespan < R.CriticalPathLB || R.Makespan < R.PipeLB)
    fail("the makespan is below a lower bound");
  for (NodeIdx I : G.Order)
    for (const EdgeList *Preds : {&G[I].Preds, &G[I].ReusePreds})
      for (NodeIdx P : *Preds)
        if (R.Start[I] < R.Finish[P])
          fail(describeNode(G, I) + " starts before its predecessor " +
               describeNode(G, P) + " finishes");
  if (G.hasMemoryPlan())
    for (unsigned Ti = 0; Ti != T.numTiers(); ++Ti)
      if (R.TierPeak[Ti] > T.capacity(static_cast<Tier>(Ti)))
        fail("a plan that verifies holds more than tier " +
             T.tierName(static_cast<Tier>(Ti)) + " can");
  if (!L0Errors && !R.L0Single)
    fail("the replay sees two live L0 buffers where --l0-single sees none");
  return Errors;
}

} // namespace dan::fuzz
