// Linux 2.4.10+ VM (Andrea Arcangeli), as in 2.4.17: active/inactive lists without page->age,
// pages reclaimed from the inactive tail when no pte maps them: file pages, and anonymous pages
// the swap_out hand has unmapped into the swap cache, walking each process's page tables in
// virtual-address order, process after process; swap_out frees a never-written page at once.
//
// Sources: Linux 2.4.17 mm/swap.c mark_page_accessed (via activate_page); mm/vmscan.c
// refill_inactive, shrink_cache, shrink_caches, try_to_free_pages_zone, swap_out,
// swap_out_mm, try_to_swap_out; SWAP_CLUSTER_MAX 32, DEF_PRIORITY 6.
// See /work/shared/reference/linux-reclaim.md sections 1e and 5.
//
// Page model. Resident anonymous pages are mapped (their accesses set the pte young bit,
// which only swap_out looks at); file pages are page cache used through read()/write():
// never mapped, every read calls mark_page_accessed (generic_file_read, reading whole pages
// from their start), every write only SetPageReferenced (generic_file_write: "Mark it
// unlocked again and drop the page.. SetPageReferenced(page)"). A page brought in by swap
// readahead (swapin_readahead -> read_swap_cache_async -> lru_cache_add) is only in the
// swap cache: inactive head, PG_referenced clear, no pte. shrink_cache frees it like a
// clean page-cache page (page_count 1, page->mapping = &swapper_space) and swap_out never
// sees it; the first access to it is do_swap_page finding it in the swap cache: it maps
// the page and calls mark_page_accessed.
//
//   mark_page_accessed: if (!PageActive && PageReferenced) { activate_page; ClearPageReferenced }
//                       else SetPageReferenced
//   new page: inactive head, then mark_page_accessed (do_anonymous_page, do_swap_page and
//             generic_file_read all call it)   -> inactive,referenced
//   readahead page: inactive head, unreferenced, unmapped (above)
//   Not modelled: an anonymous page first touched by a read maps the shared zero page in
//   2.4.17 (do_anonymous_page, no lru_cache_add); here it has a frame of its own on the
//   inactive list.
//
//   try_to_free_pages (nr_pages = victims still wanted):
//     for priority = DEF_PRIORITY (6) down to 1:                       -- shrink_caches
//       refill_inactive(nr_pages * nr_active / ((nr_inactive + 1) * 2))  ("active list 2/3")
//       shrink_cache(nr_pages, priority); done when nr_pages victims were found
//
//   refill_inactive(n), one walk from the active tail, at most n pages looked at
//   (2.4.17: while (nr_pages-- && entry != &active_list); 2.4.18 counts deactivations):
//     if (PageTestandClearReferenced) rotate to the active head
//     else move to the inactive head with PG_referenced SET
//
//   shrink_cache: max_scan = nr_inactive / priority,
//                 max_mapped = min(nr_pages << (10 - priority), max_scan / 10)
//     from the inactive tail, each page first moved to the inactive head:
//       mapped (anonymous, not a readahead page):
//                            if (--max_mapped < 0) { swap_out(); return; }  else skip
//       otherwise (a file page, or an anonymous page in the swap cache without a pte),
//                  PG_referenced NOT checked:
//         dirty: writepage (ClearPageDirty; SetPageLaunder; writepage; continue): the
//                engine's writeback (PageTableView::start_writeback), which counts the write
//                now and leaves the page clean at the head, as if the write had completed
//                by the time the scan comes round to it again; a file page written through
//                write() (dirty buffers) takes the same course through try_to_release_page
//                -> sync_page_buffers
//         clean: reclaim it
//
//   swap_out: counter = mmlist_nr (the processes that have not exited); do {
//       mm = swap_mm; while (mm's hand is at its end) { hand = 0; mm = next mm; swap_mm = mm }
//       swap_out_mm(mm): from mm->swap_address upward in virtual-address order, each
//         resident mapped page (pte_present) -> try_to_swap_out:
//           ptep_test_and_clear_young -> mark_page_accessed, keep
//           PageActive -> keep
//           else unmap it (ptep_get_and_clear; if (pte_dirty) set_page_dirty):
//             in the swap cache already (swapped in, its slot kept): set_swap_pte, the page
//                 stays on the inactive list where it is, in the swap cache without a pte;
//             not in the swap cache, !PageDirty (never written): drop_pte, and the last
//                 page_cache_release frees it: the victim;
//             dirty: get_swap_page, add_to_swap_cache, set_page_dirty, set_swap_pte: in
//                 the swap cache without a pte, as above (the engine gives the slot when it
//                 writes the page)
//           an unmapped page is on the inactive list, and only shrink_cache frees it, once
//           it is clean: it is written when the scan reaches it, and freed when the scan
//           comes round to it again; a touch in between finds it in the swap cache
//           (do_swap_page: mapped again, mark_page_accessed), a hit here and a minor fault
//           in 2.4
//         each page unmapped or freed is "freeable" (try_to_swap_out returns 1); stop after
//         SWAP_CLUSTER_MAX of them (swap_out: nr_pages = SWAP_CLUSTER_MAX), or before
//         freeing a page beyond the victims wanted (2.4 would free it: the engine takes no
//         more victims than it asks for; the hand stays on it); the hand stays after the
//         last page looked at
//     } while (--counter >= 0)
//   The hand stays on one process until it has walked all of it, then moves to the next:
//   whether a cold page is evicted depends on where it sits relative to its process's hand,
//   not on its recency, which makes 2.4 quasi-random with respect to LRU.
//
//   Scanned (Counters::pages_scanned): every page refill_inactive and shrink_cache take from a
//   list's tail (rotated, moved, skipped as mapped, written or the victim) and every resident
//   mapped page swap_out_mm reaches (kept for its young bit or being active, unmapped, or the
//   victim).
//
//   process exit (free_on_exit; 2.4.17 kernel/fork.c mmput, then exit_mmap):
//     if (swap_mm == mm) swap_mm = list_entry(mm->mmlist.next, struct mm_struct, mmlist);
//     list_del(&mm->mmlist); mmlist_nr--;        -- out of swap_out's round robin
//     exit_mmap -> zap_page_range: each page's last put_page reaches __free_pages_ok,
//       if (PageLRU(page)) lru_cache_del(page);  -- off its list, nr_active/nr_inactive too
//     and free_swap_and_cache frees its swap entry.
//   The engine gives no exit call, only on_free for each anonymous page of the process: the
//   first one unlinks the mm. A process without anonymous pages gets no on_free, so it stays
//   counted in mmlist_nr; its walk is empty, so swap_out never stops on it.
//
//   When priority 1 still leaves victims wanted, try_to_free_pages_zone calls out_of_memory,
//   which kills nothing while swap is left ("Enough swap space left?  Not OOM."), and
//   __alloc_pages retries an order-0 allocation until it succeeds: the cycle of priorities is
//   retried. Each cycle clears referenced and young bits, unmaps, writes and frees, so it
//   converges: a dirty page takes three visits (swap_out's, and shrink_cache's two), and
//   qsbench -m 32 1.5x the size of memory needs up to 8 cycles. As a safety net, after
//   kMaxCycles cycles the inactive then the active tail is evicted.
#include <algorithm>
#include <cstdint>
#include <vector>

