// Linux 2.4-rmap page aging (Rik van Riel's rmap 13/14, as in Red Hat 2.4.18): page->age with
// linear aging 3/1/5/64 and three lists, active / inactive_dirty / inactive_clean.
//
// Sources: rmap 13/14 mm/vmscan.c age_page_up, age_page_down, refill_inactive_zone,
// page_launder_zone, reclaim_page, background_aging, do_try_to_free_pages; mm/swap.c
// mark_page_accessed; include/linux/mm_inline.h (INACTIVE_FACTOR 5). The 2.4.0 constants
// (include/linux/swap.h: PAGE_AGE_START 2, PAGE_AGE_ADV 3, PAGE_AGE_MAX 64, age halves on
// the way down) are the parameter aging=exponential; only the arithmetic changes, the lists
// and functions stay rmap's. See /work/shared/reference/linux-reclaim.md section 1.
//
// Page model. Anonymous pages are mapped (their accesses set the pte young bit) until
// page_launder_zone unmaps them; an access to an unmapped resident anonymous page is a
// soft fault (do_swap_page finds it in the swap cache): it maps the page again and calls
// mark_page_accessed. File pages are page cache used through read()/write(): never mapped,
// every access calls mark_page_accessed, their pte young bit is ignored.
//
//   age_page_up:   age = min(age + 3, 64)             exponential: same
//   age_page_down: age -= min(1, age)                 exponential: age /= 2
//   new page (lru_cache_add + mark_page_accessed): active head, age = PAGE_AGE_START (5; 2
//     exponential), PG_referenced set
//   swap readahead page (read_swap_cache_async -> lru_cache_add): active head, age =
//     PAGE_AGE_START, but only in the swap cache: no pte (not mapped) and PG_referenced
//     clear, so page_mapping_inuse() fails and the first refill_inactive_zone drops it to
//     inactive_clean. A later access is a soft fault (below) that maps it.
//   mark_page_accessed: on inactive_clean -> activate; else SetPageReferenced
//   activation (any path): active head, age = max(age, PAGE_AGE_START)
//
//   refill_inactive_zone(priority, target):  maxscan = active >> priority, from active tail
//     if (!page_mapping_inuse(page)) drop_page: clean -> inactive_clean, dirty ->
//                                    inactive_dirty, no aging, ClearPageReferenced
//                                    (mm/swap.c: "If the page is touched again while on
//                                    the inactive_clean list it'll be reactivated")
//     else: page_referenced(page) ? age_page_up : age_page_down
//           if (age) rotate to the active head
//           else deactivate (inactive_dirty head, age 0); stop after target+1 of these
//
//   page_launder_zone, from the inactive_dirty tail:
//     if (page_referenced(page) && page_mapping_inuse(page)) -> activate
//     if mapped: try_to_unmap (the engine already knows whether the page is dirty)
//     if dirty: async writepage, and the page stays on inactive_dirty (requeued at its head):
//        the engine's writeback (PageTableView::start_writeback), which counts the write now
//        and leaves the page clean, as if the write had completed by the page's next visit
//        (in the swap cache, unmapped: a write to it maps it again and dirties it, and it is
//        written again when laundered again)
//     else -> inactive_clean head
//   reclaim_page, from the inactive_clean tail:
//     if (mapped || PageReferenced || PageDirty) -> inactive_dirty head
//     else free it (victim)
//   anonymous pages without a swap slot are not given one in page_launder_zone (add_to_swap
//   would make them dirty): the engine evicts a never-written anonymous page clean.
//
//   inactive targets (mm_inline.h zone_inactive_limit): target - (free + inactive_dirty +
//     inactive_clean), target = pages_high + base / 2 (min), + base (low), + 2 * base (high),
//     base = (active + inactive_dirty) / INACTIVE_FACTOR; pages_high is 1 here (the free-page
//     targets a simulator has no use for)
//   reclaim (do_try_to_free_pages + __alloc_pages) of any number of victims:
//     refill_inactive, once: up to 64 times while low >= 0: refill_inactive_zone(DEF_PRIORITY,
//                      high); then if min >= 0: refill_inactive_zone(0, high)
//     loop until the victims are found:
//           inactive_clean not empty -> reclaim_page
//           inactive_dirty not empty -> one page_launder_zone step (a clean page it moves
//                                       is reclaimed next, before any dirty page is written)
//           otherwise -> refill_inactive_zone(0, 0) (the priority-0 local balancing)
//   background_aging, every tick (PolicyTraits::tick_ns = 1 s of virtual time):
//     if high > 0: refill_inactive_zone(background_priority, high)
//   background_priority defaults to DEF_PRIORITY 6 (active/64 pages a second).
//
//   Scanned (Counters::pages_scanned): every page refill_inactive_zone takes from the active
//   tail (background aging included: kswapd's scan), every page page_launder_zone and
//   reclaim_page take from an inactive tail (moved, activated or the victim).
//
//   process exit (free_on_exit; exit_mmap -> zap_page_range: page_remove_rmap, then
//   free_page_and_swap_cache / free_swap_and_cache): the last put_page reaches
//   __free_pages_ok, which does
//     if (PageLRU(page)) lru_cache_del(page);  -- del_page_from_{active,inactive_dirty,
//                                                 inactive_clean}_list, zone counters too
//   The page's age and flags go with it; the targets and background_aging just see
//   shorter lists.
#include <algorithm>
#include <cstdint>
#include <vector>

