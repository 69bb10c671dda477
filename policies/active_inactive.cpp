// Linux 2.5/2.6 active/inactive two-list LRU, with workingset refault detection and the swap
// token (token-based thrashing protection) as options.
//
// Sources (the kernel version of each rule is named beside it):
//   Linux 2.6.20 mm/swap.c mark_page_accessed, lru_cache_add, lru_cache_add_active;
//   Linux 2.6.20 mm/vmscan.c shrink_active_list, shrink_page_list (called by
//     shrink_inactive_list);
//   Linux 2.6.28+ split LRU (anon/file x active/inactive) and inactive_anon_is_low,
//     with 6.1's inactive_ratio for both types (mm/vmscan.c inactive_is_low);
//   Linux ~2.6.36 mm/vmscan.c get_scan_count (anon/file balance by swappiness), simplified;
//   Linux 5.9+ mm/workingset.c workingset_eviction, workingset_refault,
//     workingset_activation (nonresident_age, refault distance, workingset size);
//   Linux 2.6.9 mm/thrash.c grab_swap_token, should_release_swap_token, __put_swap_token,
//     mm/memory.c do_swap_page, mm/rmap.c page_referenced_one; 2.6.10's "vmscan: ignore swap
//     token when in trouble" (page_referenced(page, is_locked, sc->priority <= 0)).
// See /work/shared/reference/linux-reclaim.md section 2.
//
// Scanned (Counters::pages_scanned): every page shrink_active_list takes from an active tail
// (2.6.20's pgrefill: rotated or deactivated) and every page shrink_page_list takes from an
// inactive tail (pgscan: activated, kept or the victim); evict_any's victim.
//
// Page model. Anonymous pages are mapped: their accesses set only the pte young bit (the
// engine's referenced bit). File pages are page cache used through read()/write(): every
// access calls mark_page_accessed (do_generic_mapping_read, generic_file_buffered_write),
// except a read of the page its process read last (the same page read again in succession
// is marked once), and their pte young bit is ignored because they are not mapped
// (page_mapping_inuse() is false).
//
//   mark_page_accessed(page):                       (2.6.20 mm/swap.c)
//     if (!PageActive && PageReferenced) { activate_page; ClearPageReferenced; }
//     else if (!PageReferenced) SetPageReferenced;
//   i.e. inactive,unref -> inactive,ref -> active,unref -> active,ref
//
//   insertion (2.6.20): page cache -> inactive (add_to_page_cache_lru) then
//     mark_page_accessed (a file readahead page: not until a read uses it);  anonymous fault
//     / swap-in, swap readahead page too (read_swap_cache_async) -> active
//     (lru_cache_add_active).
//     Parameter anon_insert=inactive: anonymous pages inserted inactive (5.9+).
//
//   reclaim (for each victim wanted), one page at a time:
//     type = get_scan_count balance (below), chosen again before each page
//     if inactive_is_low(type) or its inactive list is empty: shrink_active_list(one page of
//       type), then choose again
//     else shrink_page_list(tail of inactive list of type)
//
//   inactive_is_low(type) = inactive * inactive_ratio < active    (2.6.28+, 6.1 ratio)
//     inactive_ratio (6.1): gb = (inactive + active) in GiB, rounded down;
//       gb ? int_sqrt(10 * gb) : 1   (1 under 1 GiB, 3 at 1 GiB, 10 at 10 GiB, 31 at 100 GiB)
//     Parameter inactive_ratio = N fixes it instead.
//
//   shrink_active_list (2.6.20), from the active tail:
//     if (page_mapped(page) && page_referenced(page)) -> back to the active head (rotated)
//     else -> inactive head (unmapped pages always deactivate; PG_referenced is kept)
//   2.6.20 also keeps unreferenced mapped pages active unless reclaim_mapped; here the
//   anon/file balance below plays that role.
//
//   shrink_page_list (2.6.20), from the inactive tail, in the kernel's order:
//     if (PageWriteback(page)) goto keep;    -> back to the inactive head, bits untouched
//     referenced = page_referenced(page)     (test-and-clear PG_referenced and pte young)
//     if (referenced && page_mapping_inuse(page)) -> activate (rotated)
//       (mapped, or in the swap cache: every resident anonymous page here; never a
//       read()/write() file page)
//     add_to_swap, try_to_unmap: the engine's business (slot, dirty bit)
//     if (PageDirty(page)) {
//       if (referenced) goto keep_locked;   -> back to the inactive head, PG_referenced
//                                              cleared, not written (not rotated)
//       pageout()                          -> SetPageReclaim, writepage; then, by parameter
//                                             pageout:
//         evict (default): the page is evicted as the engine queues its write, its frame free
//           at once, as every policy's dirty victim is (DESIGN.md: evicting a dirty page is a
//           swap-out), so that policies compare under one model of IO;
//         writeback (2.6.20's, on a queued device: hdd, ssd, nvme; PageTableView::async_writes):
//           the page, clean and under writeback (start_writeback), goes back to the inactive
//           head (PageWriteback: goto keep) and keeps its frame until its write completes.
//           Without a device and on zram writepage is synchronous ("probably a ramdisk") and
//           the page is reclaimed at once, as with evict.
//     }
//     else -> reclaim (a clean page, referenced or not)
//
//   pageout=writeback, end_page_writeback (2.6.20 mm/filemap.c), when the device completes
//   the write (PageTableView::written, seen at the next reclaim; ClearPageWriteback):
//     if (TestClearPageReclaim(page)) rotate_reclaimable_page(page):
//       if (!PageDirty && !PageActive && PageLRU) list_move_tail(page, inactive list)
//     so the next scan of that list frees it (clean). A touch meanwhile sets its young bit
//     (a minor fault in the kernel, which unmapped it: a hit here), and the scan activates
//     it instead; a write dirties it, and it is not rotated.
//   A reclaim that has kept as many pages under writeback in a row as the inactive list holds
//   (every page on it is being written) evicts the page pageout wrote first of those still
//   being written: the kernel's reclaim would sleep (congestion_wait) until a write completes
//   and then free that page, the first to complete in submission order; the engine reuses its
//   frame at once, and a fault on it waits for the write before reading it back (device.hpp).
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
//   swap_token=true (2.6.9 mm/thrash.c, after Song Jiang and Xiaodong Zhang's token-ordered
//   LRU; in the kernel from 2.6.9 to 3.4). One process at a time holds the token; reclaim run
//   on behalf of any other process sees the holder's mapped pages as referenced, so the
//   holder keeps its working set while it pages in. Time is jiffies at HZ=1000 (2.6.9's
//   i386 default): the virtual clock, read at a tick every millisecond.
//     do_swap_page, when the page had to be read from swap (not in the swap cache):
//       grab_swap_token()
//     grab_swap_token():
//       if (has_swap_token(current->mm)) { current->mm->recent_pagein = 1; return; }
//       if (time_after(jiffies, swap_token_check)) {
//         if (time_before(jiffies, current->mm->swap_token_time)) return;  /* held it lately */
//         swap_token_check = jiffies + SWAP_TOKEN_CHECK_INTERVAL;          /* HZ * 2 */
//         if ((reason = should_release_swap_token(swap_token_mm))) {
//           eligible = jiffies; if (reason == SWAP_TOKEN_TIMED_OUT) eligible += timeout;
//           swap_token_mm->swap_token_time = eligible;
//           swap_token_timeout = jiffies + timeout;                /* HZ * 300 */
//           swap_token_mm = current->mm;
//         }
//       }
//     should_release_swap_token(mm): ENOUGH_RSS if !mm->recent_pagein, else TIMED_OUT if
//       time_after(jiffies, swap_token_timeout), else 0; then mm->recent_pagein = 0.
//       The token starts with init_mm, which never pages in: the first try takes it.
//     page_referenced_one(): if (mm != current->mm && !ignore_token && has_swap_token(mm))
//       referenced++;  -- after the young bit is test-and-cleared, so the bits go as without
//       the token. Only mapped pages go through it: anonymous pages here, not the page cache.
//     ignore_token = sc->priority <= 0 (2.6.10): without it 2.6.9's reclaim for another
//       process could scan the holder's pages to no effect and end in the OOM killer. The
//       priority loop scans nr_pages >> priority at priorities 12 .. 1, about as many pages
//       as memory holds, before it reaches 0; this model reclaims one page at a time, so a
//       reclaim ignores the token once it has scanned as many pages as are resident.
//     process exit (free_on_exit): __put_swap_token gives the token back to init_mm and sets
//       swap_token_check = jiffies. Without free_on_exit a process that ended keeps it until a
//       try finds it has not paged in since the try before (SWAP_TOKEN_ENOUGH_RSS).
//     current->mm in reclaim: the process whose fault asked for the room when it had no
//       free frame for the page or its readahead pages; a reclaim only the watermarks asked
//       for (PageTableView::background) is kswapd's, which has none, so the holder's pages
//       are protected from it too, even at the holder's own faults.
//   Parameter swap_token_timeout: seconds, as the later 2.6 sysctl vm.swap_token_timeout (default
//   300, SWAP_TOKEN_TIMEOUT).
//
//   process exit (free_on_exit; 2.6.20 exit_mmap -> zap_pte_range -> free_pages_and_swap_cache
//   -> release_pages, and free_swap_and_cache for swapped-out ptes):
//     if (PageLRU(page)) del_page_from_lru(zone, page);  -- and nr_active/nr_inactive drop
//     5.9+: swap_range_free -> clear_shadow_from_swap_cache: an anonymous page's shadow lives
//     in the swap cache and goes with its slot, so the freed page leaves no refault history.
//     recent_scanned/recent_rotated and nonresident_age are not touched: the kernel leaves them.
#include <algorithm>
#include <cmath>
#include <cstdint>
#include <deque>
#include <limits>
#include <string_view>
#include <type_traits>
#include <utility>
#include <vector>

