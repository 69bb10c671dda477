#include "bindings.hpp"
#include "pagesim/error.hpp"

namespace pagesim::python {
namespace {

// A message may quote a file name that is not UTF-8, which PyErr_SetString would lose.
void raise(const py::object& kind, const char* what) {
  PyErr_SetObject(kind.ptr(), text(what).ptr());
}

// A str as UTF-8; a ConfigError saying `what` for anything else (a lone surrogate from a
// command-line byte that is not UTF-8, a key that is not a str).
std::string utf8(const py::handle& s, const std::string& what) {
  Py_ssize_t n = 0;
  const char* p = PyUnicode_Check(s.ptr()) ? PyUnicode_AsUTF8AndSize(s.ptr(), &n) : nullptr;
  if (!p) {
    PyErr_Clear();
    // repr escapes a lone surrogate (\udcff), so the message is valid UTF-8.
    throw ConfigError(what + " " + py::cast<std::string>(py::repr(s)) +
                      " is not text: expected a str of valid Unicode");
  }
  return std::string(p, static_cast<std::size_t>(n));
}

}  // namespace

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
      raise(config, e.what());
    } catch (const TraceFormatError& e) {
      raise(trace_format, e.what());
    } catch (const PolicyError& e) {
      raise(policy, e.what());
    } catch (const Error& e) {
      raise(error, e.what());
    }
  });
}

py::str text(const std::string& s) {
  return py::reinterpret_steal<py::str>(
      PyUnicode_DecodeUTF8(s.data(), static_cast<Py_ssize_t>(s.size()), "backslashreplace"));
}

std::string fs_path(const py::handle& path) {
  return py::cast<std::string>(py::module_::import("os").attr("fsencode")(path));
}

std::uint64_t integer_arg(const char* key, const py::handle& value, std::uint64_t max,
                          const char* allowed) {
  const auto refuse = [&] {
    return ConfigError(std::string("parameter '") + key +
                       "' = " + py::cast<std::string>(py::repr(value)) +
                       " is not allowed: must be " + allowed);
  };
  if (py::isinstance<py::bool_>(value) || !py::hasattr(value, "__index__"))
    throw refuse();  // 4096.0, "4096"
  const auto index = py::reinterpret_steal<py::object>(PyNumber_Index(value.ptr()));
  if (!index) {
    PyErr_Clear();
    throw refuse();
  }
  const py::int_ v = py::reinterpret_borrow<py::int_>(index);
  if (v < py::int_(0) || v > py::int_(max)) throw refuse();
  return v.cast<std::uint64_t>();
}

std::uint32_t page_size_arg(const py::handle& value) {
  if (value.is_none()) return 0;
  const auto size = static_cast<std::uint32_t>(integer_arg(
      "page_size", value, std::uint64_t{1} << 31, "a power of two from 1 to 2**31 (an int)"));
  if (size == 0 || (size & (size - 1)) != 0) {
    throw ConfigError("parameter 'page_size' = " + std::to_string(size) +
                      " is not allowed: must be a power of two from 1 to 2**31");
  }
  return size;
}

Params params_from_kwargs(const py::dict& kwargs) {
  Params params;
  for (const auto& [k, v] : kwargs) {
    const std::string key = utf8(k, "parameter name");
    const auto not_a_value = [&] {
      return ConfigError("parameter '" + key + "' must be a bool, int, float or str, got " +
                         py::cast<std::string>(py::str(py::type::of(v).attr("__name__"))));
    };
    if (py::isinstance<py::bool_>(v)) {
      params.set(key, v.cast<bool>());
    } else if (py::isinstance<py::str>(v)) {
      params.set(key, utf8(v, "parameter '" + key + "' ="));
    } else if (py::isinstance<py::float_>(v) ||
               (!py::hasattr(v, "__index__") && py::hasattr(v, "__float__"))) {
      const double d = PyFloat_AsDouble(v.ptr());  // also numpy floats
      if (d == -1.0 && PyErr_Occurred()) {
        PyErr_Clear();
        throw not_a_value();
      }
      params.set(key, d);
    } else if (py::hasattr(v, "__index__")) {  // int, numpy integers; not an array of them
      const auto index = py::reinterpret_steal<py::object>(PyNumber_Index(v.ptr()));
      if (!index) {
        PyErr_Clear();
        throw not_a_value();
      }
      int overflow = 0;
      const long long i = PyLong_AsLongLongAndOverflow(index.ptr(), &overflow);
      if (overflow != 0) {
        throw ConfigError("parameter '" + key + "' = " + py::cast<std::string>(py::repr(index)) +
                          " is out of range: must be below 2**63");
      }
      params.set(key, static_cast<std::int64_t>(i));
    } else {
      throw not_a_value();
    }
  }
  return params;
}

}  // namespace pagesim::python
