//===- Stats.h - What each stage's selection did, for --stats ---*- C++ -*-===//
//
// The figures a stage tool prints with --stats (lines of text) or
// --stats-json (one JSON object): the stage's result, the candidates its
// selection tried and the one it kept.
//
//===----------------------------------------------------------------------===//

#ifndef DAN_SELECT_STATS_H
#define DAN_SELECT_STATS_H

#include "dan/IR/Graph.h"
#include "dan/Transforms/CPE.h"
#include "dan/Transforms/DLR.h"
#include "dan/Transforms/MPAS.h"
#include "llvm/Support/JSON.h"
#include "llvm/Support/raw_ostream.h"

namespace dan {

/// dan-mpas's figures of \p G; \p KeptInput: the input order was kept
/// (--strategy=input), so no L0 rule or traversal made it.
void printMPASStats(llvm::raw_ostream &OS, const Graph &G, const MPASStats &S,
                    bool KeptInput, bool AsJSON);
/// dan-dlr's figures of \p G.
void printDLRStats(llvm::raw_ostream &OS, const Graph &G, const DLRStats &S,
                   bool AsJSON);
/// dan-cpe's figures of \p G, refined under \p Mode with \p Moves.
void printCPEStats(llvm::raw_ostream &OS, const Graph &G, const CPEStats &S,
                   CPEMode Mode, CPEMoveSet Moves, bool AsJSON);

/// The figures of --stats-json, as attributes of the object \p J is
/// writing: what printMPASStats, printDLRStats and printCPEStats write
/// after "tool" and "graph" (dan-opt writes one such object per pass).
void writeMPASStatsJSON(llvm::json::OStream &J, const Graph &G,
                        const MPASStats &S, bool KeptInput);
void writeDLRStatsJSON(llvm::json::OStream &J, const Graph &G,
                       const DLRStats &S);
void writeCPEStatsJSON(llvm::json::OStream &J, const Graph &G,
                       const CPEStats &S, CPEMode Mode);

} // namespace dan

#endif // DAN_SELECT_STATS_H
