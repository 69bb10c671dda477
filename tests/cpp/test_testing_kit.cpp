// The testing kit itself: it passes the built-in policies, it catches broken ones with a clear
// message, and its known answers hold.
#include <doctest/doctest.h>

#include <algorithm>

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

// A correct policy to start from: FIFO over a vector, with a way to break it.
struct Sabotaged final : Policy {
  enum Mode { kFine, kNonResident, kTooMany, kUnseeded, kNoFree } mode;
  std::vector<PageId> queue;
  std::size_t head = 0;
  // Seeded from a count of instances: each fresh instance draws differently.
  static inline std::uint64_t instances = 0;
  Rng rng{++instances};
  explicit Sabotaged(Mode m) : mode(m) {}
  void reset(std::size_t, std::size_t) override { queue.clear(); head = 0; }
  void on_fault(const Access& a, PageTableView) override { queue.push_back(a.page); }
  void on_free(PageId p, PageTableView view) override {
    if (mode == kNoFree) Policy::on_free(p, view);  // as a policy written before exits
    queue.erase(std::remove(queue.begin() + static_cast<std::ptrdiff_t>(head), queue.end(), p), queue.end());
  }
  void select_victims(std::size_t want, PageTableView view, VictimList& out) override {
    if (mode == kUnseeded) {  // picks at random, differently in every instance
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
  }
}

TEST_CASE("kit: the conformance suite reports a policy that nominates a non-resident page") {
  const auto report = check(Sabotaged::kNonResident);
  REQUIRE(!report.ok());
  CHECK(report.text().find("which is not resident (policy 'sabotaged', at access #") != std::string::npos);
  CHECK(report.text().find("(random_trace seed ") != std::string::npos);
}

TEST_CASE("kit: the conformance suite reports a policy without on_free, naming the run") {
  const auto report = check(Sabotaged::kNoFree);
  REQUIRE(!report.ok());
  CHECK(report.text().find("policy 'sabotaged': on_free(page, view) is not implemented; free_on_exit=true "
                           "calls it for each anonymous page of an exiting process") != std::string::npos);
  CHECK(report.text().find("process 1 writes 6 pages and exits") != std::string::npos);
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
