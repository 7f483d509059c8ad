//===- PathFinder.h - Paths of edges from one node to many ------*- C++ -*-===//
//
// Private to lib/Analysis: the questions "does a path of edges lead from A
// to B?" that the verifier (a buffer's uses after its alloc and before its
// free, a tile's reads after its write) and the lint (a buffer's uses after
// its first) ask, for one A and many B.
//
//===----------------------------------------------------------------------===//

#ifndef DAN_LIB_ANALYSIS_PATHFINDER_H
#define DAN_LIB_ANALYSIS_PATHFINDER_H

#include "dan/IR/Graph.h"
#include "dan/Support/CSR.h"
#include "llvm/ADT/ArrayRef.h"
#include "llvm/ADT/STLExtras.h"
#include "llvm/ADT/SmallVector.h"
#include <algorithm>
#include <cassert>
#include <cstdint>
#include <functional>
#include <optional>
#include <queue>
#include <string>
#include <tuple>
#include <vector>

namespace dan::detail {

/// A cycle of edges as the messages write it, "n3 -> n5 -> n3", from its
/// node earliest in the schedule (\p Pos), which \p First is set to.
/// \p Backward walks the cycle against its edges (each node a predecessor
/// of the one before), as a walk back from a node left unranked finds it.
inline std::string cycleText(const Graph &G, std::vector<NodeIdx> Backward,
                             llvm::ArrayRef<uint32_t> Pos, NodeIdx &First) {
  std::reverse(Backward.begin(), Backward.end());
  std::rotate(
      Backward.begin(),
      llvm::min_element(Backward,
                        [&](NodeIdx A, NodeIdx B) { return Pos[A] < Pos[B]; }),
      Backward.end());
  std::string Text;
  for (NodeIdx I : Backward)
    Text += "n" + std::to_string(G[I].Id) + " -> ";
  First = Backward.front();
  return Text + "n" + std::to_string(G[First].Id);
}

/// Answers "is there a path from A to B?" for nodes ranked in a
/// topological order (\p Rank: every edge goes from a lower rank to a
/// higher one), for one A and each B after it: a depth-first search from A
/// that stops once it has reached B and never expands a node ranked after
/// B, since no such node can reach B. The nodes reached but not expanded
/// are kept, so that the question about a later B goes on from there: the
/// questions about one A cost at most one search, and each ends as soon as
/// the search reaches B or a node with an edge to B, once the node it was
/// expanding is expanded whole. Backward, the same along the edges
/// reversed: whether a path leads from B to A, for Bs before A, the latest
/// first.
class PathFinder {
public:
  /// \p WithReuse: reuse edges count as edges too. Nothing is built until
  /// the first question, which reads \p G's edges and \p Rank (kept by
  /// reference) as they are then: most uses are ordered by an edge of their
  /// own, and a graph whose uses all are needs no search.
  PathFinder(const Graph &G, const std::vector<uint32_t> &Rank, bool Backward,
             bool WithReuse)
      : G(G), Rank(Rank), IsBackward(Backward), WithReuse(WithReuse) {}

  /// Starts the questions about paths from \p A; the search itself starts
  /// with the first of them.
  void from(NodeIdx A) {
    Source = A;
    Started = false;
  }

  /// Whether a path leads from the node of from() to \p B (backward: from
  /// B to it); each B asked about comes after the previous one in the
  /// search's direction.
  bool reaches(NodeIdx B) {
    std::optional<bool> Yes = search(B, /*Budget=*/0);
    assert(Yes && "a search without a budget answers");
    return *Yes;
  }

  /// reaches() within a budget: nullopt once the questions about the node
  /// of from() have followed \p Budget edges without an answer, for that
  /// question and every later one about the same node, except where a node
  /// already reached answers it. A chain between sources and their Bs
  /// would make every search walk it: the caller asks the questions left
  /// open of answer(), which sweeps the graph once for many sources.
  std::optional<bool> reachesWithin(NodeIdx B, uint64_t Budget) {
    return search(B, Budget);
  }

  /// A question for answer(): does a path lead from \p From to \p To
  /// (backward: from To to From)?
  struct Question {
    NodeIdx From, To;
  };

