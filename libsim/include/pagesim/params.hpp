#pragma once

#include <boost/container/flat_map.hpp>
#include <cstdint>
#include <initializer_list>
#include <string>
#include <string_view>
#include <variant>
#include <vector>

namespace pagesim {

// Named parameters of one run: engine settings (frames, ...) and policy settings (seed, ...)
// together. Readers validate the value and remember every key they were asked for, so that
// check_all_used() can reject an unknown key and suggest the closest known one.
class Params {
 public:
  using Value = std::variant<bool, std::int64_t, double, std::string>;

  Params() = default;
  Params(std::initializer_list<std::pair<const std::string, Value>> init)
      : values_(init.begin(), init.end()) {}

  Params& set(const std::string& key, Value value);
  bool has(std::string_view key) const;

  std::int64_t get_int(std::string_view key, std::int64_t fallback, std::int64_t lo,
                       std::int64_t hi) const;
  // A number in [lo, hi], or in (lo, hi] when `above_lo`.
  double get_double(std::string_view key, double fallback, double lo, double hi,
                    bool above_lo = false) const;
  bool get_bool(std::string_view key, bool fallback) const;
  std::string get_choice(std::string_view key, std::string_view fallback,
                         std::initializer_list<std::string_view> allowed) const;

  // Throws ConfigError naming the first key that no reader asked for, with the closest known
  // key as a suggestion. `context` names the run ("policy 'lru'").
  void check_all_used(std::string_view context) const;

  // Sorted by key: a handful of keys, kept in one array (Boost.Container's flat_map).
  template <class T>
  using Map = boost::container::flat_map<std::string, T, std::less<>>;
  const Map<Value>& values() const { return values_; }
  // Keys asked for so far (the known keys of this run).
  std::vector<std::string> known_keys() const;
  // The same, each with what it takes: "integer from 1 to 1000 (default 1)".
  const Map<std::string>& asked() const { return asked_; }

 private:
  // The value of `key`, or null; records the key and, the first time, what `describe()` says
  // it takes.
  template <class Describe>
  const Value* find(std::string_view key, Describe describe) const;

  Map<Value> values_;
  mutable Map<std::string> asked_;
};

// The closest candidate by edit distance (of those as close, the one sharing the longest
// prefix with `word`), or "" if none is reasonably close.
std::string closest_match(std::string_view word, const std::vector<std::string>& candidates);

std::string to_string(const Params::Value& value);

}  // namespace pagesim
