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

// The curve of `system(trace, times)`, or with `per_process` those of `each(trace, times)`, as
// columns of one row per (curve, point): "proc", the curve's process (0 for the system's),
// then the fields named in `fields`.
template <class Point>
py::dict curve_table(const Trace& trace, std::vector<std::uint64_t> times, bool per_process,
                     std::vector<Point> (*system)(const Trace&, std::vector<std::uint64_t>),
                     std::vector<std::vector<Point>> (*each)(const Trace&,
                                                             std::vector<std::uint64_t>),
                     std::initializer_list<std::pair<const char*, std::uint64_t Point::*>> fields) {
  std::vector<std::vector<Point>> curves;
  {
    py::gil_scoped_release release;
    if (per_process) {
      curves = each(trace, std::move(times));
    } else {
      curves.push_back(system(trace, std::move(times)));
    }
  }
  std::vector<std::uint64_t> proc;
  std::vector<std::vector<std::uint64_t>> columns(fields.size());
  for (std::size_t q = 0; q < curves.size(); ++q) {
    for (const Point& p : curves[q]) {
      proc.push_back(q);
      std::size_t c = 0;
      for (const auto& field : fields) columns[c++].push_back(p.*field.second);
    }
  }
  py::dict d;
  d["proc"] = to_numpy(std::move(proc));
  std::size_t c = 0;
  for (const auto& field : fields) d[field.first] = to_numpy(std::move(columns[c++]));
  return d;
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
        return curve_table<WorkingSetPoint>(trace, std::move(windows), per_process,
                                            &working_set_curve, &working_set_curves_per_process,
                                            {{"window", &WorkingSetPoint::window},
                                             {"faults", &WorkingSetPoint::faults},
                                             {"size_sum", &WorkingSetPoint::size_sum},
                                             {"accesses", &WorkingSetPoint::accesses},
                                             {"vmin_size_sum", &WorkingSetPoint::vmin_size_sum}});
      },
      py::arg("trace"), py::arg("windows"), py::arg("per_process"));
  m.def(
      "working_set_sizes",
      [](const Trace& trace, std::uint64_t window, std::uint64_t every, bool per_process) {
        std::vector<std::vector<double>> sizes;
        {
          py::gil_scoped_release release;
          sizes = working_set_sizes(trace, window, every, per_process);
        }
        // One row per series (the system's, or each process's), one column per block.
        const std::size_t blocks = sizes.empty() ? 0 : sizes[0].size();
        py::array_t<double> out({sizes.size(), blocks});
        auto view = out.mutable_unchecked<2>();
        for (std::size_t g = 0; g < sizes.size(); ++g) {
          for (std::size_t b = 0; b < blocks; ++b) view(g, b) = sizes[g][b];
        }
        return out;
      },
      py::arg("trace"), py::arg("window"), py::arg("every"), py::arg("per_process"));
  m.def(
      "pff_curve",
      [](const Trace& trace, std::vector<std::uint64_t> thresholds, bool per_process) {
        return curve_table<PffPoint>(trace, std::move(thresholds), per_process, &pff_curve,
                                     &pff_curves_per_process,
                                     {{"threshold", &PffPoint::threshold},
                                      {"faults", &PffPoint::faults},
                                      {"size_sum", &PffPoint::size_sum},
                                      {"accesses", &PffPoint::accesses}});
      },
      py::arg("trace"), py::arg("thresholds"), py::arg("per_process"));
}

}  // namespace pagesim::python
