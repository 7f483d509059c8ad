//===- Document.cpp - Tables and documents as text or Markdown ------------===//

#include "dan/Report/Document.h"
#include "llvm/ADT/StringRef.h"
#include <algorithm>

using namespace llvm;

namespace dan {

static const EnumEntry<ReportFormat> ReportFormats[] = {
    {ReportFormat::Text, "text", "readable tables (default)"},
    {ReportFormat::JSON, "json", "one JSON object"},
    {ReportFormat::Markdown, "md", "Markdown tables"},
};

ArrayRef<EnumEntry<ReportFormat>> reportFormats() { return ReportFormats; }

void printTextTable(const Table &T, raw_ostream &OS) {
  std::vector<size_t> W(T.Head.size(), 0);
  auto Widen = [&](const std::vector<std::string> &Row) {
    for (size_t C = 0; C != Row.size() && C != W.size(); ++C)
      W[C] = std::max(W[C], Row[C].size());
  };
  Widen(T.Head);
  for (const auto &Row : T.Rows)
    Widen(Row);
  auto Print = [&](const std::vector<std::string> &Row) {
    std::string Line;
    for (size_t C = 0; C != Row.size(); ++C) {
      if (C)
        Line += "  ";
      size_t Pad = W[C] > Row[C].size() ? W[C] - Row[C].size() : 0;
      if (C < T.Left)
        Line += Row[C] + std::string(Pad, ' ');
      else
        Line += std::string(Pad, ' ') + Row[C];
    }
    OS << StringRef(Line).rtrim() << '\n';
  };
  Print(T.Head);
  for (const auto &Row : T.Rows)
    Print(Row);
}

void printMarkdownTable(const Table &T, raw_ostream &OS) {
  auto Print = [&](const std::vector<std::string> &Row) {
    OS << '|';
    for (const std::string &C : Row)
      OS << ' ' << C << " |";
    OS << '\n';
  };
  Print(T.Head);
  OS << '|';
  for (size_t C = 0; C != T.Head.size(); ++C)
    OS << (C < T.Left ? " --- |" : " ---: |");
  OS << '\n';
  for (const auto &Row : T.Rows)
    Print(Row);
}

void Document::heading(std::string S) {
  Blocks.push_back({Block::Heading, std::move(S), {}});
}

void Document::para(std::string S) {
  Blocks.push_back({Block::Para, std::move(S), {}});
}

void Document::table(Table T) {
  Blocks.push_back({Block::Tab, "", std::move(T)});
}

void Document::print(raw_ostream &OS, bool Markdown) const {
  bool First = true;
  for (const Block &B : Blocks) {
    if (!First)
      OS << '\n';
    First = false;
    switch (B.K) {
    case Block::Heading:
      OS << (Markdown ? "### " : "== ") << B.Text << '\n';
      break;
    case Block::Para:
      OS << B.Text << '\n';
      break;
    case Block::Tab:
      Markdown ? printMarkdownTable(B.T, OS) : printTextTable(B.T, OS);
      break;
    }
  }
}

} // namespace dan
