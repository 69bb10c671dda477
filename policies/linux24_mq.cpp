// Linux 2.4.0 mainline VM (Rik van Riel's "multiqueue VM", shipped 2.4.0 - 2.4.9 with small
// changes): page->age with exponential decay, lists active / inactive_dirty / inactive_clean,
// and NO reverse map: the young bits of anonymous pages are seen only by swap_out's walk of
// one process's page tables in virtual-address order.
//
// Sources (Linux 2.4.0): mm/vmscan.c try_to_swap_out, swap_out_mm, swap_out, reclaim_page,
// page_launder, refill_inactive_scan, free_shortage, inactive_shortage, refill_inactive,
// do_try_to_free_pages, kswapd; mm/swap.c age_page_up, age_page_down_ageonly,
// deactivate_page_nolock, activate_page_nolock, lru_cache_add, recalculate_vm_stats;
// mm/filemap.c __find_page_nolock; mm/memory.c do_swap_page, do_anonymous_page;
// mm/page_alloc.c __free_pages_ok, __alloc_pages; include/linux/swap.h (PAGE_AGE_START 2,
// PAGE_AGE_ADV 3, PAGE_AGE_MAX 64, INACTIVE_SHIFT 6, inactive_target).
// See /work/shared/reference/linux-reclaim.md sections 1a, 1f and 5.
//
// Page model. A file page is page cache used through read()/write(): never mapped. An
// anonymous page is mapped by its fault; until swap_out first unmaps it, it is on NO list
// (2.4.0 puts anonymous memory on the LRU lists only when it enters the swap cache). A page
// swapped in (do_swap_page -> read_swap_cache) or brought in by swap readahead is in the
// swap cache: on the lists, mapped (readahead: not mapped). An access to a resident but
// unmapped anonymous page is a soft fault: do_swap_page finds it with lookup_swap_cache
// (-> __find_page_nolock -> age_page_up) and maps it again.
//
//   new page: age = PAGE_AGE_START (2)         (__free_pages_ok sets it when the page is freed)
//     file (add_to_page_cache -> lru_cache_add), swap-in, readahead: active head
//     anonymous first touch (do_anonymous_page): mapped, on no list
//   file page hit, soft fault: __find_page_nolock -> age_page_up
//   age_page_up:   if (!page->age) activate_page(page);      -- inactive -> active head,
//                  page->age += PAGE_AGE_ADV (cap 64)           age = max(age, PAGE_AGE_START)
//   deactivate_page: page->age = 0; ClearPageReferenced; active -> inactive_dirty head
//
//   PG_referenced: in 2.4.0 only buffer-cache lookups (touch_buffer) set it; page-cache and
//   swap-cache lookups call age_page_up instead. No page modelled here ever has it, so the
//   kernel's PageTestandClearReferenced tests are always false and are left out. Likewise
//   the page_launder / reclaim_page tests "page->age > 0 || page_count(page) > 1 -> active"
//   never hold here: a page reaches the inactive lists unmapped with age 0, and the only
//   ways to raise its age (a hit, a soft fault: age_page_up) activate it at once.
//
//   Scanned (Counters::pages_scanned): every page refill_inactive_scan takes from the active
//   tail (the tick's background scan included), every page page_launder takes from the
//   inactive_dirty tail, every page try_to_swap_out looks at and keeps, and the victims. A
//   page the walk frees is counted once: as the victim when rmqueue takes its frame, or when
//   a hit rescues it from the free list (then the walk's look kept it); one still free at the
//   end of the run is not counted.
//
//   try_to_swap_out(page), for each present pte on the walk:
//     if (!mm->swap_cnt) return 1;  mm->swap_cnt--;
//     onlist = PageActive(page);
//     if (ptep_test_and_clear_young(page_table)) { age_page_up(page); goto out_failed; }
//     if (!onlist) age_page_down_ageonly(page);                 -- age /= 2
//     if (page->age > 0) goto out_failed;
//     unmap: PageSwapCache -> deactivate_page (to inactive_dirty)
//            clean, no swap cache -> drop_pte: the last reference goes, the page is freed
//                                    (here: kept on a list of freed pages, see below)
//            dirty, no swap cache -> get_swap_page, add_to_swap_cache (lru_cache_add with
//                                    age 0 -> inactive_dirty head), set_page_dirty
//   swap_out_mm: from mm->swap_address upward (swap_address = address + PAGE_SIZE before each
//     try_to_swap_out); at the end of the address space swap_address = 0, swap_cnt = 0,
//     return 0. try_to_swap_out returns 0 after an unmap: the walk goes on.
//   swap_out: best = the mm with the largest swap_cnt (rss > 0); if every swap_cnt is 0,
//     refresh them all: swap_cnt = max(rss >> SWAP_SHIFT (5), SWAP_MIN (8)), pick again;
//     swap_out_mm(best). One mm per call.
//
//   refill_inactive_scan(priority, oneshot): maxscan = nr_active_pages >> priority, from the
//     active tail: age_page_down_ageonly (age /= 2);
//       if (page->age == 0 && page_count(page) <= 1) deactivate_page_nolock -> ret = 1,
//                                                    stop if oneshot
//       else rotate to the active head      (a mapped page has count > 1: only swap_out can
//                                            take it off the active list)
//   page_launder: maxscan = nr_inactive_dirty_pages, from the inactive_dirty tail:
//       dirty: first loop (launder_loop 0) -> requeue at the head; second loop ->
//              ClearPageDirty, writepage (async: the page, locked, is requeued at the head)
//       clean -> inactive_clean head
//     then if (!launder_loop && free_shortage()) { launder_loop = 1; rescan }
//   reclaim_page: the inactive_clean tail is freed (memory_pressure++).
//
//   do_try_to_free_pages(user):
//     if (free_shortage() || nr_inactive_dirty_pages > free + inactive_clean) page_launder
//     if (free_shortage() || inactive_shortage()) refill_inactive(user):
//       count = 1 << page_cluster (user); priority = 6; do {
//         while (refill_inactive_scan(priority, 1)) { made_progress; if (--count <= 0) done }
//         while (swap_out(priority)) { made_progress; if (--count <= 0) done }
//         if (!inactive_shortage() || !free_shortage()) done
//         if (!made_progress) priority--;
//       } while (priority >= 0);
//       while (refill_inactive_scan(0, 1)) if (--count <= 0) done
//   __alloc_pages, per victim wanted: a free page (rmqueue: here one swap_out freed), else
//     reclaim_page from inactive_clean; when both are empty, try_to_free_pages (a user
//     process: user = 1) and try again.
//   kswapd, every tick (PolicyTraits::tick_ns = 1 s of virtual time): refill_inactive_scan(6,
//     0) ("scan all pages on the active list once every minute"); recalculate_vm_stats:
//     memory_pressure -= memory_pressure >> INACTIVE_SHIFT.
//
//   Targets. free_shortage: free + inactive_clean < freepages.high + inactive_target / 3;
//   inactive_shortage: free + inactive_clean + inactive_dirty < freepages.high +
//   inactive_target; inactive_target = min(memory_pressure >> 6, num_physpages / 4), where
//   memory_pressure++ per allocation (each fault) and per reclaim_page, -- per
//   __free_pages_ok (while > NR_CPUS: 1 here). The engine asks for victims only when no frame
//   is free (free = the pages swap_out freed, kept below), and freepages.high stands for the
//   victims still wanted.
//
// Departures from the kernel:
//   - A write page_launder's second loop starts is the engine's writeback
//     (PageTableView::start_writeback): counted then, the page clean from then on, as if the
//     write had completed by its next visit, when page_launder moves it to inactive_clean and
//     reclaim_page frees it. A write to it in between dirties it again (written again if
//     laundered again). MAX_LAUNDER only bounds buffer-page IO, not modelled.
//   - Dirty file pages (buffers) go through the same two loops as dirty swap-cache pages.
//   - A page swap_out frees (clean, not in the swap cache: drop_pte) stays resident on a list
//     of freed pages, the free list: the next victims are taken from it first, the last
//     freed first (the buddy allocator's list is LIFO: __free_pages_ok adds at the head,
//     rmqueue takes the head), before reclaim_page is asked (2.4.0's __alloc_pages_limit
//     asks reclaim_page first once free pages fall below pages_min + 8); it
//     counts as free in free_shortage and inactive_shortage. The walk goes on to the end of
//     swap_cnt, as the kernel's does. Accessed while on that list it is a hit, handled as the
//     minor fault 2.4.0 would take (do_anonymous_page: age 2, mapped, on no list).
//   - refill_inactive_scan looks at one page at least: maxscan = max(nr_active >> priority,
//     1). Below 64 active pages the kernel's priority-6 scans look at nothing, and as
//     swap_out never ages a page on the active list, a small memory full of mapped swap-cache
//     pages would never age (refill_inactive stops at priority 6 while swap_out "progresses").
//   - refill_inactive's count is 1 << 3 (page_cluster 3, as for 16-32 MiB machines and the
//     engine's default readahead); no slab, dcache or icache.
//   - generic_file_readahead's drop_behind (deactivating the pages behind a sequential
//     read) is not modelled.
//   - swapin_readahead's read_swap_cache_async looks up every valid slot of the window, and
//     __find_page_nolock ages up a page it finds in the swap cache (age_page_up: +3, back
//     to the active list from age 0); the engine tells the policy only of the pages it reads,
//     so a resident swap-cache page in the window is not aged up.
//   - An anonymous page first touched by a read maps the shared zero page in 2.4.0; here it
//     has a frame of its own, clean, and its unmap frees it (drop_pte).
//   - mm ties in swap_out go to the lowest process index; exits (free_on_exit) drop each
//     page from its list and its mm's rss (exit_mmap -> __free_pages_ok -> lru_cache_del),
//     and an mm with rss 0 is never chosen, as if off mmlist.
//   - When reclaim makes no progress for long (2.4.0 would loop in kswapd or OOM-kill),
//     a freed page, the inactive_clean, inactive_dirty, then active tail, then any mapped
//     page is evicted.
#include <algorithm>
#include <cstdint>
#include <vector>

