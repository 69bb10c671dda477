// FreeBSD ~5.0 page daemon: act_count aging on the active queue, an inactive queue scanned
// for clean pages first, where pages read() through the buffer cache enter, dirty pages
// cycled twice before laundering.
//
// Sources: FreeBSD 5.0 sys/vm/vm_pageout.c vm_pageout_scan (inactive and active queue scans,
// PG_WINATCFLS, defer_swapspace_pageouts, vm_pageout_algorithm), sys/vm/vm_page.c
// vm_page_activate / vm_page_deactivate / vm_page_wire / vm_page_unwire / vm_page_alloc,
// sys/vm/vm_pageq.c vm_pageq_enqueue, sys/vm/vm_page.h ACT_DECLINE 1, ACT_ADVANCE 3, ACT_INIT 5,
// ACT_MAX 64; the read() path: sys/kern/vfs_bio.c allocbuf / brelse / bqrelse /
// vfs_vmio_release (the same in 4-STABLE and 6.x, the versions read), sys/ufs/ffs/ffs_vnops.c
// ffs_read (5.x); the fault path: sys/vm/vm_fault.c vm_fault (no 5.x copy was found; the
// versions read, 2.x, DragonFly's, forked from 4.8, and FreeBSD's v1.214 of 2006 (6.x), all
// set PG_REFERENCED on the faulted page before vm_page_activate). See
// /work/shared/reference/linux-reclaim.md section 5.
//
// Page model. Anonymous pages are mapped: pmap_ts_referenced() is the pte young bit (0 or 1
// reference). A faulted anonymous page is activated with PG_REFERENCED set (vm_fault:
// vm_page_flag_set(fs.m, PG_REFERENCED); vm_page_activate(fs.m); the code is beside on_fault):
// active queue, act_count = ACT_INIT, so the first active scan counts two references, the
// flag and the young bit the access left. The pages a swap-in reads around the faulting one
// (swap readahead) are deactivated instead (swp_pager_async_iodone, beside on_fault): inactive
// tail, act_count 0, unreferenced until the process touches them. Their first touch is a hit
// (the pte young bit), as if the fault had mapped them: vm_fault's pmap_prefault (i386
// pmap.c) maps the resident, valid, unbusied pages of the object up to PFBAK = PFFOR = 4
// pages either side of the faulting address. A page it did not map would take a soft
// vm_fault at its first touch (PG_REFERENCED, vm_page_activate). The engine's readahead
// window is Linux's, neighbouring swap slots, not the object's neighbouring pages, so which
// of them FreeBSD would have prefaulted is not known here; all are taken as mapped.
// File pages are used through read()/write(), that is through the buffer cache; their pte
// young bit is ignored. A faulted file page enters the inactive queue at the tail with
// act_count 0, PG_REFERENCED and PG_WINATCFLS clear, where the buffer cache leaves it (the
// kernel code is beside on_fault): allocbuf gets the page from vm_page_alloc (act_count 0,
// flags PG_BUSY) and wires it (vm_page_wire: off every queue); when the buffer goes
// (ffs_read: brelse with B_RELBUF for IO_VMIO, else bqrelse, and getnewbuf when it reuses
// the buffer), vfs_vmio_release unwires it with vm_page_unwire(m, 0).
// A later access to a resident file page does the same (beside on_hit): allocbuf finds the
// page (vm_page_lookup), wires it, and vfs_vmio_release puts it back at the inactive tail with
// PG_WINATCFLS clear; PG_REFERENCED and act_count are left as they were. Nothing on the read
// path sets PG_REFERENCED (allocbuf, brelse, bqrelse, vfs_vmio_release, ffs_read; only
// vm_page_sleep_busy, for a PG_BUSY page it waits for), so a file page is never reactivated
// (the inactive scan activates a page for PG_REFERENCED or pmap_ts_referenced, and a file
// page has neither): it stays on the inactive queue, and each read moves it to the tail. A
// page read once and a page read twice are told apart only by where their last read left
// them; the page daemon frees whichever the scan reaches first. The inactive scan's "If the
// object is not being used, we ignore previous references" (object->ref_count == 0: clear
// PG_REFERENCED and the pmap reference) changes nothing for such a page, nor for an anonymous
// page, whose object its process maps until it exits.
// Not modelled: the buffers themselves (a page is wired, out of the page daemon's reach,
// while a buffer holds it, and the buffer cache keeps recently used buffers), and buf_daemon,
// which writes dirty buffers (here a dirty file page is laundered by the page daemon).
//
// Queues are FIFO: pages enter at the tail, scans start at the head (the oldest page).
//
//   vm_page_activate: act_count = max(act_count, ACT_INIT); to the active tail
//
// Scanned (Counters::pages_scanned, v_pdpages: pages analyzed by the daemon): every page
// either scan takes from a queue's head, whatever becomes of it (activated, requeued, moved,
// deactivated or the victim); the pages a scan would requeue one by one and that
// inactive_scan moves at once count as if it had.
//
//   inactive scan (vm_pageout_scan), from the head, until the victims wanted are found:
//     if (PG_REFERENCED) { clear; actcount = pmap_ts_referenced; vm_page_activate;
//                          act_count += actcount + ACT_ADVANCE + 1; continue }
//     if (actcount = pmap_ts_referenced) { vm_page_activate; act_count += actcount +
//                          ACT_ADVANCE; continue }
//     if (clean) vm_page_cache -> victim (the cache queue is as good as free)
//     else if (!(flags & PG_WINATCFLS) && pass == 0) { set PG_WINATCFLS; requeue }
//                          -- dirty pages go round twice before they are laundered
//     else if (anonymous && !swap_pageouts_ok) requeue   -- defer_swapspace_pageouts
//     else vm_pageout_clean -> victim. vm_pageout_clean writes the page with the dirty
//                          inactive pages next to it (the cluster, below), and the scan
//                          counts it towards its shortage ("--page_shortage ... to account
//                          for the (future) cleaned page"); when the write completes,
//                          swp_pager_async_iodone (5.0 sys/vm/swap_pager.c) caches it while
//                          memory is severely short:
//                            if (!vm_page_count_severe() || !vm_page_try_to_cache(m))
//                                    vm_page_protect(m, VM_PROT_READ);
//                          and it is whenever this engine reclaims (no frame is free), so
//                          the laundered page is freed as its write completes, not at a later
//                          scan: here a writeback (PageTableView::start_writeback), then the
//                          victim, evicted clean. (The engine frees its frame at once, the
//                          write queued.)
//
//   vm_pageout_clean's cluster (5.0 sys/vm/vm_pageout.c). A process's anonymous memory is
//   one object, and so are its file pages (the engine's convention: they stand for one file,
//   their vpns for its offsets); pindex = vpn. From the page, backwards first,
//   then forwards, then backwards again if room remains, take each next page while it is
//   resident (vm_page_lookup), dirty and on the inactive queue, up to vm_pageout_page_count
//   (8 under 2000 frames, else 16) pages in all; the backward run also stops after a page
//   whose vpn is a multiple of vm_pageout_page_count ("alignment boundry, stop here and
//   switch directions"). vm_pageout_flush writes the cluster in vpn order, the swap pager on
//   consecutive blocks: the engine's writebacks in that order, on consecutive slots. The other
//   pages of the cluster stay where they are on the inactive queue, clean (under a severe
//   shortage FreeBSD would cache them too as their write completes; here the scan frees them
//   when it reaches them, clean).
//   active scan, after every inactive scan, from the head, at most one pass, while
//   page_shortage > 0 (the victims still wanted + v_inactive_target - the inactive pages,
//   signed; each deactivation counts one):
//     actcount = PG_REFERENCED (cleared) + pmap_ts_referenced
//     if (actcount) { act_count = min(act_count + ACT_ADVANCE + actcount, ACT_MAX); requeue }
//     else { act_count -= min(act_count, ACT_DECLINE);
//            if (vm_pageout_algorithm || act_count == 0) vm_page_deactivate (inactive tail)
//            else requeue }
//   reclaim: repeat { inactive scan; active scan } until enough victims. `pass` is the
//   daemon's: it counts the scans of this reclaim, starting at 0, or at 1 when the reclaim
//   before ended at pass 2 or later (vm_pageout primes the pass "for the next run"; it
//   resets it to 0 when it sleeps 5 s without a wakeup, which this model, without a clock,
//   does not do: reclaims under pressure follow each other closely).
//
// Simplifications:
//   - v_inactive_target as vm_pageout computes it at boot (v_inactive_target() below), with
//     the frames as both v_page_count and v_free_count.
//   - defer_swapspace_pageouts: swap_pageouts_ok = !defer || vm_page_count_min(), and
//     vm_page_count_min() ("free memory below v_free_min") is approximated by "every resident
//     page is a dirty anonymous page": while a clean or file page is resident, reclaim ages
//     it down and frees it rather than write an anonymous page to swap. Or by "the daemon is
//     stuck": a scan that freed, activated, flagged and deactivated nothing (it only requeued
//     deferred pages, and the inactive queue is above its target, so the active scan did not
//     run) would repeat itself forever; in the kernel, processes would go on allocating until
//     free memory fell below v_free_min, so from then on the reclaim pages out.
//   - vm_pageout_algorithm=1 (parameter pageout_algorithm=1): deactivate on the first
//     unreferenced active scan (plain LRU-like), as the sysctl.
//   - maxlaunder (a pass-0 scan launders at most vm_max_launder = 32 dirty pages, and leaves
//     the dirty pages it meets after that in place) is not modelled: it binds only when a
//     reclaim wants more than 32 victims (the engine's high_watermark above 32).
//
// Process exit (free_on_exit; 5.0 exit1 -> vm_map_remove -> vm_map_delete ->
// vm_object_deallocate -> vm_object_terminate: an anonymous object dies with its only map):
// each page goes
//   vm_page_free -> vm_page_free_toq -> vm_pageq_remove_nowakeup  -- off its queue, the
//                                                                    queue's count too
// and vm_pager_deallocate -> swap_pager_dealloc frees its swap blocks. Its act_count and flags
// go with it, and a dirty anonymous page leaves dirty_anon_resident_, which stands in for
// vm_page_count_min().
#include <algorithm>
#include <cstddef>
#include <cstdint>
#include <vector>

