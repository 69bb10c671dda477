#pragma once

#include <functional>
#include <map>
#include <memory>
#include <string>
#include <string_view>
#include <vector>

#include "pagesim/engine.hpp"
#include "pagesim/params.hpp"
#include "pagesim/policy.hpp"
#include "pagesim/result.hpp"
#include "pagesim/trace.hpp"

namespace pagesim {

struct PolicyInfo {
  std::string name;
  std::string description;
  // A fresh instance for the virtual path (wrapping, composing, inspecting).
  std::function<std::unique_ptr<Policy>(const Params&)> make;
  // Constructs the concrete type and replays the trace with its callbacks inlined.
  std::function<Result(const Trace&, const EngineConfig&, const Params&)> run;
  // The source file that registered it (__FILE__), named when a name is registered twice.
  std::string file;
};

// Every policy known by name. Filled at load time by PAGESIM_REGISTER_POLICY lines.
class Registry {
 public:
  static Registry& instance();

  // Throws ConfigError naming both files if the name is taken.
  void add(PolicyInfo info);
  // Throws ConfigError naming the unknown policy, the closest known name and all names.
  const PolicyInfo& get(std::string_view name) const;
  bool contains(std::string_view name) const;
  // Sorted by name.
  std::vector<const PolicyInfo*> list() const;
  std::vector<std::string> names() const;
  // The parameters of a policy, each with what it takes ("integer from 1 to 1000 (default
  // 1)"): the keys its constructor reads, and those a boolean switch of it (default false)
  // reads when true (swap_token's swap_token_timeout).
  std::map<std::string, std::string, std::less<>> parameters(std::string_view name) const;

 private:
  std::vector<PolicyInfo> policies_;
};

// Runs a registered policy: reads the engine keys and the policy's keys from params, rejects
// any other key, and replays with the concrete policy type.
Result simulate(const Trace& trace, std::string_view policy, const Params& params);
// Runs any Policy object through virtual calls. `name` labels the result and errors.
Result simulate(const Trace& trace, Policy& policy, const Params& params,
                std::string_view name = "custom");

// Constructs the concrete type P and replays the trace with its callbacks inlined.
template <class P>
Result run_inlined(const std::string& name, const Trace& trace, const EngineConfig& config,
                   const Params& params) {
  P policy(params);
  params.check_all_used("policy '" + name + "'");
  Engine engine(trace, config, name);
  return engine.run(policy);
}

// `file` is the registering source file (__FILE__), named if the name is registered twice.
template <class P>
struct PolicyRegistrar {
  PolicyRegistrar(const char* name, const char* description, const char* file = "") {
    PolicyInfo info;
    info.name = name;
    info.description = description;
    info.file = file;
    info.make = [](const Params& params) -> std::unique_ptr<Policy> {
      return std::make_unique<P>(params);
    };
    info.run = [n = std::string(name)](const Trace& trace, const EngineConfig& config,
                                       const Params& params) {
      return run_inlined<P>(n, trace, config, params);
    };
    Registry::instance().add(std::move(info));
  }
};

// Registers a policy compiled twice, Off and On, as one name: the boolean parameter `key`
// (default false) picks the type. A mechanism that needs checks in the replay loop costs
// them only to the runs that ask for it.
template <class Off, class On>
struct SwitchedPolicyRegistrar {
  SwitchedPolicyRegistrar(const char* name, const char* description, const char* key,
                          const char* file = "") {
    PolicyInfo info;
    info.name = name;
    info.description = description;
    info.file = file;
    info.make = [key](const Params& params) -> std::unique_ptr<Policy> {
      if (params.get_bool(key, false)) return std::make_unique<On>(params);
      return std::make_unique<Off>(params);
    };
    info.run = [n = std::string(name), key](const Trace& trace, const EngineConfig& config,
                                            const Params& params) {
      if (params.get_bool(key, false)) return run_inlined<On>(n, trace, config, params);
      return run_inlined<Off>(n, trace, config, params);
    };
    Registry::instance().add(std::move(info));
  }
};

}  // namespace pagesim

#define PAGESIM_CONCAT_INNER(a, b) a##b
#define PAGESIM_CONCAT(a, b) PAGESIM_CONCAT_INNER(a, b)

// Registers Type (constructible from `const pagesim::Params&`) under `name`. One line at the
// bottom of the policy's own .cpp file; nothing else needs to change.
#define PAGESIM_REGISTER_POLICY(Type, name, description)                                      \
  static const ::pagesim::PolicyRegistrar<Type> PAGESIM_CONCAT(pagesim_registrar_, __LINE__)( \
      name, description, __FILE__)
