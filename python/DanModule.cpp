//===- DanModule.cpp - The 'dan' Python module ----------------------------===//
//
// DAN from Python (docs/Python.md): read a graph (IR or contest JSON) or
// build one, run a pipeline of stage passes in the text dan-opt takes,
// verify it, measure it, and print it back. The module is a thin layer over
// the public libraries: every check and error is theirs, raised as
// dan.Error with the message the tools print.
//
//===----------------------------------------------------------------------===//

#include "dan/Analysis/Replay.h"
#include "dan/Analysis/Verifier.h"
#include "dan/Formats/Formats.h"
#include "dan/Formats/JSON.h"
#include "dan/IR/Builder.h"
#include "dan/IR/Diagnostic.h"
#include "dan/IR/Printer.h"
#include "dan/Passes/Pipeline.h"
#include "dan/Report/Metrics.h"
#include "dan/Support/ReadFile.h"
#include "llvm/Support/MemoryBuffer.h"
#include "llvm/Support/SourceMgr.h"
#include <pybind11/pybind11.h>
#include <pybind11/stl.h>

namespace py = pybind11;
using namespace dan;

namespace {

/// dan.Error: what the libraries report.
py::handle ErrorType;

/// \p Text as a Python string: bytes that are not UTF-8 (a source line
/// quoted from a file in another encoding) as backslash escapes.
py::str toPython(const std::string &Text) {
  PyObject *S =
      PyUnicode_DecodeUTF8(Text.data(), Text.size(), "backslashreplace");
  if (!S)
    throw py::error_already_set();
  return py::reinterpret_steal<py::str>(S);
}

[[noreturn]] void raise(const std::string &Msg) {
  PyErr_SetObject(ErrorType.ptr(), toPython(Msg).ptr());
  throw py::error_already_set();
}

/// The value of \p E, or dan.Error with its message.
template <typename T> T unwrap(llvm::Expected<T> E) {
  if (!E)
    raise(llvm::toString(E.takeError()));
  return std::move(*E);
}

void check(llvm::Error E) {
  if (E)
    raise(llvm::toString(std::move(E)));
}

/// Makes a class that Python may not instantiate: its objects come from
/// the module. Without this, Cls.__new__(Cls) made an object whose __init__
/// never ran, and pybind11 2.10 gives its methods memory no constructor
/// wrote.
void madeByTheModule(PyHeapTypeObject *Type) {
  Type->ht_type.tp_flags |= Py_TPFLAGS_DISALLOW_INSTANTIATION;
}

/// A SourceMgr handler that appends each diagnostic, as the tools print
/// it, to the std::string \p Context.
void collectDiagnostic(const llvm::SMDiagnostic &D, void *Context) {
  llvm::raw_string_ostream OS(*static_cast<std::string *>(Context));
  printDiagnostic(D, OS);
}

/// The \p T that \p Self wraps, refused if it was made by Cls.__new__(Cls)
/// without __init__ (see madeByTheModule).
template <typename T> T &constructed(py::handle Self) {
  const py::detail::type_info *Info = py::detail::get_type_info(typeid(T));
  if (!py::isinstance<T>(Self))
    throw py::type_error(std::string("expected a ") + Info->type->tp_name +
                         ", not " + Py_TYPE(Self.ptr())->tp_name);
  auto *Inst = reinterpret_cast<py::detail::instance *>(Self.ptr());
  py::detail::value_and_holder V = Inst->get_value_and_holder(Info);
  if (!V.holder_constructed())
    throw py::type_error("this object was made by __new__ without __init__");
  return *V.value_ptr<T>();
}

/// The object a method of class \p T is called on, taken as it is (a
/// T& would read an object that __init__ never made) and checked by
/// constructed(); its caster names it as T, so that help() shows
/// "self: dan.Builder" and not "self: handle".
template <typename T> struct SelfOf { py::handle Object; };

} // namespace

namespace pybind11::detail {
template <typename T> struct type_caster<SelfOf<T>> {
  PYBIND11_TYPE_CASTER(SelfOf<T>, make_caster<T>::name);
  bool load(handle Src, bool) {
    value.Object = Src;
    return true;
  }
  static handle cast(const SelfOf<T> &Self, return_value_policy, handle) {
    return Self.Object.inc_ref();
  }
};
} // namespace pybind11::detail

