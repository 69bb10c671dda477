// Virtual time: several processes, round-robin scheduling, ticks on the virtual clock, the
// vmstat series, and why read_priority is slower than fifo on a disk.
#include <doctest/doctest.h>

#include <algorithm>
#include <cmath>
#include <deque>
#include <utility>

#include "helpers.hpp"
#include "pagesim/generators.hpp"
#include "pagesim/rng.hpp"
#include "pagesim/timing.hpp"
#include "random_traces.hpp"

namespace pagesim::test {
namespace {

// Process A (pid 1) reads a file page (a major fault with a read), then 2 anonymous pages;
// process B (pid 2) touches 15 anonymous pages. Interleaved A B A B A B B B ... in the trace.
// A's accesses and B's first two: A100 B0 A1 B1 A2.
void add_a_and_start_b(TraceBuilder& b) {
  b.add(1, 100, false, PageKind::kFile);
  b.add(2, 0, false);
  b.add(1, 1, false);
  b.add(2, 1, false);
  b.add(1, 2, false);
}

Trace two_procs() {
  TraceBuilder b;
  add_a_and_start_b(b);
  for (std::uint64_t v = 2; v < 15; ++v) b.add(2, v, false);
  return std::move(b).build();
}

Params two_proc_params() {
  // A read costs 2 us + 4096 B / 4096 MB/s = 2000 + 1000 ns = 3000 ns.
  return Params{{"frames", std::int64_t{100}},
                {"device", std::string("nvme")},
                {"device_read_us", 2.0},
                {"device_transfer_mb_s", 4096.0},
                {"cpu_ns", std::int64_t{100}},
                {"quantum_ns", std::int64_t{1000}}};
}

TEST_CASE("two processes: one blocks on a read, the other runs") {
  // Round-robin, quantum 1000 ns = 10 accesses:
  //   t=0    A runs: its first access at 100 faults on the file page; read 100 -> 3100.
  //   t=100  B runs 10 accesses (200 .. 1100), the quantum ends at 1100.
  //   t=1100 A still blocked; B runs its last 5 (1200 .. 1600) and ends at 1600.
  //   t=1600 nothing runnable: the CPU idles until A's read completes at 3100.
  //   t=3100 A runs its last 2 accesses (3200, 3300) and ends.
  // Elapsed 3300: A user 300, IO wait 3000; B user 1500, IO wait 0, ends at 1600.
  const Trace t = two_procs();
  const Result r = simulate(t, "lru", two_proc_params());
  CHECK(r.schedule == "round_robin");
  CHECK(r.time.elapsed_ns == 3300);
  REQUIRE(r.per_proc_time.size() == 2);
  CHECK(r.per_proc_time[0].elapsed_ns == 3300);
  CHECK(r.per_proc_time[0].user_ns == 300);
  CHECK(r.per_proc_time[0].iowait_ns == 3000);
  CHECK(r.per_proc_time[1].elapsed_ns == 1600);
  CHECK(r.per_proc_time[1].user_ns == 1500);
  CHECK(r.per_proc_time[1].iowait_ns == 0);
  CHECK(r.total.major_faults == 1);
  CHECK(r.total.file_reads == 1);

  // Static (trace) order: everything waits for the read: A1 at 100 -> 3100, then the 17
  // other accesses at 3200 .. 4800. B's last access is the last one.
  Params p = two_proc_params();
  p.set("schedule", std::string("static"));
  const Result s = simulate(t, "lru", p);
  CHECK(s.schedule == "static");
  CHECK(s.time.elapsed_ns == 4800);
  CHECK(s.per_proc_time[0].elapsed_ns == 3100 + 4 * 100);  // A's last access is the 5th
  CHECK(s.per_proc_time[0].iowait_ns == 3000);
  CHECK(s.per_proc_time[1].elapsed_ns == 4800);
}

// Process 1 writes a0-a3, pushes them to swap slots 0-3 with reads of a4-a8 and faults on a0,
// reading a1-a3 ahead.
void swap_out_and_read_ahead(TraceBuilder& b) {
  for (std::uint64_t v = 0; v < 4; ++v) b.add(1, v, true);
  for (std::uint64_t v = 4; v < 9; ++v) b.add(1, v, false);
  b.add(1, 0, false);
}

TEST_CASE("round robin: a hit on a page still being read ahead blocks, the other process runs") {
  // A (pid 1): swap_out_and_read_ahead, then uses a3 and a0; B (pid 2) reads b0 100 times. In
  // the trace B starts before A ends: both run from the start. LRU, windows_a_request_a_page,
  // quantum 1000 ns = 10 accesses.
  //   t=0     A runs. W a0-a3, R a4 (100-500); R a5-a8 (600-900) evict a0-a3 -> slots 0-3,
  //           writes [0] 600-1600, [1] 1600-2600, [2] 2600-3600, [3] 3600-4600. R a0 (1000):
  //           window [0, 7) reads a1 a2 a3 ahead, up to free slot 4, evicts a4-a7 (clean);
  //           reads [0] 4600-7600 (A's), [1] 7600-10600, [2] 10600-13600, [3] 13600-16600.
  //           A blocks.
  //   t=1000  B runs: R b0 (1100) evicts a8 (clean), then hits; 7 quanta, 70 accesses, to 8000
  //           (A is ready from 7600, at the end of B's quantum).
  //   t=8000  A runs: R a3 (8100) is a hit on a page whose read [3] is still queued: A waits
  //           for it (the rest of A, R a0, would have ended at 8200 before the fix).
  //   t=8100  B runs its last 30 accesses (8200 .. 11100) and ends.
  //   t=11100 nothing runnable: the CPU idles until [3] completes at 16600.
  //   t=16600 A runs R a0 (16700), a hit, and ends.
  // Elapsed 16700 (before the fix 11200: B's end). A: user 12 * 100, IO wait (7600 - 1000) +
  // (16600 - 8100) = 6600 + 8500; B: start 1000, user 10000, no wait, ends at 11100. The CPU
  // idles 16600 - 11100 = 5500.
  TraceBuilder b;
  swap_out_and_read_ahead(b);
  b.add(2, 0, false);
  b.add(1, 3, false);
  b.add(1, 0, false);
  for (int k = 1; k < 100; ++k) b.add(2, 0, false);
  const Trace t = std::move(b).build();
  Params p = windows_a_request_a_page();
  p.set("quantum_ns", std::int64_t{1000});
  p.set("interval_ns", std::int64_t{1000});
  const Result r = simulate(t, "lru", p);
  REQUIRE(r.schedule == "round_robin");
  CHECK(r.time.elapsed_ns == 16700);
  REQUIRE(r.per_proc_time.size() == 2);
  const ProcTime& a = r.per_proc_time[0];
  const ProcTime& bt = r.per_proc_time[1];
  CHECK((a.start_ns == 0 && a.elapsed_ns == 16700 && a.user_ns == 1200));
  CHECK(a.iowait_ns == 6600 + 8500);
  CHECK((bt.start_ns == 1000 && bt.elapsed_ns == 11100 && bt.user_ns == 10000));
  CHECK(bt.iowait_ns == 0);
  CHECK(r.total.readahead_pages == 3);
  CHECK(r.total.readahead_used == 1);  // a3; a1 and a2 stay resident, unused
  CHECK(r.device_stats.reads == 4);
  CHECK(r.device_stats.writes == 4);
  // The CPU idled only while A waited for [3] after B ended: rows every 1000 ns.
  REQUIRE(r.vmstat);
  const Vmstat& vm = *r.vmstat;
  double idle = 0;
  for (Eigen::Index k = 0; k < vm.rows(); ++k) {
    idle +=
        vm.cpu_iowait(k) * static_cast<double>(vm.time_ns(k) - (k == 0 ? 0 : vm.time_ns(k - 1)));
  }
  CHECK(std::llround(idle) == 5500);

  // Static (trace) order: A's first 10 accesses to 1000, its wait to 7600; B's R b0 (7700);
  // A's R a3 (7800) waits for [3] (queued behind [1] and [2]) to 16600; A's R a0 (16700); B's
  // other 99 accesses to 26600.
  p.set("schedule", std::string("static"));
  const Result s = simulate(t, "lru", p);
  CHECK(s.time.elapsed_ns == 26600);
  CHECK(s.per_proc_time[0].elapsed_ns == 16700);
  CHECK(s.per_proc_time[0].iowait_ns == (7600 - 1000) + (16600 - 7800));
  CHECK(s.per_proc_time[1].iowait_ns == 0);
}

TEST_CASE("a page evicted while its read is queued or running joins that read when read again") {
  // One process, LRU, windows_a_request_a_page().
  //   W a0-a3, R a4 (100-500); R a5-a8 (600-900) evict a0-a3 -> slots 0-3, writes [0]
  //   600-1600, [1] 1600-2600, [2] 2600-3600, [3] 3600-4600.
  //   R a0 (1000): window [0, 7) reads a1 a2 a3 ahead, up to free slot 4, evicts a4-a7
  //   (clean); reads [0] 4600-7600 (waited for), [1] 7600-10600, [2] 10600-13600, [3]
  //   13600-16600. LRU, oldest first: a8 a1 a2 a3 a0.
  //   R a9-a12 (7700-8000), first touches, evict a8, a1 (its read running), a2 and a3 (their
  //   reads queued). LRU: a0 a9 a10 a11 a12.
  //   R a3 (8100): window [0, 7) reads a1 a2 ahead (a0 is resident, slot 4 free), evicts a0
  //   a9 a10 (clean). Each of a1 a2 a3 joins its read, running ([1]) or queued ([2], [3]):
  //   three read_joins, no new request; the fault waits for [3] until 16600. (Read again,
  //   they would have been new requests [1'] 16600-19600, [2'] 19600-22600, [3'] 22600-25600,
  //   the fault waiting until 25600.)
  //   R a2 (16700) and R a1 (16800): hits, their reads done at 13600 and 10600.
  // Elapsed 16800; IO wait (7600 - 1000) + (16600 - 8100).
  TraceBuilder b;
  swap_out_and_read_ahead(b);
  for (std::uint64_t v = 9; v < 13; ++v) b.add(1, v, false);
  b.add(1, 3, false);
  b.add(1, 2, false);
  b.add(1, 1, false);
  const Trace t = std::move(b).build();
  const Result r = simulate(t, "lru", windows_a_request_a_page());
  CHECK(r.time.elapsed_ns == 16800);
  CHECK(r.time.iowait_ns == (7600 - 1000) + (16600 - 8100));
  CHECK(r.device_stats.reads == 4);
  CHECK(r.device_stats.pages_read == 4);
  CHECK(r.device_stats.read_joins == 3);
  CHECK(r.device_stats.writes == 4);
  CHECK(r.total.readahead_pages == 5);   // a1 a2 a3, then a1 a2
  CHECK(r.total.readahead_used == 2);    // the second a2 and a1
  CHECK(r.total.readahead_wasted == 3);  // the first a1 a2 a3, evicted unused
}

TEST_CASE("a read of a slot goes after the queued write of that slot, whatever the scheduler") {
  // nvme as in windows_a_request_a_page (a read 3000 ns, a write 1000 ns, a request a page),
  // no readahead, 2 frames, LRU, cpu 100 ns.
  //   W1 W2 (100, 200)  resident {1 2}, dirty
  //   R3 (300)          evicts 1 -> slot 0: write [0] 300-1300
  //   R4 (400)          evicts 2 -> slot 1: write [1] queued
  //   R2 (500)          evicts 3 (clean); swap-in of slot 1: read [1] queued, the process
  //                     waits
  //   1300              the device is free: write [1] 1300-2300, then read [1] 2300-5300.
  // read_priority and deadline would pick the read (1300-4300), reading slot 1 before the
  // page is in it; the write goes first all the same.
  const Trace t = text("W 1\nW 2\nR 3\nR 4\nR 2\n");
  Params p = windows_a_request_a_page();
  p.set("frames", std::int64_t{2});
  p.set("page_cluster", std::int64_t{0});
  for (const char* scheduler : {"fifo", "elevator", "read_priority", "deadline"}) {
    CAPTURE(scheduler);
    p.set("io_scheduler", std::string(scheduler));
    const Result r = simulate(t, "lru", p);
    CHECK(r.total.swap_outs == 2);
    CHECK(r.total.swap_ins == 1);
    CHECK(r.device_stats.reads == 1);
    CHECK(r.device_stats.writes == 2);
    // fifo and C-LOOK (slot 1 at the head) pick the write themselves.
    const bool passes =
        std::string(scheduler) == "read_priority" || std::string(scheduler) == "deadline";
    CHECK(r.device_stats.reads_behind_writes == (passes ? 1 : 0));
    CHECK(r.time.elapsed_ns == 5300);
    CHECK(r.time.iowait_ns == 5300 - 500);
  }
}

TEST_CASE("round robin: a writer waiting for room in the queue sleeps, and the other runs") {
  // B (pid 2) reads page 100 20 times; A (pid 1) writes pages 0..7. Trace B100 A0 .. A7 and
  // B100 x 19: both run from the start, B first (first in the trace). Quantum 200 ns (two
  // accesses), cpu 100 ns, 4 frames, LRU. nvme with writes of 2 us + 4096 B / 4096 MB/s =
  // 3000 ns, one request queued at most (io_queue_depth 1), no merging, no readahead.
  //   B 100, 200 (fault, minor) | A W0 300, W1 400 | B 500, 600 | A W2 700; W3 800 evicts 0
  //   (last use 300; dirty): write #1, slot 0, 800 -> 3800 | B 900, 1000 | A W4 1100 evicts 1:
  //   write #2 queued (the one place); W5 1200 evicts 2: write #3 finds the queue full: A's
  //   fault completes and A sleeps.
  //   B runs alone: 1300 .. 2600, and ends.
  //   Idle to 3800: write #1 done, #2 starts (-> 6800) and #3 gets its place: A wakes.
  //   A W6 3900 evicts 3 (LRU of 100 at 2600, 3, 4, 5): write #4 waits; #3 starts at 6800, A
  //   wakes. W7 6900 evicts 4: write #5 waits; #4 starts at 9800: A wakes and ends, its last
  //   access done.
  // A: user 800, IO wait (3800 - 1200) + (6800 - 3900) + (9800 - 6900) = 8400, ends at 9800.
  // B: user 2000, no IO wait, ends at 2600. (Before, A kept the CPU while it waited for room:
  // B stood still until 3800.)
  TraceBuilder b;
  b.add(2, 100, false);
  for (std::uint64_t v = 0; v < 8; ++v) b.add(1, v, true);
  for (int k = 0; k < 19; ++k) b.add(2, 100, false);
  const Trace t = std::move(b).build();
  const Params p{{"frames", std::int64_t{4}},
                 {"device", std::string("nvme")},
                 {"device_write_us", 2.0},
                 {"device_transfer_mb_s", 4096.0},
                 {"io_queue_depth", std::int64_t{1}},
                 {"io_max_request_pages", std::int64_t{1}},
                 {"page_cluster", std::int64_t{0}},
                 {"cpu_ns", std::int64_t{100}},
                 {"quantum_ns", std::int64_t{200}}};
  const Result r = simulate(t, "lru", p);
  CHECK(r.schedule == "round_robin");
  REQUIRE(r.proc_pids == std::vector<std::uint64_t>{2, 1});
  const ProcTime& a = r.per_proc_time[1];
  const ProcTime& bt = r.per_proc_time[0];
  CHECK(bt.elapsed_ns == 2600);
  CHECK(bt.user_ns == 2000);
  CHECK(bt.iowait_ns == 0);
  CHECK(a.start_ns == 200);
  CHECK(a.elapsed_ns == 9800);
  CHECK(a.user_ns == 800);
  CHECK(a.iowait_ns == 8400);
  CHECK(r.time.elapsed_ns == 9800);
  CHECK(r.per_proc[1].swap_outs == 5);
  CHECK(r.device_stats.writes == 5);
  CHECK(r.device_stats.queue_full_waits == 3);  // writes #3, #4 and #5
}

// A (pid 1) and B (pid 2) as in two_procs, then C (pid 3), whose first access comes after A's
// last in the trace while B's accesses go on after it:
//   A100 B0 A1 B1 A2 | C0 B2 .. B14 C1 .. C4
// The trace starts C after A has ended: C waits for A. B overlaps both and waits for nobody.
Trace three_procs() {
  TraceBuilder b;
  add_a_and_start_b(b);
  b.add(3, 0, false);
  for (std::uint64_t v = 2; v < 15; ++v) b.add(2, v, false);
  for (std::uint64_t v = 1; v < 5; ++v) b.add(3, v, false);
  return std::move(b).build();
}

TEST_CASE("round robin: a process that the trace starts after another ended waits for it") {
  // Round-robin, quantum 1000 ns = 10 accesses; C is not admitted until A has ended:
  //   t=0    A runs: its first access at 100 faults on the file page; read 100 -> 3100.
  //   t=100  B runs 10 accesses (200 .. 1100), the quantum ends at 1100.
  //   t=1100 C not admitted, A blocked; B runs its last 5 (1200 .. 1600) and ends at 1600.
  //   t=1600 A blocked, C not admitted: the CPU idles until A's read completes at 3100.
  //   t=3100 A runs its last 2 accesses (3200, 3300) and ends: C is admitted.
  //   t=3300 C runs its 5 accesses (3400 .. 3800) and ends.
  // (Without admission C ran at 1100, its 5 accesses at 1200 .. 1600, while A waited.)
  const Trace t = three_procs();
  const Result r = simulate(t, "lru", two_proc_params());
  CHECK(r.schedule == "round_robin");
  CHECK(r.time.elapsed_ns == 3800);
  CHECK(r.time.start_ns == 0);
  REQUIRE(r.per_proc_time.size() == 3);
  const ProcTime& a = r.per_proc_time[0];
  const ProcTime& b = r.per_proc_time[1];
  const ProcTime& c = r.per_proc_time[2];
  CHECK((a.start_ns == 0 && a.elapsed_ns == 3300 && a.user_ns == 300 && a.iowait_ns == 3000));
  CHECK((b.start_ns == 100 && b.elapsed_ns == 1600 && b.user_ns == 1500 && b.iowait_ns == 0));
  CHECK((c.start_ns == 3300 && c.elapsed_ns == 3800 && c.user_ns == 500 && c.iowait_ns == 0));

  // Static (trace) order: A100 at 100 -> 3100, then the 22 other accesses at 3200 .. 5300.
  // Each process starts at the clock before its first access: A at 0, B (2nd access) at
  // 3100, C (6th) at 3500.
  Params p = two_proc_params();
  p.set("schedule", std::string("static"));
  const Result s = simulate(t, "lru", p);
  CHECK(s.time.elapsed_ns == 5300);
  CHECK(s.per_proc_time[0].start_ns == 0);
  CHECK(s.per_proc_time[1].start_ns == 3100);
  CHECK(s.per_proc_time[2].start_ns == 3500);
  CHECK(s.per_proc_time[2].elapsed_ns == 5300);
}

// The most of `spans` ([from, to) each) that overlap at one point.
std::size_t most_at_once(std::vector<std::pair<std::uint64_t, std::uint64_t>> spans) {
  // An end (-1) sorts before a start at the same point.
  std::vector<std::pair<std::uint64_t, int>> events;
  for (const auto& [from, to] : spans) {
    events.emplace_back(from, 1);
    events.emplace_back(to, -1);
  }
  std::sort(events.begin(), events.end());
  std::size_t now = 0, most = 0;
  for (const auto& e : events) {
    now = e.second > 0 ? now + 1 : now - 1;
    most = std::max(most, now);
  }
  return most;
}

TEST_CASE("round robin keeps make -j4 at most 4 jobs at a time") {
  // A small kbuild: 16 jobs, 4 at a time in the trace, plus pid 0 (the shared file pages),
  // under memory pressure so that jobs block on swap-ins and file reads and others run.
  KbuildOptions o;
  o.jobs = 16;
  o.job_accesses = 4000;
  o.shared_mib = 2;
  o.heap_mib = 2;
  o.quantum = 200;
  const Trace t = generate_kbuild(o);
  const std::vector<std::size_t> first = t.first_accesses(), last = t.last_accesses();
  std::vector<std::pair<std::uint64_t, std::uint64_t>> in_trace;
  for (ProcId q = 0; q < t.num_procs(); ++q) in_trace.emplace_back(first[q], last[q] + 1);
  CHECK(most_at_once(in_trace) == 5);  // pid 0 and 4 jobs
  for (const bool exits : {false, true}) {
    CAPTURE(exits);
    const Result r = simulate(t, "lru",
                              Params{{"frames", std::int64_t{600}},
                                     {"device", std::string("hdd-2002")},
                                     {"free_on_exit", exits},
                                     {"interval_ns", std::int64_t{0}}});
    REQUIRE(r.schedule == "round_robin");
    CHECK(r.total.major_faults > 0);
    std::vector<std::pair<std::uint64_t, std::uint64_t>> ran;
    for (const ProcTime& pt : r.per_proc_time) ran.emplace_back(pt.start_ns, pt.elapsed_ns);
    CHECK(most_at_once(ran) <= 5);
    // The rule itself: a process starts after every process that the trace ends before it.
    for (ProcId q = 0; q < t.num_procs(); ++q) {
      for (ProcId p = 0; p < t.num_procs(); ++p) {
        if (last[p] < first[q]) {
          CAPTURE(t.proc_pid(p));
          CAPTURE(t.proc_pid(q));
          CHECK(r.per_proc_time[q].start_ns >= r.per_proc_time[p].elapsed_ns);
        }
      }
    }
  }
}

TEST_CASE("an empty trace takes no time") {
  const Trace t = TraceBuilder().build();
  const Result r = simulate(t, "lru", Params{{"frames", std::int64_t{4}}, {"device", std::string("hdd-2002")}});
  CHECK(r.time.elapsed_ns == 0);
  CHECK(r.total.accesses == 0);
}

TEST_CASE("a prescient policy needs the static order") {
  const Trace t = two_procs();
  CHECK_THROWS_WITH_AS(simulate(t, "belady", two_proc_params()),
                       doctest::Contains("schedule='static'"), ConfigError);
  Params p = two_proc_params();
  p.set("schedule", std::string("static"));
  CHECK(simulate(t, "belady", p).total.faults == 18);
}

// Counts on_tick calls and their times.
class Ticker final : public Policy {
 public:
  PolicyTraits traits() const override {
    PolicyTraits t;
    t.tick_ns = 1000;
    return t;
  }
  void reset(std::size_t, std::size_t) override {}
  void on_fault(const Access& a, PageTableView) override { pages.push_back(a.page); }
  void select_victims(std::size_t, PageTableView, VictimList& out) override {
    out.push_back(pages.front());
    pages.erase(pages.begin());
  }
  void on_tick(Tick now, PageTableView) override { ticks.push_back(now); }
  std::vector<PageId> pages;
  std::vector<Tick> ticks;
};

TEST_CASE("on_tick follows the virtual clock, IO waits included") {
  // Single process, cpu 100: R1 at 100 is a file read (3000 ns) -> 3100; accesses 2..5 at
  // 3200 .. 3500. The clock passed 1000, 2000 and 3000 during the wait: one tick at the next
  // access (3200; at most one per access), the next tick due at 4000 is never reached.
  TraceBuilder b;
  b.add(1, 1, false, PageKind::kFile);
  for (std::uint64_t v = 2; v < 6; ++v) b.add(1, v, false);
  const Trace t = std::move(b).build();
  Ticker ticker;
  const Result r = simulate(t, ticker, two_proc_params(), "ticker");
  CHECK(r.time.elapsed_ns == 3500);
  CHECK(ticker.ticks == std::vector<Tick>{3200});
}

TEST_CASE("vmstat rows: counts per interval, state at the end of each") {
  // Same run as above with interval 1000: rows at 1000, 2000, 3000 (the wait) and a last
  // partial one at 3500. The fault at 100 falls in the first; accesses 2..5 in the last.
  TraceBuilder b;
  b.add(1, 1, false, PageKind::kFile);
  for (std::uint64_t v = 2; v < 6; ++v) b.add(1, v, false);
  const Trace t = std::move(b).build();
  Params p = two_proc_params();
  p.set("interval_ns", std::int64_t{1000});
  const Result r = simulate(t, "lru", p);
  REQUIRE(r.vmstat);
  const Vmstat& vm = *r.vmstat;
  REQUIRE(vm.rows() == 4);
  CHECK(vm.time_ns(0) == 1000);
  CHECK(vm.time_ns(3) == 3500);
  CHECK(vm.faults(0) == 1);
  CHECK(vm.major_faults(0) == 1);
  CHECK(vm.faults(1) == 0);
  CHECK(vm.faults(3) == 4);
  CHECK(vm.resident(0, 0) == 1);
  CHECK(vm.resident(3, 0) == 5);
  CHECK(vm.free_frames(3) == 95);
  // The read (100 .. 3100) keeps the device busy 900 of the first 1000 ns, all of the next
  // two intervals, 100 ns of the last 500.
  CHECK(vm.device_busy(0) == doctest::Approx(0.9));
  CHECK(vm.device_busy(1) == doctest::Approx(1.0));
  CHECK(vm.device_busy(3) == doctest::Approx(0.2));
  // All of it a read.
  CHECK(vm.device_read_busy == vm.device_busy);
  CHECK(vm.device_write_busy.isZero());
  Params off = p;
  off.set("interval_ns", std::int64_t{0});
  CHECK_FALSE(simulate(t, "lru", off).vmstat);
}

TEST_CASE("vmstat's CPU and IO wait columns: who ran, who waited, when the CPU idled") {
  // The two-process run above, rows every 1000 ns. A waits for its read over [100, 3100); B
  // runs [100, 1600); the CPU idles over [1600, 3100) (A waiting, B ended); A runs to 3300.
  //   row [0, 1000):    user A 0-100, B 100-1000     A waits 900
  //   row [1000, 2000): user B 1000-1600, idle 400   A waits all of it
  //   row [2000, 3000): idle                         A waits all of it
  //   row [3000, 3300): idle 100, user A 200         A waits 100
  // A's wait and the idle time are booked when they end, at 3100, into rows already taken.
  Params p = two_proc_params();
  p.set("interval_ns", std::int64_t{1000});
  const Result r = simulate(two_procs(), "lru", p);
  REQUIRE(r.vmstat);
  const Vmstat& vm = *r.vmstat;
  REQUIRE(vm.rows() == 4);
  CHECK(vm.time_ns(3) == 3300);
  const std::vector<double> user{1.0, 0.6, 0.0, 2.0 / 3}, idle{0.0, 0.4, 1.0, 1.0 / 3},
      waits_a{0.9, 1.0, 1.0, 1.0 / 3};
  for (Eigen::Index k = 0; k < 4; ++k) {
    CAPTURE(k);
    const auto u = static_cast<std::size_t>(k);
    CHECK(vm.cpu_user(k) == doctest::Approx(user[u]));
    CHECK(vm.cpu_iowait(k) == doctest::Approx(idle[u]));
    CHECK(vm.cpu_system(k) == 0);
    CHECK(vm.iowait(k, 0) == doctest::Approx(waits_a[u]));
    CHECK(vm.iowait(k, 1) == 0);
    CHECK(vm.swap_used(k) == 0);
  }
  CHECK(vm.file_reads.sum() == 1);
  CHECK(vm.file_reads == vm.major_faults);
  CHECK(vm.file_writes.isZero());

  // Trace order: everything waits for A's read, [100, 3100); the 17 other accesses run over
  // [3100, 4800). Rows end at 1000, 2000, 3000, 4000 and 4800.
  p.set("schedule", std::string("static"));
  const Result s = simulate(two_procs(), "lru", p);
  REQUIRE(s.vmstat);
  REQUIRE(s.vmstat->rows() == 5);
  const Eigen::VectorXd static_idle = (Eigen::VectorXd(5) << 0.9, 1.0, 1.0, 0.1, 0.0).finished();
  CHECK(s.vmstat->cpu_iowait.isApprox(static_idle));
  CHECK(s.vmstat->iowait.col(0).isApprox(static_idle));  // only A waits
  CHECK(s.vmstat->iowait.col(1).isZero());
  CHECK((s.vmstat->cpu_user + s.vmstat->cpu_iowait).isApproxToConstant(1.0));
}

TEST_CASE("vmstat's time columns add up to the run's times, on every device and schedule") {
  // Random traces of 3 processes with file pages, batch reclaim, readahead: every row's CPU
  // fractions sum to 1, and summed over the rows (fraction x the row's length) the columns
  // give the run's user, sys and IO wait, per process too; swap_used ends at the run's.
  for (std::uint64_t seed = 1; seed <= 6; ++seed) {
    const Trace t = random_trace(seed, 3000, 150, 3, true);
    for (const std::string device : {"hdd-2002", "nvme", "zram"}) {
      for (const std::string schedule : {"static", "round_robin"}) {
        CAPTURE(seed);
        CAPTURE(device);
        CAPTURE(schedule);
        const Params p{{"frames", std::int64_t{40}},
                       {"device", device},
                       {"schedule", schedule},
                       {"interval_ns", std::int64_t{300'000}},
                       {"cpu_ns", std::int64_t{1000}},
                       {"quantum_ns", std::int64_t{20'000}},
                       {"high_watermark", std::int64_t{8}},
                       {"low_watermark", std::int64_t{2}}};
        const Result r = simulate(t, "lru", p);
        REQUIRE(r.vmstat);
        const Vmstat& vm = *r.vmstat;
        REQUIRE(vm.rows() > 3);
        Eigen::VectorXd length(vm.rows());
        for (Eigen::Index k = 0; k < vm.rows(); ++k) {
          length[k] = static_cast<double>(vm.time_ns[k] - (k == 0 ? 0 : vm.time_ns[k - 1]));
        }
        CHECK((vm.cpu_user + vm.cpu_system + vm.cpu_iowait).isApproxToConstant(1.0));
        CHECK(vm.cpu_user.minCoeff() >= 0);
        CHECK(vm.cpu_iowait.minCoeff() >= 0);
        const auto total = [&](const Eigen::VectorXd& fraction) {
          return std::llround(fraction.dot(length));
        };
        CHECK(total(vm.cpu_user) == static_cast<long long>(r.time.user_ns));
        CHECK(total(vm.cpu_system) == static_cast<long long>(r.time.sys_ns));
        CHECK(vm.iowait.maxCoeff() <= 1 + 1e-12);
        for (Eigen::Index q = 0; q < vm.iowait.cols(); ++q) {
          CAPTURE(q);
          CHECK(total(vm.iowait.col(q)) ==
                static_cast<long long>(r.per_proc_time[static_cast<std::size_t>(q)].iowait_ns));
        }
        CHECK(vm.swap_used(vm.rows() - 1) == static_cast<std::int64_t>(r.swap_slots_used));
        CHECK(vm.file_reads.sum() == static_cast<std::int64_t>(r.total.file_reads));
        CHECK(vm.file_writes.sum() == static_cast<std::int64_t>(r.total.file_writes));
        if (device != "zram") CHECK(r.time.iowait_ns > 0);
      }
    }
  }
}

// FIFO that records its ticks. Run as its own type it has select_victim inlined, and a
// one-process run without a device takes the engine's plain replay loop, which keeps no clock
// between events; run as a Policy& it takes the general loop, which counts time per access.
class TickingFifo final : public Policy {
 public:
  struct Seen {  // a tick: its time and the resident pages then
    Tick now;
    std::size_t resident;
    bool operator==(const Seen& o) const { return now == o.now && resident == o.resident; }
  };
  explicit TickingFifo(Tick tick_ns) : tick_ns_(tick_ns) {}
  PolicyTraits traits() const override {
    PolicyTraits t;
    t.tick_ns = tick_ns_;
    return t;
  }
  void reset(std::size_t, std::size_t) override {}
  void on_fault(const Access& a, PageTableView) override { queue_.push_back(a.page); }
  static constexpr bool pagesim_select_victim_fast_path = true;  // see policy.hpp
  PageId select_victim(PageTableView) {
    const PageId v = queue_.front();
    queue_.pop_front();
    return v;
  }
  void select_victims(std::size_t want, PageTableView view, VictimList& out) override {
    while (out.size() < want && !queue_.empty()) out.push_back(select_victim(view));
  }
  void on_tick(Tick now, PageTableView view) override { ticks.push_back({now, view.resident_count()}); }
  std::vector<Seen> ticks;

 private:
  Tick tick_ns_;
  std::deque<PageId> queue_;
};

// Equal, NaN to NaN too (the fractions of a vmstat row of no length).
template <class M>
bool same_series(const M& a, const M& b) {
  const auto x = a.array();
  const auto y = b.array();
  return a.rows() == b.rows() && a.cols() == b.cols() && (x == y || (x != x && y != y)).all();
}

// Two runs of one trace, one through the plain loop and one through the general loop, agree
// on everything: counts, times, what the device did and every vmstat row.
void check_same_run(const Result& plain, const Result& general) {
  CHECK(plain.total == general.total);
  CHECK(plain.swap_slots_used == general.swap_slots_used);
  ProcTime::for_each_field([&](const char* field, Tick ProcTime::*m) {
    CAPTURE(field);
    CHECK(plain.time.*m == general.time.*m);
  });
  DeviceStats::for_each_field([&](const char* field, std::uint64_t DeviceStats::*m) {
    CAPTURE(field);
    CHECK(plain.device_stats.*m == general.device_stats.*m);
  });
  REQUIRE(static_cast<bool>(plain.vmstat) == static_cast<bool>(general.vmstat));
  if (!plain.vmstat) return;
  const Vmstat& a = *plain.vmstat;
  const Vmstat& b = *general.vmstat;
  REQUIRE(a.rows() == b.rows());
  Vmstat::for_each_series([&](const char* series, auto member) {
    CAPTURE(series);
    CHECK(same_series(a.*member, b.*member));
  });
}

TEST_CASE("the plain replay loop keeps time as the general loop: ticks, vmstat rows, elapsed") {
  // Events every few accesses, between accesses (1050 with cpu 100), several per access
  // (interval 250 with cpu 300), none (cpu 0: the clock never moves).
  const Trace t = random_trace(11, 3000, 120, 1, true);
  for (std::int64_t cpu : {0, 100, 300}) {
    for (std::int64_t interval : {0, 250, 1000, 1050}) {
      CAPTURE(cpu);
      CAPTURE(interval);
      const EngineConfig config = EngineConfig::from_params(
          Params{{"frames", std::int64_t{40}}, {"page_cluster", std::int64_t{0}},
                 {"cpu_ns", cpu}, {"interval_ns", interval}});
      TickingFifo inlined(700);
      TickingFifo virtual_calls(700);
      const Result plain = Engine(t, config, "ticking").run(inlined);
      const Result general = Engine(t, config, "ticking").run(static_cast<Policy&>(virtual_calls));
      check_same_run(plain, general);
      CHECK(plain.time.elapsed_ns == 3000 * static_cast<Tick>(cpu));
      // With cpu 100 a tick every 7th access: at 700, 1400, .. 299,600.
      if (cpu == 100) CHECK(inlined.ticks.size() == 428);
      CHECK(inlined.ticks == virtual_calls.ticks);
      REQUIRE(static_cast<bool>(plain.vmstat) == (interval != 0));
      if (interval != 0) {
        // One row at 0 when the clock stands (cpu 0), its fractions NaN.
        CHECK(plain.vmstat->rows() ==
              std::max<std::int64_t>((3000 * cpu + interval - 1) / interval, 1));
        if (cpu == 0) CHECK(std::isnan(plain.vmstat->cpu_user[0]));
      }
    }
  }
}

TEST_CASE("with a device, the plain replay loop reads, writes, waits and keeps time as the general loop") {
  // One process, 40 frames, an access costs 1 us. Each wait and each event must see the
  // resident pages of the moment:
  // - 10 file pages read: the process waits for each read while memory fills;
  // - 29 new pages, each read 200 times: memory fills to 39 pages over 5.8 ms, with vmstat
  //   rows and policy ticks (every 1 ms) but no wait;
  // - 201 new pages written: the first fills memory, the next 39 evict clean pages, the rest
  //   dirty pages, whose writes wait for room in the queue at depths 1 and 4;
  // - 4000 accesses at random over 300 pages, every 5th of them a file page, 30% writes.
  // A read takes ~3 us on zram, ~80 us on nvme, ~10 ms on hdd-2002.
  TraceBuilder b;
  for (std::uint64_t v = 2000; v < 2010; ++v) b.add(1, v, false, PageKind::kFile);
  for (std::uint64_t i = 0; i < 29 * 200; ++i) b.add(1, 3000 + i / 200, false);
  for (std::uint64_t v = 29; v < 230; ++v) b.add(1, v, true);
  Rng rng(5);
  for (int i = 0; i < 4000; ++i) {
    const std::uint64_t v = rng.below(300);
    if (v % 5 == 0) {
      b.add(1, 1000 + v, rng.uniform() < 0.3, PageKind::kFile);
    } else {
      b.add(1, v, rng.uniform() < 0.3);
    }
  }
  const Trace t = std::move(b).build();
  for (const std::string device : {"hdd-2002", "ssd-sata", "nvme", "zram"}) {
    for (const std::string scheduler : {"fifo", "elevator", "read_priority", "deadline"}) {
      for (std::int64_t depth : {1, 4, 128}) {
        for (std::int64_t interval : {0, 700'000, 3'000'000}) {
          CAPTURE(device);
          CAPTURE(scheduler);
          CAPTURE(depth);
          CAPTURE(interval);
          const EngineConfig config = EngineConfig::from_params(
              Params{{"frames", std::int64_t{40}}, {"page_cluster", std::int64_t{0}},
                     {"device", device}, {"io_scheduler", scheduler},
                     {"io_queue_depth", depth}, {"interval_ns", interval},
                     {"cpu_ns", std::int64_t{1000}}});
          TickingFifo inlined(1'000'000);
          TickingFifo virtual_calls(1'000'000);
          const Result plain = Engine(t, config, "ticking").run(inlined);
          const Result general = Engine(t, config, "ticking").run(static_cast<Policy&>(virtual_calls));
          check_same_run(plain, general);
          CHECK(inlined.ticks == virtual_calls.ticks);
          // The run did what the comparison is about.
          CHECK(plain.total.swap_ins > 0);
          CHECK(plain.total.file_reads > 0);
          CHECK(plain.total.swap_outs > 0);
          CHECK(plain.total.file_writes > 0);
          CHECK(plain.time.elapsed_ns > t.size() * config.cpu_ns);
          if (device != "zram" && depth == 1) CHECK(plain.device_stats.queue_full_waits > 0);
        }
      }
    }
  }
}

// Process A (pid 2) writes its 512 pages, then reads them at random; process B (pid 1)
// streams writes over 2048 new pages. 512 frames, batch reclaim of 32 pages (watermarks
// 8/40), LRU, hdd-2002, quantum 1 us. B's swap-outs are consecutive slots, written as long
// merged requests; A's reads are scattered.
Trace reader_and_streamer() {
  TraceBuilder b;
  Rng rng(5);
  for (std::uint64_t v = 0; v < 512; ++v) b.add(2, v, true);
  for (std::uint64_t k = 0; k < 2048; ++k) {
    b.add(1, k, true);
    b.add(2, rng.below(512), false);
  }
  return std::move(b).build();
}

TEST_CASE("read_priority is slower than fifo on a disk: reads break the write stream") {
  const Trace t = reader_and_streamer();
  const auto run_with = [&](const char* scheduler) {
    Params p{{"frames", std::int64_t{512}},         {"device", std::string("hdd-2002")},
             {"io_scheduler", std::string(scheduler)}, {"low_watermark", std::int64_t{8}},
             {"high_watermark", std::int64_t{40}},     {"quantum_ns", std::int64_t{1000}}};
    return simulate(t, "lru", p);
  };
  const Result fifo = run_with("fifo");
  const Result rp = run_with("read_priority");
  // The same paging in both...
  CHECK(rp.total.major_faults == fifo.total.major_faults);
  CHECK(rp.total.swap_outs == fifo.total.swap_outs);
  CHECK(rp.device_stats.pages_written == fifo.device_stats.pages_written);
  // ...but with reads served first, the head leaves the write stream for every read and
  // comes back: more seeks, longer ones, more busy time, a later end.
  CHECK(rp.device_stats.seeks > fifo.device_stats.seeks);
  CHECK(rp.device_stats.seek_distance > fifo.device_stats.seek_distance);
  CHECK(rp.device_stats.busy_ns > fifo.device_stats.busy_ns);
  CHECK(rp.time.elapsed_ns > fifo.time.elapsed_ns);
  // Nearly all the busy time it adds is the head's positioning: the transfers and command
  // overheads are the same pages in about as many requests.
  CHECK(rp.device_stats.seek_ns - fifo.device_stats.seek_ns >
        9 * (rp.device_stats.busy_ns - fifo.device_stats.busy_ns) / 10);
}

}  // namespace
}  // namespace pagesim::test
