//===- Pipeline.cpp - Reading and writing a textual pass pipeline ---------===//
//
// The pipeline text of dan-opt's -passes, in the LLVM new pass manager's
// form: passes separated by ',', each with its options in '<...>',
// separated by ';'.
//
//===----------------------------------------------------------------------===//

#include "dan/Passes/Pipeline.h"
#include "llvm/ADT/SmallSet.h"
#include "llvm/ADT/StringExtras.h"

using namespace llvm;

namespace dan {

static Error pipelineError(const Twine &Msg) {
  return createStringError(inconvertibleErrorCode(), Msg);
}

/// "a, b and c".
static std::string listNames(ArrayRef<StringRef> Names) {
  std::string Text;
  for (size_t I = 0; I < Names.size(); ++I) {
    if (I)
      Text += I + 1 == Names.size() ? " and " : ", ";
    Text += Names[I];
  }
  return Text;
}

static const PassInfo *findPass(StringRef Name) {
  for (const PassInfo &I : passRegistry())
    if (I.Name == Name)
      return &I;
  return nullptr;
}

static const PassOption *findOption(const PassInfo &Info, StringRef Name) {
  for (const PassOption &O : Info.Options)
    if (O.Name == Name)
      return &O;
  return nullptr;
}

/// Sets one "name=value", "name" or "no-name" of \p Info's pass.
static Error setOption(const PassInfo &Info, StringRef Text, StagePass &P,
                       SmallSet<StringRef, 8> &Seen) {
  auto [Name, Value] = Text.split('=');
  Name = Name.trim();
  Value = Value.trim();
  bool HasValue = Text.contains('=');
  const PassOption *O = findOption(Info, Name);
  // A flag written bare, or negated.
  if (!HasValue && !O && Name.starts_with("no-")) {
    O = findOption(Info, Name.drop_front(3));
    if (O && O->IsFlag) {
      Name = O->Name;
      Value = "false";
      HasValue = true;
    } else {
      O = nullptr; // Only a flag has a "no-" form.
    }
  } else if (!HasValue && O && O->IsFlag) {
    Value = "true";
    HasValue = true;
  }
  if (!O) {
    std::vector<StringRef> Names;
    for (const PassOption &Each : Info.Options)
      Names.push_back(Each.Name);
    return pipelineError("unknown option '" + Name + "' of pass '" + Info.Name +
                         "'; its options are " + listNames(Names));
  }
  if (!HasValue)
    return pipelineError("option '" + Name + "' of pass '" + Info.Name +
                         "' needs a value: " + Name + "=" +
                         passOptionValues(*O));
  if (!Seen.insert(O->Name).second)
    return pipelineError("option '" + O->Name + "' of pass '" + Info.Name +
                         "' is given twice");
  if (Error E = O->Set(P, Value))
    return pipelineError("invalid value '" + Value + "' of option '" + O->Name +
                         "' of pass '" + Info.Name +
                         "': " + toString(std::move(E)));
  return Error::success();
}

/// Reads one "name" or "name<options>".
static Expected<StagePass> parsePass(StringRef Text) {
  Text = Text.trim();
  StringRef Name = Text.take_until([](char C) { return C == '<'; }).trim();
  StringRef Rest = Text.drop_front(
      Text.find('<') == StringRef::npos ? Text.size() : Text.find('<'));
  if (Name.empty())
    return pipelineError("a pass without a name (an empty entry between "
                         "commas or at an end)");
  const PassInfo *Info = findPass(Name);
  if (!Info) {
    std::vector<StringRef> Names;
    for (const PassInfo &I : passRegistry())
      Names.push_back(I.Name);
    return pipelineError("unknown pass '" + Name + "'; the passes are " +
                         listNames(Names));
  }
  StagePass P = defaultPass(Info->Kind);
  if (!Rest.empty()) {
    if (!Rest.consume_front("<") || !Rest.consume_back(">") ||
        Rest.contains('<') || Rest.contains('>'))
      return pipelineError("the options of pass '" + Name +
                           "' must be one '<...>' after its name");
    SmallSet<StringRef, 8> Seen;
    SmallVector<StringRef, 8> Options;
    Rest.split(Options, ';', /*MaxSplit=*/-1, /*KeepEmpty=*/false);
    for (StringRef Option : Options)
      if (!Option.trim().empty())
        if (Error E = setOption(*Info, Option.trim(), P, Seen))
          return E;
  }
  if (Error E = checkPassOptions(P, ""))
    return pipelineError("invalid options of pass '" + Name +
                         "': " + toString(std::move(E)));
  return P;
}

/// Refuses a pass that can never take what the passes before it leave:
/// after dlr the graph has a memory plan, which mpas and dlr refuse.
static Error checkPassOrder(ArrayRef<StagePass> Passes) {
  const StagePass *Planner = nullptr;
  for (const StagePass &P : Passes) {
    if (Planner && P.Kind != StageKind::CPE)
      return pipelineError("pass '" + passInfo(P.Kind).Name +
                           "' cannot follow pass 'dlr': dlr leaves a memory "
                           "plan, and " +
                           passInfo(P.Kind).Name +
                           " takes a graph without one");
    if (P.Kind == StageKind::DLR)
      Planner = &P;
  }
  return Error::success();
}

Expected<std::vector<StagePass>> parsePassPipeline(StringRef Text) {
  std::vector<StagePass> Passes;
  if (Text.trim().empty())
    return Passes;
  // Split at the commas outside '<...>'.
  size_t Depth = 0, Start = 0;
  for (size_t I = 0; I <= Text.size(); ++I) {
    char C = I < Text.size() ? Text[I] : ',';
    if (C == '<')
      ++Depth;
    else if (C == '>' && Depth)
      --Depth;
    else if (C == ',' && !Depth) {
      Expected<StagePass> P = parsePass(Text.slice(Start, I));
      if (!P)
        return P.takeError();
      Passes.push_back(*P);
      Start = I + 1;
    }
  }
  if (Depth)
    return pipelineError("a '<' without its '>' in '" + Text + "'");
  if (Error E = checkPassOrder(Passes))
    return E;
  return Passes;
}

std::string printPassPipeline(ArrayRef<StagePass> Passes) {
  std::string Text;
  for (const StagePass &P : Passes) {
    if (!Text.empty())
      Text += ',';
    const PassInfo &Info = passInfo(P.Kind);
    Text += Info.Name;
    Text += '<';
    bool First = true;
    for (const PassOption &O : Info.Options) {
      // group applies to order=groups only: elsewhere it would be refused.
      if (O.Name == "group" && P.MPAS.Order != Traversal::Groups)
        continue;
      if (!First)
        Text += ';';
      First = false;
      std::string Value = O.Get(P);
      if (O.IsFlag)
        Text += (Value == "true" ? "" : "no-") + O.Name.str();
      else
        Text += (O.Name + "=" + Value).str();
    }
    Text += '>';
  }
  return Text;
}

} // namespace dan
