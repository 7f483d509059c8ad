//===- Diagnostic.cpp - Errors located at nodes of a graph ----------------===//

#include "dan/IR/Diagnostic.h"
#include "llvm/ADT/STLExtras.h"
#include "llvm/ADT/SmallString.h"
#include "llvm/ADT/StringExtras.h"
#include "llvm/Support/MemoryBuffer.h"
#include "llvm/Support/Unicode.h"
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
/// \p ProgName, when not null, starts the message.
void printTo(const llvm::SMDiagnostic &D, int SourceCol, const char *ProgName,
             llvm::raw_ostream &OS) {
  llvm::StringRef Line = D.getLineContents();
  // SMDiagnostic::print shows no caret under a line with a byte past ASCII
  // (it counts columns in bytes); this prints that line itself.
  if (D.getLineNo() < 0 || D.getColumnNo() < 0 ||
      (Line.size() <= MaxShownSourceColumns && SourceCol == D.getColumnNo() &&
       llvm::isASCII(Line))) {
    D.print(ProgName, OS);
    return;
  }
  // The location and message as PrintMessage writes them: a diagnostic
  // without a line number prints no source, so the place goes in its file
  // name.
  size_t Col = D.getColumnNo();
  std::string Where = (D.getFilename() + ":" + llvm::Twine(D.getLineNo()) +
                       ":" + llvm::Twine(SourceCol + 1))
                          .str();
  llvm::SMDiagnostic(Where, D.getKind(), D.getMessage()).print(ProgName, OS);
  // The window: centred on the column where the line allows it.
  size_t Begin = Line.size() <= MaxShownSourceColumns
                     ? 0
                     : std::min(Col - std::min(Col, MaxShownSourceColumns / 2),
                                Line.size() - MaxShownSourceColumns);
  // The window's ends on whole UTF-8 characters.
  auto Continues = [&](size_t I) {
    return I < Line.size() && (Line[I] & 0xC0) == 0x80;
  };
  while (Begin && Continues(Begin))
    --Begin;
  size_t End = std::min(Line.size(), Begin + MaxShownSourceColumns);
  while (End > Begin && Continues(End))
    --End;
  std::string Shown = Line.slice(Begin, End).str();
  // A tab is one column, as the column number counts it.
  std::replace(Shown.begin(), Shown.end(), '\t', ' ');
  // The caret under the character: as wide as what the terminal shows
  // before it (one column per byte when that is not valid UTF-8).
  llvm::StringRef Before = llvm::StringRef(Shown).take_front(Col - Begin);
  int Width = llvm::sys::unicode::columnWidthUTF8(Before);
  size_t Caret = Width >= 0 ? size_t(Width) : Before.size();
  if (Begin) {
    Shown = "..." + Shown;
    Caret += 3;
  }
  if (End < Line.size())
    Shown += "...";
  OS << Shown << '\n';
  llvm::WithColor(OS, llvm::raw_ostream::GREEN, /*Bold=*/true)
      << std::string(Caret, ' ') << "^\n";
}

/// printTo on stderr, in one write.
void write(const llvm::SMDiagnostic &D, int SourceCol, const char *ProgName) {
  llvm::SmallString<256> Text;
  DiagText OS(Text);
  printTo(D, SourceCol, ProgName, OS);
  llvm::errs() << Text;
}

/// The handler prefixDiagnostics installs; the context is the program name.
/// printLocated writes for it itself (it knows the source column when
/// control bytes moved the caret); this serves a SourceMgr::PrintMessage
/// called directly.
void printWithProgram(const llvm::SMDiagnostic &D, void *Context) {
  write(D, D.getColumnNo(), static_cast<const std::string *>(Context)->c_str());
}

/// Prints \p D, whose location is \p SourceCol in its file, as \p SM's
/// handler asks.
void emit(const llvm::SourceMgr &SM, const llvm::SMDiagnostic &D,
          int SourceCol) {
  llvm::SourceMgr::DiagHandlerTy Handler = SM.getDiagHandler();
  if (Handler && Handler != printWithProgram) {
    Handler(D, SM.getDiagContext());
    return;
  }
  write(D, SourceCol,
        Handler ? static_cast<const std::string *>(SM.getDiagContext())->c_str()
                : nullptr);
}

} // namespace

void printDiagnostic(const llvm::SMDiagnostic &D, llvm::raw_ostream &OS) {
  printTo(D, D.getColumnNo(), /*ProgName=*/nullptr, OS);
}

void prefixDiagnostics(llvm::SourceMgr &SM, const std::string &ProgName) {
  SM.setDiagHandler(printWithProgram,
                    const_cast<void *>(static_cast<const void *>(&ProgName)));
}

void printAboutBuffer(const llvm::SourceMgr &SM, unsigned BufferID,
                      llvm::SourceMgr::DiagKind Kind, const llvm::Twine &Msg) {
  llvm::StringRef File = SM.getMemoryBuffer(BufferID)->getBufferIdentifier();
  llvm::SMDiagnostic D(escapeControl(File), Kind, escapeControl(Msg.str()));
  emit(SM, D, -1);
}

bool reportEmptyInput(const llvm::SourceMgr &SM, unsigned BufferID) {
  llvm::StringRef Text = SM.getMemoryBuffer(BufferID)->getBuffer();
  Text.consume_front("\xEF\xBB\xBF");
  if (!Text.trim().empty())
    return false;
  printAboutBuffer(SM, BufferID, llvm::SourceMgr::DK_Error,
                   "empty input: expected a graph (did an earlier tool of the "
                   "pipe fail?)");
  return true;
}

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
  emit(SM, D, SourceCol);
}

unsigned addSourceBuffer(llvm::SourceMgr &SM,
                         std::unique_ptr<llvm::MemoryBuffer> Buffer,
                         llvm::SMLoc IncludeLoc) {
  llvm::StringRef Text = Buffer->getBuffer();
  auto LoneCR = [&](size_t I) {
    return Text[I] == '\r' && (I + 1 == Text.size() || Text[I + 1] != '\n');
  };
  size_t First = 0;
  while ((First = Text.find('\r', First)) != llvm::StringRef::npos &&
         !LoneCR(First))
    ++First;
  if (First == llvm::StringRef::npos)
    return SM.AddNewSourceBuffer(std::move(Buffer), IncludeLoc);
  std::unique_ptr<llvm::WritableMemoryBuffer> Copy =
      llvm::WritableMemoryBuffer::getNewUninitMemBuffer(
          Text.size(), Buffer->getBufferIdentifier());
  char *Out = Copy->getBufferStart();
  std::copy(Text.begin(), Text.end(), Out);
  for (size_t I = First; I != Text.size(); ++I)
    if (LoneCR(I))
      Out[I] = '\n';
  return SM.AddNewSourceBuffer(std::move(Copy), IncludeLoc);
}

std::string droppedErrorsNote(unsigned Dropped) {
  return "too many errors: " + std::to_string(Dropped) + " more not shown";
}

} // namespace dan
