// Linux 2.5/2.6 active/inactive two-list LRU, with workingset refault detection as an option.
//
// Sources (the kernel version of each rule is named beside it):
//   Linux 2.6.20 mm/swap.c mark_page_accessed, lru_cache_add, lru_cache_add_active;
//   Linux 2.6.20 mm/vmscan.c shrink_active_list, shrink_page_list (called by
//     shrink_inactive_list);
//   Linux 2.6.28+ split LRU (anon/file x active/inactive) and inactive_anon_is_low,
//     with 6.1's inactive_ratio for both types (mm/vmscan.c inactive_is_low);
//   Linux ~2.6.36 mm/vmscan.c get_scan_count (anon/file balance by swappiness), simplified;
//   Linux 5.9+ mm/workingset.c workingset_eviction, workingset_refault,
//     workingset_activation (nonresident_age, refault distance, workingset size).
// See /work/shared/reference/linux-reclaim.md section 2.
//
// Page model. Anonymous pages are mapped: their accesses set only the pte young bit (the
// engine's referenced bit). File pages are page cache used through read()/write(): every
// access calls mark_page_accessed (do_generic_mapping_read), and their pte young bit is
// ignored because they are not mapped (page_mapping_inuse() is false).
//
//   mark_page_accessed(page):                       (2.6.20 mm/swap.c)
//     if (!PageActive && PageReferenced) { activate_page; ClearPageReferenced; }
//     else if (!PageReferenced) SetPageReferenced;
//   i.e. inactive,unref -> inactive,ref -> active,unref -> active,ref
//
//   insertion (2.6.20): page cache -> inactive (add_to_page_cache_lru) then
//     mark_page_accessed;  anonymous fault / swap-in -> active (lru_cache_add_active).
//     Parameter anon_insert=inactive: anonymous pages inserted inactive (5.9+).
//
//   reclaim (for each victim wanted):
//     type = get_scan_count balance (below)
//     while inactive_is_low(type): shrink_active_list(one page of type)
//     shrink_page_list(tail of inactive list of type)
//
//   inactive_is_low(type) = inactive * inactive_ratio < active    (2.6.28+, 6.1 ratio)
//
//   shrink_active_list (2.6.20), from the active tail:
//     if (page_mapped(page) && page_referenced(page)) -> back to the active head (rotated)
//     else -> inactive head (unmapped pages always deactivate; PG_referenced is kept)
//   2.6.20 also keeps unreferenced mapped pages active unless reclaim_mapped; here the
//   anon/file balance below plays that role.
//
//   shrink_page_list (2.6.20), from the inactive tail:
//     referenced = page_referenced(page)     (test-and-clear PG_referenced and pte young)
//     if (referenced && page_mapping_inuse(page)) -> activate (rotated)
//     else -> reclaim (the engine writes the page if dirty: 2.6.20 would start pageout()
//             and free the page when the write completes)
//
//   get_scan_count (~2.6.36), simplified: the fractions
//     ap = (swappiness + 1) * (recent_scanned[anon] + 1) / (recent_rotated[anon] + 1)
//     fp = (200 - swappiness + 1) * (recent_scanned[file] + 1) / (recent_rotated[file] + 1)
//   (each recent pair halved once scanned exceeds a quarter of that type's pages) choose
//   which type the next page is scanned from, by smooth weighted round robin: credit[anon]
//   += ap, credit[file] += fp, the larger credit wins (file on a tie) and pays ap + fp. A
//   type without resident pages is never chosen. Priorities, scan batches of
//   SWAP_CLUSTER_MAX and the swappiness=0 special case are not modelled: one page is
//   scanned at a time, which keeps small memories meaningful.
//
//   workingset=true (5.9+ mm/workingset.c):
//     eviction:   nonresident_age++; shadow[page] = nonresident_age
//     activation: nonresident_age++  (mark_page_accessed, shrink_page_list, refault)
//     refault:    distance = nonresident_age - shadow[page]
//                 workingset_size = active_file + active_anon
//                                   + (file ? inactive_anon : inactive_file)
//                 if (distance <= workingset_size) insert active (and nonresident_age++)
//     Shadows live in a per-page array (the kernel keeps them in the page cache tree and a
//     shrinker may drop them; never here).
//
//   process exit (free_on_exit; 2.6.20 exit_mmap -> zap_pte_range -> free_pages_and_swap_cache
//   -> release_pages, and free_swap_and_cache for swapped-out ptes):
//     if (PageLRU(page)) del_page_from_lru(zone, page);  -- and nr_active/nr_inactive drop
//     5.9+: swap_range_free -> clear_shadow_from_swap_cache: an anonymous page's shadow lives
//     in the swap cache and goes with its slot, so the freed page leaves no refault history.
//     recent_scanned/recent_rotated and nonresident_age are not touched: the kernel leaves them.
#include <cstdint>
#include <string_view>
#include <vector>

