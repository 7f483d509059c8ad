//===- Submission.h - The submission triple: reader and writer --*- C++ -*-===//
//
// <name>_schedule.txt, <name>_memory.txt and <name>_spill.txt: a schedule and
// the memory plan of a graph given apart. docs/CommandGuide/dan-translate.md
// describes the files.
//
//===----------------------------------------------------------------------===//

#ifndef DAN_FORMATS_SUBMISSION_H
#define DAN_FORMATS_SUBMISSION_H

#include "dan/IR/Graph.h"
#include "llvm/Support/Error.h"
#include "llvm/Support/SourceMgr.h"
#include <optional>
#include <string>
#include <vector>

namespace dan {

/// The suffixes of the triple's files, after "<name>_".
constexpr const char *SubmissionSuffixes[] = {"schedule.txt", "memory.txt",
                                              "spill.txt"};

/// The triple's paths in \p Dir: DIR/<GraphName>_schedule.txt, _memory.txt,
/// _spill.txt, in SubmissionSuffixes order.
std::vector<std::string> submissionPaths(llvm::StringRef Dir,
                                         llvm::StringRef GraphName);

/// Where a triple is read: DIR/<GraphName>_ when \p Where is a directory, or
/// the prefix of a given "..._schedule.txt" path. The files are the prefix
/// followed by each of SubmissionSuffixes.
std::string submissionPrefix(llvm::StringRef Where, llvm::StringRef GraphName);

/// Buffers of a submission triple; memory and spill are optional (a
/// stage-1 result has only a schedule).
struct SubmissionBuffers {
  unsigned Schedule;
  std::optional<unsigned> Memory;
  std::optional<unsigned> Spill;
};

/// Applies a submission to \p G, replacing any memory plan it has: sets the
/// schedule, the offsets, creates the spill nodes (spill k is SPILL_OUT
/// N + 2k and SPILL_IN N + 2k + 1) and the edges the plan implies. Reports
/// errors through \p SM; returns whether it succeeded.
bool applySubmission(Graph &G, llvm::SourceMgr &SM,
                     const SubmissionBuffers &Files);

/// The submission triple: the schedule, the ALLOC offsets by buffer id and
/// the spills in spill order. Memory and Spill are empty without a plan.
struct Submission {
  std::string Schedule, Memory, Spill;
};
/// Fails when the ids are not dense or the plan is incomplete (an alloc or
/// spill_in without offset).
llvm::Expected<Submission> exportSubmission(const Graph &G);

} // namespace dan

#endif // DAN_FORMATS_SUBMISSION_H
