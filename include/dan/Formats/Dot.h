//===- Dot.h - Writing Graphviz DOT -----------------------------*- C++ -*-===//

#ifndef DAN_FORMATS_DOT_H
#define DAN_FORMATS_DOT_H

#include "dan/IR/Graph.h"
#include "llvm/Support/raw_ostream.h"

namespace dan {

/// Graphviz: input edges solid, spill nodes and their edges orange, reuse
/// edges dashed. DOT is written only; there is no reader.
void exportDot(const Graph &G, llvm::raw_ostream &OS);

} // namespace dan

#endif // DAN_FORMATS_DOT_H
