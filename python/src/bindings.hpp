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

// Python keyword arguments to Params: bool, int, float and str values; anything else is a
// ConfigError naming the key.
Params params_from_kwargs(const py::dict& kwargs);

}  // namespace pagesim::python
