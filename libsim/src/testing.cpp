#include "pagesim/testing.hpp"

#include <algorithm>
#include <exception>
#include <iomanip>
#include <sstream>
#include <variant>

#include "pagesim/error.hpp"
#include "pagesim/generators.hpp"
#include "pagesim/registry.hpp"
#include "pagesim/rng.hpp"

namespace pagesim::testing {
namespace {

Params with(Params params, const std::string& key, Params::Value value) {
  params.set(key, std::move(value));
  return params;
}

// How to replay a run of the trace `call` builds with `params`: the settings the suite chose,
// those of `params` not in the check's own (`options`), frames first.
std::string replay(const std::string& call, const Params& params, const Params& options) {
  std::string settings = "frames=" + to_string(params.values().at("frames"));
  for (const auto& [key, value] : params.values()) {
    const auto given = options.values().find(key);
    if (key == "frames" || (given != options.values().end() && given->second == value)) continue;
    settings += ", " + key + "=" + to_string(value);
  }
  return " (replay: " + call + " with " + settings + " and the check's params)";
}

std::string where(std::uint64_t seed, const Params& params, const Params& options) {
  return replay("testing::conformance_case(" + std::to_string(seed) + ")", params, options);
}

// The least memory the given settings allow: a watermark is below the frames, so with
// watermarks of its own (up to 65,535) a run needs more frames than the highest; larger ones
// are left to the runs to refuse, naming the key.
std::int64_t least_frames(const Params& options) {
  std::int64_t least = 1;
  for (const char* key : {"low_watermark", "high_watermark"}) {
    const auto given = options.values().find(key);
    if (given == options.values().end()) continue;
    const auto* watermark = std::get_if<std::int64_t>(&given->second);
    if (watermark != nullptr && *watermark < 65'536) least = std::max(least, *watermark + 1);
  }
  return least;
}

// A run with `params` frees a process's pages when it exits: frames and readahead pages
// leave without an eviction.
bool frees_on_exit(const Params& params) {
  return params.has("free_on_exit") && params.get_bool("free_on_exit", false);
}

// The laws the counters of a run with `params` obey.
void check_sums(Report& report, const Counters& c, const Params& params,
                const std::string& context) {
  const auto law = [&](bool holds, const char* what) {
    ++report.checks;
    if (!holds) report.fail(std::string("counters do not add up: ") + what + context);
  };
  law(c.hits + c.faults == c.accesses, "hits + faults != accesses");
  law(c.minor_faults + c.major_faults == c.faults, "minor + major != faults");
  law(c.swap_ins + c.file_reads + c.zero_refills == c.major_faults,
      "swap_ins + file_reads + zero_refills != major_faults");
  law(c.evictions_clean + c.evictions_dirty == c.evictions, "clean + dirty != evictions");
  law(c.swap_outs + c.file_writes == c.evictions_dirty + c.writebacks,
      "swap_outs + file_writes != dirty evictions + writebacks");
  law(c.readahead_used + c.readahead_wasted <= c.readahead_pages,
      "readahead_used + readahead_wasted > readahead_pages");
  law(c.readahead_used <= c.hits, "readahead_used > hits (a readahead page is used by a hit)");
  // A readahead page is wasted when evicted unused, or freed unused at its process's exit.
  if (!frees_on_exit(params))
    law(c.readahead_wasted <= c.evictions, "readahead_wasted > evictions");
  law(c.pages_scanned >= c.evictions, "pages_scanned < evictions (every victim is scanned)");
}

// On a queued device, each page a fault or readahead reads is read by a request, or joins a
// read of its position.
void check_device_reads(Report& report, const Result& r, const std::string& context) {
  if (!DeviceConfig::preset(r.device).queued()) return;
  const DeviceStats& d = r.device_stats;
  ++report.checks;
  if (d.pages_read + d.read_joins !=
      r.total.swap_ins + r.total.file_reads + r.total.readahead_pages) {
    report.fail(
        "device reads do not add up: pages_read + read_joins != "
        "swap_ins + file_reads + readahead_pages" +
        context);
  }
}

bool needs_future(const std::string& policy) {
  return Registry::instance().get(policy).make(Params{})->traits().needs_future;
}

// Comparisons with a prescient policy need one replay order for every row: the static one
// (several processes are scheduled round-robin by default, whose order is not known ahead).
Params same_order(Params params, const std::vector<std::string>& policies) {
  if (params.has("schedule")) return params;
  for (const auto& p : policies) {
    if (needs_future(p)) return with(params, "schedule", std::string("static"));
  }
  return params;
}

// Forwards every callback to `inner`, noting in `at` which one runs while it runs: the kit's
// runs name the callback an error or exception of the policy's own came from (the replay
// keeps no such note), and not one that has returned when the engine's own checks fail.
class Noting final : public Policy {
 public:
  Noting(Policy& inner, CallbackSite& at) : inner_(inner), at_(at) {}
  PolicyTraits traits() const override { return inner_.traits(); }
  void reset(std::size_t num_pages, std::size_t frames) override {
    noted(CallbackSite::reset(), [&] { inner_.reset(num_pages, frames); });
  }
  void on_hit(const Access& access, PageTableView view) override {
    noted(CallbackSite::on_hit(access), [&] { inner_.on_hit(access, view); });
  }
  void on_fault(const Access& access, PageTableView view) override {
    noted(CallbackSite::on_fault(access), [&] { inner_.on_fault(access, view); });
  }
  void select_victims(std::size_t want, PageTableView view, VictimList& out) override {
    noted(CallbackSite::select_victims(view), [&] { inner_.select_victims(want, view, out); });
  }
  void on_evict(PageId page, PageTableView view) override {
    noted(CallbackSite::on_evict(page), [&] { inner_.on_evict(page, view); });
  }
  void on_tick(Tick now, PageTableView view) override {
    noted(CallbackSite::on_tick(now), [&] { inner_.on_tick(now, view); });
  }
  void on_free(PageId page, PageTableView view) override {
    noted(CallbackSite::on_free(page), [&] { inner_.on_free(page, view); });
  }

 private:
  template <class F>
  void noted(CallbackSite site, F&& callback) {
    at_ = site;
    callback();
    at_ = CallbackSite{};
  }

  Policy& inner_;
  CallbackSite& at_;
};

// The conformance runs' file readahead: windows of 2, 4, then 8 pages (of 4 KiB).
constexpr std::int64_t kFileReadaheadKb = 32;

// Said of a failure in the second run of one instance, whose first run went well.
constexpr const char* kLaterRun =
    " (in the second run of one instance: reset() must forget the first run)";

// Runs `f`, which runs the policy `name` noting its callbacks in `at`; false with a failure if
// it threw. A pagesim::Error says what went wrong already (thrown in a callback, by the
// policy's code or its view, it also names the callback); any other exception came from the
// policy's own code (an exception escaping a callback or the constructor): it is a failure
// too, naming the callback and the context, instead of ending the test program.
template <class F>
bool reported(Report& report, const std::string& name, const std::string& context, F&& f) {
  CallbackSite at;
  const auto in = [&] { return at.callback == nullptr ? std::string() : " in " + at.text(); };
  try {
    f(at);
    return true;
  } catch (const Error& e) {
    report.fail(std::string(e.what()) + in() + context);
  } catch (const std::exception& e) {
    report.fail("policy '" + name + "' threw an exception" + in() + ": " + e.what() + context);
  } catch (...) {
    report.fail("policy '" + name + "' threw something that is not a std::exception" + in() +
                context);
  }
  return false;
}

// `runs` runs of one instance (the engine resets it before each); `out` is the last one's
// result; false if a run failed (then the rest is skipped). A failure after the first run is
// said to be one: a fresh instance replays it without failing.
bool run_instance(Report& report, const Trace& t, const PolicyFactory& make,
                  const std::string& name, const Params& params, Result& out,
                  const std::string& context, int runs = 1) {
  ++report.checks;
  decltype(make(params)) policy;
  for (int k = 0; k < runs; ++k) {
    const std::string in_run = k == 0 ? context : kLaterRun + context;
    const bool ok = reported(report, name, in_run, [&](CallbackSite& at) {
      if (!policy) policy = make(params);
      Noting noting(*policy, at);
      out = simulate(t, noting, params, name);
    });
    if (!ok) return false;
  }
  return true;
}

// One conformance run; false if the run itself failed (then the rest is skipped).
bool run_once(Report& report, const Trace& t, const PolicyFactory& make, const std::string& name,
              const Params& params, Result& out, const std::string& context) {
  return run_instance(report, t, make, name, params, out, context);
}

// "faults 41 instead of 40, evictions 39 instead of 38": the counters of `got` that differ
// from `want`.
std::string differences(const Counters& got, const Counters& want) {
  std::string diff;
  Counters::for_each_field([&](const char* counter, auto field) {
    if (got.*field == want.*field) return;
    diff += (diff.empty() ? "" : ", ") + std::string(counter) + " " + std::to_string(got.*field) +
            " instead of " + std::to_string(want.*field);
  });
  return diff;
}

// Whether the policy needs the future (runs in static order only); false if constructing it
// throws: the run that follows reports that, with its context.
bool prescient(const PolicyFactory& make, const Params& params) {
  try {
    return make(params)->traits().needs_future;
  } catch (...) {
    return false;
  }
}

// A registered policy's inlined replay (by name) must count as its virtual one (Policy&), `r`.
void check_inlined(Report& report, const Trace& t, const std::string& name, const Params& params,
                   const Result& r, const std::string& context) {
  ++report.checks;
  Result inlined;
  if (!reported(report, name, context, [&](CallbackSite&) { inlined = simulate(t, name, params); }))
    return;
  if (inlined.total != r.total) {
    report.fail("the inlined replay (by name) and the virtual one (Policy&) disagree: by name, " +
                differences(inlined.total, r.total) + context);
  }
}

// The exit checks of the conformance suite (see check_conformance).
void check_exits(Report& report, const std::string& name, const PolicyFactory& make,
                 bool registered, const ConformanceOptions& options) {
  const std::vector<std::string> schedules =
      prescient(make, with(options.params, "frames", std::int64_t{1}))
          ? std::vector<std::string>{"static"}
          : std::vector<std::string>{"static", "round_robin"};
  // exit_then_fill: every policy evicts 5 of process 1's pages, each dirty (5 swap-outs; a
  // policy that writes back pages may write more of them, each once), and then none: process
  // 1's exit frees all its frames and slots. One page at a time: watermarks given are set to 0.
  Params one_at_a_time = options.params;
  for (const char* key : {"low_watermark", "high_watermark"}) {
    if (one_at_a_time.has(key)) one_at_a_time.set(key, std::int64_t{0});
  }
  for (std::int64_t frames : {1, 3, 8}) {
    const Trace t = exit_then_fill(static_cast<std::uint32_t>(frames));
    for (const std::string& schedule : schedules) {
      for (const char* device : {"none", "nvme"}) {
        Params params = with(with(with(with(one_at_a_time, "frames", frames), "free_on_exit", true),
                                  "schedule", schedule),
                             "device", std::string(device));
        const std::string context = replay(
            "testing::exit_then_fill(" + std::to_string(frames) + ")", params, options.params);
        Result r;
        if (!run_once(report, t, make, name, params, r, context)) continue;
        ++report.checks;
        const std::uint64_t writes = r.total.swap_outs;
        const bool writes_ok =
            r.total.writebacks == 0
                ? writes == 5
                : writes >= 5 && writes <= 5 + static_cast<std::uint64_t>(frames);
        if (r.total.evictions != 5 || !writes_ok ||
            r.total.faults != 2 * static_cast<std::uint64_t>(frames) + 5 ||
            r.swap_slots_used != 0) {
          report.fail(
              "the exit did not free process 1's memory: " + std::to_string(r.total.evictions) +
              " evictions, " + std::to_string(r.total.swap_outs) + " swap-outs, " +
              std::to_string(r.swap_slots_used) +
              " swap slots in use at the end; expected 5, 5 (5 to frames + 5 with "
              "writebacks), 0" +
              context);
        }
      }
    }
  }
  // Processes that come and go, in every setting that changes how pages come and leave.
  for (std::uint64_t seed = 1; seed <= std::max<std::uint64_t>(options.traces / 10, 1); ++seed) {
    const std::uint64_t length = 60 + seed * 7, pages = 3 + seed % 12, procs = 2 + seed % 3;
    const bool files = seed % 2 == 0;
    const Trace t = staggered_trace(seed, length, pages, procs, files);
    const std::string call = "testing::staggered_trace(" + std::to_string(seed) + ", " +
                             std::to_string(length) + ", " + std::to_string(pages) + ", " +
                             std::to_string(procs) + ", " + (files ? "true" : "false") + ")";
    const auto frames =
        std::max(static_cast<std::int64_t>(2 + seed % 7), least_frames(options.params));
    const Params base = with(with(options.params, "frames", frames), "free_on_exit", true);
    std::vector<Params> settings;
    for (const std::string& schedule : schedules) {
      const Params p = with(base, "schedule", schedule);
      settings.push_back(p);
      settings.push_back(with(p, "page_cluster", std::int64_t{0}));
      settings.push_back(with(p, "free_slot_on_swapin", true));
      settings.push_back(with(with(p, "free_slot_on_swapin", std::string("write")), "device",
                              std::string("nvme")));
      // A swap area the trace fills more than half (vm_swap_full), on a disk: the first use
      // of a page read ahead waits for its read, then frees its slot.
      settings.push_back(with(with(p, "swap_slots", static_cast<std::int64_t>(t.num_pages())),
                              "device", std::string("hdd-2002")));
      settings.push_back(with(p, "device", std::string("hdd-2002")));
      settings.push_back(with(p, "swap_readahead", std::string("adaptive")));
      settings.push_back(
          with(with(p, "swap_readahead", std::string("vma")), "device", std::string("nvme")));
      if (files) {
        const Params file_ra = with(p, "read_ahead_kb", kFileReadaheadKb);
        settings.push_back(file_ra);
        settings.push_back(with(file_ra, "device", std::string("hdd-2002")));
      }
      if (frames >= 4) {
        settings.push_back(
            with(with(p, "low_watermark", std::int64_t{1}), "high_watermark", std::int64_t{3}));
      }
    }
    for (const Params& params : settings) {
      const std::string context = replay(call, params, options.params);
      Result r;
      if (!run_once(report, t, make, name, params, r, context)) continue;
      check_sums(report, r.total, params, context);
      check_device_reads(report, r, context);
      if (registered) check_inlined(report, t, name, params, r, context);
    }
  }
}

Report conformance(const std::string& name, const PolicyFactory& make, bool registered,
                   const ConformanceOptions& options) {
  if (options.params.has("frames")) {
    throw ConfigError(
        "ConformanceOptions::params sets 'frames': the suite chooses the memory size "
        "of each run; remove it");
  }
  Report report;
  report.subject = "policy '" + name + "'";
  // The checks of a run that every setting passes: counters add up in total and per process,
  // and memory never holds more pages than frames; false if the run failed.
  const auto check_run = [&](const Trace& t, const Params& params, std::int64_t frames,
                             const std::string& context, Result& r) {
    if (!run_once(report, t, make, name, params, r, context)) return false;
    check_sums(report, r.total, params, context);
    Counters sum;
    for (const auto& c : r.per_proc) {
      check_sums(report, c, params, context);
      sum += c;
    }
    ++report.checks;
    if (sum != r.total) report.fail("per-process counters do not sum to the total" + context);
    check_device_reads(report, r, context);
    if (frees_on_exit(params)) return true;  // the exit checks count what exits free
    ++report.checks;
    if (r.total.faults + r.total.readahead_pages - r.total.evictions > static_cast<std::uint64_t>(frames)) {
      report.fail("more pages resident than frames: " + std::to_string(r.total.faults) +
                  " faults and " + std::to_string(r.total.readahead_pages) +
                  " readahead pages but only " + std::to_string(r.total.evictions) +
                  " evictions" + context);
    }
    return true;
  };
  for (std::uint64_t seed = 1;
       seed <= options.traces && report.failures.size() < Report::kMaxFailures; ++seed) {
    const ConformanceCase random_case = conformance_case(seed);
    const Trace& t = random_case.trace;
    const std::int64_t frames = std::max(random_case.frames, least_frames(options.params));
    Params params = with(options.params, "frames", frames);
    if (!params.has("schedule") && prescient(make, params)) {
      params = with(params, "schedule", std::string("static"));
    }
    const std::string context = where(seed, params, options.params);
    Result r;
    if (!check_run(t, params, frames, context, r)) continue;
    Result again;
    bool deterministic = false;
    if (run_once(report, t, make, name, params, again, context)) {
      ++report.checks;
      deterministic = again.total == r.total;
      if (!deterministic) {
        report.fail("not deterministic: a fresh instance with the same parameters gave " +
                    differences(again.total, r.total) + context);
      }
    }
    // One instance run twice: reset() must forget the first run (a policy that is not
    // deterministic differs anyway).
    Result second;
    if (deterministic && run_instance(report, t, make, name, params, second, context, 2)) {
      ++report.checks;
      if (second.total != r.total) {
        report.fail(
            "reset() keeps state of the previous run: the second run of one instance gave " +
            differences(second.total, r.total) + " of a fresh instance" + context);
      }
    }
    // MIN bounds textbook demand paging in one order: no readahead, static order for both.
    const Params textbook =
        with(with(params, "page_cluster", std::int64_t{0}), "schedule", std::string("static"));
    Result demand;
    if (run_once(report, t, make, name, textbook, demand, where(seed, textbook, options.params))) {
      ++report.checks;
      const std::uint64_t opt =
          simulate(t, "belady",
                   with(with(with(Params{}, "frames", frames), "page_cluster", std::int64_t{0}),
                        "schedule", std::string("static")))
              .total.faults;
      if (opt > demand.total.faults) {
        report.fail("fewer faults (" + std::to_string(demand.total.faults) +
                    ") than Belady's MIN (" + std::to_string(opt) +
                    "), impossible for demand paging" + context);
      }
    }
    if (registered) check_inlined(report, t, name, params, r, context);
    if (frames >= 4) {
      Params batch = with(with(params, "low_watermark", std::int64_t{1}), "high_watermark", std::int64_t{3});
      Result b;
      const std::string batch_context = where(seed, batch, options.params);
      if (run_once(report, t, make, name, batch, b, batch_context))
        check_sums(report, b.total, batch, batch_context);
    }
    // A setting more: its run checked, and its inlined replay against the virtual one.
    const auto check_setting = [&](const Params& setting) {
      const std::string setting_context = where(seed, setting, options.params);
      Result s;
      if (check_run(t, setting, frames, setting_context, s) && registered) {
        check_inlined(report, t, name, setting, s, setting_context);
      }
    };
    // A swap area the trace fills more than half: swap-ins free their slots (vm_swap_full).
    check_setting(with(params, "swap_slots", static_cast<std::int64_t>(t.num_pages())));
    // Writes that free slots: at any write (hits too), or at a swap-in by a write.
    check_setting(
        with(params, "free_slot_on_swapin", std::string(seed % 2 == 0 ? "write" : "write_fault")));
    // A queued device: reads join the reads of their page still queued or running, and wait
    // behind its writes.
    check_setting(with(params, "device", std::string(seed % 2 == 0 ? "hdd-2002" : "nvme")));
    // File readahead, on the traces with file pages.
    if (t.has_file_pages()) check_setting(with(params, "read_ahead_kb", kFileReadaheadKb));
  }
  check_exits(report, name, make, registered, options);
  return report;
}

std::string pad(const std::string& s, std::size_t width) {
  return s.size() >= width ? s : std::string(width - s.size(), ' ') + s;
}

}  // namespace

std::string Report::text() const {
  std::ostringstream out;
  out << subject << ": " << checks << " checks, ";
  if (failures.empty()) {
    out << "all passed";
  } else {
    out << failures.size() << (failures.size() == kMaxFailures ? "+" : "") << " failed:";
    for (const auto& f : failures) out << "\n  - " << f;
  }
  return out.str();
}

void Report::fail(std::string what) {
  if (failures.size() < kMaxFailures) failures.push_back(std::move(what));
}

namespace {

// One access of process `pid` for random_trace and staggered_trace: a page skewed towards low
// numbers, a write with probability 0.3.
void add_random_access(TraceBuilder& b, Rng& rng, std::uint64_t pid, std::uint64_t pages, bool files) {
  const std::uint64_t r = rng.below(pages);
  const std::uint64_t vpn = rng.below(2) ? r : r / 2;
  // Odd pages of even pids are file-backed: a page keeps one kind.
  const bool file = files && pid % 2 == 0 && vpn % 2 == 1;
  b.add(pid, vpn, rng.uniform() < 0.3, file ? PageKind::kFile : PageKind::kAnon);
}

}  // namespace

Trace random_trace(std::uint64_t seed, std::size_t length, std::uint64_t pages, std::uint64_t procs,
                   bool files) {
  Rng rng(seed);
  TraceBuilder b(4096, "random_trace(" + std::to_string(seed) + ")");
  for (std::size_t i = 0; i < length; ++i) add_random_access(b, rng, 1 + rng.below(procs), pages, files);
  return std::move(b).build();
}

ConformanceCase conformance_case(std::uint64_t seed) {
  return {random_trace(seed, 50 + seed * 3, 4 + seed % 20, 1 + seed % 4, seed % 3 == 0),
          static_cast<std::int64_t>(1 + seed % 9)};
}

Trace exit_then_fill(std::uint32_t frames) {
  TraceBuilder b(4096, "exit_then_fill(" + std::to_string(frames) + ")");
  for (std::uint64_t p = 0; p < frames + 5; ++p) b.add(1, p, true);
  for (std::uint64_t p = 0; p < frames; ++p) b.add(2, p, true);
  return std::move(b).build();
}

Trace staggered_trace(std::uint64_t seed, std::size_t length, std::uint64_t pages,
                      std::uint64_t procs, bool files) {
  Rng rng(seed);
  TraceBuilder b(4096, "staggered_trace(" + std::to_string(seed) + ")");
  const std::size_t half = std::max<std::size_t>(length / 2, 1);
  for (std::size_t i = 0; i < (procs + 1) * half; ++i) {
    // Process k runs in [k * half, (k + 2) * half): at i, processes j - 1 and j (j = i / half),
    // those that exist.
    const std::uint64_t j = i / half;
    const std::uint64_t lo = j == 0 ? 0 : j - 1;
    const std::uint64_t hi = std::min<std::uint64_t>(j, procs - 1);
    add_random_access(b, rng, 1 + lo + rng.below(hi - lo + 1), pages, files);
  }
  return std::move(b).build();
}

Params textbook(Params params) {
  if (!params.has("page_cluster")) params.set("page_cluster", std::int64_t{0});
  if (!params.has("schedule")) params.set("schedule", std::string("static"));
  return params;
}

Trace hog_and_interactive(std::uint32_t bursts, std::uint32_t interactive_pages,
                          std::uint32_t hog_pages, std::uint32_t gap) {
  TraceBuilder b(4096, "hog_and_interactive");
  std::uint64_t hog = 0;
  for (std::uint32_t burst = 0; burst < bursts; ++burst) {
    for (std::uint32_t p = 0; p < interactive_pages; ++p) b.add(2, p, false, PageKind::kFile);
    for (std::uint32_t k = 0; k < gap; ++k, ++hog) b.add(1, hog % hog_pages, true);
  }
  return std::move(b).build();
}

Report check_conformance(const std::string& name, const PolicyFactory& make,
                         const ConformanceOptions& options) {
  return conformance(name, make, false, options);
}

Report check_conformance(const std::string& registered_name, const ConformanceOptions& options) {
  const PolicyInfo& info = Registry::instance().get(registered_name);
  return conformance(registered_name, info.make, true, options);
}

std::uint64_t counter(const Counters& c, const std::string& name) {
  std::uint64_t value = 0;
  bool found = false;
  std::string all;
  c.for_each([&](const char* n, std::uint64_t v) {
    if (name == n) {
      value = v;
      found = true;
    }
    all += (all.empty() ? "" : ", ") + std::string(n);
  });
  if (!found) throw ConfigError("unknown counter '" + name + "' (counters: " + all + ")");
  return value;
}

std::vector<KnownAnswer> known_answers() {
  const auto pages = [](std::initializer_list<std::uint64_t> list, const char* source) {
    TraceBuilder b(4096, source);
    for (auto p : list) b.add(1, p, false);
    return std::move(b).build();
  };
  // Every count is textbook demand paging in trace order (the defaults read ahead).
  std::vector<KnownAnswer> out;
  out.push_back(
      {"belady-anomaly-3",
       "1 2 3 4 1 2 5 1 2 3 4 5 at 3 frames, traced by hand in tests/cpp/test_hand_traced.cpp",
       pages({1, 2, 3, 4, 1, 2, 5, 1, 2, 3, 4, 5}, "belady-anomaly"),
       3,
       {{"fifo", {{"faults", 9}}},
        {"lru", {{"faults", 10}}},
        {"belady", {{"faults", 7}}},
        {"clock", {{"faults", 9}}},
        {"lfu", {{"faults", 10}}},
        {"gclock", {{"faults", 9}}},
        {"two_handed_clock", {{"faults", 10}}}},
       textbook()});
  // GCLOCK (cap 5) at 3 frames: 4 passes 1 2 3 (1 -> 0) and takes 1; 1 takes 2, 2 takes 3, 5
  // passes 4 1 2 and takes 4; 1 2 hit (count 1); 3 passes 1 2 5 and takes 1, 4 takes 2: 9
  // faults, as clock (no count passes 1 here). At 4 frames 1 2 hit (count 2); 5 passes 1 2
  // (2 -> 1) 3 4 (1 -> 0) 1 2 (1 -> 0) and takes 3, 1 2 hit, 3 takes 4, 4 passes 1 2 5 3 and
  // takes 1, 5 hits: 7 faults.
  // Two-handed clock (handspread 1 at 3 frames, 2 at 4; F = front hand, B = back hand): at 3
  // frames 4: F clears 2, B keeps 1, F clears 3, B frees 2; 1 hits; 2: F clears 1, B frees 3;
  // 5: F clears 4, B frees 1; 1: F clears 2, B frees 4; 2 hits; 3: F clears 5, B keeps 2, F
  // clears 1, B frees 5; 4: F clears 2, B frees 1; 5: F clears 3, B frees 2: 10 faults. At 4
  // frames 1 2 hit; 5: F clears 3, B keeps 1, F clears 4, B keeps 2, F clears 1, B frees 3;
  // 1 2 hit; 3: F clears 2, B frees 4; 4: F clears 5, B keeps 1, F clears 3, B frees 2; 5
  // hits: 7 faults.
  // LFU (ties to LRU; a count starts over at each fault): at 3 frames every page has count 1
  // until 1 and 2 hit at #7, #8, so it evicts as LRU does until then: 1 2 3 4* 1* 2* 5*
  // (evicting 1 2 3 4), 1 2 hit, 3* evicts 5, 4* evicts 3, 5* evicts 4: 10 faults. At 4
  // frames: 1 2 hit at #4 #5 (count 2), 5* evicts 3 (count 1, older than 4), 1 2 hit, 3*
  // evicts 4, 4* evicts 5, 5* evicts 3: 8 faults.
  out.push_back({"belady-anomaly-4",
                 "the same string at 4 frames: FIFO faults more with more memory",
                 pages({1, 2, 3, 4, 1, 2, 5, 1, 2, 3, 4, 5}, "belady-anomaly"),
                 4,
                 {{"fifo", {{"faults", 10}}},
                  {"lru", {{"faults", 8}}},
                  {"belady", {{"faults", 6}}},
                  {"clock", {{"faults", 10}}},
                  {"lfu", {{"faults", 8}}},
                  {"gclock", {{"faults", 7}}},
                  {"two_handed_clock", {{"faults", 7}}}},
                 textbook()});
  // Loop of 4 pages, 3 times, 3 frames. LRU/FIFO/CLOCK always evict the page needed next: 12
  // faults. MIN: 1* 2* 3* 4* (evicts 3: next uses 1@4 2@5 3@6) 1 2 3* (evicts 2: 4@7 1@8 2@9)
  // 4 1 2* (evicts 1, never used again) 3 4 -> 6 faults. LFU: every access faults, so every
  // count is 1 and it evicts as LRU: 12; so does GCLOCK, as CLOCK. The two-handed clock
  // (handspread 1) frees the page behind the one its front hand cleared: 4* frees 2 (1 hits),
  // 2* frees 3, 3* frees 1 (4 hits), 1* frees 2, 2* frees 3, 3* frees 4, 4* frees 1: 10.
  out.push_back({"loop-larger-than-memory",
                 "1 2 3 4 x3 at 3 frames, traced by hand",
                 pages({1, 2, 3, 4, 1, 2, 3, 4, 1, 2, 3, 4}, "loop"),
                 3,
                 {{"fifo", {{"faults", 12}}},
                  {"lru", {{"faults", 12}}},
                  {"clock", {{"faults", 12}}},
                  {"belady", {{"faults", 6}}},
                  {"lfu", {{"faults", 12}}},
                  {"gclock", {{"faults", 12}}},
                  {"two_handed_clock", {{"faults", 10}}}},
                 textbook()});
  // Hot set 1 2 3 (twice), a one-time scan 10..15, the hot set again; 4 frames. LRU and FIFO:
  // the scan pushes 1 2 3 out (11, 12, 13 evict them), so the hot set faults again: 3 + 6 + 3.
  // CLOCK: every page is referenced when the hand comes, so it behaves as FIFO: 12. MIN
  // evicts the scan pages (never used again) and keeps the hot set: 3 + 6 = 9. So does LFU:
  // the hot pages have count 2, each scan page 1 (11 evicts 10, 12 evicts 11, ...): 9.
  // GCLOCK: 11 passes 1 2 3 (2 -> 1) 10 (1 -> 0) 1 2 3 (1 -> 0) and takes 10; 12 13 14 then
  // take 1 2 3: 12. The two-handed clock (handspread 2): 11 frees 3, 12 frees 10, 13 14 free 1
  // 2, and the hot set faults again: 12.
  out.push_back({"hot-set-plus-scan",
                 "hot 1 2 3 x2, scan 10..15 once, hot again; 4 frames; by hand",
                 pages({1, 2, 3, 1, 2, 3, 10, 11, 12, 13, 14, 15, 1, 2, 3}, "hot-set-plus-scan"),
                 4,
                 {{"fifo", {{"faults", 12}}},
                  {"lru", {{"faults", 12}}},
                  {"clock", {{"faults", 12}}},
                  {"belady", {{"faults", 9}}},
                  {"lfu", {{"faults", 9}}},
                  {"gclock", {{"faults", 12}}},
                  {"two_handed_clock", {{"faults", 12}}}},
                 textbook()});
  // W1 R2 R1 R2 at 1 frame: 1 is written, evicted dirty (swap-out), swapped in, evicted clean
  // with its swap copy kept (no write): 1 swap-out, 1 swap-in for any policy. With
  // free_slot_on_swapin the clean eviction writes again: the count needs it off.
  TraceBuilder w(4096, "write-evict-swapin");
  w.add(1, 1, true);
  w.add(1, 2, false);
  w.add(1, 1, false);
  w.add(1, 2, false);
  out.push_back({"write-then-evict",
                 "W1 R2 R1 R2 at 1 frame: the swap cache keeps 1's slot",
                 std::move(w).build(),
                 1,
                 {{"fifo", {{"swap_outs", 1}, {"swap_ins", 1}, {"faults", 4}}},
                  {"lru", {{"swap_outs", 1}, {"swap_ins", 1}, {"faults", 4}}},
                  {"belady", {{"swap_outs", 1}, {"swap_ins", 1}, {"faults", 4}}}},
                 textbook({{"free_slot_on_swapin", false}})});
  // The hog writes 512 pages in a cycle, the interactive program reads its 32 file pages, 300
  // hog accesses apart; 256 frames; LRU. A hog page comes back after 511 other hog pages: it
  // always faults (6000 faults, the first 512 minor). After a wake-up the LRU order is: 224
  // hog pages, then the 32 interactive pages; the next 300 hog faults evict those 224, then
  // all 32 interactive pages. So every wake-up faults 32 times on file pages: 640 file reads.
  // faults 6640 = 512 minor + 6128 major (5488 swap-ins + 640 file reads). Evictions: 6640 -
  // 256 resident at the end = 6384; 640 of them clean interactive pages (the last wake-up's
  // too: the final 300 hog accesses evict them); every hog eviction is dirty: 5744 swap-outs.
  // Readahead off: the count is demand paging.
  out.push_back({"hog-and-interactive",
                 "hog_and_interactive() at 256 frames, LRU; counted by hand in the comment",
                 hog_and_interactive(),
                 256,
                 {{"lru",
                   {{"faults", 6640},
                    {"minor_faults", 512},
                    {"file_reads", 640},
                    {"swap_ins", 5488},
                    {"swap_outs", 5744}}}},
                 textbook()});
  // qsbench on 65536 ints (64 pages, 2608 page accesses, seed 1) at 42 frames (array / 1.5).
  // Too long to trace by hand: the counts come from the pure-Python LRU and CLOCK written
  // from the textbook in tests/python/test_demo.py, and tests/python/test_testing_kit.py
  // recomputes them with those on this trace.
  QsbenchOptions q;
  q.elements = 65536;
  q.seed = 1;
  out.push_back(
      {"small-qsbench",
       "qsbench of 65536 ints at 42 frames; counts from independent pure-Python LRU and CLOCK",
       generate_qsbench(q),
       42,
       {{"lru", {{"faults", 210}, {"major_faults", 146}, {"swap_outs", 168}}},
        {"clock", {{"faults", 222}, {"major_faults", 158}, {"swap_outs", 180}}}},
       textbook()});
  return out;
}

Report check_known_answers(const std::string& policy) {
  const std::vector<KnownAnswer> answers = known_answers();
  if (!policy.empty()) {
    Registry::instance().get(policy);  // an unknown name: "did you mean"
    std::vector<std::string> covered;
    for (const KnownAnswer& k : answers) {
      for (const auto& entry : k.expected) covered.push_back(entry.first);
    }
    std::sort(covered.begin(), covered.end());
    covered.erase(std::unique(covered.begin(), covered.end()), covered.end());
    if (std::find(covered.begin(), covered.end(), policy) == covered.end()) {
      std::string list;
      for (const auto& c : covered) list += (list.empty() ? "" : ", ") + c;
      throw ConfigError("no known answers name policy '" + policy + "': they cover " + list +
                        " (write your own with expect_at_most or a hand-traced test)");
    }
  }
  Report report;
  report.subject = policy.empty() ? "known answers" : "known answers for '" + policy + "'";
  for (const KnownAnswer& k : answers) {
    for (const auto& [name, counters] : k.expected) {
      if (!policy.empty() && name != policy) continue;
      const Counters got = simulate(k.trace, name, with(k.params, "frames", k.frames)).total;
      for (const auto& [field, want] : counters) {
        ++report.checks;
        const std::uint64_t value = counter(got, field);
        if (value != want) {
          report.fail(k.name + ": " + name + " " + field + " = " + std::to_string(value) +
                      ", expected " + std::to_string(want) + " (" + k.why + ")");
        }
      }
    }
  }
  return report;
}

std::string comparison_table(const Trace& trace, std::int64_t frames,
                             const std::vector<std::string>& policies,
                             const std::vector<std::string>& metrics, const Params& params) {
  std::vector<std::string> columns = metrics;
  if (columns.empty()) {
    Counters::for_each_field([&](const char* n, auto) { columns.emplace_back(n); });
  }
  std::size_t name_width = 6;
  for (const auto& p : policies) name_width = std::max(name_width, p.size());
  std::ostringstream out;
  out << pad("policy", name_width);
  for (const auto& c : columns) out << "  " << pad(c, std::max<std::size_t>(c.size(), 10));
  out << "\n";
  const Params ordered = same_order(params, policies);
  for (const auto& p : policies) {
    const Counters c = simulate(trace, p, with(ordered, "frames", frames)).total;
    out << pad(p, name_width);
    for (const auto& col : columns) {
      out << "  " << pad(std::to_string(counter(c, col)), std::max<std::size_t>(col.size(), 10));
    }
    out << "\n";
  }
  return out.str();
}

Report expect_at_most(const Trace& trace, std::int64_t frames, const std::string& policy,
                      const std::string& baseline, const std::string& metric, double max_ratio,
                      const Params& params) {
  Report report;
  std::ostringstream subject;
  subject << policy << "." << metric << " <= " << max_ratio << " x " << baseline << "." << metric
          << " on " << (trace.source().empty() ? "trace" : trace.source()) << " at " << frames
          << " frames";
  report.subject = subject.str();
  ++report.checks;
  std::vector<std::string> rows = {policy, baseline};
  if (policy != "belady" && baseline != "belady") rows.emplace_back("belady");
  const Params ordered = same_order(params, rows);
  const auto value = [&](const std::string& p) {
    return counter(simulate(trace, p, with(ordered, "frames", frames)).total, metric);
  };
  const double mine = static_cast<double>(value(policy));
  const double base = static_cast<double>(value(baseline));
  if (mine > max_ratio * base) {
    std::vector<std::string> columns = {"faults", "major_faults", "swap_ins", "swap_outs"};
    if (std::find(columns.begin(), columns.end(), metric) == columns.end()) columns.push_back(metric);
    report.fail("the claim does not hold:\n" + comparison_table(trace, frames, rows, columns, ordered));
  }
  return report;
}

}  // namespace pagesim::testing
