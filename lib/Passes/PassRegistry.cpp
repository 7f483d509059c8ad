//===- PassRegistry.cpp - The stage passes, their options and runs --------===//
//
// Each option of each pass once: its spelling, how its text sets the
// stage's options and how they print back. The enum options take the
// values of the stage's own tables (dan/Support/EnumTable.h), so a pipeline
// and a tool's command line accept the same words.
//
//===----------------------------------------------------------------------===//

#include "dan/IR/Diagnostic.h"
#include "dan/Passes/Pipeline.h"
#include "dan/Select/Stats.h"
#include "llvm/ADT/StringExtras.h"
#include <charconv>
#include <cmath>
#include <limits>

using namespace llvm;

namespace dan {

static Error valueError(const Twine &Msg) {
  return createStringError(inconvertibleErrorCode(), Msg);
}

/// "expected a, b or c" of an enum's spellings.
template <typename EnumT>
static std::string expectedNames(ArrayRef<EnumEntry<EnumT>> Table) {
  std::string Text = "expected ";
  for (size_t I = 0; I < Table.size(); ++I) {
    if (I)
      Text += I + 1 == Table.size() ? " or " : ", ";
    Text += Table[I].Name;
  }
  return Text;
}

template <typename EnumT>
static Error setEnum(ArrayRef<EnumEntry<EnumT>> Table, StringRef Value,
                     EnumT &Out) {
  if (std::optional<EnumT> V = lookupEnum(Table, Value)) {
    Out = *V;
    return Error::success();
  }
  return valueError(expectedNames(Table));
}

/// An integer as the tools' command lines read one: decimal, or 0x hex, 0
/// octal, 0b binary (llvm::cl's parser).
template <typename IntT> static Error setInt(StringRef Value, IntT &Out) {
  IntT V;
  if (Value.getAsInteger(0, V))
    return valueError("expected an integer from 0 to " +
                      Twine(uint64_t(std::numeric_limits<IntT>::max())));
  Out = V;
  return Error::success();
}

/// A boolean as llvm::cl reads one.
static Error setBool(StringRef Value, bool &Out) {
  if (Value == "true" || Value == "TRUE" || Value == "True" || Value == "1") {
    Out = true;
    return Error::success();
  }
  if (Value == "false" || Value == "FALSE" || Value == "False" ||
      Value == "0") {
    Out = false;
    return Error::success();
  }
  return valueError("expected true or false");
}

/// A finite number >= 0 (the cost weights, seconds), in the spellings the
/// stage tools' options take (cl::parser<double>: to_float, strtod's).
static Error setNonNegative(StringRef Value, double &Out) {
  double V;
  // An empty value, which to_float reads as 0, is no number.
  if (Value.empty() || !to_float(Value, V) || !std::isfinite(V) || V < 0)
    return valueError("expected a finite number >= 0");
  Out = V;
  return Error::success();
}

/// A double as the shortest text that reads back to it, whatever the
/// locale.
static std::string printDouble(double V) {
  char Text[32];
  std::to_chars_result R = std::to_chars(Text, Text + sizeof(Text), V);
  return std::string(Text, R.ptr);
}

static std::string printBool(bool V) { return V ? "true" : "false"; }

//===-- mpas --------------------------------------------------------------===//

#define ENUM_OPTION(NAME, TABLE, FIELD)                                        \
  {                                                                            \
    NAME, "",                                                                  \
        [](StagePass &P, StringRef V) { return setEnum(TABLE, V, P.FIELD); },  \
        [](const StagePass &P) { return enumName(TABLE, P.FIELD).str(); },     \
        false, [] { return join(enumNames(TABLE), "|"); }                      \
  }
#define INT_OPTION(NAME, VALUES, FIELD)                                        \
  {                                                                            \
    NAME, VALUES,                                                              \
        [](StagePass &P, StringRef V) { return setInt(V, P.FIELD); },          \
        [](const StagePass &P) { return std::to_string(P.FIELD); }             \
  }
#define DOUBLE_OPTION(NAME, VALUES, FIELD)                                     \
  {                                                                            \
    NAME, VALUES,                                                              \
        [](StagePass &P, StringRef V) { return setNonNegative(V, P.FIELD); },  \
        [](const StagePass &P) { return printDouble(P.FIELD); }                \
  }

static constexpr PassOption MPASOptionTable[] = {
    ENUM_OPTION("l0", l0ModeTable(), MPAS.L0),
    ENUM_OPTION("weights", weightsTable(), MPAS.Weights),
    ENUM_OPTION("allocs", allocChoiceTable(), MPAS.Allocs),
    ENUM_OPTION("objective", objectiveTable(), MPAS.Objective),
    ENUM_OPTION("order", traversalTable(), MPAS.Order),
    {"group", "N",
     [](StagePass &P, StringRef V) {
       P.GroupGiven = true;
       return setInt(V, P.MPAS.Group);
     },
     [](const StagePass &P) { return std::to_string(P.MPAS.Group); }},
    {"place", "true|false",
     [](StagePass &P, StringRef V) { return setBool(V, P.MPAS.Place); },
     [](const StagePass &P) { return printBool(P.MPAS.Place); }, true},
    INT_OPTION("sample-above", "N", SampleAbove),
};

//===-- dlr ---------------------------------------------------------------===//

static ArrayRef<EnumEntry<EvictPolicy>> userEvictPolicies() {
  return evictPolicyTable().take_front(UserEvictPolicies);
}

static Error setHorizon(StagePass &P, StringRef V) {
  uint32_t N = 0;
  if (V == "auto" || V == "off") {
    P.DLR.AutoHorizon = V == "auto";
    P.DLR.Horizon = 0;
    return Error::success();
  }
  if (V.getAsInteger(10, N) || N == 0)
    return valueError("expected auto, off or a positive integer below 2^32");
  P.DLR.AutoHorizon = false;
  P.DLR.Horizon = N;
  return Error::success();
}

static std::string printHorizon(const StagePass &P) {
  if (P.DLR.AutoHorizon)
    return "auto";
  return P.DLR.Horizon ? std::to_string(P.DLR.Horizon) : "off";
}

static constexpr PassOption DLROptionTable[] = {
    ENUM_OPTION("fit", fitPolicyTable(), DLR.Fit),
    ENUM_OPTION("evict", userEvictPolicies(), DLR.Evict),
    ENUM_OPTION("victims", victimSetTable(), DLR.Victims),
    DOUBLE_OPTION("lambda-byte", "X", DLR.LambdaByte),
    DOUBLE_OPTION("lambda-cyc", "X", DLR.LambdaCyc),
    {"horizon", "auto|off|N", setHorizon, printHorizon},
};

//===-- cpe ---------------------------------------------------------------===//

static constexpr PassOption CPEOptionTable[] = {
    ENUM_OPTION("mode", cpeModeTable(), CPE.Mode),
    ENUM_OPTION("move", cpeMoveSetTable(), CPE.Moves),
    ENUM_OPTION("start", cpeStartTable(), CPE.Start),
    INT_OPTION("window", "W", CPE.Window),
    INT_OPTION("passes", "P", CPE.Passes),
    INT_OPTION("max-candidates", "N", CPE.MaxCandidates),
    INT_OPTION("effort", "K", CPE.Effort),
    INT_OPTION("min-retimes", "N", CPE.MinRetimes),
    DOUBLE_OPTION("time-budget", "SECONDS", CPE.TimeBudget),
    INT_OPTION("dense-after", "N", CPE.DenseAfter),
};

#undef ENUM_OPTION
#undef INT_OPTION
#undef DOUBLE_OPTION

static constexpr PassInfo Registry[] = {
    {StageKind::MPAS, "mpas",
     "stage 1: a legal order with a low peak residency (dan-mpas)",
     MPASOptionTable},
    {StageKind::DLR, "dlr",
     "stage 2: place every buffer and insert spills (dan-dlr)", DLROptionTable},
    {StageKind::CPE, "cpe",
     "stage 3: a lower makespan under the same memory plan (dan-cpe)",
     CPEOptionTable},
};

ArrayRef<PassInfo> passRegistry() { return Registry; }

std::string passOptionValues(const PassOption &O) {
  return O.EnumValues ? O.EnumValues() : O.Values.str();
}

const PassInfo &passInfo(StageKind Kind) {
  for (const PassInfo &I : Registry)
    if (I.Kind == Kind)
      return I;
  llvm_unreachable("stage without a pass");
}

const PassOption &passOption(StageKind Kind, StringRef Name) {
  for (const PassOption &O : passInfo(Kind).Options)
    if (O.Name == Name)
      return O;
  llvm_unreachable("a pass without the option named");
}

StagePass defaultPass(StageKind Kind) {
  StagePass P;
  P.Kind = Kind;
  return P;
}

Error checkPassOptions(const StagePass &P, StringRef Spelling) {
  if (P.Kind != StageKind::MPAS)
    return Error::success();
  const MPASOptions &O = P.MPAS;
  bool Window = O.Order == Traversal::Window;
  bool Staged = O.Order == Traversal::Staged;
  if ((Window || Staged) && O.L0 != L0Mode::Auto && O.L0 != L0Mode::Capacity &&
      (Window || O.L0 != L0Mode::Single))
    return valueError(
        Spelling + "order=" + traversalName(O.Order) + " keeps the L0 tiers " +
        (Window ? "within capacity"
                : "within capacity or to one live buffer each") +
        "; it cannot follow " + Spelling + "l0=" + l0ModeName(O.L0));
  if (P.GroupGiven && O.Order != Traversal::Groups)
    return valueError(Spelling + "group applies to " + Spelling +
                      "order=groups only");
  return Error::success();
}

Expected<StageStats> runStage(Graph &G, const TargetDesc &T, const StagePass &P,
                              unsigned Threads, bool Measured,
                              bool InputVerified) {
  SelectOptions Select;
  Select.Threads = Threads;
  Select.InputVerified = InputVerified;
  switch (P.Kind) {
  case StageKind::MPAS: {
    Select.SampleAbove = P.SampleAbove;
    Select.MeasureSoleOrder = Measured;
    Expected<MPASStats> S = selectMPAS(G, T, P.MPAS, Select);
    if (!S)
      return S.takeError();
    return StageStats(std::move(*S));
  }
  case StageKind::DLR: {
    Expected<DLRStats> S = selectDLR(G, T, P.DLR, Select);
    if (!S)
      return S.takeError();
    return StageStats(std::move(*S));
  }
  case StageKind::CPE: {
    Expected<CPEStats> S = selectCPE(G, T, P.CPE, Select);
    if (!S)
      return S.takeError();
    return StageStats(std::move(*S));
  }
  }
  llvm_unreachable("stage without a pass");
}

/// Whether mpas kept its input order: no L0 rule or traversal made it.
static bool keptInput(const StagePass &P) {
  return P.MPAS.Order == Traversal::Input;
}

void printStageStats(raw_ostream &OS, const Graph &G, const StagePass &P,
                     const StageStats &S, bool AsJSON) {
  if (const auto *M = std::get_if<MPASStats>(&S))
    printMPASStats(OS, G, *M, keptInput(P), AsJSON);
  else if (const auto *D = std::get_if<DLRStats>(&S))
    printDLRStats(OS, G, *D, AsJSON);
  else
    printCPEStats(OS, G, std::get<CPEStats>(S), P.CPE.Mode, P.CPE.Moves,
                  AsJSON);
}

void writeStageStatsJSON(json::OStream &J, const Graph &G, const StagePass &P,
                         const StageStats &S) {
  if (const auto *M = std::get_if<MPASStats>(&S))
    writeMPASStatsJSON(J, G, *M, keptInput(P));
  else if (const auto *D = std::get_if<DLRStats>(&S))
    writeDLRStatsJSON(J, G, *D);
  else
    writeCPEStatsJSON(J, G, std::get<CPEStats>(S), P.CPE.Mode);
}

void dropSourceLocations(Graph &G) {
  for (Node &N : G.Nodes)
    N.Loc = SMLoc();
}

Error verifyAfterPass(const Graph &G, const TargetDesc &T, StringRef Pass,
                      const Graph *Before, const DiagHandler &Diag) {
  VerifyOptions Opts;
  Opts.Against = Before;
  unsigned Errors = verifyGraph(G, T, Opts, Diag);
  if (!Errors)
    return Error::success();
  return createStringError(
      inconvertibleErrorCode(),
      "the graph after pass '" + Pass +
          "' does not verify: " + countOf(Errors, "error"));
}

Error verifyPipelineResult(const Graph &G, const TargetDesc &T,
                           const DiagHandler &Diag) {
  unsigned Errors = verifyGraph(G, T, VerifyOptions(), Diag);
  if (!Errors)
    return Error::success();
  return createStringError(
      inconvertibleErrorCode(),
      "the result of the passes does not verify: " + countOf(Errors, "error") +
          " (--verify-each finds the pass)");
}

Error runStagePass(Graph &G, const TargetDesc &T, const StagePass &P,
                   unsigned Threads, raw_ostream *Stats, bool StatsAsJSON) {
  Expected<StageStats> S = runStage(G, T, P, Threads, Stats != nullptr);
  if (!S)
    return S.takeError();
  if (Stats)
    printStageStats(*Stats, G, P, *S, StatsAsJSON);
  return Error::success();
}

} // namespace dan
