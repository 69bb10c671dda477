// Device cost model, worked out by hand. hdd-2002: overhead 0.3 ms, average seek 8.5 ms,
// track-to-track 1 ms, rotational latency 4.17 ms, 30 MB/s, so one 4 KiB page transfers in
// 4096 B / 30e6 B/s = 136533.33 ns; seek(d) = 1 + 7.5 * sqrt(d / span) * 15/8 ms.
#include <doctest/doctest.h>

#include <cmath>
#include <iterator>

#include "helpers.hpp"
#include "pagesim/device.hpp"

namespace pagesim::test {
namespace {

DeviceConfig hdd(IoScheduler s = IoScheduler::kFifo) {
  DeviceConfig c = DeviceConfig::preset("hdd-2002");
  c.scheduler = s;
  return c;
}

// One request queued at most.
DeviceConfig hdd_one_request(IoScheduler s = IoScheduler::kFifo) {
  DeviceConfig c = hdd(s);
  c.queue_depth = 1;
  return c;
}

// On a device of hdd_one_request: process 0 has W10 in service and W50 queued; its W60 waits
// for room, and its read of 200 behind it.
void read_behind_a_waiting_write(SwapDevice& dev) {
  CHECK(dev.submit(10, true, 0, kNoProc, 0));
  dev.advance(0);
  CHECK(dev.submit(50, true, 0, kNoProc, 0));
  CHECK(!dev.submit(60, true, 0, kNoProc, 0));
  CHECK(!dev.submit(200, false, 0, 0, 0));
}

TEST_CASE("two reads at distant slots cost two seeks") {
  std::vector<Tick> wakeup(2, kNoTime);
  SwapDevice dev(hdd(), 1024, 4096, &wakeup);
  // Head at 0. Read slot 256 (d = 256 = span/4: seek = 1 + 7.5 * 0.5 * 1.875 = 8.03125 ms),
  // then slot 1 (head at 257 after the first: d = 256 again).
  dev.submit(256, false, 0, 0);
  dev.submit(1, false, 0, 1);
  dev.advance(0);
  // 0.3 + 8.03125 + 4.17 ms + 136533.33 ns = 12637783.33 ns -> 12637783.
  CHECK(wakeup[0] == 12637783);
  CHECK(wakeup[1] == kNoTime);  // not started yet
  dev.drain();
  CHECK(wakeup[1] == 2 * 12637783);
  CHECK(dev.stats().reads == 2);
  CHECK(dev.stats().seeks == 2);
  CHECK(dev.stats().seek_distance == 512);
  CHECK(dev.stats().busy_ns == 2 * 12637783);
  // Of each request, the seek and the rotational latency: 8.03125 + 4.17 ms = 12201250 ns.
  CHECK(dev.stats().seek_ns == 2 * 12201250);
  CHECK(dev.stats().read_busy_ns == 2 * 12637783);
  CHECK(dev.stats().write_busy_ns == 0);
}

TEST_CASE("eight contiguous reads cost one seek plus eight transfers") {
  std::vector<Tick> wakeup(1, kNoTime);
  SwapDevice dev(hdd(), 1024, 4096, &wakeup);
  for (std::uint64_t s = 256; s < 264; ++s) dev.submit(s, false, 0, s == 259 ? 0 : kNoProc);
  dev.advance(0);
  // One request: 0.3 + 8.03125 + 4.17 ms + 8 * 136533.33 ns = 13593516.67 ns -> 13593517.
  CHECK(wakeup[0] == 13593517);
  CHECK(dev.stats().reads == 1);
  CHECK(dev.stats().pages_read == 8);
  CHECK(dev.stats().merges == 7);
  CHECK(dev.stats().seeks == 1);
  CHECK(dev.head() == 264);
}

TEST_CASE("schedulers: fifo keeps order, elevator sweeps up, read_priority serves reads first") {
  const auto order = [](IoScheduler s) {
    std::vector<Tick> wakeup(3, kNoTime);
    SwapDevice dev(hdd(s), 1024, 4096, &wakeup);
    dev.submit(500, true, 0);      // write
    dev.submit(700, false, 0, 0);  // read A
    dev.submit(100, false, 0, 1);  // read B
    dev.submit(600, true, 0);      // write
    dev.drain();
    return std::make_pair(wakeup[0] < wakeup[1], dev.stats().seek_distance);
  };
  // fifo: 0 -> 500 -> 700 -> 100 -> 600: 500 + 199 + 601 + 499 = 1799 (head ends one past).
  CHECK(order(IoScheduler::kFifo) == std::make_pair(true, std::uint64_t{1799}));
  // elevator (C-LOOK from 0): 100, 500, 600, 700: 100 + 399 + 99 + 99 = 697; A after B.
  CHECK(order(IoScheduler::kElevator) == std::make_pair(false, std::uint64_t{697}));
  // read_priority: reads A, B, then the writes: 700, 100, 500, 600: 700 + 601 + 399 + 99.
  CHECK(order(IoScheduler::kReadPriority) == std::make_pair(true, std::uint64_t{1799}));
}

// The requests' last pages in the order the device starts them.
std::vector<std::uint64_t> start_order(SwapDevice& dev) {
  std::vector<std::uint64_t> order;
  while (dev.start_next() != kNoTime) order.push_back(dev.head() - 1);
  return order;
}

TEST_CASE("deadline: one-way sweeps of reads, a write sweep after writes_starved read choices") {
  // Linux 2.6.11 deadline_dispatch_requests; writes_starved 2, fifo_batch 16, nothing expires.
  // Queued at 0: W500 R700 R100 W600 R300 R800. No request starts where the last one ended,
  // so each start ends its batch and chooses a direction (starved counts read choices while
  // writes are queued):
  //  1 no next; read (starved 1); no next read: the sweep starts at the lowest, R100; next R300
  //  2 read (starved 2), the next read: R300; next R700
  //  3 starved 2 >= 2: write (starved 0); the next is a read: lowest write, W500; next W600
  //  4 read (starved 1); the next is a write: lowest read, R700; next R800
  //  5 read (starved 2): R800; no next
  //  6 no reads: write (starved 0): W600.
  std::vector<Tick> wakeup(1, kNoTime);
  SwapDevice dev(hdd(IoScheduler::kDeadline), 1024, 4096, &wakeup);
  dev.submit(500, true, 0);
  dev.submit(700, false, 0);
  dev.submit(100, false, 0);
  dev.submit(600, true, 0);
  dev.submit(300, false, 0);
  dev.submit(800, false, 0);
  CHECK(start_order(dev) == std::vector<std::uint64_t>{100, 300, 500, 700, 800, 600});
}

TEST_CASE("deadline: a batch of sequential requests runs to fifo_batch") {
  // One page a request (io_max_request_pages 1), fifo_batch 3, writes_starved 1. Queued at 0:
  // R10 .. R14, W50, W51.
  //  1-3 read (starved 1); the sweep from R10; R11 and R12 start where the last ended: a batch
  //  4   the batch has 3: write (starved 1 >= 1; starved 0): W50, and W51 in its batch
  //  6   no writes: read (starved stays 0); the next is none: the lowest read, R13; then R14.
  std::vector<Tick> wakeup(1, kNoTime);
  DeviceConfig c = hdd(IoScheduler::kDeadline);
  c.max_request_pages = 1;
  c.fifo_batch = 3;
  c.writes_starved = 1;
  SwapDevice dev(c, 1024, 4096, &wakeup);
  for (std::uint64_t s = 10; s < 15; ++s) dev.submit(s, false, 0);
  dev.submit(50, true, 0);
  dev.submit(51, true, 0);
  CHECK(start_order(dev) == std::vector<std::uint64_t>{10, 11, 12, 50, 51, 13, 14});
}

TEST_CASE("deadline: a read past its expiry goes first, from the time after it") {
  // nvme: every read takes 80 us + 2048 ns = 82048 ns. Queued at 0: R500, R100, R300. The
  // first start, at 0: the sweep's lowest, R100; next R300. The second, at 82048: R500, the
  // oldest read, made at 0, has expired when 82048 > read_expire (time_after: strictly):
  // then R500 and R300 (the oldest again, expired too); else the sweep's R300, R500.
  const auto order = [](double read_expire_ms) {
    std::vector<Tick> wakeup(1, kNoTime);
    DeviceConfig c = DeviceConfig::preset("nvme");
    c.scheduler = IoScheduler::kDeadline;
    c.read_expire_ms = read_expire_ms;
    SwapDevice dev(c, 1024, 4096, &wakeup);
    dev.submit(500, false, 0);
    dev.submit(100, false, 0);
    dev.submit(300, false, 0);
    return start_order(dev);
  };
  CHECK(order(0.082047) == std::vector<std::uint64_t>{100, 500, 300});
  CHECK(order(0.082048) == std::vector<std::uint64_t>{100, 300, 500});
  CHECK(order(500) == std::vector<std::uint64_t>{100, 300, 500});
}

TEST_CASE("deadline: a front merge into the batch's next request passes it by") {
  // Queued at 0: R100, R300, R500. R100 starts; next R300. At 1, R299 front-merges into R300:
  // deadline_merged_request takes it out of the sort order (deadline_del_drq_rb: the next
  // becomes R500) and puts it back at 299. So R500 starts next, then the new sweep's lowest,
  // [299, 300].
  std::vector<Tick> wakeup(1, kNoTime);
  SwapDevice dev(hdd(IoScheduler::kDeadline), 1024, 4096, &wakeup);
  dev.submit(100, false, 0);
  dev.submit(300, false, 0);
  dev.submit(500, false, 0);
  dev.advance(0);
  dev.submit(299, false, 1);
  CHECK(dev.stats().merges == 1);
  CHECK(start_order(dev) == std::vector<std::uint64_t>{500, 300});
  CHECK(dev.stats().pages_read == 4);
}

TEST_CASE(
    "deadline, elevator, fifo: a page that fills the gap between two requests makes them one") {
  // Queued at 0: R10, R12; then R11, which merges into R12 at its front (the newest request it
  // extends). __make_request's attempt_front_merge then finds R10 before it in sort order (and
  // in fifo's queue, noop's list), contiguous with [11, 12]: R10 absorbs it, one read of 3
  // pages. Not when the two together pass io_max_request_pages (2 here), and not under
  // read_priority, which takes part in no such merging.
  const auto reads = [](IoScheduler s, std::size_t max_pages) {
    std::vector<Tick> wakeup(3, kNoTime);
    DeviceConfig c = hdd(s);
    c.max_request_pages = max_pages;
    SwapDevice dev(c, 1024, 4096, &wakeup);
    dev.submit(10, false, 0, 0, 0);
    dev.submit(12, false, 0, 1, 1);
    dev.submit(11, false, 0, 2, 2);
    CHECK(dev.stats().merges == 1);
    dev.drain();
    CHECK(dev.stats().pages_read == 3);
    return dev.stats().reads;
  };
  for (const IoScheduler s : {IoScheduler::kDeadline, IoScheduler::kElevator, IoScheduler::kFifo}) {
    CAPTURE(static_cast<int>(s));
    CHECK(reads(s, 32) == 1);
    CHECK(reads(s, 2) == 2);
  }
  CHECK(reads(IoScheduler::kReadPriority, 32) == 2);
}

TEST_CASE("fifo joins only requests next to each other in its queue (noop's list)") {
  // Queued at 0: R10, R50, R12, then R11, which merges into R12 at its front. Before [11, 12]
  // in sort order is R10: elevator joins them, 2 reads ([10, 12], R50). Before it in fifo's
  // queue is R50, which does not touch it: 3 reads (noop_former_request is the list's).
  // Queued R12, R10, then R11, which merges into R10 at its back: after [10, 11] in sort order
  // is R12 (elevator: 1 read); in fifo's queue there is none (2 reads).
  const auto reads = [](IoScheduler s, const std::vector<std::uint64_t>& positions) {
    std::vector<Tick> wakeup(1, kNoTime);
    SwapDevice dev(hdd(s), 1024, 4096, &wakeup);
    for (const std::uint64_t position : positions) dev.submit(position, false, 0);
    dev.drain();
    return dev.stats().reads;
  };
  CHECK(reads(IoScheduler::kElevator, {10, 50, 12, 11}) == 2);
  CHECK(reads(IoScheduler::kFifo, {10, 50, 12, 11}) == 3);
  CHECK(reads(IoScheduler::kElevator, {12, 10, 11}) == 1);
  CHECK(reads(IoScheduler::kFifo, {12, 10, 11}) == 2);
}

TEST_CASE("deadline: two requests made one keep the older one's place and expiry") {
  // nvme, reads expire after 1 us: R100 starts at 0 and runs to 82048; meanwhile R12 is made
  // at 1, R50 at 2, R10 at 3, and R11 at 4 merges into R10 at its back; attempt_back_merge
  // joins R12, the next in sort order, into it. R12 expires before R10, so [10, 12] takes its
  // place in the read fifo (deadline_merged_requests). At 82048 every read has expired: the
  // oldest, [10, 12], goes first, then R50. (With R10's place, R50 would go first.)
  std::vector<Tick> wakeup(1, kNoTime);
  DeviceConfig c = DeviceConfig::preset("nvme");
  c.scheduler = IoScheduler::kDeadline;
  c.read_expire_ms = 0.001;
  SwapDevice dev(c, 1024, 4096, &wakeup);
  dev.submit(100, false, 0);
  dev.advance(0);
  dev.submit(12, false, 1);
  dev.submit(50, false, 2);
  dev.submit(10, false, 3);
  dev.submit(11, false, 4);
  CHECK(dev.queued() == 2);
  CHECK(start_order(dev) == std::vector<std::uint64_t>{12, 50});
  CHECK(dev.stats().reads == 3);
}

TEST_CASE("a write that merges needs no room in a full queue; one that would not waits") {
  std::vector<Tick> wakeup(2, 0);
  SwapDevice dev(hdd_one_request(), 1024, 4096, &wakeup);
  CHECK(dev.submit(10, true, 0, kNoProc, 0));   // a new request: the queue's one place
  CHECK(dev.submit(11, true, 0, kNoProc, 0));   // back merge: no place needed
  CHECK(dev.submit(9, true, 0, kNoProc, 0));    // front merge
  CHECK(!dev.submit(50, true, 0, kNoProc, 0));  // a new request: waits, process 0 sleeps
  // Behind its own waiting write, even if it could merge.
  CHECK(!dev.submit(12, true, 0, kNoProc, 0));
  CHECK(dev.submit(500, false, 0, 1, 1));  // another process's read needs no place
  CHECK(dev.queued() == 2);
  CHECK(dev.stats().queue_full_waits == 2);
  CHECK(dev.stats().merges == 2);
  dev.drain();
  // [9, 11], read 500, then 50 and 12 as they got their places (12 does not merge: [9, 11]
  // had started).
  CHECK(dev.stats().writes == 3);
  CHECK(dev.stats().pages_written == 5);
  CHECK(dev.stats().reads == 1);
}

TEST_CASE("a waiting write merges into the write let in before it, taking no room") {
  // One request queued at most. Process 0 writes 10 (queued), then 50, 51 and 52, which wait
  // (50 would make a new request; 51 and 52 are behind it); process 1's write of 53 waits too
  // (the queue has nothing it merges into). The start of [10] at 0 makes room: 50 goes in,
  // and 51, 52 and 53 merge into it with the queue full again (in the kernel the woken
  // process's __make_request tries elv_merge again, and each later write merges at once).
  // Both processes wake at 0; two requests, [10] and [50, 53].
  std::vector<Tick> wakeup(2, kNoTime);
  SwapDevice dev(hdd_one_request(), 1024, 4096, &wakeup);
  CHECK(dev.submit(10, true, 0, kNoProc, 0));
  for (std::uint64_t s = 50; s < 53; ++s) CHECK(!dev.submit(s, true, 0, kNoProc, 0));
  CHECK(!dev.submit(53, true, 0, kNoProc, 1));
  CHECK(dev.stats().queue_full_waits == 4);
  dev.advance(0);
  CHECK(wakeup == std::vector<Tick>{0, 0});
  CHECK(dev.queued() == 1);
  dev.drain();
  CHECK(dev.stats().writes == 2);
  CHECK(dev.stats().pages_written == 5);
  CHECK(dev.stats().merges == 3);
}

TEST_CASE("a waiting read that a later read covers reads nothing once that read is done") {
  // read_priority, one request queued at most; process 0's read of 200 waits behind its W60
  // (read_behind_a_waiting_write). Process 2's hit on the page waits for that read. Process
  // 1's read of 200 goes into the queue and covers the waiting one: process 2 now waits for
  // 1's read. Process 3 reads 300. W10 ends; read_priority starts 1's read, then 3's (W60
  // still finds W50 queued); when 3's ends, W50 starts, W60 goes in, and 0's read is done
  // already: in the kernel process 0, woken, would find the page in the swap cache. Processes
  // 1 and 2 wake when 1's read completes, 0 when W50 starts, which is when 3's read completes.
  std::vector<Tick> wakeup(4, kNoTime);
  SwapDevice dev(hdd_one_request(IoScheduler::kReadPriority), 1024, 4096, &wakeup);
  read_behind_a_waiting_write(dev);
  CHECK(dev.wait_for_read(200, 0, 2));
  CHECK(dev.submit(200, false, 0, 1, 1));
  CHECK(dev.submit(300, false, 0, 3, 3));
  dev.drain();
  CHECK(dev.stats().reads == 2);
  CHECK(dev.stats().writes == 3);
  CHECK(dev.stats().read_joins == 1);
  CHECK(wakeup[1] != kNoTime);
  CHECK(wakeup[2] == wakeup[1]);
  CHECK(wakeup[3] > wakeup[1]);
  CHECK(wakeup[0] == wakeup[3]);
}

TEST_CASE("of two waiting reads of a slot the first covers the second when let in") {
  // read_priority, one request queued at most; process 0's read of 200 waits behind its W60
  // (read_behind_a_waiting_write); process 1's W70 waits, and its read of 200 behind it.
  // Process 2's hit on the page waits for the first of the two reads. W10 ends: W50 starts,
  // W60 and 0's read go in, covering 1's. The read starts next (read_priority), W70 still
  // finds W60 queued; the read ends, W60 starts, W70 goes in and 1's read, done already,
  // reads nothing. One read; the three processes wake when it completes.
  std::vector<Tick> wakeup(3, kNoTime);
  SwapDevice dev(hdd_one_request(IoScheduler::kReadPriority), 1024, 4096, &wakeup);
  read_behind_a_waiting_write(dev);
  CHECK(!dev.submit(70, true, 0, kNoProc, 1));
  CHECK(!dev.submit(200, false, 0, 1, 1));
  CHECK(dev.wait_for_read(200, 0, 2));
  dev.drain();
  CHECK(dev.stats().reads == 1);
  CHECK(dev.stats().writes == 4);
  CHECK(dev.stats().read_joins == 1);
  CHECK(wakeup[0] != kNoTime);
  CHECK(wakeup[1] == wakeup[0]);
  CHECK(wakeup[2] == wakeup[0]);
}

TEST_CASE("batch reclaim into a full queue: the adjacent writes merge, nobody waits") {
  // W0 .. W11, 8 frames, fifo, reclaim of 4 pages when memory is full (watermarks 0 / 4), one
  // request queued at most. The fault of W8 at 900 ns evicts pages 0..3 to slots 0..3: the
  // first write is a new request, the three others merge into it (one 4-page request of 9 us
  // + 4 x 1000 ns = 13000 ns, started at W9's fault). Nobody waits: the run ends with W11 at
  // 1200 ns, as with a deeper queue.
  TraceBuilder b;
  for (std::uint64_t v = 0; v < 12; ++v) b.add(1, v, true);
  const Trace t = std::move(b).build();
  for (std::int64_t depth : {1, 2}) {
    CAPTURE(depth);
    const Result r = simulate(t, "fifo",
                              Params{{"frames", std::int64_t{8}},
                                     {"low_watermark", std::int64_t{0}},
                                     {"high_watermark", std::int64_t{4}},
                                     {"device", std::string("nvme")},
                                     {"device_write_us", 9.0},
                                     {"device_transfer_mb_s", 4096.0},
                                     {"io_queue_depth", depth},
                                     {"page_cluster", std::int64_t{0}},
                                     {"cpu_ns", std::int64_t{100}}});
    CHECK(r.time.elapsed_ns == 1200);
    CHECK(r.time.iowait_ns == 0);
    CHECK(r.device_stats.writes == 1);
    CHECK(r.device_stats.merges == 3);
    CHECK(r.device_stats.queue_full_waits == 0);
    CHECK(r.device_stats.busy_ns == 13000);
  }
}

TEST_CASE("every preset on a tiny trace: W1 R2 R1 with one frame") {
  // 1 frame, no readahead, cpu_ns 100, 4 swap slots (span 4). Accesses at 100, 200, 300.
  // R2 at 200 evicts dirty 1 -> write of slot 0 submitted at 200 (device idle: starts at 200,
  // head 0 -> d = 0, no seek). R1 at 300: read of slot 0, queued behind the write; the head
  // is then at 1 -> d = 1 = span/4 -> sqrt = 0.5. The process waits until the read completes.
  const Trace t = text("W 1\nR 2\nR 1\n");
  struct Case {
    const char* device;
    Tick elapsed;
    Tick sys;
  };
  const Case cases[] = {
      {"none", 300, 0},
      // write 0.3 ms + 136533.33 = 436533; done 436733.
      // read 0.3 + (1 + 7.5 * 0.5 * 1.875 = 8.03125) + 4.17 ms + 136533.33 = 12637783.
      {"hdd-2002", 436733 + 12637783, 0},
      // 20 MB/s: 204800 ns a page. write 0.5 ms + 204800 = 704800; done 705000.
      // read 0.5 + (1.5 + 10.5 * 0.5 * 1.875 = 11.34375) + 5.5 ms + 204800 = 17548550.
      {"hdd-laptop", 705000 + 17548550, 0},
      // 250 MB/s: 16384 ns a page. write 50 us + 16384 = 66384; done 66584; read 116384.
      {"ssd-sata", 66584 + 116384, 0},
      // 2000 MB/s: 2048 ns. write 20 us + 2048 = 22048; done 22248; read 82048.
      {"nvme", 22248 + 82048, 0},
      // CPU: compress 10 us during R2 (200 -> 10200), R1 at 10300 + decompress 3 us.
      {"zram", 13300, 13000},
  };
  // The read and write parts of busy_ns, and the read's seek and rotational latency (the
  // write starts at the head: none).
  struct Busy {
    Tick read, write, seek;
  };
  const Busy busy[] = {
      {0, 0, 0},
      {12637783, 436533, 12201250},  // 8.03125 + 4.17 ms
      {17548550, 704800, 16843750},  // 11.34375 + 5.5 ms
      {116384, 66384, 0},
      {82048, 22048, 0},
      {3000, 10000, 0},
  };
  static_assert(std::size(busy) == std::size(cases));
  for (std::size_t k = 0; k < std::size(cases); ++k) {
    const Case& c = cases[k];
    CAPTURE(c.device);
    Params p{{"frames", std::int64_t{1}},   {"page_cluster", std::int64_t{0}},
             {"swap_slots", std::int64_t{4}}, {"device", std::string(c.device)},
             {"io_scheduler", std::string("fifo")}};
    const Result r = simulate(t, "lru", p);
    CHECK(r.device == c.device);
    CHECK(r.time.elapsed_ns == c.elapsed);
    CHECK(r.time.user_ns == 300);
    CHECK(r.time.sys_ns == c.sys);
    CHECK(r.time.iowait_ns == c.elapsed - 300 - c.sys);
    CHECK(r.total.swap_outs == 1);
    CHECK(r.total.swap_ins == 1);
    if (std::string(c.device) != "none") {
      CHECK(r.device_stats.writes == 1);
      CHECK(r.device_stats.reads == 1);
    }
    CHECK(r.device_stats.read_busy_ns == busy[k].read);
    CHECK(r.device_stats.write_busy_ns == busy[k].write);
    CHECK(r.device_stats.seek_ns == busy[k].seek);
    CHECK(r.device_stats.busy_ns == busy[k].read + busy[k].write);
    // zram keeps page 1's slot (swap cache): 1 page * 4096 B / ratio 2.5 = 1638.4 -> 1638.
    CHECK(r.device_stats.stored_bytes == (std::string(c.device) == "zram" ? 1638 : 0));
  }
}

TEST_CASE("a readahead window stops at the first free slot") {
  // 5 frames, LRU, page_cluster 3 (windows of 8 slots), swap_slots 640, hdd-2002, fifo.
  // Access k (from 1) runs at k * 100 ns.
  //  W0..W4            minor faults, resident {0 1 2 3 4}, all dirty
  //  W5 (600)          evicts 0 -> slot 0; the write starts at 600 (head 0, d = 0):
  //                    0.3 ms + 136533 = 436533 -> busy until 437133
  //  W6..W9 (700-1000) evict 1..4 -> slots 1..4, queued, merged into one write [1..4]
  //  R1 (1100)         swap-in of slot 1: window [0, 8): slot 0 (page 0), slot 1 (the fault),
  //                    slots 2 3 4 (pages 2 3 4), slot 5 is free -> stop. 4 readahead pages
  //                    + the faulting one need 5 frames: LRU evicts 5 6 7 8 9 (dirty) ->
  //                    slots 5..9, merged into the queued write [1..9]. Reads [0..4], one
  //                    request behind it.
  //                    write [1..9] at 437133: head 1, d = 0: 0.3 ms + 9 * 136533.33 =
  //                    1528800 -> 1965933.
  //                    read [0..4]: head 10, d = 10 = 640/64 -> sqrt = 1/8: seek = 1 + 7.5 *
  //                    0.125 * 1.875 = 2.7578125 ms; 0.3 + 2.7578125 + 4.17 ms + 5 *
  //                    136533.33 = 7910479.17 -> 7910479 -> done 9876412.
  //  R0 (9876512)      hit on a readahead page: used.
  const Trace t = text("W 0\nW 1\nW 2\nW 3\nW 4\nW 5\nW 6\nW 7\nW 8\nW 9\nR 1\nR 0\n");
  // The same under every scheduler: the read holds slots 1..4, whose write is queued, so the
  // write goes first where read_priority and deadline would pick the read.
  for (const char* scheduler : {"fifo", "elevator", "read_priority", "deadline"}) {
    CAPTURE(scheduler);
    Params p{{"frames", std::int64_t{5}},
             {"page_cluster", std::int64_t{3}},
             {"swap_slots", std::int64_t{640}},
             {"device", std::string("hdd-2002")},
             {"io_scheduler", std::string(scheduler)}};
    const Result r = simulate(t, "lru", p);
    CHECK(r.total.faults == 11);
    CHECK(r.total.hits == 1);
    CHECK(r.total.swap_ins == 1);
    CHECK(r.total.swap_outs == 10);
    CHECK(r.total.readahead_pages == 4);
    CHECK(r.total.readahead_used == 1);    // page 0
    CHECK(r.total.readahead_wasted == 0);  // 2 3 4 stay resident, unused
    CHECK(r.device_stats.writes == 2);
    CHECK(r.device_stats.pages_written == 10);
    CHECK(r.device_stats.reads == 1);
    CHECK(r.device_stats.pages_read == 5);
    CHECK(r.device_stats.merges == 8 + 4);
    CHECK(r.device_stats.seeks == 1);
    CHECK(r.device_stats.seek_distance == 10);
    CHECK(r.device_stats.busy_ns == 436533 + 1528800 + 7910479);
    CHECK(r.device_stats.write_busy_ns == 436533 + 1528800);
    // The read's seek and rotational latency: 2.7578125 + 4.17 ms = 6927812.5 -> 6927813.
    CHECK(r.device_stats.seek_ns == 6927813);
    CHECK(r.time.elapsed_ns == 9876512);
    CHECK(r.time.iowait_ns == 9876412 - 1100);
    const bool passes =
        std::string(scheduler) == "read_priority" || std::string(scheduler) == "deadline";
    CHECK(r.device_stats.reads_behind_writes == (passes ? 1 : 0));
  }
}

TEST_CASE("a hit on a readahead page waits for the request that reads it") {
  // 4 frames, LRU, page_cluster 2, swap_slots 16 (the span: a head movement of d costs 1 +
  // 7.5 * sqrt(d / 16) * 1.875 ms of seek, + 4.17 ms of rotation), hdd-2002, fifo. Access k
  // (from 1) runs at k * 100 ns but for the waits. Pages 10-16 are only read: clean without a
  // slot, evicted without IO. Windows (valid_swaphandles): slot s is the kernel's offset s + 1,
  // the offsets' windows of 4 are [0, 4) less the swap header's offset 0, [4, 8), ...: slots
  // [0, 3), [3, 7), ...
  //  W0 W1 W2 W3 (100-400)  resident {0 1 2 3}, dirty
  //  R10 (500)              evicts 0 -> slot 0; write [0] from 500 (head 0, d = 0):
  //                         0.3 ms + 136533.33 = 436533 -> 437033, head 1
  //  R11 R12 R13 (600-800)  evict 1 2 3 -> slots 1 2 3, merged into one queued write [1..3]
  //  R1 (900)               swap-in of slot 1: window [0, 3) reads pages 0 2 ahead (not 3,
  //                         in the next window); evicts 10-12. Write [1..3] from 437033
  //                         (d = 0): 0.3 ms + 3 * 136533.33 = 709600 -> 1146633, head 4.
  //                         Read [0..2]: d = 4, sqrt(4 / 16) = 0.5, seek 8.03125 ms: 0.3 +
  //                         8.03125 + 4.17 ms + 3 * 136533.33 = 12910850 -> done 14057483,
  //                         head 3. LRU: 13 0 2 1
  //  R14 R15 R16            evict 13, then 0 and 2: clean readahead pages, unused (wasted),
  //                         no IO; the swap cache keeps their slots. LRU: 1 14 15 16
  //  R1 (14057883)          a hit. LRU: 14 15 16 1
  //  R0 (14057983)          swap-in of slot 0: window [0, 3): slot 1 is resident (skipped),
  //                         slot 2 is read ahead: two requests, [0] and [2]; evicts 14 15.
  //                         LRU: 16 1 2 0. Read [0]: d = 3, sqrt(3 / 16) = 0.4330127, seek
  //                         1 + 6.0892411 ms: 0.3 + 7.0892411 + 4.17 ms + 136533.33 =
  //                         11695774.45 -> 11695774 -> done 25753757, head 1; the process
  //                         waits for it. Read [2] from 25753757: d = 1, sqrt(1 / 16) = 0.25,
  //                         seek 1 + 3.515625 ms: 0.3 + 4.515625 + 4.17 ms + 136533.33 =
  //                         9122158.33 -> 9122158 -> done 34875915, head 3.
  //  R2 (25753857)          a hit on page 2, whose request [2] is running: the process waits
  //                         for it until 34875915. LRU: 16 1 0 2
  //  R3 (34876015)          a major fault: slot 3 was not in slot 1's window. Its window
  //                         [3, 7) stops at free slot 4: no readahead; evicts 16. Read [3]
  //                         at the head: 0.3 ms + 136533.33 = 436533 -> done 35312548, the end.
  // IO wait: (14057483 - 900) + (25753757 - 14057983) + (34875915 - 25753857) + (35312548 -
  // 34876015) = 14056583 + 11695774 + 9122058 + 436533 = 35310948; with 16 accesses of CPU,
  // 35312548.
  const Trace t = text(
      "W 0\nW 1\nW 2\nW 3\nR 10\nR 11\nR 12\nR 13\nR 1\nR 14\nR 15\nR 16\nR 1\nR 0\nR 2\n"
      "R 3\n");
  Params p{{"frames", std::int64_t{4}},
           {"page_cluster", std::int64_t{2}},
           {"swap_slots", std::int64_t{16}},
           {"device", std::string("hdd-2002")},
           {"io_scheduler", std::string("fifo")}};
  const Result r = simulate(t, "lru", p);
  CHECK(r.total.faults == 14);
  CHECK(r.total.hits == 2);
  CHECK(r.total.swap_ins == 3);
  CHECK(r.total.swap_outs == 4);
  CHECK(r.total.readahead_pages == 3);
  CHECK(r.total.readahead_wasted == 2);
  CHECK(r.total.readahead_used == 1);  // page 2, read again ahead
  CHECK(r.device_stats.reads == 4);
  CHECK(r.device_stats.pages_read == 3 + 1 + 1 + 1);
  CHECK(r.device_stats.writes == 2);
  CHECK(r.device_stats.read_busy_ns == 12910850 + 11695774 + 9122158 + 436533);
  CHECK(r.device_stats.write_busy_ns == 436533 + 709600);
  CHECK(r.time.elapsed_ns == 35312548);
  CHECK(r.time.iowait_ns == 35310948);
  CHECK(r.time.user_ns == 1600);
}

TEST_CASE("a readahead page evicted while its read runs waits for that read at its fault") {
  // LRU, windows_a_request_a_page (5 frames, page_cluster 3, a request a page, nvme: a read
  // 3000 ns, a write 1000 ns).
  //  W0-W3, R4 (100-500)    resident {0 1 2 3 4}
  //  R5 R6 R7 R8 (600-900)  evict 0 1 2 3 -> slots 0-3; writes [0] 600-1600, [1] 1600-2600,
  //                         [2] 2600-3600, [3] 3600-4600
  //  R0 (1000)              window [0, 7): reads 1 2 3 ahead, up to free slot 4; evicts 4-7
  //                         (clean); reads [0] 4600-7600 (the process waits), [1]
  //                         7600-10600, [2] 10600-13600, [3] 13600-16600
  //  R9 (7700)              evicts 8
  //  R10 (7800)             evicts 1, read ahead, unused (wasted), its read in service
  //  R1 (7900)              swap-in of slot 1: 0 2 3 resident, nothing to read ahead; evicts
  //                         2, its read queued (wasted). Slot 1's read [1] is running: the
  //                         fault joins it (a read_join, as Linux's would sleep on the locked
  //                         page) and waits until 10600. The device reads slot 1 once.
  //  R3 (10700)             a hit on page 3, whose read [3] is queued: waits until 16600.
  const Trace t = text("W 0\nW 1\nW 2\nW 3\nR 4\nR 5\nR 6\nR 7\nR 8\nR 0\nR 9\nR 10\nR 1\nR 3\n");
  const Result r = simulate(t, "lru", windows_a_request_a_page());
  CHECK(r.total.swap_ins == 2);
  CHECK(r.total.readahead_pages == 3);
  CHECK(r.total.readahead_wasted == 2);
  CHECK(r.total.readahead_used == 1);
  CHECK(r.device_stats.reads == 4);
  CHECK(r.device_stats.pages_read == 4);
  CHECK(r.device_stats.read_joins == 1);
  CHECK(r.time.elapsed_ns == 16600);
  CHECK(r.time.iowait_ns == (7600 - 1000) + (10600 - 7900) + (16600 - 10700));
}

TEST_CASE("a readahead window stops at a free slot even when used slots follow it") {
  // 2 frames, LRU, page_cluster 2 (the first window is slots 0-2, the kernel's offsets 1-3),
  // free_slot_on_swapin, no device. Fewer than 256 slots: each swap-out takes the lowest free
  // slot.
  //  W0 W1               resident {0 1}
  //  W2 W3               evict 0 1 -> slots 0 1                  {2 3}
  //  R1 (slot 1)         window [0, 3): slot 0 (page 0), slot 2 free -> stop. Two frames
  //                      needed: evict 2 3 -> slots 2 3. Page 1's slot 1 is freed, page 1
  //                      dirty. LRU: 0, 1
  //  W4                  evicts 0 (clean, in swap, unused: wasted)   {1 4}
  //  R0 (slot 0)         window [0, 3): slot 1 is free -> stop, although slot 2 holds page 2.
  //                      No readahead: evicts 1 (dirty) -> slot 1. Slot 0 is freed. {4 0}
  // Reading past the free slot would read page 2 ahead and evict 4 as well (a 6th swap-out).
  const Trace t = text("W 0\nW 1\nW 2\nW 3\nR 1\nW 4\nR 0\n");
  Params p{{"frames", std::int64_t{2}}, {"page_cluster", std::int64_t{2}},
           {"free_slot_on_swapin", true}};
  const Counters c = simulate(t, "lru", p).total;
  CHECK(c.faults == 7);
  CHECK(c.swap_ins == 2);
  CHECK(c.readahead_pages == 1);
  CHECK(c.readahead_wasted == 1);
  CHECK(c.evictions == 6);
  CHECK(c.swap_outs == 5);
}

TEST_CASE("a swap-in frees its slot when more than half of swap is in use (vm_swap_full)") {
  // 2 frames, LRU, no readahead, no device, 4 swap slots: a swap-in frees its page's slot, and
  // leaves the page dirty, when more than 2 slots are in use after the fault's reclaim (Linux
  // 2.4.10 to 2.6.x do_swap_page). "used" is the count at the swap-in.
  //  W0 W1   {0 1}
  //  W2      evicts 0 -> swap-out, used 1                      {1 2}
  //  R0      evicts 1 -> swap-out, used 2; 2 * 2 <= 4: 0 keeps its slot, clean   {2 0}
  //  W3      evicts 2 -> swap-out, used 3                      {0 3}
  //  R1      evicts 0, clean with its slot: no write; used 3: 1's slot freed (used 2), 1 dirty
  //  R0      evicts 3 -> swap-out, used 3; 0's slot freed (2), 0 dirty          {1 0}
  //  R2      evicts 1, dirty without a slot -> swap-out (3); 2's slot freed (2)  {0 2}
  //  R3      evicts 0 -> swap-out (3); 3's slot freed (2)                      {2 3}
  // 6 swap-outs; 2 slots in use at the end (1's and 0's).
  const Trace t = text("W 0\nW 1\nW 2\nR 0\nW 3\nR 1\nR 0\nR 2\nR 3\n");
  const auto run = [&](Params p) {
    p.set("frames", std::int64_t{2});
    p.set("page_cluster", std::int64_t{0});
    return simulate(t, "lru", p);
  };
  const Result half_full = run({{"swap_slots", std::int64_t{4}}});
  CHECK(half_full.total.swap_outs == 6);
  CHECK(half_full.total.swap_ins == 5);
  CHECK(half_full.total.evictions == 7);
  CHECK(half_full.swap_slots_used == 2);
  // The default swap area, twice the trace's 4 pages, is never more than half full: each page
  // is written once, its slot kept.
  const Result roomy = run({});
  CHECK(roomy.total.swap_outs == 4);
  CHECK(roomy.swap_slots_used == 4);
  // free_slot_on_swapin=false keeps every slot; true frees every one, so that every eviction
  // writes (R1's of 0 too, which R0 left dirty).
  CHECK(run({{"swap_slots", std::int64_t{4}}, {"free_slot_on_swapin", false}}).total.swap_outs ==
        4);
  CHECK(run({{"swap_slots", std::int64_t{4}}, {"free_slot_on_swapin", true}}).total.swap_outs == 7);
}

TEST_CASE("free_slot_on_swapin write and write_fault: a write frees the slot (reuse_swap_page)") {
  // 2 frames, LRU, no readahead, no device; the default swap area, 8 slots (twice the 4 pages),
  // is never more than half full, and with fewer than 256 slots a swap-out takes the lowest
  // free one. Slots in use after each step, by mode (never/swap_full, write_fault, write,
  // always):
  //  W0 W1 W2 W3   evict 0 1 -> slots 0 1                                     4 modes: 2
  //  R0            evicts 2 -> slot 2; a swap-in by a read: only always frees 0's slot
  //                (0 dirty)                                                  3 3 3 2
  //  W0            a hit that writes: write frees 0's slot (reuse_swap_page in do_wp_page);
  //                write_fault keeps it (PageAnonExclusive: reused as it is)  3 3 2 2
  //  W1            evicts 3 -> the lowest free slot (3, 3, 0, 0); a swap-in by a write: all
  //                but never/swap_full free 1's slot                          4 3 2 2
  //  R2            evicts 0, dirty in every mode: to its slot 0 (never/swap_full,
  //                write_fault), else to the lowest free one, 1; a read: always frees 2's
  //                                                                           4 3 3 2
  // Every eviction writes a dirty page: 5 swap-outs, 3 swap-ins in every mode.
  const std::string prefix = "W 0\nW 1\nW 2\nW 3\nR 0\nW 0\nW 1\n";
  const auto slots_used = [&](const std::string& trace, Params p) {
    p.set("frames", std::int64_t{2});
    p.set("page_cluster", std::int64_t{0});
    const Result r = simulate(text(trace), "lru", p);
    CHECK(r.total.swap_ins == (trace == prefix ? 2 : 3));
    CHECK(r.total.swap_outs == (trace == prefix ? 4 : 5));
    return r.swap_slots_used;
  };
  const auto mode = [](const char* name) {
    return Params{{"free_slot_on_swapin", std::string(name)}};
  };
  const std::string whole = prefix + "R 2\n";
  CHECK(slots_used(prefix, mode("never")) == 4);
  CHECK(slots_used(prefix, mode("swap_full")) == 4);
  CHECK(slots_used(prefix, mode("write_fault")) == 3);
  CHECK(slots_used(prefix, mode("write")) == 2);
  CHECK(slots_used(prefix, mode("always")) == 2);
  CHECK(slots_used(whole, mode("never")) == 4);
  CHECK(slots_used(whole, {}) == 4);
  CHECK(slots_used(whole, mode("write_fault")) == 3);
  CHECK(slots_used(whole, mode("write")) == 3);
  CHECK(slots_used(whole, mode("always")) == 2);
  CHECK(slots_used(whole, {{"free_slot_on_swapin", true}}) == 2);
  CHECK(slots_used(whole, {{"free_slot_on_swapin", false}}) == 4);
  // The first use of a page read ahead is a swap-in too (do_swap_page finds it in the swap
  // cache). 3 frames, page_cluster 1 (windows of slots [1, 3), [3, 5), ...), 12 slots:
  //  W0-W5   evict 0 1 2 -> slots 0 1 2                                   {3 4 5}
  //  R1      window slots 1-2: page 2 read ahead; evicts 3 4 -> slots 3 4, 5 in use
  //  W2      its first use, by a write: write and write_fault free its slot (4 in use)
  const auto ahead = [&](Params p) {
    p.set("frames", std::int64_t{3});
    p.set("page_cluster", std::int64_t{1});
    const Result r = simulate(text("W 0\nW 1\nW 2\nW 3\nW 4\nW 5\nR 1\nW 2\n"), "lru", p);
    CHECK(r.total.readahead_used == 1);
    return r.swap_slots_used;
  };
  CHECK(ahead({}) == 5);
  CHECK(ahead(mode("write_fault")) == 4);
  CHECK(ahead(mode("write")) == 4);
}

TEST_CASE("a swap-in's slot is judged and freed once its read has completed") {
  // Process 1 writes pages 0-3 and reads 0 again; process 2 writes page 10 (b) once. Their
  // lifetimes overlap in the trace, so they run round robin: 3 frames, LRU, no readahead,
  // nvme, 4 swap slots (vm_swap_full: more than 2 in use), the lowest free slot first.
  //  P1  W0 W1 W2     {0 1 2}
  //      W3           evicts 0 -> slot 0 (1 in use)                         {1 2 3}
  //      R0           evicts 1 -> slot 1 (2 in use); reads slot 0 and waits {2 3 0}
  //  P2  Wb           evicts 2 -> slot 2 (3 in use); P2 ends                {3 0 b}
  //  P1  its read done: do_swap_page judges vm_swap_full now, 3 > 2: page 0's slot is freed
  // 2 slots in use at the end. Judged at the fault (2 in use), the slot would stay: 3.
  TraceBuilder b;
  for (std::uint64_t v = 0; v < 4; ++v) b.add(1, v, true);
  b.add(2, 10, true);
  b.add(1, 0, false);
  const Trace t = std::move(b).build();
  Params p{{"frames", std::int64_t{3}},
           {"page_cluster", std::int64_t{0}},
           {"swap_slots", std::int64_t{4}},
           {"device", std::string("nvme")}};
  const Result r = simulate(t, "lru", p);
  REQUIRE(r.schedule == "round_robin");
  CHECK(r.total.swap_outs == 3);
  CHECK(r.total.swap_ins == 1);
  CHECK(r.swap_slots_used == 2);
  // In trace order P2's write comes before P1's fault (it evicts page 1, the fault page 2): 3
  // in use at the fault, the slot is freed too.
  p.set("schedule", std::string("static"));
  CHECK(simulate(t, "lru", p).swap_slots_used == 2);
  // Without a device nothing waits: judged at the fault, P2 not yet run (2 in use), kept.
  p.set("schedule", std::string("round_robin"));
  p.set("device", std::string("none"));
  CHECK(simulate(t, "lru", p).swap_slots_used == 3);
}

TEST_CASE("the first use of a readahead page frees its slot as a swap-in does") {
  // 3 frames, LRU, page_cluster 1 (windows of the kernel's offsets [2k, 2k + 2): slots [1, 3),
  // [3, 5), ...; slot 0 alone), no device, 6 swap slots (half: 3). With fewer than 256 slots a
  // swap-out takes the lowest free one.
  //  W0 W1 W2      {0 1 2}
  //  W3 W4 W5      evict 0 1 2 -> slots 0 1 2, used 3                          {3 4 5}
  //  R1 (slot 1)   window slots 1-2: page 2 read ahead; evicts 3 4 -> slots 3 4, used 5;
  //                used 5 > 3: 1's slot freed (4), 1 dirty. LRU: 5 2 1
  //  R2            first use of readahead page 2 (do_swap_page finds it in the swap cache):
  //                used 4 > 3: its slot freed (3), 2 dirty. LRU: 5 1 2
  //  W6            evicts 5 -> slot 1, used 4                                   {1 2 6}
  //  R0 (slot 0)   no readahead; evicts 1 (dirty) -> slot 2, used 5; 0's slot freed (4)
  //  R3 (slot 3)   window slots 3-4: page 4 read ahead; evicts 2 (dirty) -> slot 0, 6 -> slot
  //                5, used 6; 3's slot freed (5). LRU: 0 4 3
  // Every eviction writes: 9. Were page 2's slot kept at R2, evicting it at R3 would write
  // nothing (8).
  const Trace t = text("W 0\nW 1\nW 2\nW 3\nW 4\nW 5\nR 1\nR 2\nW 6\nR 0\nR 3\n");
  const Params p{{"frames", std::int64_t{3}},
                 {"page_cluster", std::int64_t{1}},
                 {"swap_slots", std::int64_t{6}}};
  const Result r = simulate(t, "lru", p);
  CHECK(r.total.faults == 10);
  CHECK(r.total.hits == 1);
  CHECK(r.total.swap_ins == 3);
  CHECK(r.total.readahead_pages == 2);
  CHECK(r.total.readahead_used == 1);
  CHECK(r.total.evictions == 9);
  CHECK(r.total.swap_outs == 9);
  CHECK(r.swap_slots_used == 5);
}

TEST_CASE("readahead pages evicted unused are wasted") {
  // 2 frames, page_cluster 1, no device. Windows: the kernel's offsets [0, 2) less the swap
  // header's, [2, 4), ...: slots [0, 1), [1, 3), [3, 5), ...
  //  W0 W1           resident {0 1}
  //  W2 W3 W4        evict 0 1 2 -> slots 0 1 2  {3 4}
  //  R1              swap-in slot 1, window [1, 3) (not [0, 2), the header's): slot 2 = page
  //                  2 -> readahead; 2 frames needed: LRU evicts 3 (slot 3) and 4 (slot 4)
  //                  {2 1}
  //  W5              evicts LRU: page 2 (readahead, on_fault before 1), unused -> wasted;
  //                  clean, in swap: no write    {1 5}
  const Trace t = text("W 0\nW 1\nW 2\nW 3\nW 4\nR 1\nW 5\n");
  Params p{{"frames", std::int64_t{2}}, {"page_cluster", std::int64_t{1}}};
  const Counters c = simulate(t, "lru", p).total;
  CHECK(c.readahead_pages == 1);
  CHECK(c.readahead_wasted == 1);
  CHECK(c.readahead_used == 0);
  CHECK(c.swap_outs == 5);
  CHECK(c.evictions == 6);
  CHECK(c.evictions_clean == 1);
}

TEST_CASE("readahead windows are the kernel's: aligned offsets, the header's offset 0 left out") {
  // 5 frames, LRU, page_cluster 2, no device. Slot s is the kernel's offset s + 1, and
  // valid_swaphandles aligns windows of 4 on offsets, leaving out the swap header at offset 0:
  // slots [0, 3), [3, 7), [7, 11), ...
  //  W0-W4               resident {0 1 2 3 4}
  //  W5-W12              evict 0-7 -> slots 0-7                {8 9 10 11 12}
  //  R3 (slot 3)         window [3, 7): pages 4 5 6 read ahead (not 0 1 2: slots [0, 4) are
  //                      no window); evicts 8-11 -> slots 8-11. LRU: 12 4 5 6 3
  //  R4 R5 R6            hits, readahead used. LRU: 12 3 4 5 6
  //  R0 (slot 0)         window [0, 3): pages 1 2 read ahead (not 3); evicts 12 -> slot 12,
  //                      3 and 4 (clean, in swap). LRU: 5 6 1 2 0
  //  R1 R2               hits, readahead used.
  const Trace t = text(
      "W 0\nW 1\nW 2\nW 3\nW 4\nW 5\nW 6\nW 7\nW 8\nW 9\nW 10\nW 11\nW 12\n"
      "R 3\nR 4\nR 5\nR 6\nR 0\nR 1\nR 2\n");
  Params p{{"frames", std::int64_t{5}}, {"page_cluster", std::int64_t{2}}};
  const Counters c = simulate(t, "lru", p).total;
  CHECK(c.faults == 15);
  CHECK(c.hits == 5);
  CHECK(c.swap_ins == 2);
  CHECK(c.readahead_pages == 5);
  CHECK(c.readahead_used == 5);
  CHECK(c.readahead_wasted == 0);
  CHECK(c.swap_outs == 13);
  CHECK(c.evictions == 15);
}

// A readahead story told step by step: appends each step's accesses to `body` in turn and
// checks the readahead pages of an LRU run of it with `p` after each (the running total).
void check_readahead_steps(std::string& body,
                           const std::vector<std::pair<std::string, std::uint64_t>>& steps,
                           const Params& p) {
  for (const auto& [accesses, readahead] : steps) {
    body += accesses;
    CAPTURE(accesses);
    CHECK(simulate(text(body), "lru", p).total.readahead_pages == readahead);
  }
}

TEST_CASE("adaptive swap readahead: the window follows the readahead hits (swapin_nr_pages)") {
  // 16 frames, LRU, page_cluster 3 (at most 8), swap_readahead adaptive, no device. Offset o
  // is the kernel's (slot o - 1). The state: hits since the last swap-in, prev_offset (the
  // last swap-in without hits), the last window; all 0 at first.
  //  W0-W15, R100-R115  evict 0-15 -> slots 0-15 (offsets 1-16); LRU: 100 .. 115
  //  R5 (offset 6)      no hits, 6 is not next to prev_offset 0: window 1, no readahead;
  //                     prev_offset 6, last 1. Evicts 100
  //  R4 (offset 5)      no hits, next to 6: window 2 (at least 1 / 2), offsets [4, 6) =
  //                     slots 3 4: page 3 read ahead. prev_offset 5, last 2. Evicts 101 102
  //  R3                 a hit on a readahead page: hits 1
  //  R8 (offset 9)      hits 1: 1 + 2 = 3, rounded up to 4 (at least 4, at most 8, at least
  //                     2 / 2): offsets [8, 12) = slots 7-10: pages 7 9 10 read ahead;
  //                     prev_offset stays 5, last 4. Evicts 103-106
  //  R7 R9 R10          hits: 3
  //  R12 (offset 13)    hits 3: 5 -> 8: offsets [8, 16) = slots 7-14: 7-10 are resident,
  //                     pages 11 13 14 read ahead; last 8. Evicts 107-110
  //  R0 (offset 1)      no hits, not next to 5: 1, but at least 8 / 2 = 4 (not too fast):
  //                     offsets [0, 4) less the header's = slots 0-2: pages 1 2 read ahead;
  //                     prev_offset 1, last 4. Evicts 111-113
  //  R15 (offset 16)    no hits, not next to 1: 1, at least 4 / 2 = 2: offsets [16, 18) =
  //                     slots 15 16; slot 16 is free: nothing read ahead. Evicts 114
  std::string body;
  for (int v = 0; v < 16; ++v) body += "W " + std::to_string(v) + "\n";
  for (int v = 100; v < 116; ++v) body += "R " + std::to_string(v) + "\n";
  const std::vector<std::pair<std::string, std::uint64_t>> steps = {
      {"R 5\n", 0},  {"R 4\n", 1}, {"R 3\n", 1}, {"R 8\n", 4}, {"R 7\nR 9\nR 10\n", 4},
      {"R 12\n", 7}, {"R 0\n", 9}, {"R 15\n", 9}};
  Params p{{"frames", std::int64_t{16}},
           {"page_cluster", std::int64_t{3}},
           {"swap_readahead", std::string("adaptive")}};
  check_readahead_steps(body, steps, p);
  const Counters c = simulate(text(body), "lru", p).total;
  CHECK(c.faults == 16 + 16 + 6);
  CHECK(c.hits == 4);
  CHECK(c.swap_ins == 6);
  CHECK(c.readahead_used == 4);  // 11 13 14 1 2 stay resident, unused
  CHECK(c.readahead_wasted == 0);
  CHECK(c.swap_outs == 16);
  CHECK(c.evictions == 16 + 1 + 2 + 4 + 4 + 3 + 1);
  // The kernel's fixed windows of 8 read far more here: slot 5's fault alone reads slots 0-4
  // and 6.
  p.set("swap_readahead", std::string("fixed"));
  CHECK(simulate(text(body), "lru", p).total.readahead_pages > 9);
}

TEST_CASE("adaptive swap readahead passes over a free slot; fixed stops at it") {
  // 8 frames, LRU, page_cluster 2, trace order, free_on_exit. Process 2's page x goes to swap
  // between process 1's pages; its exit frees the slot.
  //  1:W a0-a2, 2:W x, 1:W a3-a5   7 pages in 8 frames
  //  1:R c0-c7                     c1-c7 evict a0 a1 a2 x a3 a4 a5 -> slots 0-6
  //  2:R y                         evicts c0; process 2 exits: x's slot 3 is free, y's frame
  // adaptive (the state as in the test above):
  //  1:R a0 (offset 1)   no hits; 1 is next to prev_offset 0: window 2, offsets [0, 2) less
  //                      the header's = slot 0: nothing read ahead (the free frame)
  //  1:R a1 (offset 2)   next to 1: window 2, offsets [2, 4) = slots 1 2: a2 read ahead;
  //                      evicts c1 c2
  //  1:R a2              a hit: hits 1
  //  1:R a3 (offset 5)   hits 1: window 4, offsets [4, 8) = slots 3-6: slot 3 is free and
  //                      passed over, a4 a5 read ahead; evicts c3-c5
  //  1:R a4 1:R a5       hits
  // fixed: 1:R a0 reads window [0, 3), a1 a2 ahead (evicts c1 c2); R a1 and R a2 are hits;
  // R a3's window [3, 7) starts at free slot 3: nothing read ahead, and R a4, R a5 fault too.
  const Trace t = text(
      "1 W 0\n1 W 1\n1 W 2\n2 W 0\n1 W 3\n1 W 4\n1 W 5\n"
      "1 R 100\n1 R 101\n1 R 102\n1 R 103\n1 R 104\n1 R 105\n1 R 106\n1 R 107\n2 R 1\n"
      "1 R 0\n1 R 1\n1 R 2\n1 R 3\n1 R 4\n1 R 5\n");
  Params p{{"frames", std::int64_t{8}},
           {"page_cluster", std::int64_t{2}},
           {"schedule", std::string("static")},
           {"free_on_exit", true},
           {"swap_readahead", std::string("adaptive")}};
  const Counters a = simulate(t, "lru", p).total;
  CHECK(a.swap_ins == 3);
  CHECK(a.readahead_pages == 3);
  CHECK(a.readahead_used == 3);
  CHECK(a.hits == 3);
  CHECK(a.faults == 19);
  p.set("swap_readahead", std::string("fixed"));
  const Counters f = simulate(t, "lru", p).total;
  CHECK(f.swap_ins == 4);
  CHECK(f.readahead_pages == 2);
  CHECK(f.readahead_used == 2);
  CHECK(f.hits == 2);
  CHECK(f.faults == 20);
}

// The start of the VMA story below: W0 W8 W1 W9 .. W7 W15, then R100-R115 evict them in that
// order (16 frames, LRU): vpn v < 8 goes to slot 2v, v >= 8 to slot 2(v - 8) + 1.
std::string vma_story_start() {
  std::string body;
  for (int v = 0; v < 8; ++v)
    body += "W " + std::to_string(v) + "\nW " + std::to_string(v + 8) + "\n";
  for (int v = 100; v < 116; ++v) body += "R " + std::to_string(v) + "\n";
  return body;
}

TEST_CASE("VMA swap readahead reads the faulting page's neighbours in its address space") {
  // 16 frames, LRU, page_cluster 3 (at most 8), swap_readahead vma, nvme with 1 ms a step
  // (every IO done before the next access). The VMA's state: the vpn of its last swap-in or
  // readahead hit (prev), its last window, its hits since that swap-in; all 0 at first.
  //  W0 W8 W1 W9 .. W7 W15,   evict the pages in that order: vpn v < 8 to slot 2v, v >= 8 to
  //  R100-R115                slot 2(v - 8) + 1. LRU: 100 .. 115
  //  R5 (slot 10)  no hits, 5 is not next to prev 0: window 1, nothing read ahead; prev 5,
  //                window 1. Evicts 100. 1 read
  //  R4 (slot 8)   no hits, next to 5 (backward): window 2, vpns [3, 5): 3 (slot 6) read
  //                ahead; prev 4, window 2. Evicts 101 102. 2 reads (slots 6 and 8 apart)
  //  R3            a readahead hit: hits 1, prev 3
  //  R10 (slot 5)  hits 1: 3, rounded up to 4; not next to 3: centred, (4 - 1) / 2 = 1 before:
  //                vpns [9, 13): 9 11 12 (slots 3 7 9) read ahead. Evicts 103-106. 4 reads
  //  R11 R12       readahead hits: hits 2, prev 12
  //  R13 (slot 11) hits 2: 4; next to 12 (forward): vpns [13, 17): 14 15 (slots 13 15) read
  //                ahead (16 is no page: a none pte). Evicts 107-109. 3 reads
  //  R0 (slot 0)   no hits, not next to 13: 1, but at least 4 / 2 = 2: centred, 0 before:
  //                vpns [0, 2): 1 (slot 2) read ahead. Evicts 110 111. 2 reads
  std::string body = vma_story_start();
  const std::vector<std::pair<std::string, std::uint64_t>> steps = {
      {"R 5\n", 0},        {"R 4\n", 1},  {"R 3\n", 1}, {"R 10\n", 4},
      {"R 11\nR 12\n", 4}, {"R 13\n", 6}, {"R 0\n", 7}};
  Params p{{"frames", std::int64_t{16}},
           {"page_cluster", std::int64_t{3}},
           {"swap_readahead", std::string("vma")},
           {"device", std::string("nvme")},
           {"cpu_ns", std::int64_t{1'000'000}}};
  check_readahead_steps(body, steps, p);
  const Result r = simulate(text(body), "lru", p);
  CHECK(r.total.faults == 16 + 16 + 5);
  CHECK(r.total.hits == 3);
  CHECK(r.total.swap_ins == 5);
  CHECK(r.total.readahead_used == 3);  // 9 14 15 1 stay resident, unused
  CHECK(r.total.swap_outs == 16);
  CHECK(r.total.evictions == 16 + 1 + 2 + 4 + 3 + 2);
  CHECK(r.device_stats.reads == 1 + 2 + 4 + 3 + 2);
  CHECK(r.device_stats.pages_read == 12);
  // Windows of slots read other pages: under fixed, R5's window (slots 7-14) reads vpns 11 4
  // 12 13 6 14 7 ahead, R4 hits, R3's (slots 0-6) reads 0 8 1 9 2 10, and the rest hit.
  p.set("swap_readahead", std::string("fixed"));
  CHECK(simulate(text(body), "lru", p).device_stats.reads == 2);
}

TEST_CASE("VMA swap readahead: at most 32 pages, within the faulting page's page table") {
  // 96 frames, LRU, page_cluster 7 (2^7 = 128, but SWAP_RA_ORDER_CEILING caps the window at
  // 2^5 = 32), swap_readahead vma, no device. One process writes vpns 480-575 (across the page
  // tables of vpns 0-511 and 512-1023), R1000-R1095 evict them. Then a forward stream, each
  // window's readahead pages used before the next fault (hits + 2 rounded up to 4, 8, ...):
  //  R480          window 1 (not next to prev 0)
  //  R481          next to 480, no hits: 2, [481, 483): 482            readahead 1
  //  R483          1 hit: 4, [483, 487): 484-486                         4
  //  R487          3 hits: 8, [487, 495): 488-494                        11
  //  R495          7 hits: 16, [495, 511): 496-510                       26
  //  R511          15 hits: 32, [511, 543), cut at the page table's end 512: nothing
  //  R512          no hits, next to 511: 2, at least 32 / 2: 16, [512, 528): 513-527   41
  //  R528          15 hits: 32 (not 128), [528, 560): 529-559            72
  std::string body;
  for (int v = 480; v < 576; ++v) body += "W " + std::to_string(v) + "\n";
  for (int v = 1000; v < 1096; ++v) body += "R " + std::to_string(v) + "\n";
  const auto reads = [](int from, int to) {
    std::string s;
    for (int v = from; v <= to; ++v) s += "R " + std::to_string(v) + "\n";
    return s;
  };
  const std::vector<std::pair<std::string, std::uint64_t>> steps = {
      {"R 480\n", 0},        {"R 481\n", 1},  {reads(482, 482), 1},  {"R 483\n", 4},
      {reads(484, 486), 4},  {"R 487\n", 11}, {reads(488, 494), 11}, {"R 495\n", 26},
      {reads(496, 510), 26}, {"R 511\n", 26}, {"R 512\n", 41},       {reads(513, 527), 41},
      {"R 528\n", 72}};
  Params p{{"frames", std::int64_t{96}},
           {"page_cluster", std::int64_t{7}},
           {"swap_readahead", std::string("vma")}};
  check_readahead_steps(body, steps, p);
  const Counters c = simulate(text(body), "lru", p).total;
  CHECK(c.faults == 96 + 96 + 8);
  CHECK(c.swap_ins == 8);
  CHECK(c.hits == 1 + 3 + 7 + 15 + 15);
  CHECK(c.readahead_used == 41);
  CHECK(c.evictions == 96 + 8 + 72);
}

TEST_CASE("swap_readahead auto picks what Linux 4.15 to 6.x picks for the device") {
  // On the trace of the VMA story above, where the three windows read different pages: auto is
  // adaptive on a disk, vma on flash and without a device, and on zram the page alone
  // (page_cluster 0), whatever page_cluster says, its slot freed at the swap-in.
  std::string body = vma_story_start();
  body += "R 5\nR 4\nR 3\nR 10\nR 11\nR 12\nR 13\nR 0\n";
  const Trace t = text(body);
  const auto run = [&](const std::string& device, const std::string& readahead,
                       std::int64_t page_cluster) {
    const Params p{{"frames", std::int64_t{16}},
                   {"page_cluster", page_cluster},
                   {"swap_readahead", readahead},
                   {"device", device},
                   {"cpu_ns", std::int64_t{1'000'000}}};
    const Result r = simulate(t, "lru", p);
    return std::vector<std::uint64_t>{r.total.readahead_pages, r.total.faults, r.device_stats.reads,
                                      r.device_stats.pages_read,
                                      static_cast<std::uint64_t>(r.time.elapsed_ns)};
  };
  const std::vector<std::pair<std::string, std::string>> expected = {{"hdd-2002", "adaptive"},
                                                                     {"hdd-laptop", "adaptive"},
                                                                     {"ssd-sata", "vma"},
                                                                     {"nvme", "vma"},
                                                                     {"none", "vma"}};
  for (const auto& [device, readahead] : expected) {
    CAPTURE(device);
    CHECK(run(device, "auto", 3) == run(device, readahead, 3));
    for (const char* other : {"fixed", "adaptive", "vma"}) {
      if (other != readahead) CHECK(run(device, other, 3)[0] != run(device, readahead, 3)[0]);
    }
  }
  CHECK(run("zram", "auto", 3)[0] == 0);
  CHECK(run("zram", "vma", 3)[0] == 7);
  // zram reads the page outside the swap cache and frees its slot: the 8 pages swapped back in
  // (5 4 3 10 11 12 13 0, each alone) keep none; with the slots kept all 16 stay in use (the
  // pages evicted meanwhile, 100-107, were never written and take none).
  Params zram{{"frames", std::int64_t{16}},
              {"swap_readahead", std::string("auto")},
              {"device", std::string("zram")}};
  const Result freed = simulate(t, "lru", zram);
  CHECK(freed.swap_slots_used == 16 - 8);
  zram.set("free_slot_on_swapin", false);
  const Result kept = simulate(t, "lru", zram);
  CHECK(kept.swap_slots_used == 16);
  zram.set("swap_readahead", std::string("fixed"));
  zram.set("page_cluster", std::int64_t{0});
  CHECK(simulate(t, "lru", zram).total == kept.total);
  zram.set("free_slot_on_swapin", true);
  CHECK(simulate(t, "lru", zram).total == freed.total);
}

TEST_CASE("swap_readahead is validated") {
  Params p{{"frames", std::int64_t{1}}, {"swap_readahead", std::string("cluster")}};
  CHECK_THROWS_WITH_AS(simulate(text("R 1\n"), "lru", p), doctest::Contains("swap_readahead"),
                       ConfigError);
}

TEST_CASE("device parameters are validated and overridable") {
  const Trace t = text("R 1\n");
  const auto with = [&](const char* key, Params::Value v) {
    Params p{{"frames", std::int64_t{1}}, {"device", std::string("hdd-2002")}};
    p.set(key, std::move(v));
    return simulate(t, "lru", p);
  };
  CHECK_THROWS_WITH_AS(with("device", std::string("floppy")), doctest::Contains("hdd-2002"), ConfigError);
  CHECK_THROWS_WITH_AS(with("device_seek_ms", -1.0), doctest::Contains("device_seek_ms"), ConfigError);
  CHECK_THROWS_WITH_AS(with("device_track_seek_ms", 9.0), doctest::Contains("track-to-track"), ConfigError);
  CHECK_THROWS_WITH_AS(with("io_scheduler", std::string("cfq")), doctest::Contains("read_priority"), ConfigError);
  CHECK_THROWS_WITH_AS(with("io_scheduler", std::string("cfq")), doctest::Contains("deadline"),
                       ConfigError);
  CHECK_THROWS_WITH_AS(with("io_fifo_batch", std::int64_t{-1}), doctest::Contains("io_fifo_batch"),
                       ConfigError);
  CHECK_THROWS_WITH_AS(with("io_read_expire_ms", -1.0), doctest::Contains("io_read_expire_ms"),
                       ConfigError);
  CHECK_THROWS_WITH_AS(with("device_sek_ms", 1.0), doctest::Contains("device_seek_ms"), ConfigError);
  CHECK(with("device_seek_ms", 20.0).device == "hdd-2002");
}

}  // namespace
}  // namespace pagesim::test
