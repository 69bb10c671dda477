// SIEVE: Y. Zhang, J. Yang, Y. Yue, Y. Vigfusson, K. V. Rashmi, "SIEVE is Simpler than LRU: an
// Efficient Turn-Key Eviction Algorithm for Web Caches", NSDI 2024, Algorithm 1. One queue in
// arrival order, new pages at the head, and a hand that moves from the tail towards the head:
// a visited page it passes loses the bit and stays where it is, the first unvisited page is
// the victim, and the hand stays at the victim's predecessor (towards the head) for the next
// eviction. Unlike CLOCK, a new page does not take the victim's place behind the hand: it
// goes to the head, so the hand reaches the pages that arrived since its last lap before it
// comes back to the old pages it let stay (which sift to the tail).
//
// Algorithm 1, and where it lives here:
//
//   Input: the request x, doubly-linked queue T, cache size C, hand p
//    1: if x is in T then                       > Cache Hit
//    2:   x.visited <- 1                        the engine sets the page's referenced bit
//    3: else                                    > Cache Miss
//    4:   if |T| = C then                       > Cache Full: the engine calls select_victim
//    5:     o <- p                              select_victim
//    6:     if o is NULL then
//    7:       o <- tail of T
//    8:     while o.visited = 1 do
//    9:       o.visited <- 0
//   10:       o <- o.prev
//   11:       if o is NULL then
//   12:         o <- tail of T
//   13:     p <- o.prev
//   14:     Discard o in T                      > Eviction
//   15:   Insert x in the head of T             > Insertion: on_fault
//   16:   x.visited <- 0                        on_fault
//
// T is not a linked list here but an array in arrival order with holes: queue_[0, end_) from
// the tail (index 0 side) to the head (end_ - 1), a discarded page leaving kNoPage in its
// place. Only the order of the pages matters to Algorithm 1, and the array keeps it: insertion
// at the head is an append, "o.prev" is the next page at a higher index, "tail of T" the first
// page from index 0. When the append reaches the end of the array (twice the frames), the
// pages move down over the holes, in order. So the hand walks a plain array, its bits
// fetched ahead as clock does, instead of chasing links through memory: 1.3x and 1.9x the
// replay speed of a PageLists queue at 10% and 50% of bench/'s zipf footprint (RESULTS.md).
//
// Where the pseudocode is silent or the engine differs:
//   - the visited bit is the engine's referenced bit (the pte young bit), which every access
//     sets, so a hit costs the policy nothing (no on_hit, as in clock). The access that faults
//     a page in sets it too: on_fault clears it (line 16), so a page enters unvisited, as in
//     the paper (clock's variant keeps it set: a second difference from clock);
//   - a hand left NULL by evicting the head (line 13) stays NULL while new pages arrive at the
//     head: the next eviction starts at the tail (line 6), not at them;
//   - pages read ahead by a swap-in enter at the head unvisited, like faulted pages (the engine
//     brings them in unreferenced), before the faulting page;
//   - the paper has no removal; on_free (a process exit) does what the authors' libCacheSim
//     Sieve.c does when an object is removed: a hand on the page moves to its predecessor
//     (NULL if it was the head), and the page leaves the queue. The first call of an exit
//     drops all of the process's pages at once, as clock does; a hand on one of them moves to
//     the first page after it that stays, which is where one removal at a time leaves it;
//   - batch reclaim (watermarks) asks for several victims at once: lines 5-14, once per victim.
//
// Scanned (Counters::pages_scanned): every page the hand reaches, the visited ones it passes
// over (lines 8-10) and the victim.
#include <algorithm>
#include <vector>

#include "pagesim/registry.hpp"

namespace pagesim {
namespace {

class Sieve final : public Policy {
 public:
  explicit Sieve(const Params& /*params*/) {}