  /// Answers every question of \p Qs into \p Yes (1: a path leads there),
  /// 64 sources at a time: each node's set of the sources that reach it,
  /// as a 64-bit mask, swept in the search's direction over the places
  /// the batch's nodes span, each question answered where the sweep meets
  /// its B. O((V + E) * ceil(S / 64) + Q log Q) for S distinct sources and
  /// Q questions, whatever the paths' lengths. \p MissesReached: a B not
  /// reached counts as reached from its source from there on, as
  /// reachVia() after each no (the questions about one source are then
  /// answered in the search's direction).
  void answer(llvm::ArrayRef<Question> Qs, llvm::MutableArrayRef<uint8_t> Yes,
              bool MissesReached = false) {
    assert(Qs.size() == Yes.size() && "one answer per question");
    if (Qs.empty())
      return;
    if (!Built)
      build();
    std::vector<uint32_t> ByFrom(Qs.size());
    for (uint32_t I = 0; I != ByFrom.size(); ++I)
      ByFrom[I] = I;
    llvm::sort(ByFrom, [&](uint32_t X, uint32_t Y) {
      return std::pair(Pos[Qs[X].From], X) < std::pair(Pos[Qs[Y].From], Y);
    });
    std::vector<NodeIdx> AtPos(Pos.size());
    for (NodeIdx I = 0; I != Pos.size(); ++I)
      AtPos[Pos[I]] = I;
    std::vector<uint64_t> Reached(Pos.size(), 0);
    // The batch's questions by the place of their B: (place, bit, index).
    std::vector<std::tuple<uint32_t, unsigned, uint32_t>> ByTo;
    for (size_t First = 0; First != ByFrom.size();) {
      // The next 64 sources, and the questions about them.
      ByTo.clear();
      uint32_t Lo = UINT32_MAX, Hi = 0;
      unsigned Bit = 0;
      size_t Last = First;
      for (; Last != ByFrom.size(); ++Last) {
        const Question &Q = Qs[ByFrom[Last]];
        if (Last != First && Q.From != Qs[ByFrom[Last - 1]].From && ++Bit == 64)
          break;
        Lo = std::min({Lo, Pos[Q.From], Pos[Q.To]});
        Hi = std::max({Hi, Pos[Q.From], Pos[Q.To]});
        ByTo.push_back({Pos[Q.To], Bit, ByFrom[Last]});
      }
      llvm::sort(ByTo);
      std::fill(Reached.begin() + Lo, Reached.begin() + Hi + 1, 0);
      Bit = 0;
      for (size_t I = First; I != Last; ++I) {
        if (I != First && Qs[ByFrom[I]].From != Qs[ByFrom[I - 1]].From)
          ++Bit;
        Reached[Pos[Qs[ByFrom[I]].From]] |= uint64_t(1) << Bit;
      }
      auto Next = ByTo.begin();
      for (uint32_t P = Lo; P <= Hi; ++P) {
        uint64_t Mask = 0;
        for (NodeIdx In : into(AtPos[P]))
          if (Pos[In] >= Lo)
            Mask |= Reached[Pos[In]];
        Reached[P] |= Mask;
        for (; Next != ByTo.end() && std::get<0>(*Next) == P; ++Next) {
          uint64_t Source = uint64_t(1) << std::get<1>(*Next);
          Yes[std::get<2>(*Next)] = (Reached[P] & Source) != 0;
          if (MissesReached)
            Reached[P] |= Source;
        }
      }
      First = Last;
    }
  }

private:
  /// reaches(), giving up (nullopt) past \p Budget edges followed from the
  /// node of from() when Budget is not 0.
  std::optional<bool> search(NodeIdx B, uint64_t Budget) {
    start();
    if (Mark[B].Seen == Stamp)
      return true;
    // B is reached as soon as a node with an edge to it is: with those
    // marked, the search stops there instead of expanding a hub (a SYNC
    // with an edge to the uses of many buffers) once more for each buffer.
    llvm::ArrayRef<NodeIdx> In = into(B);
    bool Marked = In.size() <= MaxMarkedEdges;
    if (Marked) {
      if (++Asked == 0) {
        for (Marks &M : Mark)
          M.EdgeToB = 0;
        Asked = 1;
      }
      for (NodeIdx P : In) {
        if (Mark[P].Seen == Stamp)
          return reach(B);
        Mark[P].EdgeToB = Asked;
      }
    }
    if (Budget && Followed >= Budget)
      return std::nullopt;
    while (!Deferred.empty() && Deferred.top().first < Pos[B]) {
      Stack.push_back(Deferred.top().second);
      Deferred.pop();
    }
    bool Found = false;
    while (!Found && !Stack.empty()) {
      if (Budget && Followed >= Budget)
        return std::nullopt;
      NodeIdx N = Stack.back();
      Stack.pop_back();
      Followed += NextBegin[N + 1] - NextBegin[N];
      // N is expanded whole even when B turns up: a successor left out
      // would be missed by the questions after this one.
      for (uint32_t I = NextBegin[N]; I != NextBegin[N + 1]; ++I) {
        NodeIdx S = Next[I];
        if (Mark[S].Seen == Stamp)
          continue;
        Mark[S].Seen = Stamp;
        if (Pos[S] < Pos[B])
          Stack.push_back(S);
        else
          Deferred.push({Pos[S], S});
        Found |= S == B || (Marked && Mark[S].EdgeToB == Asked);
      }
    }
    if (Found && Mark[B].Seen != Stamp)
      reach(B);
    return Found;
  }

public:
  /// After reaches(\p B) said no: counts \p B as reached from here on, as
  /// for an edge to it that the caller adds.
  void reachVia(NodeIdx B) {
    start();
    Mark[B].Seen = Stamp;
    Stack.push_back(B);
  }

private:
  /// The edges in the search's direction, as compressed lists.
  void build() {
    Pos.resize(Rank.size());
    Mark.assign(Rank.size(), Marks());
    uint32_t Last = Rank.empty() ? 0 : Rank.size() - 1;
    for (size_t I = 0; I != Rank.size(); ++I)
      Pos[I] = IsBackward ? Last - Rank[I] : Rank[I];
    CSRBuilder<NodeIdx> Lists(G.size());
    auto ForEachEdge = [&](auto F) {
      for (NodeIdx I = 0, E = G.size(); I != E; ++I) {
        for (NodeIdx P : G[I].Preds)
          IsBackward ? F(I, P) : F(P, I);
        if (WithReuse)
          for (NodeIdx P : G[I].ReusePreds)
            IsBackward ? F(I, P) : F(P, I);
      }
    };
    ForEachEdge([&](NodeIdx From, NodeIdx) { Lists.count(From); });
    Lists.startAdding();
    ForEachEdge([&](NodeIdx From, NodeIdx To) { Lists.add(From, To); });
    Lists.finish(NextBegin, Next);
    CSRBuilder<NodeIdx> Opposite(G.size());
    ForEachEdge([&](NodeIdx, NodeIdx To) { Opposite.count(To); });
    Opposite.startAdding();
    ForEachEdge([&](NodeIdx From, NodeIdx To) { Opposite.add(To, From); });
    // The other direction's lists, for the edges into each B (the other
    // direction's finder builds the same; each builds what it reads).
    Opposite.finish(IntoBegin, Into);
    Built = true;
  }