#include "pagesim/file_reads.hpp"
#include "pagesim/page_list.hpp"
#include "pagesim/registry.hpp"

namespace pagesim {
namespace {

constexpr std::size_t kAnon = 0;
constexpr std::size_t kFile = 1;

// Lists: inactive(type) = 2 * type, active(type) = 2 * type + 1.
constexpr std::size_t inactive_list(std::size_t type) { return 2 * type; }
constexpr std::size_t active_list(std::size_t type) { return 2 * type + 1; }

// Swap token (2.6.9 mm/thrash.c): HZ = 1000, so a jiffy is a millisecond.
constexpr Tick kJiffyNs = 1'000'000;
constexpr std::uint64_t kSwapTokenCheckInterval = 2 * 1000;  // SWAP_TOKEN_CHECK_INTERVAL, HZ * 2
// init_mm, which holds the token when no process does (and never pages in); kswapd's
// current->mm in reclaim with no faulting process.
constexpr ProcId kInitMm = std::numeric_limits<ProcId>::max();

std::uint64_t swap_token_timeout(const Params& params) {
  return static_cast<std::uint64_t>(params.get_int("swap_token_timeout", 300, 1, 1'000'000)) * 1000;
}

// The swap token's state and rules (the header's pseudocode), in jiffies.
class SwapToken {
 public:
  explicit SwapToken(const Params& params) : default_timeout_(swap_token_timeout(params)) {}

