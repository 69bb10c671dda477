#include <pybind11/numpy.h>
#include <pybind11/stl.h>

#include "bindings.hpp"
#include "pagesim/error.hpp"
#include "pagesim/generators.hpp"
#include "pagesim/text_trace.hpp"
#include "pagesim/trace.hpp"

namespace pagesim::python {
namespace {

// A read-only numpy view of a column owned by `owner` (kept alive by the array).
template <class T>
py::array_t<T> view(const std::vector<T>& column, py::handle owner) {
  py::array_t<T> a({column.size()}, {sizeof(T)}, column.data(), owner);
  py::detail::array_proxy(a.ptr())->flags &= ~py::detail::npy_api::NPY_ARRAY_WRITEABLE_;
  return a;
}

template <class T>
std::vector<T> to_vector(const py::handle& h) {
  const auto a = py::cast<py::array_t<T, py::array::c_style | py::array::forcecast>>(h);
  return std::vector<T>(a.data(), a.data() + a.size());
}

template <class T>
py::array_t<T> copy(const std::vector<T>& column) {
  return py::array_t<T>(static_cast<py::ssize_t>(column.size()), column.data());
}

Trace from_arrays(const py::array_t<std::uint64_t, py::array::c_style | py::array::forcecast>& pages,
                  const py::object& writes, const py::object& pids, const py::object& kinds,
                  std::uint32_t page_size) {
  if (pages.ndim() != 1) throw ConfigError("'pages' must be a one-dimensional array of page numbers");
  const auto n = static_cast<std::size_t>(pages.size());
  using U8 = py::array_t<std::uint8_t, py::array::c_style | py::array::forcecast>;
  using U64 = py::array_t<std::uint64_t, py::array::c_style | py::array::forcecast>;
  const auto column = [&](const py::object& o, const char* name) -> py::object {
    if (o.is_none()) return o;
    py::array a = py::array::ensure(o);
    if (!a || a.ndim() != 1 || static_cast<std::size_t>(a.size()) != n) {
      throw ConfigError(std::string("'") + name + "' must be a one-dimensional array as long as 'pages' (" +
                        std::to_string(n) + ")");
    }
    return std::move(a);
  };
  const py::object w = column(writes, "writes"), p = column(pids, "pids"), k = column(kinds, "kinds");
  const U8 wa = w.is_none() ? U8() : U8(w);
  const U64 pa = p.is_none() ? U64() : U64(p);
  const U8 ka = k.is_none() ? U8() : U8(k);
  const std::uint64_t* page_data = pages.data();
  TraceBuilder builder(page_size, "numpy");
  builder.reserve(n);
  for (std::size_t i = 0; i < n; ++i) {
    const std::uint8_t kind = k.is_none() ? 0 : ka.data()[i];
    if (kind > 1) {
      throw ConfigError("'kinds' must hold 0 (anon) or 1 (file); element " + std::to_string(i) +
                        " is " + std::to_string(kind));
    }
    builder.add(p.is_none() ? 1 : pa.data()[i], page_data[i], !w.is_none() && wa.data()[i] != 0,
                static_cast<PageKind>(kind));
  }
  return std::move(builder).build();
}

py::tuple trace_state(const Trace& t) {
  std::vector<std::uint8_t> kinds(t.num_pages());
  for (PageId p = 0; p < t.num_pages(); ++p) kinds[p] = static_cast<std::uint8_t>(t.page_kind(p));
  return py::make_tuple(1, copy(t.pages()), copy(t.flags()), copy(t.page_procs()),
                        copy(t.page_vpns()), copy(kinds), copy(t.proc_pids()), t.page_size(),
                        t.source());
}

Trace trace_from_state(const py::tuple& s) {
  if (s.size() != 9 || s[0].cast<int>() != 1) throw ConfigError("unsupported pickled Trace state");
  const auto kinds = to_vector<std::uint8_t>(s[5]);
  std::vector<PageKind> page_kind(kinds.size());
  for (std::size_t i = 0; i < kinds.size(); ++i) page_kind[i] = static_cast<PageKind>(kinds[i] & 1);
  return Trace::from_columns(to_vector<PageId>(s[1]), to_vector<std::uint8_t>(s[2]),
                             to_vector<ProcId>(s[3]), to_vector<std::uint64_t>(s[4]),
                             std::move(page_kind), to_vector<std::uint64_t>(s[6]),
                             s[7].cast<std::uint32_t>(), s[8].cast<std::string>());
}

}  // namespace

void register_trace(py::module_& m) {
  py::class_<Trace, std::shared_ptr<Trace>>(m, "Trace")
      .def_static(
          "from_text",
          [](const std::string& path, std::uint32_t page_size, bool page_numbers) {
            py::gil_scoped_release release;
            return read_text_trace(path, TextTraceOptions{page_size, page_numbers});
          },
          py::arg("path"), py::arg("page_size") = 4096, py::arg("page_numbers") = false)
      .def_static(
          "parse_text",
          [](const std::string& text, std::uint32_t page_size, bool page_numbers) {
            return parse_text_trace(text, TextTraceOptions{page_size, page_numbers});
          },
          py::arg("text"), py::arg("page_size") = 4096, py::arg("page_numbers") = false)
      .def_static("from_arrays", &from_arrays, py::arg("pages"), py::arg("writes") = py::none(),
                  py::arg("pids") = py::none(), py::arg("kinds") = py::none(),
                  py::arg("page_size") = 4096)
      .def("__len__", &Trace::size)
      .def_property_readonly("num_accesses", &Trace::size)
      .def_property_readonly("num_pages", &Trace::num_pages)
      .def_property_readonly("num_procs", &Trace::num_procs)
      .def_property_readonly("page_size", &Trace::page_size)
      .def_property_readonly("source", &Trace::source)
      .def_property_readonly("num_writes", &Trace::count_writes)
      .def_property_readonly("pages", [](py::object self) { return view(self.cast<const Trace&>().pages(), self); })
      .def_property_readonly("flags", [](py::object self) { return view(self.cast<const Trace&>().flags(), self); })
      .def_property_readonly("page_procs", [](py::object self) { return view(self.cast<const Trace&>().page_procs(), self); })
      .def_property_readonly("page_vpns", [](py::object self) { return view(self.cast<const Trace&>().page_vpns(), self); })
      .def_property_readonly("proc_pids", [](py::object self) { return view(self.cast<const Trace&>().proc_pids(), self); })
      .def(py::pickle(&trace_state, &trace_from_state))
      .def("__repr__", [](const Trace& t) {
        return "<pagesim.Trace " + std::to_string(t.size()) + " accesses, " +
               std::to_string(t.num_pages()) + " pages, " + std::to_string(t.num_procs()) +
               " processes" + (t.source().empty() ? "" : ", from " + t.source()) + ">";
      });

  m.def("generate_zipf", &generate_zipf, py::arg("accesses"), py::arg("pages"), py::arg("alpha"),
        py::arg("write_fraction"), py::arg("seed"), py::call_guard<py::gil_scoped_release>());
  m.def("generate_loop", &generate_loop, py::arg("accesses"), py::arg("pages"),
        py::arg("write_fraction"), py::arg("seed"), py::call_guard<py::gil_scoped_release>());
}

}  // namespace pagesim::python
