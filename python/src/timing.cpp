// Views of a Result beyond its counters: /usr/bin/time-like summaries, device statistics, the
// vmstat series as read-only numpy views of the Result's Eigen arrays, and each page's counts
// (page_stats) as read-only views of its vectors; and the pickling of a whole Result.
#include <algorithm>
#include <memory>
#include <type_traits>

#include <pybind11/numpy.h>
#include <pybind11/stl.h>

#include "bindings.hpp"
#include "pagesim/device.hpp"
#include "pagesim/error.hpp"
#include "pagesim/result.hpp"
#include "pagesim/timing.hpp"

namespace pagesim::python {
namespace {

template <class T>
py::array read_only(py::array_t<T> a) {
  py::detail::array_proxy(a.ptr())->flags &= ~py::detail::npy_api::NPY_ARRAY_WRITEABLE_;
  return std::move(a);
}

// A read-only view of an Eigen column, or of a row-major matrix, owned by `owner`.
template <class M>
py::array view_of(const M& m, py::handle owner) {
  using T = typename M::Scalar;
  constexpr auto size = static_cast<py::ssize_t>(sizeof(T));
  if (M::ColsAtCompileTime == 1) {
    return read_only(py::array_t<T>({static_cast<py::ssize_t>(m.size())}, {size}, m.data(), owner));
  }
  const auto cols = static_cast<py::ssize_t>(m.cols());
  return read_only(py::array_t<T>({static_cast<py::ssize_t>(m.rows()), cols}, {cols * size, size},
                                  m.data(), owner));
}

// A read-only view of `n` values at `data`, owned by `owner`.
template <class T>
py::array view_of(const T* data, std::size_t n, py::handle owner) {
  return read_only(py::array_t<T>({static_cast<py::ssize_t>(n)},
                                  {static_cast<py::ssize_t>(sizeof(T))}, data, owner));
}

// Each page's counts, pid, vpn and kind (0 anon, 1 file) as numpy arrays; the counts and vpns
// are views of the Result (`self`).
py::dict page_stats_dict(const PageStats& s, const std::vector<std::uint64_t>& proc_pids,
                         py::handle self) {
  const std::size_t n = s.faults.size();
  py::array_t<std::uint64_t> pid(static_cast<py::ssize_t>(n));
  auto out = pid.mutable_unchecked<1>();
  for (std::size_t p = 0; p < n; ++p) out(static_cast<py::ssize_t>(p)) = proc_pids[s.proc[p]];
  py::dict d;
  d["pid"] = read_only(pid);
  d["vpn"] = view_of(s.vpn.data(), n, self);
  d["kind"] = view_of(reinterpret_cast<const std::uint8_t*>(s.kind.data()), n, self);
  d["accesses"] = view_of(s.accesses.data(), n, self);
  d["faults"] = view_of(s.faults.data(), n, self);
  d["major_faults"] = view_of(s.major_faults.data(), n, self);
  d["readahead"] = view_of(s.readahead.data(), n, self);
  d["evictions"] = view_of(s.evictions.data(), n, self);
  d["writes"] = view_of(s.writes.data(), n, self);
  return d;
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

// A struct with for_each_field (Counters, ProcTime, DeviceStats) as a tuple of its fields, and
// back.
template <class S>
py::tuple fields_of(const S& s) {
  py::list out;
  S::for_each_field([&](const char*, auto member) { out.append(s.*member); });
  return py::tuple(out);
}

template <class S>
S from_fields(py::handle state) {
  const auto values = state.cast<py::tuple>();
  S s;
  std::size_t k = 0;
  S::for_each_field([&](const char*, auto member) {
    if (k >= values.size()) throw ConfigError("unsupported pickled Result state");
    s.*member = values[k++].cast<std::remove_reference_t<decltype(s.*member)>>();
  });
  if (k != values.size()) throw ConfigError("unsupported pickled Result state");
  return s;
}

template <class S>
py::list list_of(const std::vector<S>& v) {
  py::list out;
  for (const S& s : v) out.append(fields_of(s));
  return out;
}

template <class S>
std::vector<S> vector_from(py::handle state) {
  std::vector<S> out;
  for (py::handle item : state.cast<py::list>()) out.push_back(from_fields<S>(item));
  return out;
}

// An Eigen matrix (row-major, or a column) as a numpy copy, and back.
template <class M>
py::array_t<typename M::Scalar> array_of(const M& m) {
  using T = typename M::Scalar;
  if (M::ColsAtCompileTime == 1) return py::array_t<T>(static_cast<py::ssize_t>(m.size()), m.data());
  return py::array_t<T>({static_cast<py::ssize_t>(m.rows()), static_cast<py::ssize_t>(m.cols())}, m.data());
}

template <class M>
M matrix_from(py::handle state) {
  using T = typename M::Scalar;
  const auto a = state.cast<py::array_t<T, py::array::c_style | py::array::forcecast>>();
  if (a.ndim() != (M::ColsAtCompileTime == 1 ? 1 : 2)) throw ConfigError("unsupported pickled Result state");
  M m(a.shape(0), M::ColsAtCompileTime == 1 ? 1 : a.shape(1));
  std::copy(a.data(), a.data() + a.size(), m.data());
  return m;
}

py::object vmstat_state(const Result& r) {
  if (!r.vmstat) return py::none();
  py::list series;
  Vmstat::for_each_series(
      [&](const char*, auto member) { series.append(array_of((*r.vmstat).*member)); });
  return py::make_tuple(r.vmstat->interval_ns, series);
}

std::shared_ptr<const Vmstat> vmstat_from(py::handle state) {
  if (state.is_none()) return nullptr;
  const auto s = state.cast<py::tuple>();
  if (s.size() != 2) throw ConfigError("unsupported pickled Result state");
  auto v = std::make_shared<Vmstat>();
  v->interval_ns = s[0].cast<Tick>();
  const auto series = s[1].cast<py::list>();
  std::size_t k = 0;
  Vmstat::for_each_series([&](const char*, auto member) {
    if (k >= series.size()) throw ConfigError("unsupported pickled Result state");
    (*v).*member = matrix_from<std::remove_reference_t<decltype((*v).*member)>>(series[k++]);
  });
  if (k != series.size()) throw ConfigError("unsupported pickled Result state");
  return v;
}

// A vector as a numpy copy, and back.
template <class T>
py::array_t<T> array_of(const T* data, std::size_t n) {
  return py::array_t<T>(static_cast<py::ssize_t>(n), data);
}

// `n` values of type T, each converted to U.
template <class T, class U = T>
std::vector<U> vector_from(py::handle state, std::size_t n) {
  const auto a = state.cast<py::array_t<T, py::array::c_style | py::array::forcecast>>();
  if (a.ndim() != 1 || static_cast<std::size_t>(a.size()) != n)
    throw ConfigError("unsupported pickled Result state");
  std::vector<U> out(n);
  std::transform(a.data(), a.data() + n, out.begin(), [](T v) { return static_cast<U>(v); });
  return out;
}

py::object page_stats_state(const Result& r) {
  if (!r.pages) return py::none();
  const PageStats& s = *r.pages;
  const std::size_t n = s.faults.size();
  return py::make_tuple(array_of(s.proc.data(), n), array_of(s.vpn.data(), n),
                        array_of(reinterpret_cast<const std::uint8_t*>(s.kind.data()), n),
                        array_of(s.accesses.data(), n), array_of(s.faults.data(), n),
                        array_of(s.major_faults.data(), n), array_of(s.readahead.data(), n),
                        array_of(s.evictions.data(), n), array_of(s.writes.data(), n));
}

// `num_procs`: the Result's processes, one of which each page names.
std::shared_ptr<const PageStats> page_stats_from(py::handle state, std::size_t num_procs) {
  if (state.is_none()) return nullptr;
  const auto s = state.cast<py::tuple>();
  if (s.size() != 9) throw ConfigError("unsupported pickled Result state");
  const std::size_t n = static_cast<std::size_t>(py::len(s[0]));
  auto p = std::make_shared<PageStats>();
  p->proc = vector_from<ProcId>(s[0], n);
  p->vpn = vector_from<std::uint64_t>(s[1], n);
  p->kind = vector_from<std::uint8_t, PageKind>(s[2], n);
  p->accesses = vector_from<std::uint64_t>(s[3], n);
  p->faults = vector_from<std::uint64_t>(s[4], n);
  p->major_faults = vector_from<std::uint64_t>(s[5], n);
  p->readahead = vector_from<std::uint64_t>(s[6], n);
  p->evictions = vector_from<std::uint64_t>(s[7], n);
  p->writes = vector_from<std::uint64_t>(s[8], n);
  for (std::size_t k = 0; k < n; ++k) {
    if (p->proc[k] >= num_procs || p->kind[k] > PageKind::kFile)
      throw ConfigError("unsupported pickled Result state");
  }
  return p;
}

// Pickling (multiprocessing, Dask futures, joblib): every field, the vmstat and page arrays
// copied. Version 3 added Counters::pages_scanned and its vmstat series, version 4 the page
// stats; older states are refused (a Result is pickled to move it between processes of one
// install, not to keep).
constexpr int kResultStateVersion = 4;
py::tuple result_state(const Result& r) {
  return py::make_tuple(kResultStateVersion, r.policy, r.frames, fields_of(r.total),
                        list_of(r.per_proc), r.proc_pids, r.swap_slots_used, fields_of(r.time),
                        list_of(r.per_proc_time), r.device, r.schedule, fields_of(r.device_stats),
                        vmstat_state(r), page_stats_state(r));
}

Result result_from_state(const py::tuple& s) {
  if (s.size() != 14 || s[0].cast<int>() != kResultStateVersion)
    throw ConfigError("unsupported pickled Result state");
  Result r;
  r.policy = s[1].cast<std::string>();
  r.frames = s[2].cast<std::size_t>();
  r.total = from_fields<Counters>(s[3]);
  r.per_proc = vector_from<Counters>(s[4]);
  r.proc_pids = s[5].cast<std::vector<std::uint64_t>>();
  r.swap_slots_used = s[6].cast<std::uint64_t>();
  r.time = from_fields<ProcTime>(s[7]);
  r.per_proc_time = vector_from<ProcTime>(s[8]);
  r.device = s[9].cast<std::string>();
  r.schedule = s[10].cast<std::string>();
  r.device_stats = from_fields<DeviceStats>(s[11]);
  r.vmstat = vmstat_from(s[12]);
  r.pages = page_stats_from(s[13], r.proc_pids.size());
  return r;
}

}  // namespace

void register_timing(py::module_& m) {
  auto result = py::reinterpret_borrow<py::class_<Result>>(m.attr("Result"));
  result.def_readonly("device", &Result::device)
      .def_readonly("schedule", &Result::schedule)
      .def_property_readonly(
          "time", [](const Result& r) { return time_row(r.time, r.total); },
          "The run as /usr/bin/time reports it: start_ns (0), elapsed_ns (the last process's "
          "end), user_ns, sys_ns, iowait_ns (summed over processes), major and minor faults, "
          "swap-ins and swap-outs.")
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
          "One /usr/bin/time row per process (dict with pid): start_ns (the clock when its "
          "first access began), elapsed_ns (from the start of the run to its last access) and "
          "the fields of time.")
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
            Vmstat::for_each_series(
                [&](const char* name, auto member) { d[name] = view_of(vm.*member, self); });
            return std::move(d);
          },
          "The vmstat series as read-only numpy views (None when interval_ns=0).")
      .def_property_readonly(
          "page_stats_arrays",
          [](py::object self) -> py::object {
            const Result& r = self.cast<const Result&>();
            if (!r.pages) return py::none();
            return page_stats_dict(*r.pages, r.proc_pids, self);
          },
          "Each page's counts (page_stats=True; else None), indexed by the trace's page id: "
          "pid, vpn, kind (0 anon, 1 file), accesses, faults, major_faults, readahead (times read "
          "ahead), "
          "evictions, writes (dirty evictions), as read-only numpy arrays.")
      .def(py::pickle(&result_state, &result_from_state));

  m.def("device_presets", &DeviceConfig::preset_names);
  m.def("device_figures", &DeviceConfig::figure_devices);
}

}  // namespace pagesim::python
