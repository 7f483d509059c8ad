//===- dan-fuzz-submission.cpp - Fuzz the submission importer -------------===//
//
// The input carries the graph and the triple: the graph (DAN IR, or contest
// JSON when it starts with '{'), then sections introduced by the lines
// "%% schedule", "%% memory" and "%% spill". A missing schedule section is an
// empty schedule file; a missing memory or spill section is a missing file.
// What applies must print as IR that parses back to the same text, and goes
// through the verifier and the replay like dan-fuzz-pipeline's inputs.
//
//===----------------------------------------------------------------------===//

#include "FuzzSupport.h"
#include "dan/Formats/Formats.h"
#include "dan/Formats/Submission.h"

using namespace llvm;
using namespace dan;

extern "C" int LLVMFuzzerTestOneInput(const uint8_t *Data, size_t Size) {
  StringRef GraphText;
  std::vector<std::optional<StringRef>> Sections;
  if (!fuzz::splitSections(
          StringRef(reinterpret_cast<const char *>(Data), Size),
          {"schedule", "memory", "spill"}, GraphText, Sections))
    return -1;
  SourceMgr SM;
  fuzz::quietDiagnostics(SM);
  unsigned GraphID = fuzz::addBuffer(SM, GraphText, "input.dan");
  std::unique_ptr<Graph> G = importGraph(SM, GraphID, "input");
  if (!G)
    return 0;
  SubmissionBuffers Files;
  Files.Schedule =
      fuzz::addBuffer(SM, Sections[0].value_or(""), "input_schedule.txt");
  if (Sections[1])
    Files.Memory = fuzz::addBuffer(SM, *Sections[1], "input_memory.txt");
  if (Sections[2])
    Files.Spill = fuzz::addBuffer(SM, *Sections[2], "input_spill.txt");
  if (!applySubmission(*G, SM, Files))
    return 0;
  fuzz::checkRoundTrip(*G);
  fuzz::checkVerifyAndReplay(*G, SM);
  return 0;
}
