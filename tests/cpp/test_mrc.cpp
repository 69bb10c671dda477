// One-pass miss-ratio curves against the simulations they stand for, at every memory size.
#include <doctest/doctest.h>

#include <cmath>
#include <map>
#include <set>

#include "helpers.hpp"
#include "pagesim/generators.hpp"
#include "pagesim/mrc.hpp"
#include "random_traces.hpp"

namespace pagesim::test {
namespace {

void check_lru_curve(const Trace& t) {
  const auto curve = lru_mrc(t);
  REQUIRE(curve.size() == t.num_pages() + 1);
  CHECK(curve[0] == t.size());
  for (std::size_t f = 1; f <= t.num_pages(); ++f) {
    CAPTURE(f);
    CHECK(curve[f] == run(t, "lru", static_cast<std::int64_t>(f)).faults);
  }
}

TEST_CASE("LRU and OPT curves, hand-traced: 1 2 3 1 2 4 1") {
  // LRU stack distances: 1 2 3 cold, 1 at distance 3 (1,3,2 since), 2 at 3 (2,1,3),
  // 4 cold, 1 at 3 (1,4,2). Faults: F=1,2: all 7; F=3: 4 cold; F>=4: 4.
  const Trace t = text("R 1\nR 2\nR 3\nR 1\nR 2\nR 4\nR 1\n");
  CHECK(lru_mrc(t) == std::vector<std::uint64_t>{7, 7, 7, 4, 4});
  // MIN, F=1: 7 (no page is accessed twice in a row).
  // F=2: R1 [1]  R2 [1 2]  R3 evicts 2 (next #4; 1 next #3) [1 3]  R1 hit
  //      R2 evicts 3 (never) [1 2]  R4 evicts 2 (never) [1 4]  R1 hit: 5 faults.
  // F=3: R1 R2 R3 [1 2 3]  R1 hit  R2 hit  R4 evicts 2 or 3 (never) [1 . 4]  R1 hit: 4.
  CHECK(opt_mrc(t) == std::vector<std::uint64_t>{7, 7, 5, 4, 4});
}

TEST_CASE("the one-pass LRU curve equals the LRU simulation at every memory size") {
  for (std::uint64_t seed = 1; seed <= 60; ++seed) {
    CAPTURE(seed);
    check_lru_curve(random_trace(seed, 100 + seed * 13, 5 + seed % 50, 1 + seed % 3, seed % 4 == 0));
  }
  // Longer than the tree's positions (2 * pages, at least 1024): renumbered several times.
  check_lru_curve(random_trace(99, 6000, 10));
  check_lru_curve(generate_loop(3000, 120, 0.3, 1));
  check_lru_curve(generate_zipf(4000, 300, 0.9, 0.3, 2));
}

TEST_CASE("the one-pass OPT curve equals belady's faults at every memory size") {
  for (std::uint64_t seed = 1; seed <= 60; ++seed) {
    CAPTURE(seed);
    const Trace t = random_trace(seed, 100 + seed * 13, 5 + seed % 50, 1 + seed % 3, seed % 4 == 0);
    const auto curve = opt_mrc(t);
    REQUIRE(curve.size() == t.num_pages() + 1);
    for (std::size_t f = 1; f <= t.num_pages(); ++f) {
      CAPTURE(f);
      CHECK(curve[f] == run(t, "belady", static_cast<std::int64_t>(f)).faults);
    }
    // A stack limited to the top k levels gives the same counts up to k.
    const std::size_t k = 1 + seed % 7;
    const auto truncated = opt_mrc(t, k);
    REQUIRE(truncated.size() == std::min(k, t.num_pages()) + 1);
    for (std::size_t f = 0; f < truncated.size(); ++f) CHECK(truncated[f] == curve[f]);
  }
  const Trace z = generate_zipf(3000, 400, 0.8, 0.3, 3);
  const auto curve = opt_mrc(z);
  for (std::size_t f : {std::size_t{1}, std::size_t{7}, std::size_t{50}, z.num_pages() / 2, z.num_pages()}) CHECK(curve[f] == run(z, "belady", static_cast<std::int64_t>(f)).faults);
}

TEST_CASE("SHARDS: rate 1 and a sample holding every page are exact; rate 0.1 is close") {
  const Trace t = generate_zipf(200'000, 20'000, 0.9, 0.3, 5);
  const auto exact = lru_mrc(t);
  const auto full = shards_mrc(t, 1.0);
  const auto big_sample = shards_fixed_size_mrc(t, t.num_pages());
  for (std::size_t f = 0; f < exact.size(); ++f) {
    CHECK(full[f] == static_cast<double>(exact[f]));
    CHECK(big_sample[f] == static_cast<double>(exact[f]));
  }
  // Mean absolute error of the miss ratio over all sizes (the SHARDS paper's metric).
  const auto mae = [&](const std::vector<double>& est) {
    double sum = 0;
    for (std::size_t f = 1; f < exact.size(); ++f) sum += std::fabs(est[f] - static_cast<double>(exact[f]));
    return sum / static_cast<double>(exact.size() - 1) / static_cast<double>(t.size());
  };
  CHECK(mae(shards_mrc(t, 0.1, 1)) < 0.01);
  CHECK(mae(shards_fixed_size_mrc(t, 2000, 1)) < 0.01);
  CHECK_THROWS_AS(shards_mrc(t, 0.0), ConfigError);
  CHECK_THROWS_AS(shards_mrc(t, 1.5), ConfigError);
  CHECK_THROWS_AS(shards_fixed_size_mrc(t, 0), ConfigError);
}

// Process q's pages, in the order of its accesses: its accesses alone, for pages_trace.
std::vector<std::uint64_t> pages_of(const Trace& t, ProcId q) {
  std::vector<std::uint64_t> own;
  for (std::size_t i = 0; i < t.size(); ++i) {
    if (t.page_proc(t.page(i)) == q) own.push_back(t.page(i));
  }
  return own;
}

// The working-set policy literally: W(t, T) as the set of pages among accesses t - T + 1 to t,
// rebuilt at every t; a fault when the page is not among accesses t - T to t - 1.
WorkingSetPoint naive_working_set(const Trace& t, std::uint64_t window) {
  WorkingSetPoint point{window, 0, 0};
  for (std::size_t i = 0; i < t.size(); ++i) {
    const std::size_t from = i + 1 > window ? i + 1 - window : 0;
    std::set<PageId> now, before;
    for (std::size_t j = from; j <= i; ++j) now.insert(t.page(j));
    for (std::size_t j = i > window ? i - window : 0; j < i; ++j) before.insert(t.page(j));
    point.size_sum += now.size();
    point.faults += before.count(t.page(i)) == 0;
  }
  return point;
}

// VMIN literally: a resident set; the page referenced at t faults if it is not in it, joins it,
// is counted at t, and leaves it at once unless it is referenced again (looked up by scanning
// ahead) within `window` accesses. Returns its faults and size sum.
std::pair<std::uint64_t, std::uint64_t> naive_vmin(const Trace& t, std::uint64_t window) {
  std::set<PageId> resident;
  std::uint64_t faults = 0, size_sum = 0;
  for (std::size_t i = 0; i < t.size(); ++i) {
    const PageId x = t.page(i);
    faults += resident.insert(x).second;
    size_sum += resident.size();
    std::size_t next = i + 1;
    while (next < t.size() && t.page(next) != x) ++next;
    if (next == t.size() || next - i > window) resident.erase(x);
  }
  return {faults, size_sum};
}

// The page-fault-frequency policy literally: at a fault more than T accesses after the last
// one, the resident set becomes the pages among the accesses from that fault on (a scan of the
// trace); then the faulting page joins it.
PffPoint naive_pff(const Trace& t, std::uint64_t threshold) {
  PffPoint point{threshold, 0, 0, t.size()};
  std::set<PageId> resident;
  std::size_t last_fault = 0;
  for (std::size_t i = 0; i < t.size(); ++i) {
    if (resident.count(t.page(i)) == 0) {
      if (point.faults > 0 && i - last_fault > threshold) {
        std::set<PageId> used;
        for (std::size_t j = last_fault; j < i; ++j) used.insert(t.page(j));
        resident = used;
      }
      resident.insert(t.page(i));
      ++point.faults;
      last_fault = i;
    }
    point.size_sum += resident.size();
  }
  return point;
}

TEST_CASE("sample_trace keeps all of a sampled page's accesses and none of the others") {
  const Trace t = generate_zipf(50'000, 20'000, 0.9, 0.3, 5);
  // Rate 1: every access, in order, its pages numbered as before (first seen).
  const SampledTrace all = sample_trace(t, 1.0, 3);
  CHECK(all.rate == 1.0);
  REQUIRE(all.trace.size() == t.size());
  for (std::size_t i = 0; i < t.size(); ++i) {
    CHECK(all.trace.page(i) == t.page(i));
    CHECK(all.trace.write(i) == t.write(i));
  }
  const SampledTrace s = sample_trace(t, 0.1, 3);
  CHECK(s.rate == doctest::Approx(0.1).epsilon(1e-6));
  CHECK(s.trace.source() == t.source() + " sampled at rate 0.1");
  // Each page: all of its accesses or none (counted by vpn: one process).
  std::map<std::uint64_t, std::uint64_t> in_trace, in_sample;
  for (std::size_t i = 0; i < t.size(); ++i) ++in_trace[t.page_vpn(t.page(i))];
  for (std::size_t i = 0; i < s.trace.size(); ++i) ++in_sample[s.trace.page_vpn(s.trace.page(i))];
  for (const auto& [vpn, n] : in_sample) CHECK(in_trace[vpn] == n);
  // About a tenth of the pages.
  CHECK(s.trace.num_pages() > 0.08 * static_cast<double>(t.num_pages()));
  CHECK(s.trace.num_pages() < 0.12 * static_cast<double>(t.num_pages()));
  CHECK_THROWS_AS(sample_trace(t, 0.0), ConfigError);
  CHECK_THROWS_AS(sample_trace(t, 1.5), ConfigError);
}

TEST_CASE("working-set curve, hand-traced: 1 2 3 1 2 4 1") {
  // Intervals: page 1 at #0, #3, #6 (3 and 3), page 2 at #1, #4 (3); first references 4.
  // From each page's last reference to the end (7 accesses): 1 from #6, 2 from #4 (3),
  // 3 from #2 (5), 4 from #5 (2).
  // T=1: every interval is above 1: 7 faults; W(t, 1) is the page accessed: size_sum 7.
  // T=2: 7 faults; |W(t, 2)| = 1 2 2 2 2 2 2 = 13 (min(gap, 2): 2+2+2 + 1+2+2+2).
  // T=3: the intervals are not above 3: 4 faults; |W| = 1 2 3 3 3 3 3 = 18 (3+3+3 + 1+3+3+2).
  // T>=7: W holds every page seen so far: 1 2 3 3 3 4 4 = 20, 4 faults.
  // VMIN: T<3 holds each page for its reference only: 7. T>=3 holds 1 over #0-#2 and #3-#5,
  // 2 over #1-#3: resident {1} {1 2} {1 2 3} {1 2} {1 2} {1 4} {1} = 13 (9 + 4 last references).
  const Trace t = text("R 1\nR 2\nR 3\nR 1\nR 2\nR 4\nR 1\n");
  const auto points = working_set_curve(t, {100, 3, 1, 2, 7, 3});
  REQUIRE(points.size() == 5);  // sorted, the repeated 3 once
  const std::uint64_t want[5][4] = {
      {1, 7, 7, 7}, {2, 7, 13, 7}, {3, 4, 18, 13}, {7, 4, 20, 13}, {100, 4, 20, 13}};
  for (std::size_t k = 0; k < 5; ++k) {
    CAPTURE(k);
    CHECK(points[k].window == want[k][0]);
    CHECK(points[k].faults == want[k][1]);
    CHECK(points[k].size_sum == want[k][2]);
    CHECK(points[k].vmin_size_sum == want[k][3]);
  }
  CHECK_THROWS_AS(working_set_curve(t, {2, 0}), ConfigError);
  CHECK(working_set_curve(t, {}).empty());
  CHECK(working_set_curve(pages_trace({}), {1, 5})[1].size_sum == 0);
}

TEST_CASE("the one-pass working-set and VMIN curves equal the policies run access by access") {
  for (std::uint64_t seed = 1; seed <= 40; ++seed) {
    CAPTURE(seed);
    const Trace t = random_trace(seed, 50 + seed * 7, 3 + seed % 30, 1 + seed % 3, seed % 4 == 0);
    const std::vector<std::uint64_t> windows = {
        1, 2, 3, 5, 8, 13, seed, t.size() / 2, t.size(), t.size() + 9};
    const std::vector<std::uint64_t> min_faults = opt_mrc(t);
    for (const WorkingSetPoint& p : working_set_curve(t, windows)) {
      CAPTURE(p.window);
      const WorkingSetPoint want = naive_working_set(t, p.window);
      CHECK(p.faults == want.faults);
      CHECK(p.size_sum == want.size_sum);
      const auto [vmin_faults, vmin_size_sum] = naive_vmin(t, p.window);
      CHECK(vmin_faults == want.faults);
      CHECK(p.vmin_size_sum == vmin_size_sum);
      // VMIN minimises faults * (T - 1) + page-instants over demand paging, so MIN in as many
      // frames as VMIN's mean size, rounded down (no more page-instants), faults no less.
      CHECK(p.vmin_size_sum <= p.size_sum);
      if (p.window >= 2) CHECK(min_faults[p.vmin_size_sum / t.size()] >= p.faults);
    }
  }
}

TEST_CASE("working-set sizes over the trace, hand-traced and as the curve sums them") {
  // 1 2 3 1 2 4 1 at T=3: |W(t, 3)| = 1 2 3 3 3 3 3 (the curve's case above); blocks of 3:
  // means 2, 3 and 3 (the last block holds one access).
  const Trace t = text("R 1\nR 2\nR 3\nR 1\nR 2\nR 4\nR 1\n");
  CHECK(working_set_sizes(t, 3, 1, false) ==
        std::vector<std::vector<double>>{{1, 2, 3, 3, 3, 3, 3}});
  CHECK(working_set_sizes(t, 3, 3, false) == std::vector<std::vector<double>>{{2, 3, 3}});
  CHECK(working_set_sizes(t, 1, 100, false) == std::vector<std::vector<double>>{{1}});
  CHECK_THROWS_AS(working_set_sizes(t, 0, 1, false), ConfigError);
  CHECK_THROWS_AS(working_set_sizes(t, 3, 0, false), ConfigError);
  // Random traces: the sizes add up to the curve's size_sum; per process, at each position,
  // the pages among the process's own last T accesses up to it, none outside its lifetime.
  for (std::uint64_t seed = 1; seed <= 30; ++seed) {
    CAPTURE(seed);
    const Trace r = random_trace(seed, 60 + seed * 5, 3 + seed % 15, 2 + seed % 3, seed % 3 == 0);
    for (const std::uint64_t window : {1U, 2U, 5U, 17U, 1000U}) {
      CAPTURE(window);
      const auto sizes = working_set_sizes(r, window, 1, false);
      double sum = 0;
      for (const double x : sizes[0]) sum += x;
      CHECK(sum == static_cast<double>(working_set_curve(r, {window})[0].size_sum));
      const auto each = working_set_sizes(r, window, 1, true);
      REQUIRE(each.size() == r.num_procs());
      for (ProcId q = 0; q < r.num_procs(); ++q) {
        std::vector<PageId> own;  // process q's pages so far
        std::size_t last = 0;
        for (std::size_t i = 0; i < r.size(); ++i) {
          if (r.page_proc(r.page(i)) == q) last = i;
        }
        for (std::size_t i = 0; i < r.size(); ++i) {
          if (r.page_proc(r.page(i)) == q) own.push_back(r.page(i));
          const std::size_t from = own.size() > window ? own.size() - window : 0;
          const std::set<PageId> w(own.begin() + static_cast<std::ptrdiff_t>(from), own.end());
          CHECK(each[q][i] == (i > last ? 0.0 : static_cast<double>(w.size())));
        }
      }
      // Blocks of 7: the means of the sizes.
      const auto blocks = working_set_sizes(r, window, 7, true);
      for (ProcId q = 0; q < r.num_procs(); ++q) {
        for (std::size_t b = 0; b < blocks[q].size(); ++b) {
          double block = 0;
          const std::size_t end = std::min(r.size(), 7 * b + 7);
          for (std::size_t i = 7 * b; i < end; ++i) block += each[q][i];
          CHECK(blocks[q][b] == doctest::Approx(block / static_cast<double>(end - 7 * b)));
        }
      }
    }
  }
}

TEST_CASE("page-fault-frequency curve, hand-traced: 1 2 3 1 1 1 4 1 5 2") {
  // Faults at #0 1, #1 2, #2 3 (each within 1 of the last: the set grows to {1 2 3}); #6 4
  // comes 4 after #2: for T < 4 the set shrinks to the pages used from #2 on, {1 3} (2 was
  // last used at #1), then {1 3 4}; for T >= 4 it grows to {1 2 3 4}. #8 5 comes 2 after #6:
  // for T = 1 the set shrinks to those used from #6 on, {1 4}, then {1 4 5}; else it grows.
  // #9 2: a fault for T < 4 (2 left at #6), 1 after #8: the set grows.
  // Sizes: T=1: 1 2 3 3 3 3 3 3 3 4 = 28, 6 faults; T=2, 3: 1 2 3 3 3 3 3 3 4 5 = 30, 6
  // faults; T>=4: 1 2 3 3 3 3 4 4 5 5 = 33, 5 faults.
  const Trace t = pages_trace({1, 2, 3, 1, 1, 1, 4, 1, 5, 2});
  const auto points = pff_curve(t, {100, 3, 1, 2, 4, 3});
  REQUIRE(points.size() == 5);  // sorted, the repeated 3 once
  const std::uint64_t want[5][3] = {{1, 6, 28}, {2, 6, 30}, {3, 6, 30}, {4, 5, 33}, {100, 5, 33}};
  for (std::size_t k = 0; k < 5; ++k) {
    CAPTURE(k);
    CHECK(points[k].threshold == want[k][0]);
    CHECK(points[k].faults == want[k][1]);
    CHECK(points[k].size_sum == want[k][2]);
    CHECK(points[k].accesses == 10);
  }
  CHECK_THROWS_AS(pff_curve(t, {2, 0}), ConfigError);
  CHECK(pff_curve(t, {}).empty());
}

TEST_CASE("the page-fault-frequency curve equals the policy run literally, alone per process") {
  for (std::uint64_t seed = 1; seed <= 40; ++seed) {
    CAPTURE(seed);
    const Trace t = random_trace(seed, 80 + seed * 5, 4 + seed % 20, 2 + seed % 3, seed % 3 == 0);
    const std::vector<std::uint64_t> thresholds = {1, 2, 3, 5, 8, 13, seed, t.size()};
    for (const PffPoint& p : pff_curve(t, thresholds)) {
      CAPTURE(p.threshold);
      const PffPoint want = naive_pff(t, p.threshold);
      CHECK(p.faults == want.faults);
      CHECK(p.size_sum == want.size_sum);
    }
    const auto curves = pff_curves_per_process(t, thresholds);
    REQUIRE(curves.size() == t.num_procs());
    for (ProcId q = 0; q < t.num_procs(); ++q) {
      CAPTURE(q);
      const std::vector<std::uint64_t> own = pages_of(t, q);
      const Trace alone = pages_trace(own);
      for (const PffPoint& p : curves[q]) {
        CAPTURE(p.threshold);
        const PffPoint want = naive_pff(alone, p.threshold);
        CHECK(p.faults == want.faults);
        CHECK(p.size_sum == want.size_sum);
        CHECK(p.accesses == own.size());
      }
    }
  }
}

TEST_CASE("each process's working set in its own time is the working set of its accesses alone") {
  for (std::uint64_t seed = 1; seed <= 40; ++seed) {
    CAPTURE(seed);
    const Trace t = random_trace(seed, 80 + seed * 5, 4 + seed % 20, 2 + seed % 3, seed % 3 == 0);
    const std::vector<std::uint64_t> windows = {1, 2, 4, 9, 30, seed, t.size()};
    const auto curves = working_set_curves_per_process(t, windows);
    REQUIRE(curves.size() == t.num_procs());
    std::uint64_t accesses = 0;
    for (ProcId q = 0; q < t.num_procs(); ++q) {
      CAPTURE(q);
      const std::vector<std::uint64_t> own = pages_of(t, q);
      const auto want = working_set_curve(pages_trace(own), windows);
      REQUIRE(curves[q].size() == want.size());
      for (std::size_t k = 0; k < want.size(); ++k) {
        CHECK(curves[q][k].window == want[k].window);
        CHECK(curves[q][k].faults == want[k].faults);
        CHECK(curves[q][k].size_sum == want[k].size_sum);
        CHECK(curves[q][k].vmin_size_sum == want[k].vmin_size_sum);
        CHECK(curves[q][k].accesses == own.size());
      }
      accesses += own.size();
    }
    CHECK(accesses == t.size());
    // The system-wide curve counts in the trace's time.
    CHECK(working_set_curve(t, windows)[0].accesses == t.size());
  }
}

}  // namespace
}  // namespace pagesim::test
