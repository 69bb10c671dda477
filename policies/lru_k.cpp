// LRU-K: E. J. O'Neil, P. E. O'Neil and G. Weikum, "The LRU-K Page Replacement Algorithm For
// Database Disk Buffering", SIGMOD 1993, section 2.1. Evict the resident page whose K-th most
// recent reference is oldest (the largest backward K-distance b_t(p, K)); a page with fewer
// than K known references has b_t(p, K) = infinity and goes first, the subsidiary policy LRU
// choosing among such pages. K = 1 is LRU. Two periods, in accesses here (the paper's are in
// seconds): references to a page closer than the Correlated Reference Period to its previous
// one are one burst and count once, and the history of a page is kept for the Retained
// Information Period after its last reference, also after the page left memory.
//
// The paper itself was not in the reference corpus available when this was written. The
// pseudocode below is the paper's procedure as several independent implementations quote it,
// line by line and in agreement, in their comments (a buffer manager, a prefetching cache
// simulator, course projects); the algorithm is well established. HIST(p,i) is the time of
// the i-th most recent uncorrelated reference to p (0: none known), LAST(p) the time of its
// most recent reference, correlated or not. Where each part lives here:
//
//   procedure to be invoked upon a reference to page p at time t:
//   if p is already in the buffer then                                            on_hit
//     /* update history information of p */
//     if t - LAST(p) > Correlated_Reference_Period then
//       /* a new, uncorrelated reference */
//       correl_period_of_refd_page := LAST(p) - HIST(p,1)
//       for i := 2 to K do HIST(p,i) := HIST(p,i-1) + correl_period_of_refd_page od
//       HIST(p,1) := t; LAST(p) := t
//     else /* a correlated reference */
//       LAST(p) := t
//     fi
//   else
//     /* select replacement victim */                                             select_victim
//     min := t
//     for all pages q in the buffer do
//       if t - LAST(q) > Correlated_Reference_Period /* eligible for replacement */
//          and HIST(q,K) < min /* max Backward K-distance so far */
//       then victim := q; min := HIST(q,K)
//       fi
//     od
//     if victim is dirty then write victim back into the database fi              the engine
//     /* now fetch the referenced page */
//     fetch p into the buffer frame previously held by victim                     the engine
//     if HIST(p) does not exist then                                              on_fault
//       /* initialize history control block */
//       allocate HIST(p); for i := 2 to K do HIST(p,i) := 0 od
//     else
//       for i := 2 to K do HIST(p,i) := HIST(p,i-1) od
//     fi
//     HIST(p,1) := t; LAST(p) := t
//   fi
//
// Beside the procedure, the history of a page out of the buffer is dropped once the Retained
// Information Period has passed since its last reference (in the paper a background task's
// job; here forget_if_stale, see below).
//
// Parameters: k = 2 (1 to 64; each costs 8 bytes per page of the trace); correlated_period = 0
// accesses (none: every reference counts); retained_period = 0 accesses (0: forever; page ids
// are dense, so the history of every page of the trace fits in one array).
//
// Where the paper is silent or the engine differs:
//   - time t is the number of accesses replayed so far (1 for the first), counted by the
//     policy: in trace order (static schedule) it is Access::index + 1; under round_robin the
//     engine replays each process in turn and Access::index is no longer monotonic, so the
//     policy counts the accesses in the order it sees them (k = 1 is then still exactly lru);
//   - the engine decides when to evict (one victim per fault, or batches between watermarks)
//     and asks select_victim(s); "victim" is chosen at the faulting access's time t;
//   - the two "for i := 2 to K" loops are shifts (run from i = K down to 2, else every
//     HIST(p,i) would become HIST(p,1)); in the uncorrelated update an unknown HIST(p,i-1) = 0
//     stays unknown (0 + correl_period_of_refd_page would turn "no such reference" into a
//     reference at time correl_period_of_refd_page);
//   - ties in HIST(q,K) (among them every page with fewer than K references, HIST(q,K) = 0)
//     go to a subsidiary policy, which the paper names (LRU) but does not pin down: the oldest
//     HIST(q,1), then the lowest page id. HIST(q,1) rather than LAST(q): correlated references
//     do not count. Without a correlated period the two are equal. The pseudocode's strict
//     "HIST(q,K) < min" scan alone would pick the first tied page in buffer order;
//   - a fault is always an uncorrelated reference and shifts the history without adding a
//     correlated period (the pseudocode's else-branch), even when the page was evicted within
//     its correlated period;
//   - when every resident page is within its correlated period the pseudocode finds no
//     victim; when memory is full the engine needs one, and the page whose LAST is oldest goes
//     (the first to leave its period). With free frames (batch reclaim) fewer victims are
//     returned instead;
//   - the history of a resident page is always kept (the victim scan reads it); the Retained
//     Information Period only drops that of evicted pages. It is checked when the page comes
//     back (a fault or readahead), the only time it is read: the same decisions as a demon
//     purging it as soon as t - LAST(p) > retained_period;
//   - readahead (page_cluster) brings in pages nobody referenced: such a page keeps its history
//     (none, or retained from before) without a new HIST or LAST entry, so one never referenced
//     has HIST(p,K) = HIST(p,1) = 0 and is the first victim; its first hit is its first
//     reference and starts no correlated period before it;
//   - a process's exit (free_on_exit, on_free): its pages are never accessed again, so their
//     history is dropped at once, resident or not, as if the Retained Information Period had
//     passed.
//
// Structures, indexed by page id (no hashing, nothing allocated after reset): HIST in one flat
// array of num_pages x k times; LAST (only with a correlated period; else it equals
// HIST(p,1)). The resident pages eligible for replacement are ordered by the key
// (HIST(p,K), HIST(p,1), p), the victim being the smallest, in two structures:
//   - an indexed 4-ary min-heap with each page's position in pos_: a hit re-keys its page
//     (sift down: the key only grows) and a victim is popped, each O(log frames);
//   - without a correlated period, a list (kCold) of the pages with fewer than K references,
//     in order of HIST(p,1): a page referenced at time t has the largest such key (0, t), so
//     it joins the list's front in O(1) and the list's back is its smallest key. These are
//     the pages a scan brings in and the usual victims, so most faults stay off the heap. With
//     k = 1 every referenced page is there (the list is LRU's).
// The victim is the smaller of the heap's top and the list's back. With a correlated period a
// referenced page is not eligible until t - LAST(p) > correlated_period: it waits in a list
// (kWaiting) ordered by LAST and moves to the heap when a victim is chosen after its period,
// so no page is examined more than once per reference.
#include <algorithm>
#include <cstdint>
#include <limits>
#include <vector>