#include "pagesim/page_list.hpp"
#include "pagesim/registry.hpp"
#include "pagesim/walk_order.hpp"

namespace pagesim {
namespace {

constexpr std::size_t kActive = 0;
constexpr std::size_t kInactiveDirty = 1;
constexpr std::size_t kInactiveClean = 2;
constexpr std::size_t kFreed = 3;  // freed by swap_out's drop_pte, not yet reused
constexpr int kAgeStart = 2;       // PAGE_AGE_START
constexpr int kAgeAdv = 3;         // PAGE_AGE_ADV
constexpr int kAgeMax = 64;        // PAGE_AGE_MAX
constexpr int kDefPriority = 6;
constexpr unsigned kInactiveShift = 6;
constexpr std::size_t kSwapShift = 5;
constexpr std::size_t kSwapMin = 8;
constexpr int kUserRefillCount = 1 << 3;  // 1 << page_cluster

class Linux24Mq final : public Policy {
 public:
  explicit Linux24Mq(const Params& /*params*/) {}

  PolicyTraits traits() const override {
    PolicyTraits t;
    t.needs_hits = true;
    t.tick_ns = 1'000'000'000;  // kswapd sleeps one second
    t.writes_back = true;       // page_launder's writepage
    return t;
  }

  void reset(std::size_t num_pages, std::size_t frames) override {
    lists_.reset(num_pages, 4);
    age_.assign(num_pages, 0);
    mapped_.assign(num_pages, 0);
    num_physpages_ = frames;
    memory_pressure_ = 0;
    walk_ = VpnOrder{};
    hand_.clear();
    swap_cnt_.clear();
    rss_.clear();
  }

