// Every policy with a naive model in naive.hpp gives exactly the naive model's counts on
// thousands of small random traces.
#include <doctest/doctest.h>

#include "helpers.hpp"
#include "naive.hpp"
#include "random_traces.hpp"

namespace pagesim::test {
namespace {

TEST_CASE("built-in policies count exactly like the naive models on random traces") {
  for (const auto& [name, make] : naive_models()) {
    CAPTURE(name);
    for (std::uint64_t seed = 1; seed <= 1500; ++seed) {
      const Trace t = random_trace(seed, 20 + seed % 180, 3 + seed % 14, 1 + seed % 3, seed % 2 == 0);
      const std::size_t frames = 1 + seed % 7;
      CAPTURE(seed);
      CAPTURE(frames);
      auto naive = make(t);
      const Counters want = naive_run(t, frames, *naive);
      // The naive models are textbook demand paging in trace order: no readahead.
      const Counters got = run(t, name, static_cast<std::int64_t>(frames),
                               Params{{"page_cluster", std::int64_t{0}},
                                      {"schedule", std::string("static")}});
      got.for_each([&, &want = want](const char* field, std::uint64_t value) {
        std::uint64_t expected = 0;
        want.for_each([&](const char* f, std::uint64_t v) {
          if (std::string(f) == field) expected = v;
        });
        CAPTURE(field);
        REQUIRE(value == expected);
      });
    }
  }
}

TEST_CASE("with free_on_exit, the policies with naive models count like them") {
  // Processes that come and go (two at a time): each exit frees its anonymous pages, which the
  // naive models drop from their lists (ghosts included) and the engine from memory, swap and
  // the policy.
  // (Not arc: Figure 4 decides when to REPLACE by its directory sizes, which after an exit no
  // longer say whether memory is full.)
  for (const std::string name : {"lru", "fifo", "random", "two_q", "s3fifo", "lru_k", "sieve"}) {
    CAPTURE(name);
    int differ = 0;
    for (std::uint64_t seed = 1; seed <= 600; ++seed) {
      const Trace t = testing::staggered_trace(seed, 20 + seed % 120, 3 + seed % 14, 2 + seed % 3,
                                               seed % 2 == 0);
      const std::size_t frames = 1 + seed % 7;
      CAPTURE(seed);
      CAPTURE(frames);
      std::unique_ptr<NaivePolicy> naive;
      for (const auto& [n, make] : naive_models()) {
        if (n == name) naive = make(t);
      }
      const Counters want = naive_run(t, frames, *naive, true);
      const Params params{{"page_cluster", std::int64_t{0}}, {"schedule", std::string("static")},
                          {"free_on_exit", true}};
      const Counters got = run(t, name, static_cast<std::int64_t>(frames), params);
      REQUIRE(got == want);
      differ += run(t, name, static_cast<std::int64_t>(frames), Params{}) != got;
    }
    // The exits matter on these traces: without them most counts differ.
    CHECK(differ > 300);
  }
}

// The naive model with every parameter of lru_k: k, the correlated period (its update rule,
// the eligibility test, the fallback when no page is eligible) and the retained information
// period (the naive model purges eagerly, as the paper's demon; the policy checks lazily at
// the next fault), with and without exits.
TEST_CASE("lru_k counts like the naive LRU-K model with k, correlated_period and retained_period") {
  int checked = 0;
  for (const std::int64_t k : {1, 2, 3}) {
    for (const std::int64_t crp : {0, 1, 3, 8}) {
      for (const std::int64_t rip : {0, 2, 5, 20}) {
        CAPTURE(k);
        CAPTURE(crp);
        CAPTURE(rip);
        for (std::uint64_t seed = 1; seed <= 60; ++seed) {
          const bool exits = seed % 3 == 0;
          const Trace t = exits ? testing::staggered_trace(seed, 30 + seed * 2, 3 + seed % 10,
                                                           2 + seed % 2, seed % 2 == 0)
                                : random_trace(seed, 30 + seed * 2, 3 + seed % 12, 1 + seed % 3,
                                               seed % 2 == 0);
          const std::size_t frames = 1 + seed % 6;
          CAPTURE(seed);
          CAPTURE(frames);
          NaiveLruK naive(static_cast<std::size_t>(k), static_cast<std::uint64_t>(crp),
                          static_cast<std::uint64_t>(rip));
          const Counters want = naive_run(t, frames, naive, exits);
          const Params params{{"page_cluster", std::int64_t{0}},
                              {"schedule", std::string("static")},
                              {"free_on_exit", exits},
                              {"k", k},
                              {"correlated_period", crp},
                              {"retained_period", rip}};
          REQUIRE(run(t, "lru_k", static_cast<std::int64_t>(frames), params) == want);
          ++checked;
        }
      }
    }
  }
  CHECK(checked == 3 * 4 * 4 * 60);
}

// 300 small cases for a policy with a parameter: random traces, and every third one with
// processes that exit (free_on_exit). `check(trace, frames, naive_run's counts of `naive`,
// the textbook settings of the case)` compares the policy's run with them.
template <class Naive, class Check>
void against_naive(const Naive& model, Check check) {
  for (std::uint64_t seed = 1; seed <= 300; ++seed) {
    const bool exits = seed % 3 == 0;
    const Trace t =
        exits ? testing::staggered_trace(seed, 30 + seed % 150, 3 + seed % 12, 2 + seed % 2,
                                         seed % 2 == 0)
              : random_trace(seed, 30 + seed % 150, 3 + seed % 14, 1 + seed % 3, seed % 2 == 0);
    const std::size_t frames = 1 + seed % 7;
    CAPTURE(seed);
    CAPTURE(frames);
    Naive naive = model;
    const Params params{{"page_cluster", std::int64_t{0}},
                        {"schedule", std::string("static")},
                        {"free_on_exit", exits}};
    check(t, static_cast<std::int64_t>(frames), naive_run(t, frames, naive, exits), params);
  }
}

// LRFU at decays from LFU (0) to LRU (1), with and without exits; at 1 it is LRU itself.
TEST_CASE("lrfu counts like the naive LRFU model at every decay, and like lru at decay 1") {
  for (const double decay : {0.0, 0.01, 0.1, 0.25, 0.5, 0.9, 1.0}) {
    CAPTURE(decay);
    against_naive(NaiveLrfu(decay), [&](const Trace& t, std::int64_t frames, const Counters& want,
                                        const Params& params) {
      Params lrfu = params;
      lrfu.set("decay", decay);
      REQUIRE(run(t, "lrfu", frames, lrfu) == want);
      if (decay == 0.0) REQUIRE(run(t, "lfu", frames, params) == want);
      if (decay == 1.0) REQUIRE(run(t, "lru", frames, params) == want);
    });
  }
}

// GCLOCK at caps 1 (CLOCK) to 255, with and without exits; at 1 it is clock itself.
TEST_CASE("gclock counts like the naive GCLOCK model at every cap, and like clock at 1") {
  for (const std::int64_t max : {1, 2, 3, 5, 255}) {
    CAPTURE(max);
    against_naive(
        NaiveGClock(static_cast<unsigned>(max)),
        [&](const Trace& t, std::int64_t frames, const Counters& want, const Params& params) {
          Params gclock = params;
          gclock.set("max_count", max);
          REQUIRE(run(t, "gclock", frames, gclock) == want);
          if (max == 1) REQUIRE(run(t, "clock", frames, params) == want);
        });
  }
}

// The two-handed clock at hand spreads from 1 to past the frames (kept below them), and the
// default (half the frames), with and without exits.
TEST_CASE("two_handed_clock counts like the naive model at every hand spread") {
  for (const std::int64_t spread : {0, 1, 2, 3, 100}) {
    CAPTURE(spread);
    against_naive(
        NaiveTwoHandedClock(static_cast<std::size_t>(spread)),
        [&](const Trace& t, std::int64_t frames, const Counters& want, const Params& params) {
          Params given = params;
          if (spread != 0) given.set("handspread", spread);
          REQUIRE(run(t, "two_handed_clock", frames, given) == want);
        });
  }
}

// LRU keeps recency as stamps in a bounded bitmap (about 4 x max(frames, 1024) stamps) and
// renumbers them when they run out; these traces (40,000 accesses, at most 4,096 stamps) run
// out of stamps many times over.
TEST_CASE("lru renumbers its recency stamps without changing the order") {
  for (std::uint64_t seed = 1; seed <= 6; ++seed) {
    const Trace t = random_trace(seed, 40'000, 40 + 60 * seed, 1 + seed % 2, seed % 2 == 0);
    const std::size_t frames = 5 * seed;
    CAPTURE(seed);
    NaiveLru naive;
    const Counters want = naive_run(t, frames, naive);
    const Counters got = run(t, "lru", static_cast<std::int64_t>(frames));
    CHECK(got.faults == want.faults);
    CHECK(got.major_faults == want.major_faults);
    CHECK(got.swap_outs == want.swap_outs);
    CHECK(got.evictions_dirty == want.evictions_dirty);
  }
}

}  // namespace
}  // namespace pagesim::test