#include "pagesim/page_list.hpp"
#include "pagesim/registry.hpp"
#include "pagesim/walk_order.hpp"

namespace pagesim {
namespace {

constexpr std::size_t kActive = 0;
constexpr std::size_t kInactive = 1;
constexpr unsigned kDefPriority = 6;
constexpr std::size_t kSwapClusterMax = 32;
constexpr int kMaxCycles = 64;  // of priorities 6..1 in one reclaim (see the header)

class Linux24Vscan final : public Policy {
 public:
  explicit Linux24Vscan(const Params& /*params*/) {}

  PolicyTraits traits() const override {
    PolicyTraits t;
    t.needs_hits = true;
    t.writes_back = true;  // shrink_cache's writepage
    return t;
  }

  // Hits on anonymous pages only set the pte young bit: only a fault's list insertion
  // benefits from having the page's list node in cache.
  static constexpr bool pagesim_prefetch_fast_path = true;  // see policy.hpp
  void prefetch(PageId p, int stage) const {
    if (stage == 0) lists_.prefetch(p, 0);
  }

  void reset(std::size_t num_pages, std::size_t /*frames*/) override {
    lists_.reset(num_pages, 2);
    pg_referenced_.assign(num_pages, 0);
    unmapped_.assign(num_pages, 0);
    walk_ = VpnOrder{};
    mm_end_.clear();
    hand_.clear();
    swap_mm_ = 0;
    mmlist_nr_ = 0;
  }

