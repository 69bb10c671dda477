// The compiled core of the `pagesim` Python package. Kept thin: each area registers itself,
// the Python facade (python/pagesim/*.py) adds keyword arguments, docstrings and pandas.
#include <pybind11/pybind11.h>

#include "bindings.hpp"

PYBIND11_MODULE(_core, m) {
  m.doc() = "pagesim native core (use the pagesim package, not this module)";
  pagesim::python::register_errors(m);
  pagesim::python::register_trace(m);
  pagesim::python::register_trace_io(m);
  pagesim::python::register_simulate(m);
  pagesim::python::register_timing(m);
  pagesim::python::register_testing(m);
  pagesim::python::register_policy(m);
  pagesim::python::register_sweep(m);
  pagesim::python::register_prescient(m);
  pagesim::python::register_mrc(m);
}
