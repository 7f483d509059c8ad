//===- Lexer.re - The DAN IR lexer (re2c source) --------------------------===//
//
// re2c turns this file into Lexer.cpp at build time. The buffer ends in a NUL
// byte, so the lexer needs no refill; a NUL before the end is an error.
//
//===----------------------------------------------------------------------===//

#include "Lexer.h"
#include "llvm/ADT/StringExtras.h"
#include "llvm/Support/JSON.h"

using namespace llvm;

namespace dan::detail {

IRParser::symbol_type Lexer::error(const char *Start, const Twine &Msg) {
  PS.error(SMLoc::getFromPointer(Start), Msg);
  return IRParser::make_YYerror(range(Start));
}

bool Lexer::parseLongInt(const char *Start, const char *Digits,
                         uint64_t &Value) {
  // Rare (parseInt reads up to twelve digits itself): getAsInteger reports
  // a value past 2^64, perhaps after leading zeros.
  if (StringRef(Digits, Cur - Digits).getAsInteger(10, Value) ||
      Value > MaxValue) {
    PS.error(SMLoc::getFromPointer(Start),
             "number " + quoteToken(StringRef(Start, Cur - Start)) +
                 " is too large; the limit is 2^40 (" + Twine(MaxValue) +
                 ")");
    return false;
  }
  return true;
}

IRParser::symbol_type Lexer::lexString(const char *Start) {
  StringRef Body(Start + 1, Cur - Start - 2);
  std::string Value;
  Value.reserve(Body.size());
  for (size_t I = 0; I != Body.size(); ++I) {
    if (Body[I] != '\\') {
      Value += Body[I];
      continue;
    }
    // The rule lets a backslash take any next byte but a line end.
    char Next = Body[I + 1];
    if (Next == '"' || Next == '\\') {
      Value += Next;
      ++I;
      continue;
    }
    if (I + 2 < Body.size() && isHexDigit(Next) && isHexDigit(Body[I + 2])) {
      Value += char(hexFromNibbles(Next, Body[I + 2]));
      I += 2;
      continue;
    }
    return error(Body.data() + I,
                 "invalid escape in a string: write '\\\"', '\\\\' or '\\' "
                 "and two hex digits");
  }
  // As the JSON format can hold it, and a terminal can show it.
  if (!json::isUTF8(Value))
    return error(Start, "a string must be valid UTF-8");
  return IRParser::make_STRING(std::move(Value), range(Start));
}

IRParser::symbol_type Lexer::lex() {
  if (StartTargetFile) {
    StartTargetFile = false;
    return IRParser::make_START_TARGET_FILE(range(Cur));
  }
  for (;;) {
    const char *Start = Cur;
    /*!re2c
      re2c:define:YYCTYPE = "unsigned char";
      re2c:define:YYCURSOR = Cur;
      re2c:define:YYMARKER = Marker;
      re2c:yyfill:enable = 0;

      digit = [0-9];
      // Dots let an operation be named as a compiler names it (vadd.f16).
      ident = [A-Za-z_][A-Za-z0-9_.]*;

      "\x00" {
        if (Start >= End) {
          Cur = Start;
          return IRParser::make_YYEOF(range(Start));
        }
        return error(Start, "unexpected NUL byte");
      }
      [ \t\r\n]+ { continue; }
      "//" [^\n\x00]* { continue; }

      "target"    { return IRParser::make_KW_TARGET(range(Start)); }
      "graph"     { return IRParser::make_KW_GRAPH(range(Start)); }
      "alloc"     { PS.noteKeyword(ParseState::StmtKeyword::Alloc);
                    return IRParser::make_KW_ALLOC(range(Start)); }
      "free"      { PS.noteKeyword(ParseState::StmtKeyword::Free);
                    return IRParser::make_KW_FREE(range(Start)); }
      "spill_out" { PS.noteKeyword(ParseState::StmtKeyword::SpillOut);
                    return IRParser::make_KW_SPILL_OUT(range(Start)); }
      "spill_in"  { PS.noteKeyword(ParseState::StmtKeyword::SpillIn);
                    return IRParser::make_KW_SPILL_IN(range(Start)); }
      "at"        { return IRParser::make_KW_AT(range(Start)); }
      "after"     { return IRParser::make_KW_AFTER(range(Start)); }
      "reuse"     { return IRParser::make_KW_REUSE(range(Start)); }
      "reads"     { return IRParser::make_KW_READS(range(Start)); }
      "writes"    { return IRParser::make_KW_WRITES(range(Start)); }

      "n" digit+ {
        uint64_t V = 0;
        if (!parseInt(Start, Start + 1, V))
          return IRParser::make_YYerror(range(Start));
        return IRParser::make_NODEID(V, range(Start));
      }
      "b" digit+ {
        uint64_t V = 0;
        if (!parseInt(Start, Start + 1, V))
          return IRParser::make_YYerror(range(Start));
        return IRParser::make_BUFID(V, range(Start));
      }
      digit+ {
        uint64_t V = 0;
        if (!parseInt(Start, Start, V))
          return IRParser::make_YYerror(range(Start));
        return IRParser::make_INT(V, range(Start));
      }
      "-" digit+ {
        return error(Start, "negative number '" +
                                StringRef(Start, Cur - Start) +
                                "'; sizes, cycles, offsets and ids are "
                                "non-negative");
      }
      "@" [A-Za-z0-9_.$-]+ {
        return IRParser::make_SYMBOL(StringRef(Start + 1, Cur - Start - 1),
                                     range(Start));
      }
      "@" { return error(Start, "expected a name after '@'"); }
      ["] ([^"\\\n\x00] | "\\" [^\n\x00])* ["] { return lexString(Start); }
      ["] {
        return error(Start, "unterminated string: a string ends with '\"' "
                            "on its line");
      }
      ident {
        return IRParser::make_IDENT(StringRef(Start, Cur - Start),
                                    range(Start));
      }

      // '=' starts the body of a statement (or a target value).
      "=" { PS.noteStmtStart(); return IRParser::make_EQUAL(range(Start)); }
      "," { return IRParser::make_COMMA(range(Start)); }
      "(" { return IRParser::make_LPAREN(range(Start)); }
      ")" { return IRParser::make_RPAREN(range(Start)); }
      "{" { return IRParser::make_LBRACE(range(Start)); }
      "[" { return IRParser::make_LBRACKET(range(Start)); }
      "]" { return IRParser::make_RBRACKET(range(Start)); }
      "}" { return IRParser::make_RBRACE(range(Start)); }
      "+" { return IRParser::make_PLUS(range(Start)); }
      "*" { return IRParser::make_STAR(range(Start)); }

      * {
        unsigned char C = static_cast<unsigned char>(*Start);
        if (isPrint(C))
          return error(Start, "unexpected character '" + Twine(char(C)) +
                                  "'");
        return error(Start, "unexpected byte 0x" + utohexstr(C, false, 2));
      }
    */
  }
}

} // namespace dan::detail