  void on_hit(const Access& a, PageTableView view) override {
    const PageId p = a.page;
    if (a.kind == PageKind::kFile) return age_page_up(p);  // __find_page_nolock
    if (mapped_[p]) return;                                // the CPU sets the pte young bit
    if (lists_.contains(kFreed, p)) {
      view.count_scanned(p);  // the walk's look that freed it, which kept it after all
      lists_.remove(p);       // a new page: do_anonymous_page
      age_[p] = kAgeStart;
    } else {
      age_page_up(p);  // soft fault: do_swap_page -> lookup_swap_cache -> __find_page_nolock
    }
    map(p, view);
  }

  void on_fault(const Access& a, PageTableView view) override {
    const PageId p = a.page;
    ++memory_pressure_;  // __alloc_pages
    age_[p] = kAgeStart;
    if (a.kind == PageKind::kFile || a.readahead) {
      lists_.push_front(kActive, p);  // lru_cache_add; a readahead page has no pte
      return;
    }
    if (view.in_swap(p)) {
      // swapin_readahead put it in the swap cache at age 2; read_swap_cache finds it there
      // (lookup_swap_cache -> __find_page_nolock: age_page_up).
      lists_.push_front(kActive, p);
      age_page_up(p);
    }
    map(p, view);
  }

  void on_free(PageId p, PageTableView view) override {
    ensure_mms(view);
    // A swapped-out page only frees its swap entry; one drop_pte freed (on the free list here)
    // was counted then: zap_pte_range skips its cleared pte (if (pte_none(page)) continue;).
    if (view.resident(p) && !lists_.contains(kFreed, p)) page_freed();
    free_page(p, view);
  }

