#include <pybind11/stl.h>

#include "bindings.hpp"
#include "pagesim/testing.hpp"

namespace pagesim::python {

void register_testing(py::module_& m) {
  auto t = m.def_submodule("testing", "the C++ testing kit (use pagesim.testing)");
  py::class_<testing::Report>(t, "Report")
      .def_readonly("subject", &testing::Report::subject)
      .def_readonly("checks", &testing::Report::checks)
      .def_readonly("failures", &testing::Report::failures)
      .def("ok", &testing::Report::ok)
      .def("text", &testing::Report::text);
  t.def(
      "check_conformance",
      [](const std::string& name, std::uint64_t traces, const py::dict& params) {
        testing::ConformanceOptions options;
        options.traces = traces;
        options.params = params_from_kwargs(params);
        py::gil_scoped_release release;
        return testing::check_conformance(name, options);
      },
      py::arg("name"), py::arg("traces"), py::arg("params"));
  t.def("check_known_answers", &testing::check_known_answers, py::arg("policy") = "",
        py::call_guard<py::gil_scoped_release>());
  t.def("known_answers", [] {
    py::list out;
    for (auto& k : testing::known_answers()) {
      py::dict d;
      d["name"] = k.name;
      d["why"] = k.why;
      d["trace"] = std::make_shared<Trace>(std::move(k.trace));
      d["frames"] = k.frames;
      d["expected"] = k.expected;
      py::dict params;  // keyword arguments of pagesim.simulate
      for (const auto& [key, value] : k.params.values()) params[py::str(key)] = py::cast(value);
      d["params"] = params;
      out.append(d);
    }
    return out;
  });
  t.def("random_trace", &testing::random_trace, py::arg("seed"), py::arg("length"),
        py::arg("pages"), py::arg("procs") = 1, py::arg("files") = false);
  t.def("conformance_case", [](std::uint64_t seed) {
    testing::ConformanceCase c = testing::conformance_case(seed);
    return py::make_tuple(std::make_shared<Trace>(std::move(c.trace)), c.frames);
  });
  t.def("exit_then_fill", &testing::exit_then_fill, py::arg("frames"));
  t.def("staggered_trace", &testing::staggered_trace, py::arg("seed"), py::arg("length"),
        py::arg("pages"), py::arg("procs"), py::arg("files") = false);
  t.def(
      "comparison_table",
      [](const Trace& trace, std::int64_t frames, const std::vector<std::string>& policies,
         const std::vector<std::string>& metrics, const py::dict& params) {
        const Params p = params_from_kwargs(params);
        py::gil_scoped_release release;
        return testing::comparison_table(trace, frames, policies, metrics, p);
      },
      py::arg("trace"), py::arg("frames"), py::arg("policies"), py::arg("metrics"),
      py::arg("params"));
}

}  // namespace pagesim::python