#include "pagesim/page_array.hpp"
#include "pagesim/page_list.hpp"
#include "pagesim/registry.hpp"

namespace pagesim {
namespace {

class LruK final : public Policy {
 public:
  explicit LruK(const Params& params)
      : k_(static_cast<std::size_t>(params.get_int("k", 2, 1, kMaxK))),
        correlated_(static_cast<Time>(params.get_int("correlated_period", 0, 0, kMaxPeriod))),
        retained_(static_cast<Time>(params.get_int("retained_period", 0, 0, kMaxPeriod))) {}

  PolicyTraits traits() const override { return {/*needs_hits=*/true, /*needs_future=*/false}; }

  void reset(std::size_t num_pages, std::size_t frames) override {
    hist_.assign(num_pages * k_, 0);
    pos_.assign(num_pages, kNotInHeap);
    heap_.assign(std::min(frames, num_pages) + 1, Entry{});
    size_ = 0;
    lists_.reset(num_pages, 2);
    if (correlated_ != 0) last_.assign(num_pages, 0);
    now_ = 0;
  }

  static constexpr bool pagesim_prefetch_fast_path = true;  // see policy.hpp
  void prefetch(PageId p, int stage) const {
    if (stage == 0) {
      __builtin_prefetch(&hist_[p * k_], 1);
      __builtin_prefetch(&pos_[p], 1);
      if (correlated_ != 0) __builtin_prefetch(&last_[p], 1);
    } else if (pos_[p] != kNotInHeap) {
      __builtin_prefetch(&heap_[pos_[p]], 1);
    } else {
      lists_.prefetch(p, 0);
    }
  }

  // Thin wrappers that GCC inlines into the replay loop, so that the engine does not fill the
  // rest of the Access (owner, kind, next use: random loads) for an out-of-line call. With the
  // work in on_hit itself GCC called it, and the replay ran 1.4 to 1.8 times slower.
  void on_hit(const Access& a, PageTableView) override { hit(a.page); }
  void on_fault(const Access& a, PageTableView) override { fault(a.page, a.readahead); }

  void on_free(PageId p, PageTableView) override {
    if (pos_[p] != kNotInHeap) remove(p);
    lists_.remove(p);
    forget(p);
  }

