//===- Diagnostic.cpp - Errors located at nodes of a graph ----------------===//

#include "dan/IR/Diagnostic.h"
#include "llvm/ADT/STLExtras.h"
#include "llvm/ADT/SmallString.h"
#include "llvm/Support/WithColor.h"
#include "llvm/Support/raw_ostream.h"
#include <algorithm>
#include <cstdio>

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

static bool isControl(unsigned char C) {
  return (C < 0x20 && C != '\t') || C == 0x7F;
}

std::string escapeControl(llvm::StringRef Text) {
  if (llvm::none_of(Text, [](char C) { return isControl(C); }))
    return Text.str();
  std::string Out;
  for (char C : Text) {
    if (!isControl(C)) {
      Out += C;
      continue;
    }
    char Buf[16];
    snprintf(Buf, sizeof Buf, "<U+%04X>", unsigned((unsigned char)C));
    Out += Buf;
  }
  return Out;
}

namespace {

/// A diagnostic's text, gathered so that it reaches stderr in one write:
/// errs() is unbuffered and writes each piece as it comes (a file with a
/// million warnings took fifteen million writes, most of dan-verify's 27
/// s on it). It has colours when stderr has them; --color=true forces them
/// on both (WithColor then asks neither).
class DiagText : public llvm::raw_svector_ostream {
public:
  explicit DiagText(llvm::SmallVectorImpl<char> &Text)
      : llvm::raw_svector_ostream(Text) {
    enable_colors(true);
  }
  bool has_colors() const override { return llvm::errs().has_colors(); }
};

/// Writes \p D to \p OS as SourceMgr::PrintMessage would, with at most
/// MaxShownSourceColumns of its source line. \p SourceCol is the column the
/// location names in the file; D's column is where the caret goes in D's
/// line, which differs once control bytes are escaped.
void printTo(const llvm::SourceMgr &SM, const llvm::SMDiagnostic &D,
             int SourceCol, llvm::raw_ostream &OS) {
  llvm::StringRef Line = D.getLineContents();
  if (D.getLineNo() < 0 || D.getColumnNo() < 0 ||
      (Line.size() <= MaxShownSourceColumns && SourceCol == D.getColumnNo())) {
    SM.PrintMessage(OS, D);
    return;
  }
  // The location and message as PrintMessage writes them: a diagnostic
  // without a line number prints no source, so the place goes in its file
  // name.
  size_t Col = D.getColumnNo();
  std::string Where = (D.getFilename() + ":" + llvm::Twine(D.getLineNo()) +
                       ":" + llvm::Twine(SourceCol + 1))
                          .str();
  llvm::SMDiagnostic(Where, D.getKind(), D.getMessage()).print(nullptr, OS);
  // The window: centred on the column where the line allows it.
  size_t Begin = Line.size() <= MaxShownSourceColumns
                     ? 0
                     : std::min(Col - std::min(Col, MaxShownSourceColumns / 2),
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
  OS << Shown << '\n';
  llvm::WithColor(OS, llvm::raw_ostream::GREEN, /*Bold=*/true)
      << std::string(Caret, ' ') << "^\n";
}

} // namespace

void printLocated(const llvm::SourceMgr &SM, llvm::SMLoc Loc,
                  llvm::SourceMgr::DiagKind Kind, const llvm::Twine &Msg) {
  // The diagnostic is located once; each path below uses it as
  // SourceMgr::PrintMessage would.
  llvm::SMDiagnostic D = SM.GetMessage(Loc, Kind, Msg);
  // Control bytes of the input, in the message or the line, are escaped;
  // the caret moves by what the escapes before it add.
  llvm::StringRef Line = D.getLineContents();
  int SourceCol = D.getColumnNo();
  if (llvm::any_of(D.getMessage(), [](char C) { return isControl(C); }) ||
      llvm::any_of(Line, [](char C) { return isControl(C); })) {
    int Col = SourceCol;
    if (Col > 0)
      Col += escapeControl(Line.take_front(Col)).size() -
             std::min<size_t>(Col, Line.size());
    D = llvm::SMDiagnostic(SM, Loc, D.getFilename(), D.getLineNo(), Col, Kind,
                           escapeControl(D.getMessage()), escapeControl(Line),
                           {});
  }
  if (llvm::SourceMgr::DiagHandlerTy Handler = SM.getDiagHandler()) {
    Handler(D, SM.getDiagContext());
    return;
  }
  llvm::SmallString<256> Text;
  DiagText OS(Text);
  printTo(SM, D, SourceCol, OS);
  llvm::errs() << Text;
}

} // namespace dan