  /// The nodes with an edge to \p B in the search's direction.
  llvm::ArrayRef<NodeIdx> into(NodeIdx B) const {
    return llvm::ArrayRef(Into).slice(IntoBegin[B],
                                      IntoBegin[B + 1] - IntoBegin[B]);
  }

  /// Counts \p B as reached, to be expanded later; true.
  bool reach(NodeIdx B) {
    Mark[B].Seen = Stamp;
    Deferred.push({Pos[B], B});
    return true;
  }

  /// The search from from()'s node, on the first question about it.
  void start() {
    if (Started)
      return;
    if (!Built)
      build();
    ++Stamp;
    Stack.assign(1, Source);
    Deferred = {};
    Followed = 0;
    Mark[Source].Seen = Stamp;
    Started = true;
  }

  const Graph &G;
  const std::vector<uint32_t> &Rank;
  bool IsBackward, WithReuse;
  bool Built = false, Started = false;
  NodeIdx Source = 0;
  /// Each node's place in the search's direction.
  std::vector<uint32_t> Pos;
  std::vector<uint32_t> NextBegin, IntoBegin;
  std::vector<NodeIdx> Next, Into;
  /// Per node, kept together as the search reads both for every edge:
  /// the search that reached it (by Stamp), and the question (by number)
  /// whose B it has an edge to.
  struct Marks {
    uint32_t Seen = 0, EdgeToB = 0;
  };
  std::vector<Marks> Mark;
  uint32_t Asked = 0;
  /// The most edges into a B that its question marks. A B with more is a
  /// hub itself: marking them for every question about it (one per buffer
  /// it uses) could cost more than the search saves.
  static constexpr size_t MaxMarkedEdges = 64;
  uint32_t Stamp = 0;
  /// The edges the questions about from()'s node have followed.
  uint64_t Followed = 0;
  /// Reached nodes not yet expanded: those before the B asked about, and
  /// those after it (the earliest first).
  std::vector<NodeIdx> Stack;
  std::priority_queue<std::pair<uint32_t, NodeIdx>,
                      std::vector<std::pair<uint32_t, NodeIdx>>,
                      std::greater<std::pair<uint32_t, NodeIdx>>>
      Deferred;
};

} // namespace dan::detail

#endif // DAN_LIB_ANALYSIS_PATHFINDER_H
