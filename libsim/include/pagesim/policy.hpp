#pragma once

#include <cstddef>
#include <cstdint>
#include <string>
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
  // select_victims may clean dirty pages without evicting them (PageTableView::start_writeback:
  // WSClock's scheduled writes, a page_launder).
  bool writes_back = false;
  // With writes_back, on a queued device: select_victims learns when the writes it started
  // complete (PageTableView::written), as the kernel's end_page_writeback does; without it
  // a page start_writeback cleaned is as good as written.
  bool write_completions = false;
};

// A page-replacement policy nominates victims; the engine owns residency, dirty bits, swap
// slots and every counter, and checks every nomination.
//
// Call order for one run:
//   reset(num_pages, frames)                    once, before the first access
//   for each access, in replay order:
//     hit:   the engine sets the referenced bit (and dirty on a write), then
//            on_hit(access, view)               only if traits().needs_hits
//            (the first hit on a swap readahead page whose read has not completed then
//            blocks its process until it does: see engine.hpp)
//     tick:  on_tick(now, view)                 first, if traits().tick_ns and the virtual
//                                               clock (CPU time plus IO waits) passed the
//                                               next tick (at most one per access)
//     fault: if no frame is free (or free frames are at or below the low watermark, or
//            fewer than the fault's readahead pages need):
//              select_victims(want, view, out)  out is empty on entry; append up to want
//                                               resident, distinct pages (at least one when
//                                               no frame is free); view.incoming() is the
//                                               faulting page (not yet resident);
//                                               view.background(): only the watermarks
//                                               asked (kswapd's reclaim)
//                                               With traits().writes_back it may also
//                                               clean resident dirty pages:
//                                               view.start_writeback(page) writes the
//                                               page (to its swap slot, or its file) and
//                                               leaves it resident and clean; the engine
//                                               does the writes when select_victims
//                                               returns, before it evicts the victims;
//                                               with traits().write_completions too, on a
//                                               queued device (view.async_writes()), it
//                                               learns when they are done:
//                                               view.written() lists the pages whose
//                                               writes completed since its last call
//                                               (a policy that opts in gets a select_victim
//                                               call instead when one victim is wanted: see
//                                               "Fast paths" below)
//              on_evict(page, view)             for each victim, in order, after the engine
//                                               has evicted ALL of them (view shows every
//                                               victim non-resident, its dirty, referenced
//                                               and readahead bits cleared; a dirty
//                                               anonymous page now in_swap). A policy that
//                                               needs a victim's dirty bit reads
//                                               view.dirty(page) in select_victims, before
//                                               nominating it, or follows writes itself
//                                               (Access::write in on_fault, and on_hit with
//                                               traits().needs_hits)
//            then the engine makes the faulting page resident with the referenced bit set
//            (dirty on a write);
//            readahead: on a swap-in with page_cluster > 0, the engine also brings in the
//            non-resident pages of the slots around the faulting one, and on a file read
//            fault with read_ahead_kb > 0 the non-resident file pages of its process at the
//            vpns after the faulting one's (see engine.hpp): it makes all of them resident
//            (clean, NOT referenced), then for each, in slot (file) order: on_fault(ra, view)
//            with ra.readahead = true, ra.page that page, ra.kind its kind, ra.index the
//            faulting access, ra.write false. During these calls the faulting page is already
//            resident (and referenced) but has had no on_fault yet. A policy that ignores the
//            flag treats it as a fault, which is sane (the page is resident and must be
//            evictable);
//            finally on_fault(access, view) for the faulting page
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
// Reclaim work: in any callback, view.count_scanned(page) reports a resident page the policy
// examined and kept (Counters::pages_scanned); the engine counts each victim itself.
//
// Threads: run_sweep (sweep.hpp) and Python's pagesim.sweep run several instances at once, one
// per run, on native threads. Instances share nothing through the engine, but state shared
// between them (static or global variables, std::rand, a shared std::mt19937) is a data race:
// keep all state in the instance (seed a generator of its own from its Params).
//
// Fast paths (optional, for speed only). When a policy is run by name (the registry: CLI,
// Python, the testing kit) or by Engine::run on its concrete type, the replay loop is compiled
// for that type and may call two extra members, each only if the class opts in with a marker:
//   static constexpr bool pagesim_select_victim_fast_path = true;
//   PageId select_victim(PageTableView view);   // one victim, or kNoPage: a reclaim of one
//                                               // page calls it instead of select_victims,
//                                               // which must then behave the same (pop it)
//   static constexpr bool pagesim_prefetch_fast_path = true;
//   void prefetch(PageId page, int stage) const;  // hint: page will be accessed soon (stage 0
//                                                 // far ahead, 1 nearer); fetch its state
// Without the marker, members of these names are the policy's own business and never called
// by the engine. Run through a Policy& (Python-defined policies, a unique_ptr<Policy>) only the
// virtual callbacks are called. The conformance suite checks that both paths agree.
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

// Where in a run a policy's callback was, for the message of an exception of the policy's own
// (the testing kit's runs, Python-defined policies): "on_evict of page 3", "select_victims
// for the fault of page 4", "on_fault at access #12". The replay itself keeps no such note.
struct CallbackSite {
  const char* callback = nullptr;  // none yet
  const char* what = nullptr;
  std::uint64_t value = 0;

  static CallbackSite reset() { return {"reset"}; }
  static CallbackSite on_hit(const Access& access) {
    return {"on_hit", "at access #", access.index};
  }
  static CallbackSite on_fault(const Access& access) {
    return {"on_fault", access.readahead ? "for readahead, at access #" : "at access #",
            access.index};
  }
  static CallbackSite select_victims(PageTableView view) {
    if (view.incoming() == kNoPage) return {"select_victims"};
    return {"select_victims", "for the fault of page ", view.incoming()};
  }
  static CallbackSite on_evict(PageId page) { return {"on_evict", "of page ", page}; }
  static CallbackSite on_tick(Tick now) { return {"on_tick", "at ns ", now}; }
  static CallbackSite on_free(PageId page) { return {"on_free", "of page ", page}; }
  // "on_evict of page 3"; "" before the first callback.
  std::string text() const;
};

}  // namespace pagesim