#include "pagesim/page_list.hpp"
#include "pagesim/registry.hpp"

namespace pagesim {
namespace {

constexpr std::size_t kAnon = 0;
constexpr std::size_t kFile = 1;

// Lists: inactive(type) = 2 * type, active(type) = 2 * type + 1.
constexpr std::size_t inactive_list(std::size_t type) { return 2 * type; }
constexpr std::size_t active_list(std::size_t type) { return 2 * type + 1; }

class ActiveInactive final : public Policy {
 public:
  explicit ActiveInactive(const Params& params)
      : anon_insert_active_(params.get_choice("anon_insert", "active", {"active", "inactive"}) ==
                            "active"),
        inactive_ratio_(static_cast<std::size_t>(params.get_int("inactive_ratio", 1, 1, 1000))),
        swappiness_(static_cast<std::uint64_t>(params.get_int("swappiness", 60, 0, 200))),
        workingset_(params.get_bool("workingset", false)) {}

  PolicyTraits traits() const override { return {/*needs_hits=*/true, /*needs_future=*/false}; }

  // Hits on anonymous pages only set the pte young bit: only a fault's list insertion
  // benefits from having the page's list node in cache.
  void prefetch(PageId p, int stage) const {
    if (stage == 0) lists_.prefetch(p, 0);
  }

  void reset(std::size_t num_pages, std::size_t /*frames*/) override {
    lists_.reset(num_pages, 4);
    pg_referenced_.assign(num_pages, 0);
    shadow_.assign(workingset_ ? num_pages : 0, 0);
    nonresident_age_ = 0;
    for (std::size_t t = 0; t < 2; ++t) {
      recent_scanned_[t] = 0;
      recent_rotated_[t] = 0;
      credit_[t] = 0;
    }
  }

  void on_hit(const Access& a, PageTableView) override {
    if (a.kind == PageKind::kFile) mark_page_accessed(a.page);
  }

  void on_fault(const Access& a, PageTableView) override {
    const PageId p = a.page;
    const std::size_t type = a.kind == PageKind::kFile ? kFile : kAnon;
    bool active = type == kAnon && anon_insert_active_;
    if (workingset_ && shadow_[p] != 0) {
      // workingset_refault
      const std::uint64_t distance = nonresident_age_ - shadow_[p];
      shadow_[p] = 0;
      if (!active && distance <= workingset_size(type)) {
        active = true;
        ++nonresident_age_;
      }
    }
    pg_referenced_[p] = 0;
    lists_.push_front(active ? active_list(type) : inactive_list(type), p);
    if (type == kFile) mark_page_accessed(p);
  }

  void on_free(PageId p, PageTableView) override {
    lists_.remove(p);
    pg_referenced_[p] = 0;
    if (workingset_) shadow_[p] = 0;
  }

  void select_victims(std::size_t want, PageTableView view, VictimList& out) override {
    // Every step either evicts or clears a referenced bit and moves a page, and nothing sets
    // bits meanwhile, so a few passes over memory always suffice; the guard only protects
    // against a bug turning into a hang.
    std::size_t guard = 4 * view.resident_count() + 64;
    while (out.size() < want) {
      if (guard-- == 0) {
        evict_any(out);
        continue;
      }
      const std::size_t type = pick_type();
      if (inactive_is_low(type) || lists_.empty(inactive_list(type))) {
        shrink_active_page(type, view);
        continue;
      }
      shrink_inactive_page(type, view, out);
    }
  }

  // Test hook (probe_active_inactive): 0 inactive anon, 1 active anon, 2 inactive file,
  // 3 active file, -1 not resident; +4 when PG_referenced is set.
  std::int64_t probe(PageId p) const {
    const std::uint8_t list = lists_.list_of(p);
    if (list == PageLists::kNone) return -1;
    return list + (pg_referenced_[p] ? 4 : 0);
  }

 private:
  void mark_page_accessed(PageId p) {
    const std::uint8_t list = lists_.list_of(p);
    if (list % 2 == 0 && pg_referenced_[p]) {
      lists_.move_to_front(list + 1u, p);
      pg_referenced_[p] = 0;
      if (workingset_) ++nonresident_age_;  // workingset_activation
    } else {
      pg_referenced_[p] = 1;
    }
  }

