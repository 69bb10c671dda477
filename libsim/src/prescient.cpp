// Bounds on the optimum number of swap-outs: a lower bound for any trace, an exact optimum for
// small ones. See prescient.hpp.
//
// Write segments. Let page p (anonymous) be written at access a. Its write segment runs from
// a to p's next write a' (or to the end of the trace, N). Then, for any schedule,
//
//   swap-outs = number of write segments during which their page is evicted at least once.
//
// Proof: an eviction of p is a swap-out iff p is dirty, i.e. iff p was written since it was
// last brought in. Take an eviction at time s inside the segment [a, a'): if it is the first
// eviction of p after a, p has been resident and dirty since a, so it is a swap-out; if not,
// p was swapped out earlier in the segment and has only been read since (the next write is
// a'), so with the swap cache it is clean and the eviction is free. Evictions of p before its
// first write are free. (With free_slot_on_swapin a re-fetched page is dirty, which only adds
// swap-outs: the count is then a lower bound, which is all the bound below needs.) With
// free_on_exit the last segment of a page ends at its process's last access instead of N: the
// exit frees the page, dirty or not, without a write, and nothing after it needs the page.
//
// Packing. A segment without an eviction keeps its page resident at every access s with
// a < s < a'. After access s is served, memory holds at most F pages, among them page(s) and
// the page of every unbroken segment covering s (one per page: a page's segments do not
// overlap). So with U the set of unbroken segments, for every s
//
//   |{u in U : u covers s}| <= F - 1 + [page(s) is the page of a segment in U covering s].
//
// Relax the bracket to cap(s) = F - 1 + [s is a read of an anonymous page already written,
// i.e. page(s) has a segment covering s], which is at least the bracket, so U is a feasible
// packing of intervals (a, a') under the point capacities cap(s). Hence
//
//   swap-outs = segments - |U| >= segments - max packing.
//
// The maximum packing of unit-weight intervals under point capacities is found by the greedy
// that scans intervals by increasing right end and takes one whenever it fits (exchange
// argument: if an optimum O agrees with the greedy before interval I and rejects it, the
// points where O + I overflows lie in I and to the right of the first one, p; some interval J
// of O, later in the order, covers p, and since J ends no earlier than I it covers every
// overflowing point; O - J + I is feasible and as large). The greedy runs on a segment tree
// (range add, range max of load - cap) over the elementary ranges between interval ends, so
// memory is O(W) for W writes, not O(N).
#include "pagesim/prescient.hpp"

#include <algorithm>
#include <limits>
#include <string>

#include "pagesim/error.hpp"

namespace pagesim {
namespace {

constexpr std::uint32_t kNone = kNever;

// Open interval (first - 1, last + 1) of a segment as the inclusive access range it covers.
struct Segment {
  std::uint64_t first;
  std::uint64_t last;
};

// Range add, range max over n leaves.
class MaxAddTree {
 public:
  explicit MaxAddTree(const std::vector<std::int64_t>& leaves) : n_(leaves.size()) {
    size_ = 1;
    while (size_ < n_) size_ *= 2;
    max_.assign(2 * size_, std::numeric_limits<std::int64_t>::min() / 2);
    add_.assign(2 * size_, 0);
    for (std::size_t i = 0; i < n_; ++i) max_[size_ + i] = leaves[i];
    for (std::size_t i = size_; i-- > 1;) max_[i] = std::max(max_[2 * i], max_[2 * i + 1]);
  }
  std::int64_t max(std::size_t lo, std::size_t hi) const { return query(1, 0, size_ - 1, lo, hi); }
  void add(std::size_t lo, std::size_t hi, std::int64_t v) { update(1, 0, size_ - 1, lo, hi, v); }

 private:
  std::int64_t query(std::size_t node, std::size_t l, std::size_t r, std::size_t lo,
                     std::size_t hi) const {
    if (hi < l || r < lo) return std::numeric_limits<std::int64_t>::min() / 2;
    if (lo <= l && r <= hi) return max_[node];
    const std::size_t m = (l + r) / 2;
    return add_[node] + std::max(query(2 * node, l, m, lo, hi), query(2 * node + 1, m + 1, r, lo, hi));
  }
  void update(std::size_t node, std::size_t l, std::size_t r, std::size_t lo, std::size_t hi,
              std::int64_t v) {
    if (hi < l || r < lo) return;
    if (lo <= l && r <= hi) {
      max_[node] += v;
      add_[node] += v;
      return;
    }
    const std::size_t m = (l + r) / 2;
    update(2 * node, l, m, lo, hi, v);
    update(2 * node + 1, m + 1, r, lo, hi, v);
    max_[node] = add_[node] + std::max(max_[2 * node], max_[2 * node + 1]);
  }

