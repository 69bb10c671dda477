// Trace files and generators: Trace.load/save, convert, detect_format, generate, generate_compile,
// interleave.
#include <pybind11/stl.h>

#include "bindings.hpp"
#include "pagesim/error.hpp"
#include "pagesim/generators.hpp"
#include "pagesim/trace_io.hpp"

namespace pagesim::python {
namespace {

// Integers are taken as Python objects and checked here, so that a bad one is a ConfigError
// naming the key rather than pybind's "incompatible function arguments". None: not given.
ReadOptions read_options(const std::string& format, const py::object& page_size, bool page_numbers,
                         bool instructions, const py::object& pid) {
  ReadOptions o;
  o.format = parse_format(format);
  o.page_size = page_size_arg(page_size);
  o.page_numbers = page_numbers;
  o.instructions = instructions;
  if (!pid.is_none()) o.pid = integer_arg("pid", pid, UINT64_MAX, "from 0 to 2**64-1");
  return o;
}

// What a write did not keep of the trace (write_trace's note), as a UserWarning naming the
// file; `stacklevel` 1 points at the caller of the bound function, 2 at its caller's caller.
void warn_lost(const std::string& path, const std::string& note, int stacklevel) {
  if (note.empty()) return;
  const auto message =
      py::cast<std::string>(text(path + ": " + note));  // the path may not be UTF-8
  if (PyErr_WarnEx(PyExc_UserWarning, message.c_str(), stacklevel) < 0)
    throw py::error_already_set();
}

Trace load(const py::object& path, const std::string& format, const py::object& page_size,
           bool page_numbers, bool instructions, const py::object& pid) {
  const ReadOptions o = read_options(format, page_size, page_numbers, instructions, pid);
  const std::string file = fs_path(path);
  py::gil_scoped_release release;
  return read_trace(file, o);
}

py::dict summary(const Trace& t) {
  std::vector<std::uint64_t> writes(t.num_procs()), pages(t.num_procs()), file_pages(t.num_procs());
  {
    py::gil_scoped_release release;
    for (std::size_t i = 0; i < t.size(); ++i) writes[t.proc(i)] += t.write(i);
    for (PageId p = 0; p < t.num_pages(); ++p) {
      ++pages[t.page_proc(p)];
      file_pages[t.page_proc(p)] += t.page_kind(p) == PageKind::kFile;
    }
  }
  py::list procs;
  std::uint64_t total_writes = 0, total_file = 0;
  for (ProcId p = 0; p < t.num_procs(); ++p) {
    py::dict d;
    d["pid"] = t.proc_pid(p);
    d["accesses"] = t.proc_accesses(p);
    d["writes"] = writes[p];
    d["pages"] = pages[p];
    d["file_pages"] = file_pages[p];
    procs.append(d);
    total_writes += writes[p];
    total_file += file_pages[p];
  }
  py::dict out;
  out["accesses"] = t.size();
  out["pages"] = t.num_pages();
  out["file_pages"] = total_file;
  out["page_size"] = t.page_size();
  out["writes"] = total_writes;
  out["processes"] = procs;
  return out;
}

}  // namespace

void register_trace_io(py::module_& m) {
  auto trace = py::reinterpret_borrow<py::class_<Trace, std::shared_ptr<Trace>>>(m.attr("Trace"));
  trace.def_static("load", &load, py::arg("path"), py::arg("format") = "auto",
                   py::arg("page_size") = py::none(), py::arg("page_numbers") = false,
                   py::arg("instructions") = false, py::arg("pid") = py::none());
  trace.def(
      "save",
      [](const Trace& t, const py::object& path, const std::string& format) {
        const TraceFormat f = parse_format(format);
        const std::string file = fs_path(path);
        std::string lost;
        {
          py::gil_scoped_release release;
          lost = write_trace(t, file, f);
        }
        warn_lost(file, lost, 1);
      },
      "Write the trace as `format` (auto: by the name's extension, or pinatrace in the name; "
      "native if none; a .gz or .zst name is refused). A format that cannot keep part of this "
      "trace (its writes, pids, page kinds or page size: traces/FORMAT.md) gives a UserWarning "
      "naming the file and what was lost.",
      py::arg("path"), py::arg("format") = "auto");
  trace.def_property_readonly("proc_accesses", [](const Trace& t) {
    std::vector<std::uint64_t> out(t.num_procs());
    for (ProcId p = 0; p < t.num_procs(); ++p) out[p] = t.proc_accesses(p);
    return out;
  });

  m.def(
      "load_detected",
      [](const py::object& path, const std::string& format, const py::object& page_size,
         bool page_numbers, bool instructions, const py::object& pid) {
        const ReadOptions o = read_options(format, page_size, page_numbers, instructions, pid);
        const std::string file = fs_path(path);
        TraceFormat read = TraceFormat::kAuto;
        Trace t = [&] {
          py::gil_scoped_release release;
          return read_trace(file, o, &read);
        }();
        return py::make_tuple(std::move(t), std::string(format_name(read)));
      },
      "Trace.load that also says the format it read (the file is opened once: it may be a pipe).",
      py::arg("path"), py::arg("format") = "auto", py::arg("page_size") = py::none(),
      py::arg("page_numbers") = false, py::arg("instructions") = false,
      py::arg("pid") = py::none());
  m.def("trace_summary", &summary, py::arg("trace"));
  m.def(
      "detect_format",
      [](const py::object& path) { return std::string(format_name(detect_format(fs_path(path)))); },
      py::arg("path"));
  m.def(
      "format_by_extension",
      [](const py::object& path) {
        return std::string(format_name(format_by_extension(fs_path(path))));
      },
      "The format a file name implies by its extension (or, for pinatrace, its name); 'auto' for "
      "none.",
      py::arg("path"));
  m.def(
      "convert",
      [](const py::object& in, const py::object& out, const std::string& format,
         const std::string& out_format, const py::object& page_size, bool page_numbers,
         bool instructions, const py::object& pid) {
        const ReadOptions o = read_options(format, page_size, page_numbers, instructions, pid);
        const TraceFormat to = parse_format(out_format);
        const std::string from = fs_path(in), to_file = fs_path(out);
        std::string lost;
        {
          py::gil_scoped_release release;
          lost = convert_trace(from, to_file, o, to);
        }
        warn_lost(to_file, lost, 2);  // called by pagesim.convert: its caller
      },
      py::arg("input"), py::arg("output"), py::arg("format") = "auto",
      py::arg("out_format") = "auto", py::arg("page_size") = py::none(),
      py::arg("page_numbers") = false, py::arg("instructions") = false,
      py::arg("pid") = py::none());
  m.def(
      "output_format",
      [](const py::object& path, const std::string& format) {
        return std::string(format_name(output_format(fs_path(path), parse_format(format))));
      },
      "The format Trace.save writes `path` as when asked for `format`; a ConfigError for a name "
      "that ends in .gz, .zst or .zstd (pagesim writes no compressed files), an unknown format or "
      "one pagesim does not write (block I/O traces).",
      py::arg("path"), py::arg("format") = "auto");
  m.def("generator_names", &generator_names);
  m.def(
      "generate",
      [](const std::string& kind, const py::dict& options) {
        const Params p = params_from_kwargs(options);
        py::gil_scoped_release release;
        return generate(kind, p);
      },
      py::arg("kind"), py::arg("options"));
  m.def(
      "generate_compile",
      [](const py::dict& options) {
        const Params p = params_from_kwargs(options);
        const CompileOptions o = compile_options(p);
        p.check_all_used("generator 'compile'");
        std::vector<GcCollection> log;
        auto generated = [&] {
          py::gil_scoped_release release;
          return std::make_shared<Trace>(generate_compile(o, &log));
        }();
        py::list collections;
        for (const GcCollection& c : log) {
          collections.append(py::dict(py::arg("start") = c.start, py::arg("mark") = c.mark,
                                      py::arg("sweep") = c.sweep, py::arg("end") = c.end,
                                      py::arg("heap_pages") = c.heap_pages,
                                      py::arg("live_pages") = c.live_pages));
        }
        return py::make_tuple(generated, collections);
      },
      py::arg("options"));
  m.def(
      "interleave",
      [](const std::vector<std::shared_ptr<Trace>>& traces, std::uint64_t quantum, bool renumber) {
        std::vector<const Trace*> ptrs;
        for (const auto& t : traces) ptrs.push_back(t.get());
        py::gil_scoped_release release;
        return interleave(ptrs, quantum, renumber);
      },
      py::arg("traces"), py::arg("quantum"), py::arg("renumber"));
}

}  // namespace pagesim::python