  std::size_t workingset_size(std::size_t type) const {
    std::size_t ws = lists_.size(active_list(kFile)) + lists_.size(active_list(kAnon));
    ws += type == kFile ? lists_.size(inactive_list(kAnon)) : lists_.size(inactive_list(kFile));
    return ws;
  }

  bool inactive_is_low(std::size_t type) const {
    return lists_.size(inactive_list(type)) * inactive_ratio_ < lists_.size(active_list(type));
  }

  std::size_t type_size(std::size_t type) const {
    return lists_.size(inactive_list(type)) + lists_.size(active_list(type));
  }

  std::size_t pick_type() {
    if (type_size(kAnon) == 0) return kFile;
    if (type_size(kFile) == 0) return kAnon;
    for (std::size_t t = 0; t < 2; ++t) {
      if (recent_scanned_[t] > type_size(t) / 4) {
        recent_scanned_[t] /= 2;
        recent_rotated_[t] /= 2;
      }
    }
    const auto ap = static_cast<std::int64_t>((swappiness_ + 1) * (recent_scanned_[kAnon] + 1) /
                                              (recent_rotated_[kAnon] + 1));
    const auto fp = static_cast<std::int64_t>((200 - swappiness_ + 1) *
                                              (recent_scanned_[kFile] + 1) /
                                              (recent_rotated_[kFile] + 1));
    credit_[kAnon] += ap;
    credit_[kFile] += fp;
    const std::size_t type = credit_[kAnon] > credit_[kFile] ? kAnon : kFile;
    credit_[type] -= ap + fp;
    return type;
  }

  // page_referenced(): anonymous pages are mapped, so their pte young bit counts.
  bool page_referenced(PageId p, std::size_t type, PageTableView& view) {
    bool referenced = pg_referenced_[p] != 0;
    pg_referenced_[p] = 0;
    if (type == kAnon) referenced = view.test_and_clear_referenced(p) || referenced;
    return referenced;
  }

  void activate(PageId p, std::size_t type) {
    lists_.move_to_front(active_list(type), p);
    ++recent_rotated_[type];
    if (workingset_) ++nonresident_age_;
  }

  void shrink_active_page(std::size_t type, PageTableView& view) {
    // Called only when the active list is not empty: either the inactive list is low
    // (inactive * ratio < active) or it is empty while the type has resident pages.
    const PageId p = lists_.back(active_list(type));
    ++recent_scanned_[type];
    if (type == kAnon && page_referenced(p, type, view)) {
      lists_.move_to_front(active_list(type), p);
      ++recent_rotated_[type];
    } else {
      lists_.move_to_front(inactive_list(type), p);
    }
  }

  void shrink_inactive_page(std::size_t type, PageTableView& view, VictimList& out) {
    const PageId p = lists_.back(inactive_list(type));
    ++recent_scanned_[type];
    if (page_referenced(p, type, view) && type == kAnon) {
      activate(p, type);
      return;
    }
    evict(p, out);
  }

  void evict(PageId p, VictimList& out) {
    lists_.remove(p);
    pg_referenced_[p] = 0;
    if (workingset_) shadow_[p] = ++nonresident_age_;  // workingset_eviction
    out.push_back(p);
  }

  void evict_any(VictimList& out) {
    for (std::size_t list = 0; list < 4; ++list) {
      if (!lists_.empty(list)) return evict(lists_.back(list), out);
    }
  }

  bool anon_insert_active_;
  std::size_t inactive_ratio_;
  std::uint64_t swappiness_;
  bool workingset_;
  PageLists lists_;
  std::vector<std::uint8_t> pg_referenced_;
  std::vector<std::uint64_t> shadow_;
  std::uint64_t nonresident_age_ = 0;
  std::uint64_t recent_scanned_[2] = {0, 0};
  std::uint64_t recent_rotated_[2] = {0, 0};
  std::int64_t credit_[2] = {0, 0};
};

}  // namespace

std::int64_t probe_active_inactive(const Policy& policy, PageId page) {
  return dynamic_cast<const ActiveInactive&>(policy).probe(page);
}

PAGESIM_REGISTER_POLICY(ActiveInactive, "active_inactive",
                        "Linux 2.6 active/inactive lists, mark_page_accessed promotion, "
                        "optional workingset refault detection");

}  // namespace pagesim