  void reset(std::size_t num_pages) {
    swapped_.assign(num_pages, 0);
    mm_.clear();
    token_mm_ = kInitMm;
    jiffies_ = 0;
    check_ = 0;
    timeout_ = 0;
  }

  void tick(Tick now) { jiffies_ = now / kJiffyNs; }

  // An anonymous page evicted with a copy in swap: its next fault reads it back.
  void evicted(PageId p, bool swap_copy) { swapped_[p] = swap_copy; }

  // do_swap_page: a page read from swap, not found in the swap cache (a readahead page is a
  // hit), calls grab_swap_token.
  void fault(const Access& a) {
    if (a.kind == PageKind::kAnon && !a.readahead && swapped_[a.page]) grab(a.proc);
  }

  // Process exit: __put_swap_token.
  void freed(PageId p, ProcId owner) {
    swapped_[p] = 0;
    if (owner == token_mm_) {
      token_mm_ = kInitMm;
      check_ = jiffies_;
    }
  }

  void begin_reclaim(ProcId current, std::size_t resident) {
    current_mm_ = current;
    reclaim_resident_ = resident;
    reclaim_scanned_ = 0;
  }
  void scanned() { ++reclaim_scanned_; }

  // page_referenced_one: mm != current->mm && !ignore_token && has_swap_token(mm), with
  // ignore_token once this reclaim has scanned as many pages as were resident.
  bool protects(ProcId mm) const {
    const bool ignore_token = reclaim_scanned_ > reclaim_resident_;
    return mm == token_mm_ && mm != current_mm_ && !ignore_token;
  }

  std::int64_t holder() const {
    return token_mm_ == kInitMm ? -1 : static_cast<std::int64_t>(token_mm_);
  }

 private:
  enum class Release { kNo, kEnoughRss, kTimedOut };

