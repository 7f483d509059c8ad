//===- Document.h - Tables and documents as text or Markdown ----*- C++ -*-===//
//
// The one table printer of the reports: a table is printed as padded
// columns (text) or as a Markdown table; a document of headings,
// paragraphs and tables is printed either way. dan-replay's and dan-bench's
// reports print through it.
//
//===----------------------------------------------------------------------===//

#ifndef DAN_REPORT_DOCUMENT_H
#define DAN_REPORT_DOCUMENT_H

#include "dan/Support/EnumTable.h"
#include "llvm/Support/raw_ostream.h"
#include <string>
#include <vector>

namespace dan {

/// The formats a report is printed in.
enum class ReportFormat { Text, JSON, Markdown };
/// Their spellings and descriptions, text and JSON first: a report without
/// a Markdown form (dan-replay's) offers the first two.
llvm::ArrayRef<EnumEntry<ReportFormat>> reportFormats();

/// Rows of cells under a head row; the first Left columns are left-aligned,
/// the rest right-aligned.
struct Table {
  unsigned Left = 1;
  std::vector<std::string> Head;
  std::vector<std::vector<std::string>> Rows;
};

/// Each column padded to its widest cell (of the columns the head has), two
/// spaces apart, trailing blanks trimmed.
void printTextTable(const Table &T, llvm::raw_ostream &OS);
/// A Markdown table: the head, the alignment row, the rows.
void printMarkdownTable(const Table &T, llvm::raw_ostream &OS);

/// Headings, paragraphs and tables, printed with a blank line between
/// blocks: as text ("== heading") or as Markdown ("### heading").
class Document {
public:
  void heading(std::string S);
  void para(std::string S);
  void table(Table T);
  void print(llvm::raw_ostream &OS, bool Markdown) const;

private:
  struct Block {
    enum Kind { Heading, Para, Tab } K;
    std::string Text;
    Table T;
  };
  std::vector<Block> Blocks;
};

} // namespace dan

#endif // DAN_REPORT_DOCUMENT_H
