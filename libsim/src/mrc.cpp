#include "pagesim/mrc.hpp"

#include <algorithm>
#include <cmath>
#include <cstdio>
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
  // A tree over n positions with a 1 at positions 1..k, built in O(n).
  static Fenwick ones(std::size_t n, std::size_t k) {
    Fenwick f(n);
    for (std::size_t pos = 1; pos <= n; ++pos) {
      const std::size_t low = pos & (~pos + 1);
      // Node pos covers (pos - low, pos]; count the ones there.
      const std::size_t from = pos - low;
      f.tree_[pos] = static_cast<std::uint32_t>(k > from ? std::min(k, pos) - from : 0);
    }
    return f;
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

// The hash threshold of sampling at `rate`: a page is sampled iff page_hash < it. ConfigError
// naming `what` for a rate outside (0, 1] or one that samples nothing.
std::uint64_t sample_threshold(double rate, const std::string& what) {
  if (!(rate > 0.0 && rate <= 1.0)) {
    throw ConfigError(what + " sampling rate " + std::to_string(rate) + " is out of range: (0, 1]");
  }
  const auto threshold =
      static_cast<std::uint64_t>(std::llround(rate * static_cast<double>(kHashSpace)));
  if (threshold == 0) {
    throw ConfigError(what + " sampling rate " + std::to_string(rate) +
                      " samples nothing; at least 2^-24");
  }
  return threshold;
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

// A SHARDS histogram's faults, counted in sampled accesses (`expected` of them, in
// expectation), scaled to the trace's n accesses. With 0 frames every access faults; no
// estimate is above that or below 0 (SHARDS_adj's correction can be negative, and a small
// sample can then put the curve beyond the accesses).
std::vector<double> scaled_estimate(std::vector<double> faults, double expected, std::size_t n) {
  const double scale = expected > 0 ? static_cast<double>(n) / expected : 0.0;
  for (double& f : faults) f = std::clamp(f * scale, 0.0, static_cast<double>(n));
  faults[0] = static_cast<double>(n);
  return faults;
}

}  // namespace

std::vector<std::uint64_t> lru_mrc(const Trace& trace) {
  const std::size_t n = trace.size();
  const std::size_t pages = trace.num_pages();
  // Each page's latest access is marked at a position of the tree; positions increase with
  // time. Only `pages` marks are live at once, so the tree holds 2 * pages positions (small
  // enough to stay in cache) and, when they run out, the live marks are renumbered 1..k in
  // order, which keeps distances: amortised O(1) per access on top of the O(log P) queries.
  const std::size_t capacity = std::min<std::size_t>(n, std::max<std::size_t>(2 * pages, 1024));
  std::vector<std::uint64_t> last(pages, kNone);  // position of p's latest access
  std::vector<PageId> at(capacity + 1, kNoPage);  // page marked at each position
  std::vector<std::uint64_t> hist(pages + 2, 0);
  std::uint64_t cold = 0;
  Fenwick marks(capacity);
  std::size_t next_pos = 1;
  const PageId* page = trace.pages().data();
  for (std::size_t i = 0; i < n; ++i) {
    if (next_pos > capacity) {
      std::size_t k = 0;
      for (std::size_t pos = 1; pos <= capacity; ++pos) {
        const PageId q = at[pos];
        if (q == kNoPage || last[q] != pos) continue;
        at[++k] = q;
        last[q] = k;
      }
      std::fill(at.begin() + static_cast<std::ptrdiff_t>(k) + 1, at.end(), kNoPage);
      marks = Fenwick::ones(capacity, k);
      next_pos = k + 1;
    }
    const PageId p = page[i];
    if (last[p] == kNone) {
      ++cold;
    } else {
      const std::uint64_t between = marks.prefix(next_pos - 1) - marks.prefix(last[p]);
      ++hist[between + 1];
      marks.add(last[p], -1);
    }
    marks.add(next_pos, 1);
    at[next_pos] = p;
    last[p] = next_pos++;
  }
  return faults_from_histogram<std::uint64_t>(hist, cold, pages);
}

std::vector<double> shards_mrc(const Trace& trace, double rate, std::uint64_t seed) {
  const std::uint64_t threshold = sample_threshold(rate, "SHARDS");
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
  return scaled_estimate(faults_from_histogram<double>(hist, cold, pages), expected, n);
}

std::vector<double> shards_fixed_size_mrc(const Trace& trace, std::size_t max_pages, std::uint64_t seed) {
  if (max_pages == 0) throw ConfigError("SHARDS sample size 0 is out of range: at least 1 page");
  const std::size_t n = trace.size();
  const std::size_t pages = trace.num_pages();
  std::vector<std::uint64_t> last(pages, kNone);
  std::vector<std::uint8_t> in_sample(pages, 0);
  std::priority_queue<std::pair<std::uint64_t, PageId>> largest;  // (hash, page) of the sample
  std::uint64_t threshold = kHashSpace;
  // An access sampled at rate r(t) is counted with weight 1 / r(t) and everything is
  // multiplied by the final rate at the end: the same as rescaling the histogram by
  // new_rate / old_rate at every drop, without touching it.
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
        threshold = largest.top().first;
        while (!largest.empty() && largest.top().first >= threshold) {
          const PageId q = largest.top().second;
          largest.pop();
          in_sample[q] = 0;
          if (last[q] != kNone) marks.add(last[q] + 1, -1);
          last[q] = kNone;
        }
        if (!in_sample[p]) continue;
      }
    }
    const double r = static_cast<double>(threshold) / static_cast<double>(kHashSpace);
    const double weight = 1.0 / r;
    mass += weight;
    if (last[p] == kNone) {
      cold += weight;
    } else {
      const std::uint64_t between = marks.prefix(i) - marks.prefix(last[p] + 1);
      const double scaled = static_cast<double>(between + 1) / r;
      const auto bucket = std::min<std::uint64_t>(static_cast<std::uint64_t>(std::llround(scaled)), pages + 1);
      hist[bucket] += weight;
      marks.add(last[p] + 1, -1);
    }
    marks.add(i + 1, 1);
    last[p] = i;
  }
  const double final_rate = static_cast<double>(threshold) / static_cast<double>(kHashSpace);
  for (double& x : hist) x *= final_rate;
  cold *= final_rate;
  mass *= final_rate;
  // SHARDS_adj as in shards_mrc, with the final rate: after rescaling, every access counts
  // with weight final_rate in expectation.
  const double expected = static_cast<double>(n) * final_rate;
  hist[1] += expected - mass;
  return scaled_estimate(faults_from_histogram<double>(hist, cold, pages), expected, n);
}

