// The two process-aware heuristics on the hog-plus-interactive trace: each must cut the
// interactive program's major faults compared with the kernels' policies, and the table says
// what the hog pays for it.
#include <doctest/doctest.h>

#include "pagesim/registry.hpp"
#include "pagesim/testing.hpp"

using namespace pagesim;

namespace {

// hog (pid 1) writes 512 pages in a cycle, the interactive program (pid 2) reads its 32 file
// pages 20 times, 300 hog accesses apart; 256 frames; in trace order, demand paging
// (testing::textbook). Processes are looked up by pid.
const Counters& of(const Result& r, std::uint64_t pid) {
  for (std::size_t k = 0; k < r.proc_pids.size(); ++k) {
    if (r.proc_pids[k] == pid) return r.per_proc[k];
  }
  throw std::runtime_error("no such pid");
}

Result run(const std::string& policy) {
  static const Trace t = testing::hog_and_interactive();
  return simulate(t, policy, testing::textbook({{"frames", std::int64_t{256}}}));
}

}  // namespace

TEST_CASE("both heuristics pass the conformance suite") {
  for (const char* name : {"process_aware_aging", "fault_rate_penalty"}) {
    const auto report = testing::check_conformance(name);
    CHECK_MESSAGE(report.ok(), report.text());
  }
}

TEST_CASE("process-aware aging keeps the sleeping program's pages: 32 major faults, not 640") {
  // Only the 32 cold reads: the program's pages never age while it sleeps, and the hog's
  // oldest page is always older by its own clock (the hog holds 224 frames and cycles 512).
  const Result mine = run("process_aware_aging");
  CHECK(of(mine, 2).major_faults == 32);
  // Global LRU: every wake-up faults 32 times (counted by hand in the kit's known answers).
  CHECK(of(run("lru"), 2).major_faults == 640);
  // The kernels' policies also lose the program's pages on most wake-ups.
  for (const char* kernel : {"active_inactive", "rmap_aging"}) {
    CAPTURE(kernel);
    CHECK(of(run(kernel), 2).major_faults >= 10 * of(mine, 2).major_faults);
  }
  // What the hog pays: nothing. It cycles over 512 pages with at most 256 frames, so under
  // LRU-like order it faults on every access whatever it holds: 6000 faults either way.
  CHECK(of(mine, 1).faults == 6000);
  CHECK(of(run("lru"), 1).faults == 6000);
  MESSAGE(testing::comparison_table(testing::hog_and_interactive(), 256,
                                    {"lru", "active_inactive", "rmap_aging", "process_aware_aging", "fault_rate_penalty"},
                                    {"faults", "major_faults", "file_reads", "swap_outs"},
                                    testing::textbook()));
}

TEST_CASE("the fault-rate penalty trims the hog instead of the interactive program") {
  const Result mine = run("fault_rate_penalty");
  // The hog causes every fault after the first wake-up, so it is always the heavy faulter
  // and loses its own pages; the program keeps its 32 pages: only the cold reads.
  CHECK(of(mine, 2).major_faults == 32);
  CHECK(of(mine, 1).faults == 6000);
  for (const char* kernel : {"active_inactive", "rmap_aging"}) {
    CAPTURE(kernel);
    CHECK(of(run(kernel), 2).major_faults >= 10 * of(mine, 2).major_faults);
  }
}
