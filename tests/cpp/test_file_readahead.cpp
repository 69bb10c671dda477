// File readahead (read_ahead_kb; Linux 2.6.20 mm/readahead.c, see the Engine comment), worked
// out by hand. With read_ahead_kb=128 and 4 KiB pages the largest window is 32 pages: a
// stream's first window is get_init_ra_size(1, 32) = 4 pages (the faulting one and 3 read
// ahead), then get_next_ra_size doubles it (4 is not below 32 / 16 = 2) up to 32: 8, 16, 32.
#include <doctest/doctest.h>

#include <deque>

#include "helpers.hpp"
#include "pagesim/error.hpp"

namespace pagesim::test {
namespace {

// Accesses `accesses` (dense page ids) with `access_kinds`, 'r' a read and 'w' a write (all
// reads when empty): page p is a file page where kinds[p] is 'f' and anonymous where it is
// 'a'; it belongs to process procs[p] - '0' (every page to process 0 when procs is empty),
// pid = process + 1; its vpn is vpns[p] (its id when vpns is empty).
Trace paged(const std::vector<PageId>& accesses, const std::string& kinds, std::string procs = "",
            std::uint32_t page_size = 4096, std::vector<std::uint64_t> vpns = {},
            const std::string& access_kinds = "") {
  if (procs.empty()) procs.assign(kinds.size(), '0');
  std::vector<ProcId> page_proc;
  std::vector<PageKind> kind;
  ProcId last = 0;
  for (std::size_t p = 0; p < kinds.size(); ++p) {
    page_proc.push_back(static_cast<ProcId>(procs[p] - '0'));
    last = std::max(last, page_proc.back());
    if (vpns.size() == p) vpns.push_back(p);
    kind.push_back(kinds[p] == 'f' ? PageKind::kFile : PageKind::kAnon);
  }
  std::vector<std::uint8_t> flags(accesses.size(), 0);
  for (std::size_t i = 0; i < access_kinds.size(); ++i) {
    flags[i] = access_kinds[i] == 'w' ? Trace::kWrite : 0;
  }
  std::vector<std::uint64_t> pids;
  for (ProcId q = 0; q <= last; ++q) pids.push_back(q + 1);
  return Trace::from_columns(std::vector<PageId>(accesses), std::move(flags), std::move(page_proc),
                             std::move(vpns), std::move(kind), std::move(pids), page_size, "paged");
}

std::vector<PageId> scan(PageId n) {
  std::vector<PageId> v;
  for (PageId p = 0; p < n; ++p) v.push_back(p);
  return v;
}

Params file_ra(std::int64_t frames, std::int64_t kb) {
  return Params{{"frames", frames}, {"read_ahead_kb", kb}, {"schedule", std::string("static")}};
}

// 64 frames, read_ahead_kb=128, cpu_ns 1000 and a disk of round figures: command overhead
// 1 ms, every seek 5 ms (seek = track-to-track), rotational latency 4 ms, 4.096 MB/s (4096 B:
// 1 ms a page); `scheduler`.
Params round_disk(const std::string& scheduler) {
  Params p = file_ra(64, 128);
  p.set("cpu_ns", std::int64_t{1000});
  p.set("device", std::string("hdd-2002"));
  p.set("device_overhead_ms", 1.0);
  p.set("device_seek_ms", 5.0);
  p.set("device_track_seek_ms", 5.0);
  p.set("device_rotation_ms", 4.0);
  p.set("device_transfer_mb_s", 4.096);
  p.set("io_scheduler", scheduler);
  return p;
}

TEST_CASE(
    "file readahead: a sequential scan reads windows of 4, 8, 16, 32 pages, the last cut at the "
    "end") {
  // 40 file pages read once in order, 64 frames.
  //  R0   first read of the stream: window [0, 4)  = 0 + readahead 1 2 3       next 4
  //  R1-3 hits on readahead pages (used)
  //  R4   the page after the window: window [4, 12) = 4 + readahead 5..11     next 12
  //  R12  window [12, 28) = 12 + readahead 13..27                             next 28
  //  R28  window [28, 60), cut at the trace's last page 39: 28 + readahead 29..39 (11)
  // 4 faults, each a file read; 3 + 7 + 15 + 11 = 36 readahead pages, all used.
  const Trace t = paged(scan(40), std::string(40, 'f'));
  for (const char* policy : {"lru", "fifo", "clock", "active_inactive", "belady"}) {
    CAPTURE(policy);
    const Counters c = simulate(t, policy, file_ra(64, 128)).total;
    CHECK(c.faults == 4);
    CHECK(c.major_faults == 4);
    CHECK(c.file_reads == 4);
    CHECK(c.hits == 36);
    CHECK(c.readahead_pages == 36);
    CHECK(c.readahead_used == 36);
    CHECK(c.readahead_wasted == 0);
    // Off: one fault per page.
    const Counters off = simulate(t, policy, file_ra(64, 0)).total;
    CHECK(off.faults == 40);
    CHECK(off.readahead_pages == 0);
  }
}

TEST_CASE(
    "file readahead: a random read turns it off, the next sequential fault starts again at 4") {
  // 30 file pages, 32 frames. (window: the pages read; next: the page after it)
  //  R0    first read: [0, 4), readahead 1 2 3                          next 4
  //  R1-3  hits
  //  R4    sequential: [4, 12), readahead 5..11                         next 12
  //  R20   not 12: random (ra_off), 20 read alone                      next 21, no window
  //  R12   not 21: random, 12 alone                                     next 13, no window
  //  R13   sequential after no window: [13, 17), readahead 14 15 16     next 17
  //  R17   sequential: 8 pages, [17, 25): readahead 18 19 21 22 23 24; 20 is resident
  //        (skipped, no IO) but counts towards the window                next 25
  //  R25   sequential: 16 pages, [25, 41) cut at 29: readahead 26..29
  // 7 faults; readahead 3 + 7 + 3 + 6 + 4 = 23 pages, of which 1 2 3 used.
  const Trace t = paged({0, 1, 2, 3, 4, 20, 12, 13, 17, 25}, std::string(30, 'f'));
  const Counters c = simulate(t, "lru", file_ra(32, 128)).total;
  CHECK(c.faults == 7);
  CHECK(c.file_reads == 7);
  CHECK(c.readahead_pages == 23);
  CHECK(c.readahead_used == 3);
  CHECK(c.readahead_wasted == 0);  // all still resident at the end
  CHECK(c.evictions == 0);
}

TEST_CASE("file readahead: a window stops at an anonymous page and at another process's page") {
  // Pages 0-2 file (process 0), 3 anonymous (process 0), 4-9 file (process 0), 10-15 file
  // (process 1). Trace order, 32 frames.
  //  R0   process 0's first read: [0, 4): readahead 1 2, stopped by anonymous page 3   next 4
  //  R3   anonymous, first touch: minor fault, no readahead (the stream is unchanged)
  //  R4   sequential: [4, 12): readahead 5..9, stopped by page 10 (process 1's file)
  //  R10  process 1's first read: its own stream, [10, 14): readahead 11 12 13
  //  R1   hit (process 0)
  // 4 faults (3 major file reads, 1 minor); readahead 2 + 5 + 3 = 10 pages, 1 used.
  const Trace t = paged({0, 3, 4, 10, 1}, "fffaffffffffffff", "0000000000111111");
  const Result r = simulate(t, "lru", file_ra(32, 128));
  CHECK(r.total.faults == 4);
  CHECK(r.total.minor_faults == 1);
  CHECK(r.total.file_reads == 3);
  CHECK(r.total.readahead_pages == 10);
  CHECK(r.total.readahead_used == 1);
  // Each readahead page counts under its process.
  CHECK(r.per_proc[0].readahead_pages == 7);
  CHECK(r.per_proc[1].readahead_pages == 3);
}

TEST_CASE("file readahead: windows follow vpns, the file offsets, not the order of first touch") {
  // 8 file pages read once each in page id order (first touch), but at vpns 7, 6, ..., 0: a
  // file read backwards. 32 frames.
  //  vpn 7  the first read: window [7, 11), stopped at once: vpn 8 is not a file page    next 11
  //  vpn 6  not 11: random, read alone                                                  next 7
  //  vpn 5 .. 0  each not the vpn after the last read: random, alone
  // 8 faults, nothing read ahead. (By page ids, 0..7 in order, it was windows of 4 and 4.)
  const Trace backwards = paged(scan(8), std::string(8, 'f'), "", 4096, {7, 6, 5, 4, 3, 2, 1, 0});
  const Counters c = simulate(backwards, "lru", file_ra(32, 128)).total;
  CHECK(c.faults == 8);
  CHECK(c.readahead_pages == 0);
  // A hole: vpns 0 1 2 5 6 7 read in order (vpns 3 and 4 never accessed).
  //  vpn 0  first read: [0, 4): readahead 1 2, stopped by the hole at 3                next 4
  //  vpn 1, 2  hits
  //  vpn 5  not 4: random, alone                                                        next 6
  //  vpn 6  sequential after no window: [6, 10): readahead 7, then the end of the file
  //  vpn 7  hit
  // 3 faults, 3 readahead pages, all used.
  const Trace holes = paged(scan(6), std::string(6, 'f'), "", 4096, {0, 1, 2, 5, 6, 7});
  const Counters h = simulate(holes, "lru", file_ra(32, 128)).total;
  CHECK(h.faults == 3);
  CHECK(h.readahead_pages == 3);
  CHECK(h.readahead_used == 3);
}

TEST_CASE("file readahead: two processes' streams interleaved page by page each read ahead") {
  // Page ids alternate between process 0 (even ids) and 1 (odd ids), each reading its file
  // at vpns 0..7 in order: 0/0 1/0 0/1 1/1 ... (process/vpn). 32 frames.
  //  process 0: vpn 0 [0, 4): readahead vpns 1 2 3; vpn 4 [4, 12) cut at its last page 7:
  //  readahead 5 6 7; the same for process 1. 4 faults, 12 readahead pages, all used.
  std::vector<std::uint64_t> vpns;
  std::vector<PageId> accesses;
  for (PageId p = 0; p < 16; ++p) {
    vpns.push_back(p / 2);
    accesses.push_back(p);
  }
  const Trace t = paged(accesses, std::string(16, 'f'), "0101010101010101", 4096, vpns);
  const Result r = simulate(t, "lru", file_ra(32, 128));
  CHECK(r.total.faults == 4);
  CHECK(r.per_proc[0].readahead_pages == 6);
  CHECK(r.per_proc[1].readahead_pages == 6);
  CHECK(r.total.readahead_used == 12);
}

TEST_CASE("file readahead: a file page's place on the disk follows its process and vpn") {
  // Readahead off, a disk, fifo: the backwards reader of 8 file pages (vpns 7..0 in page id
  // order) reads at 16 (twice 8 swap slots) + vpn: 23 from head 0, then 22 with the head at
  // 24 (where the last read ended), 21 with it at 23, ...: 8 seeks, 23 + 7 x 2 = 37 pages of
  // head movement. (By page id, 16 + page: one seek of 16, then on.)
  Params p = file_ra(32, 0);
  p.set("device", std::string("hdd-2002"));
  p.set("io_scheduler", std::string("fifo"));
  const Trace backwards = paged(scan(8), std::string(8, 'f'), "", 4096, {7, 6, 5, 4, 3, 2, 1, 0});
  const Result r = simulate(backwards, "lru", p);
  CHECK(r.device_stats.seeks == 8);
  CHECK(r.device_stats.seek_distance == 37);
}

TEST_CASE("file readahead: a write reads its page alone and leaves the stream as it is") {
  // 12 file pages, 32 frames; w a write, r a read (generic_file_buffered_write does not call
  // page_cache_readahead).
  //  w0  write fault: page 0 read alone; the stream has not started
  //  r1  the stream's first read: [1, 5): readahead 2 3 4                 next 5
  //  r2 r3 r4  hits
  //  w5  write fault: 5 alone, the stream still expects 5
  //  r6  not 5: random, alone                                             next 7, no window
  //  r7  sequential after no window: [7, 11): readahead 8 9 10
  // 5 faults, all file reads; 6 readahead pages, 3 used.
  const Trace t = paged({0, 1, 2, 3, 4, 5, 6, 7}, std::string(12, 'f'), "", 4096, {}, "wrrrrwrr");
  const Counters c = simulate(t, "lru", file_ra(32, 128)).total;
  CHECK(c.faults == 5);
  CHECK(c.file_reads == 5);
  CHECK(c.readahead_pages == 6);
  CHECK(c.readahead_used == 3);
}

TEST_CASE("file readahead: a window cut to the frames there are: the next read follows it") {
  // 1024 file pages read in order, LRU, read_ahead_kb=128 (windows 4, 8, 16, then 32).
  // 31 frames: [0, 4), [4, 12), [12, 28) (28 resident). At 28 the window [28, 60) has 31
  // readahead pages, cut to frames - 1 = 30: 29..58, all 28 resident pages evicted for them;
  // the stream's next is 59, so each later fault reads 31 pages: 28, 59, ..., 1020, where
  // 996 / 31 = 32 faults read 992 pages and a 33rd the last 4 (1020 + readahead 1021..1023).
  // 3 + 33 = 36 faults, 1024 - 36 = 988 readahead pages, all used.
  // 8 frames: [0, 4), [4, 12) (4 evicted), then at 12 the window of 16 is cut to 7: 13..19,
  // next 20, and so on: every fault from vpn 4 on reads 8 pages, 1020 / 8 = 127.5: 128 faults.
  // 1 + 128 = 129 faults, 895 readahead pages.
  // 32 frames: no cut (31 readahead pages fit): 3 + 996 / 32 = 31.1 -> 32 faults: 35.
  const Trace t = paged(scan(1024), std::string(1024, 'f'));
  const std::pair<std::int64_t, std::uint64_t> cases[] = {{31, 36}, {8, 129}, {32, 35}};
  for (const auto& [frames, faults] : cases) {
    CAPTURE(frames);
    const Counters c = simulate(t, "lru", file_ra(frames, 128)).total;
    CHECK(c.faults == faults);
    CHECK(c.readahead_pages == 1024 - faults);
    CHECK(c.readahead_used == 1024 - faults);
  }
}

TEST_CASE("file readahead: evicted readahead pages are wasted; at most frames - 1 are read") {
  // 12 file pages, 3 frames, LRU. At most frames - 1 = 2 readahead pages per fault.
  //  R0   [0, 4): readahead 1 2 3, cut to 2: 1 2 (resident {1 2 0})          next 4
  //  R9   random: 9 alone; LRU evicts 1 (readahead, unused: wasted)  {2 0 9}  next 10
  //  R10  sequential after no window: [10, 14), cut at the last page 11: readahead 11. Two
  //       frames needed, none free: LRU evicts 2 (wasted) and 0.  {9 11 10}    next 14
  // 3 faults, 3 readahead pages (1 2 11), 2 wasted, 0 used (11 stays unused).
  const Trace t = paged({0, 9, 10}, std::string(12, 'f'));
  const Counters c = simulate(t, "lru", file_ra(3, 128)).total;
  CHECK(c.faults == 3);
  CHECK(c.readahead_pages == 3);
  CHECK(c.readahead_wasted == 2);
  CHECK(c.readahead_used == 0);
  CHECK(c.evictions == 3);
}

TEST_CASE(
    "file readahead: the window in pages is read_ahead_kb * 1024 / the page size, rounded down") {
  // 16 KiB pages: read_ahead_kb=128 gives 8 pages: get_init_ra_size(1, 8) = 2 (1 > 8 / 32,
  // 1 <= 8 / 4), then x2 (2 is not below 8 / 16 = 0): 4, 8.
  //  R0 [0, 2), R2 [2, 6), R6 [6, 14), R14 [14, 22) cut at 19: readahead 1 + 3 + 7 + 5 = 16.
  const Trace big = paged(scan(20), std::string(20, 'f'), "", 16384);
  const Counters c = simulate(big, "lru", file_ra(32, 128)).total;
  CHECK(c.faults == 4);
  CHECK(c.readahead_pages == 16);
  CHECK(c.readahead_used == 16);
  // 16 KiB and 31 KiB are one page: a window holds only the faulting page, as with 0.
  for (std::int64_t kb : {16, 31}) {
    CAPTURE(kb);
    const Counters one = simulate(big, "lru", file_ra(32, kb)).total;
    CHECK(one.faults == 20);
    CHECK(one.readahead_pages == 0);
  }
  // 4 KiB pages, read_ahead_kb=8: 2 pages, get_init_ra_size(1, 2) = 2, then 2: every other
  // page faults and reads the next one ahead.
  const Counters two = simulate(paged(scan(10), std::string(10, 'f')), "lru", file_ra(32, 8)).total;
  CHECK(two.faults == 5);
  CHECK(two.readahead_pages == 5);
}

TEST_CASE(
    "file readahead: one request per window on the disk, and the process waits once per window") {
  // 60 file pages read in order on round_disk, fifo. The file pages lie after the swap area,
  // at 120 + page.
  // Windows: [0, 4), [4, 12), [12, 28), [28, 60): each one request (32 pages fit
  // io_max_request_pages 32).
  //  R0  at 1000:        read [120, 124) from head 0: seek 5 + 4 + 1 + 4 pages = 14 ms
  //                      -> 14001000
  //  R1-3                hits at 14002000 .. 14004000
  //  R4  at 14005000:    read [124, 132), the head there: 1 + 8 = 9 ms -> 23005000
  //  R5-11               hits to 23012000
  //  R12 at 23013000:    1 + 16 = 17 ms -> 40013000; R13-27 hits to 40028000
  //  R28 at 40029000:    1 + 32 = 33 ms -> 73029000; R29-59 hits to 73060000
  // iowait 14 + 9 + 17 + 33 = 73 ms.
  Params p = round_disk("fifo");
  const Trace t = paged(scan(60), std::string(60, 'f'));
  const Result r = simulate(t, "lru", p);
  CHECK(r.total.faults == 4);
  CHECK(r.total.readahead_pages == 56);
  CHECK(r.device_stats.reads == 4);
  CHECK(r.device_stats.pages_read == 60);
  CHECK(r.device_stats.merges == 56);
  CHECK(r.device_stats.seeks == 1);
  CHECK(r.device_stats.seek_distance == 120);
  CHECK(r.time.iowait_ns == 73'000'000);
  CHECK(r.time.elapsed_ns == 73'060'000);
  // Off: 60 requests of one page: the first 5 + 4 + 1 + 1 = 11 ms, the others 1 + 1 = 2 ms.
  p.set("read_ahead_kb", std::int64_t{0});
  const Result off = simulate(t, "lru", p);
  CHECK(off.device_stats.reads == 60);
  CHECK(off.time.iowait_ns == 11'000'000 + 59 * 2'000'000);
  CHECK(off.time.elapsed_ns == 129'060'000);
}

TEST_CASE(
    "file readahead: under C-LOOK with the head inside its window the reader waits for its own "
    "page") {
  // File pages 0-7 at vpns 10-17, at positions S + page after the swap area; round_disk (any
  // seek 5 ms + rotation 4, overhead 1, 1 ms a page), C-LOOK.
  //  R7 at 1000:        the first read: its window [17, 21) holds page 7 alone (the end of
  //                     the file): seek + 1 + 1 = 11 ms -> 11001000; head S+8
  //  R0 at 11002000:    random (the stream is at vpn 21): alone, 11 ms -> 22002000; head S+1
  //  W3 at 22003000:    a write reads its page alone, the stream stays: 11 ms -> 33003000;
  //                     head S+4
  //  R1 at 33004000:    follows 0: window [11, 15), pages 1-4 without the resident 3:
  //                     requests [S+1, S+3) and [S+4]. C-LOOK starts [S+4] first (at the
  //                     head): 1 + 1 = 2 ms -> 35004000; then [S+1, S+3): seek + 1 + 2 =
  //                     12 ms -> 47004000, when the reader's page 1 is read and it goes on
  //  R2, R4 at 47005000, 47006000: hits on pages read.
  // IO wait 11 + 11 + 11 + 14 = 47 ms. (Waiting for the request of the window's last page, 4,
  // it went on at 35004000 with pages 1 and 2 unread.)
  Params p = round_disk("elevator");
  const Trace t =
      paged({7, 0, 3, 1, 2, 4}, "ffffffff", "", 4096, {10, 11, 12, 13, 14, 15, 16, 17}, "rrwrrr");
  const Result r = simulate(t, "lru", p);
  CHECK(r.total.faults == 4);
  CHECK(r.total.readahead_pages == 2);
  CHECK(r.device_stats.reads == 5);
  CHECK(r.device_stats.seeks == 4);
  CHECK(r.time.iowait_ns == 47'000'000);
  CHECK(r.time.elapsed_ns == 47'006'000);
}

TEST_CASE("file readahead: zram holds swap only, so file readahead costs it nothing") {
  Params p = file_ra(64, 128);
  p.set("device", std::string("zram"));
  const Result r = simulate(paged(scan(40), std::string(40, 'f')), "lru", p);
  CHECK(r.total.readahead_pages == 36);
  CHECK(r.time.sys_ns == 0);
  CHECK(r.device_stats.reads == 0);
}

// FIFO that records the readahead pages it is told about.
class RecordingFifo final : public Policy {
 public:
  PolicyTraits traits() const override {
    PolicyTraits t;
    t.needs_future = true;
    return t;
  }
  void reset(std::size_t, std::size_t) override { queue_.clear(); }
  void on_fault(const Access& a, PageTableView) override {
    queue_.push_back(a.page);
    if (a.readahead) readahead.push_back(a);
  }
  void select_victims(std::size_t want, PageTableView, VictimList& out) override {
    while (out.size() < want && !queue_.empty()) {
      out.push_back(queue_.front());
      queue_.pop_front();
    }
  }
  std::vector<Access> readahead;