namespace {

/// Member function \p F as a method that checks its object (constructed).
template <typename T, typename R, typename... A> auto method(R (T::*F)(A...)) {
  return [F](SelfOf<T> Self, A... Args) -> R {
    return (constructed<T>(Self.Object).*F)(std::forward<A>(Args)...);
  };
}

/// A graph and the text it was read from, whose locations its diagnostics
/// point at.
class PyGraph {
public:
  PyGraph(std::unique_ptr<Graph> G, std::unique_ptr<llvm::SourceMgr> SM)
      : G(std::move(G)), SM(std::move(SM)) {}

  Graph &graph() { return *G; }

  std::string print() const {
    std::string Text;
    llvm::raw_string_ostream OS(Text);
    printGraph(*G, OS);
    return Text;
  }

  std::string toJSON() const {
    std::string Text;
    llvm::raw_string_ostream OS(Text);
    exportJSON(*G, G->Target, OS);
    return Text;
  }

  /// The diagnostics of \p Diag-style callbacks, as the tools print them.
  std::string located(llvm::SMLoc Loc, llvm::SourceMgr::DiagKind Kind,
                      const llvm::Twine &Msg) const {
    std::string Text;
    llvm::raw_string_ostream OS(Text);
    if (Loc.isValid() && SM->FindBufferContainingLoc(Loc)) {
      // printLocated's text (escapes, window, caret), collected here.
      SM->setDiagHandler(collectDiagnostic, &Text);
      printLocated(*SM, Loc, Kind, Msg);
      SM->setDiagHandler(nullptr);
    } else
      OS << (Kind == llvm::SourceMgr::DK_Note ? "note: " : "error: ") << Msg
         << '\n';
    return Text;
  }

  /// \p E's text: a DiagError's diagnostics at their locations.
  std::string describe(llvm::Error E) const {
    std::string Text;
    llvm::handleAllErrors(
        std::move(E),
        [&](const DiagError &D) {
          for (const Diagnostic &Each : D.diags())
            Text += located(Each.Loc, Each.Kind, Each.Msg);
        },
        [&](const llvm::ErrorInfoBase &Other) { Text += Other.message(); });
    return Text;
  }

  /// verify() as Python strings.
  py::list verifyPython() const {
    py::list Out;
    for (const std::string &E : verify())
      Out.append(toPython(E));
    return Out;
  }

  /// The verifier's errors (with their notes), one string each; empty when
  /// the graph verifies.
  std::vector<std::string> verify() const {
    std::vector<std::string> Errors;
    verifyGraph(*G, G->Target, VerifyOptions(),
                [&](llvm::SMLoc Loc, llvm::SourceMgr::DiagKind Kind,
                    const llvm::Twine &Msg) {
                  std::string Text = located(Loc, Kind, Msg);
                  if (Kind == llvm::SourceMgr::DK_Error || Errors.empty())
                    Errors.push_back(Text);
                  else
                    Errors.back() += Text;
                });
    return Errors;
  }

  /// Runs \p Pipeline; the figures of each pass, as dan-opt --stats-json
  /// writes them. The passes work on a copy that replaces the graph only
  /// when all succeed, so a failed run leaves the graph as it was. As in
  /// dan-opt, the first pass checks its input and the result is verified.
  py::list run(const std::string &Pipeline, unsigned Threads) {
    std::vector<StagePass> Passes = unwrap(parsePassPipeline(Pipeline));
    py::list Stats;
    py::object Loads = py::module_::import("json").attr("loads");
    auto Work = std::make_unique<Graph>(*G);
    for (const StagePass &P : Passes) {
      TargetDesc Target = Work->Target;
      bool First = &P == &Passes.front();
      llvm::Expected<StageStats> S = [&] {
        py::gil_scoped_release Release;
        return runStage(*Work, Target, P, Threads, /*Measured=*/true,
                        /*InputVerified=*/!First);
      }();
      if (!S)
        raise(describe(S.takeError()));
      Work->Target = Target;
      dropSourceLocations(*Work);
      std::string Text;
      llvm::raw_string_ostream OS(Text);
      {
        llvm::json::OStream J(OS);
        J.object([&] {
          J.attribute("pass", passInfo(P.Kind).Name);
          writeStageStatsJSON(J, *Work, P, *S);
        });
      }
      Stats.append(Loads(Text));
    }
    if (!Passes.empty()) {
      std::string Failure;
      {
        py::gil_scoped_release Release;
        llvm::Error E = verifyPipelineResult(
            *Work, Work->Target,
            [&](llvm::SMLoc Loc, llvm::SourceMgr::DiagKind Kind,
                const llvm::Twine &Msg) {
              Failure += located(Loc, Kind, Msg);
            });
        if (E)
          Failure += llvm::toString(std::move(E));
      }
      if (!Failure.empty())
        raise(Failure);
    }
    G = std::move(Work);
    return Stats;
  }

