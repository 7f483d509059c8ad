//===- Printer.h - Canonical text form of the DAN IR ------------*- C++ -*-===//

#ifndef DAN_IR_PRINTER_H
#define DAN_IR_PRINTER_H

#include "llvm/Support/raw_ostream.h"

namespace dan {
class Graph;

/// Prints \p G in canonical form: parsing the output and printing it again
/// gives the same bytes.
void printGraph(const Graph &G, llvm::raw_ostream &OS);

} // namespace dan

#endif // DAN_IR_PRINTER_H
