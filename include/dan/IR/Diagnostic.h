//===- Diagnostic.h - Errors located at nodes of a graph --------*- C++ -*-===//
//
// A pass that rejects its input says where. DiagError carries one or more
// diagnostics, each an error or a note at the source location of the node it
// is about (invalid when the node did not come from text). The stage tools
// print them through their SourceMgr as "file:line:col: error: ..." with the
// source line, like the parser's and the verifier's messages; without a
// SourceMgr, the error's text is its messages, one per line.
//
//===----------------------------------------------------------------------===//

#ifndef DAN_IR_DIAGNOSTIC_H
#define DAN_IR_DIAGNOSTIC_H

#include "dan/Target/Enums.h"
#include "llvm/ADT/ArrayRef.h"
#include "llvm/ADT/Twine.h"
#include "llvm/Support/Error.h"
#include "llvm/Support/SMLoc.h"
#include "llvm/Support/SourceMgr.h"
#include <string>
#include <vector>

namespace dan {

/// One message at one place.
struct Diagnostic {
  llvm::SMLoc Loc;
  llvm::SourceMgr::DiagKind Kind = llvm::SourceMgr::DK_Error;
  std::string Msg;
};

/// An llvm::Error holding located diagnostics (at least one error).
class DiagError : public llvm::ErrorInfo<DiagError> {
public:
  static char ID;
  explicit DiagError(std::vector<Diagnostic> Diags) : Diags(std::move(Diags)) {}

  llvm::ArrayRef<Diagnostic> diags() const { return Diags; }
  /// The messages without locations, one per line, notes prefixed "note: ".
  void log(llvm::raw_ostream &OS) const override;
  std::error_code convertToErrorCode() const override {
    return llvm::inconvertibleErrorCode();
  }

private:
  std::vector<Diagnostic> Diags;
};

/// The most errors a reader reports before it only counts them (as the
/// verifier's --error-limit and clang's -ferror-limit default to): each
/// shows its source line, so thousands of them on one long line would take
/// time quadratic in its length, and say nothing the first ones do not.
constexpr unsigned ShownErrorLimit = 20;

/// The note after the errors a reader did not show.
std::string droppedErrorsNote(unsigned Dropped);

/// Which errors of a report, and which of their notes, are shown: the
/// first \p Limit errors (all of them when it is 0) with their notes. The
/// rest, and the notes that follow them, are only counted.
class ErrorLimiter {
public:
  explicit ErrorLimiter(unsigned Limit) : Limit(Limit) {}
  /// Counts an error; whether to show it.
  bool error() {
    ShowNotes = !Limit || Shown < Limit;
    ++(ShowNotes ? Shown : Dropped);
    return ShowNotes;
  }
  /// Whether to show a note: the error before it was shown.
  bool note() const { return ShowNotes; }
  unsigned shown() const { return Shown; }
  unsigned dropped() const { return Dropped; }
  void reset() { *this = ErrorLimiter(Limit); }

private:
  unsigned Limit, Shown = 0, Dropped = 0;
  bool ShowNotes = true;
};

/// Collects diagnostics and turns them into one DiagError: the first
/// ShownErrorLimit errors with their notes, and a note counting the rest.
class DiagList {
public:
  void error(llvm::SMLoc Loc, const llvm::Twine &Msg) {
    if (Limiter.error())
      Diags.push_back({Loc, llvm::SourceMgr::DK_Error, Msg.str()});
  }
  void note(llvm::SMLoc Loc, const llvm::Twine &Msg) {
    if (Limiter.note())
      Diags.push_back({Loc, llvm::SourceMgr::DK_Note, Msg.str()});
  }
  bool empty() const { return Diags.empty(); }
  /// The collected diagnostics as an error, or success when there are none.
  llvm::Error takeError() {
    if (Diags.empty())
      return llvm::Error::success();
    if (Limiter.dropped())
      Diags.push_back({llvm::SMLoc(), llvm::SourceMgr::DK_Note,
                       droppedErrorsNote(Limiter.dropped())});
    Limiter.reset();
    return llvm::make_error<DiagError>(std::move(Diags));
  }

private:
  std::vector<Diagnostic> Diags;
  ErrorLimiter Limiter{ShownErrorLimit};
};

/// "1 buffer", "2 buffers": \p N and \p Noun, in the plural unless N is 1.
/// \p Noun is a regular English noun.
std::string countOf(uint64_t N, llvm::StringRef Noun);

/// \p Text with each control byte (below 0x20 but the tab, and 0x7F)
/// written as clang writes it, "<U+001B>": an input's bytes in a message
/// never reach the terminal raw.
std::string escapeControl(llvm::StringRef Text);

/// The most of a source line a located diagnostic shows.
constexpr size_t MaxShownSourceColumns = 200;

/// Reports \p Msg at \p Loc like SourceMgr::PrintMessage (the SourceMgr's
/// handler gets it whole when one is set), except that a source line longer
/// than MaxShownSourceColumns is shown as a window around the column, each
/// cut end marked "...": one error in a minified JSON file or on a very
/// long line stays a few lines long. The location keeps the real column.
void printLocated(const llvm::SourceMgr &SM, llvm::SMLoc Loc,
                  llvm::SourceMgr::DiagKind Kind, const llvm::Twine &Msg);

/// Writes \p D to \p OS as the tools print it: a long source line as a
/// window, and a caret also under a line with bytes past ASCII, which
/// SMDiagnostic::print leaves without one. For a SourceMgr handler that
/// collects the diagnostics printLocated reports.
void printDiagnostic(const llvm::SMDiagnostic &D, llvm::raw_ostream &OS);

/// Reports \p Msg about buffer \p BufferID of \p SM as a whole, naming its
/// file but no line ("<stdin>: error: ..."), as printLocated would.
void printAboutBuffer(const llvm::SourceMgr &SM, unsigned BufferID,
                      llvm::SourceMgr::DiagKind Kind, const llvm::Twine &Msg);

/// True, after an error naming its file but no line, when buffer
/// \p BufferID of \p SM holds only white space (after a UTF-8 byte-order
/// mark): what a pipe delivers when an earlier tool failed, which a syntax
/// error at 1:1 would blame on the wrong tool.
bool reportEmptyInput(const llvm::SourceMgr &SM, unsigned BufferID);

/// Adds \p Buffer to \p SM as SourceMgr::AddNewSourceBuffer does, with
/// each carriage return that ends a line alone (a classic Mac line end)
/// read as a line feed: SourceMgr numbers lines by their line feeds, so a
/// file of such lines would put every diagnostic on line 1. CRLF and LF
/// files are added as they are. The buffer's ID.
unsigned addSourceBuffer(llvm::SourceMgr &SM,
                         std::unique_ptr<llvm::MemoryBuffer> Buffer,
                         llvm::SMLoc IncludeLoc);

/// Makes the diagnostics printLocated and printAboutBuffer report through
/// \p SM start with \p ProgName, as LLVM's tools write them
/// ("dan-dlr: <stdin>:14:3: error: ..."): in a pipe of tools, each message
/// says which tool wrote it. \p ProgName must outlive SM's diagnostics.
void prefixDiagnostics(llvm::SourceMgr &SM, const std::string &ProgName);

} // namespace dan

#endif // DAN_IR_DIAGNOSTIC_H