#include "pagesim/page_list.hpp"
#include "pagesim/registry.hpp"

namespace pagesim {
namespace {

constexpr std::size_t kActive = 0;
constexpr std::size_t kInactiveDirty = 1;
constexpr std::size_t kInactiveClean = 2;
constexpr int kAgeAdvance = 3;
constexpr int kAgeMax = 64;
constexpr std::size_t kInactiveFactor = 5;
constexpr unsigned kDefPriority = 6;
// zone->pages_high, which the targets add to INACTIVE_FACTOR's share: free pages a simulator
// has no use for beyond the one it faults into.
constexpr std::int64_t kPagesHigh = 1;

class RmapAging final : public Policy {
 public:
  explicit RmapAging(const Params& params)
      : exponential_(params.get_choice("aging", "linear", {"linear", "exponential"}) ==
                     "exponential"),
        age_start_(exponential_ ? 2 : 5),
        background_priority_(
            static_cast<unsigned>(params.get_int("background_priority", 6, 0, 30))) {}

  PolicyTraits traits() const override {
    PolicyTraits t;
    t.needs_hits = true;
    t.tick_ns = 1'000'000'000;  // background_aging: once a second
    t.writes_back = true;       // page_launder_zone's writepage
    return t;
  }

  // Hits on anonymous pages only set the pte young bit: only a fault's list insertion
  // benefits from having the page's list node in cache.
  static constexpr bool pagesim_prefetch_fast_path = true;  // see policy.hpp
  void prefetch(PageId p, int stage) const {
    if (stage == 0) lists_.prefetch(p, 0);
  }

  void reset(std::size_t num_pages, std::size_t /*frames*/) override {
    lists_.reset(num_pages, 3);
    age_.assign(num_pages, 0);
    flags_.assign(num_pages, 0);
  }

  void on_hit(const Access& a, PageTableView) override {
    const PageId p = a.page;
    if (a.kind == PageKind::kFile) return mark_page_accessed(p);
    if (!(flags_[p] & kMapped)) {
      // Soft fault on a page unmapped by page_launder_zone: do_swap_page maps it again.
      flags_[p] |= kMapped;
      mark_page_accessed(p);
    }
  }

  void on_fault(const Access& a, PageTableView) override {
    const PageId p = a.page;
    lists_.push_front(kActive, p);
    age_[p] = static_cast<std::uint8_t>(age_start_);
    if (a.readahead) {
      // read_swap_cache_async: in the swap cache only, no pte, never marked accessed.
      flags_[p] = 0;
      return;
    }
    flags_[p] = static_cast<std::uint8_t>(kReferenced | (a.kind == PageKind::kAnon ? kMapped : 0));
  }

  void on_free(PageId p, PageTableView) override { forget(p); }

  void on_tick(Tick /*now*/, PageTableView view) override {
    const std::int64_t high = inactive_limit(kHigh, view);
    if (high > 0) refill_inactive_zone(background_priority_, static_cast<std::size_t>(high), view);
  }

  void select_victims(std::size_t want, PageTableView view, VictimList& out) override {
    refill_inactive(view);
    std::size_t guard = 4 * view.resident_count() + 64 * 64;
    while (out.size() < want) {
      if (guard-- == 0) {
        evict_any(out);
        continue;
      }
      if (!lists_.empty(kInactiveClean)) {
        reclaim_page(view, out);
      } else if (!lists_.empty(kInactiveDirty)) {
        page_launder_step(view);
      } else {
        refill_inactive_zone(0, 0, view);
      }
    }
  }

  // Test hook (probe_rmap_aging): age + 256 * list (0 active, 1 inactive_dirty,
  // 2 inactive_clean), -1 when not resident.
  std::int64_t probe(PageId p) const {
    const std::uint8_t list = lists_.list_of(p);
    if (list == PageLists::kNone) return -1;
    return age_[p] + 256 * list;
  }

 private:
  static constexpr std::uint8_t kReferenced = 1;  // PG_referenced
  static constexpr std::uint8_t kMapped = 2;      // has a pte (pte_chain not empty)

  void age_page_up(PageId p) { age_[p] = static_cast<std::uint8_t>(std::min(age_[p] + kAgeAdvance, kAgeMax)); }
  void age_page_down(PageId p) {
    age_[p] = static_cast<std::uint8_t>(exponential_ ? age_[p] / 2 : age_[p] - std::min(1, int{age_[p]}));
  }

