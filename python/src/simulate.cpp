#include <pybind11/stl.h>

#include "bindings.hpp"
#include "pagesim/registry.hpp"

namespace pagesim::python {
namespace {

py::dict counters_dict(const Counters& c) {
  py::dict d;
  c.for_each([&](const char* name, std::uint64_t value) { d[name] = value; });
  return d;
}

}  // namespace

void register_simulate(py::module_& m) {
  py::class_<Result>(m, "Result")
      .def_readonly("policy", &Result::policy)
      .def_readonly("frames", &Result::frames)
      .def_readonly("swap_slots_used", &Result::swap_slots_used)
      .def_property_readonly("counters", [](const Result& r) { return counters_dict(r.total); })
      .def_property_readonly("per_process", [](const Result& r) {
        py::list out;
        for (std::size_t k = 0; k < r.per_proc.size(); ++k) {
          py::dict d;
          d["pid"] = r.proc_pids[k];
          for (auto [key, value] : counters_dict(r.per_proc[k])) d[key] = value;
          out.append(d);
        }
        return out;
      });

  m.def("counter_names", [] {
    std::vector<std::string> names;
    Counters::for_each_field([&](const char* name, auto) { names.emplace_back(name); });
    return names;
  });

  m.def("policies", [] {
    std::vector<std::pair<std::string, std::string>> out;
    for (const auto* info : Registry::instance().list()) out.emplace_back(info->name, info->description);
    return out;
  });

  m.def(
      "policy_parameters",
      [](const std::string& name) {
        const auto params = Registry::instance().parameters(name);
        return std::map<std::string, std::string>(params.begin(), params.end());
      },
      py::arg("name"));

  m.def("engine_parameters", [] {
    const auto params = EngineConfig::parameters();
    return std::map<std::string, std::string>(params.begin(), params.end());
  });

  m.def(
      "policy_traits",
      [](const std::string& name) {
        return Registry::instance().get(name).make(Params{})->traits();
      },
      py::arg("name"));

  m.def(
      "simulate",
      [](const Trace& trace, const std::string& policy, const py::dict& params) {
        const Params p = params_from_kwargs(params);
        py::gil_scoped_release release;
        return simulate(trace, policy, p);
      },
      py::arg("trace"), py::arg("policy"), py::arg("params"));
}

}  // namespace pagesim::python