#include "pagesim/page_list.hpp"
#include "pagesim/registry.hpp"
#include "pagesim/walk_order.hpp"

namespace pagesim {
namespace {

constexpr std::size_t kActive = 0;
constexpr std::size_t kInactive = 1;
constexpr int kActDecline = 1;
constexpr int kActAdvance = 3;
constexpr int kActInit = 5;
constexpr int kActMax = 64;

class FreeBsd final : public Policy {
 public:
  explicit FreeBsd(const Params& params)
      : defer_swapspace_pageouts_(params.get_bool("defer_swapspace_pageouts", false)),
        pageout_algorithm_(params.get_int("pageout_algorithm", 0, 0, 1) == 1) {}

  PolicyTraits traits() const override {
    PolicyTraits t;
    t.needs_hits = true;
    t.writes_back = true;  // vm_pageout_clean's cluster
    return t;
  }

  // A fault inserts the page's list node; a hit on a file page also unlinks it, which needs
  // its neighbours (stage 1). Hits on anonymous pages only set the pte young bit.
  static constexpr bool pagesim_prefetch_fast_path = true;  // see policy.hpp
  void prefetch(PageId p, int stage) const { lists_.prefetch(p, stage); }

  void reset(std::size_t num_pages, std::size_t frames) override {
    lists_.reset(num_pages, 2);
    act_count_.assign(num_pages, 0);
    flags_.assign(num_pages, 0);
    pageout_page_count_ = frames < 2000 ? 8 : 16;  // vm_pageout, page_count = frames
    inactive_target_ = v_inactive_target(frames, pageout_page_count_);
    objects_[0] = VpnOrder{};
    dirty_anon_resident_ = 0;
    next_pass_ = 0;
  }

