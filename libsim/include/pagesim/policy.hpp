#pragma once

#include <cstddef>
#include <vector>

#include "pagesim/page_table.hpp"
#include "pagesim/types.hpp"

namespace pagesim {

using VictimList = std::vector<PageId>;

// What a policy needs from the engine. Declared, never guessed.
struct PolicyTraits {
  // on_hit is called for every hit (LRU-like policies). Otherwise hits only set the
  // referenced bit, which the policy may test-and-clear (CLOCK-like policies).
  bool needs_hits = false;
  // Access::next_use is filled (prescient policies). The engine computes it in one backward
  // pass over the replay order; it throws ConfigError when that order is not known in advance.
  bool needs_future = false;
  // When non-zero, on_tick is called every tick_ns of virtual time (periodic aging: kswapd,
  // kscand, background_aging).
  Tick tick_ns = 0;
};

// A page-replacement policy nominates victims; the engine owns residency, dirty bits, swap
// slots and every counter, and checks every nomination.
//
// Call order for one run:
//   reset(num_pages, frames)                    once, before the first access
//   for each access, in replay order:
//     hit:   the engine sets the referenced bit (and dirty on a write), then
//            on_hit(access, view)               only if traits().needs_hits
//     tick:  on_tick(now, view)                 first, if traits().tick_ns and the virtual
//                                               clock (CPU time plus IO waits) passed the
//                                               next tick (at most one per access)
//     fault: if no frame is free (or free frames are at or below the low watermark):
//              select_victims(want, view, out)  out is empty on entry; append up to want
//                                               resident, distinct pages (at least one when
//                                               no frame is free); view.incoming() is the
//                                               faulting page (not yet resident)
//                                               (a built-in policy with a
//                                               select_victim(view) method gets that call
//                                               instead when one victim is wanted: see
//                                               engine.hpp)
//              on_evict(page, view)             for each victim, in order, after the engine
//                                               has evicted it (view shows it non-resident)
//            readahead: on a swap-in with page_cluster > 0, the engine also brings in the
//            non-resident pages of the slots around the faulting one (see engine.hpp); for
//            each, in slot order: on_fault(ra, view) with ra.readahead = true, ra.page that
//            page, ra.index the faulting access, ra.write false, the page resident, clean and
//            NOT referenced. A policy that ignores the flag treats it as a fault, which is
//            sane (the page is resident and must be evictable).
//            the engine makes the page resident with the referenced bit set (dirty on a
//            write), then
//            on_fault(access, view)
//     exit:  with free_on_exit, after the last access of a process (in replay order) while
//            another process still has accesses to make, for each anonymous page of it,
//            resident or not, in page id order, one call after another (a policy may drop
//            all of the process's pages at the first):
//              on_free(page, view)              view.resident(page) says whether it is
//                                               resident; then the engine frees its frame and
//                                               swap slot. Drop it from every structure,
//                                               history (ghost entries) included: it is never
//                                               accessed again.
//            File pages stay: the page cache outlives the process.
// A policy must drop a victim from its own structures in select_victims or in on_evict; the
// engine never evicts a page the policy did not nominate.
class Policy {
 public:
  virtual ~Policy() = default;

  virtual PolicyTraits traits() const { return {}; }
  virtual void reset(std::size_t num_pages, std::size_t frames) = 0;
  virtual void on_hit(const Access& /*access*/, PageTableView /*view*/) {}
  virtual void on_fault(const Access& access, PageTableView view) = 0;
  virtual void select_victims(std::size_t want, PageTableView view, VictimList& out) = 0;
  virtual void on_evict(PageId /*page*/, PageTableView /*view*/) {}
  virtual void on_tick(Tick /*now*/, PageTableView /*view*/) {}
  // Default: a PolicyError saying that the policy cannot run with free_on_exit.
  virtual void on_free(PageId page, PageTableView view);
};

}  // namespace pagesim