  // zone_inactive_limit: the inactive target of a limit less the free and inactive pages.
  static constexpr int kMin = 1, kLow = 2, kHigh = 4;  // halves of the base
  std::int64_t inactive_limit(int halves, const PageTableView& view) const {
    const auto base = static_cast<std::int64_t>(
        (lists_.size(kActive) + lists_.size(kInactiveDirty)) / kInactiveFactor);
    const auto inactive =
        static_cast<std::int64_t>(view.frames() - view.resident_count() +
                                  lists_.size(kInactiveDirty) + lists_.size(kInactiveClean));
    return kPagesHigh + base * halves / 2 - inactive;
  }

  // refill_inactive: global balancing at DEF_PRIORITY while the low target is short, then
  // local balancing at priority 0 when the min target is; each pass deactivates up to the high
  // target.
  void refill_inactive(PageTableView& view) {
    for (int tries = 1 << kDefPriority; tries-- > 0 && inactive_limit(kLow, view) >= 0;) {
      refill_inactive_zone(kDefPriority, static_cast<std::size_t>(inactive_limit(kHigh, view)),
                           view);
    }
    if (inactive_limit(kMin, view) >= 0) {
      refill_inactive_zone(0, static_cast<std::size_t>(inactive_limit(kHigh, view)), view);
    }
  }

  // page_referenced(): PG_referenced plus, for a mapped page, the pte young bit; clears both.
  bool page_referenced(PageId p, PageTableView& view) {
    bool referenced = (flags_[p] & kReferenced) != 0;
    flags_[p] &= static_cast<std::uint8_t>(~kReferenced);
    if (flags_[p] & kMapped) referenced = view.test_and_clear_referenced(p) || referenced;
    return referenced;
  }

  void activate(PageId p) {
    lists_.move_to_front(kActive, p);
    age_[p] = static_cast<std::uint8_t>(std::max(int{age_[p]}, age_start_));
  }

  void mark_page_accessed(PageId p) {
    if (lists_.contains(kInactiveClean, p)) {
      activate(p);
    } else {
      flags_[p] |= kReferenced;
    }
  }

  void refill_inactive_zone(unsigned priority, std::size_t target, PageTableView& view) {
    std::size_t maxscan = lists_.size(kActive) >> priority;
    std::size_t deactivated = 0;
    while (maxscan-- > 0 && !lists_.empty(kActive)) {
      const PageId p = lists_.back(kActive);
      view.count_scanned(p);
      if (!(flags_[p] & kMapped)) {
        // drop_page: the object is not in use, no aging; ClearPageReferenced, so that only
        // a touch on inactive_clean (which reactivates) saves the page.
        lists_.move_to_front(view.dirty(p) ? kInactiveDirty : kInactiveClean, p);
        age_[p] = 0;
        flags_[p] &= static_cast<std::uint8_t>(~kReferenced);
        continue;
      }
      if (page_referenced(p, view)) {
        age_page_up(p);
      } else {
        age_page_down(p);
      }
      if (age_[p] > 0) {
        lists_.move_to_front(kActive, p);
      } else {
        lists_.move_to_front(kInactiveDirty, p);  // deactivate_page_nolock
        if (++deactivated > target) return;
      }
    }
  }

  void page_launder_step(PageTableView& view) {
    const PageId p = lists_.back(kInactiveDirty);
    const bool mapped = (flags_[p] & kMapped) != 0;
    if (page_referenced(p, view) && mapped) {
      view.count_scanned(p);
      return activate(p);
    }
    flags_[p] &= static_cast<std::uint8_t>(~kMapped);  // try_to_unmap
    view.count_scanned(p);
    // Dirty: writepage; the page stays on inactive_dirty, clean once its write is done.
    if (view.start_writeback(p)) return lists_.move_to_front(kInactiveDirty, p);
    lists_.move_to_front(kInactiveClean, p);
  }

  void reclaim_page(PageTableView& view, VictimList& out) {
    const PageId p = lists_.back(kInactiveClean);
    if ((flags_[p] & (kMapped | kReferenced)) || view.dirty(p)) {
      view.count_scanned(p);
      lists_.move_to_front(kInactiveDirty, p);
      return;
    }
    evict(p, out);
  }

  void evict(PageId p, VictimList& out) {
    forget(p);
    out.push_back(p);
  }

  void forget(PageId p) {
    lists_.remove(p);
    flags_[p] = 0;
    age_[p] = 0;
  }

  void evict_any(VictimList& out) {
    for (std::size_t list : {kInactiveClean, kInactiveDirty, kActive}) {
      if (!lists_.empty(list)) return evict(lists_.back(list), out);
    }
  }

  bool exponential_;
  int age_start_;
  unsigned background_priority_;
  PageLists lists_;
  std::vector<std::uint8_t> age_;
  std::vector<std::uint8_t> flags_;
};

}  // namespace

std::int64_t probe_rmap_aging(const Policy& policy, PageId page) {
  return dynamic_cast<const RmapAging&>(policy).probe(page);
}

PAGESIM_REGISTER_POLICY(RmapAging, "rmap_aging",
                        "Linux 2.4-rmap page->age aging (linear 3/1/5/64; aging=exponential for "
                        "2.4.0), active/inactive_dirty/inactive_clean");

}  // namespace pagesim
