//===- Lint.h - Warnings about graphs that verify ---------------*- C++ -*-===//
//
// A graph can be legal and still not mean what its author meant. The lint
// finds three such cases, each a warning at the node it is about:
//
//  - an operation uses a buffer and no path of edges orders it after the
//    buffer's first use (which fills it), so the replay may run them at
//    once on that buffer. Later uses are not compared with each other:
//    most are reads of the same data, which a graph cannot tell from
//    writes;
//  - a buffer is allocated but no operation uses it;
//  - an operation uses no buffer.
//
// Warnings never make a graph invalid; the tools print them after the
// verifier has accepted the graph (-w hides them, --Werror makes them errors).
//
//===----------------------------------------------------------------------===//

#ifndef DAN_ANALYSIS_LINT_H
#define DAN_ANALYSIS_LINT_H

#include "dan/Analysis/Verifier.h"
#include "dan/IR/Graph.h"

namespace dan {

/// Reports each warning on \p G (which must verify: its schedule must
/// respect its edges) through \p Diag as DK_Warning, with notes, in schedule
/// order of the node warned about. Returns the number of warnings.
/// O(V + E) for the unused buffers and operations; for the unordered uses,
/// one search from a buffer's first use, for the other uses without an
/// edge from it, each bounded by that use's place in the schedule
/// (docs/Verifier.md, "Warnings").
unsigned lintGraph(const Graph &G, const DiagHandler &Diag);

} // namespace dan

#endif // DAN_ANALYSIS_LINT_H