  std::size_t n_;
  std::size_t size_;
  std::vector<std::int64_t> max_;
  std::vector<std::int64_t> add_;
};

// Calls seg(first, last) for every write segment with its covered accesses first..last
// (first > last when the segment covers no access) and point(i, inside) for every access i,
// inside = i is a read of an anonymous page with a segment covering i. A page's last segment
// runs to the end of the trace, or with `exits` to its process's last access (the exit frees
// the page).
template <class SegFn, class PointFn>
std::uint64_t scan_segments(const Trace& trace, SegFn&& seg, PointFn&& point, bool exits = false) {
  std::vector<std::uint64_t> last_write(trace.num_pages(), kNone);
  const std::size_t n = trace.size();
  std::uint64_t count = 0;
  for (std::size_t i = 0; i < n; ++i) {
    const PageId p = trace.page(i);
    const bool anon = trace.page_kind(p) == PageKind::kAnon;
    if (!anon) {
      point(i, false);
      continue;
    }
    if (trace.write(i)) {
      if (last_write[p] != kNone) {
        seg(last_write[p] + 1, std::uint64_t{i} - 1);
        ++count;
      }
      last_write[p] = i;
      point(i, false);
    } else {
      point(i, last_write[p] != kNone);
    }
  }
  const std::vector<std::size_t> end =
      exits ? trace.last_accesses() : std::vector<std::size_t>(trace.num_procs(), n - 1);
  for (PageId p = 0; p < trace.num_pages(); ++p) {
    if (last_write[p] == kNone) continue;
    seg(last_write[p] + 1, end[trace.page_proc(p)]);
    ++count;
  }
  return count;
}

struct Cost {
  std::uint64_t cost;
  std::uint64_t swap_outs;
  std::uint64_t faults;
  bool operator<(const Cost& o) const {
    if (cost != o.cost) return cost < o.cost;
    if (swap_outs != o.swap_outs) return swap_outs < o.swap_outs;
    return faults < o.faults;
  }
};

struct State {
  std::uint64_t key;  // resident mask | dirty mask << 32
  Cost cost;
};

}  // namespace

std::uint64_t count_dirty_segments(const Trace& trace) {
  return scan_segments(trace, [](std::uint64_t, std::uint64_t) {}, [](std::size_t, bool) {});
}

std::uint64_t swap_out_lower_bound(const Trace& trace, std::size_t frames, bool free_on_exit) {
  if (frames == 0) throw ConfigError("frames = 0 is out of range: memory needs at least 1 frame");
  std::vector<Segment> segments;
  const std::uint64_t total = scan_segments(
      trace,
      [&](std::uint64_t first, std::uint64_t last) {
        // A segment covering no access never needs its page evicted: always packed.
        if (first <= last) segments.push_back({first, last});
      },
      [](std::size_t, bool) {}, free_on_exit);
  if (segments.empty()) return 0;

  // Elementary ranges [xs[k], xs[k+1]) between segment ends.
  std::vector<std::uint64_t> xs;
  xs.reserve(2 * segments.size());
  for (const Segment& s : segments) {
    xs.push_back(s.first);
    xs.push_back(s.last + 1);
  }
  std::sort(xs.begin(), xs.end());
  xs.erase(std::unique(xs.begin(), xs.end()), xs.end());
  const std::size_t ranges = xs.size() - 1;

  // Leaf k = -(smallest capacity over range k) (the load starts at 0). A range has capacity
  // F only if every access in it is a read inside the reader's own segment.
  std::vector<std::uint8_t> all_inside(ranges, 1);
  std::size_t k = 0;
  scan_segments(
      trace, [](std::uint64_t, std::uint64_t) {},
      [&](std::size_t i, bool inside) {
        while (k < ranges && xs[k + 1] <= i) ++k;
        if (k < ranges && xs[k] <= i && !inside) all_inside[k] = 0;
      });
  std::vector<std::int64_t> leaves(ranges);
  const auto base = static_cast<std::int64_t>(frames) - 1;
  for (std::size_t r = 0; r < ranges; ++r) leaves[r] = -(base + all_inside[r]);
  MaxAddTree tree(leaves);

  std::sort(segments.begin(), segments.end(),
            [](const Segment& a, const Segment& b) { return a.last < b.last; });
  std::uint64_t packed = 0;
  for (const Segment& s : segments) {
    const auto lo = static_cast<std::size_t>(std::lower_bound(xs.begin(), xs.end(), s.first) - xs.begin());
    const auto hi = static_cast<std::size_t>(std::lower_bound(xs.begin(), xs.end(), s.last + 1) - xs.begin()) - 1;
    if (tree.max(lo, hi) <= -1) {
      tree.add(lo, hi, 1);
      ++packed;
    }
  }
  const std::uint64_t empty = total - segments.size();
  return total - empty - packed;
}

ExactOptimum exact_optimum(const Trace& trace, std::size_t frames, std::uint64_t fault_weight,
                           std::uint64_t swap_out_weight, std::size_t state_limit) {
  if (frames == 0) throw ConfigError("frames = 0 is out of range: memory needs at least 1 frame");
  if (trace.num_pages() > 32) {
    throw ConfigError("exact_optimum searches (resident set, dirty bits) states and takes at most 32 "
                      "distinct pages; this trace has " + std::to_string(trace.num_pages()));
  }
  std::uint32_t anon = 0;
  for (PageId p = 0; p < trace.num_pages(); ++p) {
    if (trace.page_kind(p) == PageKind::kAnon) anon |= 1u << p;
  }
  std::vector<State> states{{0, {0, 0, 0}}};
  std::vector<State> next;
  ExactOptimum out;
  out.max_states = 1;
  for (std::size_t i = 0; i < trace.size(); ++i) {
    const std::uint32_t bit = 1u << trace.page(i);
    const std::uint32_t wbit = trace.write(i) ? bit : 0;
    next.clear();
    for (const State& st : states) {
      const auto res = static_cast<std::uint32_t>(st.key);
      const auto dirty = static_cast<std::uint32_t>(st.key >> 32);
      if (res & bit) {
        next.push_back({res | (std::uint64_t{dirty | wbit} << 32), st.cost});
        continue;
      }
      Cost c = st.cost;
      c.cost += fault_weight;
      ++c.faults;
      if (static_cast<std::size_t>(__builtin_popcount(res)) < frames) {
        next.push_back({(res | bit) | (std::uint64_t{dirty | wbit} << 32), c});
        continue;
      }
      for (std::uint32_t rest = res; rest != 0; rest &= rest - 1) {
        const std::uint32_t v = rest & (~rest + 1);
        Cost e = c;
        if (dirty & anon & v) {
          e.cost += swap_out_weight;
          ++e.swap_outs;
        }
        const std::uint32_t r2 = (res & ~v) | bit;
        const std::uint32_t d2 = (dirty & ~v) | wbit;
        next.push_back({r2 | (std::uint64_t{d2} << 32), e});
      }
    }
    std::sort(next.begin(), next.end(), [](const State& a, const State& b) {
      return a.key != b.key ? a.key < b.key : a.cost < b.cost;
    });
    states.clear();
    for (const State& st : next) {
      if (states.empty() || states.back().key != st.key) states.push_back(st);
    }
    out.max_states = std::max(out.max_states, states.size());
    if (states.size() > state_limit) {
      throw ConfigError("exact_optimum: " + std::to_string(states.size()) + " states at access #" +
                        std::to_string(i) + " exceed the limit of " + std::to_string(state_limit) +
                        "; it is meant for small traces (a few pages, a few frames)");
    }
  }
  const State* best = &states.front();
  for (const State& st : states) {
    if (st.cost < best->cost) best = &st;
  }
  out.cost = best->cost.cost;
  out.swap_outs = best->cost.swap_outs;
  out.faults = best->cost.faults;
  return out;
}

}  // namespace pagesim