std::vector<std::uint64_t> opt_mrc(const Trace& trace, std::size_t max_frames) {
  const std::size_t pages = trace.num_pages();
  const std::size_t depth = (max_frames == 0 || max_frames > pages) ? pages : max_frames;
  const auto next_use = Engine::compute_next_use(trace);
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

namespace {

// `times` sorted, each once; a 0 is a ConfigError naming `function` and what a time is there.
std::vector<std::uint64_t> sorted_times(std::vector<std::uint64_t> times, const char* function,
                                        const char* name) {
  for (const std::uint64_t w : times) {
    if (w == 0) {
      throw ConfigError(std::string(function) + ": " + name +
                        " is a number of accesses, at least 1; got 0");
    }
  }
  std::sort(times.begin(), times.end());
  times.erase(std::unique(times.begin(), times.end()), times.end());
  return times;
}

// working_set_curve for the whole trace (one group, the trace's time) or for each process
// (a group each, in its own time).
std::vector<std::vector<WorkingSetPoint>> working_set_curves(const Trace& trace,
                                                             std::vector<std::uint64_t> windows,
                                                             bool per_process) {
  windows = sorted_times(std::move(windows), "working_set_curve", "a window");
  // Per group, bucket k holds the gaps g with windows[k - 1] < g <= windows[k]; the last,
  // those above every window.
  const std::size_t buckets = windows.size() + 1;
  const std::size_t groups = per_process ? trace.num_procs() : 1;
  struct Bucket {
    std::uint64_t gaps = 0, gap_sum = 0;            // every gap: what W's sizes add up
    std::uint64_t intervals = 0, interval_sum = 0;  // the gaps between two references
  };
  std::vector<Bucket> bucket(groups * buckets);
  const auto add = [&](std::size_t group, std::uint64_t gap, bool interval) {
    const auto k = static_cast<std::size_t>(std::lower_bound(windows.begin(), windows.end(), gap) -
                                            windows.begin());
    Bucket& b = bucket[group * buckets + k];
    ++b.gaps;
    b.gap_sum += gap;
    b.intervals += interval;
    b.interval_sum += interval ? gap : 0;
  };
  // A page belongs to one process: its group's clock is its time.
  const auto group_of = [&](PageId p) -> std::size_t {
    return per_process ? trace.page_proc(p) : 0;
  };
  std::vector<std::uint64_t> clock(groups, 0), first_references(groups, 0);
  std::vector<std::uint64_t> last(trace.num_pages(), kNone);
  for (std::size_t i = 0; i < trace.size(); ++i) {
    const PageId p = trace.page(i);
    const std::size_t g = group_of(p);
    const std::uint64_t now = clock[g]++;
    if (last[p] == kNone) {
      ++first_references[g];
    } else {
      add(g, now - last[p], true);
    }
    last[p] = now;
  }
  for (PageId p = 0; p < last.size(); ++p) {
    if (last[p] != kNone) add(group_of(p), clock[group_of(p)] - last[p], false);
  }
  std::vector<std::vector<WorkingSetPoint>> curves(groups);
  for (std::size_t g = 0; g < groups; ++g) {
    const Bucket* b = &bucket[g * buckets];
    // From the largest window down: the buckets above window k are those after it.
    std::vector<WorkingSetPoint>& points = curves[g];
    points.resize(windows.size());
    std::uint64_t gaps_above = b[windows.size()].gaps;
    std::uint64_t intervals_above = b[windows.size()].intervals;
    std::uint64_t sum_at_or_below = 0, interval_sum_at_or_below = 0;
    for (std::size_t k = 0; k < windows.size(); ++k) {
      sum_at_or_below += b[k].gap_sum;
      interval_sum_at_or_below += b[k].interval_sum;
    }
    // Each page has one first and one last reference: first_references counts both.
    for (std::size_t k = windows.size(); k-- > 0;) {
      points[k] = {windows[k], first_references[g] + intervals_above,
                   sum_at_or_below + windows[k] * gaps_above, clock[g],
                   interval_sum_at_or_below + intervals_above + first_references[g]};
      gaps_above += b[k].gaps;
      intervals_above += b[k].intervals;
      sum_at_or_below -= b[k].gap_sum;
      interval_sum_at_or_below -= b[k].interval_sum;
    }
  }
  return curves;
}

// pff_curve for the whole trace or for each process, in its own time.
std::vector<std::vector<PffPoint>> pff_curves(const Trace& trace,
                                              std::vector<std::uint64_t> thresholds,
                                              bool per_process) {
  thresholds = sorted_times(std::move(thresholds), "pff_curve", "a threshold");
  const std::size_t groups = per_process ? trace.num_procs() : 1;
  std::vector<std::vector<PffPoint>> curves(groups);
  // Per group: its clock, its resident pages, the time of its last fault.
  struct Group {
    std::uint64_t clock = 0, last_fault = kNone;
    std::vector<PageId> pages;
  };
  for (const std::uint64_t threshold : thresholds) {
    std::vector<Group> group(groups);
    std::vector<std::uint64_t> last_use(trace.num_pages(), kNone);  // kNone: not resident
    std::vector<std::uint64_t> faults(groups, 0), size_sum(groups, 0);
    for (std::size_t i = 0; i < trace.size(); ++i) {
      const PageId p = trace.page(i);
      const std::size_t g = per_process ? trace.page_proc(p) : 0;
      Group& q = group[g];
      const std::uint64_t now = q.clock++;
      if (last_use[p] == kNone) {
        ++faults[g];
        if (q.last_fault != kNone && now - q.last_fault > threshold) {
          // Keep the pages used at or since the last fault; drop the others.
          std::size_t kept = 0;
          for (const PageId r : q.pages) {
            if (last_use[r] >= q.last_fault) {
              q.pages[kept++] = r;
            } else {
              last_use[r] = kNone;
            }
          }
          q.pages.resize(kept);
        }
        q.pages.push_back(p);
        q.last_fault = now;
      }
      last_use[p] = now;
      size_sum[g] += q.pages.size();
    }
    for (std::size_t g = 0; g < groups; ++g) {
      curves[g].push_back({threshold, faults[g], size_sum[g], group[g].clock});
    }
  }
  return curves;
}

}  // namespace

std::vector<WorkingSetPoint> working_set_curve(const Trace& trace,
                                               std::vector<std::uint64_t> windows) {
  return working_set_curves(trace, std::move(windows), false)[0];
}

std::vector<std::vector<WorkingSetPoint>> working_set_curves_per_process(
    const Trace& trace, std::vector<std::uint64_t> windows) {
  return working_set_curves(trace, std::move(windows), true);
}

std::vector<PffPoint> pff_curve(const Trace& trace, std::vector<std::uint64_t> thresholds) {
  return pff_curves(trace, std::move(thresholds), false)[0];
}

std::vector<std::vector<PffPoint>> pff_curves_per_process(const Trace& trace,
                                                          std::vector<std::uint64_t> thresholds) {
  return pff_curves(trace, std::move(thresholds), true);
}

std::vector<std::vector<double>> working_set_sizes(const Trace& trace, std::uint64_t window,
                                                   std::uint64_t every, bool per_process) {
  if (window == 0 || every == 0) {
    throw ConfigError(std::string("working_set_sizes: ") + (window == 0 ? "the window" : "every") +
                      " is a number of accesses, at least 1; got 0");
  }
  const std::size_t n = trace.size();
  const std::size_t groups = per_process ? trace.num_procs() : 1;
  const auto group_of = [&](std::size_t i) -> std::size_t {
    return per_process ? trace.page_proc(trace.page(i)) : 0;
  };
  // Each group's accesses in order (positions of the trace), and each access's index among
  // them: its group's time.
  std::vector<std::size_t> first(groups + 1, 0);
  for (std::size_t i = 0; i < n; ++i) ++first[group_of(i) + 1];
  for (std::size_t g = 0; g < groups; ++g) first[g + 1] += first[g];
  std::vector<std::uint32_t> order(n), time(n);
  {
    std::vector<std::size_t> filled(first.begin(), first.end() - 1);
    for (std::size_t i = 0; i < n; ++i) {
      const std::size_t g = group_of(i);
      time[i] = static_cast<std::uint32_t>(filled[g] - first[g]);
      order[filled[g]++] = static_cast<std::uint32_t>(i);
    }
  }
  // Access i puts its page in its group's working set from position i until (not including)
  // `end`: its group's access at time min(next use, time + window), or, past the group's
  // last access, the position after it.
  const auto next_use = Engine::compute_next_use(trace);
  std::vector<std::size_t> ends_at(n + 2, 0);  // counting sort of the ends by position
  std::vector<std::uint32_t> end_of(n);
  for (std::size_t i = 0; i < n; ++i) {
    const std::size_t g = group_of(i);
    const std::uint64_t count = first[g + 1] - first[g];
    std::uint64_t until = time[i] + window;
    if (next_use[i] != kNever) until = std::min<std::uint64_t>(until, time[next_use[i]]);
    end_of[i] = until < count ? order[first[g] + until] : order[first[g + 1] - 1] + 1;
    ++ends_at[end_of[i] + 1];
  }
  for (std::size_t t = 0; t <= n; ++t) ends_at[t + 1] += ends_at[t];
  std::vector<std::uint32_t> ending(n);  // the groups whose pages leave, by position
  {
    std::vector<std::size_t> filled(ends_at.begin(), ends_at.end() - 1);
    for (std::size_t i = 0; i < n; ++i)
      ending[filled[end_of[i]]++] = static_cast<std::uint32_t>(group_of(i));
  }
  // Sweep the positions: each group's size, and its area (size x positions) since the block
  // began, brought up to date when the size changes.
  const std::size_t blocks = (n + every - 1) / every;
  std::vector<std::vector<double>> out(groups, std::vector<double>(blocks, 0.0));
  std::vector<std::uint64_t> size(groups, 0), area(groups, 0), since(groups, 0);
  const auto change = [&](std::size_t g, std::size_t t, bool up) {
    area[g] += size[g] * (t - since[g]);
    since[g] = t;
    size[g] = up ? size[g] + 1 : size[g] - 1;
  };
  for (std::size_t b = 0; b < blocks; ++b) {
    const std::size_t begin = b * every, end = std::min<std::size_t>(n, begin + every);
    for (std::size_t t = begin; t < end; ++t) {
      for (std::size_t k = ends_at[t]; k < ends_at[t + 1]; ++k) change(ending[k], t, false);
      change(group_of(t), t, true);
    }
    for (std::size_t g = 0; g < groups; ++g) {
      area[g] += size[g] * (end - since[g]);
      since[g] = end;
      out[g][b] = static_cast<double>(area[g]) / static_cast<double>(end - begin);
      area[g] = 0;
    }
  }
  return out;
}

SampledTrace sample_trace(const Trace& trace, double rate, std::uint64_t seed) {
  const std::uint64_t threshold = sample_threshold(rate, "trace");
  std::vector<std::uint8_t> sampled(trace.num_pages());
  for (PageId p = 0; p < sampled.size(); ++p) sampled[p] = page_hash(p, seed) < threshold;
  const double r = static_cast<double>(threshold) / static_cast<double>(kHashSpace);
  char rate_text[32];
  std::snprintf(rate_text, sizeof rate_text, "%g", r);
  TraceBuilder b(trace.page_size(), trace.source() + " sampled at rate " + rate_text);
  for (std::size_t i = 0; i < trace.size(); ++i) {
    if (sampled[trace.page(i)]) b.add_access_of(trace, i);
  }
  return {std::move(b).build(), r};
}

}  // namespace pagesim