  void on_hit(const Access& a, PageTableView view) override {
    if (a.kind == PageKind::kFile) {
      // allocbuf (4-STABLE), the page is resident:
      //   if ((m = vm_page_lookup(obj, pi)) == NULL) { ... vm_page_alloc ... }
      //   if (vm_page_sleep_busy(m, FALSE, "pgtblk")) continue;
      //   vm_page_flag_clear(m, PG_ZERO);
      //   vm_page_wire(m);
      // vm_page_wire (5.x): if (m->wire_count == 0) { ... vm_pageq_remove(m); ... }
      //   m->wire_count++;                      -- off its queue; act_count, flags untouched
      // and when the buffer goes, vfs_vmio_release -> vm_page_unwire(m, 0), as on a fault.
      // A file page is only ever on the inactive queue (see the header); deactivate() takes
      // it off whichever queue holds it all the same.
      deactivate(a.page);
    } else if (view.dirty(a.page)) {
      note_dirty_anon(a.page);
    }
  }

  void on_fault(const Access& a, PageTableView view) override {
    const PageId p = a.page;
    flags_[p] = 0;      // vm_page_alloc: m->flags = PG_BUSY (PG_ZERO aside)
    act_count_[p] = 0;  //                m->act_count = 0
    if (a.kind == PageKind::kFile) {
      deactivate(p);  // allocbuf: vm_page_alloc, vm_page_wire; vfs_vmio_release
      return;
    }
    if (a.readahead) {
      // swp_pager_async_iodone, for each page of the read but the one the fault asked for:
      //   /* If not the requested page then deactivate it. */
      //   if (i != bp->b_pager.pg_reqpage) { vm_page_deactivate(m); vm_page_wakeup(m); }
      deactivate(p);
      return;
    }
    if (view.dirty(p)) note_dirty_anon(p);
    // vm_fault, at its end (v1.214, 6.x; 2.x and DragonFly's 4.8-derived copy set
    // PG_MAPPED|PG_REFERENCED at the same place):
    //   pmap_enter(fs.map->pmap, vaddr, fs.m, prot, wired);
    //   ...
    //   vm_page_flag_set(fs.m, PG_REFERENCED);
    //   /* If the page is not wired down, then put it where the pageout daemon
    //    * can find it. */
    //   if (fault_flags & VM_FAULT_WIRE_MASK) { ... } else { vm_page_activate(fs.m); }
    flags_[p] |= kReferenced;
    activate(p);
  }

