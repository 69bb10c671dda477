// LRFU: D. Lee, J. Choi, J.-H. Kim, S. H. Noh, S. L. Min, Y. Cho, C. S. Kim, "LRFU: A
// Spectrum of Policies that Subsumes the Least Recently Used and Least Frequently Used
// Policies", IEEE Transactions on Computers 50(12), 2001. Each page has a Combined Recency and
// Frequency value, the sum over its references at times t_i of F(t - t_i) with
// F(x) = (1/2)^(lambda x); the victim is the page of least CRF. lambda = 0 counts references
// (LFU: `lfu` below); lambda = 1 gives each reference more weight than all older ones
// together (F(0) = 1 > sum of F(i), i >= 1), which is LRU. Between them, `decay` (lambda)
// trades recency for frequency.
//
//   reference to p at time t (a hit, or the fault that brings p in):
//     C(p) = F(0) + F(t - last(p)) * C(p),  last(p) = t      (the paper's recurrence)
//   victim: least C(p) * F(t - last(p)), the CRFs at the same time t
//
// A page's CRF is kept while it is resident: a page faulted back in starts over with C = 1.
// A page brought in by readahead has no reference yet: C = 0, so such pages are the first
// victims, oldest readahead first (within one window, by page id). Ties (equal CRFs: equal
// counts under LFU) go to the least recently referenced page, then the lower page id.
//
// Keys: comparing C(a) 2^(-lambda (t - last(a))) with the same of b at any t is comparing
// log2 C(a) + lambda last(a) with that of b, which does not change as t moves on. So each page
// has that key, a hit only raises it (by log2(1 + 2^(lambda delta) / C) > 0), and the pages
// sit in an indexed 4-ary min-heap: O(log frames) per hit, fault and victim. The keys are
// doubles: at a billion accesses, CRFs within a relative 1e-7 of each other may be ordered
// as ties are.
#include <algorithm>
#include <cmath>
#include <cstdint>
#include <limits>
#include <vector>

#include "pagesim/page_array.hpp"
#include "pagesim/registry.hpp"

namespace pagesim {
namespace {

template <bool kLfu>
class LrfuPolicy final : public Policy {
 public:
  explicit LrfuPolicy(const Params& params)
      : decay_(kLfu ? 0.0 : params.get_double("decay", 0.001, 0.0, 1.0)) {}

  PolicyTraits traits() const override { return {/*needs_hits=*/true, /*needs_future=*/false}; }
  void reset(std::size_t num_pages, std::size_t frames) override {
    crf_.assign(num_pages, 0.0);
    pos_.assign(num_pages, kNotInHeap);
    heap_.assign(std::min(frames, num_pages), Entry{});
    size_ = 0;
    now_ = 0;
  }
  void on_hit(const Access& a, PageTableView) override {
    const std::size_t i = pos_[a.page];
    sift_down(i, reference(a.page, crf_[a.page] * decayed_since(heap_[i].last)));  // key grew
  }
  void on_fault(const Access& a, PageTableView) override {
    // A page read ahead: no reference yet, C = 0, the least key.
    const Entry e = a.readahead ? Entry{-std::numeric_limits<double>::infinity(), now_, a.page}
                                : reference(a.page, 0.0);
    if (a.readahead) crf_[a.page] = 0.0;
    sift_up(size_++, e);
  }
  void on_free(PageId p, PageTableView) override {
    if (pos_[p] != kNotInHeap) remove_at(pos_[p]);
  }
  void select_victims(std::size_t want, PageTableView, VictimList& out) override {
    while (out.size() < want && size_ > 0) {
      out.push_back(heap_[0].page);
      remove_at(0);
    }
  }

 private:
  static constexpr std::uint32_t kNotInHeap = std::numeric_limits<std::uint32_t>::max();
  // 4 children per node: half the levels of a binary heap, the children in two cache lines.
  static constexpr std::size_t kArity = 4;

  struct Entry {
    double key = 0;          // log2 C + lambda last
    std::uint64_t last = 0;  // the time of the page's last reference
    PageId page = kNoPage;
  };
  // Less CRF first; ties to the least recently referenced, then the lower id.
  static bool before(const Entry& a, const Entry& b) {
    if (a.key != b.key) return a.key < b.key;
    if (a.last != b.last) return a.last < b.last;
    return a.page < b.page;
  }

  // F(t - last) for the reference about to be made, at t = now_ + 1.
  double decayed_since(std::uint64_t last) const {
    if constexpr (kLfu) return 1.0;
    return std::exp2(-decay_ * static_cast<double>(now_ + 1 - last));
  }
  // A reference at the next time: C = F(0) + `decayed`, the old CRF weighed by F(t - last).
  Entry reference(PageId p, double decayed) {
    ++now_;
    crf_[p] = 1.0 + decayed;
    return {std::log2(crf_[p]) + decay_ * static_cast<double>(now_), now_, p};
  }
  void place(std::size_t i, const Entry& e) {
    heap_[i] = e;
    pos_[e.page] = static_cast<std::uint32_t>(i);
  }
  void sift_up(std::size_t i, const Entry& e) {
    for (; i > 0 && before(e, heap_[(i - 1) / kArity]); i = (i - 1) / kArity) {
      place(i, heap_[(i - 1) / kArity]);
    }
    place(i, e);
  }
  void sift_down(std::size_t i, const Entry& e) {
    for (std::size_t first; (first = kArity * i + 1) < size_;) {
      std::size_t least = first;
      const std::size_t end = std::min(first + kArity, size_);
      for (std::size_t c = first + 1; c < end; ++c) {
        if (before(heap_[c], heap_[least])) least = c;
      }
      if (!before(heap_[least], e)) break;
      place(i, heap_[least]);
      i = least;
    }
    place(i, e);
  }
  void remove_at(std::size_t i) {
    pos_[heap_[i].page] = kNotInHeap;
    const Entry moved = heap_[--size_];
    if (i == size_) return;
    if (i > 0 && before(moved, heap_[(i - 1) / kArity])) {
      sift_up(i, moved);
    } else {
      sift_down(i, moved);
    }
  }

  double decay_;                  // lambda
  PageArray<double> crf_;         // per page: C at its last reference
  PageArray<std::uint32_t> pos_;  // per page: its index in heap_, or kNotInHeap
  PageArray<Entry> heap_;         // the resident pages, least key at the top
  std::size_t size_ = 0;
  std::uint64_t now_ = 0;  // references so far (hits and faults, not readahead)
};

using Lrfu = LrfuPolicy<false>;
using Lfu = LrfuPolicy<true>;

}  // namespace

PAGESIM_REGISTER_POLICY(Lrfu, "lrfu",
                        "least CRF: references weighed by (1/2)^(decay x age), LFU to LRU "
                        "(Lee et al. 2001)");
PAGESIM_REGISTER_POLICY(Lfu, "lfu",
                        "least frequently used while resident; ties to LRU (LRFU, decay 0)");

}  // namespace pagesim
