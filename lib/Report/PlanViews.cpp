//===- PlanViews.cpp - A planned graph's views as SVG files ---------------===//
//
// The views of a planned graph, each as a file: the occupancy
// (OccupancyView.cpp) when the graph has a memory plan, and the pipe
// timeline (TimelineView.cpp).
//
//===----------------------------------------------------------------------===//

#include "dan/Report/PlanViews.h"
#include "llvm/ADT/StringRef.h"
#include "llvm/Support/raw_ostream.h"

using namespace llvm;

namespace dan::svg {

std::vector<std::pair<std::string, std::string>>
drawPlanViews(const Graph &G, const ReplayResult &R, const TargetDesc &T) {
  std::vector<std::pair<std::string, std::string>> Files;
  auto Draw = [&](StringRef Suffix, auto Writer) {
    std::string SVG;
    raw_string_ostream OS(SVG);
    Writer(G, R, T, OS);
    Files.emplace_back(G.Name + Suffix.str(), std::move(SVG));
  };
  if (G.hasMemoryPlan())
    Draw("-occupancy.svg", writeOccupancy);
  Draw("-pipes.svg", writePipeTimeline);
  return Files;
}

} // namespace dan::svg
