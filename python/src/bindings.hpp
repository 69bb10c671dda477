#pragma once

#include <pybind11/pybind11.h>

#include "pagesim/params.hpp"

namespace pagesim::python {

namespace py = pybind11;

void register_errors(py::module_& m);
void register_trace(py::module_& m);
void register_trace_io(py::module_& m);
void register_simulate(py::module_& m);
void register_timing(py::module_& m);  // after register_simulate: extends Result
void register_testing(py::module_& m);
void register_policy(py::module_& m);
void register_sweep(py::module_& m);
void register_prescient(py::module_& m);
void register_mrc(py::module_& m);

// A str from bytes that should be UTF-8 but may hold a file name's or a trace's other bytes:
// those become \xNN escapes instead of failing.
py::str text(const std::string& s);

// A file path given as str, bytes or os.PathLike, as the bytes the file system knows
// (os.fsencode), so that names that are not UTF-8 work.
std::string fs_path(const py::handle& path);

// An integer argument from 0 to `max`: a Python int or numpy integer (not a bool, a float or
// a str), else a ConfigError "parameter 'KEY' = VALUE is not allowed: must be ALLOWED".
std::uint64_t integer_arg(const char* key, const py::handle& value, std::uint64_t max,
                          const char* allowed);
// A page_size argument: an integer power of two from 1 to 2**31, else a ConfigError naming
// page_size and the allowed values; None gives 0 (not given: a reader's default).
std::uint32_t page_size_arg(const py::handle& value);

// Python keyword arguments to Params: bool, int, float and str values; anything else is a
// ConfigError naming the key.
Params params_from_kwargs(const py::dict& kwargs);

}  // namespace pagesim::python