  void on_evict(PageId p, PageTableView) override { forget(p); }
  void on_free(PageId p, PageTableView) override { forget(p); }

  // Test hook (probe_freebsd): -1 not resident; else the queue (0 active, 1 inactive)
  // + 2 if PG_REFERENCED + 4 if PG_WINATCFLS + 8 * act_count.
  std::int64_t probe(PageId p) const {
    const std::uint8_t list = lists_.list_of(p);
    if (list == PageLists::kNone) return -1;
    return list + ((flags_[p] & kReferenced) ? 2 : 0) + ((flags_[p] & kWinatcfls) ? 4 : 0) +
           8 * std::int64_t{act_count_[p]};
  }

  // The page daemon's loop (vm_pageout): a scan with pass 0 (or 1, primed), then, while pages
  // are still needed, ++pass and another scan; when enough are free, "Prime the pass for the
  // next run": pass = (pass > 1) ? 1 : 0.
  void select_victims(std::size_t want, PageTableView view, VictimList& out) override {
    if (out.size() >= want) return;
    unsigned pass = next_pass_;
    inert_front_ = kNoPage;
    free_min_ = false;
    for (int round = 0; out.size() < want; ++round, ++pass) {
      if (round > 4 * kActMax) {
        while (out.size() < want) evict_any(view, out);
        break;
      }
      const bool inactive_changed = inactive_scan(want, pass, view, out);
      const bool active_changed = active_scan(want - out.size(), view);
      if (out.size() >= want) break;
      if (!inactive_changed && !active_changed && pass > 0) free_min_ = true;  // stuck
    }
    next_pass_ = pass > 1 ? 1 : 0;
  }