  static constexpr bool pagesim_select_victim_fast_path = true;  // see policy.hpp
  PageId select_victim(PageTableView view) {
    if (correlated_ != 0) admit(now_ + 1);
    const PageId v = pop_min();
    if (v == kNoPage) return fallback(view);
    prefetch_next_victim(view);
    return v;
  }

  void select_victims(std::size_t want, PageTableView view, VictimList& out) override {
    if (correlated_ != 0) admit(now_ + 1);
    for (PageId v; out.size() < want && (v = pop_min()) != kNoPage;) out.push_back(v);
    if (out.empty()) {
      const PageId v = fallback(view);
      if (v != kNoPage) out.push_back(v);
    }
  }

 private:
  using Time = std::uint64_t;
  static constexpr std::int64_t kMaxK = 64;
  static constexpr std::int64_t kMaxPeriod = std::numeric_limits<std::int64_t>::max();
  static constexpr std::uint32_t kNotInHeap = std::numeric_limits<std::uint32_t>::max();
  // 4 children per node: half the levels of a binary heap.
  static constexpr std::size_t kArity = 4;
  // lists_: kCold, the pages of fewer than K references (without a correlated period), most
  // recent HIST(p,1) at the front; kWaiting, the pages within their correlated period, most
  // recent LAST(p) at the front.
  static constexpr std::size_t kCold = 0;
  static constexpr std::size_t kWaiting = 1;

  void hit(PageId p) {
    const Time t = ++now_;
    Time* h = hist(p);
    if (correlated_ == 0) {
      // Every reference is uncorrelated and LAST(p) = HIST(p,1): correl_period_of_refd_page = 0.
      shift(h, 0);
      h[0] = t;
      if (pos_[p] == kNotInHeap) {
        lists_.remove(p);
      } else if (!newest(h)) {
        sift_down(pos_[p], entry(p));  // its key grew
        return;
      } else {
        remove(p);
      }
      enter(p);
      return;
    }
    const Time last = last_[p];
    // last = 0: a page read ahead and not referenced since; this is its first reference.
    if (last == 0 || t - last > correlated_) {
      shift(h, last - h[0]);
      h[0] = t;
    }
    last_[p] = t;
    if (pos_[p] != kNotInHeap) remove(p);
    lists_.move_to_front(kWaiting, p);
  }

  void fault(PageId p, bool readahead) {
    if (readahead) {
      // Not a reference: no new HIST or LAST entry; the fault it came with has time now_ + 1.
      forget_if_stale(p, now_ + 1);
      push(p);
      return;
    }
    const Time t = ++now_;
    forget_if_stale(p, t);
    // A forgotten or new history is all 0: the shift leaves the paper's initialized block.
    Time* h = hist(p);
    shift(h, 0);
    h[0] = t;
    if (correlated_ == 0) {
      enter(p);
    } else {
      last_[p] = t;
      lists_.push_front(kWaiting, p);
    }
  }

  struct Entry {
    Time kth = 0;    // HIST(p,K)
    Time first = 0;  // HIST(p,1)
    PageId page = kNoPage;
  };
  static bool before(const Entry& a, const Entry& b) {
    if (a.kth != b.kth) return a.kth < b.kth;
    if (a.first != b.first) return a.first < b.first;
    return a.page < b.page;
  }

  Time* hist(PageId p) { return &hist_[static_cast<std::size_t>(p) * k_]; }
  const Time* hist(PageId p) const { return &hist_[static_cast<std::size_t>(p) * k_]; }
  Entry entry(PageId p) const {
    const Time* h = hist(p);
    return {h[k_ - 1], h[0], p};
  }
  Time last(PageId p) const {
    return correlated_ != 0 ? last_[p] : hist_[static_cast<std::size_t>(p) * k_];
  }

  // HIST(p,i) := HIST(p,i-1) + correl for i = K down to 2; an unknown time (0) stays unknown.
  void shift(Time* h, Time correl) const {
    if (k_ < 2) return;  // (also tells GCC that k_ - 1 does not wrap)
    for (std::size_t i = k_ - 1; i > 0; --i) h[i] = h[i - 1] == 0 ? 0 : h[i - 1] + correl;
  }
  void forget(PageId p) {
    std::fill_n(hist(p), k_, Time{0});
    if (correlated_ != 0) last_[p] = 0;
  }
  // The Retained Information Period of an evicted page's history ended before time t.
  void forget_if_stale(PageId p, Time t) {
    const Time l = last(p);
    if (retained_ != 0 && l != 0 && t - l > retained_) forget(p);
  }

