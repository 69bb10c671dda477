// Virtual time views of a Result: /usr/bin/time-like summaries, device statistics and the
// vmstat series as read-only numpy views of the Result's Eigen arrays.
#include <pybind11/numpy.h>
#include <pybind11/stl.h>

#include "bindings.hpp"
#include "pagesim/device.hpp"
#include "pagesim/result.hpp"
#include "pagesim/timing.hpp"

namespace pagesim::python {
namespace {

template <class T>
py::array read_only(py::array_t<T> a) {
  py::detail::array_proxy(a.ptr())->flags &= ~py::detail::npy_api::NPY_ARRAY_WRITEABLE_;
  return std::move(a);
}

// A read-only view of an Eigen column owned by `owner`.
template <class T, int R>
py::array column(const Eigen::Matrix<T, R, 1>& v, py::handle owner) {
  return read_only(py::array_t<T>({static_cast<py::ssize_t>(v.size())}, {static_cast<py::ssize_t>(sizeof(T))},
                                  v.data(), owner));
}

py::dict times_dict(const ProcTime& t) {
  py::dict d;
  ProcTime::for_each_field([&](const char* name, auto member) { d[name] = t.*member; });
  return d;
}

py::dict time_row(const ProcTime& t, const Counters& c) {
  py::dict d = times_dict(t);
  d["major_faults"] = c.major_faults;
  d["minor_faults"] = c.minor_faults;
  d["swap_ins"] = c.swap_ins;
  d["swap_outs"] = c.swap_outs;
  return d;
}

}  // namespace

void register_timing(py::module_& m) {
  auto result = py::reinterpret_borrow<py::class_<Result>>(m.attr("Result"));
  result.def_readonly("device", &Result::device)
      .def_readonly("schedule", &Result::schedule)
      .def_property_readonly(
          "time", [](const Result& r) { return time_row(r.time, r.total); },
          "The run as /usr/bin/time reports it: elapsed_ns (the last process's end), user_ns, "
          "sys_ns, iowait_ns (summed over processes), major and minor faults, swap-ins and "
          "swap-outs.")
      .def_property_readonly(
          "per_process_time",
          [](const Result& r) {
            py::list out;
            for (std::size_t k = 0; k < r.per_proc_time.size(); ++k) {
              py::dict d = time_row(r.per_proc_time[k], r.per_proc[k]);
              d["pid"] = r.proc_pids[k];
              out.append(d);
            }
            return out;
          },
          "One /usr/bin/time row per process (dict with pid).")
      .def_property_readonly(
          "device_stats",
          [](const Result& r) {
            py::dict d;
            DeviceStats::for_each_field(
                [&](const char* name, auto member) { d[name] = r.device_stats.*member; });
            return d;
          },
          "What the swap device did: requests, pages, merges, seeks, seek distance, busy time.")
      .def_property_readonly(
          "vmstat_arrays",
          [](py::object self) -> py::object {
            const Result& r = self.cast<const Result&>();
            if (!r.vmstat) return py::none();
            const Vmstat& vm = *r.vmstat;
            py::dict d;
            d["interval_ns"] = vm.interval_ns;
            d["time_ns"] = column(vm.time_ns, self);
            const auto procs = static_cast<py::ssize_t>(vm.resident.cols());
            d["resident"] = read_only(py::array_t<std::int64_t>(
                {static_cast<py::ssize_t>(vm.resident.rows()), procs},
                {procs * static_cast<py::ssize_t>(sizeof(std::int64_t)),
                 static_cast<py::ssize_t>(sizeof(std::int64_t))},
                vm.resident.data(), self));
            d["free_frames"] = column(vm.free_frames, self);
            d["faults"] = column(vm.faults, self);
            d["major_faults"] = column(vm.major_faults, self);
            d["swap_ins"] = column(vm.swap_ins, self);
            d["swap_outs"] = column(vm.swap_outs, self);
            d["device_busy"] = column(vm.device_busy, self);
            return std::move(d);
          },
          "The vmstat series as read-only numpy views (None when interval_ns=0).");

  m.def("device_presets", &DeviceConfig::preset_names);
}

}  // namespace pagesim::python