  void on_hit(const Access& a, PageTableView) override {
    if (a.kind == PageKind::kFile) {
      if (a.write) {
        pg_referenced_[a.page] = 1;  // generic_file_write
        return;
      }
      return mark_page_accessed(a.page);
    }
    if (unmapped_[a.page]) {
      // do_swap_page: lookup_swap_cache finds the page (read ahead, or unmapped by
      // swap_out); map it, mark it accessed.
      unmapped_[a.page] = 0;
      mark_page_accessed(a.page);
    }
  }

  void on_fault(const Access& a, PageTableView) override {
    lists_.push_front(kInactive, a.page);
    pg_referenced_[a.page] = 0;
    unmapped_[a.page] = a.readahead;
    if (!a.readahead) mark_page_accessed(a.page);
  }

  void on_free(PageId p, PageTableView view) override {
    lists_.remove(p);
    pg_referenced_[p] = 0;
    unmapped_[p] = 0;
    if (walk_.begin.empty()) build_walk_order(view.trace());
    const std::size_t mm = view.proc(p);
    if (mm_end_[mm] != walk_.begin[mm]) mmput(mm);
  }

  void select_victims(std::size_t want, PageTableView view, VictimList& out) override {
    if (walk_.begin.empty()) build_walk_order(view.trace());
    for (int cycle = 0; cycle < kMaxCycles && out.size() < want; ++cycle) {
      for (unsigned priority = kDefPriority; priority >= 1 && out.size() < want; --priority) {
        const std::size_t nr_pages = want - out.size();
        refill_inactive(nr_pages * lists_.size(kActive) / ((lists_.size(kInactive) + 1) * 2), view);
        shrink_cache(priority, want, view, out);
      }
    }
    while (out.size() < want) evict_any(out);
  }

 private:
  void mark_page_accessed(PageId p) {
    if (lists_.contains(kInactive, p) && pg_referenced_[p]) {
      lists_.move_to_front(kActive, p);
      pg_referenced_[p] = 0;
    } else {
      pg_referenced_[p] = 1;
    }
  }

  void build_walk_order(const Trace& trace) {
    walk_.build(trace);
    const std::size_t procs = trace.num_procs();
    mm_end_.assign(walk_.begin.begin() + 1, walk_.begin.end());
    hand_.assign(walk_.begin.begin(), walk_.begin.end() - 1);
    swap_mm_ = 0;
    mmlist_nr_ = procs;
  }

  // An empty walk is what unlinks the mm: swap_out passes over it as over a process without
  // anonymous pages, and its swap_address goes with it.
  void mmput(std::size_t mm) {
    mm_end_[mm] = walk_.begin[mm];
    hand_[mm] = walk_.begin[mm];
    --mmlist_nr_;
    if (swap_mm_ == mm) {
      // mm->mmlist.next: exited mm's are no longer on the list.
      do {
        swap_mm_ = (swap_mm_ + 1) % hand_.size();
      } while (swap_mm_ != mm && exited(swap_mm_));
    }
  }

  // A process without anonymous pages has an empty walk too, but never exits here.
  bool exited(std::size_t mm) const {
    return mm_end_[mm] == walk_.begin[mm] && walk_.begin[mm] != walk_.begin[mm + 1];
  }

  void refill_inactive(std::size_t n, PageTableView& view) {
    PageId p = lists_.back(kActive);
    for (; n > 0 && p != kNoPage; --n) {
      const PageId up = lists_.prev(p);
      view.count_scanned(p);
      if (pg_referenced_[p]) {
        pg_referenced_[p] = 0;
        lists_.move_to_front(kActive, p);
      } else {
        lists_.move_to_front(kInactive, p);
        pg_referenced_[p] = 1;
      }
      p = up;
    }
  }

