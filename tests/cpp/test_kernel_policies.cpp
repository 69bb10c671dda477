// Kernel policies (policies/active_inactive.cpp, rmap_aging.cpp, linux24_vscan.cpp,
// linux24_mq.cpp, freebsd.cpp, mglru.cpp): each mechanism traced by hand, the state after each step
// in a comment; expected numbers are worked out in the comments, never copied from a run.
#include <doctest/doctest.h>

#include <initializer_list>
#include <memory>

#include "helpers.hpp"
#include "pagesim/generators.hpp"
#include "random_traces.hpp"

namespace pagesim {
// Test hooks defined beside each policy (the classes themselves are private to their files).
std::int64_t probe_active_inactive(const Policy& policy, PageId page);
std::int64_t probe_rmap_aging(const Policy& policy, PageId page);
std::int64_t probe_mglru(const Policy& policy, PageId page);
std::int64_t probe_freebsd(const Policy& policy, PageId page);
std::int64_t probe_linux24_mq(const Policy& policy, PageId page);
std::int64_t probe_swap_token(const Policy& policy);
}  // namespace pagesim

namespace pagesim::test {
namespace {

// A policy instance replayed through the engine, kept for probing its final state.
struct Replayed {
  std::unique_ptr<Policy> policy;
  Result result;
};

Replayed replay(const Trace& t, const std::string& name, std::int64_t frames, Params params = {}) {
  params.set("frames", frames);
  auto policy = Registry::instance().get(name).make(params);
  Result r = simulate(t, *policy, params, name);
  return {std::move(policy), std::move(r)};
}

// A trace of one pid's pages of one kind from page numbers; access k writes when writes[k]
// (reads where `writes` is shorter).
Trace one_kind_trace(PageKind kind, const std::vector<std::uint64_t>& pages,
                     const std::vector<bool>& writes) {
  TraceBuilder b;
  for (std::size_t k = 0; k < pages.size(); ++k) {
    b.add(1, pages[k], k < writes.size() && writes[k], kind);
  }
  return std::move(b).build();
}

// File pages (read() and write() page cache).
Trace file_trace(const std::vector<std::uint64_t>& pages, const std::vector<bool>& writes = {}) {
  return one_kind_trace(PageKind::kFile, pages, writes);
}

// Anonymous pages.
Trace anon_trace(const std::vector<std::uint64_t>& pages, const std::vector<bool>& writes = {}) {
  return one_kind_trace(PageKind::kAnon, pages, writes);
}

// Drives a policy by hand, playing the engine: page table bits, residency, ticks.
class Driver {
 public:
  Driver(const Trace& trace, const std::string& name, std::size_t frames, Params params)
      : trace_(trace), frames_(frames), bits_(trace.num_pages()) {
    for (PageId p = 0; p < trace.num_pages(); ++p) {
      if (trace.page_kind(p) == PageKind::kFile) bits_[p].set(page_bits::kFile);
    }
    params.set("frames", static_cast<std::int64_t>(frames));
    policy_ = Registry::instance().get(name).make(params);
    policy_->reset(trace.num_pages(), frames);
  }
  // Pages scanned and kept are counted all under process 0 (no page owners in the view).
  PageTableView view() {
    return PageTableView(bits_.data(), &trace_, frames_, &resident_, &scanned_);
  }
  // Faults page p in (no reclaim: the tests keep memory below `frames` when they use this).
  void fault(PageId p, bool write = false) {
    bring_in(p, page_bits::kReferenced | (write ? page_bits::kDirty : 0), access(p, write));
  }
  // Brings page p in by swap readahead: resident, unreferenced (the engine's readahead).
  void read_ahead(PageId p) {
    Access a = access(p, false);
    a.readahead = true;
    bring_in(p, 0, a);
  }
  void touch(PageId p, bool write = false) {
    bits_[p].set(page_bits::kReferenced | (write ? page_bits::kDirty : 0));
    policy_->on_hit(access(p, write), view());
  }
  // Faults page p in from its swap copy (a read).
  void swap_in(PageId p) {
    bits_[p].set(page_bits::kInSwap);
    fault(p);
  }
  // Sets the pte young bit without an on_hit call (a mapped page touched by the CPU).
  void young(PageId p) { bits_[p].set(page_bits::kReferenced); }
  // Clears it (as if a scan had tested it long ago).
  void old(PageId p) { bits_[p].clear(page_bits::kReferenced); }
  // From now on writes take time (a queued device): complete(p) says that the write of page
  // p has completed, which the next reclaim's view lists (PageTableView::written).
  void async_writes() { async_ = true; }
  void complete(PageId p) { completed_.push_back(p); }
  void tick() { policy_->on_tick(now_ += 1'000'000'000, view()); }
  // Its process exits: on_free while the view still shows the page, as the engine does.
  void free(PageId p) {
    policy_->on_free(p, view());
    if (bits_[p].has(page_bits::kResident)) --resident_;
    bits_[p].value = page_bits::kFreed;
  }
  // Pages the policy cleaned (start_writeback) stay resident and clean: written() lists them.
  std::vector<PageId> reclaim(std::size_t want) {
    VictimList out;
    policy_->select_victims(
        want, view().with_incoming(kNoPage, false, &written_, async_ ? &completed_ : nullptr), out);
    completed_.clear();
    for (PageId v : out) {
      bits_[v].clear(page_bits::kResident | page_bits::kDirty | page_bits::kReferenced);
      --resident_;
      policy_->on_evict(v, view());
    }
    return out;
  }
  const Policy& policy() const { return *policy_; }
  std::uint64_t scanned() const { return scanned_; }  // count_scanned's, victims aside
  // The pages written back by the reclaims so far, in order.
  const std::vector<PageId>& written() const { return written_; }

 private:
  void bring_in(PageId p, int bits, const Access& a) {
    bits_[p].set(page_bits::kResident | page_bits::kSeen | bits);
    ++resident_;
    policy_->on_fault(a, view());
  }
  Access access(PageId p, bool write) const {
    Access a;
    a.page = p;
    a.proc = trace_.page_proc(p);
    a.write = write;
    a.kind = trace_.page_kind(p);
    return a;
  }
  const Trace& trace_;
  std::size_t frames_;
  std::vector<PageBits> bits_;
  std::size_t resident_ = 0;
  std::uint64_t scanned_ = 0;
  std::vector<PageId> written_;
  bool async_ = false;
  std::vector<PageId> completed_;
  Tick now_ = 0;
  std::unique_ptr<Policy> policy_;
};

// ---- active_inactive -------------------------------------------------------------------

// probe_active_inactive: list (0 inactive anon, 1 active anon, 2 inactive file, 3 active
// file) + 4 if PG_referenced.
constexpr std::int64_t kInactiveFileRef = 2 + 4;
constexpr std::int64_t kActiveFile = 3;
constexpr std::int64_t kActiveFileRef = 3 + 4;

TEST_CASE("active_inactive: a file readahead page comes in unreferenced; its first read marks it") {
  // File pages F0 F1 = ids 0, 1. F0 faults (add_to_page_cache_lru + mark_page_accessed):
  // inactive, referenced. F1 is read ahead (add_to_page_cache_lru only): inactive,
  // unreferenced. The read that uses F1 (a hit): inactive, referenced; read again at once,
  // it is not marked again (the same page read in succession); after a read of F0 (which
  // activates F0), a read of F1 activates it.
  const Trace t = file_trace({10, 11});
  Driver d(t, "active_inactive", 8, Params{});
  d.fault(0);
  d.read_ahead(1);
  CHECK(probe_active_inactive(d.policy(), 0) == kInactiveFileRef);
  CHECK(probe_active_inactive(d.policy(), 1) == 2);  // inactive file, unreferenced
  d.touch(1);
  CHECK(probe_active_inactive(d.policy(), 1) == kInactiveFileRef);
  d.touch(1);
  CHECK(probe_active_inactive(d.policy(), 1) == kInactiveFileRef);
  d.touch(0);
  d.touch(1);
  CHECK(probe_active_inactive(d.policy(), 0) == kActiveFile);
  CHECK(probe_active_inactive(d.policy(), 1) == kActiveFile);
}

TEST_CASE("active_inactive: a file page is promoted on its second touch, not its first") {
  // Pages: A=0 B=1 (dense ids in order of first touch). mark_page_accessed on every read but
  // one of the page its process read last (do_generic_mapping_read's prev_index).
  // A* inactive,ref   B* inactive,ref   A active,unref (promotion clears PG_referenced)
  // A again at once: not marked, still active,unref
  const Trace t = file_trace({10, 11, 10, 10});
  const auto r = replay(t, "active_inactive", 4);
  CHECK(probe_active_inactive(*r.policy, 1) == kInactiveFileRef);  // B: one touch, still inactive
  CHECK(probe_active_inactive(*r.policy, 0) == kActiveFile);       // A: promoted
  // Read twice in succession, A is marked once: inactive, referenced.
  const auto two = replay(file_trace({10, 10}), "active_inactive", 4);
  CHECK(probe_active_inactive(*two.policy, 0) == kInactiveFileRef);
}

TEST_CASE("active_inactive: a twice-touched page outlives newer once-touched pages") {
  // 3 frames. A B A C D E A (file pages).
  // A* inact[A'] ; B* inact[B' A'] ; A: active[A], inact[B'] ; C* inact[C' B']
  // D*: inactive 2 * ratio 1 < active 1? no -> shrink_page_list on the inactive tail B:
  //     unmapped, so reclaimed although referenced (use-once)        inact[D' C'] act[A]
  // E*: the same for C                                               inact[E' D'] act[A]
  // A: hit.                                                         -> 5 faults
  // LRU: A* B* A C* D* (evicts B) E* (evicts A) A* (evicts C)        -> 6 faults
  const Trace t = file_trace({1, 2, 1, 3, 4, 5, 1});
  CHECK(run(t, "active_inactive", 3).faults == 5);
  CHECK(run(t, "lru", 3).faults == 6);
  // Touched once, A is the oldest inactive page and goes first: A B C D A -> 5 faults.
  CHECK(run(file_trace({1, 2, 3, 4, 1}), "active_inactive", 3).faults == 5);
}

TEST_CASE("active_inactive workingset: a refault within the distance is activated") {
  // 4 frames, file pages A..F = ids 0..5, nonresident_age in braces.
  // A* inact,ref {0}; B* inact[B' A']; A: activate {1} act[A]; C* D* inact[D' C' B']
  // (4 resident)
  // E*: inactive 3 < active 1? no: evict tail B {2}, shadow[B]=2      inact[E' D' C']
  // B*: first reclaim evicts C {3}, shadow[C]=3; refault distance 3-2 = 1
  //     workingset size = active file 1 + active anon 0 + inactive anon 0 = 1
  //     1 <= 1 -> B inserted active {4}, then mark_page_accessed: active,ref
  const Trace t = file_trace({1, 2, 1, 3, 4, 5, 2});
  const auto on = replay(t, "active_inactive", 4, Params{{"workingset", true}});
  CHECK(probe_active_inactive(*on.policy, 1) == kActiveFileRef);
  CHECK(probe_active_inactive(*on.policy, 2) == -1);  // C was the victim
  // Without workingset B comes back inactive (referenced by the faulting read).
  const auto off = replay(t, "active_inactive", 4);
  CHECK(probe_active_inactive(*off.policy, 1) == kInactiveFileRef);
}

TEST_CASE("active_inactive workingset: a refault beyond the distance stays inactive") {
  // As above, one more eviction between B's eviction and its refault:
  // E*: evict B {2} shadow[B]=2; F*: evict C {3}  inact[F' E' D']
  // B*: evict D {4}; distance 4-2 = 2 > workingset size 1 -> inactive (then referenced)
  const Trace t = file_trace({1, 2, 1, 3, 4, 5, 6, 2});
  const auto on = replay(t, "active_inactive", 4, Params{{"workingset", true}});
  CHECK(probe_active_inactive(*on.policy, 1) == kInactiveFileRef);
  CHECK(probe_active_inactive(*on.policy, 3) == -1);  // D was the victim
}

// Hot set: pid 1, 50 file pages, read twice (warm-up). Then a one-time scan of 1000 file pages
// by pid 2, with one hot access after every 2 scanned pages (500 hot accesses, hot page
// k mod 50 at the k-th). 100 frames.
Trace hot_set_and_scan(PageKind hot_kind, PageKind scan_kind) {
  TraceBuilder b;
  for (int round = 0; round < 2; ++round) {
    for (std::uint64_t h = 0; h < 50; ++h) b.add(1, h, false, hot_kind);
  }
  for (std::uint64_t k = 0; k < 500; ++k) {
    b.add(2, 2 * k, false, scan_kind);
    b.add(2, 2 * k + 1, false, scan_kind);
    b.add(1, k % 50, false, hot_kind);
  }
  return std::move(b).build();
}

TEST_CASE("hot set + one-time scan: lru 525 hot-set faults, active_inactive 50") {
  // LRU: the k-th hot access in the scan phase finds 49 other hot pages and 2(k+1) scanned
  // pages used since its previous access; it faults when those are >= 100 frames:
  // 51 + 2k >= 100 <=> k >= 25 (k < 50); for k >= 50: 49 + 100 = 149 -> fault.
  // Hot faults = 50 cold + (500 - 25) = 525.
  // active_inactive: the warm-up activates all 50 hot pages (second touch). The scan fills
  // the other 50 frames with inactive pages; each later scan fault reclaims the inactive
  // tail (a scanned page: unmapped, reclaimed although referenced). inactive 50 * ratio 1
  // < active 50 never holds, so the active list is never scanned: 50 cold faults only.
  const Trace t = hot_set_and_scan(PageKind::kFile, PageKind::kFile);
  Params p = testing::textbook({{"frames", std::int64_t{100}}});
  const Result lru = simulate(t, "lru", p);
  const Result ai = simulate(t, "active_inactive", testing::textbook({{"frames", std::int64_t{100}}}));
  REQUIRE(lru.proc_pids[0] == 1);
  CHECK(lru.per_proc[0].faults == 525);
  CHECK(ai.per_proc[0].faults == 50);
  // The scan costs both the same: 1000 cold faults.
  CHECK(lru.per_proc[1].faults == 1000);
  CHECK(ai.per_proc[1].faults == 1000);
}

TEST_CASE("hot anonymous set + file scan: active_inactive keeps the hot set (swappiness)") {
  // Hot anon pages are inserted active (2.6.20) and their pte young bits keep them there;
  // scanned file pages are never rotated, so get_scan_count's balance scans mostly file:
  // ap = 61 * (scanned_anon+1)/(rotated_anon+1) stays small against fp = 141 * (scanned_file
  // + 1). A hot page is lost only when anon scanning reaches it twice between its accesses.
  // LRU loses it 475 times as above. Bound: fewer than a tenth of LRU's 525.
  const Trace t = hot_set_and_scan(PageKind::kAnon, PageKind::kFile);
  const Result lru = simulate(t, "lru", testing::textbook({{"frames", std::int64_t{100}}}));
  const Result ai = simulate(t, "active_inactive", testing::textbook({{"frames", std::int64_t{100}}}));
  CHECK(lru.per_proc[0].faults == 525);
  CHECK(ai.per_proc[0].faults < 525 / 10);
  CHECK(ai.per_proc[0].faults >= 50);  // the cold faults
}

TEST_CASE("active_inactive: a dirty file page with PG_referenced is kept, not written") {
  // 2.6.20 shrink_page_list: if (PageDirty(page)) { if (referenced) goto keep_locked; ... }
  // File pages, 3 frames; 1 written, 2 3 read, then 4 and 1 again. ' = PG_referenced;
  // inactive file list head..tail; every read() is mark_page_accessed.
  // W1 R2 R3: inactive [3' 2' 1'] (1 dirty). R4: reclaim: tail 1: page_referenced -> true
  //   (clears it), not mapped -> no activation; dirty and referenced -> keep: head, [1 3' 2'].
  //   Tail 2: referenced, but clean -> reclaimed: VICTIM 2. Inactive [4' 1 3'].
  // R1: a hit. Faults 1 2 3 4 = 4, no file write. (Writing 1 out and evicting it, as before,
  // made R1 fault again: 5 faults, 1 file write.)
  TraceBuilder b;
  b.add(1, 1, true, PageKind::kFile);
  for (std::uint64_t p : {2u, 3u, 4u, 1u}) b.add(1, p, false, PageKind::kFile);
  const Counters c = run(std::move(b).build(), "active_inactive", 3);
  CHECK(c.faults == 4);
  CHECK(c.file_writes == 0);
}

// Anonymous pages written (W) or read (R) in this order, inserted inactive and their young
// bits then cleared, under a Driver with writes that take time; pageout=writeback unless
// `params` say otherwise.
Driver old_inactive_pages(const Trace& t, const std::vector<bool>& writes, Params params) {
  if (!params.has("pageout")) params.set("pageout", std::string("writeback"));
  params.set("anon_insert", std::string("inactive"));
  params.set("inactive_ratio", std::int64_t{1});
  Driver d(t, "active_inactive", 8, params);
  d.async_writes();
  for (PageId p = 0; p < writes.size(); ++p) {
    d.fault(p, writes[p]);
    d.old(p);
  }
  return d;
}

TEST_CASE("active_inactive pageout=writeback: a written page stays; its completion rotates it") {
  // 0 W, 1 W, 2 R, 3 R: inactive (head first) [3 2 1 0], every young bit clear.
  //  reclaim: 0 dirty: pageout (written, under writeback), to the head  [0 3 2 1]
  //           1 dirty: pageout, to the head                              [1 0 3 2]
  //           2 clean: the victim                                        [1 0 3]
  //  1's write completes (0's has not): rotate_reclaimable_page          [0 3 1]
  //  reclaim: 1 clean: the victim (not 3, the tail without the rotation)  [0 3]
  //  reclaim: 3 the victim                                               [0]
  //  reclaim: 0, under writeback, kept: as many in a row as the list holds (1), so every page
  //           on it is being written: the page written first, 0, is the victim anyway
  const Trace t = anon_trace({10, 11, 12, 13});
  Driver d = old_inactive_pages(t, {true, true, false, false}, Params{});
  CHECK(d.reclaim(1) == std::vector<PageId>{2});
  CHECK(d.written() == std::vector<PageId>{0, 1});
  CHECK(d.scanned() == 2);  // 0 and 1, kept
  d.complete(1);
  CHECK(d.reclaim(1) == std::vector<PageId>{1});
  CHECK(d.reclaim(1) == std::vector<PageId>{3});
  CHECK(d.reclaim(1) == std::vector<PageId>{0});
  CHECK(d.written() == std::vector<PageId>{0, 1});  // nothing written twice
  CHECK(d.scanned() == 2);

  // pageout=evict (the default): 0 is written as it is evicted, the first victim.
  Driver evict =
      old_inactive_pages(t, {true, true, false, false}, Params{{"pageout", std::string("evict")}});
  CHECK(evict.reclaim(1) == std::vector<PageId>{0});
  CHECK(evict.written().empty());
}

TEST_CASE("active_inactive pageout=writeback: a page touched meanwhile is activated") {
  // 0 W, 1 W, 2 R, 3 R, 4 R: inactive [4 3 2 1 0].
  //  reclaim: 0, 1 written and kept; 2 the victim                        [1 0 4 3]
  //  0 read (young), 1 written (young, dirty again); both writes complete:
  //  rotate_reclaimable_page: 0 to the tail; 1 dirty, not rotated        [1 4 3 0]
  //  reclaim: 0 referenced and mapped: activated; 3 the victim           [1 4], active [0]
  const Trace t = anon_trace({10, 11, 12, 13, 14});
  Driver d = old_inactive_pages(t, {true, true, false, false, false}, Params{});
  CHECK(d.reclaim(1) == std::vector<PageId>{2});
  d.touch(0);
  d.touch(1, true);
  d.complete(0);
  d.complete(1);
  CHECK(d.reclaim(1) == std::vector<PageId>{3});
  CHECK(probe_active_inactive(d.policy(), 0) == 1);  // active anon
  CHECK(probe_active_inactive(d.policy(), 1) == 0);  // inactive anon
  CHECK(probe_active_inactive(d.policy(), 4) == 0);
  //  reclaim: 4 the victim                                               [1]
  //  reclaim: 1 referenced: activated, not written again                 [], active [1 0]
  //           inactive empty: 0, not referenced since, deactivated        [0], active [1]
  //           0 the victim
  CHECK(d.reclaim(1) == std::vector<PageId>{4});
  CHECK(d.reclaim(1) == std::vector<PageId>{0});
  CHECK(probe_active_inactive(d.policy(), 1) == 1);
  CHECK(d.written() == std::vector<PageId>{0, 1});
}

TEST_CASE("active_inactive pageout=writeback on a device: freed once its write completes") {
  // W A, R B, R C, R D, R E, R F, 8 hits (E D E D ...), R G: anonymous pages 0-6, 4 frames,
  // inserted inactive, inactive_ratio 1; nvme, a write 1000 ns a page, 100 ns an access (#k
  // faults at (k + 1) * 100). Inactive (head first), active:
  //  #4 E at 500: A B C D referenced: activated in turn and A, B deactivated as the inactive
  //     list runs low                                          [B A], active [D C]
  //     A dirty: pageout, kept (its write 500-1500); B the victim; E   [E A], [D C]
  //  #5 F: A kept; E referenced: activated; C deactivated; A kept; C the victim
  //                                                                    [F A], [E D]
  //  #14 G at 1500: A's write has completed (at 1500): rotated to the tail; A, clean and
  //     not referenced, is the victim. Without the rotation A, still under writeback, would
  //     be kept, and F the victim.
  // pageout=evict: A written as it is evicted at #4; B the victim at #5; at #14 E and F are
  // activated, C deactivated then evicted. The same pages go, A written once either way.
  const Trace t = anon_trace({1, 2, 3, 4, 5, 6, 5, 4, 5, 4, 5, 4, 5, 4, 7}, {true});
  Params params = timed_nvme({{"anon_insert", std::string("inactive")},
                              {"inactive_ratio", std::int64_t{1}},
                              {"page_stats", true},
                              {"pageout", std::string("writeback")}});
  const Replayed writeback = replay(t, "active_inactive", 4, params);
  CHECK(writeback.result.pages->evictions == std::vector<std::uint64_t>{1, 1, 1, 0, 0, 0, 0});
  CHECK(writeback.result.total.writebacks == 1);
  CHECK(writeback.result.total.swap_outs == 1);
  CHECK(writeback.result.total.evictions_clean == 3);
  params.set("pageout", std::string("evict"));
  const Replayed evict = replay(t, "active_inactive", 4, params);
  CHECK(evict.result.pages->evictions == std::vector<std::uint64_t>{1, 1, 1, 0, 0, 0, 0});
  CHECK(evict.result.total.writebacks == 0);
  CHECK(evict.result.total.swap_outs == 1);
  CHECK(evict.result.total.evictions_clean == 2);
}

TEST_CASE("active_inactive: 6.1's inactive_ratio grows with the lists' size") {
  // Anonymous A B C D = ids 0..3 in pages of 256 MiB: the four are 1 GiB, so 6.1's
  // inactive_ratio is int_sqrt(10 * 1) = 3 (1 under 1 GiB, or when fixed at 1).
  // Faults: active [D C B A] (head..tail), all pte young.
  // Reclaim 1: inactive empty -> shrink_active_list from the tail: A, B, C, D referenced ->
  //   rotated (young cleared): [D C B A]; A unreferenced -> inactive [A], active [D C B].
  //   ratio 3: 1 * 3 < 3 no -> shrink_page_list: A -> VICTIM A; B stays active.
  //   ratio 1: 1 * 1 < 3 -> B to inactive [B A]; 2 < 2 no -> VICTIM A; B inactive.
  TraceBuilder b(1u << 28);
  for (std::uint64_t v = 0; v < 4; ++v) b.add(1, v, false);
  const Trace t = std::move(b).build();
  for (const std::int64_t ratio : {0, 1}) {
    CAPTURE(ratio);
    Params params;
    if (ratio != 0) params.set("inactive_ratio", ratio);
    Driver d(t, "active_inactive", 16, params);
    for (PageId p = 0; p < 4; ++p) d.fault(p);
    CHECK(d.reclaim(1) == std::vector<PageId>{0});
    CHECK(probe_active_inactive(d.policy(), 1) == (ratio == 0 ? 1 : 0));  // B active / inactive
  }
  // With 4 KiB pages the same four are far under 1 GiB: ratio 1, B inactive.
  TraceBuilder small;
  for (std::uint64_t v = 0; v < 4; ++v) small.add(1, v, false);
  const Trace t4k = std::move(small).build();
  Driver d(t4k, "active_inactive", 16, Params{});
  for (PageId p = 0; p < 4; ++p) d.fault(p);
  CHECK(d.reclaim(1) == std::vector<PageId>{0});
  CHECK(probe_active_inactive(d.policy(), 1) == 0);
}

TEST_CASE("active_inactive rejects bad parameters") {
  const Trace t = file_trace({1});
  CHECK_THROWS_AS(run(t, "active_inactive", 2, Params{{"swappiness", std::int64_t{201}}}),
                  ConfigError);
  CHECK_THROWS_AS(run(t, "active_inactive", 2, Params{{"inactive_ratio", std::int64_t{-1}}}),
                  ConfigError);
  CHECK_THROWS_AS(run(t, "active_inactive", 2, Params{{"anon_insert", std::string("lru")}}),
                  ConfigError);
  CHECK_THROWS_WITH_AS(
      run(t, "active_inactive", 2, Params{{"swap_token_timeout", std::int64_t{0}}}),
      doctest::Contains("swap_token_timeout"), ConfigError);
}

// ---- active_inactive swap_token --------------------------------------------------------

struct Step {
  std::uint64_t pid;
  std::uint64_t vpn;
  bool write;
};

// Anonymous accesses in this order.
Trace steps_trace(const std::vector<Step>& steps) {
  TraceBuilder b;
  for (const Step& s : steps) b.add(s.pid, s.vpn, s.write);
  return std::move(b).build();
}

// Swap-token runs: trace order, no readahead, one second of CPU per access, so the access at
// position k (from 0) runs at jiffies 1000 (k + 1) (HZ 1000; a tick every jiffy).
Params token_params(std::int64_t frames, Params params = {}) {
  params.set("frames", frames);
  params.set("swap_token", true);
  params.set("cpu_ns", std::int64_t{1'000'000'000});
  return testing::textbook(params);
}

TEST_CASE("active_inactive swap_token: the holder's idle page outlives another process's reclaim") {
  // 3 frames, anon_insert=inactive. A = pid 1 (pages a1 a2), B = pid 2 (b1..b5); every
  // page written first, so each eviction leaves a swap copy. Lists head first; * = young.
  // k0-k2  A W a1, A W a2, B W b1                inactive[b1* a2* a1*]
  // k3 B W b2: inactive tail a1* -> active (bit cleared), a2* -> active; inactive 1 < active
  //        2: active tail a1 -> inactive; b1* -> active; active tail a2 -> inactive; evict a1
  //                                               inactive[b2* a2] active[b1]
  // k4 A R a1 (swap-in): evict a2; a1 in; grab_swap_token: A takes it from init_mm
  //                                               inactive[a1* b2*] active[b1]
  // k5 B W b3: b2* -> active; active tail b1 -> inactive; a1* -> active (young anyway);
  //        active tail b2 -> inactive; evict b1   inactive[b3* b2] active[a1]
  // k6 B W b4: evict b2                           inactive[b4* b3*] active[a1]
  // k7 B W b5 (3 resident, B's reclaim): b3* -> active (scan 1); active tail a1, not young,
  //        but A holds the token: referenced, rotated (scan 2); active tail b3 -> inactive
  //        (3); b4* -> active (4); active tail a1: scan 5 > 3 resident, ignore_token ->
  //        inactive (5); evict b3 (6)             inactive[b5* a1] active[b4]
  //    without the token: a1 -> inactive at scan 2; b4* -> active; b3 -> inactive; evict a1
  // k8 A R a1: a hit with the token; without it a second swap-in (which evicts b3).
  const Trace t = steps_trace({{1, 1, true},
                               {1, 2, true},
                               {2, 1, true},
                               {2, 2, true},
                               {1, 1, false},
                               {2, 3, true},
                               {2, 4, true},
                               {2, 5, true},
                               {1, 1, false}});
  REQUIRE(t.size() == 9);
  const Params inactive{{"anon_insert", std::string("inactive")}};
  const auto on = replay(t, "active_inactive", 3, token_params(3, inactive));
  CHECK(probe_swap_token(*on.policy) == 0);  // A (ProcId 0)
  CHECK(on.result.total.faults == 8);
  CHECK(on.result.per_proc[0].major_faults == 1);
  CHECK(on.result.per_proc[1].major_faults == 0);
  Params off_params = token_params(3, inactive);
  off_params.set("swap_token", false);
  const auto off = replay(t, "active_inactive", 3, off_params);
  CHECK(off.result.total.faults == 9);
  CHECK(off.result.per_proc[0].major_faults == 2);
  CHECK(off.result.per_proc[1].major_faults == 0);
}

// The token's holder (ProcId, -1 for init_mm) after each prefix of `steps`, one frame: every
// access to another page than the last is a fault, and a page written before is a swap-in
// (its copy stays in the swap cache after it is read back).
std::vector<std::int64_t> token_holders(const std::vector<Step>& steps, const Params& params) {
  std::vector<std::int64_t> holders;
  for (std::size_t n = 1; n <= steps.size(); ++n) {
    const std::vector<Step> prefix(steps.begin(), steps.begin() + static_cast<std::ptrdiff_t>(n));
    holders.push_back(
        probe_swap_token(*replay(steps_trace(prefix), "active_inactive", 1, params).policy));
  }
  return holders;
}

TEST_CASE("active_inactive swap_token: the holder keeps it until it times out") {
  // swap_token_timeout 7 s = 7000 jiffies. A = pid 1 (ProcId 0; pages a, a2), B = pid 2 (1; b).
  //  k  jiffies  access    token
  //  0   1000    A W a     init_mm
  //  1   2000    B W b     init_mm (a swapped out)
  //  2   3000    A R a     A: a swap-in, 3000 > check 0, init_mm released: check 5000,
  //                        timeout 10000
  //  3   4000    B R b     A: 4000 <= check 5000
  //  4   5000    A R a     A: the holder pages in: recent_pagein = 1
  //  5   6000    B R b     A: check 8000; A paged in lately, 6000 <= 10000: kept,
  //                        recent_pagein = 0
  //  6   7000    A R a     A: recent_pagein = 1
  //  7   8000    B R b     A: 8000 <= check 8000
  //  8   9000    A R a     A: recent_pagein = 1
  //  9  10000    B R b     A: check 12000; 10000 is not after the timeout 10000: kept
  // 10  11000    A R a     A: recent_pagein = 1
  // 11  12000    A W a2    A: a minor fault
  // 12  13000    A R a     A: recent_pagein = 1
  // 13  14000    B R b     B: check 16000; timed out (14000 > 10000): A may not take it
  //                        again before 14000 + 7000 = 21000; timeout 21000
  // 14  15000    A R a2    B: 15000 <= check 16000
  // 15  16000    A R a     B: 16000 <= check 16000
  // 16  17000    A R a2    B: 17000 < 21000, A held it lately
  // 17-19        A R a, a2, a: the same
  // 20  21000    A R a2    A: check 23000; B has not paged in since it took the token
  const std::vector<Step> steps = {{1, 10, true},  {2, 20, true},  {1, 10, false}, {2, 20, false},
                                   {1, 10, false}, {2, 20, false}, {1, 10, false}, {2, 20, false},
                                   {1, 10, false}, {2, 20, false}, {1, 10, false}, {1, 11, true},
                                   {1, 10, false}, {2, 20, false}, {1, 11, false}, {1, 10, false},
                                   {1, 11, false}, {1, 10, false}, {1, 11, false}, {1, 10, false},
                                   {1, 11, false}};
  const Params params = token_params(1, {{"swap_token_timeout", std::int64_t{7}}});
  CHECK(token_holders(steps, params) ==
        std::vector<std::int64_t>{-1, -1, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 1, 1, 1, 1, 1, 1, 1, 0});
  // All but the three first touches are swap-ins.
  CHECK(replay(steps_trace(steps), "active_inactive", 1, params).result.total.swap_ins == 18);
}

TEST_CASE("active_inactive swap_token: a holder that stops paging in loses it; exit returns it") {
  // The default timeout (300 s) never expires here. A = ProcId 0 (a, a3), B = 1 (b, b2).
  //  k  jiffies  access    token
  //  0-4         A W a, B W b, A R a, B R b, A R a: as in the test above (A holds it, check
  //              5000, recent_pagein = 1)
  //  5   6000    B R b     A: check 8000; A paged in lately: kept, recent_pagein = 0
  //  6   7000    B W b2    A: a minor fault
  //  7   8000    B R b     A: 8000 <= check 8000
  //  8   9000    B R b2    B: check 11000; A has not paged in since k5: released
  //                        (SWAP_TOKEN_ENOUGH_RSS), A may take it again from 9000
  //  9  10000    A R a     B: 10000 <= check 11000
  // 10  11000    B R b     B: recent_pagein = 1
  // 11  12000    A R a     B: check 14000; B paged in lately: kept, recent_pagein = 0
  // 12  13000    A W a3    B: a minor fault
  // 13  14000    A R a     B: 14000 <= check 14000
  // 14  15000    A R a3    A: check 16000; B has not paged in since k11: released
  // 15  16000    B R b     A: 16000 <= check 16000
  const std::vector<Step> steps = {{1, 10, true},  {2, 20, true},  {1, 10, false}, {2, 20, false},
                                   {1, 10, false}, {2, 20, false}, {2, 21, true},  {2, 20, false},
                                   {2, 21, false}, {1, 10, false}, {2, 20, false}, {1, 10, false},
                                   {1, 12, true},  {1, 10, false}, {1, 12, false}, {2, 20, false}};
  const Params params = token_params(1);
  CHECK(token_holders(steps, params) ==
        std::vector<std::int64_t>{-1, -1, 0, 0, 0, 0, 0, 0, 1, 1, 1, 1, 1, 1, 0, 0});
  // With free_on_exit A exits after k14, its last access: __put_swap_token gives the token
  // to init_mm and sets check = 15000, so at k15 (16000) B takes it.
  Params exits = params;
  exits.set("free_on_exit", true);
  CHECK(probe_swap_token(*replay(steps_trace(steps), "active_inactive", 1, exits).policy) == 1);
}

TEST_CASE(
    "active_inactive swap_token: a reclaim ignores the token once it scanned memory through") {
  // 3 frames. A = pid 1 (a1, a2, a3), B = pid 2 (b1, b2). Lists head first; * = young.
  // k0-k2  A W a1, A W a2, B W b1                active[b1* a2* a1*]
  // k3 A W a3: inactive 0 < active 3: a1*, a2*, b1* rotated (bits cleared); a1 -> inactive;
  //        a2 -> inactive; evict a1               active[a3* b1] inactive[a2]
  // k4 A R a1 (swap-in): active tail b1 -> inactive; evict a2; A takes the token
  //                                               active[a1* a3*] inactive[b1]
  // k5 B R b1: a hit, b1 young again.
  // k6 B W b2 (B's reclaim, 3 resident): inactive 1 < active 2, so the active list first:
  //        a3* rotated (scan 1), a1* rotated (2), a3 not young but A's: rotated (3);
  //        scan 4 > 3: ignore_token, a1 -> inactive; inactive 2: b1* activated (5); active
  //        tail a3 -> inactive (6); evict a1 (7)
  //    Ignoring the token only after 6 scans would evict a3 (a1 and a3 rotated until then),
  //    never ignoring it would evict b1 (the engine's guard against a hang); without the
  //    token a3 goes (not young at scan 3, inactive before b1* is activated).
  const Trace t = steps_trace({{1, 1, true},
                               {1, 2, true},
                               {2, 1, true},
                               {1, 3, true},
                               {1, 1, false},
                               {2, 1, false},
                               {2, 2, true}});
  constexpr PageId a1 = 0, a3 = 3, b1 = 2;
  const auto on = replay(t, "active_inactive", 3, token_params(3));
  CHECK(probe_swap_token(*on.policy) == 0);
  CHECK(probe_active_inactive(*on.policy, a1) == -1);
  CHECK(probe_active_inactive(*on.policy, a3) == 0);  // inactive anon
  CHECK(probe_active_inactive(*on.policy, b1) == 1);  // active anon
  Params off = token_params(3);
  off.set("swap_token", false);
  const auto without = replay(t, "active_inactive", 3, off);
  CHECK(probe_active_inactive(*without.policy, a3) == -1);
  CHECK(probe_active_inactive(*without.policy, a1) != -1);
}

TEST_CASE("active_inactive swap_token: kswapd's reclaim protects the holder's pages") {
  // Watermark reclaim (low 1, high 2 of 3 frames: one victim whenever a fault finds one free
  // frame) is kswapd's: current->mm is none (init_mm), so even the only process's pages are
  // protected once it holds the token. One process A = pid 1, anon_insert=inactive. Lists
  // head first; * = young; scans counted as the engine does (the victim's too).
  // k0 W a1, k1 W a2                           inactive[a2* a1*]
  // k2 W a3 (1 free: reclaim 1): a1* -> active (1); a2* -> active (2); inactive 0 < active
  //        2: active tail a1 -> inactive (3); evict a1 (4)   inactive[a3*] active[a2]
  // k3 R a1: a3* -> active (1); a2 -> inactive (2); evict a2 (3); the swap-in of a1: A takes
  //        the token from init_mm                  inactive[a1*] active[a3]
  // k4 W a4: a1* -> active (1); active tail a3, not young but A's: rotated (2); active tail
  //        a1: scan 3 > 2 resident, ignore_token -> inactive (3); evict a1 (4)
  //                                               inactive[a4*] active[a3]
  //    without the token: a1* -> active (1); a3 -> inactive (2); evict a3 (3)
  // k5 R a2 (swap-in): a4* -> active (1); a3 rotated (2); a4 -> inactive (3); evict a4 (4)
  //                                               inactive[a2*] active[a3]
  //    without: a4* -> active (1); a1 -> inactive (2); evict a1 (3)
  // k6 R a3: a hit; without the token a swap-in (a2* -> active, a4 -> inactive, evict a4).
  // With the token 6 faults, 2 swap-ins, 4 + 3 + 4 + 4 = 15 scanned; without 7, 3,
  // 4 + 3 + 3 + 3 + 3 = 16. (Taking A as current->mm, as a direct reclaim would, protects
  // nothing: as without the token.)
  const Trace t = steps_trace({{1, 1, true},
                               {1, 2, true},
                               {1, 3, true},
                               {1, 1, false},
                               {1, 4, true},
                               {1, 2, false},
                               {1, 3, false}});
  Params params = token_params(3, {{"anon_insert", std::string("inactive")}});
  params.set("low_watermark", std::int64_t{1});
  params.set("high_watermark", std::int64_t{2});
  const Counters on = run(t, "active_inactive", 3, params);
  CHECK((on.faults == 6 && on.swap_ins == 2 && on.pages_scanned == 15));
  params.set("swap_token", false);
  const Counters off = run(t, "active_inactive", 3, params);
  CHECK((off.faults == 7 && off.swap_ins == 3 && off.pages_scanned == 16));
}

TEST_CASE("active_inactive swap_token: one process alone runs as without it") {
  // The holder is always the process that reclaims (mm == current->mm): nothing protected.
  for (std::uint64_t seed = 1; seed <= 40; ++seed) {
    CAPTURE(seed);
    const Trace t = random_trace(seed, 400, 30, 1);
    const std::int64_t frames = 3 + static_cast<std::int64_t>(seed % 10);
    Params on = token_params(frames);
    Params off = on;
    off.set("swap_token", false);
    CHECK(simulate(t, "active_inactive", on).total == simulate(t, "active_inactive", off).total);
  }
}

// ---- rmap_aging ------------------------------------------------------------------------

// Ages of one anonymous page scanned by background aging (background_priority 0: every tick
// scans the whole active list). The fault sets PG_referenced (mark_page_accessed) and the pte
// young bit, so the first scan sees a reference; `referenced_scans` - 1 more scans find the
// young bit set again, then `idle` scans find nothing. Returns the probe: age + 256 * list.
// One page in one frame: no free frame, so background aging runs at every tick (its high
// target, 1 + 2 * (1 / 5) = 1, exceeds the free and inactive pages, 0).
std::int64_t age_after(const std::string& aging, int referenced_scans, int idle) {
  TraceBuilder b;
  b.add(1, 0, false);
  const Trace t = std::move(b).build();
  Driver d(t, "rmap_aging", 1, Params{{"aging", aging}, {"background_priority", std::int64_t{0}}});
  d.fault(0);
  for (int s = 0; s < referenced_scans; ++s) {
    if (s > 0) d.young(0);
    d.tick();
  }
  for (int s = 0; s < idle; ++s) d.tick();
  return probe_rmap_aging(d.policy(), 0);
}

constexpr std::int64_t kInactiveDirtyList = 256;

TEST_CASE("rmap_aging linear: referenced on three scans, then idle") {
  // PAGE_AGE_START 5; age_up +3 (cap 64); age_down -1; deactivated when the age reaches 0.
  // 5 -> 8 -> 11 -> 14, then 14 - k after k idle scans.
  CHECK(age_after("linear", 3, 0) == 14);
  CHECK(age_after("linear", 3, 1) == 13);
  CHECK(age_after("linear", 3, 5) == 9);
  CHECK(age_after("linear", 3, 13) == 1);
  CHECK(age_after("linear", 3, 14) == kInactiveDirtyList + 0);  // deactivated at 0
  // Capped: 5 + 3 * 25 = 80 -> 64, then 10 idle scans -> 54.
  CHECK(age_after("linear", 25, 10) == 54);
}

TEST_CASE("rmap_aging exponential (2.4.0): referenced on three scans, then idle") {
  // PAGE_AGE_START 2, +3: 2 -> 5 -> 8 -> 11; halving: 11 -> 5 -> 2 -> 1 -> 0 (deactivated).
  CHECK(age_after("exponential", 3, 0) == 11);
  CHECK(age_after("exponential", 3, 1) == 5);
  CHECK(age_after("exponential", 3, 2) == 2);
  CHECK(age_after("exponential", 3, 3) == 1);
  CHECK(age_after("exponential", 3, 4) == kInactiveDirtyList + 0);
  // Capped at 64: 2 + 3 * 25 -> 64, then 64 -> 32 -> 16.
  CHECK(age_after("exponential", 25, 2) == 16);
}

TEST_CASE(
    "rmap_aging: a dirty page is written and requeued on inactive_dirty, evicted clean later") {
  // Anonymous pages A (written) and B (read) in 2 frames (none free: background aging runs
  // while the high target, 1 + 2 * (2 / 5) = 1, exceeds the inactive pages), both aged down
  // to inactive_dirty by the ticks: fault (age 5, PG_ref + young) -> 1 referenced scan (8)
  // -> 8 idle scans -> age 0, deactivated in one pass (the second deactivation passes the
  // target of 1); A then B, B nearer the head. inactive_dirty (head..tail): [B A]
  // reclaim 1: no refill (low target 1 + 0 - 2 < 0); launder A (tail): unmapped, dirty:
  //            written (writepage), requeued [A B]
  //            launder B: unmapped, clean -> inactive_clean; reclaim_page -> B is the victim
  // reclaim 1: launder A: clean since its write -> inactive_clean; reclaim_page -> A
  TraceBuilder b;
  b.add(1, 0, true);
  b.add(1, 1, false);
  const Trace t = std::move(b).build();
  Driver d(t, "rmap_aging", 2, Params{{"background_priority", std::int64_t{0}}});
  d.fault(0, true);
  d.fault(1);
  for (int s = 0; s < 9; ++s) d.tick();
  REQUIRE(probe_rmap_aging(d.policy(), 0) == kInactiveDirtyList);
  REQUIRE(probe_rmap_aging(d.policy(), 1) == kInactiveDirtyList);
  CHECK(d.reclaim(1) == std::vector<PageId>{1});
  CHECK(d.written() == std::vector<PageId>{0});
  CHECK(d.reclaim(1) == std::vector<PageId>{0});
  CHECK(d.written() == std::vector<PageId>{0});  // not written again
}

TEST_CASE("rmap_aging: a reclaim deactivates up to the high inactive target") {
  // Anonymous pages in 5 frames, trace order: A B C D written, E read, F written, then A and
  // B read. Targets (free 0): base = (active + inactive_dirty) / 5, low = 1 + base, min =
  // 1 + base / 2, high = 1 + 2 * base, each less free + inactive. Active head..tail.
  // A..E: active [E D C B A], age 5, PG_referenced + young.
  // F*: base 1: low 2, min 1 >= 0; DEF_PRIORITY passes scan 5 >> 6 = 0 pages; then
  //   refill_inactive_zone(0, high 3): all referenced -> age 8, rotated. No inactive page:
  //   refill_inactive_zone(0, 0) again and again: every pass ages all five down by 1; at 0
  //   the tail A is deactivated and the pass stops (1 > 0). page_launder: A dirty: written
  //   (swap-out 1) and requeued; A again, clean -> inactive_clean; reclaim_page: VICTIM A
  //   (clean). Active [F E D C B], E..B at age 1.
  // A*: base 1, low 2 >= 0, min 1 >= 0: refill_inactive_zone(0, high 3) from the tail: B, C,
  //   D, E reach age 0 and are deactivated; the 4th passes the target and stops it:
  //   inactive_dirty [E D C B]. page_launder: B, C, D dirty: written (swap-outs 2-4) and
  //   requeued; E clean -> inactive_clean; reclaim_page: VICTIM E (clean).
  // B: resident on inactive_dirty: a hit (a soft fault maps it again). 7 faults, 4 swap-outs,
  // all writebacks: both evictions clean. (Stopping at the low target, 2, left E active: B,
  // C, D written and requeued, then B, clean, to inactive_clean and evicted, and B faulted
  // again: 8 faults.)
  TraceBuilder b;
  for (auto [vpn, write] : std::vector<std::pair<int, bool>>{{5, true},
                                                             {0, true},
                                                             {2, true},
                                                             {1, true},
                                                             {3, false},
                                                             {4, true},
                                                             {5, false},
                                                             {0, false}}) {
    b.add(1, static_cast<std::uint64_t>(vpn), write);
  }
  const Trace t = std::move(b).build();
  const Counters c = run(t, "rmap_aging", 5);
  CHECK(c.faults == 7);
  CHECK(c.swap_outs == 4);
  CHECK(c.writebacks == 4);
  CHECK(c.evictions_dirty == 0);
}

TEST_CASE("rmap_aging: drop_page clears PG_referenced; a touch on inactive_clean reactivates") {
  // File pages (read(): unmapped, every access mark_page_accessed), 6 frames, no tick (the
  // run lasts well under a second). ' = PG_referenced; lists head..tail.
  // R1..R6: active [6' 5' 4' 3' 2' 1'], age 5 each.
  // R7: no free frame; the low target 1 + (6 + 0) / 5 = 2 exceeds the free and inactive
  //   pages (0): refill_inactive at DEF_PRIORITY scans 6 >> 6 = 0 pages, 64 times; the min
  //   target 1 + 1 / 2 = 1 > 0: refill_inactive_zone(0, high 1 + 2 - 0 = 3): every page fails
  //   page_mapping_inuse -> drop_page: inactive_clean [6 5 4 3 2 1], referenced cleared.
  //   reclaim_page: tail 1, unreferenced, clean -> VICTIM 1. Active [7'].
  // R2: on inactive_clean -> activated: active [2 7'], clean [6 5 4 3].
  // R8: low target 1 + (2 + 0) / 5 - 4 < 0 (so is min); reclaim_page: tail 3 -> VICTIM 3.
  // R2: a hit. Faults: 1..7, 8 = 8. (With PG_referenced kept, reclaim_page sent all six to
  // inactive_dirty, page_launder_zone then freed 2, the oldest: R2 faulted again, 9.)
  const Trace t = file_trace({1, 2, 3, 4, 5, 6, 7, 2, 8, 2});
  CHECK(run(t, "rmap_aging", 6).faults == 8);
}

TEST_CASE("rmap_aging: a swap readahead page is unmapped and unreferenced, dropped first") {
  // read_swap_cache_async puts the page in the swap cache only: no pte, PG_referenced clear.
  // Anonymous A (id 0) faulted, R (id 1) read ahead; 8 frames; lists head..tail.
  // Fault A: active [A], age 5, PG_referenced + young, mapped. Readahead R: active [R A],
  //   age 5, nothing set.
  // Reclaim 1: 6 free frames meet every inactive target (low: 1 + (2 + 0) / 5 - 6 < 0); both
  //   inactive lists empty -> refill_inactive_zone(0, 0), maxscan 2:
  //   A referenced -> age 8, rotated [A R]; R fails page_mapping_inuse -> drop_page:
  //   inactive_clean [R]. reclaim_page: R unmapped, unreferenced, clean -> VICTIM R.
  // (Treated as a faulted page, R would age like A and A, scanned first, would reach age 0
  // first: VICTIM A.)
  TraceBuilder b;
  b.add(1, 0, false);
  b.add(1, 1, false);
  const Trace t = std::move(b).build();
  Driver d(t, "rmap_aging", 8, Params{});
  d.fault(0);
  d.read_ahead(1);
  CHECK(d.reclaim(1) == std::vector<PageId>{1});
}

}  // namespace
}  // namespace pagesim::test

namespace pagesim::test {
namespace {

// ---- linux24_vscan ---------------------------------------------------------------------

TEST_CASE("linux24_vscan: swap_out walks a process in virtual-address order, then the next") {
  // Anonymous pages, ids in order of first touch: pid 1: 0=vpn5 1=vpn3 2=vpn9, pid 2: 3=vpn7
  // 4=vpn2, then pid 1: 5=vpn100, pid 2: 6=vpn50; never written. 5 frames. Walk order: pid 1
  // [3 5 9 100], pid 2 [2 7 50]. ' = PG_referenced, y = pte young; lists head..tail. swap_out
  // unmaps or frees up to SWAP_CLUSTER_MAX pages, and stops before freeing a page beyond the
  // victim wanted (a never-written page is freed at once: drop_pte).
  // Faults 0..4: each inactive head then mark_page_accessed: inactive [4'y 3'y 2'y 1'y 0'y].
  // Reclaim 1: prio 6 max_scan 5/6 = 0. prio 5: max_scan 1, max_mapped min(32, 0) = 0:
  //   tail 0 is mapped -> swap_out. pid 1 from vpn 3: 1 young -> mark_page_accessed ->
  //   active (PG_ref was set), 0 and 2 likewise, 100 absent; pid 2: 4, 3 -> active;
  //   pid 1 again: all active. Fails (3 = nprocs + 1 process visits).
  //   prio 4: refill_inactive(1 * 5 / ((0+1)*2) = 2): active [3 4 2 0 1]: 1, 0 -> inactive
  //   with PG_ref set: inactive [0' 1']. max_scan 2/4 = 0. prio 3: refill 1*3/6 = 0, scan 0.
  //   prio 2: max_scan 1: tail 1 mapped -> swap_out: pid 1's hand is at its end -> pid 2:
  //   4, 3 active; pid 1 from the start: vpn 3 (page 1) not young, not active -> VICTIM 1;
  //   vpn 5 (page 0) would be freed too: the walk stops on it.
  // Fault 5 (vpn 100): inactive [5'y 0']. Reclaim 2: nothing until prio 2, then swap_out
  //   goes on in pid 1 from vpn 5: page 0 not young, inactive -> VICTIM 0; vpn 9 (page 2)
  //   active; vpn 100 (page 5) young -> active; pid 2: 4, 3 active; pid 1 again: 2, 5
  //   active. Active [5 3 4 2].
  // Fault 6 (pid 2 vpn 50): inactive [6'y]. Reclaim 3: prio 6: refill(1 * 4 / 4 = 1): 2 ->
  //   inactive [2' 6'y]. Prio 2: max_scan 1: tail 6 mapped -> swap_out: pid 1 at its end ->
  //   pid 2 from vpn 2: 4, 3 active, 6 young -> active; pid 1 from the start: vpn 9 (page 2)
  //   not young, inactive -> VICTIM 2.
  // (LRU would evict 0, 1, 2: pid 1's pages in order of use.)
  TraceBuilder b;
  for (auto [pid, vpn] : std::vector<std::pair<int, int>>{{1, 5}, {1, 3}, {1, 9}, {2, 7}, {2, 2},
                                                          {1, 100}, {2, 50}}) {
    b.add(static_cast<std::uint64_t>(pid), static_cast<std::uint64_t>(vpn), false);
  }
  const Trace t = std::move(b).build();
  Driver d(t, "linux24_vscan", 5, Params{});
  for (PageId p = 0; p < 5; ++p) d.fault(p);
  CHECK(d.reclaim(1) == std::vector<PageId>{1});
  d.fault(5);
  CHECK(d.reclaim(1) == std::vector<PageId>{0});
  d.fault(6);
  CHECK(d.reclaim(1) == std::vector<PageId>{2});
}

TEST_CASE("linux24_vscan: shrink_cache reclaims file pages without checking PG_referenced") {
  // File pages A B C, 3 frames; A read twice (inactive,ref -> active), B and C once.
  // D*: prio 6: refill(1 * 1 / ((2+1)*2) = 0); max_scan 2/6 = 0; prio 5, 4, 3: 2/p = 0;
  // prio 2: max_scan 1: tail B is not mapped -> reclaimed although referenced.
  // A B C D B -> B faults again: 5 faults; A stays.
  const Trace t = file_trace({1, 1, 2, 3, 4, 2, 1});
  CHECK(run(t, "linux24_vscan", 3).faults == 5);
}

TEST_CASE("linux24_vscan: a write to a file page only sets PG_referenced (2.4.17)") {
  // File pages F0 F1 F2, 2 frames. generic_file_write: "Mark it unlocked again and drop the
  // page.. SetPageReferenced(page)", no mark_page_accessed.
  // F0 read: inactive, referenced. F0 written: still inactive (a second mark_page_accessed
  // would activate it), and dirty. F1 read: inactive [F1' F0'].
  // F2*: prio 6..3: max_scan 2 / prio = 0; refill(0); prio 2: max_scan 1: the tail F0 is not
  //   mapped and dirty -> writepage (referenced or not), to the head: [F0' F1']. prio 1:
  //   max_scan 2: the tail F1 -> VICTIM F1. F1 read: faults again, its reclaim takes the
  //   tail F0, clean now.
  // 4 faults, and F0 written once, by shrink_cache. (Had the write activated F0, the
  // active list, which refill_inactive(0) never reaches, would keep it unwritten: 0 writes.)
  TraceBuilder b;
  b.add(1, 0, false, PageKind::kFile);
  b.add(1, 0, true, PageKind::kFile);
  b.add(1, 1, false, PageKind::kFile);
  b.add(1, 2, false, PageKind::kFile);
  b.add(1, 1, false, PageKind::kFile);
  const Counters c = run(std::move(b).build(), "linux24_vscan", 2);
  CHECK(c.faults == 4);
  CHECK(c.file_writes == 1);
  CHECK(c.writebacks == 1);
  CHECK(c.evictions_dirty == 0);
}

TEST_CASE(
    "linux24_vscan: swap_out unmaps a dirty page into the swap cache, shrink_cache "
    "writes it, then frees it; a never-written page is freed at once") {
  // One process, anonymous pages 0..3 at vpns 0..3; 0 and 2 written, 1 read. ' = PG_referenced,
  // y = pte young, u = unmapped (in the swap cache, no pte); lists head..tail.
  // Faults 0 1 2: inactive [2'y 1'y 0'y].
  // Reclaim 1 (want 1), cycle 0: prio 6..4: max_scan 3 / p = 0. prio 3: max_scan 1,
  //   max_mapped 0: tail 0 mapped -> swap_out(1): 0, 1, 2 young -> mark_page_accessed ->
  //   active (PG_referenced was set); the second round finds them active: active [2 1 0].
  //   prio 2: refill(1 * 3 / 2 = 1): 0 -> inactive [0']; max_scan 1 / 2 = 0. prio 1:
  //   refill(1 * 2 / 4 = 0); max_scan 1: tail 0 mapped -> swap_out(1) from the start: 0 not
  //   young, inactive, dirty -> unmapped into the swap cache: [0'u]; one page done.
  //   Cycle 1: prio 6..2: max_scan 1 / p = 0; prio 1: tail 0 unmapped and dirty ->
  //   writepage: WRITTEN 0. Cycle 2, prio 1: tail 0 unmapped, clean -> VICTIM 0.
  // (Evicting at swap_out's nomination, as before 2.4's swap cache was modelled: the same
  // victim, written at its eviction, and no writeback.)
  // Fault 3 (written): inactive [3'y], active [2 1]. Reclaim 2, cycle 0: prio 6..2: refill(
  //   1 * 2 / 4 = 0), max_scan 0. prio 1: max_scan 1: tail 3 mapped -> swap_out(1) from
  //   vpn 1: 1, 2 active; 3 young -> active; the second round finds 1 2 3 active.
  //   Cycle 1: prio 6: refill(1 * 3 / 2 = 1): 1 -> inactive [1']; max_scan 0 until prio 1:
  //   tail 1 mapped -> swap_out(1) from the start: 1 not young, inactive, never written and
  //   not in the swap cache -> drop_pte frees it: VICTIM 1, nothing written.
  TraceBuilder b;
  for (std::uint64_t vpn : {0u, 1u, 2u, 3u}) b.add(1, vpn, vpn == 0 || vpn >= 2);
  const Trace t = std::move(b).build();
  Driver d(t, "linux24_vscan", 8, Params{});
  d.fault(0, true);
  d.fault(1);
  d.fault(2, true);
  CHECK(d.reclaim(1) == std::vector<PageId>{0});
  CHECK(d.written() == std::vector<PageId>{0});
  d.fault(3, true);
  CHECK(d.reclaim(1) == std::vector<PageId>{1});
  CHECK(d.written() == std::vector<PageId>{0});
}

TEST_CASE("linux24_vscan: a reclaim retries its priorities until the swap cache frees a page") {
  // 2.4.17's __alloc_pages retries an order-0 allocation until try_to_free_pages succeeds, and
  // a dirty page is freed at its third visit (unmapped, written, freed), so no reclaim should
  // give up and evict a page dirty: every swap-out is shrink_cache's writepage. qsbench -m 8,
  // 1.5x the size of memory, no readahead, needs more than 3 cycles of priorities 6..1 once
  // (with at most 3, that reclaim gave up and evicted the inactive tail dirty).
  QsbenchOptions o;
  o.mib = 8;
  const Trace t = generate_qsbench(o);
  const Counters c = run(t, "linux24_vscan", static_cast<std::int64_t>(t.num_pages() * 2 / 3));
  CHECK(c.swap_outs > 0);
  CHECK(c.evictions_dirty == 0);
  CHECK(c.writebacks == c.swap_outs);
}

TEST_CASE("linux24_vscan: refill_inactive(n) looks at n pages, rotated ones included (2.4.17)") {
  // 2.4.17: while (nr_pages-- && entry != &active_list). One process; file pages 1 3 4,
  // anonymous 0 and 2 (vpn = page number), 4 frames. ' = PG_referenced, y = pte young;
  // lists head..tail.
  // R3 R3: active [3]. R1 R1: active [1 3]. R0, W2: inactive [2'y 0'y]. R3: active, 3'.
  // R4 (reclaim 1, nr_pages 1): prio 6..3: refill(1 * 2 / 6 = 0), max_scan 2 / p = 0.
  //   prio 2: max_scan 1, max_mapped min(256, 0) = 0: tail 0 mapped -> swap_out: 0 young
  //   -> mark_page_accessed -> active; 2 likewise: active [2 0 1 3']; second pass: both
  //   active. prio 1: refill(1 * 4 / 2 = 2): 3' rotated (clears it), 1 -> inactive [1'];
  //   two pages looked at. shrink_cache: max_scan 1: tail 1 -> VICTIM 1. Active [3 2 0],
  //   inactive [4'].
  // R1 (reclaim 2): prio 6..2: refill(1 * 3 / 4 = 0), max_scan 1 / p = 0. prio 1: refill 0,
  //   max_scan 1: tail 4 (file) -> VICTIM 4. Inactive [1'].
  // W4: faults again. Faults: 3 1 0 2 4 1 4 = 7.
  // (Counting deactivations, as 2.4.18 does, refill(2) deactivated 1 and 0: reclaim 2 found
  // 0 by swap_out, 4 stayed and W4 was a hit: 6 faults.)
  TraceBuilder b;
  const std::uint64_t pages[] = {3, 3, 1, 1, 0, 2, 3, 4, 1, 4};
  for (std::size_t i = 0; i < 10; ++i) {
    const std::uint64_t p = pages[i];
    b.add(1, p, i == 5 || i == 9, p == 0 || p == 2 ? PageKind::kAnon : PageKind::kFile);
  }
  CHECK(run(std::move(b).build(), "linux24_vscan", 4).faults == 7);
}

TEST_CASE("linux24_vscan: a swap readahead page is freed by shrink_cache, skipped by swap_out") {
  // swapin_readahead -> read_swap_cache_async: inactive head, unreferenced, no pte. One
  // process, anonymous R (id 0, vpn 5) and B (id 1, vpn 1) read ahead, then A (id 2, vpn 9)
  // faulted: inactive [A'y B R]. Reclaim 1: prio 6..4: refill 0, max_scan 3 / p = 0.
  //   prio 3: max_scan 1, max_mapped min(128, 0) = 0: tail R is not mapped (page_count 1,
  //   page->mapping the swap cache) -> freed: VICTIM R.
  // (As mapped pages, R at the tail would have started swap_out, which walks B (vpn 1)
  // first: not young, inactive -> VICTIM B.)
  TraceBuilder b;
  for (std::uint64_t vpn : {5u, 1u, 9u}) b.add(1, vpn, false);
  const Trace t = std::move(b).build();
  Driver d(t, "linux24_vscan", 8, Params{});
  d.read_ahead(0);
  d.read_ahead(1);
  d.fault(2);
  CHECK(d.reclaim(1) == std::vector<PageId>{0});
}

}  // namespace
}  // namespace pagesim::test

namespace pagesim::test {
namespace {

// ---- freebsd ---------------------------------------------------------------------------

// probe_freebsd: queue (0 active, 1 inactive) + 2 if PG_REFERENCED + 4 if PG_WINATCFLS
// + 8 * act_count; -1 not resident.
constexpr std::int64_t freebsd_state(std::int64_t queue, bool referenced, bool winatcfls,
                                     std::int64_t act_count) {
  return queue + (referenced ? 2 : 0) + (winatcfls ? 4 : 0) + 8 * act_count;
}
constexpr std::int64_t kFaultedAnon = freebsd_state(0, true, false, 5);  // vm_fault
constexpr std::int64_t kInactiveUnref = freebsd_state(1, false, false, 0);

// Anonymous page 0 written, the file pages `files` read in order, then page 0 read again.
Trace anon_around_files(std::initializer_list<std::uint64_t> files) {
  TraceBuilder b;
  b.add(1, 0, true);
  for (std::uint64_t p : files) b.add(1, p, false, PageKind::kFile);
  b.add(1, 0, false);
  return std::move(b).build();
}

TEST_CASE("freebsd: a dirty page goes round the inactive queue twice at pass 0, once later") {
  // vm_pageout_scan sets PG_WINATCFLS and requeues a dirty page only at pass 0; the daemon's
  // pass counts the scans of one wakeup and is primed to 1 for the next when it went past 1.
  // After every inactive scan the active scan runs with page_shortage = the victims still
  // wanted + v_inactive_target - the inactive pages.
  // 8 frames (v_inactive_target 8/3 = 2). Anonymous A, B written (ids 0, 1); file pages F, G,
  // E, H read (ids 2-5). Lists head..tail, as the scans meet them.
  // Faults A, B: vm_fault sets PG_REFERENCED, vm_page_activate: act_count 5, the pte young.
  //   Active [A B]. Faults F, G: inactive [F G], act 0.
  // Reclaim 1, pass 0: F clean: VICTIM F. Active scan, page_shortage 0 + 2 - 1 = 1: A has
  //   PG_REFERENCED (cleared) + young = 2 references: act 5 + 3 + 2 = 10, requeued; B too.
  //   (Only deactivations count against page_shortage.)
  TraceBuilder b;
  b.add(1, 0, true);
  b.add(1, 1, true);
  for (std::uint64_t p : {2u, 3u, 4u, 5u}) b.add(1, p, false, PageKind::kFile);
  const Trace t = std::move(b).build();
  SUBCASE("pageout_algorithm=1: deactivated between reclaims, both go round twice") {
    // Reclaim 2, pass 0: G: VICTIM G. Active scan, page_shortage 0 + 2 - 0 = 2: A has no
    //   reference, act 9, and the sysctl deactivates it; B too. Inactive [A B].
    // Fault E: inactive [A B E].
    // Reclaim 3, pass 0: A dirty, no PG_WINATCFLS: set, requeued [B E A]; B likewise
    //   [E A B]; E clean: VICTIM E. Active scan: 0 + 2 - 2 = 0, none.
    // Reclaim 4, pass 0: A dirty with PG_WINATCFLS: laundered, VICTIM A. Reclaim 5: VICTIM B.
    Driver d(t, "freebsd", 8, Params{{"pageout_algorithm", 1}});
    for (PageId p : {0u, 1u}) d.fault(p, true);
    for (PageId p : {2u, 3u}) d.fault(p);
    CHECK(probe_freebsd(d.policy(), 0) == kFaultedAnon);
    CHECK(d.reclaim(1) == std::vector<PageId>{2});
    CHECK(probe_freebsd(d.policy(), 0) == freebsd_state(0, false, false, 10));
    CHECK(d.reclaim(1) == std::vector<PageId>{3});
    CHECK(probe_freebsd(d.policy(), 0) == freebsd_state(1, false, false, 9));
    d.fault(4);
    CHECK(d.reclaim(1) == std::vector<PageId>{4});
    CHECK(probe_freebsd(d.policy(), 0) == freebsd_state(1, false, true, 9));
    CHECK(probe_freebsd(d.policy(), 1) == freebsd_state(1, false, true, 9));
    CHECK(d.reclaim(1) == std::vector<PageId>{0});
    CHECK(d.reclaim(1) == std::vector<PageId>{1});
  }
  SUBCASE("pageout_algorithm=0: deactivated late in a long reclaim, laundered at once") {
    // Reclaim 2, pass 0: VICTIM G. Active scan (2): A, B act 9, requeued.
    // Fault E: inactive [E]. Reclaim 3, pass 0: VICTIM E. Active scan (2): A, B act 8.
    // Reclaim 4: inactive empty. Scan k (pass k) takes A and B to act 7 - k: at pass 7 both
    //   reach 0 and are deactivated, inactive [A B]. Pass 8: A dirty, pass != 0: laundered,
    //   VICTIM A; B is left inactive, unflagged. The pass ended at 8 > 1: primed to 1.
    // Fault H: inactive [B H]. Reclaim 5, pass 1: B dirty, pass != 0: laundered, VICTIM B
    //   (at pass 0 it would go round and H would go). Pass 1: the next is 0.
    // Reclaim 6: VICTIM H.
    Driver d(t, "freebsd", 8, Params{});
    for (PageId p : {0u, 1u}) d.fault(p, true);
    for (PageId p : {2u, 3u}) d.fault(p);
    CHECK(d.reclaim(1) == std::vector<PageId>{2});
    CHECK(d.reclaim(1) == std::vector<PageId>{3});
    CHECK(probe_freebsd(d.policy(), 0) == freebsd_state(0, false, false, 9));
    d.fault(4);
    CHECK(d.reclaim(1) == std::vector<PageId>{4});
    CHECK(probe_freebsd(d.policy(), 1) == freebsd_state(0, false, false, 8));
    CHECK(d.reclaim(1) == std::vector<PageId>{0});
    CHECK(probe_freebsd(d.policy(), 1) == kInactiveUnref);
    d.fault(5);
    CHECK(d.reclaim(1) == std::vector<PageId>{1});
    CHECK(d.reclaim(1) == std::vector<PageId>{5});
  }
}

TEST_CASE("freebsd: defer_swapspace_pageouts keeps a dirty anonymous page while a clean one exists") {
  // 8 frames (v_inactive_target 2). Anonymous A (written, id 0) and B (read, id 1), file
  // page G (id 2, faulted later). Lists head..tail, as the scans meet them.
  // Faults A, B: PG_REFERENCED, vm_page_activate, act_count 5, pte young. Active [A B].
  // Reclaim 1: inactive empty. Scan 0 (pass 0), active scan (page_shortage 1 + 2): A
  //   PG_REFERENCED (cleared) + young = 2 references -> act 5 + 3 + 2 = 10, B likewise.
  //   Scan k (pass k) takes both to 10 - k: at pass 10 both are deactivated, inactive [A B].
  //   Pass 11: A is dirty:
  //   - without defer: laundered, VICTIM A. Fault G: inactive [B G]. Reclaim 2 (pass primed
  //     to 1): B clean: VICTIM B.
  //   - with defer: B is resident and clean, so swap pageouts are not ok: A is requeued
  //     [B A]; B clean: VICTIM B. Pass 11: the next reclaim's pass is primed to 1.
  // With defer:
  // Fault G: a file page enters at the inactive tail, act 0, unreferenced: inactive [A G].
  // Reclaim 2, pass 1: G is resident and clean: A requeued [G A]; G cached: VICTIM G.
  // Reclaim 3, pass 0: only A is resident, so swap pageouts are ok; pass 0: A gets
  //   PG_WINATCFLS, requeued; pass 1: laundered, VICTIM A.
  // Then the same again with anonymous C (written, id 3), E (read, id 4) and file page H
  // (id 5), to check that the dirty anonymous count followed A out:
  // Faults C, E; reclaim 4 (pass 0): as reclaim 1, C requeued [E C]: VICTIM E.
  // Fault H: inactive [C H]. Reclaim 5 (pass 1): C and H resident, C the only dirty
  //   anonymous page: C requeued [H C], VICTIM H (had A still been counted, C would have
  //   been laundered).
  // Reclaim 6: only C: VICTIM C.
  TraceBuilder b;
  b.add(1, 0, true);
  b.add(1, 1, false);
  b.add(1, 2, false, PageKind::kFile);
  b.add(1, 3, true);
  b.add(1, 4, false);
  b.add(1, 5, false, PageKind::kFile);
  const Trace t = std::move(b).build();
  {
    Driver d(t, "freebsd", 8, Params{});
    d.fault(0, true);
    d.fault(1);
    CHECK(d.reclaim(1) == std::vector<PageId>{0});
    d.fault(2);
    CHECK(d.reclaim(1) == std::vector<PageId>{1});
  }
  {
    Driver d(t, "freebsd", 8, Params{{"defer_swapspace_pageouts", true}});
    d.fault(0, true);
    d.fault(1);
    CHECK(d.reclaim(1) == std::vector<PageId>{1});
    d.fault(2);
    CHECK(d.reclaim(1) == std::vector<PageId>{2});
    CHECK(d.reclaim(1) == std::vector<PageId>{0});
    d.fault(3, true);
    d.fault(4);
    CHECK(d.reclaim(1) == std::vector<PageId>{4});
    d.fault(5);
    CHECK(d.reclaim(1) == std::vector<PageId>{5});
    CHECK(d.reclaim(1) == std::vector<PageId>{3});
  }
}

TEST_CASE("freebsd: with defer_swapspace_pageouts, a daemon that cannot progress pages out") {
  // pageout_algorithm=1, defer, 8 frames (v_inactive_target 2). Anonymous A, B, C written
  // (ids 0-2), D read (id 3, clean). Lists head..tail.
  // Faults: active [A B C D], act 5, PG_REFERENCED, young.
  // Reclaim, pass 0: inactive empty. Active scan (1 + 2): each has 2 references: act 10.
  //   Pass 1: the active scan deactivates A, B and C at their first unreferenced scan, and
  //   page_shortage is met before D: inactive [A B C]. Pass 2: D, clean, is resident, so
  //   swap pageouts are not ok: A, B, C, dirty anonymous, are requeued as they were. The
  //   active scan: 1 + 2 - 3 = 0, it does not run. Nothing changed: every later scan would be
  //   the same, and in the kernel free memory would fall below v_free_min
  //   (vm_page_count_min()), which makes swap pageouts ok. Pass 3: A laundered, VICTIM A.
  TraceBuilder b;
  for (std::uint64_t p : {0u, 1u, 2u}) b.add(1, p, true);
  b.add(1, 3, false);
  const Trace t = std::move(b).build();
  Driver d(t, "freebsd", 8, Params{{"defer_swapspace_pageouts", true}, {"pageout_algorithm", 1}});
  for (PageId p : {0u, 1u, 2u}) d.fault(p, true);
  d.fault(3);
  CHECK(d.reclaim(1) == std::vector<PageId>{0});
  CHECK(probe_freebsd(d.policy(), 3) == freebsd_state(0, false, false, 10));
  CHECK(probe_freebsd(d.policy(), 1) == freebsd_state(1, false, false, 9));
}

TEST_CASE("freebsd: with defer_swapspace_pageouts, a batch reclaim launders all it wants") {
  // vm_page_count_min() (here: every resident page a dirty anonymous page) does not change
  // while a reclaim launders: a laundered page is not free until its write completes.
  // pageout_algorithm=1, defer, 8 frames (v_inactive_target 2). Anonymous A, B, C, D written
  // (ids 0-3) at vpns 0, 2, 4, 6: no two next to each other, so that each launder writes its
  // page alone (vm_pageout_clean's cluster). Lists head..tail; "scanned" counts the scans that
  // keep a page (count_scanned).
  // Faults A, B: active [A B], act 5, PG_REFERENCED, young.
  // Reclaim 1 (1 victim), pass 0: inactive empty. Active scan (1 + 2): A, B have 2 references
  //   each, act 10; 2 scanned. Pass 1: the active scan deactivates both (act 9), inactive
  //   [A B]; 2 scanned. Pass 2: every resident page is dirty anonymous: A laundered, VICTIM A.
  //   The pass ended at 2: the next reclaim starts at 1.
  // Faults C, D: active [C D], act 5, PG_REFERENCED, young.
  // Reclaim 2 (2 victims), pass 1: B, C, D resident, all dirty anonymous: B laundered, VICTIM
  //   B. Active scan (1 + 2 - 0): C, D to act 10; 2 scanned. Pass 2: inactive empty; the
  //   active scan deactivates C and D; 2 scanned. Pass 3: B, chosen, is still resident and
  //   dirty: swap pageouts are still ok: C laundered, VICTIM C. D is left inactive.
  // 8 scanned in all. (Had B left the dirty anonymous count when chosen, pass 3 would have
  // deferred C and D, found itself stuck, and laundered C at pass 4: 10 scanned.)
  TraceBuilder b;
  for (std::uint64_t p : {0u, 1u, 2u, 3u}) b.add(1, 2 * p, true);
  const Trace t = std::move(b).build();
  Driver d(t, "freebsd", 8, Params{{"defer_swapspace_pageouts", true}, {"pageout_algorithm", 1}});
  d.fault(0, true);
  d.fault(1, true);
  CHECK(d.reclaim(1) == std::vector<PageId>{0});
  d.fault(2, true);
  d.fault(3, true);
  CHECK(d.reclaim(2) == std::vector<PageId>{1, 2});
  CHECK(d.scanned() == 8);
  CHECK(probe_freebsd(d.policy(), 3) == freebsd_state(1, false, false, 9));
}

TEST_CASE("freebsd: vm_pageout_clean writes the dirty inactive pages next to its page") {
  // One process, anonymous pages faulted in this order (id: vpn): 0: 9, 1: 3, 2: 4, 3: 5,
  // 4: 6, 5: 7, 6: 8, 7: 10, 8: 11, 9: 12 written, 10: 13 read; no page at vpn 2.
  // 40 frames: v_inactive_target 10, vm_pageout_page_count 8 (under 2000 frames).
  // pageout_algorithm=1. Faults: active, act 5, PG_REFERENCED, pte young.
  // Reclaim 1 (1 victim): pass 0: inactive empty; active scan (shortage 1 + 10 - 0 = 11): two
  //   references each, act 10. Pass 1: the active scan deactivates all 11 in order:
  //   inactive, from where scans start: vpn 9 3 4 5 6 7 8 10 11 12 13. Pass 2: vpn 9 dirty,
  //   unreferenced, pass > 0 -> vm_pageout_clean: backwards, vpn 8 joins, and 8 % 8 == 0 (the
  //   alignment boundary) turns the run forwards: 10, 11, 12 join, 13 is clean: 5 pages;
  //   backwards again: 7, 6, 5 join: 8 pages, the most. Written in vpn order: 5 6 7 8 9 10 11
  //   12 (ids 3 4 5 6 0 7 8 9); VICTIM vpn 9 (id 0), evicted clean.
  // Reclaim 2: the pass ended at 2, so this one starts at 1. Vpn 3 (id 1) dirty -> launder:
  //   backwards, vpn 2 has no page (vm_page_lookup finds none); forwards, vpn 4 joins, vpn 5
  //   was written by the first cluster, clean: written 3 4 (ids 1 2); VICTIM id 1.
  // Reclaim 3 (pass 0): vpn 4 (id 2) is clean and unreferenced -> vm_page_cache: VICTIM id 2,
  //   nothing written.
  TraceBuilder b;
  for (std::uint64_t vpn : {9u, 3u, 4u, 5u, 6u, 7u, 8u, 10u, 11u, 12u, 13u}) {
    b.add(1, vpn, vpn != 13);
  }
  const Trace t = std::move(b).build();
  Driver d(t, "freebsd", 40, Params{{"pageout_algorithm", 1}});
  for (PageId p = 0; p < 11; ++p) d.fault(p, p != 10);
  CHECK(d.reclaim(1) == std::vector<PageId>{0});
  CHECK(d.written() == std::vector<PageId>{3, 4, 5, 6, 0, 7, 8, 9});
  CHECK(d.reclaim(1) == std::vector<PageId>{1});
  CHECK(d.written() == std::vector<PageId>{3, 4, 5, 6, 0, 7, 8, 9, 1, 2});
  CHECK(d.reclaim(1) == std::vector<PageId>{2});
  CHECK(d.written().size() == 10);
}

TEST_CASE("freebsd: a process's dirty file pages are laundered together (its one file)") {
  // File pages written, in this order (id: vpn): 0: 1, 1: 0, 2: 2. A process's file pages
  // stand for one file and their vpns for its offsets (the engine's convention), so they make
  // one object for vm_pageout_clean. 40 frames (vm_pageout_page_count 8, v_inactive_target 10).
  // Faults: allocbuf, vfs_vmio_release: inactive, unreferenced, in fault order.
  // Reclaim 1, pass 0: each is dirty without PG_WINATCFLS: flagged and requeued (vpn 1 0 2);
  //   the active scan has no page. Pass 1: vpn 1 -> vm_pageout_clean: backwards, vpn 0 joins
  //   and is aligned (0 % 8 == 0): forwards, vpn 2 joins; backwards again, nothing before
  //   vpn 0. Written: vpn 0 1 2 (ids 1 0 2); VICTIM id 0.
  // Reclaim 2 (pass 0): vpn 0 is clean -> vm_page_cache: VICTIM id 1, nothing written.
  TraceBuilder b;
  for (std::uint64_t vpn : {1u, 0u, 2u}) b.add(1, vpn, true, PageKind::kFile);
  const Trace t = std::move(b).build();
  Driver d(t, "freebsd", 40, Params{});
  for (PageId p = 0; p < 3; ++p) d.fault(p, true);
  CHECK(d.reclaim(1) == std::vector<PageId>{0});
  CHECK(d.written() == std::vector<PageId>{1, 0, 2});
  CHECK(d.reclaim(1) == std::vector<PageId>{1});
  CHECK(d.written().size() == 3);
}

TEST_CASE("freebsd: a file page read once leaves before an active anonymous page (use-once)") {
  // Anonymous A (read, id 0); file pages F1 (id 1) and F2 (id 2), read once each.
  // 8 frames (v_inactive_target 2). Lists head..tail, as the scans meet them.
  // Fault A: vm_fault: PG_REFERENCED, active [A], act 5, pte young.
  // Faults F1, F2: allocbuf, then vfs_vmio_release -> vm_page_unwire(m, 0): inactive tail,
  //   act 0, unreferenced: inactive [F1 F2].
  // Reclaim 1: inactive scan, pass 0: F1 clean, unreferenced: cached, VICTIM F1.
  // Reclaim 2: likewise VICTIM F2.
  // Reclaim 3: inactive empty. Active scan (page_shortage 1 + 2): A PG_REFERENCED + young
  //   -> act 10; nine more scans take it to 1, the tenth to 0: deactivated, inactive [A];
  //   the next inactive scan caches it: VICTIM A.
  TraceBuilder b;
  b.add(1, 0, false);
  b.add(1, 1, false, PageKind::kFile);
  b.add(1, 2, false, PageKind::kFile);
  const Trace t = std::move(b).build();
  Driver d(t, "freebsd", 8, Params{});
  d.fault(0);
  d.fault(1);
  d.fault(2);
  CHECK(probe_freebsd(d.policy(), 0) == kFaultedAnon);
  CHECK(probe_freebsd(d.policy(), 1) == kInactiveUnref);
  CHECK(probe_freebsd(d.policy(), 2) == kInactiveUnref);
  CHECK(d.reclaim(1) == std::vector<PageId>{1});
  CHECK(d.reclaim(1) == std::vector<PageId>{2});
  CHECK(d.reclaim(1) == std::vector<PageId>{0});

  // The same through the engine, 3 frames (v_inactive_target 1), one victim per fault:
  //   A(write) F1 F2 F3 A
  // A: minor fault, active [A], dirty. F1, F2: file reads, inactive [F1 F2]; memory is full.
  // F3: reclaim: F1 is cached (VICTIM F1, clean: no write); inactive [F2 F3]. A: a hit.
  //   4 faults (1 minor, 3 file reads), 1 hit, 1 eviction, no swap-out.
  // lru evicts A (the least recently used at F3), a swap-out, and faults on it again.
  const Trace engine_trace = anon_around_files({1, 2, 3});
  const Counters c = run(engine_trace, "freebsd", 3);
  CHECK(c.faults == 4);
  CHECK(c.minor_faults == 1);
  CHECK(c.file_reads == 3);
  CHECK(c.hits == 1);
  CHECK(c.evictions == 1);
  CHECK(c.evictions_clean == 1);
  CHECK(c.swap_outs == 0);
  const Counters l = run(engine_trace, "lru", 3);
  CHECK(l.faults == 5);
  CHECK(l.swap_outs == 1);
}

TEST_CASE("freebsd: a re-read file page goes back to the inactive tail, unreferenced") {
  // FreeBSD 5 read() of a resident page: allocbuf -> vm_page_wire (off its queue), then
  // vfs_vmio_release -> vm_page_unwire(m, 0): the inactive tail, PG_WINATCFLS cleared,
  // PG_REFERENCED and act_count untouched. (The rule this replaces set PG_REFERENCED, so the
  // inactive scan reactivated a page read twice: act 9 on the active queue.)
  // Anonymous A (read, id 0); file pages F1, F2, F3 (ids 1-3). 8 frames (v_inactive_target
  // 2). Lists head..tail, as the scans meet them.
  // Fault A: active [A], act 5, PG_REFERENCED. Fault F1, read it again: inactive [F1],
  //   unreferenced, act 0. Fault F2: inactive [F1 F2].
  // Reclaim 1: F1, at the head, clean, unreferenced: VICTIM F1, though read twice (the old
  //   rule reactivated F1 and freed F2).
  // Fault F3: inactive [F2 F3]. Read F2 again: back to the tail, inactive [F3 F2].
  // Reclaim 2: VICTIM F3, the page read once, now at the head.
  // Reclaim 3: VICTIM F2, read twice, still before the active A (the old rule would have
  //   reactivated F2 at act 9 on a par with A).
  // Reclaim 4: A, as in the test above (10 scans): VICTIM A.
  TraceBuilder b;
  b.add(1, 0, false);
  for (std::uint64_t p : {1u, 2u, 3u}) b.add(1, p, false, PageKind::kFile);
  const Trace t = std::move(b).build();
  Driver d(t, "freebsd", 8, Params{});
  d.fault(0);
  d.fault(1);
  d.touch(1);
  CHECK(probe_freebsd(d.policy(), 1) == kInactiveUnref);
  d.fault(2);
  CHECK(d.reclaim(1) == std::vector<PageId>{1});
  d.fault(3);
  d.touch(2);
  CHECK(probe_freebsd(d.policy(), 2) == kInactiveUnref);
  CHECK(d.reclaim(1) == std::vector<PageId>{3});
  CHECK(d.reclaim(1) == std::vector<PageId>{2});
  CHECK(d.reclaim(1) == std::vector<PageId>{0});

  // Through the engine, 3 frames (v_inactive_target 1), one victim per fault:
  //   A(write) F1 F1 F2 F3 F1 A
  // A: minor fault, active [A], dirty. F1: file read, inactive [F1]; read again: a hit, back
  // to the tail, inactive [F1]. F2: file read, inactive [F1 F2]; memory is full.
  // F3: reclaim: F1 is cached (VICTIM F1); inactive [F2 F3]. F1: a file read again; reclaim:
  // F2 is cached; inactive [F3 F1]. A: a hit.
  //   5 faults (1 minor, 4 file reads), 2 hits, 2 clean evictions, no swap-out. (The old rule
  //   kept F1: 4 faults, 3 hits.) lru: 5 faults too (F3 evicts A, A faults again), 1 swap-out.
  const Trace engine_trace = anon_around_files({1, 1, 2, 3, 1});
  const Counters c = run(engine_trace, "freebsd", 3);
  CHECK(c.faults == 5);
  CHECK(c.minor_faults == 1);
  CHECK(c.file_reads == 4);
  CHECK(c.hits == 2);
  CHECK(c.evictions == 2);
  CHECK(c.evictions_clean == 2);
  CHECK(c.swap_outs == 0);
  const Counters l = run(engine_trace, "lru", 3);
  CHECK(l.faults == 5);
  CHECK(l.hits == 2);
  CHECK(l.swap_outs == 1);
}

TEST_CASE("freebsd: swap readahead pages are deactivated, the faulting page activated") {
  // swp_pager_async_iodone deactivates every page of a swap read but the requested one:
  // inactive tail, act_count 0 (vm_page_alloc), unreferenced. Anonymous A (id 0) faulted,
  // anonymous R (id 1) read ahead, file page F (id 2) read. 8 frames (v_inactive_target 2);
  // lists head..tail.
  // Fault A: active [A], act 5, PG_REFERENCED. Readahead R: inactive [R]. Fault F: inactive
  // [R F].
  // Reclaim 1: R at the head, clean, unreferenced (no pte young bit: nobody touched it):
  //   VICTIM R. (Activated, as before, R would wait on the active queue and F would go.)
  // Reclaim 2: VICTIM F. Reclaim 3: A, after 10 active scans (first test): VICTIM A.
  TraceBuilder b;
  b.add(1, 0, false);
  b.add(1, 1, false);
  b.add(1, 2, false, PageKind::kFile);
  const Trace t = std::move(b).build();
  Driver d(t, "freebsd", 8, Params{});
  d.fault(0);
  d.read_ahead(1);
  CHECK(probe_freebsd(d.policy(), 0) == kFaultedAnon);
  CHECK(probe_freebsd(d.policy(), 1) == kInactiveUnref);
  d.fault(2);
  CHECK(d.reclaim(1) == std::vector<PageId>{1});
  CHECK(d.reclaim(1) == std::vector<PageId>{2});
  CHECK(d.reclaim(1) == std::vector<PageId>{0});
}

TEST_CASE("freebsd: the active scan follows every inactive scan; the pass counts every scan") {
  // vm_pageout_scan runs the active scan after the inactive scan whether or not that found
  // enough, with page_shortage = the victims still wanted + v_inactive_target - the inactive
  // pages, signed; vm_pageout's pass counts every scan of a wakeup, an empty inactive queue or
  // not.
  SUBCASE("an inactive queue above its target cancels the active scan") {
    // pageout_algorithm=1, 8 frames (v_inactive_target 2). Anonymous A (read, id 0); file
    // pages W1..W4 written (ids 1-4). Lists head..tail.
    // Fault A: active [A], act 5, PG_REFERENCED, young. Faults W1..W4: inactive [W1..W4],
    //   dirty.
    // Reclaim, pass 0: W1..W4 dirty: PG_WINATCFLS, requeued; no victim. Active scan:
    //   page_shortage 1 + 2 - 4 = -1: none (clamped at 0 it would be 1, and A would be
    //   scanned: act 5 + 3 + 2 = 10, PG_REFERENCED cleared). Pass 1: W1 laundered, VICTIM
    //   W1. Active scan: 0 + 2 - 3 < 0: none. A is as its fault left it.
    TraceBuilder b;
    b.add(1, 0, false);
    for (std::uint64_t p : {1u, 2u, 3u, 4u}) b.add(1, p, true, PageKind::kFile);
    const Trace t = std::move(b).build();
    Driver d(t, "freebsd", 8, Params{{"pageout_algorithm", 1}});
    d.fault(0);
    for (PageId p : {1u, 2u, 3u, 4u}) d.fault(p, true);
    CHECK(d.reclaim(1) == std::vector<PageId>{1});
    CHECK(probe_freebsd(d.policy(), 0) == kFaultedAnon);
  }
  SUBCASE("an active scan after a reclaim that found enough tells pages apart") {
    // 8 frames (v_inactive_target 2). File page F (id 0), anonymous 1, 2, 3 read.
    // Lists head..tail.
    // Fault F: inactive [F]. Faults 1, 2: active [1 2], act 5, PG_REFERENCED, young.
    // Reclaim 1, pass 0: F clean: VICTIM F. Active scan, page_shortage 0 + 2 - 0 = 2: pages
    //   1 and 2 have 2 references each: act 10, requeued.
    // Fault 3: active [1 2 3], act 5, PG_REFERENCED, young. Touch 1: young.
    // Reclaim 2, pass 0: inactive empty. Active scan (1 + 2): page 1 young: 10 + 3 + 1 = 14;
    //   page 2 unreferenced: 9; page 3 PG_REFERENCED + young: 5 + 3 + 2 = 10. Pass k takes
    //   them to 14 - k, 9 - k, 10 - k: at pass 9 page 2 reaches 0 and is deactivated. Pass 10:
    //   page 2 clean: VICTIM 2. Active scan (0 + 2 - 0): page 1 to 4, page 3 to 0:
    //   deactivated.
    // (Without the active scan in reclaim 1, pages 1, 2 and 3 would all have act 10 after
    // reclaim 2's first scan, reach 0 together, and page 1, the oldest, would go.)
    TraceBuilder b;
    b.add(1, 0, false, PageKind::kFile);
    for (std::uint64_t p : {1u, 2u, 3u}) b.add(1, p, false);
    const Trace t = std::move(b).build();
    Driver d(t, "freebsd", 8, Params{});
    for (PageId p : {0u, 1u, 2u}) d.fault(p);
    CHECK(d.reclaim(1) == std::vector<PageId>{0});
    CHECK(probe_freebsd(d.policy(), 2) == freebsd_state(0, false, false, 10));
    d.fault(3);
    d.touch(1);
    CHECK(d.reclaim(1) == std::vector<PageId>{2});
    CHECK(probe_freebsd(d.policy(), 1) == freebsd_state(0, false, false, 4));
    CHECK(probe_freebsd(d.policy(), 3) == kInactiveUnref);
  }
  SUBCASE("scans of an empty inactive queue count as passes") {
    // 8 frames (v_inactive_target 2). Anonymous 0 written, 1 read.
    // Faults 0, 1: active [0 1], act 5, PG_REFERENCED, young.
    // Reclaim, pass 0: inactive empty. Active scan (1 + 2): both to act 10. Pass k: 10 - k;
    //   at pass 10 both are deactivated, inactive [0 1]. Pass 11: page 0 dirty, pass != 0:
    //   laundered, VICTIM 0.
    // (Were the scans of the empty queue not counted, the pass would still be 0: page 0 would
    // get PG_WINATCFLS, and page 1 would go.)
    TraceBuilder b;
    b.add(1, 0, true);
    b.add(1, 1, false);
    const Trace t = std::move(b).build();
    Driver d(t, "freebsd", 8, Params{});
    d.fault(0, true);
    d.fault(1);
    CHECK(d.reclaim(1) == std::vector<PageId>{0});
    CHECK(probe_freebsd(d.policy(), 1) == kInactiveUnref);
  }
}

TEST_CASE("freebsd: v_inactive_target is vm_pageout's, from the number of frames") {
  // vm_pageout with v_page_count = v_free_count = frames (the policy's header):
  //   8 frames:    a quarter: 2.
  //   2048 frames: a quarter: 512.
  //   2049 frames: v_free_min 4 + 1025 / 200 = 9; v_free_reserved 16 + 34 + 2 + 32 = 84
  //                (vm_pageout_page_count 16 from 2000 pages); v_free_min 93;
  //                v_free_target 2 * 93 + 84 = 270; 3 * 270 / 2 = 405.
  //   8192 frames: v_free_min 4 + 7168 / 200 = 39; v_free_reserved 16 + 34 + 10 + 32 = 92;
  //                v_free_min 131; v_free_target 4 * 131 + 92 = 616; 3 * 616 / 2 = 924.
  // The target shows in whether a reclaim that frees a file page runs the active scan:
  // anonymous A (id 0) faulted (act 5, PG_REFERENCED), then n file pages; the reclaim frees
  // the first and leaves n - 1 inactive; page_shortage = 0 + target - (n - 1). With
  // n - 1 = target - 1 the active scan gives A its two references (act 10); with
  // n - 1 = target it does not run.
  for (const auto& [frames, target] :
       {std::pair<std::size_t, std::size_t>{8, 2}, {2048, 512}, {2049, 405}, {8192, 924}}) {
    for (std::size_t inactive_left : {target - 1, target}) {
      CAPTURE(frames);
      CAPTURE(inactive_left);
      TraceBuilder b;
      b.add(1, 0, false);
      for (std::uint64_t p = 1; p <= inactive_left + 1; ++p) b.add(1, p, false, PageKind::kFile);
      const Trace t = std::move(b).build();
      Driver d(t, "freebsd", frames, Params{});
      for (PageId p = 0; p <= inactive_left + 1; ++p) d.fault(p);
      CHECK(d.reclaim(1) == std::vector<PageId>{1});
      CHECK(probe_freebsd(d.policy(), 0) ==
            (inactive_left < target ? freebsd_state(0, false, false, 10) : kFaultedAnon));
    }
  }
}

TEST_CASE("freebsd: a re-read clears PG_WINATCFLS: the dirty page goes round twice again") {
  // vm_page_unwire(m, 0) clears PG_WINATCFLS. File pages: F written (dirty, id 0), G and H
  // read (ids 1, 2). 8 frames (v_inactive_target 2). Lists head..tail.
  // Faults F, G: inactive [F G]. Reclaim 1: pass 0: F dirty, no PG_WINATCFLS -> set, requeue
  //   [G F]; G clean: VICTIM G.
  // Read F again: inactive tail [F], PG_WINATCFLS cleared, act 0, unreferenced.
  // Fault H: inactive [F H]. Reclaim 2: F dirty without PG_WINATCFLS: set, requeue [H F];
  //   H clean: VICTIM H. (With the flag kept, F would have been laundered: VICTIM F.)
  // Reclaim 3: F dirty with PG_WINATCFLS: laundered, VICTIM F.
  const Trace t = file_trace({0, 1, 2}, {true});
  Driver d(t, "freebsd", 8, Params{});
  d.fault(0, true);
  d.fault(1);
  CHECK(d.reclaim(1) == std::vector<PageId>{1});
  CHECK(probe_freebsd(d.policy(), 0) == freebsd_state(1, false, true, 0));
  d.touch(0);
  CHECK(probe_freebsd(d.policy(), 0) == kInactiveUnref);
  d.fault(2);
  CHECK(d.reclaim(1) == std::vector<PageId>{2});
  CHECK(d.reclaim(1) == std::vector<PageId>{0});
}

}  // namespace
}  // namespace pagesim::test

namespace pagesim::test {
namespace {

// ---- mglru -----------------------------------------------------------------------------

TEST_CASE("mglru: aging moves young pages to max_seq, eviction takes the oldest generation") {
  // Anonymous pages A..E = ids 0..4, 8 frames. Start: max_seq 3, min_seq 0 (both types).
  // probe = seq * 8 + tier. Lists head..tail; y = pte young. A type down to MIN_NR_GENS = 2
  // generations gives no page (scan_folios): reclaim ages first.
  // Faults A B C D: fault context -> max_seq 3: gen3 [Dy Cy By Ay].
  // Reclaim 1: try_to_inc_min_seq: gens 0, 1 empty -> min_seq 2 (2 + 2 > 3 stops it).
  //   should_run_aging: 2 + MIN_NR_GENS > 3 -> age: walk tail first A B C D, all young ->
  //   head of gen3, cleared: gen3 [D C B A]; max_seq 4. min_seq -> 3 (gen2 empty): 2
  //   generations, nothing to evict -> age again: nothing young; max_seq 5. File's min_seq
  //   would pass to 4 but stays at anon's 3. Type: min_seq equal, no refaults ->
  //   get_type_to_scan picks file, which is empty -> anon, tier_idx 3 (nothing protected).
  //   Tail of gen3: A, not young -> VICTIM A.
  // Touch B (young). Fault E -> gen5 [Ey].
  // Reclaim 2: 3 generations, young (seq 5) 1 * 2 > total 4? no; old (seq 3) 3 * 4 < 4? no ->
  //   no aging. Tail of gen3: B has a young pte -> activated to the head of gen5 [B E]. Tail
  //   of gen3: C -> VICTIM C. Now D is in seq 3, B and E in seq 5.
  // Touch D (young). Reclaim 3: young 2 * 2 > total 3 -> age: walk D (gen3), then gen5 tail
  //   first E B; D young -> head of gen5 [D B E]; E young (its fault) -> [E D B]; all
  //   cleared; max_seq 6; min_seq -> 5 (gens 3, 4 empty): 2 generations -> age again: max_seq
  //   7. Tail of gen5: B, not young -> VICTIM B.
  TraceBuilder b;
  for (std::uint64_t v = 0; v < 5; ++v) b.add(1, v, false);
  const Trace t = std::move(b).build();
  Driver d(t, "mglru", 8, Params{});
  for (PageId p = 0; p < 4; ++p) d.fault(p);
  CHECK(d.reclaim(1) == std::vector<PageId>{0});
  CHECK(probe_mglru(d.policy(), kNoPage) == 5);  // max_seq: aged twice
  d.touch(1);
  d.fault(4);
  CHECK(d.reclaim(1) == std::vector<PageId>{2});
  CHECK(probe_mglru(d.policy(), kNoPage) == 5);  // max_seq
  CHECK(probe_mglru(d.policy(), 3) == 3 * 8);    // D: seq 3, tier 0
  CHECK(probe_mglru(d.policy(), 1) == 5 * 8);    // B: activated to seq 5
  CHECK(probe_mglru(d.policy(), 4) == 5 * 8);    // E: seq 5
  d.touch(3);
  CHECK(d.reclaim(1) == std::vector<PageId>{1});
  CHECK(probe_mglru(d.policy(), kNoPage) == 7);
  CHECK(probe_mglru(d.policy(), 3) == 5 * 8);  // D: moved by the walk to seq 5
}

TEST_CASE("mglru: anon's and file's min_seq stay in sync (try_to_inc_min_seq with swap)") {
  // Anonymous A = id 0, file pages F1 F2 F3 = ids 1..3, 16 frames, swappiness 60. Start:
  // max_seq 3, min_seq 0 for both types. Fault A: gen3 anon [Ay]. Read F1 F2 F3: min_seq + 1
  // = gen1 file [F3 F2 F1], PG_referenced (refs + workingset 0, tier 0).
  // Reclaim 1: try_to_inc_min_seq: anon's gens 0, 1 empty -> 2 (2 + 2 > 3 stops it); file's
  //   gen0 empty, gen1 not -> 1; then anon = min(2, 1) = 1, file = max(1, 0) = 1.
  //   should_run_aging: 1 + 2 == max_seq 3 -> young (seq 3) 1 * 2 > total 4? no; old (seq 1)
  //   3 * 4 < 4? no -> no aging, max_seq stays 3. (With anon's min_seq at 2 on its own, 2 + 2
  //   > 3 would have aged: max_seq 4.) get_type_to_scan: no refaults -> file, tier_idx 3.
  //   Tail of gen1 file: F1 -> VICTIM F1.
  // Reclaims 2, 3: young 1, old 2 then 1, total 3 then 2 -> no aging: VICTIM F2, then F3.
  //   Then (evict_folios) file's gen1 is empty: both min_seq -> 2.
  // Reclaim 4: 2 + 2 > 3 -> age: A young -> head of gen3, cleared; max_seq 4; min_seq -> 3
  //   (both): 2 generations, nothing to evict -> age again: max_seq 5. File has no page:
  //   anon, tail A, not young -> VICTIM A.
  TraceBuilder b;
  b.add(1, 0, true);
  for (std::uint64_t v = 1; v <= 3; ++v) b.add(1, v, false, PageKind::kFile);
  const Trace t = std::move(b).build();
  Driver d(t, "mglru", 16, Params{});
  for (PageId p = 0; p < 4; ++p) d.fault(p);
  CHECK(d.reclaim(1) == std::vector<PageId>{1});
  CHECK(probe_mglru(d.policy(), kNoPage) == 3);  // max_seq: no aging
  CHECK(d.reclaim(1) == std::vector<PageId>{2});
  CHECK(d.reclaim(1) == std::vector<PageId>{3});
  CHECK(probe_mglru(d.policy(), kNoPage) == 3);
  CHECK(d.reclaim(1) == std::vector<PageId>{0});
  CHECK(probe_mglru(d.policy(), kNoPage) == 5);
}

TEST_CASE("mglru: reclaim moves min_seq on before the faulting page goes in (evict_folios)") {
  // File pages F1 F2 F3 = ids 0..2, 16 frames. Start: max_seq 3, min_seq 0. Read F1 F2:
  // min_seq + 1 = gen1 file [F2 F1], PG_referenced (tier 0).
  // Reclaim 1: try_to_inc_min_seq: anon -> 2, file -> 1; anon = min(2, 1) = 1, file 1.
  //   should_run_aging: 1 + 2 == 3 -> young 0, old 2 of 2 -> no aging. File: VICTIM F1.
  // Reclaim 2: VICTIM F2; file's gen1 is now empty, and evict_folios' try_to_inc_min_seq
  //   moves both min_seq to 2 at once.
  // Read F3: min_seq + MIN_NR_GENS >= max_seq (2 + 2 >= 3) -> gen min_seq = 2, tier 0. (Left
  //   at 1 until the next reclaim, min_seq would put F3 in gen1, behind every other page.)
  const Trace t = file_trace({0, 1, 2});
  Driver d(t, "mglru", 16, Params{});
  d.fault(0);
  d.fault(1);
  CHECK(d.reclaim(1) == std::vector<PageId>{0});
  CHECK(d.reclaim(1) == std::vector<PageId>{1});
  d.fault(2);
  CHECK(probe_mglru(d.policy(), 2) == 2 * 8);
}

TEST_CASE("mglru: a tier that refaults more than tier 0 is protected at eviction") {
  // File pages H, C1..C4 = ids 0..4; swappiness 1 (file first, tier_idx from get_tier_idx:
  // gains 1 for tier 0, 2 for the others); min_lru_batch 1. All pages sit in seq 1: after
  // min_seq moves 0 -> 1, min_seq + 2 >= max_seq 3, so read pages are inserted at min_seq.
  // No aging: 3 generations, young (seq 3) empty, old (seq 1) holds everything.
  // positive_ctrl_err(sp, pv) = pv.refaulted < 1 || pv.refaulted * (sp.total + 1) * 1
  //                                                  <= (sp.refaulted + 1) * pv.total * 2
  // H, C1, H again (referenced, workingset: tier 1; a read in succession would not count),
  // C2, C3 read once: gen1 [C3 C2 C1 H].
  // Reclaim 1: no refaults yet, tier_idx 3: tail H evicted, shadow (seq 1, refs 1), evicted[1] 1.
  // H read again: refault in min_seq 1 -> refaulted[1] = 1; C4 read; H read again -> tier 1
  // again. gen1 [C4 H C3 C2 C1].
  // Reclaim 2: tier 0 total 0: 1 * 1 <= 1 * 1 * 2 -> not protected: C1 evicted (evicted[0] 1).
  // Reclaim 3: 1 * 2 <= 2 -> C2 evicted (evicted[0] 2).
  // Reclaim 4: 1 * 3 <= 2 fails -> tier_idx 0, but the tail C3 is tier 0: evicted.
  // Reclaim 5: tail H, tier 1 > 0 -> protected: tail of seq 2, refs cleared, protected[1] 1;
  //   then tier 1's total is 2: 1 * 4 <= 1 * 2 * 2 -> tier_idx 3; C4 evicted.
  const Trace t = file_trace({0, 1, 2, 3, 4});
  Driver d(t, "mglru", 16,
           Params{{"swappiness", std::int64_t{1}}, {"min_lru_batch", std::int64_t{1}}});
  d.fault(0);
  d.fault(1);
  d.touch(0);
  d.fault(2);
  d.fault(3);
  CHECK(d.reclaim(1) == std::vector<PageId>{0});
  d.fault(0);
  d.fault(4);
  d.touch(0);
  CHECK(d.reclaim(1) == std::vector<PageId>{1});
  CHECK(d.reclaim(1) == std::vector<PageId>{2});
  CHECK(d.reclaim(1) == std::vector<PageId>{3});
  CHECK(probe_mglru(d.policy(), 0) == 1 * 8 + 1);  // H: seq 1, tier 1
  CHECK(d.reclaim(1) == std::vector<PageId>{4});
  CHECK(probe_mglru(d.policy(), 0) == 2 * 8 + 0);  // H protected: seq 2, refs cleared
}

TEST_CASE("mglru: saturated refs are protected; a refault with refs >= 3 comes back saturated") {
  // "mm/mglru: fix underprotected page cache" (081488051d28). File pages only (should_run_aging
  // looks at file's min_seq), 16 frames, swappiness 60, no refaults: get_type_to_scan picks
  // file (its tier-0 refaults < MIN_LRU_BATCH) and tier_idx 3 (nothing protected by tier).
  // refs below = refs + workingset; tier = order_base_2(refs + 1).
  // (a) H (id 0) read 5 times, F (id 1) 4 times, alternately (a page read again in
  //   succession counts once): H refs 4 (saturated), tier 3; F refs 3, tier 2. Both in
  //   min_seq + 1 = gen1: [F H]. Reclaim 1: min_seq[file] 0 -> 1; 3 generations, young
  //   (seq 3) 0, old (seq 1) 2 * 4 < 2 no -> no aging. Tail H: tier 3 > 3 no, but refs == 4
  //   -> protected: tail of gen2, refs cleared. Tail F: tier 2, not saturated -> VICTIM F.
  //   (Before the fix: H.) F's eviction empties gen1: evict_folios' try_to_inc_min_seq moves
  //   min_seq to 2, and then (shrink_folio_list) F's shadow holds min_seq 2, refs 3. F read
  //   again: a refault in the current min_seq, refs 3 -> saturated, inserted at min_seq 2
  //   (2 + 2 >= 3), PG_referenced: seq 2, tier 3. (A shadow taken before the move would hold
  //   1: no refault, tier 0.)
  const Trace t = file_trace({0, 1, 2});
  {
    Driver d(t, "mglru", 16, Params{});
    d.fault(0);
    d.fault(1);
    for (int k = 0; k < 3; ++k) {
      d.touch(0);
      d.touch(1);
    }
    d.touch(0);
    CHECK(d.reclaim(1) == std::vector<PageId>{1});
    CHECK(probe_mglru(d.policy(), 0) == 2 * 8 + 0);  // H: seq 2, refs cleared
    d.fault(1);
    CHECK(probe_mglru(d.policy(), 1) == 2 * 8 + 3);
  }
  // (b) H read 4 times, F 4 times, alternately from H: refs 3, tier 2 each. Reclaim 1 (as
  //   above): tail H, tier 2 <= 3, not saturated -> VICTIM H, shadow (min_seq 1, refs 3). H read
  //   again: the shadow's seq is min_seq -> a refault; refs 3 >= BIT(LRU_REFS_WIDTH) - 1 -> refs 3
  //   and PG_workingset (saturated), inserted at min_seq 1 (1 + 2 >= max_seq 3), then the read sets
  //   PG_referenced: seq 1, refs 4, tier 3. (Before the fix only refs == 4 set PG_workingset:
  //   tier 0.)
  Driver d(t, "mglru", 16, Params{});
  d.fault(0);
  d.fault(1);
  for (int k = 0; k < 3; ++k) {
    d.touch(0);
    d.touch(1);
  }
  CHECK(d.reclaim(1) == std::vector<PageId>{0});
  d.fault(0);
  CHECK(probe_mglru(d.policy(), 0) == 1 * 8 + 3);
}

TEST_CASE("mglru: a dirty file page waits one generation for its writeback, then goes") {
  // File pages F0 (written), F1, F2 (read) = ids 0..2, 16 frames. Start: max_seq 3, min_seq
  // 0. F0, F1: gen1 file [F1 F0] (min_seq + 1), PG_referenced (tier 0).
  // Reclaim 1: min_seq -> 1 for both (as in "anon's and file's min_seq stay in sync"); no
  //   aging. File, tail of gen1: F0 dirty -> sort_folio's "waiting for writeback": head of
  //   gen2, refs cleared, writeback started. Tail: F1 -> VICTIM F1. Gen1 is empty: min_seq
  //   -> 2 (both).
  // Read F2: min_seq + 2 >= max_seq -> gen min_seq = 2, head: [F2 F0].
  // Reclaim 2: 2 + 2 > 3 -> age: max_seq 4. Tail of gen2: F0, its writeback started ->
  //   VICTIM F0 (the engine writes it now), ahead of the younger clean F2.
  // (Skipped as dirty again, F0 would go to gen3 and F2 would be the victim.)
  const Trace t = file_trace({0, 1, 2}, {true});
  Driver d(t, "mglru", 16, Params{});
  d.fault(0, true);
  d.fault(1);
  CHECK(d.reclaim(1) == std::vector<PageId>{1});
  CHECK(probe_mglru(d.policy(), 0) == 2 * 8);  // F0: seq 2, tier 0
  d.fault(2);
  CHECK(probe_mglru(d.policy(), 2) == 2 * 8);
  CHECK(d.reclaim(1) == std::vector<PageId>{0});
  CHECK(probe_mglru(d.policy(), kNoPage) == 4);  // max_seq
}

TEST_CASE("mglru: a file readahead page comes in without a reference") {
  // File pages F0 F1 = ids 0, 1, both inserted at min_seq + 1 = 1. F0 faults: its read is
  // folio_inc_refs -> PG_referenced (tier 0). F1 is read ahead: no folio_inc_refs; its first
  // read -> PG_referenced (tier 0). F0's second read -> PG_workingset (tier 1); F1's second
  // -> tier 1.
  const Trace t = file_trace({10, 11});
  Driver d(t, "mglru", 8, Params{});
  d.fault(0);
  d.read_ahead(1);
  d.touch(1);
  d.touch(0);
  CHECK(probe_mglru(d.policy(), 0) == 1 * 8 + 1);
  CHECK(probe_mglru(d.policy(), 1) == 1 * 8 + 0);
  d.touch(1);
  CHECK(probe_mglru(d.policy(), 1) == 1 * 8 + 1);
}

TEST_CASE("mglru: file reads set referenced, then workingset, then 2-bit refs (tiers)") {
  // A file page read() k times: refs + workingset = 0, 1, 2, 3, 4, 4 for k = 1..6;
  // tier = order_base_2(that + 1) = 0, 1, 2, 2, 3, 3. Inserted at min_seq + 1 = 1
  // (min_seq 0 + MIN_NR_GENS < max_seq 3). The page at vpn v is read v + 1 times in rounds:
  // round k reads vpns 5 down to k, so no page is read twice in succession (which counts
  // once). Page ids follow first touches: vpn v is id 5 - v.
  TraceBuilder b;
  for (std::uint64_t round = 0; round < 6; ++round) {
    for (std::uint64_t vpn = 6; vpn-- > round;) b.add(1, vpn, false, PageKind::kFile);
  }
  const auto r = replay(std::move(b).build(), "mglru", 8);
  const std::int64_t expected_tier[6] = {0, 1, 2, 2, 3, 3};
  for (PageId vpn = 0; vpn < 6; ++vpn) {
    CAPTURE(vpn);
    CHECK(probe_mglru(*r.policy, 5 - vpn) == 1 * 8 + expected_tier[vpn]);
  }
}

}  // namespace
}  // namespace pagesim::test

namespace pagesim::test {
namespace {

// ---- linux24_mq ------------------------------------------------------------------------

// probe_linux24_mq: age + 256 * list (0 active, 1 inactive_dirty, 2 inactive_clean, 3 freed
// by swap_out, 4 on no list: an anonymous page swap_out never unmapped) + 2048 if mapped;
// -1 not resident.
constexpr std::int64_t kMqDirty = 256;
constexpr std::int64_t kMqClean = 512;
constexpr std::int64_t kMqFreed = 768;
constexpr std::int64_t kMqNoList = 1024;
constexpr std::int64_t kMqMapped = 2048;

// Under 64 faults memory_pressure >> 6 is 0, so inactive_target is 0 in these traces:
// free_shortage = inactive_clean < wanted, inactive_shortage = inactive_clean +
// inactive_dirty < wanted (wanted, the victims still wanted, stands for freepages.high).

TEST_CASE("linux24_mq: swap_out evicts by virtual-address position, not by recency") {
  // One process, anonymous pages read in the order A=vpn 2 (id 0), B=vpn 3 (1), C=vpn 1 (2),
  // D=vpn 0 (3): LRU order A B C D, walk order D C A B. Each fault: age 2 (PAGE_AGE_START),
  // young, mapped, on no list (no swap cache yet), clean (read: no swap slot).
  // reclaim 1: no inactive pages -> page_launder finds nothing -> refill_inactive, count 8:
  //   prio 6: active list empty; swap_out: every swap_cnt 0 -> assign max(4 >> 5, 8) = 8;
  //     walk D C A B: all young -> age_page_up 2 -> 5; end of the mm: swap_cnt 0, returns 0.
  //     No progress -> prio 5: walk: not young, on no list -> age /= 2: all 2. prio 4: all 1.
  //   prio 3: D, C, A, B in turn: 1 / 2 = 0 -> unmapped; clean and not in the swap cache ->
  //     drop_pte frees it: freed [B A C D] (head first). No shortage left (4 free pages).
  //   rmqueue takes the free list's head, the last page freed: VICTIM B (the walk's last).
  // reclaim 1, 1, 1: A, C, D: the walk's order backwards. (LRU would evict A, B, C, D.)
  TraceBuilder b;
  for (std::uint64_t vpn : std::initializer_list<std::uint64_t>{2, 3, 1, 0}) b.add(1, vpn, false);
  const Trace t = std::move(b).build();
  Driver d(t, "linux24_mq", 4, Params{});
  for (PageId p = 0; p < 4; ++p) d.fault(p);
  CHECK(probe_linux24_mq(d.policy(), 0) == 2 + kMqNoList + kMqMapped);
  CHECK(d.reclaim(1) == std::vector<PageId>{1});
  CHECK(probe_linux24_mq(d.policy(), 0) == kMqFreed);  // A: 5 -> 2 -> 1 -> 0, freed
  CHECK(d.reclaim(1) == std::vector<PageId>{0});
  CHECK(d.reclaim(1) == std::vector<PageId>{2});
  CHECK(d.reclaim(1) == std::vector<PageId>{3});
}

TEST_CASE("linux24_mq: an exit frees a page drop_pte already freed only once") {
  // memory_pressure (probe(kNoPage)): ++ per allocation (each fault), -- per page freed
  // (__free_pages_ok: if (memory_pressure > NR_CPUS) memory_pressure--;, NR_CPUS 1).
  // As in the test above (8 frames: inactive_target is 0 all the same), pages A B C D read:
  // 4 faults, memory_pressure 4. Reclaim 1: the walk frees D C A B by drop_pte (4 -> 3 -> 2
  // -> 1 -> 1), free list [B A C D]; VICTIM B. Faults E F G: 2, 3, 4.
  // The process exits. A is on the free list: its pte was cleared and the page freed at
  // drop_pte; zap_pte_range skips the cleared pte: memory_pressure stays 4. E, mapped, is
  // freed now: 3.
  TraceBuilder b;
  for (std::uint64_t vpn : std::initializer_list<std::uint64_t>{2, 3, 1, 0, 4, 5, 6}) {
    b.add(1, vpn, false);
  }
  const Trace t = std::move(b).build();
  Driver d(t, "linux24_mq", 8, Params{});
  for (PageId p = 0; p < 4; ++p) d.fault(p);
  CHECK(probe_linux24_mq(d.policy(), kNoPage) == 4);
  CHECK(d.reclaim(1) == std::vector<PageId>{1});
  CHECK(probe_linux24_mq(d.policy(), kNoPage) == 1);
  for (PageId p = 4; p < 7; ++p) d.fault(p);
  CHECK(probe_linux24_mq(d.policy(), 0) == kMqFreed);
  CHECK(probe_linux24_mq(d.policy(), kNoPage) == 4);
  d.free(0);
  CHECK(probe_linux24_mq(d.policy(), kNoPage) == 4);
  d.free(4);
  CHECK(probe_linux24_mq(d.policy(), kNoPage) == 3);
}

TEST_CASE("linux24_mq: a dirty anonymous page enters the swap cache; a soft fault activates it") {
  // Anonymous pages A = vpn 0 (id 0, written: dirty) and B = vpn 1 (id 1, read), 4 frames.
  // reclaim 1: refill_inactive: swap_out walks A B at prio 6 (young: 2 -> 5), 5 (2), 4 (1),
  //   3 (0): A is unmapped into the swap cache (add_to_swap_cache: inactive_dirty, age 0),
  //   B, clean and not in the swap cache, is freed (free list). 2 inactive or free pages: no
  //   shortage left. The free page is reused first: VICTIM B.
  // Hit A: do_swap_page finds it in the swap cache: age_page_up activates it (active, age 2,
  //   +3 = 5) and it is mapped again.
  // reclaim 1: page_launder finds nothing; refill_inactive: A is on the active list now, so
  //   swap_out no longer halves its age, refill_inactive_scan does (mapped: never
  //   deactivated there): prio 6: scan 5 -> 2; walk: young -> 5. prio 5: scan 2; walk keeps
  //   it. prio 4: scan 1. prio 3: scan 0; walk: age 0 -> unmapped, deactivate_page ->
  //   inactive_dirty. page_launder: loop 1 requeues A (dirty), loop 2 writes it; next round
  //   loop 1 finds it clean -> inactive_clean; reclaim_page: VICTIM A.
  TraceBuilder b;
  b.add(1, 0, true);
  b.add(1, 1, false);
  const Trace t = std::move(b).build();
  Driver d(t, "linux24_mq", 4, Params{});
  d.fault(0, true);
  d.fault(1);
  CHECK(d.reclaim(1) == std::vector<PageId>{1});
  CHECK(probe_linux24_mq(d.policy(), 0) == kMqDirty);
  d.touch(0);
  CHECK(probe_linux24_mq(d.policy(), 0) == 5 + kMqMapped);
  CHECK(d.reclaim(1) == std::vector<PageId>{0});
  // A faults back in: swapin_readahead puts it in the swap cache at age 2, and
  // read_swap_cache finds it there (lookup_swap_cache -> __find_page_nolock: age_page_up):
  // active, age 5, mapped.
  d.swap_in(0);
  CHECK(probe_linux24_mq(d.policy(), 0) == 5 + kMqMapped);
}

// A file page read 1 + `hits` times, then kswapd ticks: the tick at which
// refill_inactive_scan(6, 0) deactivates it (one page on the active list: each tick scans it).
int ticks_to_deactivate(int hits) {
  const Trace t = file_trace({7});
  Driver d(t, "linux24_mq", 4, Params{});
  d.fault(0);
  for (int h = 0; h < hits; ++h) d.touch(0);
  for (int tick = 1; tick <= 100; ++tick) {
    d.tick();
    if (probe_linux24_mq(d.policy(), 0) == kMqDirty) return tick;
  }
  return -1;
}

TEST_CASE("linux24_mq: exponential aging: k references survive about log2(2 + 3k) scans") {
  // Fault: age 2; every hit +3 (cap 64); every scan halves the age, 0 -> inactive_dirty.
  CHECK(ticks_to_deactivate(0) == 2);   // 2 -> 1 -> 0
  CHECK(ticks_to_deactivate(1) == 3);   // 5 -> 2 -> 1 -> 0
  CHECK(ticks_to_deactivate(2) == 4);   // 8 -> 4 -> 2 -> 1 -> 0
  CHECK(ticks_to_deactivate(10) == 6);  // 32 -> 16 -> 8 -> 4 -> 2 -> 1 -> 0
  CHECK(ticks_to_deactivate(20) == 6);  // 62 -> 31 -> 15 -> 7 -> 3 -> 1 -> 0
  CHECK(ticks_to_deactivate(21) == 7);  // 65 capped at 64 -> 32 -> ... -> 1 -> 0
  CHECK(ticks_to_deactivate(100) == 7);
}

// File pages faulted in order, then kswapd ticks until all are on inactive_dirty: with
// n pages on the active list each tick scans its tail only (max(n >> 6, 1) = 1).
// Pages [P2 P1 P0] (head..tail), age 2: three ticks take each to 1 and round again, three more
// deactivate P0, P1, P2 in turn: inactive_dirty [P2 P1 P0].
void deactivate_all(Driver& d, PageId n) {
  for (PageId t = 0; t < 2 * n; ++t) d.tick();
  for (PageId p = 0; p < n; ++p) REQUIRE(probe_linux24_mq(d.policy(), p) == kMqDirty);
}

TEST_CASE(
    "linux24_mq: page_launder requeues a dirty page in its first loop, writes it in the second") {
  // File pages D (id 0, written: dirty) and C (id 1, read). inactive_dirty [C D].
  // reclaim 1: page_launder loop 1: D dirty, first time through -> requeued [D C];
  //   C clean -> inactive_clean [C]. free_shortage: 1 clean < 1 wanted? no -> no second loop;
  //   inactive_shortage: 1 + 1 < 1? no -> no refill. reclaim_page: VICTIM C (not the tail D).
  //   D is still unwritten.
  // reclaim 1: loop 1: D requeued again; free_shortage: 0 < 1 -> loop 2: D is written
  //   (laundered, requeued). refill_inactive finds nothing to do (no active or anonymous
  //   pages). page_launder again: loop 1: D is clean to the kernel -> inactive_clean; no
  //   shortage left. reclaim_page: VICTIM D (the engine writes it now).
  TraceBuilder b;
  b.add(1, 0, true, PageKind::kFile);
  b.add(1, 1, false, PageKind::kFile);
  const Trace t = std::move(b).build();
  Driver d(t, "linux24_mq", 4, Params{});
  d.fault(0, true);
  d.fault(1);
  deactivate_all(d, 2);
  CHECK(d.reclaim(1) == std::vector<PageId>{1});
  CHECK(probe_linux24_mq(d.policy(), 0) == kMqDirty);  // not laundered
  CHECK(d.reclaim(1) == std::vector<PageId>{0});
}

TEST_CASE("linux24_mq: a page hit on inactive_clean is activated, reclaim_page takes the next") {
  // File pages A B C (ids 0 1 2), read once: inactive_dirty [C B A].
  // reclaim 1: page_launder loop 1: A, B, C clean -> inactive_clean [C B A]; no shortage
  //   left; reclaim_page: VICTIM A.
  // Hit B: __find_page_nolock -> age_page_up: age 0 -> activate_page (active head, age 2),
  //   +3 -> 5.
  // reclaim 1: inactive_clean [C]: VICTIM C. B stays, active with age 5.
  const Trace t = file_trace({10, 11, 12});
  Driver d(t, "linux24_mq", 4, Params{});
  for (PageId p = 0; p < 3; ++p) d.fault(p);
  deactivate_all(d, 3);
  CHECK(d.reclaim(1) == std::vector<PageId>{0});
  CHECK(probe_linux24_mq(d.policy(), 1) == kMqClean);
  d.touch(1);
  CHECK(probe_linux24_mq(d.policy(), 1) == 5);
  CHECK(d.reclaim(1) == std::vector<PageId>{2});
  CHECK(probe_linux24_mq(d.policy(), 1) == 5);
}

TEST_CASE("linux24_mq: page-cache hits age a file page up; anonymous hits only set the young bit") {
  // File page F (id 0): fault age 2, each hit +3: 5, 8, ... capped at 64; active throughout.
  // Anonymous page A (id 1): fault age 2, mapped, on no list; hits set the pte young bit,
  // which only swap_out reads: the age stays 2.
  TraceBuilder b;
  b.add(1, 0, false, PageKind::kFile);
  b.add(1, 1, false);
  const Trace t = std::move(b).build();
  Driver d(t, "linux24_mq", 4, Params{});
  d.fault(0);
  d.fault(1);
  CHECK(probe_linux24_mq(d.policy(), 0) == 2);
  d.touch(0);
  CHECK(probe_linux24_mq(d.policy(), 0) == 5);
  d.touch(0);
  CHECK(probe_linux24_mq(d.policy(), 0) == 8);
  for (int h = 0; h < 20; ++h) d.touch(0);
  CHECK(probe_linux24_mq(d.policy(), 0) == 64);
  for (int h = 0; h < 3; ++h) d.touch(1);
  CHECK(probe_linux24_mq(d.policy(), 1) == 2 + kMqNoList + kMqMapped);
}

}  // namespace
}  // namespace pagesim::test
