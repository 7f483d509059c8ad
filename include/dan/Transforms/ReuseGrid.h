//===- ReuseGrid.h - Cache-blocked task order for MPAS ----------*- C++ -*-===//
//
// Tiled loop nests (a matmul's M x N output tiles, each reading a row of A
// tiles and a column of B tiles) reach the scheduler as many independent
// tasks that share DDR-backed input buffers. Which task runs next decides
// how often stage 2 must reload those inputs; the order that minimizes
// reloads is the cache-blocked one a loop-tiling compiler would choose.
// findReuseGrid recovers the grid from the graph alone and picks the
// blocking by simulation; see docs/MPAS.md.
//
//===----------------------------------------------------------------------===//

#ifndef DAN_TRANSFORMS_REUSEGRID_H
#define DAN_TRANSFORMS_REUSEGRID_H

#include "dan/IR/Graph.h"
#include "dan/Target/Target.h"
#include <optional>
#include <vector>

namespace dan {

struct ReuseGrid {
  /// Lines of the two families (rows and columns of the grid).
  unsigned Rows = 0, Cols = 0;
  /// The chosen blocking: strips of StripWidth lines of the inner family,
  /// the outer family walked back and forth inside each strip.
  unsigned StripWidth = 0;
  bool StripsOfColumns = true;
  /// Bytes of reloads the simulation predicts for the chosen order, and for
  /// the plain row-by-row walk (what the blocking saves).
  uint64_t SimulatedReloadBytes = 0, RowWalkReloadBytes = 0;
  /// Per node: 1 + the position of its task in the chosen order; 0 for
  /// nodes outside every task (FREEs included, which run when ready).
  std::vector<uint32_t> Rank;
};

/// Finds the reuse grid of \p G, or nothing if its tasks do not form one.
/// A task is a connected part of the graph once the DDR-backed buffers
/// (those a COPY_IN fills) and their COPY_INs are taken out; a line is a
/// set of DDR-backed buffers read by exactly the same tasks. The graph has
/// a grid when every task reads exactly two lines, one of each family, and
/// every (row, column) pair is exactly one task.
std::optional<ReuseGrid> findReuseGrid(const Graph &G, const TargetDesc &T);

} // namespace dan

#endif // DAN_TRANSFORMS_REUSEGRID_H