  void reset(std::size_t num_pages, std::size_t frames) override {
    // At most c = min(frames, pages) pages are resident. When an append finds the array full,
    // at most c - 1 are in it (the faulting one is resident already): moving them down leaves
    // room for c + 2 appends at least.
    const std::size_t c = std::min(frames, num_pages);
    queue_.assign(2 * c + 1, kNoPage);
    end_ = 0;
    size_ = 0;
    hand_ = kNull;
    exited_ = kNoProc;
  }
  void on_fault(const Access& a, PageTableView view) override {
    view.clear_referenced_if(a.page, true);  // line 16
    if (end_ == queue_.size()) compact();
    queue_[end_++] = a.page;  // line 15
    ++size_;
  }
  // An exit frees every anonymous page of one process, in consecutive calls: the first drops
  // them all (no check on the hot paths).
  void on_free(PageId p, PageTableView view) override {
    const ProcId q = view.proc(p);
    if (q == exited_) return;
    exited_ = q;
    for (std::size_t at = 0; at < end_; ++at) {
      const PageId e = queue_[at];
      if (e != kNoPage && view.proc(e) == q && view.kind(e) == PageKind::kAnon) {
        queue_[at] = kNoPage;
        --size_;
      }
    }
    if (hand_ != kNull && queue_[hand_] == kNoPage) hand_ = from(hand_);
  }
  static constexpr bool pagesim_select_victim_fast_path = true;  // see policy.hpp
  PageId select_victim(PageTableView view) {
    if (size_ == 0) return kNoPage;
    std::size_t o = hand_ == kNull ? next(0) : hand_;  // lines 5-7
    // Ends within two laps: the first clears every visited bit it passes.
    for (;;) {
      // The hand's pages are in arrival order but their bits lie anywhere: fetch ahead.
      const std::size_t ahead = o + kLookahead;
      if (ahead < end_ && queue_[ahead] != kNoPage) view.prefetch(queue_[ahead]);
      if (!view.test_and_clear_referenced(queue_[o])) break;  // lines 8-9
      view.count_scanned(queue_[o]);
      o = next(o + 1);                                        // line 10
      if (o == end_) o = next(0);                             // lines 11-12
    }
    hand_ = from(o + 1);  // line 13
    const PageId victim = queue_[o];
    queue_[o] = kNoPage;  // line 14
    --size_;
    return victim;
  }
  void select_victims(std::size_t want, PageTableView view, VictimList& out) override {
    for (PageId v; out.size() < want && (v = select_victim(view)) != kNoPage;) out.push_back(v);
  }

 private:
  static constexpr std::size_t kNull = static_cast<std::size_t>(-1);
  static constexpr std::size_t kLookahead = 8;

  // The first page at or after index `at`; end_ if none.
  std::size_t next(std::size_t at) const {
    while (at < end_ && queue_[at] == kNoPage) ++at;
    return at;
  }
  // The first page at or after index `at`; kNull past the head.
  std::size_t from(std::size_t at) const {
    const std::size_t p = next(at);
    return p == end_ ? kNull : p;
  }
  // Moves the pages down over the holes, in order; the hand stays on its page.
  void compact() {
    std::size_t to = 0;
    for (std::size_t at = 0; at < end_; ++at) {
      if (queue_[at] == kNoPage) continue;
      if (at == hand_) hand_ = to;
      queue_[to++] = queue_[at];
    }
    end_ = to;
  }

  // T: the pages of queue_[0, end_) in index order, tail first; kNoPage marks a hole.
  std::vector<PageId> queue_;
  std::size_t end_ = 0;
  std::size_t size_ = 0;      // |T|
  std::size_t hand_ = kNull;  // the index of the hand's page, or kNull (NULL)
  ProcId exited_ = kNoProc;   // the process whose pages on_free dropped last
};

}  // namespace

PAGESIM_REGISTER_POLICY(Sieve, "sieve",
                        "SIEVE (Zhang et al. 2024): one FIFO queue, a hand from tail to head "
                        "that spares visited pages in place");

}  // namespace pagesim
