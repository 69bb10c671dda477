#include "bindings.hpp"
#include "pagesim/error.hpp"

namespace pagesim::python {

void register_errors(py::module_& m) {
  // pagesim.Error derives from ValueError; the kinds derive from it. Translators are tried
  // newest first, so the kinds are registered after their base.
  static py::exception<Error> error(m, "Error", PyExc_ValueError);
  static py::exception<ConfigError> config(m, "ConfigError", error.ptr());
  static py::exception<TraceFormatError> trace_format(m, "TraceFormatError", error.ptr());
  static py::exception<PolicyError> policy(m, "PolicyError", error.ptr());
  py::register_exception_translator([](std::exception_ptr p) {
    try {
      if (p) std::rethrow_exception(p);
    } catch (const ConfigError& e) {
      config(e.what());
    } catch (const TraceFormatError& e) {
      trace_format(e.what());
    } catch (const PolicyError& e) {
      policy(e.what());
    } catch (const Error& e) {
      error(e.what());
    }
  });
}

Params params_from_kwargs(const py::dict& kwargs) {
  Params params;
  for (const auto& [k, v] : kwargs) {
    const auto key = py::cast<std::string>(k);
    if (py::isinstance<py::bool_>(v)) {
      params.set(key, v.cast<bool>());
    } else if (py::isinstance<py::int_>(v)) {
      params.set(key, v.cast<std::int64_t>());
    } else if (py::isinstance<py::float_>(v)) {
      params.set(key, v.cast<double>());
    } else if (py::isinstance<py::str>(v)) {
      params.set(key, v.cast<std::string>());
    } else if (py::hasattr(v, "__index__")) {  // numpy integers
      params.set(key, py::cast<std::int64_t>(py::reinterpret_steal<py::object>(PyNumber_Index(v.ptr()))));
    } else if (py::hasattr(v, "__float__")) {  // numpy floats
      params.set(key, py::cast<double>(py::float_(py::reinterpret_borrow<py::object>(v))));
    } else {
      throw ConfigError("parameter '" + key + "' must be a bool, int, float or str, got " +
                        py::cast<std::string>(py::str(py::type::of(v).attr("__name__"))));
    }
  }
  return params;
}

}  // namespace pagesim::python
