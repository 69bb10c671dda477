#include "pagesim/registry.hpp"

#include <algorithm>
#include <string>

#include "pagesim/error.hpp"

namespace pagesim {

void Policy::on_free(PageId page, PageTableView /*view*/) {
  throw PolicyError("on_free(page, view) is not implemented; free_on_exit=true calls it for each "
                    "anonymous page of an exiting process (here page " + std::to_string(page) +
                    "): implement it, or run with free_on_exit=false");
}

std::string CallbackSite::text() const {
  if (callback == nullptr) return "";
  if (what == nullptr) return callback;
  return std::string(callback) + " " + what + std::to_string(value);
}

Registry& Registry::instance() {
  static Registry registry;
  return registry;
}

void Registry::add(PolicyInfo info) {
  for (const auto& p : policies_) {
    if (p.name != info.name) continue;
    const auto in = [](const std::string& file) {
      return file.empty() ? std::string("a registrar given no file") : file;
    };
    throw ConfigError("policy '" + info.name + "' is registered twice: in " + in(p.file) +
                      " and in " + in(info.file) + "; give one another name");
  }
  policies_.push_back(std::move(info));
}

bool Registry::contains(std::string_view name) const {
  return std::any_of(policies_.begin(), policies_.end(),
                     [&](const PolicyInfo& p) { return p.name == name; });
}

const PolicyInfo& Registry::get(std::string_view name) const {
  for (const auto& p : policies_) {
    if (p.name == name) return p;
  }
  const auto all = names();
  std::string msg = "unknown policy '" + std::string(name) + "'";
  const std::string near = closest_match(name, all);
  if (!near.empty()) msg += ": did you mean '" + near + "'?";
  std::string list;
  for (const auto& n : all) list += (list.empty() ? "" : ", ") + n;
  throw ConfigError(msg + " (known: " + list + ")");
}

std::vector<const PolicyInfo*> Registry::list() const {
  std::vector<const PolicyInfo*> out;
  for (const auto& p : policies_) out.push_back(&p);
  std::sort(out.begin(), out.end(),
            [](const PolicyInfo* a, const PolicyInfo* b) { return a->name < b->name; });
  return out;
}

std::vector<std::string> Registry::names() const {
  std::vector<std::string> out;
  for (const auto* p : list()) out.push_back(p->name);
  return out;
}

std::map<std::string, std::string, std::less<>> Registry::parameters(std::string_view name) const {
  const PolicyInfo& info = get(name);
  Params none;
  info.make(none);
  std::map<std::string, std::string, std::less<>> out(none.asked().begin(), none.asked().end());
  for (const auto& [key, what] : none.asked()) {
    if (what != "true or false (default false)") continue;
    Params on{{key, true}};
    try {
      info.make(on);
    } catch (const Error&) {
      // A switch that cannot be on alone with the defaults: its own keys stay unlisted.
    }
    out.insert(on.asked().begin(), on.asked().end());
  }
  return out;
}

Result simulate(const Trace& trace, std::string_view policy, const Params& params) {
  const PolicyInfo& info = Registry::instance().get(policy);
  const EngineConfig config = EngineConfig::from_params(params);
  return info.run(trace, config, params);
}

Result simulate(const Trace& trace, Policy& policy, const Params& params, std::string_view name) {
  const EngineConfig config = EngineConfig::from_params(params);
  params.check_all_used("policy '" + std::string(name) + "'");
  Engine engine(trace, config, std::string(name));
  return engine.run(policy);
}

}  // namespace pagesim