 private:
  // vm_pageout (5.0) and vm_pageout_free_page_calc, page_count = free_count = frames:
  //   if (cnt.v_page_count < 2000) vm_pageout_page_count = 8;            -- else 16
  //   v_free_min = page_count > 1024 ? 4 + (page_count - 1024) / 200 : 4;
  //   v_pageout_free_min = (2*MAXBSIZE)/PAGE_SIZE + v_interrupt_free_min;  -- 32 + 2
  //   v_free_reserved = vm_pageout_page_count + v_pageout_free_min + (count / 768)
  //                     + PQ_L2_SIZE;                           -- 32 (PQ_CACHESIZE 128)
  //   v_free_min += v_free_reserved;
  //   v_free_target = (free_count > 6144 ? 4 : 2) * v_free_min + v_free_reserved;
  //   v_inactive_target = free_count > 2048 ? (3 * v_free_target) / 2 : free_count / 4;
  //   if (v_inactive_target > free_count / 3) v_inactive_target = free_count / 3;
  // 924 pages for 8192 frames (11%), 11026 for 1 GiB (4%); a quarter of up to 2048 frames.
  static std::size_t v_inactive_target(std::size_t frames, std::size_t pageout_page_count) {
    const std::size_t free_reserved =
        pageout_page_count + (2 * 65536 / 4096 + 2) + frames / 768 + 32;
    const std::size_t free_min = (frames > 1024 ? 4 + (frames - 1024) / 200 : 4) + free_reserved;
    const std::size_t free_target = (frames > 6144 ? 4 : 2) * free_min + free_reserved;
    const std::size_t target = frames > 2048 ? 3 * free_target / 2 : frames / 4;
    return std::min(target, frames / 3);
  }

  static constexpr std::uint8_t kReferenced = 1;  // PG_REFERENCED
  static constexpr std::uint8_t kWinatcfls = 2;   // PG_WINATCFLS
  static constexpr std::uint8_t kDirtyAnon = 4;   // counted in dirty_anon_resident_

  void note_dirty_anon(PageId p) {
    if (flags_[p] & kDirtyAnon) return;
    flags_[p] |= kDirtyAnon;
    ++dirty_anon_resident_;
  }

  // pmap_ts_referenced: the pte young bit of a mapped (anonymous) page.
  int pmap_ts_referenced(PageId p, PageTableView& view) const {
    return view.kind(p) == PageKind::kAnon && view.test_and_clear_referenced(p) ? 1 : 0;
  }

  // To the inactive tail, PG_WINATCFLS cleared: vm_page_deactivate (the active scan, swap
  // readahead; neither finds the page inactive) and vm_page_unwire(m, 0) (read()) alike.
  // _vm_page_deactivate (5.x):
  //   if (m->queue == PQ_INACTIVE) return;  /* Ignore if already inactive. */
  //   ... vm_page_flag_clear(m, PG_WINATCFLS); vm_pageq_remove(m);
  //   TAILQ_INSERT_TAIL(&vm_page_queues[PQ_INACTIVE].pl, m, pageq);
  // vfs_vmio_release (4-STABLE, 6.x):
  //   /* In order to keep page LRU ordering consistent, put
  //    * everything on the inactive queue. */
  //   vm_page_unwire(m, 0);
  // vm_page_unwire (5.x):
  //   if (activate) vm_pageq_enqueue(PQ_ACTIVE, m);
  //   else { vm_page_flag_clear(m, PG_WINATCFLS); vm_pageq_enqueue(PQ_INACTIVE, m); }
  // vm_pageq_enqueue: TAILQ_INSERT_TAIL, the end the scans (TAILQ_FIRST) reach last.
  // (The comment above vm_page_unwire speaks of putting clean pages at the head "if the
  // inactive target is well met", "so one-time-use metadata [is] reused more quickly"; its
  // code does not: every unwired page goes to the tail.)
  void deactivate(PageId p) {
    flags_[p] &= static_cast<std::uint8_t>(~kWinatcfls);
    lists_.move_to_front(kInactive, p);
  }

