#pragma once
// The testing kit for people writing a reclaim policy: the conformance suite that every
// built-in policy passes, known-answer traces with hand-derived counts, and helpers that
// compare a policy with baselines and fail with a readable table. Test-framework neutral:
// results are values with ok()/text(), e.g. with doctest
//   const auto report = pagesim::testing::check_conformance("mine");
//   CHECK_MESSAGE(report.ok(), report.text());
#include <cstdint>
#include <functional>
#include <map>
#include <memory>
#include <string>
#include <vector>

#include "pagesim/params.hpp"
#include "pagesim/policy.hpp"
#include "pagesim/result.hpp"
#include "pagesim/trace.hpp"

namespace pagesim::testing {

using PolicyFactory = std::function<std::unique_ptr<Policy>(const Params&)>;

// `params` with textbook demand paging in trace order where it says nothing else: no swap
// readahead (page_cluster 0) and schedule 'static'. Hand-derived counts, Belady's MIN as a
// bound and the naive models all assume it.
Params textbook(Params params = {});

// A small random trace: `procs` processes of up to `pages` pages each (some file-backed when
// `files`), skewed towards low page numbers so that there are hits; writes with probability
// 0.3. Deterministic for a seed.
Trace random_trace(std::uint64_t seed, std::size_t length, std::uint64_t pages,
                   std::uint64_t procs = 1, bool files = false);

// Process 1 writes `frames` + 5 pages once each, then process 2 writes `frames` pages of its
// own once each. With free_on_exit and `frames` frames every policy makes exactly 5 evictions,
// each a swap-out, and ends with no swap slot in use: process 1's exit frees all it had.
Trace exit_then_fill(std::uint32_t frames);

// Processes that come and go: process k (pid k + 1) makes its accesses in positions
// [k * h, (k + 2) * h) of the trace, h = length / 2, so at most two run at a time and each
// but the last ends (exits, with free_on_exit) while the next still runs. Pages, writes and
// file pages as random_trace. Deterministic for a seed.
Trace staggered_trace(std::uint64_t seed, std::size_t length, std::uint64_t pages,
                      std::uint64_t procs, bool files = false);

// A memory hog and an interactive program, in trace order: the hog (pid 1) writes
// `hog_pages` anonymous pages in a cycle; the interactive program (pid 2) wakes up `bursts`
// times and reads its `interactive_pages` file pages (its text), with `gap` hog accesses
// after each wake-up. With memory between `interactive_pages` and `hog_pages`, a global LRU
// evicts the sleeping program's pages while the hog streams: it faults on every wake-up.
Trace hog_and_interactive(std::uint32_t bursts = 20, std::uint32_t interactive_pages = 32,
                          std::uint32_t hog_pages = 512, std::uint32_t gap = 300);

struct ConformanceOptions {
  // Number of random traces (each with its own memory size).
  std::uint64_t traces = 200;
  // Extra parameters for every run (the policy's own settings, engine settings). Not "frames":
  // the suite chooses the memory size of each run (check_conformance throws ConfigError), above
  // the watermarks given here; the exit checks, whose counts are one eviction at a time, set
  // the watermarks given to 0.
  Params params;
};

// The conformance suite's random case `seed` (1, 2, ...): its trace and memory size. A failure
// on it names it with the settings the suite chose, e.g. "(replay: testing::conformance_case(4)
// with frames=5 and the check's params)": simulate(c.trace, policy, params) with params =
// ConformanceOptions::params plus those settings reproduces it. The engine's defaults hold for
// everything else (readahead on, several processes scheduled round-robin), as in the check:
// textbook() settings do not reproduce it.
struct ConformanceCase {
  Trace trace;
  std::int64_t frames = 0;
};
ConformanceCase conformance_case(std::uint64_t seed);

struct Report {
  std::string subject;
  std::uint64_t checks = 0;
  std::vector<std::string> failures;  // at most kMaxFailures, each self-contained

  static constexpr std::size_t kMaxFailures = 10;
  bool ok() const { return failures.empty(); }
  // "policy 'x': 1200 checks, all passed" or the failures, one per line.
  std::string text() const;
  void fail(std::string what);
};

// Runs the conformance suite: on random traces and memory sizes, the run completes (the engine
// rejects a victim that is not resident, repeated, or more than asked for), counters add up
// (hits + faults = accesses, faults = minor + major, evictions = clean + dirty, per-process
// counters sum to the total), memory never holds more than `frames` pages (checked by
// faults, readahead pages and evictions; not with free_on_exit in the params, where an exit
// frees pages without an eviction: the exit checks count those), a fresh instance
// with the same parameters gives the same counts (seeded policies included), so does one
// instance run a second time (reset() must forget the first run), Belady's MIN
// faults no more (both as textbook demand paging: page_cluster=0, schedule='static'), batch
// reclaim between watermarks works, and processes that exit (free_on_exit) leave their frames
// and swap slots free and are forgotten (Policy::on_free): exact counts on a trace where one
// process ends before another starts, and runs on staggered_trace in every schedule, with
// readahead, watermarks and a device. Traces with file pages also run with file readahead
// (read_ahead_kb=32: windows of up to 8 pages), so every policy gets readahead file pages. An
// exception thrown by the policy (any std::exception) is a failure naming the run and the callback
// it came from ("in on_evict of page 3"), like the others.
Report check_conformance(const std::string& name, const PolicyFactory& make,
                         const ConformanceOptions& options = {});
// The same for a registered policy; also checks that the inlined replay (by name) and the
// virtual one (through Policy&) agree.
Report check_conformance(const std::string& registered_name,
                         const ConformanceOptions& options = {});

// A trace with hand-derived counts for some policies and memory sizes.
struct KnownAnswer {
  std::string name;
  std::string why;  // where the numbers come from
  Trace trace;
  std::int64_t frames = 0;
  // policy -> counter -> expected value
  std::map<std::string, std::map<std::string, std::uint64_t>> expected;
  // Engine settings under which the counts hold (textbook(): no readahead, static order;
  // and whatever else a count assumes). simulate(trace, policy, params + frames) gives
  // `expected`; with the engine's defaults (readahead on) some counts differ.
  Params params = {};
};

std::vector<KnownAnswer> known_answers();
// Checks every known answer that names `policy` (all policies when empty), each run with
// exactly its `params` and `frames`. Throws ConfigError if `policy` is not registered (the
// registry's "did you mean") or no known answer names it: a check of nothing never passes
// silently. For a policy of your own, state a claim with expect_at_most or a hand-traced test.
Report check_known_answers(const std::string& policy = "");

// Counters of each policy on one trace and memory size as an aligned table (policies as rows;
// `metrics` as columns, all counters when empty). When a prescient policy is among them and
// `params` has no "schedule", every row runs with schedule='static' (one replay order).
std::string comparison_table(const Trace& trace, std::int64_t frames,
                             const std::vector<std::string>& policies,
                             const std::vector<std::string>& metrics = {},
                             const Params& params = {});

// Checks the claim `policy`.metric <= max_ratio * `baseline`.metric on `trace` at `frames`;
// a failure carries the table of both (and belady's, for scale).
Report expect_at_most(const Trace& trace, std::int64_t frames, const std::string& policy,
                      const std::string& baseline, const std::string& metric,
                      double max_ratio = 1.0, const Params& params = {});

// The value of counter `name` (ConfigError naming the counters if unknown).
std::uint64_t counter(const Counters& c, const std::string& name);

}  // namespace pagesim::testing
