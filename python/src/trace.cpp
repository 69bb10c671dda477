#include "pagesim/trace.hpp"

#include <pybind11/numpy.h>
#include <pybind11/stl.h>

#include <algorithm>
#include <limits>
#include <memory>

#include "bindings.hpp"
#include "pagesim/error.hpp"
#include "pagesim/generators.hpp"
#include "pagesim/text_trace.hpp"
#include "pagesim/trace_io.hpp"

namespace pagesim::python {
namespace {

// A read-only numpy view of a column owned by `owner` (kept alive by the array).
template <class T>
py::array_t<T> view(const Column<T>& column, py::handle owner) {
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
py::array_t<T> copy(const Column<T>& column) {
  return py::array_t<T>(static_cast<py::ssize_t>(column.size()), column.data());
}

// Keeps a Python object alive for as long as a Column points into its memory. The last
// owner may be released by a thread without the GIL (a sweep worker), hence the acquire.
std::shared_ptr<const void> keep_alive(py::object o) {
  return std::shared_ptr<const void>(new py::object(std::move(o)), [](const py::object* p) {
    if (!Py_IsInitialized()) return;  // interpreter gone: nothing left to release
    py::gil_scoped_acquire gil;
    delete p;
  });
}

// Whether the memory of `a` cannot change while a Trace refers to it (replay indexes by page
// id without bounds checks, so a page id written after the checks could crash it): `a` is
// read-only and the object at the end of its chain of bases is immutable: a Trace (whose
// columns are read-only views of memory nobody writes), bytes, or a read-only mmap.mmap
// (np.load(path, mmap_mode="r")). A numpy array that owns its memory is not: a view made
// of it before, or setflags(write=True), writes it.
bool immutable(const py::array& a) {
  if (a.writeable()) return false;
  py::object root = a;
  while (py::isinstance<py::array>(root)) {
    root = root.attr("base");
    if (root.is_none()) return false;
  }
  if (py::isinstance<Trace>(root) || PyBytes_Check(root.ptr())) return true;
  if (!py::isinstance(root, py::module_::import("mmap").attr("mmap"))) return false;
  Py_buffer buffer;
  if (PyObject_GetBuffer(root.ptr(), &buffer, PyBUF_SIMPLE) != 0) {
    PyErr_Clear();
    return false;
  }
  const bool read_only = buffer.readonly != 0;
  PyBuffer_Release(&buffer);
  return read_only;
}

// One argument of Trace.from_columns as a column. A one-dimensional, C-contiguous, aligned
// numpy array of exactly T (or bool, where `bool_ok`) whose memory is immutable is used in
// place; anything else holding integers is converted once. Checks shape, length and the range
// of T; the values are checked by Trace::from_columns.
template <class T>
Column<T> column_arg(const py::object& o, const char* name, std::size_t length,
                     bool bool_ok = false) {
  const std::string arg = std::string("'") + name + "'";
  py::array a;
  if (py::isinstance<py::array>(o)) {
    a = py::reinterpret_borrow<py::array>(o);  // keeps a subclass (np.memmap) as it is
  } else {
    a = py::array::ensure(o);
    if (!a) throw ConfigError(arg + " must be a one-dimensional array of integers");
    // numpy makes [2**64-1, 0] float64 (no integer dtype holds both signs' ranges): take a
    // sequence that is not integers to numpy as Python objects, each checked below.
    if (a.dtype().kind() == 'f' && a.size() != 0) {
      a = py::module_::import("numpy").attr("array")(o, py::arg("dtype") = "O");
    }
  }
  if (a.ndim() != 1) {
    throw ConfigError(arg + " must be a one-dimensional array; got " + std::to_string(a.ndim()) + " dimensions");
  }
  const auto n = static_cast<std::size_t>(a.size());
  if (length != static_cast<std::size_t>(-1) && n != length) {
    throw ConfigError(arg + " has " + std::to_string(n) + " elements; expected " + std::to_string(length));
  }
  if (a.dtype().kind() == 'O') {
    // Python objects (pagesim.PageKind members, ints beyond int64): each taken by
    // __index__, so that 1.5 is refused rather than truncated.
    py::list values;
    for (std::size_t i = 0; i < n; ++i) {
      const py::object v = a[py::int_(i)];
      const auto index = py::reinterpret_steal<py::object>(PyNumber_Index(v.ptr()));
      if (!index) {
        PyErr_Clear();
        throw ConfigError(arg + " must hold integers; element " + std::to_string(i) + " is " +
                          py::repr(v).cast<std::string>());
      }
      const py::int_ value = py::reinterpret_borrow<py::int_>(index);
      if (value < py::int_(0) || value > py::int_(std::numeric_limits<T>::max())) {
        throw ConfigError(arg + " element " + std::to_string(i) + " is " +
                          py::repr(index).cast<std::string>() + "; expected a value from 0 to " +
                          std::to_string(std::numeric_limits<T>::max()));
      }
      values.append(index);
    }
    // Every value fits in T, and so in uint64 (beyond int64 too).
    a = py::array_t<std::uint64_t, py::array::forcecast>::ensure(values);
  }
  const char kind = a.dtype().kind();
  if (kind != 'u' && kind != 'i' && kind != 'b' && n != 0) {  // [] is float64 to numpy
    throw ConfigError(arg + " must hold integers; got dtype " + py::str(a.dtype()).cast<std::string>());
  }
  const auto& api = py::detail::npy_api::get();
  const auto same = [&](const py::dtype& d) { return api.PyArray_EquivTypes_(a.dtype().ptr(), d.ptr()); };
  constexpr int kInPlace = py::detail::npy_api::NPY_ARRAY_C_CONTIGUOUS_ | py::detail::npy_api::NPY_ARRAY_ALIGNED_;
  if (a.ptr() == o.ptr() && (a.flags() & kInPlace) == kInPlace &&
      (same(py::dtype::of<T>()) || (bool_ok && same(py::dtype::of<bool>()))) && immutable(a)) {
    return Column<T>(static_cast<const T*>(a.data()), n, keep_alive(a));
  }
  if (n != 0 && kind != 'b') {
    // Names the first element where `mask` (a boolean array) holds.
    const auto out_of_range = [&](const py::object& mask) {
      const auto i = py::module_::import("numpy").attr("flatnonzero")(mask)[py::int_(0)].cast<std::size_t>();
      throw ConfigError(arg + " element " + std::to_string(i) + " is " + py::str(a[py::int_(i)]).cast<std::string>() +
                        "; expected a value from 0 to " + std::to_string(std::numeric_limits<T>::max()));
    };
    if (kind == 'i' && a.attr("min")().cast<std::int64_t>() < 0) out_of_range(a.attr("__lt__")(0));
    const py::object limit = py::int_(std::numeric_limits<T>::max());
    if (a.dtype().itemsize() > static_cast<py::ssize_t>(sizeof(T)) && a.attr("max")() > limit) {
      out_of_range(a.attr("__gt__")(limit));
    }
  }
  auto converted = py::array_t<T, py::array::c_style | py::array::forcecast>::ensure(a);
  if (!converted) throw ConfigError(arg + " cannot be converted to " + py::str(py::dtype::of<T>()).cast<std::string>());
  // ensure() hands back the caller's memory when it holds T already: copy it.
  if (converted.data() == a.data()) return std::vector<T>(converted.data(), converted.data() + n);
  const T* data = converted.data();
  return Column<T>(data, n, keep_alive(std::move(converted)));
}

// page_size of from_arrays and from_columns: checked (page_size_arg); None is 4096.
std::uint32_t page_size_or_default(const py::object& page_size) {
  const std::uint32_t size = page_size_arg(page_size);
  return size != 0 ? size : kDefaultPageSize;
}

template <class T>
Column<T> filled(std::size_t n, T value) {
  return std::vector<T>(n, value);
}

// Trace.from_arrays: any integer page numbers (not floats, which would be truncated), made
// dense by a TraceBuilder.
Trace from_arrays(const py::object& pages, const py::object& writes, const py::object& pids,
                  const py::object& kinds, const py::object& page_size) {
  const Column<std::uint64_t> page =
      column_arg<std::uint64_t>(pages, "pages", static_cast<std::size_t>(-1));
  const std::size_t n = page.size();
  const auto optional = [&](const py::object& o, const char* name, auto zero) {
    using T = decltype(zero);
    return o.is_none() ? filled<T>(n, zero) : column_arg<T>(o, name, n, true);
  };
  const Column<std::uint8_t> write = optional(writes, "writes", std::uint8_t{0});
  const Column<std::uint64_t> pid = optional(pids, "pids", std::uint64_t{1});
  const Column<std::uint8_t> kind = optional(kinds, "kinds", std::uint8_t{0});
  TraceBuilder builder(page_size_or_default(page_size), "numpy");
  builder.reserve(n);
  for (std::size_t i = 0; i < n; ++i) {
    if (kind[i] > 1) {
      throw ConfigError("'kinds' must hold 0 (anon) or 1 (file); element " + std::to_string(i) +
                        " is " + std::to_string(kind[i]));
    }
    if (write[i] > 1) {
      throw ConfigError("'writes' must hold 0 (read) or 1 (write), or booleans; element " +
                        std::to_string(i) + " is " + std::to_string(write[i]));
    }
    builder.add(pid[i], page[i], write[i] != 0, static_cast<PageKind>(kind[i]));
  }
  return std::move(builder).build();
}

Trace from_columns(const py::object& pages_arg, const py::object& writes_arg,
                   const py::object& page_procs_arg, const py::object& page_vpns_arg,
                   const py::object& page_kinds_arg, const py::object& proc_pids_arg,
                   const py::object& page_size) {
  constexpr auto kAny = static_cast<std::size_t>(-1);
  Column<PageId> pages = column_arg<PageId>(pages_arg, "pages", kAny);
  const std::size_t n = pages.size();
  Column<std::uint8_t> flags = writes_arg.is_none()
                                   ? filled<std::uint8_t>(n, 0)
                                   : column_arg<std::uint8_t>(writes_arg, "writes", n, true);
  // Named here as 'writes'; Trace::from_columns would call the column 'flags'.
  std::uint8_t all_flags = 0;
  for (std::uint8_t f : flags) all_flags |= f;
  if (all_flags > Trace::kWrite) {
    std::size_t i = 0;
    while (flags[i] <= Trace::kWrite) ++i;
    throw ConfigError("'writes' element " + std::to_string(i) + " is " + std::to_string(flags[i]) +
                      "; expected 0 (read) or 1 (write)");
  }
  Column<ProcId> page_procs;
  if (page_procs_arg.is_none()) {
    PageId max_page = 0;
    for (PageId p : pages) max_page = std::max(max_page, p);
    if (n != 0 && max_page == kNoPage) throw ConfigError("'pages' element holds 2^32-1; expected page ids below 2^32-1");
    page_procs = filled<ProcId>(n == 0 ? 0 : std::size_t{max_page} + 1, 0);
  } else {
    page_procs = column_arg<ProcId>(page_procs_arg, "page_procs", kAny);
  }
  const std::size_t num_pages = page_procs.size();
  Column<std::uint64_t> page_vpns;
  if (page_vpns_arg.is_none()) {
    std::vector<std::uint64_t> vpn(num_pages);
    for (std::size_t p = 0; p < num_pages; ++p) vpn[p] = p;
    page_vpns = std::move(vpn);
  } else {
    page_vpns = column_arg<std::uint64_t>(page_vpns_arg, "page_vpns", num_pages);
  }
  // PageKind is one byte holding 0 or 1 (checked by Trace::from_columns).
  static_assert(sizeof(PageKind) == 1);
  Column<PageKind> page_kinds;
  if (page_kinds_arg.is_none()) {
    page_kinds = filled<PageKind>(num_pages, PageKind::kAnon);
  } else {
    const Column<std::uint8_t> bytes =
        column_arg<std::uint8_t>(page_kinds_arg, "page_kinds", num_pages, true);
    page_kinds = Column<PageKind>(reinterpret_cast<const PageKind*>(bytes.data()), bytes.size(), bytes.owner());
  }
  Column<std::uint64_t> proc_pids;
  if (proc_pids_arg.is_none()) {
    ProcId max_proc = 0;
    for (ProcId p : page_procs) max_proc = std::max(max_proc, p);
    if (num_pages != 0 && max_proc >= num_pages) {  // processes are dense: each has a page
      throw ConfigError("'page_procs' holds process " + std::to_string(max_proc) +
                        "; expected dense process ids below the page count " +
                        std::to_string(num_pages));
    }
    std::vector<std::uint64_t> pids(num_pages == 0 ? 1 : std::size_t{max_proc} + 1);
    for (std::size_t k = 0; k < pids.size(); ++k) pids[k] = k + 1;
    proc_pids = std::move(pids);
  } else {
    proc_pids = column_arg<std::uint64_t>(proc_pids_arg, "proc_pids", kAny);
  }
  return Trace::from_columns(std::move(pages), std::move(flags), std::move(page_procs),
                             std::move(page_vpns), std::move(page_kinds), std::move(proc_pids),
                             page_size_or_default(page_size), "numpy");
}

py::tuple trace_state(const Trace& t) {
  std::vector<std::uint8_t> kinds(t.num_pages());
  for (PageId p = 0; p < t.num_pages(); ++p) kinds[p] = static_cast<std::uint8_t>(t.page_kind(p));
  return py::make_tuple(1, copy(t.pages()), copy(t.flags()), copy(t.page_procs()),
                        copy(t.page_vpns()), copy(Column<std::uint8_t>(std::move(kinds))),
                        copy(t.proc_pids()), t.page_size(), py::bytes(t.source()));
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
          [](const std::string& path, const py::object& page_size, bool page_numbers) {
            const TextTraceOptions options{page_size_arg(page_size), page_numbers};
            py::gil_scoped_release release;
            return read_text_trace(path, options);
          },
          py::arg("path"), py::arg("page_size") = py::none(), py::arg("page_numbers") = false)
      .def_static(
          "parse_text",
          [](const std::string& text, const py::object& page_size, bool page_numbers) {
            return parse_text_trace(text, TextTraceOptions{page_size_arg(page_size), page_numbers});
          },
          py::arg("text"), py::arg("page_size") = py::none(), py::arg("page_numbers") = false)
      .def_static("from_arrays", &from_arrays, py::arg("pages"), py::arg("writes") = py::none(),
                  py::arg("pids") = py::none(), py::arg("kinds") = py::none(),
                  py::arg("page_size") = 4096,
                  R"doc(A trace from arbitrary page numbers, one per access.

Parameters
----------
pages
    Virtual page numbers (any integers up to 2**64-1), one per access.
writes
    Non-zero where the access is a write (default: all reads).
pids
    Process of each access (default: 1).
kinds
    0 (anonymous) or 1 (file-backed) for each access (default: anonymous).
page_size
    Bytes per page (a power of two).

Notes
-----
Each distinct (pid, page) gets a dense page id in order of first touch, which takes a pass
over the accesses and builds new columns: this always copies. Data whose page ids are
already dense (0..P-1) can be used without a copy by :meth:`Trace.from_columns`.
)doc")
      .def_static("from_columns", &from_columns, py::arg("pages"), py::arg("writes") = py::none(),
                  py::kw_only(), py::arg("page_procs") = py::none(),
                  py::arg("page_vpns") = py::none(), py::arg("page_kinds") = py::none(),
                  py::arg("proc_pids") = py::none(), py::arg("page_size") = 4096,
                  R"doc(A trace from columns with dense page ids, without copying where possible.

Parameters
----------
pages
    Dense page id of each access: integers from 0 to P-1, where P is ``len(page_procs)``,
    or ``pages.max() + 1`` when ``page_procs`` is not given.
writes
    1 (or True) where the access is a write, 0 where it is a read (default: all reads).
page_procs
    Dense process (0..Q-1) of each page (default: every page belongs to process 0).
page_vpns
    Virtual page number of each page (default: the page id).
page_kinds
    0 (anonymous) or 1 (file-backed) for each page (default: anonymous).
proc_pids
    Original pid of each dense process, Q values (default: 1, 2, ..., Q); each must own a
    page.
page_size
    Bytes per page (a power of two).

Notes
-----
An argument that is a one-dimensional, C-contiguous numpy array of exactly the column's
dtype (``pages``, ``page_procs``: uint32; ``writes``, ``page_kinds``: uint8 or bool;
``page_vpns``, ``proc_pids``: uint64) over memory that nothing can write is used in place:
the Trace refers to that memory and keeps the array alive. Such memory is a read-only
mapping (``np.load(path, mmap_mode="r")``), a ``bytes`` object (``np.frombuffer``) or another
Trace's columns (``t.pages[:n]``). Any other array or sequence of integers is converted,
which copies it once: replay indexes by page id without bounds checks, so the values checked
here must not change, and a writable array (or a view of one) could be written later.

Raises
------
ConfigError
    Naming the argument and the element when a value is out of range (a page id >= P, a
    write flag or page kind other than 0 or 1, a process >= Q, a process that owns no page,
    which no trace file could hold), when two pages have the same
    process and virtual page number or a pid is listed twice, when lengths differ, or when
    an argument is not a one-dimensional array of integers.
)doc")
      .def("__len__", &Trace::size)
      .def(
          "__getitem__",
          [](const Trace& t, const py::slice& accesses) {
            py::ssize_t start = 0, stop = 0, step = 0, length = 0;
            if (!accesses.compute(static_cast<py::ssize_t>(t.size()), &start, &stop, &step,
                                  &length))
              throw py::error_already_set();
            if (step != 1) {
              throw ConfigError("a trace is sliced in order, step 1 (trace[a:b]); got step " +
                                std::to_string(step));
            }
            py::gil_scoped_release release;
            return t.slice(static_cast<std::size_t>(start),
                           static_cast<std::size_t>(std::max(start, stop)));
          },
          py::arg("accesses"),
          R"doc(The accesses ``trace[a:b]`` (Python's slice rules, step 1) as a trace of their own:
their pages, with pid, virtual page number and kind, numbered as first accessed there
(``num_pages`` is the window's footprint); the page size kept; source ``SOURCE[a:b]``.)doc")
      .def("__getitem__",
           [](const Trace&, py::ssize_t) -> Trace {
             throw py::type_error(
                 "a trace is sliced, trace[a:b], not indexed: access i's page is trace.pages[i], "
                 "its pid trace.proc_pids[trace.page_procs[trace.pages[i]]]");
           })
      .def_property_readonly("num_accesses", &Trace::size)
      .def_property_readonly("num_pages", &Trace::num_pages)
      .def_property_readonly("num_procs", &Trace::num_procs)
      .def_property_readonly("page_size", &Trace::page_size)
      .def_property_readonly("source", [](const Trace& t) { return text(t.source()); })
      .def_property_readonly("num_writes", &Trace::count_writes)
      .def_property_readonly(
          "pages", [](py::object self) { return view(self.cast<const Trace&>().pages(), self); })
      .def_property_readonly(
          "flags", [](py::object self) { return view(self.cast<const Trace&>().flags(), self); })
      .def_property_readonly(
          "page_procs",
          [](py::object self) { return view(self.cast<const Trace&>().page_procs(), self); })
      .def_property_readonly(
          "page_vpns",
          [](py::object self) { return view(self.cast<const Trace&>().page_vpns(), self); })
      .def_property_readonly(
          "page_kinds",
          [](py::object self) {
            // PageKind is one byte, 0 anonymous and 1 file: the column read as uint8.
            const auto& kinds = self.cast<const Trace&>().page_kinds();
            static_assert(sizeof(PageKind) == 1);
            py::array_t<std::uint8_t> a({kinds.size()}, {sizeof(PageKind)},
                                        reinterpret_cast<const std::uint8_t*>(kinds.data()), self);
            py::detail::array_proxy(a.ptr())->flags &= ~py::detail::npy_api::NPY_ARRAY_WRITEABLE_;
            return a;
          },
          "Per page: 0 anonymous, 1 file-backed (read-only view).")
      .def_property_readonly(
          "writes",
          [](py::object self) {
            // Flags are 0 or 1 (checked when the trace is built): a bool view of them.
            return self.attr("flags").attr("view")(py::module_::import("numpy").attr("bool_"));
          },
          "Per access: True for a write (read-only view of flags).")
      .def_property_readonly(
          "proc_pids",
          [](py::object self) { return view(self.cast<const Trace&>().proc_pids(), self); })
      .def(py::pickle(&trace_state, &trace_from_state))
      .def("__repr__", [](const Trace& t) {
        return text("<pagesim.Trace " + std::to_string(t.size()) + " accesses, " +
                    std::to_string(t.num_pages()) + " pages, " + std::to_string(t.num_procs()) +
                    " processes" + (t.source().empty() ? "" : ", from " + t.source()) + ">");
      });

  m.def("generate_zipf", &generate_zipf, py::arg("accesses"), py::arg("pages"), py::arg("alpha"),
        py::arg("write_fraction"), py::arg("seed"), py::call_guard<py::gil_scoped_release>());
  m.def("generate_loop", &generate_loop, py::arg("accesses"), py::arg("pages"),
        py::arg("write_fraction"), py::arg("seed"), py::call_guard<py::gil_scoped_release>());
}

}  // namespace pagesim::python