  void activate(PageId p) {
    act_count_[p] = static_cast<std::uint8_t>(std::max(int{act_count_[p]}, kActInit));
    flags_[p] &= static_cast<std::uint8_t>(~kWinatcfls);
    lists_.move_to_front(kActive, p);
  }

  void add_act(PageId p, int n) {
    act_count_[p] = static_cast<std::uint8_t>(std::min(int{act_count_[p]} + n, 255));
  }

  // With defer_swapspace_pageouts, while swap_pageouts_ok stays false, a scan after the first
  // (pass > 0) requeues every dirty anonymous page that is not referenced, unchanged. Such a
  // scan that went through the whole queue leaves only such pages on it, and until the reclaim
  // ends nothing but the active scan, which only adds pages at the tail, changes the queue: the
  // next scan would requeue them all again, one by one, before it reaches the pages added
  // since. It moves them at once instead (rotate_to_front) and scans the pages added since, so
  // a reclaim that waits for the active scan to age a clean page down costs the pages it
  // deactivates rather than the whole inactive queue per round. Pages, order and flags come
  // out as the plain scan leaves them.
  // Returns whether the scan changed anything but the order of deferred pages.
  bool inactive_scan(std::size_t want, unsigned pass, PageTableView& view, VictimList& out) {
    const bool swap_pageouts_ok =
        !defer_swapspace_pageouts_ || free_min_ || view.resident_count() == dirty_anon_resident_;
    const bool requeues_dirty_anon = pass > 0 && !swap_pageouts_ok;
    std::size_t maxscan = lists_.size(kInactive);
    if (requeues_dirty_anon && inert_front_ != kNoPage) {
      lists_.rotate_to_front(kInactive, inert_front_);
      maxscan -= inert_count_;
      for (const auto& [page, n] : inert_by_proc_) {
        if (n != 0) view.count_scanned(page, n);
      }
    }
    inert_front_ = kNoPage;
    bool changed = false;
    for (; maxscan > 0 && out.size() < want; --maxscan) {
      const PageId p = lists_.back(kInactive);
      if (flags_[p] & kReferenced) {
        flags_[p] &= static_cast<std::uint8_t>(~kReferenced);
        const int actcount = pmap_ts_referenced(p, view);
        activate(p);
        add_act(p, actcount + kActAdvance + 1);
        view.count_scanned(p);
        changed = true;
        continue;
      }
      if (const int actcount = pmap_ts_referenced(p, view)) {
        activate(p);
        add_act(p, actcount + kActAdvance);
        view.count_scanned(p);
        changed = true;
        continue;
      }
      if (view.dirty(p) && view.kind(p) == PageKind::kAnon && !swap_pageouts_ok &&
          ((flags_[p] & kWinatcfls) || pass > 0)) {
        lists_.move_to_front(kInactive, p);  // deferred
        view.count_scanned(p);
        continue;
      }
      changed = true;
      if (!view.dirty(p)) {
        evict(p, out);
      } else if (!(flags_[p] & kWinatcfls) && pass == 0) {
        flags_[p] |= kWinatcfls;
        lists_.move_to_front(kInactive, p);
        view.count_scanned(p);
      } else {
        vm_pageout_clean(p, view);
        evict(p, out);
      }
    }
    if (requeues_dirty_anon && maxscan == 0 && !lists_.empty(kInactive)) {
      inert_front_ = lists_.front(kInactive);
      inert_count_ = lists_.size(kInactive);
      inert_by_proc_.clear();
      for (PageId p = inert_front_; p != kNoPage; p = lists_.next(p)) {
        const ProcId q = view.proc(p);
        if (q >= inert_by_proc_.size()) inert_by_proc_.resize(q + 1, {kNoPage, 0});
        inert_by_proc_[q] = {p, inert_by_proc_[q].second + 1};
      }
    }
    return changed;
  }

