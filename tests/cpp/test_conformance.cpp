// The suite every registered policy runs through, found by name in the registry: a new
// policy file is covered without touching this file.
#include <doctest/doctest.h>

#include "helpers.hpp"
#include "pagesim/timing.hpp"
#include "random_traces.hpp"

namespace pagesim::test {
namespace {

void check_sums(const Counters& c) {
  CHECK(c.hits + c.faults == c.accesses);
  CHECK(c.minor_faults + c.major_faults == c.faults);
  CHECK(c.swap_ins + c.file_reads + c.zero_refills == c.major_faults);
  CHECK(c.evictions_clean + c.evictions_dirty == c.evictions);
  CHECK(c.swap_outs + c.file_writes == c.evictions_dirty + c.writebacks);
  CHECK(c.readahead_used + c.readahead_wasted <= c.readahead_pages);
  CHECK(c.readahead_wasted <= c.evictions);
  CHECK(c.pages_scanned >= c.evictions);
}

// Prescient policies need the static replay order (the default for several processes is
// round-robin, whose order is not known in advance).
Params with_order(const std::string& name, Params params) {
  if (Registry::instance().get(name).make(params)->traits().needs_future) {
    params.set("schedule", std::string("static"));
  }
  return params;
}

// A run with page_stats: the same counters as `without` (the run without page_stats), which
// its pages add up to, each page brought in (by faults and readahead) once more than evicted
// if resident at the end, else as often.
void check_page_stats(const Trace& t, const std::string& name, Params params,
                      const Counters& without) {
  params.set("page_stats", true);
  const Result r = simulate(t, name, params);
  CHECK(r.total == without);
  REQUIRE(static_cast<bool>(r.pages));
  const PageStats& s = *r.pages;
  REQUIRE(s.faults.size() == t.num_pages());
  Counters sum;
  std::uint64_t resident = 0;
  for (PageId p = 0; p < t.num_pages(); ++p) {
    sum.accesses += s.accesses[p];
    sum.faults += s.faults[p];
    sum.major_faults += s.major_faults[p];
    sum.readahead_pages += s.readahead[p];
    sum.evictions += s.evictions[p];
    sum.swap_outs += s.writes[p];
    CHECK(s.faults[p] <= s.accesses[p]);
    CHECK(s.major_faults[p] <= s.faults[p]);
    if (without.writebacks == 0) CHECK(s.writes[p] <= s.evictions[p]);
    const std::uint64_t in = s.faults[p] + s.readahead[p];
    CHECK((in == s.evictions[p] || in == s.evictions[p] + 1));
    resident += in - s.evictions[p];
    CHECK(s.vpn[p] == t.page_vpn(p));
  }
  CHECK(sum.accesses == without.accesses);
  CHECK(sum.faults == without.faults);
  CHECK(sum.major_faults == without.major_faults);
  CHECK(sum.readahead_pages == without.readahead_pages);
  CHECK(sum.evictions == without.evictions);
  CHECK(sum.swap_outs == without.swap_outs + without.file_writes);
  CHECK(resident == without.faults + without.readahead_pages - without.evictions);
}

// A policy with its parameters: every registered policy as it comes, and the documented
// parameters that switch on a mechanism of its own (README, "Kernel policies").
struct Variant {
  std::string name;
  Params params;
};

std::vector<Variant> variants() {
  std::vector<Variant> out;
  for (const std::string& name : Registry::instance().names()) out.push_back({name, {}});
  out.push_back({"active_inactive", {{"workingset", true}}});
  // Its token changes hands in the runs on a disk, whose seconds of IO pass its 2 s interval.
  out.push_back({"active_inactive", {{"swap_token", true}}});
  out.push_back({"active_inactive", {{"anon_insert", std::string("inactive")}}});
  // Its pages under writeback keep their frames in the runs on a queued device.
  out.push_back({"active_inactive", {{"pageout", std::string("writeback")}}});
  out.push_back({"rmap_aging", {{"aging", std::string("exponential")}}});
  out.push_back({"freebsd", {{"defer_swapspace_pageouts", true}}});
  // Its writebacks: at tau 2 the hand finds dirty pages outside a working set.
  out.push_back({"wsclock", {{"tau", std::int64_t{2}}}});
  return out;
}

std::string describe(const Params& params) {
  std::string out;
  for (const auto& [key, value] : params.values()) out += key + "=" + to_string(value) + " ";
  return out;
}

TEST_CASE("conformance: every registered policy") {
  REQUIRE(Registry::instance().names().size() >= 5);
  for (const Variant& variant : variants()) {
    const std::string& name = variant.name;
    CAPTURE(name);
    const std::string with = describe(variant.params);
    CAPTURE(with);
    for (std::uint64_t seed = 1; seed <= 200; ++seed) {
      CAPTURE(seed);
      const Trace t = random_trace(seed, 50 + seed * 3, 4 + seed % 20, 1 + seed % 4, seed % 3 == 0);
      const auto frames = static_cast<std::int64_t>(1 + seed % 9);
      CAPTURE(frames);
      // The variant's parameters with `more` set.
      const auto with_params =
          [&](std::initializer_list<std::pair<const std::string, Params::Value>> more) {
            Params p = variant.params;
            p.set("frames", frames);
            for (const auto& [key, value] : more) p.set(key, value);
            return p;
          };
      const Params params = with_order(name, with_params({}));
      // No exception: the engine checked every nomination (resident, distinct, not too many).
      const Result r = simulate(t, name, params);
      check_sums(r.total);
      Counters per_proc_sum;
      for (const auto& c : r.per_proc) {
        check_sums(c);
        per_proc_sum += c;
      }
      CHECK(per_proc_sum == r.total);
      // Memory never holds more than `frames` pages: every fault or readahead page beyond the
      // first `frames` needs an eviction.
      CHECK(r.total.faults + r.total.readahead_pages - r.total.evictions <=
            static_cast<std::uint64_t>(frames));

      // Deterministic for fixed parameters (seeded policies included).
      CHECK(simulate(t, name, params).total == r.total);
      check_page_stats(t, name, params, r.total);

      // Prescient MIN is a lower bound on faults of textbook demand paging in one order: no
      // readahead, static order for both.
      {
        const Params textbook = with_params({{"page_cluster", std::int64_t{0}},
                                             {"schedule", std::string("static")},
                                             {"interval_ns", std::int64_t{700}}});
        const Result own = simulate(t, name, textbook);
        const Params min{{"frames", frames},
                         {"page_cluster", std::int64_t{0}},
                         {"schedule", std::string("static")}};
        CHECK(simulate(t, "belady", min).total.faults <= own.total.faults);
        // A one-process trace takes the plain loop without page_stats, the general one with.
        check_page_stats(t, name, textbook, own.total);
        // Demand paging one victim at a time: select_victim inlined (a one-process trace
        // takes the engine's plain loop), select_victims virtual (the general loop); without
        // a device, on a disk with a short queue, on zram.
        for (const std::string device : {"none", "hdd-2002", "zram"}) {
          CAPTURE(device);
          Params io = textbook;
          io.set("device", device);
          io.set("io_queue_depth", std::int64_t{2});
          // A few rows per ms of replay, per second of disk IO.
          io.set("interval_ns", std::int64_t{device == "none" ? 700 : device == "zram" ? 7'000 : 5'000'000});
          const Result inlined = simulate(t, name, io);
          auto instance = Registry::instance().get(name).make(io);
          const Result virt = simulate(t, *instance, io, name);
          CHECK(virt.total == inlined.total);
          CHECK(virt.time.elapsed_ns == inlined.time.elapsed_ns);
          CHECK(virt.time.iowait_ns == inlined.time.iowait_ns);
          CHECK(virt.device_stats.busy_ns == inlined.device_stats.busy_ns);
          REQUIRE(virt.vmstat->rows() == inlined.vmstat->rows());
          // A row at every interval up to the end, then one at the end (a partial interval).
          const auto interval = static_cast<std::int64_t>(inlined.vmstat->interval_ns);
          const auto elapsed = static_cast<std::int64_t>(inlined.time.elapsed_ns);
          const Eigen::Index rows = inlined.vmstat->rows();
          CHECK(rows == (elapsed + interval - 1) / interval);
          Eigen::Index off_interval = 0;
          for (Eigen::Index k = 0; k + 1 < rows; ++k) {
            off_interval += inlined.vmstat->time_ns[k] != (k + 1) * interval;
          }
          CHECK(off_interval == 0);
          if (rows != 0) CHECK(inlined.vmstat->time_ns[rows - 1] == elapsed);
          CHECK(virt.vmstat->faults == inlined.vmstat->faults);
          CHECK(virt.vmstat->resident == inlined.vmstat->resident);
          CHECK(inlined.vmstat->swap_outs.sum() ==
                static_cast<std::int64_t>(inlined.total.swap_outs));
        }
      }

      // The virtual path (a Policy& from the factory) gives the same counts as the inlined one.
      const Params fresh = with_order(name, with_params({}));
      auto instance = Registry::instance().get(name).make(fresh);
      CHECK(simulate(t, *instance, fresh, name).total == r.total);

      // Batch reclaim between watermarks works and keeps the counts consistent; with high 2
      // a fault that finds one frame free reclaims one page.
      for (std::int64_t high : {2, 3}) {
        if (frames < 4) break;
        const Params batch = with_order(
            name, with_params({{"low_watermark", std::int64_t{1}}, {"high_watermark", high}}));
        const Result b = simulate(t, name, batch);
        check_sums(b.total);
        CHECK(b.total.faults + b.total.readahead_pages - b.total.evictions <=
              static_cast<std::uint64_t>(frames));
        auto batch_instance = Registry::instance().get(name).make(batch);
        CHECK(simulate(t, *batch_instance, batch, name).total == b.total);
      }
    }
  }
}

TEST_CASE("conformance: memory far beyond the footprint costs the footprint, not the frames") {
  // The largest memory allowed, 2^40 frames, for a trace of 40 pages: a policy that sized
  // anything by the frames would ask for terabytes. Every page faults once, none is evicted.
  const Trace t = random_trace(7, 300, 40, 2, true);
  for (const Variant& variant : variants()) {
    const std::string& name = variant.name;
    CAPTURE(name);
    Params params = variant.params;
    params.set("frames", std::int64_t{1} << 40);
    const Result r = simulate(t, name, with_order(name, params));
    CHECK(r.total.faults == t.num_pages());
    CHECK(r.total.evictions == 0);
  }
}

TEST_CASE("conformance kit: every registered policy under every IO scheduler and a shallow queue") {
  // The kit's random cases run on hdd-2002 or nvme with the default scheduler (elevator); the
  // other schedulers order reads and writes differently (read_priority puts reads first,
  // deadline batches and expires them), and a queue of 2 requests makes writers wait for room.
  const std::vector<Params> settings = {
      {{"io_scheduler", std::string("fifo")}},
      {{"io_scheduler", std::string("read_priority")}},
      {{"io_scheduler", std::string("deadline")}, {"io_fifo_batch", std::int64_t{2}}},
      {{"io_queue_depth", std::int64_t{2}}, {"io_max_request_pages", std::int64_t{2}}},
  };
  for (const std::string& name : Registry::instance().names()) {
    CAPTURE(name);
    for (const Params& params : settings) {
      const std::string with = describe(params);
      CAPTURE(with);
      testing::ConformanceOptions o;
      o.traces = 25;
      o.params = params;
      const testing::Report report = testing::check_conformance(name, o);
      CHECK_MESSAGE(report.ok(), report.text());
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
