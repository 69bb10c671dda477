// The testing kit itself: it passes the built-in policies, it catches broken ones with a clear
// message, and its known answers hold.
#include <doctest/doctest.h>

#include <algorithm>
#include <deque>
#include <stdexcept>

#include "helpers.hpp"
#include "pagesim/rng.hpp"
#include "pagesim/testing.hpp"

namespace pagesim::test {
namespace {

TEST_CASE("kit: the known answers hold for the built-in policies") {
  const auto report = testing::check_known_answers();
  CHECK_MESSAGE(report.ok(), report.text());
  CHECK(report.checks >= 20);
}

TEST_CASE("kit: known answers of one policy; a name they do not cover is an error, not a pass") {
  const auto lru = testing::check_known_answers("lru");
  CHECK_MESSAGE(lru.ok(), lru.text());
  CHECK(lru.checks >= 10);
  const auto message = [](const std::string& policy) {
    try {
      testing::check_known_answers(policy);
    } catch (const ConfigError& e) {
      return std::string(e.what());
    }
    return std::string("(no error)");
  };
  CHECK(message("lruu").find("unknown policy 'lruu': did you mean 'lru'?") == 0);
  CHECK(message("sieve") ==
        "no known answers name policy 'sieve': they cover belady, clock, fifo, gclock, lfu, lru, "
        "two_handed_clock (write "
        "your own "
        "with expect_at_most or a hand-traced test)");
}

TEST_CASE("kit: a known answer's params and frames alone reproduce its counts") {
  // What the header promises: simulate(trace, policy, params + frames) gives `expected`, as
  // comparison_table(k.trace, k.frames, policies, {}, k.params) shows it. The engine's
  // defaults read ahead, which changes some counts: the params are needed.
  std::size_t differ_without = 0;
  for (const auto& k : testing::known_answers()) {
    Params params = k.params;
    params.set("frames", k.frames);
    for (const auto& [policy, counters] : k.expected) {
      const Counters got = simulate(k.trace, policy, params).total;
      const Counters defaults = simulate(k.trace, policy, Params{{"frames", k.frames}}).total;
      bool same = true;
      for (const auto& [field, want] : counters) {
        CHECK_MESSAGE(testing::counter(got, field) == want, k.name, " ", policy, " ", field);
        same = same && testing::counter(defaults, field) == want;
      }
      if (!same) ++differ_without;
    }
    const std::string table =
        testing::comparison_table(k.trace, k.frames, {"lru"}, {"faults"}, k.params);
    if (k.expected.count("lru") != 0) {
      CHECK(table.find(" " + std::to_string(k.expected.at("lru").at("faults")) + "\n") !=
            std::string::npos);
    }
  }
  CHECK(differ_without >= 3);  // hog-and-interactive (lru), small-qsbench (lru, clock)
}

// A correct policy to start from: FIFO over a vector, with a way to break it.
struct Sabotaged final : Policy {
  enum Mode {
    kFine,
    kNonResident,
    kTooMany,
    kUnseeded,
    kNoFree,
    kThrows,
    kLeaky,
    kStale,
    kStray,
    kRefuses
  };
  Mode mode;
  std::vector<PageId> queue;
  std::size_t head = 0;
  // Seeded from a count of instances: each fresh instance draws differently; kLeaky's with
  // a fixed seed, not reseeded by reset(): a second run of an instance draws differently.
  static inline std::uint64_t instances = 0;
  Rng rng;
  explicit Sabotaged(Mode m) : mode(m), rng(m == kLeaky ? 7 : ++instances) {}
  bool was_reset = false;
  void reset(std::size_t, std::size_t) override {
    if (mode == kStale && was_reset) return;  // initialises on the first call only
    was_reset = true;
    queue.clear();
    head = 0;
  }
  void on_fault(const Access& a, PageTableView) override { queue.push_back(a.page); }
  void on_free(PageId p, PageTableView view) override {
    if (mode == kNoFree) Policy::on_free(p, view);  // as a policy written before exits
    queue.erase(std::remove(queue.begin() + static_cast<std::ptrdiff_t>(head), queue.end(), p), queue.end());
  }
  void on_evict(PageId, PageTableView) override {
    if (mode == kThrows) throw std::runtime_error("boom in on_evict");  // a bug of its own
    if (mode == kRefuses) throw ConfigError("this policy needs more frames");  // a check of its own
  }
  void select_victims(std::size_t want, PageTableView view, VictimList& out) override {
    if (mode == kStray)
      view.test_and_clear_referenced(kNoPage);  // a clock hand that starts nowhere
    if (mode == kUnseeded || mode == kLeaky) {  // picks at random
      std::size_t k = head + rng.below(queue.size() - head);
      while (!view.resident(queue[k])) k = head + rng.below(queue.size() - head);
      out.push_back(queue[k]);
      queue.erase(queue.begin() + static_cast<std::ptrdiff_t>(k));
      return;
    }
    while (out.size() < want) out.push_back(queue[head++]);
    if (mode == kTooMany && queue.size() > head) out.push_back(queue[head++]);
    if (mode == kNonResident && head >= 2) out.back() = queue[head - 2 - (head - 2) % 2];
  }
};

testing::Report check(Sabotaged::Mode mode) {
  testing::ConformanceOptions o;
  o.traces = 40;
  return testing::check_conformance(
      "sabotaged", [mode](const Params&) { return std::make_unique<Sabotaged>(mode); }, o);
}

TEST_CASE("kit: the conformance suite passes a correct policy and every built-in one") {
  const auto fine = check(Sabotaged::kFine);
  CHECK_MESSAGE(fine.ok(), fine.text());
  for (const auto& name : Registry::instance().names()) {
    testing::ConformanceOptions o;
    o.traces = 30;
    const auto report = testing::check_conformance(name, o);
    CHECK_MESSAGE(report.ok(), report.text());
    // Every case with exits freeing memory: frames come free without an eviction, which the
    // resident bound does not count (it failed these before).
    o.params.set("free_on_exit", true);
    const auto exits = testing::check_conformance(name, o);
    CHECK_MESSAGE(exits.ok(), exits.text());
  }
}

TEST_CASE("kit: watermarks of one's own get memory above them, and the exit checks none") {
  // Every random case runs in more frames than the high watermark (the cases have 1 to 9, for
  // 4 to 23 pages), so none is refused; the exit checks count one eviction at a time, with
  // watermarks 0.
  testing::ConformanceOptions o;
  o.traces = 40;
  o.params.set("low_watermark", std::int64_t{2});
  o.params.set("high_watermark", std::int64_t{5});
  for (const char* name : {"lru", "clock", "active_inactive"}) {
    const auto report = testing::check_conformance(name, o);
    CHECK_MESSAGE(report.ok(), report.text());
  }
  // A watermark no memory the suite would choose allows: the runs refuse it, naming the key.
  o.params.set("low_watermark", std::int64_t{1} << 20);
  const auto refused = testing::check_conformance("lru", o);
  REQUIRE(!refused.ok());
  CHECK(refused.failures[0].find("parameter 'low_watermark' = 1048576 is out of range") == 0);
}

TEST_CASE("kit: the conformance suite reports a policy that nominates a non-resident page") {
  const auto report = check(Sabotaged::kNonResident);
  REQUIRE(!report.ok());
  CHECK(report.text().find("which is not resident: it was evicted earlier: did on_evict forget it? "
                           "(policy 'sabotaged', at access #") != std::string::npos);
}

TEST_CASE("kit: a failure names its case, and replaying that case gives the same error") {
  const auto report = check(Sabotaged::kNonResident);
  REQUIRE(!report.ok());
  const std::string& failure = report.failures.front();
  // Case 1 (frames 2) fails first: the sabotage strikes at the third eviction, and case 1
  // makes more.
  const std::string replay =
      " (replay: testing::conformance_case(1) with frames=2 and the check's params)";
  REQUIRE(failure.size() > replay.size());
  CHECK(failure.substr(failure.size() - replay.size()) == replay);
  // What the message says: the case's trace and frames, the check's params (none here), the
  // engine's defaults for the rest.
  const testing::ConformanceCase c = testing::conformance_case(1);
  CHECK(c.frames == 2);
  CHECK(c.trace.size() == 53);  // 50 + 3 * seed accesses
  Sabotaged again(Sabotaged::kNonResident);
  std::string error = "(no error)";
  try {
    simulate(c.trace, again, Params{{"frames", c.frames}}, "sabotaged");
  } catch (const PolicyError& e) {
    error = e.what();
  }
  CHECK(error + replay == failure);
}

TEST_CASE("kit: the conformance suite reports a reset() that keeps the previous run's state") {
  const auto report = check(Sabotaged::kLeaky);
  REQUIRE(!report.ok());
  // Fresh instances agree (same seed), so only the reused one differs.
  CHECK(report.text().find("not deterministic") == std::string::npos);
  CHECK(report.text().find(
            "reset() keeps state of the previous run: the second run of one instance gave ") !=
        std::string::npos);
}

TEST_CASE("kit: a failure in the second run of one instance says so") {
  // A reset() that keeps the first run's queue nominates its pages, not resident in the
  // second run; a fresh instance replays the case without failing.
  const auto report = check(Sabotaged::kStale);
  REQUIRE(!report.ok());
  const std::string& failure = report.failures.front();
  CHECK(failure.find("which is not resident") != std::string::npos);
  CHECK(failure.find(" (in the second run of one instance: reset() must forget the first run) "
                     "(replay: testing::conformance_case(1)") != std::string::npos);
  const testing::ConformanceCase c = testing::conformance_case(1);
  Sabotaged fresh(Sabotaged::kStale);
  CHECK(simulate(c.trace, fresh, Params{{"frames", c.frames}}, "sabotaged").total.faults > 0);
}

TEST_CASE("kit: ConformanceOptions::params may not set frames") {
  testing::ConformanceOptions o;
  o.params.set("frames", std::int64_t{4});
  CHECK_THROWS_WITH_AS(
      testing::check_conformance("lru", o),
      "ConformanceOptions::params sets 'frames': the suite chooses the memory size "
      "of each run; remove it",
      ConfigError);
}

TEST_CASE("kit: the conformance suite reports a policy without on_free, naming the run") {
  const auto report = check(Sabotaged::kNoFree);
  REQUIRE(!report.ok());
  CHECK(report.text().find("policy 'sabotaged': on_free(page, view) is not implemented; free_on_exit=true "
                           "calls it for each anonymous page of an exiting process") != std::string::npos);
  CHECK(report.text().find("(replay: testing::exit_then_fill(1) with frames=1, device='none', "
                           "free_on_exit=true, schedule='static' and the check's params)") !=
        std::string::npos);
}

TEST_CASE("kit: the conformance suite reports a policy that evicts more than asked") {
  const auto report = check(Sabotaged::kTooMany);
  REQUIRE(!report.ok());
  CHECK(report.text().find("victims when asked for 1") != std::string::npos);
}

TEST_CASE("kit: the conformance suite reports a policy that is not deterministic") {
  const auto report = check(Sabotaged::kUnseeded);
  REQUIRE(!report.ok());
  CHECK(report.text().find("not deterministic: a fresh instance with the same parameters gave") != std::string::npos);
  // Not also blamed on reset(): its second runs differ for the same reason.
  CHECK(report.text().find("reset() keeps state") == std::string::npos);
}

#ifndef NDEBUG
TEST_CASE("kit: a page id beyond the trace given to the view is a failure, in a debug build") {
  // With NDEBUG (Release) nothing checks it: the view would write past its page table.
  const auto report = check(Sabotaged::kStray);
  REQUIRE(!report.ok());
  CHECK(report.failures.front() ==
        "page id 4294967295 given to the PageTableView is not a page of the trace (10 pages, ids 0 "
        "to 9) in select_victims for the fault of page 2 (replay: testing::conformance_case(1) "
        "with frames=2 and the check's params)");
}
#endif

TEST_CASE("kit: the conformance suite reports an exception of the policy's own, naming the run") {
  // Not a pagesim::Error: it must not end the test program, and says how to replay it.
  const auto report = check(Sabotaged::kThrows);
  REQUIRE(!report.ok());
  // The first eviction of case 1 (2 processes, round-robin) is of the first page faulted in,
  // page 0: the first access of the first process, which runs first.
  CHECK(report.failures.front() ==
        "policy 'sabotaged' threw an exception in on_evict of page 0: boom in on_evict (replay: "
        "testing::conformance_case(1) with frames=2 and the check's params)");
  // A pagesim::Error of the policy's own names the callback it came from too.
  const auto refuses = check(Sabotaged::kRefuses);
  REQUIRE(!refuses.ok());
  CHECK(refuses.failures.front() ==
        "this policy needs more frames in on_evict of page 0 (replay: "
        "testing::conformance_case(1) with frames=2 and the check's params)");
  // A constructor that throws is reported the same way.
  const auto ctor = testing::check_conformance(
      "unbuildable",
      [](const Params&) -> std::unique_ptr<Policy> {
        throw std::runtime_error("no memory for my lists");
      },
      testing::ConformanceOptions{3, {}});
  REQUIRE(!ctor.ok());
  CHECK(ctor.failures.front() ==
        "policy 'unbuildable' threw an exception: no memory for my lists (replay: "
        "testing::conformance_case(1) with frames=2 and the check's params)");
}

// A correct FIFO with public helpers that happen to have the names of the engine's fast paths
// (policy.hpp), without their markers: select_victim only peeks, prefetch counts its calls.
struct PeekFifo final : Policy {
  std::deque<PageId> queue;
  std::size_t prefetches = 0;
  explicit PeekFifo(const Params&) {}
  void reset(std::size_t, std::size_t) override { queue.clear(); }
  void on_fault(const Access& a, PageTableView) override { queue.push_back(a.page); }
  PageId select_victim(PageTableView) const { return queue.empty() ? kNoPage : queue.front(); }
  void prefetch(PageId, int) { ++prefetches; }
  void select_victims(std::size_t want, PageTableView view, VictimList& out) override {
    while (out.size() < want && !queue.empty()) {
      out.push_back(select_victim(view));
      queue.pop_front();
    }
  }
  void on_free(PageId p, PageTableView) override {
    queue.erase(std::remove(queue.begin(), queue.end(), p), queue.end());
  }
};

TEST_CASE(
    "engine: a policy's own select_victim and prefetch are not fast paths without the markers") {
  // The registry's path (run_inlined, as simulate by name) and the virtual one agree, and
  // both count as the built-in fifo; the peek used as a victim would be evicted again at the
  // next fault ("not resident"). Demand paging runs the plain loop, the defaults (readahead,
  // watermarks) the general one.
  const Trace t = testing::random_trace(3, 3000, 60);
  for (const Params& base :
       {testing::textbook(), Params{},
        Params{{"low_watermark", std::int64_t{1}}, {"high_watermark", std::int64_t{3}}}}) {
    for (std::int64_t frames : {5, 20}) {
      Params params = base;
      params.set("frames", frames);
      CAPTURE(frames);
      const Result by_name =
          run_inlined<PeekFifo>("peek_fifo", t, EngineConfig::from_params(params), params);
      PeekFifo virtual_calls(params);
      const Result through_ref =
          simulate(t, static_cast<Policy&>(virtual_calls), params, "peek_fifo");
      CHECK(by_name.total == through_ref.total);
      CHECK(by_name.total == simulate(t, "fifo", params).total);
      CHECK(virtual_calls.prefetches == 0);
    }
  }
  // The marker alone decides: a PeekFifo run by the engine directly never has prefetch called.
  Params params = testing::textbook();
  params.set("frames", std::int64_t{5});
  PeekFifo inlined(params);
  Engine engine(t, EngineConfig::from_params(params), "peek_fifo");
  CHECK(engine.run(inlined).total == simulate(t, "fifo", params).total);
  CHECK(inlined.prefetches == 0);
}

TEST_CASE("kit: a claim that does not hold fails with a table") {
  const Trace t = testing::known_answers()[3].trace;  // hot set plus scan
  CHECK(testing::expect_at_most(t, 4, "belady", "lru", "faults").ok());
  const auto report = testing::expect_at_most(t, 4, "lru", "belady", "faults");
  REQUIRE(!report.ok());
  // The table has a row per policy: lru 12 faults (3 of them major: the hot set again),
  // belady 9 and no major fault.
  CHECK(report.text().find("lru.faults <= 1 x belady.faults on hot-set-plus-scan at 4 frames") == 0);
  CHECK(report.text().find("\npolicy      faults  major_faults    swap_ins   swap_outs\n"
                           "   lru          12             3           0           0\n"
                           "belady           9             0           0           0\n") !=
        std::string::npos);
}

}  // namespace
}  // namespace pagesim::test
