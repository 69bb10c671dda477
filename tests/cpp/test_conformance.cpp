// The suite every registered policy runs through, found by name in the registry: a new
// policy file is covered without touching this file.
#include <doctest/doctest.h>

#include "helpers.hpp"
#include "random_traces.hpp"

namespace pagesim::test {
namespace {

void check_sums(const Counters& c) {
  CHECK(c.hits + c.faults == c.accesses);
  CHECK(c.minor_faults + c.major_faults == c.faults);
  CHECK(c.swap_ins + c.file_reads + c.zero_refills == c.major_faults);
  CHECK(c.evictions_clean + c.evictions_dirty == c.evictions);
  CHECK(c.swap_outs + c.file_writes == c.evictions_dirty);
}

TEST_CASE("conformance: every registered policy") {
  const auto names = Registry::instance().names();
  REQUIRE(names.size() >= 5);
  for (const std::string& name : names) {
    CAPTURE(name);
    for (std::uint64_t seed = 1; seed <= 200; ++seed) {
      CAPTURE(seed);
      const Trace t = random_trace(seed, 50 + seed * 3, 4 + seed % 20, 1 + seed % 4, seed % 3 == 0);
      const auto frames = static_cast<std::int64_t>(1 + seed % 9);
      CAPTURE(frames);
      Params params{{"frames", frames}};
      // No exception: the engine checked every nomination (resident, distinct, not too many).
      const Result r = simulate(t, name, params);
      check_sums(r.total);
      Counters per_proc_sum;
      for (const auto& c : r.per_proc) {
        check_sums(c);
        per_proc_sum += c;
      }
      CHECK(per_proc_sum == r.total);
      // Memory never holds more than `frames` pages: every fault beyond the first `frames`
      // distinct pages needs an eviction.
      CHECK(r.total.faults - r.total.evictions <= static_cast<std::uint64_t>(frames));

      // Deterministic for fixed parameters (seeded policies included).
      CHECK(simulate(t, name, params).total == r.total);

      // Prescient MIN is a lower bound on faults.
      CHECK(run(t, "belady", frames).faults <= r.total.faults);

      // The virtual path (a Policy& from the factory) gives the same counts as the inlined one.
      Params fresh{{"frames", frames}};
      auto instance = Registry::instance().get(name).make(fresh);
      CHECK(simulate(t, *instance, fresh, name).total == r.total);

      // Batch reclaim between watermarks works and keeps the counts consistent.
      if (frames >= 4) {
        Params batch{{"frames", frames}, {"low_watermark", std::int64_t{1}}, {"high_watermark", std::int64_t{3}}};
        const Result b = simulate(t, name, batch);
        check_sums(b.total);
        CHECK(b.total.faults - b.total.evictions <= static_cast<std::uint64_t>(frames - 1));
      }
    }
  }
}

TEST_CASE("a seeded policy changes its choices with the seed, not without it") {
  const Trace t = random_trace(42, 2000, 64);
  const Counters a = run(t, "random", 16, Params{{"seed", std::int64_t{1}}});
  const Counters b = run(t, "random", 16, Params{{"seed", std::int64_t{2}}});
  CHECK(a == run(t, "random", 16, Params{{"seed", std::int64_t{1}}}));
  CHECK(a != b);
}

}  // namespace
}  // namespace pagesim::test
