#pragma once

#include <algorithm>
#include <cstddef>
#include <cstdint>
#include <vector>

#include "pagesim/trace.hpp"
#include "pagesim/types.hpp"

namespace pagesim {

// Bounds on the fewest swap-outs any replacement schedule can achieve on a trace, for the
// prescient side of "how many more dirty pages does a real policy evict than a prescient
// one?". Minimising swap-outs offline is NP-hard (Beckmann, Gibbons, Haeupler, McGuffey,
// "Writeback-Aware Caching", APOCS 2020; Farach-Colton and Liberatore, "On local register
// allocation", J. Algorithms 2000), so large traces get a bracket [lower bound, best
// heuristic]; small ones an exact optimum.
//
// The cost model is the engine's default: a swap-out is the eviction of a dirty anonymous
// page; a page swapped back in is clean (the swap cache keeps its slot, in the default swap
// area, which is never more than half full) until written again; dirty file pages are written
// to their file, which is not a swap-out.

// A lower bound on the swap-outs of every policy on `trace` with `frames` frames, whatever
// its eviction times (demand paging, watermark batches, readahead) and also with
// free_slot_on_swapin, as long as the accesses are replayed in trace order (with dynamic
// scheduling of several processes the replay order differs and the bound is for the trace
// order only). O(W log W) for W writes. The proof is in prescient.cpp and in the
// README ("Prescient bracket"). With `free_on_exit` (the engine's key) a page's last write
// segment ends with its process's last access (it holds a frame through that access), when
// the exit frees it.
std::uint64_t swap_out_lower_bound(const Trace& trace, std::size_t frames,
                                   bool free_on_exit = false);

// Number of write segments of anonymous pages: from a write to the page's next write (or to
// the end of the trace). With the default swap cache and swap area a segment costs at most one
// swap-out, so this is the most swap-outs any policy can make there.
std::uint64_t count_dirty_segments(const Trace& trace);

struct ExactOptimum {
  // Minimum of fault_weight * faults + swap_out_weight * swap_outs.
  std::uint64_t cost = 0;
  // Of an optimal schedule; among optimal ones, the fewest swap-outs, then the fewest faults.
  std::uint64_t faults = 0;
  std::uint64_t swap_outs = 0;
  // Largest number of distinct states held for one access (the search's size).
  std::size_t max_states = 0;
};

// The exact optimum over demand-paging schedules (one victim per fault when memory is full,
// the engine's default) by exhaustive search over (resident set, dirty bits) states, which is
// all the cost depends on. For small traces only: at most 32 pages; throws ConfigError when
// more than `state_limit` states are live at one access.
ExactOptimum exact_optimum(const Trace& trace, std::size_t frames, std::uint64_t fault_weight,
                           std::uint64_t swap_out_weight, std::size_t state_limit = 1u << 21);

// Resident pages of a prescient policy split into two max-heaps by next use: pages whose
// eviction is free (clean, or file-backed) and pages whose eviction is a swap-out (dirty
// anonymous). A page's next use and dirtiness change only when it is accessed, so entries
// are pushed on every access and stale ones (an older access, or no longer resident) are
// skipped lazily and dropped in bulk when a heap grows past twice the frames.
class NextUseHeaps {
 public:
  void reset(std::size_t num_pages, std::size_t frames) {
    stamp_.assign(num_pages, 0);
    clean_.clear();
    dirty_.clear();
    compact_at_ = 2 * frames + 8;
  }

  // Records an access to `page` whose next use is `next_use` (kNever if none): the page goes
  // on the clean heap with key `next_use` or, if its eviction is now a swap-out, on the
  // dirty heap with key `dirty_key` (next_use unless the policy ranks dirty pages otherwise).
  template <class View>
  void access(PageId page, std::uint32_t next_use, View view) { access(page, next_use, next_use, view); }
  template <class View>
  void access(PageId page, std::uint32_t next_use, std::uint32_t dirty_key, View view) {
    const std::uint32_t s = ++stamp_[page];
    const bool costly = view.dirty(page) && view.kind(page) == PageKind::kAnon;
    std::vector<Entry>& heap = costly ? dirty_ : clean_;
    const std::uint32_t key = costly ? dirty_key : next_use;
    if (heap.size() >= compact_at_) compact(heap, view);
    // Ties only between pages never used again: the lowest page id first, as in `belady`.
    heap.push_back(Entry{(std::uint64_t{key} << 32) | (0xffffffffu - page), page, s});
    std::push_heap(heap.begin(), heap.end());
  }

  // The key of the furthest valid page of the clean (dirty) heap, dropping stale tops;
  // false if the heap has no resident page.
  template <class View>
  bool top_clean(View view, std::uint32_t& next_use) { return top(clean_, view, next_use); }
  template <class View>
  bool top_dirty(View view, std::uint32_t& next_use) { return top(dirty_, view, next_use); }
  // Removes and returns the top of a heap; call only after top_* returned true.
  PageId pop_clean() { return pop(clean_); }
  PageId pop_dirty() { return pop(dirty_); }

 private:
  struct Entry {
    std::uint64_t key;
    PageId page;
    std::uint32_t stamp;
    bool operator<(const Entry& o) const { return key < o.key; }
  };

  template <class View>
  bool valid(const Entry& e, View view) const {
    return view.resident(e.page) && stamp_[e.page] == e.stamp;
  }
  template <class View>
  bool top(std::vector<Entry>& heap, View view, std::uint32_t& next_use) {
    while (!heap.empty() && !valid(heap.front(), view)) {
      std::pop_heap(heap.begin(), heap.end());
      heap.pop_back();
    }
    if (heap.empty()) return false;
    next_use = static_cast<std::uint32_t>(heap.front().key >> 32);
    return true;
  }
  PageId pop(std::vector<Entry>& heap) {
    std::pop_heap(heap.begin(), heap.end());
    const PageId p = heap.back().page;
    heap.pop_back();
    ++stamp_[p];  // any other entry of p is stale now
    return p;
  }
  template <class View>
  void compact(std::vector<Entry>& heap, View view) {
    heap.erase(std::remove_if(heap.begin(), heap.end(), [&](const Entry& e) { return !valid(e, view); }),
               heap.end());
    std::make_heap(heap.begin(), heap.end());
  }

  std::vector<std::uint32_t> stamp_;
  std::vector<Entry> clean_;
  std::vector<Entry> dirty_;
  std::size_t compact_at_ = 0;
};

}  // namespace pagesim
