// Python-defined policies: a classic pybind11 trampoline over pagesim::Policy (pybind11 2.10,
// std::shared_ptr holder). A Python policy runs through the virtual path of the engine with
// the GIL held, since every callback enters the interpreter.
#include <pybind11/stl.h>

#include <optional>

#include "bindings.hpp"
#include "pagesim/error.hpp"
#include "pagesim/registry.hpp"

namespace pagesim::python {
namespace {

// What Python sees of the engine's page table. The engine's view points into the run's own
// state, so this box is only filled during a run: a policy that keeps it and reads it later
// gets a PolicyError, not a dangling pointer.
struct ViewBox {
  std::optional<PageTableView> view;

  PageTableView& get() {
    if (!view) {
      throw PolicyError("this PageTableView is only valid inside a policy callback during a run");
    }
    return *view;
  }
  PageId check(std::int64_t p) {
    const std::size_t n = get().trace().num_pages();
    if (p < 0 || static_cast<std::uint64_t>(p) >= n) {
      throw PolicyError("page id " + std::to_string(p) + " is out of range: the trace has " +
                        std::to_string(n) + " pages (0 to " + std::to_string(n - 1) + ")");
    }
    return static_cast<PageId>(p);
  }
};

class PyPolicy : public Policy {
 public:
  using Policy::Policy;

  PolicyTraits traits() const override {
    py::gil_scoped_acquire gil;
    // `traits` may be a method or a plain PolicyTraits class attribute.
    py::object t = self().attr("traits");
    if (PyCallable_Check(t.ptr())) t = t();
    try {
      return t.cast<PolicyTraits>();
    } catch (const py::cast_error&) {
      // As pagesim.policy.check_policy says it before a run (this is for a direct _core call).
      throw ConfigError(
          py::str(py::type::of(self()).attr("__name__")).cast<std::string>() +
          ".traits must be a pagesim.PolicyTraits or a method that returns one, got " +
          py::str(py::type::of(t).attr("__name__")).cast<std::string>());
    }
  }
  void reset(std::size_t num_pages, std::size_t frames) override {
    at_ = CallbackSite::reset();
    PYBIND11_OVERRIDE_PURE(void, Policy, reset, num_pages, frames);
  }
  // The optional callbacks do nothing unless Python defines them (PYBIND11_OVERRIDE would
  // fall back to the base with the C++ view, not the Python one).
  void on_hit(const Access& access, PageTableView view) override {
    at_ = CallbackSite::on_hit(access);
    PYBIND11_OVERRIDE_IMPL(void, Policy, "on_hit", access, box(view));
  }
  void on_fault(const Access& access, PageTableView view) override {
    at_ = CallbackSite::on_fault(access);
    PYBIND11_OVERRIDE_PURE(void, Policy, on_fault, access, box(view));
  }
  void select_victims(std::size_t want, PageTableView view, VictimList& out) override {
    at_ = CallbackSite::select_victims(view);
    py::gil_scoped_acquire gil;
    py::function override = py::get_override(static_cast<const Policy*>(this), "select_victims");
    if (!override) {
      py::pybind11_fail("Tried to call pure virtual function \"Policy::select_victims\"");
    }
    const py::object victims = override(want, box(view));
    // Victims are checked by the engine; here only their type. An error raised while
    // iterating (a generator's own code) is the policy's and goes on as it is.
    py::iterator it;
    try {
      it = py::iter(victims);
    } catch (const py::error_already_set& e) {
      if (!e.matches(PyExc_TypeError)) throw;
      throw PolicyError("select_victims must return an iterable of page ids (ints), got " +
                        py::str(py::type::of(victims).attr("__name__")).cast<std::string>() +
                        where());
    }
    for (const py::handle v : it) out.push_back(page_id(v));
  }
  void on_evict(PageId page, PageTableView view) override {
    at_ = CallbackSite::on_evict(page);
    PYBIND11_OVERRIDE_IMPL(void, Policy, "on_evict", page, box(view));
  }
  void on_tick(Tick now, PageTableView view) override {
    at_ = CallbackSite::on_tick(now);
    PYBIND11_OVERRIDE_IMPL(void, Policy, "on_tick", now, box(view));
  }
  // Without a Python on_free, free_on_exit runs fail with the base class's PolicyError.
  void on_free(PageId page, PageTableView view) override {
    at_ = CallbackSite::on_free(page);
    PYBIND11_OVERRIDE_IMPL(void, Policy, "on_free", page, box(view));
    Policy::on_free(page, view);
  }

