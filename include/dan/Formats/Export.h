//===- Export.h - Writing the contest's formats and DOT ----------*- C++
//-*-===//

#ifndef DAN_FORMATS_EXPORT_H
#define DAN_FORMATS_EXPORT_H

#include "dan/IR/Graph.h"
#include "dan/Target/Target.h"
#include "llvm/Support/Error.h"
#include "llvm/Support/raw_ostream.h"

namespace dan {

/// Contest JSON, nodes in schedule order. With a memory plan it adds each
/// placement's "Offset", the spill nodes (with the pipe and cycles the
/// target gives them) and "ReuseEdges"; importJSON reads all of it back.
void exportJSON(const Graph &G, const TargetDesc &T, llvm::raw_ostream &OS);

/// The submission triple: the schedule, the ALLOC offsets by buffer id and
/// the spills in spill order. Memory and Spill are empty without a plan.
struct Submission {
  std::string Schedule, Memory, Spill;
};
/// Fails when the plan is incomplete (an alloc or spill_in without offset).
llvm::Expected<Submission> exportSubmission(const Graph &G);

/// Graphviz: input edges solid, spill nodes and their edges orange, reuse
/// edges dashed.
void exportDot(const Graph &G, llvm::raw_ostream &OS);

} // namespace dan

#endif // DAN_FORMATS_EXPORT_H
