#include "pagesim/params.hpp"

#include <algorithm>
#include <cmath>
#include <sstream>

#include "pagesim/error.hpp"

namespace pagesim {
namespace {

const char* type_name(const Params::Value& v) {
  switch (v.index()) {
    case 0: return "a boolean";
    case 1: return "an integer";
    case 2: return "a number";
    default: return "a string";
  }
}

[[noreturn]] void wrong_type(std::string_view key, const Params::Value& v, const char* wanted) {
  throw ConfigError("parameter '" + std::string(key) + "' must be " + wanted + ", got " +
                    type_name(v) + " (" + to_string(v) + ")");
}

// Optimal string alignment distance: Levenshtein plus the swap of two adjacent letters as one
// edit, so "lur" is 1 from "lru" (and 2 from "car").
std::size_t edit_distance(std::string_view a, std::string_view b) {
  std::vector<std::size_t> before(b.size() + 1), prev(b.size() + 1), row(b.size() + 1);
  for (std::size_t j = 0; j <= b.size(); ++j) prev[j] = j;
  for (std::size_t i = 1; i <= a.size(); ++i) {
    row[0] = i;
    for (std::size_t j = 1; j <= b.size(); ++j) {
      row[j] = std::min({prev[j] + 1, row[j - 1] + 1, prev[j - 1] + (a[i - 1] == b[j - 1] ? 0 : 1)});
      if (i > 1 && j > 1 && a[i - 1] == b[j - 2] && a[i - 2] == b[j - 1]) {
        row[j] = std::min(row[j], before[j - 2] + 1);
      }
    }
    std::swap(before, prev);
    std::swap(prev, row);
  }
  return prev[b.size()];
}

}  // namespace

std::string to_string(const Params::Value& value) {
  std::ostringstream out;
  std::visit(
      [&](const auto& v) {
        using T = std::decay_t<decltype(v)>;
        if constexpr (std::is_same_v<T, bool>) {
          out << (v ? "true" : "false");
        } else if constexpr (std::is_same_v<T, std::string>) {
          out << '\'' << v << '\'';
        } else {
          out << v;
        }
      },
      value);
  return out.str();
}

std::string closest_match(std::string_view word, const std::vector<std::string>& candidates) {
  // Of candidates as close, the one sharing the longest prefix ("lruu": lru, not lrfu).
  const auto shared_prefix = [&](std::string_view c) {
    const auto end = std::mismatch(word.begin(), word.end(), c.begin(), c.end());
    return static_cast<std::size_t>(end.first - word.begin());
  };
  std::string best;
  std::size_t best_distance = std::max<std::size_t>(2, word.size() / 2) + 1;
  for (const auto& c : candidates) {
    const std::size_t d = edit_distance(word, c);
    if (d < best_distance ||
        (d == best_distance && !best.empty() && shared_prefix(c) > shared_prefix(best))) {
      best_distance = d;
      best = c;
    }
  }
  return best;
}

Params& Params::set(const std::string& key, Value value) {
  values_[key] = std::move(value);
  return *this;
}

bool Params::has(std::string_view key) const { return values_.find(key) != values_.end(); }

template <class Describe>
const Params::Value* Params::find(std::string_view key, Describe describe) const {
  if (asked_.find(key) == asked_.end()) asked_.emplace(std::string(key), describe());
  auto it = values_.find(key);
  return it == values_.end() ? nullptr : &it->second;
}

std::int64_t Params::get_int(std::string_view key, std::int64_t fallback, std::int64_t lo,
                             std::int64_t hi) const {
  const Value* v = find(key, [&] {
    return "integer from " + std::to_string(lo) + " to " + std::to_string(hi) + " (default " +
           std::to_string(fallback) + ")";
  });
  if (!v) return fallback;
  std::int64_t x = 0;
  if (auto* i = std::get_if<std::int64_t>(v)) {
    x = *i;
  } else if (auto* d = std::get_if<double>(v); d && std::floor(*d) == *d && std::abs(*d) < 9e15) {
    x = static_cast<std::int64_t>(*d);
  } else {
    // Name the allowed range here too: "must be an integer" alone does not say which.
    const std::string wanted =
        "an integer from " + std::to_string(lo) + " to " + std::to_string(hi);
    wrong_type(key, *v, wanted.c_str());
  }
  if (x < lo || x > hi) {
    throw ConfigError("parameter '" + std::string(key) + "' = " + std::to_string(x) +
                      " is out of range: allowed " + std::to_string(lo) + " to " +
                      std::to_string(hi));
  }
  return x;
}

double Params::get_double(std::string_view key, double fallback, double lo, double hi,
                          bool above_lo) const {
  // "0 to 1", or "above 0, up to 1".
  std::ostringstream bounds;
  bounds << (above_lo ? "above " : "") << lo << (above_lo ? ", up to " : " to ") << hi;
  const Value* v = find(key, [&] {
    std::ostringstream out;
    out << "number " << (above_lo ? "" : "from ") << bounds.str() << " (default " << fallback
        << ")";
    return out.str();
  });
  if (!v) return fallback;
  double x = 0;
  if (auto* d = std::get_if<double>(v)) {
    x = *d;
  } else if (auto* i = std::get_if<std::int64_t>(v)) {
    x = static_cast<double>(*i);
  } else {
    wrong_type(key, *v, "a number");
  }
  if (!((above_lo ? x > lo : x >= lo) && x <= hi)) {
    std::ostringstream msg;
    msg << "parameter '" << key << "' = " << x << " is out of range: allowed " << bounds.str();
    throw ConfigError(msg.str());
  }
  return x;
}

bool Params::get_bool(std::string_view key, bool fallback) const {
  const Value* v = find(key, [&] {
    return std::string("true or false (default ") + (fallback ? "true)" : "false)");
  });
  if (!v) return fallback;
  if (auto* b = std::get_if<bool>(v)) return *b;
  if (auto* i = std::get_if<std::int64_t>(v); i && (*i == 0 || *i == 1)) return *i == 1;
  wrong_type(key, *v, "a boolean (true or false)");
}

std::string Params::get_choice(std::string_view key, std::string_view fallback,
                               std::initializer_list<std::string_view> allowed) const {
  std::string list;
  for (auto a : allowed) list += (list.empty() ? "" : ", ") + std::string(a);
  const Value* v =
      find(key, [&] { return "one of " + list + " (default " + std::string(fallback) + ")"; });
  if (!v) return std::string(fallback);
  auto* s = std::get_if<std::string>(v);
  if (!s) wrong_type(key, *v, ("one of " + list).c_str());
  for (auto a : allowed) {
    if (*s == a) return *s;
  }
  throw ConfigError("parameter '" + std::string(key) + "' = '" + *s +
                    "' is not allowed: choose one of " + list);
}

std::vector<std::string> Params::known_keys() const {
  std::vector<std::string> out;
  for (const auto& [key, what] : asked_) out.push_back(key);
  return out;
}

void Params::check_all_used(std::string_view context) const {
  for (const auto& [key, value] : values_) {
    if (asked_.count(key)) continue;
    std::string msg = "unknown parameter '" + key + "' for " + std::string(context);
    const std::string near = closest_match(key, known_keys());
    if (!near.empty()) msg += ": did you mean '" + near + "'?";
    std::string list;
    for (const auto& [k, what] : asked_) list += (list.empty() ? "" : ", ") + k;
    msg += " (known: " + list + ")";
    throw ConfigError(msg);
  }
}

}  // namespace pagesim