  // Whether a page just referenced (HIST(p,1) = t, the latest time) belongs in kCold: its key
  // (0, t) when k > 1 and it has fewer than K references, (t, t) when k = 1, is then the
  // largest of kCold's, so kCold stays in key order without a heap: for k > 1 the subsidiary
  // LRU among the pages of infinite backward K-distance, for k = 1 LRU itself. Only without a
  // correlated period: with one, a page becomes eligible long after its last reference.
  bool newest(const Time* h) const { return k_ == 1 || h[k_ - 1] == 0; }
  // A page just referenced (without a correlated period) becomes a candidate.
  void enter(PageId p) {
    if (newest(hist(p))) {
      lists_.push_front(kCold, p);
    } else {
      push(p);
    }
  }
  // The eligible page with the smallest key, removed; kNoPage if none.
  PageId pop_min() {
    const PageId c = lists_.back(kCold);
    if (c != kNoPage && (size_ == 0 || before(entry(c), heap_[0]))) {
      lists_.remove(c);
      return c;
    }
    if (size_ == 0) return kNoPage;
    const PageId v = heap_[0].page;
    remove_top();
    return v;
  }
  void prefetch_next_victim(PageTableView view) const {
    const PageId c = lists_.back(kCold);
    if (c != kNoPage) {
      view.prefetch(c);
      __builtin_prefetch(&hist_[static_cast<std::size_t>(c) * k_]);
      lists_.prefetch(c, 0);
    }
    if (size_ != 0) view.prefetch(heap_[0].page);
  }

  // The pages whose correlated period is over at time t become eligible: oldest LAST first.
  void admit(Time t) {
    for (PageId q; (q = lists_.back(kWaiting)) != kNoPage && t - last_[q] > correlated_;) {
      lists_.remove(q);
      push(q);
    }
  }
  // No eligible page: when memory is full, the page whose correlated period ends first.
  PageId fallback(PageTableView view) {
    if (correlated_ == 0 || view.resident_count() < view.frames()) return kNoPage;
    return lists_.pop_back(kWaiting);
  }

  void place(std::size_t i, const Entry& e) {
    heap_[i] = e;
    pos_[e.page] = static_cast<std::uint32_t>(i);
  }
  void push(PageId p) { sift_up(size_++, entry(p)); }
  void sift_up(std::size_t i, const Entry& e) {
    while (i > 0) {
      const std::size_t parent = (i - 1) / kArity;
      if (!before(e, heap_[parent])) break;
      place(i, heap_[parent]);
      i = parent;
    }
    place(i, e);
  }
  void sift_down(std::size_t i, const Entry& e) {
    for (;;) {
      const std::size_t first = i * kArity + 1;
      if (first >= size_) break;
      const std::size_t end = std::min(first + kArity, size_);
      std::size_t best = first;
      for (std::size_t c = first + 1; c < end; ++c) {
        if (before(heap_[c], heap_[best])) best = c;
      }
      if (!before(heap_[best], e)) break;
      place(i, heap_[best]);
      i = best;
    }
    place(i, e);
  }
  void remove_top() {
    pos_[heap_[0].page] = kNotInHeap;
    if (--size_ != 0) sift_down(0, heap_[size_]);
  }
  void remove(PageId p) {
    const std::size_t i = pos_[p];
    pos_[p] = kNotInHeap;
    if (--size_ == i) return;
    const Entry moved = heap_[size_];
    if (i > 0 && before(moved, heap_[(i - 1) / kArity])) {
      sift_up(i, moved);
    } else {
      sift_down(i, moved);
    }
  }

  std::size_t k_;
  Time correlated_;
  Time retained_;
  PageArray<Time> hist_;          // per page, k times: HIST(p,1) .. HIST(p,K)
  PageArray<Time> last_;          // per page: LAST(p), only with a correlated period
  PageArray<std::uint32_t> pos_;  // per page: its place in heap_, or kNotInHeap
  PageArray<Entry> heap_;         // the resident pages eligible for replacement
  std::size_t size_ = 0;
  PageLists lists_;  // kCold and kWaiting
  Time now_ = 0;     // time of the last reference: accesses replayed so far
};

}  // namespace

PAGESIM_REGISTER_POLICY(LruK, "lru_k",
                        "LRU-K (O'Neil, O'Neil & Weikum 1993): largest backward K-distance, "
                        "correlated and retained information periods");

}  // namespace pagesim