  void grab(ProcId current) {
    if (current >= mm_.size()) mm_.resize(current + 1);
    if (current == token_mm_) {  // "We have the token. Let others know we still need it."
      mm_[current].recent_pagein = true;
      return;
    }
    if (jiffies_ <= check_) return;                       // !time_after
    if (jiffies_ < mm_[current].swap_token_time) return;  // held it lately
    check_ = jiffies_ + kSwapTokenCheckInterval;
    const Release reason = should_release();
    if (reason == Release::kNo) return;
    if (token_mm_ != kInitMm) {
      mm_[token_mm_].swap_token_time =
          jiffies_ + (reason == Release::kTimedOut ? default_timeout_ : 0);
    }
    timeout_ = jiffies_ + default_timeout_;
    token_mm_ = current;
  }

  Release should_release() {
    if (token_mm_ == kInitMm) return Release::kEnoughRss;  // init_mm never pages in
    Mm& mm = mm_[token_mm_];
    Release reason = Release::kNo;
    if (!mm.recent_pagein) {
      reason = Release::kEnoughRss;
    } else if (jiffies_ > timeout_) {
      reason = Release::kTimedOut;
    }
    mm.recent_pagein = false;
    return reason;
  }

  // The token fields of mm_struct.
  struct Mm {
    std::uint64_t swap_token_time = 0;  // jiffies before which it may not take the token
    bool recent_pagein = false;
  };

  std::uint64_t default_timeout_;  // swap_token_default_timeout
  std::vector<std::uint8_t> swapped_;
  std::vector<Mm> mm_;
  ProcId token_mm_ = kInitMm;    // swap_token_mm
  ProcId current_mm_ = kInitMm;  // current->mm of the reclaim in progress
  std::size_t reclaim_resident_ = 0;
  std::size_t reclaim_scanned_ = 0;
  std::uint64_t jiffies_ = 0;
  std::uint64_t check_ = 0;    // swap_token_check
  std::uint64_t timeout_ = 0;  // swap_token_timeout
};

// Without the token: nothing, and no check of it in the replay loop (the policy is compiled
// twice, with and without; the registration below picks one by the swap_token parameter).
struct NoSwapToken {
  // Reads the timeout anyway: a bad value is an error with or without the token.
  explicit NoSwapToken(const Params& params) { swap_token_timeout(params); }
};

// The pages under writeback (PG_writeback, with the PG_reclaim that pageout sets), and the
// order pageout wrote them in. Without pageout=writeback there are none, and no per-page
// state to look at while scanning.
class UnderWriteback {
 public:
  void reset(std::size_t num_pages, bool on) {
    seq_.assign(on ? num_pages : 0, 0);
    order_.clear();
    next_ = 0;
  }
  bool has(PageId p) const { return !seq_.empty() && seq_[p] != 0; }
  void start(PageId p) {
    seq_[p] = ++next_;
    order_.emplace_back(p, next_);
  }
  // Ends p's writeback; false when it had none.
  bool end(PageId p) { return !seq_.empty() && std::exchange(seq_[p], 0) != 0; }
  // Forgets the ended writebacks at the front of the order.
  void drop_ended() {
    while (!order_.empty() && seq_[order_.front().first] != order_.front().second) {
      order_.pop_front();
    }
  }
  // The page written first of those under writeback; there must be one.
  PageId oldest() {
    drop_ended();
    return order_.front().first;
  }

 private:
  std::vector<std::uint64_t> seq_;  // 0: none; else its place in the order
  std::deque<std::pair<PageId, std::uint64_t>> order_;
  std::uint64_t next_ = 0;
};

template <bool kSwapToken>
class ActiveInactive final : public Policy {
 public:
  explicit ActiveInactive(const Params& params)
      : anon_insert_active_(params.get_choice("anon_insert", "active", {"active", "inactive"}) ==
                            "active"),
        inactive_ratio_(static_cast<std::size_t>(params.get_int("inactive_ratio", 0, 0, 1000))),
        swappiness_(static_cast<std::uint64_t>(params.get_int("swappiness", 60, 0, 200))),
        workingset_(params.get_bool("workingset", false)),
        pageout_writeback_(params.get_choice("pageout", "evict", {"evict", "writeback"}) ==
                           "writeback"),
        token_(params) {}

  PolicyTraits traits() const override {
    PolicyTraits t{/*needs_hits=*/true, /*needs_future=*/false, kSwapToken ? kJiffyNs : 0};
    t.writes_back = pageout_writeback_;        // pageout's asynchronous writepage
    t.write_completions = pageout_writeback_;  // end_page_writeback's rotation
    return t;
  }

