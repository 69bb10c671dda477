// Reference strings traced by hand, with the memory state after each access in comments.
#include <doctest/doctest.h>

#include <map>

#include "helpers.hpp"

namespace pagesim::test {
namespace {

const std::vector<std::uint64_t> kBelady = {1, 2, 3, 4, 1, 2, 5, 1, 2, 3, 4, 5};

TEST_CASE("FIFO shows Belady's anomaly: 9 faults at 3 frames, 10 at 4") {
  // 3 frames, queue oldest..newest, * = fault:
  // 1* [1] 2* [1 2] 3* [1 2 3] 4* [2 3 4] 1* [3 4 1] 2* [4 1 2] 5* [1 2 5]
  // 1 hit, 2 hit, 3* [2 5 3] 4* [5 3 4] 5 hit                       -> 9 faults
  // 4 frames:
  // 1* 2* 3* 4* [1 2 3 4] 1 hit 2 hit 5* [2 3 4 5] 1* [3 4 5 1] 2* [4 5 1 2]
  // 3* [5 1 2 3] 4* [1 2 3 4] 5* [2 3 4 5]                          -> 10 faults
  const Trace t = pages_trace(kBelady);
  CHECK(run(t, "fifo", 3).faults == 9);
  CHECK(run(t, "fifo", 4).faults == 10);
}

TEST_CASE("LRU: 10 faults at 3 frames, 8 at 4") {
  // 3 frames, LRU..MRU:
  // 1* 2* 3* [1 2 3] 4* [2 3 4] 1* [3 4 1] 2* [4 1 2] 5* [1 2 5] 1 [2 5 1] 2 [5 1 2]
  // 3* [1 2 3] 4* [2 3 4] 5* [3 4 5]                                 -> 10 faults
  // 4 frames:
  // 1* 2* 3* 4* [1 2 3 4] 1 [2 3 4 1] 2 [3 4 1 2] 5* [4 1 2 5] 1 [4 2 5 1] 2 [4 5 1 2]
  // 3* [5 1 2 3] 4* [1 2 3 4] 5* [2 3 4 5]                           -> 8 faults
  const Trace t = pages_trace(kBelady);
  CHECK(run(t, "lru", 3).faults == 10);
  CHECK(run(t, "lru", 4).faults == 8);
}

TEST_CASE("Belady's MIN: 7 faults at 3 frames, 6 at 4") {
  // 3 frames: 1* 2* 3* [1 2 3] 4*: next uses 1@4 2@5 3@9 -> evict 3 [1 2 4] 1 2
  // 5*: next uses 1@7 2@8 4@10 -> evict 4 [1 2 5] 1 2
  // 3*: 1 and 2 never again; both clean -> lowest page id, 1 [2 5 3]
  // 4*: 2 never again -> evict 2 [5 3 4] 5 hit                        -> 7 faults
  // 4 frames: 1* 2* 3* 4* 1 2 5*: next uses 1@7 2@8 3@9 4@10 -> evict 4 [1 2 3 5]
  // 1 2 3 4*: 1 2 3 never again -> evict 1 [2 3 5 4] 5 hit            -> 6 faults
  const Trace t = pages_trace(kBelady);
  CHECK(run(t, "belady", 3).faults == 7);
  CHECK(run(t, "belady", 4).faults == 6);
}

TEST_CASE("CLOCK on the Belady string: 9 faults at 3 frames, 10 at 4") {
  // Circle [slot0 slot1 slot2], ' = referenced bit set, ^ = hand. New pages enter referenced.
  // 1* 2* 3* [1' 2' 3'] ^0
  // 4*: sweep clears 1 2 3, back at slot0: 1 clear -> evict 1 [4' 2 3] ^1
  // 1*: 2 clear -> evict [4' 1' 3] ^2;  2*: 3 clear -> evict [4' 1' 2'] ^0
  // 5*: clears 4 1 2, evicts 4 [5' 1 2] ^1;  1 hit [5' 1' 2];  2 hit [5' 1' 2']
  // 3*: 1 cleared, 2 cleared, 5 cleared, 1 evicted [5 3' 2] ^2
  // 4*: 2 clear -> evict [5 3' 4'] ^0;  5 hit [5' 3' 4']              -> 9 faults
  // (CLOCK degenerates to FIFO here: every page is referenced when the hand arrives.)
  const Trace t = pages_trace(kBelady);
  CHECK(run(t, "clock", 3).faults == 9);
  CHECK(run(t, "clock", 4).faults == 10);
}

TEST_CASE("CLOCK gives a second chance to a page referenced since the last sweep") {
  // 3 frames. 1* 2* 3* [1' 2' 3'] ^0
  // 4*: clears 1 2 3, evicts 1 -> [4' 2 3] ^1;  2 hit -> [4' 2' 3]
  // 5*: 2 referenced: cleared, passed over; 3 clear -> evicted -> [4' 2 5'] ^0;  2 hit
  //                                                                  -> 5 faults
  // FIFO evicts 2 at page 5's fault, being older than 3, and faults on the last access:
  // 1* 2* 3* 4* [2 3 4] 2 5* [3 4 5] 2* [4 5 2]                      -> 6 faults
  const Trace t = pages_trace({1, 2, 3, 4, 2, 5, 2});
  CHECK(run(t, "clock", 3).faults == 5);
  CHECK(run(t, "fifo", 3).faults == 6);
}

TEST_CASE("CLOCK's hand over groups of four frames and single frames at the circle's end") {
  // 6 frames: the hand tests frames 0-3, 1-4 and 2-5 four at a time, frames 3-5 one by one
  // (a group would wrap). Circle [f0 .. f5], ' = referenced, ^ = hand.
  // 1* .. 6* [1' 2' 3' 4' 5' 6'] ^0;  1 2 hits
  // 7*:  group f0-f3 all referenced: cleared, ^4; f4 5' cleared, f5 6' cleared, ^0;
  //      group f0-f3 none referenced: evict 1 (f0) [7' 2 3 4 5 6] ^1
  // 3 hit [7' 2 3' 4 5 6]
  // 8*:  group f1-f4 = 2 3' 4 5: 2 is the first clear: evict 2 [7' 8' 3' 4 5 6] ^2
  // 9*:  group f2-f5 = 3' 4 5 6: clear 3, evict 4 (f3) [7' 8' 3 9' 5 6] ^4
  // 3 hit [7' 8' 3' 9' 5 6]
  // 4*:  f4 5 clear: evict 5 [7' 8' 3' 9' 4' 6] ^5
  // 10*: f5 6 clear: evict 6 [7' 8' 3' 9' 4' 10'] ^0
  // 11*: group f0-f3 all referenced: cleared, ^4; f4 4' cleared, f5 10' cleared, ^0;
  //      group f0-f3 none referenced: evict 7 [11' 8 3 9 4 10] ^1
  // 8 hit [11' 8' 3 9 4 10]
  // 12*: group f1-f4 = 8' 3 9 4: clear 8, evict 3 [11' 8 12' 9 4 10] ^3
  // 13*: f3 9 clear: evict 9 [11' 8 12' 13' 4 10] ^4
  // 3*:  f4 4 clear: evict 4 [11' 8 12' 13' 3' 10] ^5;  8 hit           -> 15 faults
  // FIFO (no second chance) faults on the 3 after 9 and on the last 8, and hits the last 3:
  // 1*-6* 7* 8* 9* 3* 4* 10* 11* 12* 13* 8*                           -> 16 faults
  const Trace t =
      pages_trace({1, 2, 3, 4, 5, 6, 1, 2, 7, 3, 8, 9, 3, 4, 10, 11, 8, 12, 13, 3, 8});
  CHECK(run(t, "clock", 6).faults == 15);
  CHECK(run(t, "fifo", 6).faults == 16);
}

TEST_CASE("a written page costs a swap-out when evicted, a read-only one does not") {
  // 1 frame. W1* [1 dirty]; R2*: evict 1 dirty -> swap-out (slot 0), [2 clean]
  // R1*: evict 2 clean (no IO), 1 is swapped in from its slot (major, swap-in)
  // R2*: evict 1 clean: it still has its slot (swap cache), so no write. 2 was evicted clean
  //      without a swap copy: major fault with nothing to read (zero refill).
  const Trace t = text("W 1\nR 2\nR 1\nR 2\n");
  const Counters c = run(t, "lru", 1);
  CHECK(c.faults == 4);
  CHECK(c.minor_faults == 2);
  CHECK(c.major_faults == 2);
  CHECK(c.swap_ins == 1);
  CHECK(c.zero_refills == 1);
  CHECK(c.swap_outs == 1);
  CHECK(c.evictions == 3);
  CHECK(c.evictions_dirty == 1);
  CHECK(c.evictions_clean == 2);
}

TEST_CASE("page_stats: FIFO's faults, evictions and writes page by page on Belady's string") {
  // W1 R2 W3 R4 R1 R2 R5 R1 R2 R3 R4 R5, FIFO, 3 frames (the anomaly test's states):
  // 1* 2* 3* [1 2 3]; R4*: evict 1, dirty: written (swap-out) [2 3 4];
  // R1*: 1 swapped in (major), clean with its slot; evict 2 (clean, never written) [3 4 1];
  // R2*: major (a zero refill); evict 3, dirty: written [4 1 2];
  // R5*: minor; evict 4 (clean) [1 2 5]; 1, 2 hits;
  // R3*: swapped in; evict 1: clean, its slot still holds it: no write [2 5 3];
  // R4*: major (zero refill); evict 2 (clean) [5 3 4]; 5 hit.
  // Per page (faults, major, evictions, writes): 1 (2, 1, 2, 1), 2 (2, 1, 2, 0),
  // 3 (2, 1, 1, 1), 4 (2, 1, 1, 0), 5 (1, 0, 0, 0); 3, 4 and 5 resident at the end.
  // Accesses: 1 and 2 three each, 3, 4 and 5 two each.
  const Trace t = text("W 1\nR 2\nW 3\nR 4\nR 1\nR 2\nR 5\nR 1\nR 2\nR 3\nR 4\nR 5\n");
  const Result r = simulate(
      t, "fifo", testing::textbook(Params{{"frames", std::int64_t{3}}, {"page_stats", true}}));
  REQUIRE(static_cast<bool>(r.pages));
  const PageStats& s = *r.pages;
  struct Want {
    std::uint64_t accesses, faults, major, evictions, writes;
  };
  const std::map<std::uint64_t, Want> want = {{1, {3, 2, 1, 2, 1}},
                                              {2, {3, 2, 1, 2, 0}},
                                              {3, {2, 2, 1, 1, 1}},
                                              {4, {2, 2, 1, 1, 0}},
                                              {5, {2, 1, 0, 0, 0}}};
  REQUIRE(s.faults.size() == 5);
  for (PageId p = 0; p < 5; ++p) {
    CAPTURE(s.vpn[p]);
    const Want& w = want.at(s.vpn[p]);
    CHECK(s.accesses[p] == w.accesses);
    CHECK(s.faults[p] == w.faults);
    CHECK(s.major_faults[p] == w.major);
    CHECK(s.evictions[p] == w.evictions);
    CHECK(s.writes[p] == w.writes);
    CHECK(s.readahead[p] == 0);
    CHECK(r.proc_pids[s.proc[p]] == 0);  // a text trace without pids: pid 0
    CHECK(s.kind[p] == PageKind::kAnon);
  }
  CHECK(r.total.faults == 9);
  CHECK(r.total.swap_outs == 2);
  // The same counters as without page_stats (which replays through the engine's general loop).
  CHECK(run(t, "fifo", 3) == r.total);
  CHECK_FALSE(static_cast<bool>(
      simulate(t, "fifo", testing::textbook(Params{{"frames", std::int64_t{3}}})).pages));
}

TEST_CASE("the swap cache keeps the slot: a clean re-eviction writes nothing, unless the slot is freed") {
  // 1 frame. W1* [1 d]  R2*: swap-out 1 (slot 0)  R1*: swap-in 1, 2 evicted clean
  // R2*: 1 evicted. Swap cache on: 1 is clean with its slot -> no write (1 swap-out total).
  // free_slot_on_swapin: the swap-in freed slot 0 and left 1 dirty -> written again (2).
  // R1*: swap-in again in both cases (with the option: from the new slot).
  const Trace t = text("W 1\nR 2\nR 1\nR 2\nR 1\n");
  const Counters kept = run(t, "fifo", 1);
  CHECK(kept.swap_outs == 1);
  CHECK(kept.swap_ins == 2);
  const Counters freed = run(t, "fifo", 1, Params{{"free_slot_on_swapin", true}});
  CHECK(freed.swap_outs == 2);
  CHECK(freed.swap_ins == 2);
  // A swapped-in page that is written again is rewritten to its slot on eviction.
  const Trace rewrite = text("W 1\nR 2\nW 1\nR 2\n");
  CHECK(run(rewrite, "fifo", 1).swap_outs == 2);
}

TEST_CASE("per-process counters add up to the total and follow the page's owner") {
  // pid 7 writes page 1, pid 9 reads page 1 (a different page: pages are per process).
  // 1 frame: 7:W1* | 9:R1* evicts 7:1 dirty (swap-out charged to pid 7) | 7:R1* evicts 9:1
  // In trace order (several processes are scheduled round-robin by default).
  const Trace t = parse_text_trace("7 W 1\n9 R 1\n7 R 1\n", {4096, true});
  Params p{{"frames", std::int64_t{1}}, {"schedule", std::string("static")}};
  const Result r = simulate(t, "lru", p);
  REQUIRE(r.per_proc.size() == 2);
  CHECK(r.proc_pids == std::vector<std::uint64_t>{7, 9});
  CHECK(r.per_proc[0].accesses == 2);
  CHECK(r.per_proc[0].faults == 2);
  CHECK(r.per_proc[0].swap_outs == 1);
  CHECK(r.per_proc[0].swap_ins == 1);
  CHECK(r.per_proc[1].faults == 1);
  CHECK(r.per_proc[1].evictions_clean == 1);
  Counters sum = r.per_proc[0];
  sum += r.per_proc[1];
  CHECK(sum == r.total);
}

TEST_CASE("a readahead page freed unused at its process's exit is wasted, not used") {
  // pid 1 writes pages 0..31, then reads page 0; pid 2 reads 40 pages. fifo, 16 frames,
  // page_cluster 3, trace order, free_on_exit. Pages 16..31 evict pages 0..15 to slots
  // 0..15. Reading page 0 swaps slot 0 in and reads ahead slots 1..6 (pages 1..6: the
  // kernel's window is offsets 0..7 less the swap header's 0, slots 0..6); the 7 frames come
  // from pages 16..22. pid 1 then exits: pages 1..6, never accessed, are freed.
  TraceBuilder b;
  for (std::uint64_t v = 0; v < 32; ++v) b.add(1, v, true);
  b.add(1, 0, false);
  for (std::uint64_t v = 100; v < 140; ++v) b.add(2, v, false);
  const Trace t = std::move(b).build();
  Params p{
      {"frames", std::int64_t{16}}, {"schedule", std::string("static")}, {"free_on_exit", true}};
  const Result r = simulate(t, "fifo", p);
  CHECK(r.per_proc[0].readahead_pages == 6);
  CHECK(r.per_proc[0].readahead_used == 0);
  CHECK(r.per_proc[0].readahead_wasted == 6);
  CHECK(r.per_proc[0].swap_ins == 1);
  CHECK(r.per_proc[0].swap_outs == 23);  // pages 0..15, then 16..22
}

}  // namespace
}  // namespace pagesim::test
