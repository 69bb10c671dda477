// The thread-pool sweep gives the same results as single runs, in job order, and stops on the
// first error (or records it and goes on) or on cancel.
#include <doctest/doctest.h>

#include "helpers.hpp"
#include "pagesim/sweep.hpp"
#include "random_traces.hpp"

namespace pagesim::test {
namespace {

std::vector<SweepJob> grid(std::size_t traces, const std::vector<std::string>& policies,
                           const std::vector<std::int64_t>& frames) {
  std::vector<SweepJob> jobs;
  for (std::size_t t = 0; t < traces; ++t) {
    for (const auto& p : policies) {
      for (auto f : frames)
        jobs.push_back({t, p, Params{{"frames", f}, {"seed", std::int64_t{3}}}});
    }
  }
  // "seed" is only known to random: give it to random only.
  for (auto& j : jobs) {
    if (j.policy != "random") j.params = Params{{"frames", j.params.values().at("frames")}};
    j.params = testing::textbook(j.params);  // belady needs trace order
  }
  return jobs;
}

TEST_CASE("a sweep on several threads equals single runs, in job order") {
  const Trace a = random_trace(1, 3000, 120, 2);
  const Trace b = random_trace(2, 2000, 60, 3, true);
  const std::vector<std::string> policies = {"lru", "fifo", "clock", "random", "belady"};
  const std::vector<std::int64_t> frames = {1, 10, 50, 200};
  const auto jobs = grid(2, policies, frames);
  const std::vector<const Trace*> traces = {&a, &b};
  for (std::size_t threads : {1u, 2u, 5u}) {
    CAPTURE(threads);
    const std::vector<Result> results = run_sweep(traces, jobs, threads);
    REQUIRE(results.size() == jobs.size());
    for (std::size_t k = 0; k < jobs.size(); ++k) {
      const Result single =
          simulate(*traces[jobs[k].trace], jobs[k].policy, Params(jobs[k].params));
      CHECK(results[k].policy == jobs[k].policy);
      CHECK(results[k].frames == single.frames);
      CHECK(results[k].total == single.total);
    }
  }
}

TEST_CASE("a failing job stops the sweep with its own typed error") {
  const Trace a = random_trace(1, 500, 40);
  std::vector<SweepJob> jobs = grid(1, {"lru", "fifo"}, {5, 10});
  jobs.push_back({0, "lur", Params{{"frames", std::int64_t{5}}}});
  CHECK_THROWS_AS(run_sweep({&a}, jobs, 2), ConfigError);
  // The error names the run (jobs 0-3 are the grid's, job 4 the one that fails).
  try {
    run_sweep({&a}, jobs, 2);
    FAIL("no error");
  } catch (const ConfigError& e) {
    const std::string what = e.what();
    CHECK(what.rfind("unknown policy 'lur': did you mean 'lru'? (known: ", 0) == 0);
    const std::string run = " (in the sweep's run of job 4: policy 'lur' on trace 0, frames=5)";
    CHECK(what.substr(what.size() - std::min(what.size(), run.size())) == run);
  }
  jobs.back() = {0, "lru", Params{{"frames", std::int64_t{5}}, {"cpu_nss", std::int64_t{1}}}};
  CHECK_THROWS_WITH_AS(run_sweep({&a}, jobs, 2), doctest::Contains("did you mean"), ConfigError);
  jobs.back() = {3, "lru", Params{{"frames", std::int64_t{5}}}};
  CHECK_THROWS_WITH_AS(run_sweep({&a}, jobs, 2),
                       "sweep job 4 names trace 3, but the sweep has 1 traces", ConfigError);
}

TEST_CASE("a sweep that records errors runs every other job, and gives each its own outcome") {
  // Jobs 0-3 the grid's; job 4 names no policy; job 5 fills its 10 swap slots (the random
  // trace dirties more than 10 of its 40 pages, at 5 frames); job 6 runs.
  const Trace a = random_trace(1, 500, 40);
  std::vector<SweepJob> jobs = grid(1, {"lru", "fifo"}, {5, 10});
  jobs.push_back({0, "lur", Params{{"frames", std::int64_t{5}}}});
  jobs.push_back({0, "lru", Params{{"frames", std::int64_t{5}}, {"swap_slots", std::int64_t{10}}}});
  jobs.push_back({0, "clock", Params{{"frames", std::int64_t{7}}}});
  for (std::size_t threads : {1u, 3u}) {
    CAPTURE(threads);
    SweepRunner runner({std::shared_ptr<const Trace>(std::shared_ptr<void>(), &a)}, jobs, threads,
                       SweepRunner::OnError::kRecord);
    runner.wait();
    CHECK(runner.done() == jobs.size());
    CHECK_FALSE(runner.cancelled());
    for (std::size_t k : {0u, 1u, 2u, 3u, 6u}) {
      CAPTURE(k);
      CHECK(runner.result(k).total == simulate(a, jobs[k].policy, Params(jobs[k].params)).total);
    }
    CHECK_THROWS_WITH_AS(runner.result(4), doctest::Contains("unknown policy 'lur'"), ConfigError);
    CHECK_THROWS_WITH_AS(runner.result(5), doctest::Contains("swap is full"), ConfigError);
    CHECK_THROWS_AS(runner.results(), ConfigError);  // the first error in time, whichever
    CHECK_THROWS_WITH_AS(runner.result(7), "sweep job 7 does not exist: the sweep has 7 jobs",
                         ConfigError);
  }
  // Without recording, one thread: job 4's error stops the sweep, so jobs 5 and 6 never ran.
  SweepRunner stop({std::shared_ptr<const Trace>(std::shared_ptr<void>(), &a)}, jobs, 1);
  stop.wait();
  CHECK(stop.done() == 5);
  CHECK(stop.failed_job() == 4);
  CHECK(stop.result(3).total == simulate(a, jobs[3].policy, Params(jobs[3].params)).total);
  CHECK_THROWS_AS(stop.result(4), ConfigError);
  CHECK_THROWS_WITH_AS(stop.result(6),
                       "sweep job 6 did not run: the sweep was stopped by job 4's error", Error);
  // ran: the jobs that finished, well (0-3) or not (4).
  for (std::size_t k = 0; k < jobs.size(); ++k) CHECK(stop.ran(k) == (k <= 4));
  CHECK_FALSE(stop.ran(7));
}

TEST_CASE("a cancelled sweep stops between jobs and reports how far it got") {
  const Trace a = random_trace(1, 2000, 100);
  std::vector<SweepJob> jobs = grid(1, {"lru"}, std::vector<std::int64_t>(400, 20));
  SweepRunner runner({std::shared_ptr<const Trace>(std::shared_ptr<void>(), &a)}, jobs, 2);
  runner.cancel();
  runner.wait();
  CHECK(runner.cancelled());
  CHECK(runner.done() < jobs.size());
  CHECK_THROWS_WITH_AS(runner.results(), doctest::Contains("cancelled after"), Error);
  CHECK_THROWS_WITH_AS(runner.result(jobs.size() - 1),
                       "sweep job 399 did not run: the sweep was cancelled", Error);
  // The jobs that ran are those whose results are there: as many as done().
  std::size_t ran = 0;
  for (std::size_t k = 0; k < jobs.size(); ++k) {
    if (!runner.ran(k)) continue;
    ++ran;
    CHECK(runner.result(k).total.accesses == a.size());
  }
  CHECK(ran == runner.done());
}

TEST_CASE("an empty sweep finishes at once") {
  SweepRunner runner({}, {}, 4);
  CHECK(runner.threads() == 0);
  CHECK(runner.wait_for(std::chrono::milliseconds(0)));
  CHECK(runner.results().empty());
}

}  // namespace
}  // namespace pagesim::test