  void on_tick(Tick /*now*/, PageTableView view) override {
    memory_pressure_ -= memory_pressure_ >> kInactiveShift;  // recalculate_vm_stats
    refill_inactive_scan(kDefPriority, /*oneshot=*/false, view);
  }

  void select_victims(std::size_t want, PageTableView view, VictimList& out) override {
    ensure_mms(view);
    std::size_t guard = 8 * view.resident_count() + 1024;
    while (out.size() < want) {
      if (guard-- == 0) {
        evict_any(view, out);
      } else if (!lists_.empty(kFreed)) {
        evict(lists_.front(kFreed), view, out);  // rmqueue: the last page freed
      } else if (!lists_.empty(kInactiveClean)) {
        reclaim_page(view, out);
      } else {
        do_try_to_free_pages(want - out.size(), view);
      }
    }
  }

  // Test hook (probe_linux24_mq): age + 256 * list (0 active, 1 inactive_dirty,
  // 2 inactive_clean, 3 freed, 4 none: a mapped anonymous page never unmapped) + 2048 if
  // mapped; -1 when not resident. probe(kNoPage): memory_pressure.
  std::int64_t probe(PageId p) const {
    if (p == kNoPage) return static_cast<std::int64_t>(memory_pressure_);
    std::int64_t list = lists_.list_of(p);
    if (list == PageLists::kNone) {
      if (!mapped_[p]) return -1;
      list = 4;
    }
    return age_[p] + 256 * list + 2048 * mapped_[p];
  }

 private:
  void ensure_mms(PageTableView& view) {
    if (!rss_.empty()) return;
    const std::size_t procs = view.trace().num_procs();
    walk_.build(view.trace());
    hand_.assign(walk_.begin.begin(), walk_.begin.end() - 1);
    swap_cnt_.assign(procs, 0);
    rss_.assign(procs, 0);
  }

  void map(PageId p, PageTableView& view) {
    ensure_mms(view);
    mapped_[p] = 1;
    ++rss_[view.proc(p)];
  }

  void unmap(PageId p, PageTableView& view) {
    mapped_[p] = 0;
    --rss_[view.proc(p)];
  }

  void age_page_up(PageId p) {
    if (age_[p] == 0) {
      // activate_page: from either inactive list to the active head; age >= PAGE_AGE_START.
      if (lists_.list_of(p) != PageLists::kNone) lists_.move_to_front(kActive, p);
      age_[p] = kAgeStart;
    }
    age_[p] = static_cast<std::uint8_t>(std::min(age_[p] + kAgeAdv, kAgeMax));
  }