  // Hits on anonymous pages only set the pte young bit: only a fault's list insertion
  // benefits from having the page's list node in cache.
  static constexpr bool pagesim_prefetch_fast_path = true;  // see policy.hpp
  void prefetch(PageId p, int stage) const {
    if (stage == 0) lists_.prefetch(p, 0);
  }

  void reset(std::size_t num_pages, std::size_t /*frames*/) override {
    lists_.reset(num_pages, 4);
    pg_referenced_.assign(num_pages, 0);
    writeback_.reset(num_pages, pageout_writeback_);
    shadow_.assign(workingset_ ? num_pages : 0, 0);
    nonresident_age_ = 0;
    for (std::size_t t = 0; t < 2; ++t) {
      recent_scanned_[t] = 0;
      recent_rotated_[t] = 0;
      credit_[t] = 0;
    }
    if constexpr (kSwapToken) token_.reset(num_pages);
    reads_.reset();
  }

  void on_hit(const Access& a, PageTableView) override {
    if (a.kind == PageKind::kFile && reads_.marks(a)) mark_page_accessed(a.page);
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
    // A readahead page is added to the LRU unreferenced (add_to_page_cache_lru); the read
    // that later uses it marks it.
    if (type == kFile && !a.readahead && reads_.marks(a)) mark_page_accessed(p);
    if constexpr (kSwapToken) token_.fault(a);
  }

  void on_tick(Tick now, PageTableView) override {
    if constexpr (kSwapToken) token_.tick(now);
  }

  void on_free(PageId p, PageTableView view) override {
    lists_.remove(p);
    pg_referenced_[p] = 0;
    writeback_.end(p);
    if (workingset_) shadow_[p] = 0;
    if constexpr (kSwapToken) token_.freed(p, view.proc(p));
  }

