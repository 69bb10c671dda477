// Tests of the clean-first LRU heuristic, written as a user of pagesim would: the kit's
// conformance suite, a hand-traced case, and the claim that it writes less to swap than LRU.
#define DOCTEST_CONFIG_IMPLEMENT_WITH_MAIN
#include <doctest/doctest.h>

#include "pagesim/generators.hpp"
#include "pagesim/registry.hpp"
#include "pagesim/testing.hpp"

using namespace pagesim;

TEST_CASE("cflru passes the conformance suite") {
  const auto report = testing::check_conformance("cflru");
  CHECK_MESSAGE(report.ok(), report.text());
}

TEST_CASE("cflru evicts the LRU clean page in its window, the LRU page when all are dirty") {
  // 3 frames, window 2. W1 R2 W3: LRU..MRU [1d 2 3d]
  // R4: window {1d, 2} -> 2 is clean -> evict 2 (LRU would evict 1, dirty: a swap-out)
  //     [1d 3d 4];  R2*: window {1d, 3d} all dirty -> evict 1: swap-out [3d 4 2]
  TraceBuilder b;
  const std::pair<std::uint64_t, bool> accesses[] = {{1, true}, {2, false}, {3, true}, {4, false}, {2, false}};
  for (auto [page, write] : accesses) b.add(1, page, write);
  const Trace t = std::move(b).build();
  Params p{{"frames", std::int64_t{3}}, {"window", std::int64_t{2}}};
  const Counters c = simulate(t, "cflru", p).total;
  CHECK(c.faults == 5);
  CHECK(c.swap_outs == 1);
  CHECK(c.evictions_clean == 1);
  // LRU: R4 evicts 1 (swap-out), R2 hits? no: [2 3d 4] -> 2 is resident: hit. 4 faults, 1 swap-out.
  const Counters lru = simulate(t, "lru", Params{{"frames", std::int64_t{3}}}).total;
  CHECK(lru.faults == 4);
  CHECK(lru.swap_outs == 1);
}

TEST_CASE("on a zipf trace with 30% writes, cflru writes less to swap than lru") {
  const Trace t = generate_zipf(200'000, 20'000, 0.9, 0.3, 7);
  const auto fewer_writes = testing::expect_at_most(t, 2'000, "cflru", "lru", "swap_outs", 0.95);
  CHECK_MESSAGE(fewer_writes.ok(), fewer_writes.text());
  // ... at a price in faults of at most 10%.
  const auto faults = testing::expect_at_most(t, 2'000, "cflru", "lru", "faults", 1.10);
  CHECK_MESSAGE(faults.ok(), faults.text());
  MESSAGE(testing::comparison_table(t, 2'000, {"lru", "cflru", "belady"},
                                    {"faults", "swap_ins", "swap_outs", "evictions_clean"}));
}
