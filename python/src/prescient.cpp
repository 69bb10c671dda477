// Prescient bounds on swap-outs and one-pass miss-ratio curves. The facades are
// python/pagesim/prescient.py and python/pagesim/mrc.py.
#include "pagesim/prescient.hpp"

#include <pybind11/numpy.h>
#include <pybind11/stl.h>

#include "bindings.hpp"
#include "pagesim/mrc.hpp"

namespace pagesim::python {
namespace {

template <class T>
py::array_t<T> to_numpy(std::vector<T>&& v) {
  auto* owned = new std::vector<T>(std::move(v));
  py::capsule free_when_done(owned, [](void* p) { delete static_cast<std::vector<T>*>(p); });
  return py::array_t<T>({owned->size()}, {sizeof(T)}, owned->data(), free_when_done);
}

}  // namespace

void register_prescient(py::module_& m) {
  m.def(
      "swap_out_lower_bound",
      [](const Trace& trace, std::size_t frames, bool free_on_exit) {
        py::gil_scoped_release release;
        return swap_out_lower_bound(trace, frames, free_on_exit);
      },
      py::arg("trace"), py::arg("frames"), py::arg("free_on_exit") = false);
  m.def("count_dirty_segments", &count_dirty_segments, py::arg("trace"));
  m.def(
      "exact_optimum",
      [](const Trace& trace, std::size_t frames, std::uint64_t fault_weight,
         std::uint64_t swap_out_weight, std::size_t state_limit) {
        ExactOptimum e;
        {
          py::gil_scoped_release release;
          e = exact_optimum(trace, frames, fault_weight, swap_out_weight, state_limit);
        }
        py::dict d;
        d["cost"] = e.cost;
        d["faults"] = e.faults;
        d["swap_outs"] = e.swap_outs;
        d["max_states"] = e.max_states;
        return d;
      },
      py::arg("trace"), py::arg("frames"), py::arg("fault_weight"), py::arg("swap_out_weight"),
      py::arg("state_limit"));
}

void register_mrc(py::module_& m) {
  m.def(
      "lru_mrc",
      [](const Trace& trace) {
        std::vector<std::uint64_t> v;
        {
          py::gil_scoped_release release;
          v = lru_mrc(trace);
        }
        return to_numpy(std::move(v));
      },
      py::arg("trace"));
  m.def(
      "opt_mrc",
      [](const Trace& trace, std::size_t max_frames) {
        std::vector<std::uint64_t> v;
        {
          py::gil_scoped_release release;
          v = opt_mrc(trace, max_frames);
        }
        return to_numpy(std::move(v));
      },
      py::arg("trace"), py::arg("max_frames"));
  m.def(
      "shards_mrc",
      [](const Trace& trace, double rate, std::uint64_t seed) {
        std::vector<double> v;
        {
          py::gil_scoped_release release;
          v = shards_mrc(trace, rate, seed);
        }
        return to_numpy(std::move(v));
      },
      py::arg("trace"), py::arg("rate"), py::arg("seed"));
  m.def(
      "shards_fixed_size_mrc",
      [](const Trace& trace, std::size_t max_pages, std::uint64_t seed) {
        std::vector<double> v;
        {
          py::gil_scoped_release release;
          v = shards_fixed_size_mrc(trace, max_pages, seed);
        }
        return to_numpy(std::move(v));
      },
      py::arg("trace"), py::arg("max_pages"), py::arg("seed"));
  m.def(
      "sample_trace",
      [](const Trace& trace, double rate, std::uint64_t seed) {
        SampledTrace sampled;
        {
          py::gil_scoped_release release;
          sampled = sample_trace(trace, rate, seed);
        }
        return py::make_tuple(std::move(sampled.trace), sampled.rate);
      },
      py::arg("trace"), py::arg("rate"), py::arg("seed"));
  m.def(
      "working_set_curve",
      [](const Trace& trace, std::vector<std::uint64_t> windows, bool per_process) {
        std::vector<std::vector<WorkingSetPoint>> curves;
        {
          py::gil_scoped_release release;
          if (per_process) {
            curves = working_set_curves_per_process(trace, std::move(windows));
          } else {
            curves.push_back(working_set_curve(trace, std::move(windows)));
          }
        }
        // One row per (curve, window): proc is the curve's process (0 for the system's).
        std::vector<std::uint64_t> proc, window, faults, size_sum, accesses, vmin_size_sum;
        for (std::size_t q = 0; q < curves.size(); ++q) {
          for (const WorkingSetPoint& p : curves[q]) {
            proc.push_back(q);
            window.push_back(p.window);
            faults.push_back(p.faults);
            size_sum.push_back(p.size_sum);
            accesses.push_back(p.accesses);
            vmin_size_sum.push_back(p.vmin_size_sum);
          }
        }
        py::dict d;
        d["proc"] = to_numpy(std::move(proc));
        d["window"] = to_numpy(std::move(window));
        d["faults"] = to_numpy(std::move(faults));
        d["size_sum"] = to_numpy(std::move(size_sum));
        d["accesses"] = to_numpy(std::move(accesses));
        d["vmin_size_sum"] = to_numpy(std::move(vmin_size_sum));
        return d;
      },
      py::arg("trace"), py::arg("windows"), py::arg("per_process"));
}

}  // namespace pagesim::python
