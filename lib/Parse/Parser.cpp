//===- Parser.cpp - Reading a file of DAN IR, whole or in pieces ----------===//
//
// A large file is read in pieces at once: it is cut before statements, each
// piece is parsed on its own thread into its own graph, and the pieces are
// joined in file order before the names are resolved. The result is the
// graph a whole reading gives, byte for byte: the nodes, the references and
// the interned operation names come in file order. A piece that fails, or
// an id defined in two pieces, sends the file to a whole reading, which
// reports the first error as it always does.
//
//===----------------------------------------------------------------------===//

#include "dan/Parse/Parser.h"
#include "Lexer.h"
#include "ParseState.h"
#include "dan/Support/Memory.h"
#include "dan/Support/Threads.h"
#include "llvm/Support/MemoryBuffer.h"
#include "llvm/Support/Threading.h"
#include <algorithm>
#include <cstring>
#include <optional>

using namespace llvm;

namespace dan {

namespace {

/// Whether the line at \p P starts a statement: blanks, then 'nDIGITS',
/// blanks and '='. In a file that parses, such a line cannot be anything
/// else, and the cut at its 'n' falls where a token begins.
const char *statementAt(const char *P, const char *End) {
  while (P != End && (*P == ' ' || *P == '\t'))
    ++P;
  const char *Id = P;
  if (P == End || *P != 'n')
    return nullptr;
  const char *Digits = ++P;
  while (P != End && *P >= '0' && *P <= '9')
    ++P;
  if (P == Digits)
    return nullptr;
  while (P != End && (*P == ' ' || *P == '\t'))
    ++P;
  return P != End && *P == '=' ? Id : nullptr;
}

/// Where the pieces after the first begin: up to \p Pieces - 1 cuts, each at
/// the first statement after an even share of the text.
std::vector<const char *> pieceCuts(const char *Begin, const char *End,
                                    unsigned Pieces) {
  std::vector<const char *> Cuts;
  size_t Size = End - Begin;
  for (unsigned K = 1; K < Pieces; ++K) {
    const char *P = Begin + Size / Pieces * K;
    if (!Cuts.empty())
      P = std::max(P, Cuts.back() + 1);
    const char *Cut = nullptr;
    while (!Cut && P < End) {
      P = static_cast<const char *>(std::memchr(P, '\n', End - P));
      if (!P)
        break;
      Cut = statementAt(++P, End);
    }
    if (!Cut)
      break;
    Cuts.push_back(Cut);
  }
  return Cuts;
}

/// One piece: its text and how many '=' and ',' it holds, its graph and
/// its parse state.
struct Piece {
  const char *Begin, *Limit;
  /// At least the piece's statements: each defines its node with one '='.
  size_t Equals = 0;
  /// A reference more than each comma is at least the piece's references.
  size_t Commas = 0;
  std::unique_ptr<Graph> G = std::make_unique<Graph>();
  std::optional<detail::ParseState> PS;
  bool Ok = false;
};

/// Counts the '=' and ',' of \p P in one pass over blocks of 64 bytes,
/// whose compares the compiler makes vector ones (memchr for each byte, a
/// pass each, took 2.4 times as long on Matmul_Case1's 1.6 MB).
void countBytes(Piece &P) {
  constexpr size_t Block = 64;
  size_t Equals = 0, Commas = 0;
  const char *C = P.Begin;
  for (; size_t(P.Limit - C) >= Block; C += Block) {
    unsigned E = 0, K = 0;
    for (size_t I = 0; I != Block; ++I) {
      E += C[I] == '=';
      K += C[I] == ',';
    }
    Equals += E;
    Commas += K;
  }
  for (; C != P.Limit; ++C) {
    Equals += *C == '=';
    Commas += *C == ',';
  }
  P.Equals = Equals;
  P.Commas = Commas;
}

/// Parses \p P (the whole file when it ends at \p End and is not a later
/// piece), \p Quiet as ParseState::setQuiet. The graph reserves a node for
/// each '=' (parseInPieces reserves the first piece's graph for the whole
/// file's, since the others join it), so it never outgrows its room, which
/// spares the vector's regrowth, copying every Node (SmallVector members
/// are not nothrow-movable); and a reference more than each comma, an upper
/// bound short only by a list per statement.
void parsePiece(SourceMgr &SM, Piece &P, const char *End, bool LaterPiece,
                bool Quiet) {
  P.G->Nodes.reserve(P.Equals);
  P.G->Order.reserve(P.Equals);
  P.PS.emplace(SM, *P.G);
  P.PS->setQuiet(Quiet);
  P.PS->reserveRefs(P.Equals + P.Commas);
  detail::Lexer Lex(P.Begin, P.Limit, End, LaterPiece, *P.PS);
  detail::IRParser Parser(Lex, *P.PS);
  P.Ok = Parser.parse() == 0 && !P.PS->hadError();
}

/// How many threads \p Opts reads on.
unsigned threadsOf(const ParseOptions &Opts) {
  return Opts.Runner
             ? Opts.Runner->threads()
             : hardware_concurrency(Opts.Threads).compute_thread_count();
}

/// The graph of the file read in pieces as \p Opts allows (null after the
/// errors of resolving its names), or nothing when the file is too small
/// to cut or a piece failed: then it is read whole.
std::optional<std::unique_ptr<Graph>> parseInPieces(SourceMgr &SM,
                                                    const char *Begin,
                                                    const char *End,
                                                    const ParseOptions &Opts) {
  unsigned Count = std::min<size_t>(
      threadsOf(Opts), (End - Begin) / std::max<size_t>(Opts.MinPieceBytes, 1));
  if (Count < 2)
    return std::nullopt;
  std::vector<const char *> Cuts = pieceCuts(Begin, End, Count);
  if (Cuts.empty())
    return std::nullopt;
  std::vector<Piece> Pieces(Cuts.size() + 1);
  for (size_t K = 0; K != Pieces.size(); ++K) {
    Pieces[K].Begin = K ? Cuts[K - 1] : Begin;
    Pieces[K].Limit = K != Cuts.size() ? Cuts[K] : End;
  }
  // Each batch runs its jobs at once, the first piece's on this thread.
  std::optional<JobRunner> Own;
  JobRunner &Runner = givenOrOwn(Opts.Runner, Own, Pieces.size());
  // The pieces counted at once too: the first pass over the text maps its
  // pages, most of the count's time (1.1 of Matmul_Case1's 50 ms on one
  // thread before the pieces began).
  Runner.run(Pieces.size(), [&](size_t K) { countBytes(Pieces[K]); });
  // EqualsBefore[K]: the '=' of the pieces before piece K, at least their
  // nodes.
  std::vector<size_t> EqualsBefore(Pieces.size() + 1, 0);
  for (size_t K = 0; K != Pieces.size(); ++K)
    EqualsBefore[K + 1] = EqualsBefore[K] + Pieces[K].Equals;
  size_t Equals = EqualsBefore.back();
  // The first piece's graph is the whole one: room for every node before
  // any piece is read, so that the others know where theirs go. The first
  // piece cannot outgrow it: its nodes end by EqualsBefore[1].
  Graph &Whole = *Pieces[0].G;
  Whole.Nodes.reserve(Equals);
  Whole.Order.reserve(Equals);
  const Node *Room = Whole.Nodes.data();
  // The part of the whole graph's nodes that the later pieces' will be
  // moved to, faulted in while the pieces are read: the move is on one
  // thread, after every piece is read, and the faults were most of it. It
  // starts at most a few nodes before EqualsBefore[1] (a few '=' of a file
  // define no node: the target header's), where the first piece may still
  // be writing (Shared: advice only), and ends by the last. Cut into spans
  // that the threads take once their pieces are read, so that the thread
  // of a later piece does not take the faults alone (a reading in two
  // pieces waited 2 ms for them).
  struct Span {
    size_t From, To;
    bool Shared;
  };
  std::vector<Span> Spans;
  constexpr size_t Slack = 256, SpanNodes = 2048;
  size_t Later = EqualsBefore[1];
  Spans.push_back({Later > Slack ? Later - Slack : 0, Later, true});
  for (size_t From = Later; From < Equals; From += SpanNodes)
    Spans.push_back({From, std::min(From + SpanNodes, Equals), false});
  Runner.run(Pieces.size() + Spans.size(), [&](size_t J) {
    if (J < Pieces.size()) {
      parsePiece(SM, Pieces[J], End, /*LaterPiece=*/J != 0, /*Quiet=*/true);
      return;
    }
    const Span &S = Spans[J - Pieces.size()];
    size_t Bytes = (S.To - S.From) * sizeof(Node);
    if (S.Shared)
      prefaultForWrite(Room + S.From, Bytes);
    else
      faultIn(Room + S.From, Bytes);
  });
  // The join below is this thread's alone. Meanwhile the caller's pool
  // threads fault in memory for what they take next (the search's analysis,
  // in dan-mpas); the next batch stops them.
  if (Opts.Runner)
    Runner.warmWhileIdle(End - Begin);
  detail::ParseState &State = *Pieces[0].PS;
  for (Piece &P : Pieces)
    if (!P.Ok)
      return std::nullopt;
  for (size_t K = 1; K != Pieces.size(); ++K)
    if (!State.appendPiece(*Pieces[K].PS))
      return std::nullopt;
  State.setQuiet(false);
  if (Opts.PiecesRead)
    *Opts.PiecesRead = Pieces.size();
  // Each piece's references at once (half the serial time of a reading in
  // two pieces went to them); on a bad one, all again in file order, for
  // the messages.
  std::vector<char> Resolved(Pieces.size(), 0);
  Runner.run(Pieces.size(),
             [&](size_t K) { Resolved[K] = State.resolvePieceQuietly(K); });
  if (llvm::is_contained(Resolved, 0)) {
    State.clearEdges();
    if (!State.finish())
      return nullptr;
  }
  return std::move(Pieces[0].G);
}

} // namespace

std::unique_ptr<Graph> parseGraph(SourceMgr &SM, unsigned BufferID,
                                  const ParseOptions &Opts) {
  const MemoryBuffer *Buf = SM.getMemoryBuffer(BufferID);
  // A UTF-8 byte-order mark, which some editors write, is not part of the
  // text.
  const char *Begin = Buf->getBufferStart(), *End = Buf->getBufferEnd();
  if (Buf->getBuffer().starts_with("\xEF\xBB\xBF"))
    Begin += 3;
  if (Opts.PiecesRead)
    *Opts.PiecesRead = 1;
  // A stage that failed earlier in a pipe writes nothing; a syntax error
  // at 1:1 would blame the wrong tool.
  if (StringRef(Begin, End - Begin).trim().empty()) {
    printLocated(SM, SMLoc::getFromPointer(Begin), SourceMgr::DK_Error,
                 "empty input: expected a graph (did an earlier tool of the "
                 "pipe fail?)");
    return nullptr;
  }
  if (threadsOf(Opts) > 1)
    if (std::optional<std::unique_ptr<Graph>> G =
            parseInPieces(SM, Begin, End, Opts))
      return std::move(*G);
  Piece Whole;
  Whole.Begin = Begin;
  Whole.Limit = End;
  countBytes(Whole);
  parsePiece(SM, Whole, End, /*LaterPiece=*/false, /*Quiet=*/false);
  if (!Whole.Ok || !Whole.PS->finish())
    return nullptr;
  return std::move(Whole.G);
}

std::unique_ptr<Graph> parseGraphString(StringRef Text, SourceMgr &SM,
                                        StringRef BufferName,
                                        const ParseOptions &Opts) {
  unsigned ID = SM.AddNewSourceBuffer(
      MemoryBuffer::getMemBufferCopy(Text, BufferName), SMLoc());
  return parseGraph(SM, ID, Opts);
}

} // namespace dan