  // vm_pageout_scan, after the inactive scan, whether or not it found enough:
  //   page_shortage = vm_paging_target() + cnt.v_inactive_target - cnt.v_inactive_count;
  // that is the victims still wanted + the inactive target - the inactive pages: signed, so an
  // inactive queue above its target cuts the active scan short, or cancels it. Returns whether
  // it scanned a page (each scan changes the page: act_count up or down, or deactivated).
  bool active_scan(std::size_t wanted, PageTableView& view) {
    const auto page_shortage_signed = static_cast<std::ptrdiff_t>(wanted + inactive_target_) -
                                      static_cast<std::ptrdiff_t>(lists_.size(kInactive));
    if (page_shortage_signed <= 0 || lists_.empty(kActive)) return false;
    auto page_shortage = static_cast<std::size_t>(page_shortage_signed);
    for (std::size_t pcount = lists_.size(kActive); pcount > 0 && page_shortage > 0; --pcount) {
      const PageId p = lists_.back(kActive);
      view.count_scanned(p);
      int actcount = pmap_ts_referenced(p, view);
      if (flags_[p] & kReferenced) {
        flags_[p] &= static_cast<std::uint8_t>(~kReferenced);
        ++actcount;
      }
      if (actcount > 0) {
        act_count_[p] = static_cast<std::uint8_t>(
            std::min(int{act_count_[p]} + kActAdvance + actcount, kActMax));
        lists_.move_to_front(kActive, p);
        continue;
      }
      act_count_[p] = static_cast<std::uint8_t>(act_count_[p] - std::min(int{act_count_[p]}, kActDecline));
      if (pageout_algorithm_ || act_count_[p] == 0) {
        deactivate(p);
        --page_shortage;
      } else {
        lists_.move_to_front(kActive, p);
      }
    }
    return true;
  }

  // Writes dirty page p with its cluster (see the header), in vpn order.
  void vm_pageout_clean(PageId p, PageTableView& view) {
    if (objects_[0].begin.empty()) build_objects(view.trace());
    // p's object: the pages object.pages[begin, end), their vpns vpns (ascending), so that the
    // page at vpn v - 1 (v + 1), if there is one, is right before (after) v's.
    const std::size_t k = view.kind(p) == PageKind::kAnon ? 0 : 1;
    const VpnOrder& object = objects_[k];
    const std::vector<std::uint64_t>& vpns = object_vpns_[k];
    const std::size_t begin = object.begin[view.proc(p)];
    const std::size_t end = object.begin[view.proc(p) + 1];
    auto joins = [&](std::size_t i, std::uint64_t vpn) {
      const PageId q = object.pages[i];
      return vpns[i] == vpn && view.resident(q) && view.dirty(q) && lists_.contains(kInactive, q);
    };
    std::size_t first = object_at_[p];  // the cluster: object.pages[first, last]
    std::size_t last = first;
    auto size = [&] { return last - first + 1; };
    bool backward = true;  // false once the backward run has stopped for good
    for (;;) {
      while (backward && size() < pageout_page_count_) {
        if (first == begin || !joins(first - 1, vpns[first] - 1)) {
          backward = false;
          break;
        }
        --first;
        if (vpns[first] % pageout_page_count_ == 0) break;  // alignment boundary
      }
      while (size() < pageout_page_count_ && last + 1 < end && joins(last + 1, vpns[last] + 1)) {
        ++last;
      }
      if (!backward || size() >= pageout_page_count_) break;
    }
    for (std::size_t i = first; i <= last; ++i) {
      const PageId q = object.pages[i];
      view.start_writeback(q);
      if (q != p && (flags_[q] & kDirtyAnon)) {  // clean now, and resident
        flags_[q] &= static_cast<std::uint8_t>(~kDirtyAnon);
        --dirty_anon_resident_;
      }
    }
  }

