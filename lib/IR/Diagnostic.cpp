//===- Diagnostic.cpp - Errors located at nodes of a graph ----------------===//

#include "dan/IR/Diagnostic.h"
#include "llvm/Support/WithColor.h"
#include "llvm/Support/raw_ostream.h"
#include <algorithm>

namespace dan {

char DiagError::ID = 0;

void DiagError::log(llvm::raw_ostream &OS) const {
  bool First = true;
  for (const Diagnostic &D : Diags) {
    if (!First)
      OS << '\n';
    First = false;
    if (D.Kind == llvm::SourceMgr::DK_Note)
      OS << "note: ";
    OS << D.Msg;
  }
}

std::string countOf(uint64_t N, llvm::StringRef Noun) {
  return std::to_string(N) + " " + Noun.str() + (N == 1 ? "" : "s");
}

std::string quoteToken(llvm::StringRef Token) {
  if (Token.size() <= MaxQuotedTokenBytes)
    return ("'" + Token + "'").str();
  size_t Cut = MaxQuotedTokenBytes;
  while (Cut > 0 && (static_cast<unsigned char>(Token[Cut]) & 0xC0) == 0x80)
    --Cut; // not inside a UTF-8 character
  return ("'" + Token.take_front(Cut) + "...'").str();
}

void printLocated(const llvm::SourceMgr &SM, llvm::SMLoc Loc,
                  llvm::SourceMgr::DiagKind Kind, const llvm::Twine &Msg) {
  // The diagnostic is located once; each path below uses it as
  // SourceMgr::PrintMessage would.
  llvm::SMDiagnostic D = SM.GetMessage(Loc, Kind, Msg);
  if (llvm::SourceMgr::DiagHandlerTy Handler = SM.getDiagHandler()) {
    Handler(D, SM.getDiagContext());
    return;
  }
  llvm::StringRef Line = D.getLineContents();
  if (D.getLineNo() < 0 || D.getColumnNo() < 0 ||
      Line.size() <= MaxShownSourceColumns) {
    SM.PrintMessage(llvm::errs(), D);
    return;
  }
  // The location and message as PrintMessage writes them: a diagnostic
  // without a line number prints no source, so the place goes in its file
  // name.
  size_t Col = D.getColumnNo();
  std::string Where = (D.getFilename() + ":" + llvm::Twine(D.getLineNo()) +
                       ":" + llvm::Twine(Col + 1))
                          .str();
  llvm::SMDiagnostic(Where, Kind, D.getMessage()).print(nullptr, llvm::errs());
  // The window: centred on the column where the line allows it.
  size_t Begin = std::min(Col - std::min(Col, MaxShownSourceColumns / 2),
                          Line.size() - MaxShownSourceColumns);
  std::string Shown = Line.substr(Begin, MaxShownSourceColumns).str();
  // One column per byte, as the column number counts.
  std::replace(Shown.begin(), Shown.end(), '\t', ' ');
  size_t Caret = Col - Begin;
  if (Begin) {
    Shown = "..." + Shown;
    Caret += 3;
  }
  if (Begin + MaxShownSourceColumns < Line.size())
    Shown += "...";
  llvm::errs() << Shown << '\n';
  llvm::WithColor(llvm::errs(), llvm::raw_ostream::GREEN, /*Bold=*/true)
      << std::string(Caret, ' ') << "^\n";
}

} // namespace dan
