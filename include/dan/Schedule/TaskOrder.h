//===- TaskOrder.h - One task at a time, cache-blocked on a grid ----------===//
//
// Tiled kernels reach the scheduler as independent tasks (a matmul's output
// tiles, FlashAttention's query blocks) that share DDR-backed input
// buffers. Interleaving tasks, as a peak-minimizing list scheduler does,
// keeps many tasks' intermediates live at once; running them one at a time
// keeps one task's. Which task runs next then decides how often stage 2
// must reload the shared inputs: on a reuse grid (every task reads a row
// line and a column line) the order with the fewest reloads is the
// cache-blocked one a loop-tiling compiler would choose. findTaskOrder
// recovers the tasks and the grid from the graph alone; see docs/MPAS.md.
//
//===----------------------------------------------------------------------===//

#ifndef DAN_SCHEDULE_TASKORDER_H
#define DAN_SCHEDULE_TASKORDER_H

#include "dan/IR/Graph.h"
#include "dan/Target/Target.h"
#include "llvm/ADT/STLFunctionalExtras.h"
#include <functional>
#include <optional>
#include <vector>

namespace dan {

struct TaskOrder {
  unsigned Tasks = 0;
  /// Whether the tasks form a reuse grid; if not, they run in input order.
  bool IsGrid = false;
  /// On a grid: lines of the two families (rows and columns).
  unsigned Rows = 0, Cols = 0;
  /// On a grid, the chosen blocking: strips of StripWidth lines of the inner
  /// family, the outer family walked back and forth inside each strip.
  unsigned StripWidth = 0;
  bool StripsOfColumns = true;
  /// On a grid: bytes of reloads the simulation predicts for the chosen
  /// order, and for the plain row-by-row walk (what the blocking saves).
  uint64_t SimulatedReloadBytes = 0, RowWalkReloadBytes = 0;
  /// Per node: 1 + the position of its task in the order; 0 for nodes
  /// outside every task (FREEs included, which run when ready).
  std::vector<uint32_t> Rank;
  /// Per node: its task (numbered in input order), or UINT32_MAX for nodes
  /// outside every task.
  std::vector<uint32_t> TaskOf;
};

/// The tasks of a graph before any order is chosen (see findTaskOrder).
struct TaskSplit {
  /// Per node: its task, numbered in schedule order, or UINT32_MAX for
  /// nodes outside every task.
  std::vector<uint32_t> TaskOf;
  uint32_t NumTasks = 0;
};

/// The tasks of \p G, or nothing when it has spill nodes. O(V + E + U).
std::optional<TaskSplit> splitTasks(const Graph &G);

/// Runs Job(0) ... Job(N - 1), which are independent, in any order or at
/// once, and returns when all have finished.
using ForEachIndex =
    std::function<void(size_t N, llvm::function_ref<void(size_t)> Job)>;

/// The task order of \p G, or nothing if it has fewer than two tasks.
/// A task is a connected part of the graph once the DDR-backed buffers
/// (those a COPY_IN fills) and their COPY_INs are taken out; a line is a
/// set of DDR-backed buffers read by exactly the same tasks. The graph has
/// a grid when every task reads exactly two lines, one of each family, and
/// every (row, column) pair is exactly one task.
/// On a grid, the candidate blockings are simulated through \p ForEach
/// (default: one after the other); the choice does not depend on it.
std::optional<TaskOrder> findTaskOrder(const Graph &G, const TargetDesc &T,
                                       ForEachIndex ForEach = nullptr);

/// A sample of \p G on which to rank settings when the graph is too large
/// to try them all on: the nodes of its first tasks in input order (as
/// many as hold at most \p MaxNodes nodes, but at least \p MinTasks), the
/// nodes outside every task they need (the ALLOC, COPY_IN and FREE of each
/// DDR-backed buffer they read) and the predecessors of those, in schedule
/// order, for extractPart (dan/IR/Components.h) to cut out; \p Taken
/// receives the number of tasks. Empty when that would be every task, or
/// when a node they need belongs to a later task. O(V + E).
std::vector<NodeIdx> leadingTasks(const Graph &G, const TaskOrder &Tasks,
                                  size_t MaxNodes, unsigned MinTasks,
                                  unsigned &Taken);

/// The sample of a graph without tasks (leadingTasks' counterpart): its
/// operations in schedule order, each with its predecessors (but a FREE's)
/// and every node of each buffer it names, until the sample holds at least
/// \p MaxNodes / 2 nodes; a FREE keeps only the edges from the sample
/// (extractPart drops the others). Empty when that would be at least
/// \p MaxNodes nodes, or every node. O(V + E).
std::vector<NodeIdx> leadingNodes(const Graph &G, size_t MaxNodes);

} // namespace dan

#endif // DAN_SCHEDULE_TASKORDER_H
