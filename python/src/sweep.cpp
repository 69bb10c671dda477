#include "pagesim/sweep.hpp"

#include <pybind11/stl.h>

#include "bindings.hpp"
#include "pagesim/error.hpp"

namespace pagesim::python {

void register_sweep(py::module_& m) {
  // The facade polls a running sweep with the GIL released in short waits, so that Python
  // (a progress bar, Ctrl-C) keeps running between them.
  py::class_<SweepRunner>(m, "SweepRunner")
      .def(py::init([](const std::vector<std::shared_ptr<Trace>>& traces, const py::list& jobs,
                       std::size_t threads, bool keep_going) {
             std::vector<std::shared_ptr<const Trace>> shared(traces.begin(), traces.end());
             std::vector<SweepJob> native;
             native.reserve(jobs.size());
             for (const py::handle job : jobs) {
               const auto t = job.cast<py::tuple>();
               if (t.size() != 3) throw ConfigError("a sweep job is (trace index, policy, params)");
               native.push_back({t[0].cast<std::size_t>(), t[1].cast<std::string>(),
                                 params_from_kwargs(t[2].cast<py::dict>())});
             }
             py::gil_scoped_release release;
             return std::make_unique<SweepRunner>(
                 std::move(shared), std::move(native), threads,
                 keep_going ? SweepRunner::OnError::kRecord : SweepRunner::OnError::kStop);
           }),
           py::arg("traces"), py::arg("jobs"), py::arg("threads") = 0,
           py::arg("keep_going") = false)
      .def_property_readonly("size", &SweepRunner::size)
      .def_property_readonly("threads", &SweepRunner::threads)
      .def_property_readonly("done", &SweepRunner::done)
      .def_property_readonly("cancelled", &SweepRunner::cancelled)
      .def_property_readonly("failed_job", &SweepRunner::failed_job)
      .def("cancel", &SweepRunner::cancel)
      .def(
          "wait",
          [](SweepRunner& r, double timeout) {
            const auto ms = std::chrono::milliseconds(static_cast<std::int64_t>(timeout * 1000.0));
            py::gil_scoped_release release;
            return r.wait_for(ms);
          },
          py::arg("timeout"))
      .def("results", &SweepRunner::results, py::call_guard<py::gil_scoped_release>())
      .def("result", &SweepRunner::result, py::arg("k"), py::call_guard<py::gil_scoped_release>())
      .def("ran", &SweepRunner::ran, py::arg("k"), py::call_guard<py::gil_scoped_release>());
}

}  // namespace pagesim::python
