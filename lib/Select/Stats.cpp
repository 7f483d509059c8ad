//===- Stats.cpp - What each stage's selection did, for --stats -----------===//

#include "dan/Select/Stats.h"
#include "llvm/Support/Format.h"
#include "llvm/Support/JSON.h"
#include <string>

using namespace llvm;

namespace dan {

/// --stats-json: one object, the tool and the graph first, then what
/// \p Body writes, and a newline.
static void printJSONObject(raw_ostream &OS, StringRef Tool, const Graph &G,
                            function_ref<void(json::OStream &)> Body) {
  json::OStream J(OS, 2);
  J.object([&] {
    J.attribute("tool", Tool);
    J.attribute("graph", G.Name);
    Body(J);
  });
  OS << "\n";
}

/// How --stats names an order: "groups of N" or "groups of all" with the
/// group size.
static std::string orderName(Traversal O, unsigned G) {
  std::string Name = traversalName(O).str();
  if (O == Traversal::Groups)
    Name += G ? " of " + std::to_string(G) : " of all";
  return Name;
}

/// Whether \p Trial is the candidate kept.
/// How --stats names a composition of a graph's kernels.
static StringRef compositionName(CompositionKind K) {
  switch (K) {
  case CompositionKind::InTurn:
    return "in-turn";
  case CompositionKind::Whole:
    return "whole";
  }
  llvm_unreachable("composition without a name");
}

static bool isKept(const MPASStats &S, const MPASStats::L0Trial &Trial) {
  return Trial.Mode == S.L0Chosen && Trial.Order == S.OrderChosen &&
         Trial.Placed == S.Placed &&
         (Trial.Order != Traversal::Groups || Trial.Group == S.GroupChosen);
}

/// --stats: what the stage did, in lines.
static void printMPASText(raw_ostream &OS, const Graph &G, const MPASStats &S,
                          bool KeptInput) {
  OS << "dan-mpas: @" << G.Name << ": peak " << G.Target.peakTierNames() << ' '
     << S.PeakL1UB << ", L0 fallbacks " << S.Fallbacks << ", weights "
     << (S.Chosen ? weightsName(*S.Chosen) : "none");
  // The input order kept: no L0 rule and no traversal made it.
  if (KeptInput)
    OS << ", l0 none, order input\n";
  else
    OS << ", l0 " << l0ModeName(S.L0Chosen) << ", order "
       << orderName(S.OrderChosen, S.GroupChosen)
       << (S.Placed ? "" : ", not placed") << '\n';
  if (S.Tasks && S.Tasks->IsGrid)
    OS << "dan-mpas:   tasks: " << S.Tasks->Tasks << ", a reuse grid "
       << S.Tasks->Rows << " x " << S.Tasks->Cols << ": strips of "
       << (S.Tasks->StripsOfColumns ? "columns" : "rows") << ", "
       << S.Tasks->StripWidth << " wide, simulated reloads "
       << S.Tasks->SimulatedReloadBytes
       << " bytes (row by row: " << S.Tasks->RowWalkReloadBytes << ")\n";
  else if (S.Tasks)
    OS << "dan-mpas:   tasks: " << S.Tasks->Tasks
       << ", no reuse grid: in input order\n";
  auto PrintTrial = [&](StringRef Where, const MPASStats::L0Trial &Trial,
                        bool Kept) {
    OS << "dan-mpas:   " << Where << "tried l0 " << l0ModeName(Trial.Mode)
       << ", order " << orderName(Trial.Order, Trial.Group)
       << (Trial.Placed ? "" : ", not placed") << ": peak "
       << G.Target.peakTierNames() << ' ' << Trial.PeakL1UB;
    if (Trial.Planned)
      OS << ", stage-2 traffic " << Trial.Traffic << ", makespan "
         << Trial.Makespan;
    else
      OS << ", dan-dlr cannot plan it";
    OS << (Kept ? " (kept)" : "") << '\n';
  };
  if (S.SampleNodes) {
    OS << "dan-mpas:   ranked on a sample: the first ";
    if (S.SampleTasks)
      OS << S.SampleTasks << " tasks, ";
    OS << S.SampleNodes << " nodes; the best " << S.L0Tried.size()
       << " tried on the whole graph\n";
    for (const MPASStats::L0Trial &Trial : S.SampleTried)
      PrintTrial("on the sample, ", Trial, false);
  }
  for (const MPASStats::L0Trial &Trial : S.L0Tried)
    PrintTrial("", Trial, isKept(S, Trial));
  for (auto [W, Peak] : S.Tried)
    OS << "dan-mpas:   tried " << weightsName(W) << ": peak "
       << G.Target.peakTierNames() << ' ' << Peak
       << (W == S.Chosen ? " (kept)" : "") << '\n';
  for (const MPASStats::Composition &C : S.Compositions) {
    OS << "dan-mpas:   " << S.Kernels << " kernels " << compositionName(C.Kind)
       << ": ";
    if (C.Planned)
      OS << "stage-2 traffic " << C.Traffic << ", spills " << C.Spills
         << ", makespan " << C.Makespan;
    else
      OS << "not planned";
    if (C.PipeMakespan)
      OS << "; after dan-dlr and dan-cpe, makespan " << *C.PipeMakespan;
    OS << (C.Kept ? " (kept)" : "") << '\n';
  }
  if (S.AlikeParts)
    OS << "dan-mpas:   kernels alike an earlier one up to their ids: "
       << S.AlikeParts << " of " << S.Parts << " (its order renamed)\n";
}

/// --stats-json: the same figures, as attributes of an object.
void writeMPASStatsJSON(json::OStream &J, const Graph &G, const MPASStats &S,
                        bool KeptInput) {
  J.attribute("peak_l1ub", S.PeakL1UB);
  J.attribute("l0_fallbacks", S.Fallbacks);
  J.attribute("weights",
              S.Chosen ? json::Value(weightsName(*S.Chosen)) : nullptr);
  J.attribute("l0", KeptInput ? json::Value(nullptr)
                              : json::Value(l0ModeName(S.L0Chosen)));
  J.attribute("order", KeptInput ? std::string("input")
                                 : orderName(S.OrderChosen, S.GroupChosen));
  J.attribute("placed", S.Placed);
  J.attribute("parts", uint64_t(S.Parts));
  if (S.Parts > 1)
    J.attribute("alike_parts", uint64_t(S.AlikeParts));
  if (S.Kernels) {
    J.attribute("kernels", uint64_t(S.Kernels));
    J.attributeArray("compositions", [&] {
      for (const MPASStats::Composition &C : S.Compositions)
        J.object([&] {
          J.attribute("kind", compositionName(C.Kind));
          J.attribute("planned", C.Planned);
          if (C.Planned) {
            J.attribute("traffic", C.Traffic);
            J.attribute("spills", C.Spills);
            J.attribute("makespan", C.Makespan);
          }
          if (C.PipeMakespan)
            J.attribute("pipe_makespan", *C.PipeMakespan);
          J.attribute("kept", C.Kept);
        });
    });
  }
  if (S.Tasks)
    J.attributeObject("tasks", [&] {
      J.attribute("tasks", S.Tasks->Tasks);
      J.attribute("grid", S.Tasks->IsGrid);
      if (S.Tasks->IsGrid) {
        J.attribute("rows", S.Tasks->Rows);
        J.attribute("cols", S.Tasks->Cols);
        J.attribute("strips_of", S.Tasks->StripsOfColumns ? "columns" : "rows");
        J.attribute("strip_width", S.Tasks->StripWidth);
        J.attribute("simulated_reload_bytes", S.Tasks->SimulatedReloadBytes);
        J.attribute("row_walk_reload_bytes", S.Tasks->RowWalkReloadBytes);
      }
    });
  auto Trials = [&](ArrayRef<MPASStats::L0Trial> List, bool MarkKept) {
    for (const MPASStats::L0Trial &Trial : List)
      J.object([&] {
        J.attribute("l0", l0ModeName(Trial.Mode));
        J.attribute("order", orderName(Trial.Order, Trial.Group));
        J.attribute("placed", Trial.Placed);
        J.attribute("peak_l1ub", Trial.PeakL1UB);
        J.attribute("planned", Trial.Planned);
        if (Trial.Planned) {
          J.attribute("stage2_traffic", Trial.Traffic);
          J.attribute("makespan", Trial.Makespan);
        }
        if (MarkKept)
          J.attribute("kept", isKept(S, Trial));
      });
  };
  if (S.SampleNodes)
    J.attributeObject("sample", [&] {
      if (S.SampleTasks)
        J.attribute("tasks", S.SampleTasks);
      J.attribute("nodes", uint64_t(S.SampleNodes));
      J.attributeArray("candidates", [&] { Trials(S.SampleTried, false); });
    });
  J.attributeArray("candidates", [&] { Trials(S.L0Tried, true); });
  J.attributeArray("weights_tried", [&] {
    for (auto [W, Peak] : S.Tried)
      J.object([&] {
        J.attribute("weights", weightsName(W));
        J.attribute("peak_l1ub", Peak);
        J.attribute("kept", W == S.Chosen);
      });
  });
}

static void printDLRText(raw_ostream &OS, const Graph &G, const DLRStats &S) {
  std::string Head = "dan-dlr: @" + G.Name + ": ";
  OS << Head << "spills " << S.Spills << ", extra traffic " << S.ExtraTraffic
     << ", spill cycles " << S.SpillCycles << "\n";
  OS << Head << "evictions";
  for (unsigned TI = 0; TI != G.Target.numTiers(); ++TI)
    OS << (TI ? ", " : " ") << G.Target.tierName(static_cast<Tier>(TI)) << ' '
       << S.Evictions[TI];
  OS << "\n";
  OS << Head << "reloads before free " << S.ReloadsBeforeFree
     << ", pinned spills " << S.PinnedSpills << "\n";
  OS << Head << "fit " << fitName(S.Fit) << ", release horizon ";
  if (S.Horizon)
    OS << S.Horizon << "\n";
  else
    OS << "none\n";
  for (const DLRStats::HorizonTrial &Trial : S.HorizonTried) {
    OS << Head << "  tried fit " << fitName(Trial.Fit) << ", horizon ";
    if (Trial.Horizon)
      OS << Trial.Horizon;
    else
      OS << "none";
    if (Trial.Planned)
      OS << ": traffic " << Trial.Traffic << ", makespan " << Trial.Makespan;
    else
      OS << ": no plan";
    OS << (Trial.Planned && Trial.Horizon == S.Horizon && Trial.Fit == S.Fit
               ? " (kept)"
               : "")
       << "\n";
  }
  if (S.AlikeParts)
    OS << Head << "parts alike an earlier one up to their ids: " << S.AlikeParts
       << " of " << S.Parts << " (its plan renamed)\n";
}

/// --stats-json: the same figures, as attributes of an object.
void writeDLRStatsJSON(json::OStream &J, const Graph &G, const DLRStats &S) {
  auto Horizon = [](uint32_t H) {
    return H ? json::Value(uint64_t(H)) : json::Value(nullptr);
  };
  J.attribute("spills", S.Spills);
  J.attribute("extra_traffic", S.ExtraTraffic);
  J.attribute("spill_cycles", S.SpillCycles);
  J.attributeObject("evictions", [&] {
    for (unsigned TI = 0; TI != G.Target.numTiers(); ++TI)
      J.attribute(G.Target.tierName(static_cast<Tier>(TI)), S.Evictions[TI]);
  });
  J.attribute("reloads_before_free", S.ReloadsBeforeFree);
  J.attribute("pinned_spills", S.PinnedSpills);
  J.attribute("fit", fitName(S.Fit));
  J.attribute("horizon", Horizon(S.Horizon));
  J.attribute("parts", uint64_t(S.Parts));
  if (S.Parts > 1)
    J.attribute("alike_parts", uint64_t(S.AlikeParts));
  J.attributeArray("tried", [&] {
    for (const DLRStats::HorizonTrial &Trial : S.HorizonTried)
      J.object([&] {
        J.attribute("fit", fitName(Trial.Fit));
        J.attribute("horizon", Horizon(Trial.Horizon));
        J.attribute("planned", Trial.Planned);
        if (Trial.Planned) {
          J.attribute("traffic", Trial.Traffic);
          J.attribute("makespan", Trial.Makespan);
        }
        J.attribute("kept", Trial.Planned && Trial.Horizon == S.Horizon &&
                                Trial.Fit == S.Fit);
      });
  });
}

static void printCPEText(raw_ostream &OS, const Graph &G, const CPEStats &S,
                         CPEMode Mode, CPEMoveSet MoveSet) {
  auto Change = [&](uint64_t Before, uint64_t After) {
    OS << After;
    if (Before)
      OS << format(" (%+.2f%%)",
                   (double(After) - double(Before)) * 100.0 / double(Before));
    OS << '\n';
  };
  // Every line names the tool and the graph, as the other stages' do.
  std::string Head = "dan-cpe: @" + G.Name + ": ";
  OS << Head;
  switch (Mode) {
  case CPEMode::Refine:
    OS << "mode: refine\n";
    break;
  case CPEMode::Freeze:
    OS << "mode: freeze\n";
    break;
  case CPEMode::Ignore:
    OS << "mode: ignore (timed without reuse edges; not a stage-3 result)\n";
    break;
  }
  OS << Head << "makespan before: " << S.MakespanBefore << '\n';
  OS << Head << "makespan after: ";
  Change(S.MakespanBefore, S.MakespanAfter);
  if (Mode == CPEMode::Ignore) {
    OS << Head << "ignore makespan before: " << S.IgnoreMakespanBefore << '\n';
    OS << Head << "ignore makespan after: ";
    Change(S.IgnoreMakespanBefore, S.IgnoreMakespanAfter);
    OS << Head << "ownership violations: " << S.Violations << " of "
       << S.ReuseEdges << " reuse edges (input order: " << S.ViolationsBefore
       << ")\n";
    OS << Head << "reuse edges broken in order: " << S.OrderViolations << '\n';
  }
  // Parts of the schedule: its kernels run in turn and the nodes without
  // buffers between them (a SYNC), as dan-dlr counts them.
  if (S.Parts > 1)
    OS << Head << "parts: " << S.Parts << " refined alone and joined: makespan "
       << S.JoinedMakespan
       << ", then searched whole (the counts below are their sums)"
       << (S.KeptInput ? "; slower than the input, which is kept" : "") << '\n';
  if (S.AlikeParts)
    OS << Head << "parts alike an earlier one up to their ids: " << S.AlikeParts
       << " of " << S.Parts << " (its order renamed)\n";
  if (S.ListMakespan)
    OS << Head << "list schedule: makespan " << S.ListMakespan
       << (S.FromList ? " (the search started from it)\n"
                      : " (no faster than the search from the input)\n");
  OS << Head << "passes: " << S.Passes << '\n';
  OS << Head << "moves: " << S.Moves << '\n';
  OS << Head << "candidates: " << S.Candidates << " timed, " << S.Illegal
     << " illegal" << (S.HitCandidateLimit ? ", limit reached" : "") << '\n';
  if (Mode != CPEMode::Freeze && MoveSet == CPEMoveSet::OpsAndBuffers)
    OS << Head << "buffer nodes moved: " << S.BufferNodesMoved << " (in "
       << S.BufferMoves << (S.BufferMoves == 1 ? " move" : " moves") << ")\n";
  OS << Head << "nodes retimed: " << S.Retimed
     << (S.HitEffortLimit ? ", --effort limit reached" : "")
     << (S.HitTimeBudget ? ", --time-budget reached" : "") << '\n';
}

/// --stats-json: the same figures, as attributes of an object.
void writeCPEStatsJSON(json::OStream &J, const Graph &G, const CPEStats &S,
                       CPEMode Mode) {
  J.attribute("mode", enumName(cpeModeTable(), Mode));
  J.attribute("makespan_before", S.MakespanBefore);
  J.attribute("makespan_after", S.MakespanAfter);
  if (Mode == CPEMode::Ignore) {
    J.attribute("ignore_makespan_before", S.IgnoreMakespanBefore);
    J.attribute("ignore_makespan_after", S.IgnoreMakespanAfter);
    J.attribute("reuse_edges", S.ReuseEdges);
    J.attribute("ownership_violations", S.Violations);
    J.attribute("ownership_violations_before", S.ViolationsBefore);
    J.attribute("order_violations", S.OrderViolations);
  }
  if (S.ListMakespan) {
    J.attribute("list_makespan", S.ListMakespan);
    J.attribute("from_list", S.FromList);
  }
  J.attribute("passes", S.Passes);
  J.attribute("moves", S.Moves);
  J.attribute("candidates_timed", S.Candidates);
  J.attribute("candidates_illegal", S.Illegal);
  J.attribute("candidate_limit_reached", S.HitCandidateLimit);
  J.attribute("buffer_moves", S.BufferMoves);
  J.attribute("buffer_nodes_moved", S.BufferNodesMoved);
  J.attribute("nodes_retimed", S.Retimed);
  J.attribute("effort_limit_reached", S.HitEffortLimit);
  J.attribute("time_budget_reached", S.HitTimeBudget);
  J.attribute("parts", uint64_t(S.Parts));
  if (S.Parts > 1) {
    J.attribute("alike_parts", uint64_t(S.AlikeParts));
    J.attribute("joined_makespan", S.JoinedMakespan);
    J.attribute("kept_input", S.KeptInput);
  }
}

void printMPASStats(raw_ostream &OS, const Graph &G, const MPASStats &S,
                    bool KeptInput, bool AsJSON) {
  if (!AsJSON)
    return printMPASText(OS, G, S, KeptInput);
  printJSONObject(OS, "dan-mpas", G, [&](json::OStream &J) {
    writeMPASStatsJSON(J, G, S, KeptInput);
  });
}

void printDLRStats(raw_ostream &OS, const Graph &G, const DLRStats &S,
                   bool AsJSON) {
  if (!AsJSON)
    return printDLRText(OS, G, S);
  printJSONObject(OS, "dan-dlr", G,
                  [&](json::OStream &J) { writeDLRStatsJSON(J, G, S); });
}

void printCPEStats(raw_ostream &OS, const Graph &G, const CPEStats &S,
                   CPEMode Mode, CPEMoveSet Moves, bool AsJSON) {
  if (!AsJSON)
    return printCPEText(OS, G, S, Mode, Moves);
  printJSONObject(OS, "dan-cpe", G,
                  [&](json::OStream &J) { writeCPEStatsJSON(J, G, S, Mode); });
}

} // namespace dan