  // Called after a run: the view must not outlive the engine's state.
  void end_run() {
    if (box_) box_->view.reset();
  }
  void start_run(std::string name) {
    name_ = std::move(name);
    at_ = {};
  }
  // " (policy 'x', in on_fault at access #12)": where the last callback was, for an error
  // raised in it (the engine's own checks say where they are).
  std::string where() const {
    if (at_.callback == nullptr) return "";
    return " (policy '" + name_ + "', in " + at_.text() + ")";
  }

 private:
  py::handle self() const {
    return py::detail::get_object_handle(static_cast<const Policy*>(this),
                                         py::detail::get_type_info(typeid(Policy)));
  }
  const py::object& box(PageTableView view) {
    if (!box_) {
      box_ = std::make_shared<ViewBox>();
      box_obj_ = py::cast(box_);
    }
    box_->view = view;
    return box_obj_;
  }
  // A bool, Python's or numpy's (a mask returned by mistake), is no page id.
  static bool is_bool(py::handle v) {
    if (PyLong_CheckExact(v.ptr())) return false;
    if (py::isinstance<py::bool_>(v)) return true;
    const py::handle type = py::type::of(v);
    const std::string name = py::str(type.attr("__name__"));
    return (name == "bool_" || name == "bool") &&
           py::str(type.attr("__module__")).cast<std::string>() == "numpy";
  }

  PageId page_id(py::handle v) const {
    if (is_bool(v) || !PyIndex_Check(v.ptr())) {
      throw PolicyError("select_victims must return page ids (ints), got " +
                        py::str(py::type::of(v).attr("__name__")).cast<std::string>() + " " +
                        py::repr(v).cast<std::string>() + where());
    }
    const auto index = py::reinterpret_steal<py::object>(PyNumber_Index(v.ptr()));
    if (!index) throw py::error_already_set();  // the policy's own __index__ raised
    int overflow = 0;
    const long long p = PyLong_AsLongLongAndOverflow(index.ptr(), &overflow);
    if (overflow != 0 || p < 0 || static_cast<unsigned long long>(p) >= kNoPage) {
      throw PolicyError("select_victims returned page id " + py::repr(index).cast<std::string>() +
                        ", which does not exist" + where());
    }
    return static_cast<PageId>(p);
  }