  void select_victims(std::size_t want, PageTableView view, VictimList& out) override {
    // Every step either evicts or clears a referenced bit and moves a page, and nothing sets
    // bits meanwhile, so a few passes over memory always suffice (with the token, after one
    // pass it is ignored); the guard only protects against a bug turning into a hang.
    std::size_t guard = 5 * view.resident_count() + 64;
    pages_per_gib_ = std::max<std::size_t>((std::size_t{1} << 30) / view.trace().page_size(), 1);
    if constexpr (kSwapToken) {
      const PageId incoming = view.incoming();
      const bool kswapd = incoming == kNoPage || view.background();
      token_.begin_reclaim(kswapd ? kInitMm : view.proc(incoming), view.resident_count());
    }
    if (pageout_writeback_) {
      for (const PageId p : view.written()) end_page_writeback(p, view);
      writeback_.drop_ended();
      kept_writeback_[kAnon] = kept_writeback_[kFile] = 0;
    }
    while (out.size() < want) {
      if (guard-- == 0) {
        evict_any(view, out);
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

  // Test hook (probe_swap_token): the process holding the swap token, -1 for init_mm.
  std::int64_t token_holder() const { return token_.holder(); }

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
    const std::size_t inactive = lists_.size(inactive_list(type));
    const std::size_t active = lists_.size(active_list(type));
    std::size_t ratio = inactive_ratio_;
    if (ratio == 0) {  // 6.1's
      const std::size_t gb = (inactive + active) / pages_per_gib_;
      ratio = gb == 0 ? 1 : int_sqrt(10 * gb);
    }
    return inactive * ratio < active;
  }

  // The largest r with r * r <= n (the kernel's int_sqrt).
  static std::size_t int_sqrt(std::size_t n) {
    std::size_t r = static_cast<std::size_t>(std::sqrt(static_cast<double>(n)));
    while (r * r > n) --r;
    while ((r + 1) * (r + 1) <= n) ++r;
    return r;
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

  // page_referenced(): anonymous pages are mapped, so their pte young bit counts, and so
  // does the swap token of their process.
  bool page_referenced(PageId p, std::size_t type, PageTableView& view) {
    bool referenced = pg_referenced_[p] != 0;
    pg_referenced_[p] = 0;
    if (type == kAnon) {
      referenced = view.test_and_clear_referenced(p) || referenced;
      if constexpr (kSwapToken) referenced = token_.protects(view.proc(p)) || referenced;
    }
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
    view.count_scanned(p);  // pgrefill
    if constexpr (kSwapToken) token_.scanned();
    if (type == kAnon && page_referenced(p, type, view)) {
      lists_.move_to_front(active_list(type), p);
      ++recent_rotated_[type];
    } else {
      lists_.move_to_front(inactive_list(type), p);
      kept_writeback_[type] = 0;  // the inactive list changed
    }
  }

  void shrink_inactive_page(std::size_t type, PageTableView& view, VictimList& out) {
    const PageId p = lists_.back(inactive_list(type));
    ++recent_scanned_[type];
    if constexpr (kSwapToken) token_.scanned();
    if (pageout_writeback_ && under_writeback(p, type, view, out)) return;
    const bool referenced = page_referenced(p, type, view);
    if (referenced && type == kAnon) {  // page_mapping_inuse
      view.count_scanned(p);
      return activate(p, type);
    }
    if (referenced && view.dirty(p)) {
      view.count_scanned(p);
      lists_.move_to_front(inactive_list(type), p);  // keep_locked
      return;
    }
    if (view.dirty(p) && pageout_writeback_ && view.async_writes()) {  // pageout
      view.start_writeback(p);
      writeback_.start(p);
      view.count_scanned(p);
      lists_.move_to_front(inactive_list(type), p);  // PageWriteback: keep
      return;
    }
    evict(p, view, out);
  }

  // shrink_page_list's PageWriteback test on inactive tail page p: true when p is under
  // writeback, and then kept or (see the header) the page written first evicted.
  bool under_writeback(PageId p, std::size_t type, PageTableView& view, VictimList& out) {
    if (!writeback_.has(p)) {
      kept_writeback_[type] = 0;
      return false;
    }
    if (++kept_writeback_[type] >= lists_.size(inactive_list(type))) {
      evict(writeback_.oldest(), view, out);
    } else {
      view.count_scanned(p);
      lists_.move_to_front(inactive_list(type), p);  // keep
    }
    return true;
  }

  // The write of page p, cleaned by pageout, has completed.
  void end_page_writeback(PageId p, const PageTableView& view) {
    if (!writeback_.end(p)) return;
    const std::uint8_t list = lists_.list_of(p);
    if (list % 2 == 0 && !view.dirty(p)) {  // rotate_reclaimable_page
      lists_.remove(p);
      lists_.push_back(list, p);
    }
  }

  void evict(PageId p, PageTableView& view, VictimList& out) {
    lists_.remove(p);
    pg_referenced_[p] = 0;
    if (pageout_writeback_) writeback_.end(p);
    if (workingset_) shadow_[p] = ++nonresident_age_;  // workingset_eviction
    // The engine writes a dirty page to swap; a clean one keeps the copy it may have.
    if constexpr (kSwapToken) token_.evicted(p, view.dirty(p) || view.in_swap(p));
    out.push_back(p);
  }

  void evict_any(PageTableView& view, VictimList& out) {
    for (std::size_t list = 0; list < 4; ++list) {
      if (!lists_.empty(list)) return evict(lists_.back(list), view, out);
    }
  }

  bool anon_insert_active_;
  std::size_t inactive_ratio_;  // 0: 6.1's, from the lists' size
  std::size_t pages_per_gib_ = std::size_t{1} << 18;
  std::uint64_t swappiness_;
  bool workingset_;
  bool pageout_writeback_;  // pageout=writeback (else evict): see the header
  PageLists lists_;
  std::vector<std::uint8_t> pg_referenced_;
  UnderWriteback writeback_;
  // Per type, the pages under writeback the current reclaim has kept in a row from its
  // inactive list, since that list last changed otherwise.
  std::size_t kept_writeback_[2] = {0, 0};
  ReadsInSuccession reads_;
  std::vector<std::uint64_t> shadow_;
  std::uint64_t nonresident_age_ = 0;
  std::uint64_t recent_scanned_[2] = {0, 0};
  std::uint64_t recent_rotated_[2] = {0, 0};
  std::int64_t credit_[2] = {0, 0};
  std::conditional_t<kSwapToken, SwapToken, NoSwapToken> token_;
};

}  // namespace

std::int64_t probe_active_inactive(const Policy& policy, PageId page) {
  if (const auto* with = dynamic_cast<const ActiveInactive<true>*>(&policy))
    return with->probe(page);
  return dynamic_cast<const ActiveInactive<false>&>(policy).probe(page);
}

std::int64_t probe_swap_token(const Policy& policy) {
  return dynamic_cast<const ActiveInactive<true>&>(policy).token_holder();
}

namespace {
const SwitchedPolicyRegistrar<ActiveInactive<false>, ActiveInactive<true>> registrar(
    "active_inactive",
    "Linux 2.6 active/inactive lists, mark_page_accessed promotion, optional workingset refault "
    "detection and swap token",
    "swap_token", __FILE__);
}  // namespace

}  // namespace pagesim
