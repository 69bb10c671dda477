#include "pagesim/mrc.hpp"

#include <algorithm>
#include <cmath>
#include <queue>
#include <string>
#include <utility>

#include "pagesim/engine.hpp"
#include "pagesim/error.hpp"

namespace pagesim {
namespace {

constexpr std::uint64_t kNone = ~std::uint64_t{0};
constexpr std::uint64_t kHashSpace = std::uint64_t{1} << 24;

// Counts over positions 1..n.
class Fenwick {
 public:
  explicit Fenwick(std::size_t n) : tree_(n + 1, 0) {}
  void add(std::size_t pos, std::int32_t v) {
    for (; pos < tree_.size(); pos += pos & (~pos + 1)) {
      tree_[pos] = static_cast<std::uint32_t>(static_cast<std::int64_t>(tree_[pos]) + v);
    }
  }
  // Sum over positions 1..pos.
  std::uint64_t prefix(std::size_t pos) const {
    std::uint64_t s = 0;
    for (; pos > 0; pos &= pos - 1) s += tree_[pos];
    return s;
  }

 private:
  std::vector<std::uint32_t> tree_;
};

// splitmix64: spreads page ids uniformly over the hash space (SHARDS samples by hash).
std::uint64_t page_hash(PageId p, std::uint64_t seed) {
  std::uint64_t z = p + seed * 0x9e3779b97f4a7c15ULL + 0x9e3779b97f4a7c15ULL;
  z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ULL;
  z = (z ^ (z >> 27)) * 0x94d049bb133111ebULL;
  return (z ^ (z >> 31)) & (kHashSpace - 1);
}

// faults[F] = misses + sum of hist[d] for d > F, F = 0..last.
template <class T>
std::vector<T> faults_from_histogram(const std::vector<T>& hist, T misses, std::size_t last) {
  std::vector<T> faults(last + 1, T{});
  T above = misses;
  for (std::size_t d = hist.size() - 1; d > last; --d) above += hist[d];
  for (std::size_t f = last + 1; f-- > 0;) {
    faults[f] = above;
    if (f < hist.size()) above += hist[f];
  }
  return faults;
}

}  // namespace

std::vector<std::uint64_t> lru_mrc(const Trace& trace) {
  const std::size_t n = trace.size();
  const std::size_t pages = trace.num_pages();
  std::vector<std::uint64_t> last(pages, kNone);
  std::vector<std::uint64_t> hist(pages + 2, 0);
  std::uint64_t cold = 0;
  Fenwick marks(n);
  const PageId* page = trace.pages().data();
  for (std::size_t i = 0; i < n; ++i) {
    const PageId p = page[i];
    // Access at time t is marked at position t + 1 while it is its page's latest.
    if (last[p] == kNone) {
      ++cold;
    } else {
      const std::uint64_t between = marks.prefix(i) - marks.prefix(last[p] + 1);
      ++hist[between + 1];
      marks.add(last[p] + 1, -1);
    }
    marks.add(i + 1, 1);
    last[p] = i;
  }
  return faults_from_histogram<std::uint64_t>(hist, cold, pages);
}

std::vector<double> shards_mrc(const Trace& trace, double rate, std::uint64_t seed) {
  if (!(rate > 0.0 && rate <= 1.0)) {
    throw ConfigError("SHARDS sampling rate " + std::to_string(rate) + " is out of range: (0, 1]");
  }
  const auto threshold = static_cast<std::uint64_t>(std::llround(rate * static_cast<double>(kHashSpace)));
  if (threshold == 0) {
    throw ConfigError("SHARDS sampling rate " + std::to_string(rate) + " samples nothing; at least 2^-24");
  }
  const double r = static_cast<double>(threshold) / static_cast<double>(kHashSpace);
  const std::size_t n = trace.size();
  const std::size_t pages = trace.num_pages();
  std::vector<std::uint8_t> sampled(pages);
  for (PageId p = 0; p < pages; ++p) sampled[p] = page_hash(p, seed) < threshold;

  std::vector<std::uint64_t> last(pages, kNone);
  std::vector<double> hist(pages + 2, 0.0);
  double cold = 0;
  std::uint64_t samples = 0;
  std::size_t sampled_accesses = 0;
  for (std::size_t i = 0; i < n; ++i) sampled_accesses += sampled[trace.page(i)];
  Fenwick marks(sampled_accesses);
  for (std::size_t i = 0; i < n; ++i) {
    const PageId p = trace.page(i);
    if (!sampled[p]) continue;
    const std::uint64_t t = samples++;
    if (last[p] == kNone) {
      cold += 1;
    } else {
      const std::uint64_t between = marks.prefix(t) - marks.prefix(last[p] + 1);
      const double scaled = static_cast<double>(between + 1) / r;
      const auto bucket = std::min<std::uint64_t>(static_cast<std::uint64_t>(std::llround(scaled)), pages + 1);
      hist[bucket] += 1;
      marks.add(last[p] + 1, -1);
    }
    marks.add(t + 1, 1);
    last[p] = t;
  }
  // SHARDS_adj: the expected number of sampled accesses is n * r; the difference from the
  // actual number goes to the smallest distance (it is mostly sampling noise in hot pages).
  const double expected = static_cast<double>(n) * r;
  hist[1] += expected - static_cast<double>(samples);
  std::vector<double> faults = faults_from_histogram<double>(hist, cold, pages);
  const double scale = expected > 0 ? static_cast<double>(n) / expected : 0.0;
  for (double& f : faults) f *= scale;
  faults[0] = static_cast<double>(n);
  return faults;
}

std::vector<double> shards_fixed_size_mrc(const Trace& trace, std::size_t max_pages, std::uint64_t seed) {
  if (max_pages == 0) throw ConfigError("SHARDS sample size 0 is out of range: at least 1 page");
  const std::size_t n = trace.size();
  const std::size_t pages = trace.num_pages();
  std::vector<std::uint64_t> last(pages, kNone);
  std::vector<std::uint8_t> in_sample(pages, 0);
  std::priority_queue<std::pair<std::uint64_t, PageId>> largest;  // (hash, page) of the sample
  std::uint64_t threshold = kHashSpace;
  std::vector<double> hist(pages + 2, 0.0);
  double cold = 0;
  double mass = 0;
  Fenwick marks(n);
  for (std::size_t i = 0; i < n; ++i) {
    const PageId p = trace.page(i);
    const std::uint64_t h = page_hash(p, seed);
    if (h >= threshold) continue;
    if (!in_sample[p]) {
      in_sample[p] = 1;
      largest.emplace(h, p);
      if (largest.size() > max_pages) {
        const std::uint64_t new_threshold = largest.top().first;
        while (!largest.empty() && largest.top().first >= new_threshold) {
          const PageId q = largest.top().second;
          largest.pop();
          in_sample[q] = 0;
          if (last[q] != kNone) marks.add(last[q] + 1, -1);
          last[q] = kNone;
        }
        const double ratio = static_cast<double>(new_threshold) / static_cast<double>(threshold);
        for (double& x : hist) x *= ratio;
        cold *= ratio;
        mass *= ratio;
        threshold = new_threshold;
        if (!in_sample[p]) continue;
      }
    }
    const double r = static_cast<double>(threshold) / static_cast<double>(kHashSpace);
    mass += 1;
    if (last[p] == kNone) {
      cold += 1;
    } else {
      const std::uint64_t between = marks.prefix(i) - marks.prefix(last[p] + 1);
      const double scaled = static_cast<double>(between + 1) / r;
      const auto bucket = std::min<std::uint64_t>(static_cast<std::uint64_t>(std::llround(scaled)), pages + 1);
      hist[bucket] += 1;
      marks.add(last[p] + 1, -1);
    }
    marks.add(i + 1, 1);
    last[p] = i;
  }
  // SHARDS_adj as in shards_mrc, with the final rate: after rescaling, every access counts
  // with weight final_rate in expectation.
  const double expected = static_cast<double>(n) * static_cast<double>(threshold) / static_cast<double>(kHashSpace);
  hist[1] += expected - mass;
  std::vector<double> faults = faults_from_histogram<double>(hist, cold, pages);
  const double scale = expected > 0 ? static_cast<double>(n) / expected : 0.0;
  for (double& f : faults) f *= scale;
  faults[0] = static_cast<double>(n);
  return faults;
}

std::vector<std::uint64_t> opt_mrc(const Trace& trace, std::size_t max_frames) {
  const std::size_t pages = trace.num_pages();
  const std::size_t depth = (max_frames == 0 || max_frames > pages) ? pages : max_frames;
  const std::vector<std::uint32_t> next_use = Engine::compute_next_use(trace);
  constexpr std::size_t kOut = ~std::size_t{0};
  std::vector<std::size_t> pos(pages, kOut);
  std::vector<std::uint32_t> next(pages, kNever);
  std::vector<PageId> stack;
  stack.reserve(depth);
  std::vector<std::uint64_t> hist(depth + 2, 0);
  std::uint64_t misses = 0;  // cold, or deeper than `depth`
  // Sooner next use is higher priority; among pages never used again, the lower id.
  const auto higher = [&](PageId a, PageId b) {
    return next[a] != next[b] ? next[a] < next[b] : a < b;
  };
  for (std::size_t i = 0; i < trace.size(); ++i) {
    const PageId x = trace.page(i);
    const std::size_t d = pos[x];
    if (d == kOut) {
      ++misses;
    } else {
      ++hist[d + 1];
    }
    next[x] = next_use[i];
    const std::size_t limit = d == kOut ? stack.size() : d;
    PageId carry = x;
    for (std::size_t k = 0; k < limit; ++k) {
      if (k == 0 || higher(carry, stack[k])) {
        std::swap(carry, stack[k]);
        pos[stack[k]] = k;
      }
    }
    if (d != kOut) {
      stack[d] = carry;
      pos[carry] = d;
    } else if (stack.size() < depth) {
      pos[carry] = stack.size();
      stack.push_back(carry);
    } else {
      pos[carry] = kOut;
    }
  }
  return faults_from_histogram<std::uint64_t>(hist, misses, depth);
}

}  // namespace pagesim