 private:
  std::deque<PageId> queue_;
};

TEST_CASE("file readahead: the policy sees file pages with their process and next use") {
  // Process 0 reads file pages 0..5 as 0 2 1 3 (accesses #0 #1 #2 #3); process 1 owns anon
  // page 6. R0: [0, 4): readahead 1 2 3, reported in page order, kind file, process 0, for
  // access #0, next use = their first access: 1 -> #2, 2 -> #1, 3 -> #3.
  const Trace t = paged({0, 2, 1, 3, 6}, "ffffffa", "0000001");
  RecordingFifo policy;
  simulate(t, policy, file_ra(16, 128), "recording_fifo");
  REQUIRE(policy.readahead.size() == 3);
  const std::uint32_t next[] = {2, 1, 3};
  for (std::size_t k = 0; k < 3; ++k) {
    const Access& a = policy.readahead[k];
    CAPTURE(k);
    CHECK(a.page == k + 1);
    CHECK(a.kind == PageKind::kFile);
    CHECK(a.proc == 0);
    CHECK(a.index == 0);
    CHECK(!a.write);
    CHECK(a.next_use == next[k]);
  }
}

TEST_CASE("file readahead: read_ahead_kb is validated") {
  const Trace t = paged(scan(4), "ffff");
  for (std::int64_t kb : {-1, 16385}) {
    CHECK_THROWS_WITH_AS(simulate(t, "lru", file_ra(4, kb)),
                         ("parameter 'read_ahead_kb' = " + std::to_string(kb) +
                          " is out of range: allowed 0 to 16384")
                             .c_str(),
                         ConfigError);
  }
  CHECK_THROWS_WITH_AS(
      simulate(t, "lru", Params{{"frames", std::int64_t{4}}, {"read_ahead_kb", 1.5}}),
      doctest::Contains("read_ahead_kb"), ConfigError);
}

}  // namespace
}  // namespace pagesim::test