  /// The nodes in schedule order, each a dict of what its IR statement
  /// says: what a compiler maps back to its own operations.
  py::list nodes() const {
    static const char *const KindNames[] = {"alloc", "free", "op", "spill_out",
                                            "spill_in"};
    py::list Out;
    for (NodeIdx I : G->Order) {
      const Node &N = (*G)[I];
      py::dict D;
      D["id"] = N.Id;
      D["kind"] = KindNames[static_cast<unsigned>(N.Kind)];
      if (N.isBufferNode()) {
        D["buffer"] = N.Buf;
        // A spill node names its buffer alone; its tier and size are the
        // alloc's.
        if (N.Kind == NodeKind::Alloc || N.Kind == NodeKind::Free) {
          D["tier"] = G->Target.tierName(N.BufTier).str();
          D["size"] = N.Size;
        }
        if (N.HasOffset)
          D["offset"] = N.Offset;
      } else {
        D["op"] = G->opName(N).str();
        D["pipe"] = G->Target.pipeName(N.OpPipe).str();
        D["cycles"] = N.Cycles;
        D["buffers"] = std::vector<uint64_t>(N.Bufs.begin(), N.Bufs.end());
      }
      std::vector<uint64_t> After, Reuse;
      for (NodeIdx P : N.Preds)
        After.push_back((*G)[P].Id);
      for (NodeIdx P : N.ReusePreds)
        Reuse.push_back((*G)[P].Id);
      D["after"] = After;
      D["reuse"] = Reuse;
      py::dict Attrs;
      if (const NodeAttrs *A = G->attrsOf(N))
        for (const auto &[Key, Value] : *A)
          Attrs[toPython(Key)] = toPython(Value);
      D["attrs"] = Attrs;
      Out.append(D);
    }
    return Out;
  }

  /// The replay's figures: the four metrics under their JSON keys and the
  /// makespan's lower bounds.
  py::dict metrics() const {
    std::vector<std::string> Errors = verify();
    if (!Errors.empty())
      raise("the graph does not verify:\n" + Errors.front());
    ReplayResult R = replay(*G, G->Target);
    Metrics V = metricsOf(R);
    py::dict D;
    for (Metric M : allMetrics())
      D[py::str(metricKey(M).str())] = get(V, M);
    D["critical_path_lb"] = R.CriticalPathLB;
    D["pipe_lb"] = R.PipeLB;
    return D;
  }

private:
  std::unique_ptr<Graph> G;
  std::unique_ptr<llvm::SourceMgr> SM;
};

/// The target named \p Name: a built-in one.
TargetDesc targetNamed(const std::string &Name) {
  if (std::optional<TargetDesc> T = TargetDesc::builtin(Name))
    return *T;
  raise(unknownNameMessage("target", Name, TargetDesc::builtinNames()));
}

/// Reads IR or contest JSON from \p Text; errors raise dan.Error with the
/// located diagnostics.
PyGraph parse(const std::string &Text, const std::string &Name,
              const std::optional<std::string> &Target) {
  auto SM = std::make_unique<llvm::SourceMgr>();
  std::string Diags;
  SM->setDiagHandler(collectDiagnostic, &Diags);
  unsigned ID = addSourceBuffer(
      *SM, llvm::MemoryBuffer::getMemBufferCopy(Text, Name), llvm::SMLoc());
  std::optional<TargetDesc> Base;
  if (Target)
    Base = targetNamed(*Target);
  std::unique_ptr<Graph> G =
      importGraph(*SM, ID, graphNameForFile(Name), Base ? &*Base : nullptr);
  if (!G)
    raise(Diags);
  SM->setDiagHandler(nullptr);
  return PyGraph(std::move(G), std::move(SM));
}

/// dan.Builder: dan::Builder with handles as Python objects.
class PyBuilder {
public:
  PyBuilder(const std::string &Name, const std::string &Target)
      : B(unwrap(Builder::create(Name, targetNamed(Target)))) {}

  BufferHandle alloc(const std::string &TierName, uint64_t Size,
                     const std::vector<NodeHandle> &After) {
    return unwrap(B.alloc(TierName, Size, After));
  }
  NodeHandle op(const std::string &Name, const std::string &Pipe,
                uint64_t Cycles, const std::vector<BufferHandle> &Bufs,
                const std::vector<NodeHandle> &After) {
    return unwrap(B.op(Name, Pipe, Cycles, Bufs, After));
  }
  NodeHandle free(const BufferHandle &Buf,
                  const std::vector<NodeHandle> &After) {
    return unwrap(B.free(Buf, After));
  }
  void edge(NodeHandle From, NodeHandle To) { check(B.addEdge(From, To)); }
  void attr(NodeHandle N, const std::string &Key, const std::string &Value) {
    check(B.setAttr(N, Key, Value));
  }
  PyGraph finish() {
    return PyGraph(B.take(), std::make_unique<llvm::SourceMgr>());
  }

private:
  Builder B;
};

} // namespace