  void build_objects(const Trace& trace) {
    object_at_.assign(trace.num_pages(), 0);
    for (std::size_t k = 0; k < 2; ++k) {
      objects_[k].build(trace, k == 0 ? PageKind::kAnon : PageKind::kFile);
      object_vpns_[k].resize(objects_[k].pages.size());
      for (std::size_t i = 0; i < objects_[k].pages.size(); ++i) {
        object_at_[objects_[k].pages[i]] = static_cast<std::uint32_t>(i);
        object_vpns_[k][i] = trace.page_vpn(objects_[k].pages[i]);
      }
    }
  }

  // The victim leaves its queue, but stays counted in dirty_anon_resident_ until on_evict: it
  // is resident until the reclaim ends, and vm_page_count_min() does not change while the scan
  // goes on (a laundered page is not free until its write completes), so a reclaim of several
  // victims pages out as many dirty anonymous pages as it needs.
  void evict(PageId p, VictimList& out) {
    lists_.remove(p);
    flags_[p] &= kDirtyAnon;
    act_count_[p] = 0;
    out.push_back(p);
  }

  // A no-op for a page on no queue: its flags were cleared when it left.
  void forget(PageId p) {
    lists_.remove(p);
    if (flags_[p] & kDirtyAnon) --dirty_anon_resident_;
    flags_[p] = 0;
    act_count_[p] = 0;
  }

  void evict_any(PageTableView& /*view*/, VictimList& out) {
    inert_front_ = kNoPage;
    evict(lists_.empty(kInactive) ? lists_.back(kActive) : lists_.back(kInactive), out);
  }

  bool defer_swapspace_pageouts_;
  bool pageout_algorithm_;
  PageLists lists_;
  std::vector<std::uint8_t> act_count_;
  std::vector<std::uint8_t> flags_;
  std::size_t inactive_target_ = 0;
  std::size_t pageout_page_count_ = 16;  // vm_pageout_page_count: a cluster's pages at most
  // The objects, by pindex: every process's anonymous pages [0] and file pages [1] in vpn
  // order, their vpns, and where each page is in its object; built at the first launder.
  VpnOrder objects_[2];
  std::vector<std::uint64_t> object_vpns_[2];
  std::vector<std::uint32_t> object_at_;
  std::size_t dirty_anon_resident_ = 0;
  unsigned next_pass_ = 0;  // the pass the next reclaim's first scan runs with
  bool free_min_ = false;   // in select_victims: stuck, so vm_page_count_min() (see header)
  // In select_victims: the inactive queue from inert_front_ to its head, where scans start
  // (inert_count_ pages), is what the last scan requeued (see inactive_scan); kNoPage: none.
  PageId inert_front_ = kNoPage;
  std::size_t inert_count_ = 0;
  // Those pages by process: one of its pages and how many (count_scanned counts by owner).
  std::vector<std::pair<PageId, std::uint64_t>> inert_by_proc_;
};

}  // namespace

std::int64_t probe_freebsd(const Policy& policy, PageId page) {
  return dynamic_cast<const FreeBsd&>(policy).probe(page);
}

PAGESIM_REGISTER_POLICY(FreeBsd, "freebsd",
                        "FreeBSD 5 page daemon: act_count aging (5/3/1/64), read() pages "
                        "enter the inactive queue, dirty pages cycled twice, "
                        "defer_swapspace_pageouts");

}  // namespace pagesim