  std::shared_ptr<ViewBox> box_;
  py::object box_obj_;
  std::string name_;
  CallbackSite at_;
};

}  // namespace

void register_policy(py::module_& m) {
  py::class_<PolicyTraits>(m, "PolicyTraits")
      .def(py::init([](bool needs_hits, bool needs_future, const py::int_& tick_ns,
                       bool writes_back, bool write_completions) {
             if (tick_ns < py::int_(0) || tick_ns > py::int_(INT64_MAX)) {
               throw ConfigError(
                   "parameter 'tick_ns' = " + py::cast<std::string>(py::repr(tick_ns)) +
                   " is out of range: allowed 0 (no ticks) to 9223372036854775807");
             }
             return PolicyTraits{needs_hits, needs_future, py::cast<Tick>(tick_ns), writes_back,
                                 write_completions};
           }),
           py::kw_only(), py::arg("needs_hits") = false, py::arg("needs_future") = false,
           py::arg("tick_ns") = 0, py::arg("writes_back") = false,
           py::arg("write_completions") = false)
      .def_readwrite("needs_hits", &PolicyTraits::needs_hits)
      .def_readwrite("needs_future", &PolicyTraits::needs_future)
      .def_readwrite("tick_ns", &PolicyTraits::tick_ns)
      .def_readwrite("writes_back", &PolicyTraits::writes_back)
      .def_readwrite("write_completions", &PolicyTraits::write_completions)
      .def("__repr__", [](const PolicyTraits& t) {
        return std::string("PolicyTraits(needs_hits=") + (t.needs_hits ? "True" : "False") +
               ", needs_future=" + (t.needs_future ? "True" : "False") +
               ", tick_ns=" + std::to_string(t.tick_ns) +
               ", writes_back=" + (t.writes_back ? "True" : "False") +
               ", write_completions=" + (t.write_completions ? "True" : "False") + ")";
      });

  py::enum_<PageKind>(m, "PageKind").value("ANON", PageKind::kAnon).value("FILE", PageKind::kFile);

  py::class_<Access>(m, "Access")
      .def_readonly("index", &Access::index)
      .def_readonly("page", &Access::page)
      .def_readonly("proc", &Access::proc)
      .def_readonly("write", &Access::write)
      .def_readonly("kind", &Access::kind)
      .def_readonly("next_use", &Access::next_use)
      .def_readonly("readahead", &Access::readahead)
      .def("__repr__", [](const Access& a) {
        return "<pagesim.Access #" + std::to_string(a.index) + " " + (a.write ? "W" : "R") +
               " page " + std::to_string(a.page) + " proc " + std::to_string(a.proc) +
               (a.readahead ? " readahead" : "") + ">";
      });
  m.attr("NEVER") = kNever;

  py::class_<ViewBox, std::shared_ptr<ViewBox>>(m, "PageTableView")
      .def("resident", [](ViewBox& b, std::int64_t p) { return b.get().resident(b.check(p)); })
      .def("dirty", [](ViewBox& b, std::int64_t p) { return b.get().dirty(b.check(p)); })
      .def("referenced", [](ViewBox& b, std::int64_t p) { return b.get().referenced(b.check(p)); })
      .def("in_swap", [](ViewBox& b, std::int64_t p) { return b.get().in_swap(b.check(p)); })
      .def("test_and_clear_referenced",
           [](ViewBox& b, std::int64_t p) { return b.get().test_and_clear_referenced(b.check(p)); })
      .def("start_writeback",
           [](ViewBox& b, std::int64_t p) { return b.get().start_writeback(b.check(p)); })
      .def("count_scanned",
           [](ViewBox& b, std::int64_t p) {
             const PageId page = b.check(p);
             if (!b.get().resident(page)) {
               throw PolicyError("count_scanned(" + std::to_string(p) +
                                 "): the page is not resident; only a resident page the policy "
                                 "examined and kept counts as scanned");
             }
             b.get().count_scanned(page);
           })
      .def("proc", [](ViewBox& b, std::int64_t p) { return b.get().proc(b.check(p)); })
      .def("kind", [](ViewBox& b, std::int64_t p) { return b.get().kind(b.check(p)); })
      .def_property_readonly("frames", [](ViewBox& b) { return b.get().frames(); })
      .def_property_readonly("resident_count", [](ViewBox& b) { return b.get().resident_count(); })
      .def_property_readonly("num_pages", [](ViewBox& b) { return b.get().trace().num_pages(); })
      .def_property_readonly("incoming",
                             [](ViewBox& b) -> std::optional<PageId> {
                               const PageId p = b.get().incoming();
                               if (p == kNoPage) return std::nullopt;
                               return p;
                             })
      .def_property_readonly("background", [](ViewBox& b) { return b.get().background(); })
      .def_property_readonly("async_writes", [](ViewBox& b) { return b.get().async_writes(); })
      .def_property_readonly("written", [](ViewBox& b) { return b.get().written(); })
      .def_property_readonly("valid", [](const ViewBox& b) { return b.view.has_value(); });

  py::class_<Policy, PyPolicy, std::shared_ptr<Policy>>(m, "Policy")
      .def(py::init<>())
      // Not virtual from Python's side: PyPolicy::traits reads the Python attribute.
      .def("traits", [](const Policy&) { return PolicyTraits{}; });

  m.def(
      "simulate_policy",
      [](const Trace& trace, const std::shared_ptr<Policy>& policy, const py::dict& params,
         const std::string& name) {
        const Params p = params_from_kwargs(params);
        auto* py_policy = dynamic_cast<PyPolicy*>(policy.get());
        struct EndRun {
          PyPolicy* policy;
          ~EndRun() {
            if (policy) policy->end_run();
          }
        } end_run{py_policy};
        if (py_policy) py_policy->start_run(name);
        // The GIL stays held: every callback runs Python code.
        try {
          return simulate(trace, *policy, p, name);
        } catch (py::error_already_set& e) {
          // An exception of the policy's own code: its traceback says where in the policy,
          // the note where in the run.
          if (py_policy && !py_policy->where().empty()) {
            e.value().attr("add_note")("raised" + py_policy->where());
          }
          throw;
        }
      },
      py::arg("trace"), py::arg("policy"), py::arg("params"), py::arg("name"));

  m.def("engine_parameter_names", [] {
    Params p{{"frames", std::int64_t{1}}};
    EngineConfig::from_params(p);
    return p.known_keys();
  });
}

}  // namespace pagesim::python