PYBIND11_MODULE(dan, M) {
  M.doc() = "DAN: schedule and memory-plan NPU command graphs";
  static py::exception<std::runtime_error> Error(M, "Error");
  ErrorType = Error;

  py::class_<NodeHandle>(M, "Node", "A node of a graph being built",
                         py::custom_type_setup(madeByTheModule))
      .def_readonly("index", &NodeHandle::Index);
  py::class_<BufferHandle>(M, "Buffer", "A buffer of a graph being built",
                           py::custom_type_setup(madeByTheModule))
      .def_readonly("id", &BufferHandle::Id)
      .def_readonly("size", &BufferHandle::Size)
      .def_readonly("alloc", &BufferHandle::Alloc);

  py::class_<PyGraph>(M, "Graph", "A DAN graph, its schedule and its plan",
                      py::custom_type_setup(madeByTheModule))
      .def_property_readonly("name", [](PyGraph &G) { return G.graph().Name; })
      .def("__len__", [](PyGraph &G) { return G.graph().size(); })
      .def("__str__", &PyGraph::print)
      .def("print", &PyGraph::print, "The graph in DAN IR")
      .def("to_json", &PyGraph::toJSON, "The graph in contest JSON")
      .def("verify", &PyGraph::verifyPython,
           "The verifier's errors, as dan-verify prints them; [] if valid")
      .def("run", &PyGraph::run, py::arg("pipeline"), py::arg("threads") = 0,
           "Runs a pass pipeline ('mpas,dlr,cpe') on the graph in place and "
           "returns each pass's figures")
      .def("nodes", &PyGraph::nodes,
           "The nodes in schedule order, each a dict: id, kind, and the "
           "buffer, tier, size and offset of a buffer node or the op, pipe, "
           "cycles and buffers of an operation; after, reuse, attrs")
      .def("metrics", &PyGraph::metrics,
           "The replay's four metrics and the makespan's lower bounds");

  py::class_<PyBuilder>(M, "Builder", "Builds a graph node by node")
      .def(py::init<const std::string &, const std::string &>(),
           py::arg("name"), py::arg("target") = "davinci")
      .def("alloc", method(&PyBuilder::alloc), py::arg("tier"), py::arg("size"),
           py::arg("after") = std::vector<NodeHandle>())
      .def("op", method(&PyBuilder::op), py::arg("name"), py::arg("pipe"),
           py::arg("cycles"), py::arg("buffers"),
           py::arg("after") = std::vector<NodeHandle>())
      .def("free", method(&PyBuilder::free), py::arg("buffer"),
           py::arg("after") = std::vector<NodeHandle>())
      .def("edge", method(&PyBuilder::edge), py::arg("source"), py::arg("dest"))
      .def("attr", method(&PyBuilder::attr), py::arg("node"), py::arg("key"),
           py::arg("value"))
      .def("finish", method(&PyBuilder::finish),
           "The graph; the builder is empty afterwards");

  M.def("parse", &parse, py::arg("text"), py::arg("name") = "<string>",
        py::arg("target") = std::nullopt,
        "Reads a graph in DAN IR, or in contest JSON when the text starts "
        "with '{'");
  M.def(
      "read",
      [](const std::string &Path, const std::optional<std::string> &Target) {
        // As open() refuses it: the C library would read up to the NUL.
        if (Path.find('\0') != std::string::npos)
          throw py::value_error("embedded null byte");
        // Bounded as the tools read (a device such as /dev/zero never ends).
        llvm::Expected<std::unique_ptr<llvm::MemoryBuffer>> Buf =
            readFileBounded(Path, DefaultMaxInputSize);
        if (!Buf)
          raise("cannot read '" + Path +
                "': " + llvm::toString(Buf.takeError()));
        return parse((*Buf)->getBuffer().str(), Path, Target);
      },
      py::arg("path"), py::arg("target") = std::nullopt,
      "Reads a graph file, DAN IR or contest JSON");
  M.def(
      "print_pipeline",
      [](const std::string &Pipeline) {
        return printPassPipeline(unwrap(parsePassPipeline(Pipeline)));
      },
      py::arg("pipeline"),
      "The pipeline with every option written out, as dan-opt "
      "--print-pipeline-passes writes it");
}