  void shrink_cache(unsigned priority, std::size_t want, PageTableView& view, VictimList& out) {
    std::size_t max_scan = lists_.size(kInactive) / priority;
    const std::size_t nr_pages = want - out.size();
    auto max_mapped = static_cast<std::int64_t>(
        std::min(nr_pages << (10 - priority), max_scan / 10));
    while (max_scan-- > 0 && !lists_.empty(kInactive)) {
      const PageId p = lists_.back(kInactive);
      lists_.move_to_front(kInactive, p);
      if (view.kind(p) == PageKind::kAnon && !unmapped_[p]) {
        view.count_scanned(p);  // taken from the tail, whether skipped or the call to swap_out
        if (--max_mapped < 0) return swap_out(want, view, out);
        continue;
      }
      if (view.start_writeback(p)) {  // writepage; the page stays at the head
        view.count_scanned(p);
        continue;
      }
      evict(p, out);
      if (out.size() == want) return;
    }
  }

  // Unmaps or frees up to SWAP_CLUSTER_MAX pages, freeing no more than make `want` victims.
  void swap_out(std::size_t want, PageTableView& view, VictimList& out) {
    std::size_t nr_pages = kSwapClusterMax;
    const std::size_t procs = hand_.size();
    for (std::size_t counter = 0; counter <= mmlist_nr_; ++counter) {
      std::size_t mm = swap_mm_;
      for (std::size_t k = 0; k <= procs && hand_[mm] == mm_end_[mm]; ++k) {
        hand_[mm] = walk_.begin[mm];
        mm = (mm + 1) % procs;
        swap_mm_ = mm;
      }
      nr_pages = swap_out_mm(mm, nr_pages, want, view, out);
      if (nr_pages == 0) return;
    }
  }

  // Returns how many of nr_pages are still to be unmapped or freed; 0 also when a page would
  // be freed beyond the victims wanted (the hand stays on it).
  std::size_t swap_out_mm(std::size_t mm, std::size_t nr_pages, std::size_t want,
                          PageTableView& view, VictimList& out) {
    const std::size_t end = mm_end_[mm];
    while (hand_[mm] < end) {
      const PageId p = walk_.pages[hand_[mm]++];
      if (!view.resident(p) || lists_.list_of(p) == PageLists::kNone || unmapped_[p]) continue;
      if (view.test_and_clear_referenced(p)) {
        mark_page_accessed(p);
        view.count_scanned(p);
        continue;
      }
      if (lists_.contains(kActive, p)) {
        view.count_scanned(p);
        continue;
      }
      if (view.dirty(p) || view.in_swap(p)) {
        unmapped_[p] = 1;  // set_swap_pte: in the swap cache, on the inactive list
        view.count_scanned(p);
      } else if (out.size() < want) {
        evict(p, out);  // drop_pte: never written, freed
      } else {
        --hand_[mm];  // 2.4 would free it too; the engine takes no more victims than it asked
        return 0;
      }
      if (--nr_pages == 0) return 0;
    }
    return nr_pages;
  }

  void evict(PageId p, VictimList& out) {
    lists_.remove(p);
    pg_referenced_[p] = 0;
    unmapped_[p] = 0;
    out.push_back(p);
  }

  void evict_any(VictimList& out) {
    if (!lists_.empty(kInactive)) return evict(lists_.back(kInactive), out);
    evict(lists_.back(kActive), out);
  }

  PageLists lists_;
  std::vector<std::uint8_t> pg_referenced_;
  std::vector<std::uint8_t> unmapped_;  // in the swap cache without a pte (readahead, swap_out)
  // walk_.pages[walk_.begin[m] .. mm_end_[m]) = process m's anonymous pages in vpn order
  // (empty once it exited); hand_[m] = index of its swap_address in walk_.pages.
  VpnOrder walk_;
  std::vector<std::size_t> mm_end_;
  std::vector<std::size_t> hand_;
  std::size_t swap_mm_ = 0;
  std::size_t mmlist_nr_ = 0;  // processes not exited
};

}  // namespace

PAGESIM_REGISTER_POLICY(Linux24Vscan, "linux24_vscan",
                        "Linux 2.4.17 (Andrea) VM: active/inactive lists, anonymous pages "
                        "reclaimed by the per-process virtual-address swap_out hand");

}  // namespace pagesim