  void deactivate_page(PageId p) {
    age_[p] = 0;
    if (lists_.contains(kActive, p)) lists_.move_to_front(kInactiveDirty, p);
  }

  std::size_t inactive_target() const {
    return std::min(memory_pressure_ >> kInactiveShift, num_physpages_ / 4);
  }
  // `wanted` (the victims still wanted) stands for freepages.high; the free pages are those
  // swap_out freed.
  bool free_shortage(std::size_t wanted) const {
    return lists_.size(kFreed) + lists_.size(kInactiveClean) < wanted + inactive_target() / 3;
  }
  bool inactive_shortage(std::size_t wanted) const {
    return lists_.size(kFreed) + lists_.size(kInactiveClean) + lists_.size(kInactiveDirty) <
           wanted + inactive_target();
  }

  // try_to_free_pages moves pages towards inactive_clean; reclaim_page frees them.
  void do_try_to_free_pages(std::size_t wanted, PageTableView& view) {
    page_launder(wanted, view);
    if (free_shortage(wanted) || inactive_shortage(wanted)) refill_inactive(wanted, view);
  }

  void refill_inactive(std::size_t wanted, PageTableView& view) {
    int count = kUserRefillCount;
    for (int priority = kDefPriority; priority >= 0;) {
      bool made_progress = false;
      while (refill_inactive_scan(priority, /*oneshot=*/true, view)) {
        made_progress = true;
        if (--count <= 0) return;
      }
      while (swap_out(view)) {
        made_progress = true;
        if (--count <= 0) return;
      }
      if (!inactive_shortage(wanted) || !free_shortage(wanted)) return;
      if (!made_progress) --priority;
    }
    while (refill_inactive_scan(0, /*oneshot=*/true, view)) {
      if (--count <= 0) return;
    }
  }

  bool refill_inactive_scan(int priority, bool oneshot, PageTableView& view) {
    std::size_t maxscan = std::max<std::size_t>(lists_.size(kActive) >> priority, 1);
    bool ret = false;
    while (maxscan-- > 0 && !lists_.empty(kActive)) {
      const PageId p = lists_.back(kActive);
      view.count_scanned(p);
      age_[p] = static_cast<std::uint8_t>(age_[p] / 2);  // age_page_down_ageonly
      if (age_[p] == 0 && !mapped_[p]) {
        deactivate_page(p);
        ret = true;
        if (oneshot) break;
      } else {
        lists_.move_to_front(kActive, p);
      }
    }
    return ret;
  }

  void page_launder(std::size_t wanted, PageTableView& view) {
    for (bool launder_loop = false;; launder_loop = true) {
      std::size_t maxscan = lists_.size(kInactiveDirty);
      while (maxscan-- > 0 && !lists_.empty(kInactiveDirty)) {
        const PageId p = lists_.back(kInactiveDirty);
        view.count_scanned(p);
        if (!view.dirty(p)) {
          lists_.move_to_front(kInactiveClean, p);
        } else {
          // The first loop only requeues; the second writes (writepage, async), requeued too.
          if (launder_loop) view.start_writeback(p);
          lists_.move_to_front(kInactiveDirty, p);
        }
      }
      if (launder_loop || !free_shortage(wanted)) return;
    }
  }

  void reclaim_page(PageTableView& view, VictimList& out) {
    ++memory_pressure_;
    evict(lists_.back(kInactiveClean), view, out);
  }

  // Returns 1 as the kernel's does: when the chosen mm's swap_cnt ran out before its end.
  bool swap_out(PageTableView& view) {
    std::size_t best = pick_mm(/*assign=*/false);
    if (best == kNoMm) best = pick_mm(/*assign=*/true);
    if (best == kNoMm) return false;
    return swap_out_mm(best, view);
  }

  static constexpr std::size_t kNoMm = ~std::size_t{0};

