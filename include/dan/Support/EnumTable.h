//===- EnumTable.h - One table per option enum ------------------*- C++ -*-===//
//
// An enum that users choose on a command line is described once, by a table
// of its values with their spellings and one-line descriptions. The table
// gives the printed name of a value (statistics, reports) and the lookup of a
// spelling; the tools turn the same table into their cl::opt values
// (enumValues in tools/common/ToolSupport.h), so a name can never differ
// between --help, the parser of the option and what the tools print.
//
//===----------------------------------------------------------------------===//

#ifndef DAN_SUPPORT_ENUMTABLE_H
#define DAN_SUPPORT_ENUMTABLE_H

#include "llvm/ADT/ArrayRef.h"
#include "llvm/ADT/StringRef.h"
#include "llvm/Support/ErrorHandling.h"
#include <optional>
#include <vector>

namespace dan {

/// One value of an option enum: its spelling and what it means.
template <typename EnumT> struct EnumEntry {
  EnumT Value;
  llvm::StringLiteral Name;
  llvm::StringLiteral Help;
};

/// The spelling of \p Value in \p Table; every value must have an entry.
template <typename EnumT>
llvm::StringRef enumName(llvm::ArrayRef<EnumEntry<EnumT>> Table, EnumT Value) {
  for (const EnumEntry<EnumT> &E : Table)
    if (E.Value == Value)
      return E.Name;
  llvm_unreachable("enum value without an entry in its table");
}

/// The value spelled \p Name in \p Table, if any.
template <typename EnumT>
std::optional<EnumT> lookupEnum(llvm::ArrayRef<EnumEntry<EnumT>> Table,
                                llvm::StringRef Name) {
  for (const EnumEntry<EnumT> &E : Table)
    if (E.Name == Name)
      return E.Value;
  return std::nullopt;
}

/// The spellings of \p Table, in its order (for "did you mean" messages).
template <typename EnumT>
std::vector<llvm::StringRef> enumNames(llvm::ArrayRef<EnumEntry<EnumT>> Table) {
  std::vector<llvm::StringRef> Names;
  for (const EnumEntry<EnumT> &E : Table)
    Names.push_back(E.Name);
  return Names;
}

} // namespace dan

#endif // DAN_SUPPORT_ENUMTABLE_H