  std::size_t pick_mm(bool assign) {
    std::size_t best = kNoMm;
    std::size_t max_cnt = 0;
    for (std::size_t mm = 0; mm < rss_.size(); ++mm) {
      if (rss_[mm] == 0) continue;
      if (assign) swap_cnt_[mm] = std::max(rss_[mm] >> kSwapShift, kSwapMin);
      if (swap_cnt_[mm] > max_cnt) {
        max_cnt = swap_cnt_[mm];
        best = mm;
      }
    }
    return best;
  }

  bool swap_out_mm(std::size_t mm, PageTableView& view) {
    const std::size_t end = walk_.begin[mm + 1];
    while (hand_[mm] < end) {
      const PageId p = walk_.pages[hand_[mm]++];  // swap_address = address + PAGE_SIZE
      if (!mapped_[p]) continue;                  // !pte_present
      if (swap_cnt_[mm] == 0) return true;
      --swap_cnt_[mm];
      try_to_swap_out(p, view);
    }
    hand_[mm] = walk_.begin[mm];
    swap_cnt_[mm] = 0;
    return false;
  }

  void try_to_swap_out(PageId p, PageTableView& view) {
    const bool onlist = lists_.contains(kActive, p);
    const bool young = view.test_and_clear_referenced(p);
    if (!young && !onlist) age_[p] = static_cast<std::uint8_t>(age_[p] / 2);
    const bool frees =
        !young && age_[p] == 0 && lists_.list_of(p) == PageLists::kNone && !view.dirty(p);
    // Every page the walk looks at but one it frees, which is counted when its frame is taken
    // (the victim) or when a hit rescues it (on_hit).
    if (!frees) view.count_scanned(p);
    if (young) return age_page_up(p);
    if (age_[p] > 0) return;
    unmap(p, view);
    if (lists_.list_of(p) != PageLists::kNone) return deactivate_page(p);  // PageSwapCache
    if (frees) {
      page_freed();  // drop_pte: the last reference goes
      lists_.push_front(kFreed, p);
      return;
    }
    lists_.push_front(kInactiveDirty, p);  // add_to_swap_cache -> lru_cache_add, age 0
  }

  // __free_pages_ok: if (memory_pressure > NR_CPUS) memory_pressure--;
  void page_freed() {
    if (memory_pressure_ > 1) --memory_pressure_;
  }

  void free_page(PageId p, PageTableView& view) {
    if (mapped_[p]) unmap(p, view);
    lists_.remove(p);
    age_[p] = 0;
  }

  void evict(PageId p, PageTableView& view, VictimList& out) {
    free_page(p, view);
    out.push_back(p);
  }

  void evict_any(PageTableView& view, VictimList& out) {
    for (std::size_t list : {kFreed, kInactiveClean, kInactiveDirty, kActive}) {
      if (!lists_.empty(list)) return evict(lists_.back(list), view, out);
    }
    for (PageId p : walk_.pages) {
      if (mapped_[p]) return evict(p, view, out);
    }
  }

  PageLists lists_;
  std::vector<std::uint8_t> age_;
  std::vector<std::uint8_t> mapped_;  // has a pte (anonymous pages only)
  std::size_t num_physpages_ = 0;
  std::size_t memory_pressure_ = 0;
  // Per mm (process): its anonymous pages in walk order, swap_address as an index into
  // walk_.pages, swap_cnt, rss (mapped pages).
  VpnOrder walk_;
  std::vector<std::size_t> hand_;
  std::vector<std::size_t> swap_cnt_;
  std::vector<std::size_t> rss_;
};

}  // namespace

std::int64_t probe_linux24_mq(const Policy& policy, PageId page) {
  return dynamic_cast<const Linux24Mq&>(policy).probe(page);
}

PAGESIM_REGISTER_POLICY(
    Linux24Mq, "linux24_mq",
    "Linux 2.4.0 multiqueue VM: exponential page->age, active/inactive_dirty/"
    "inactive_clean, anonymous pages aged by the virtual-address swap_out walk");

}  // namespace pagesim
