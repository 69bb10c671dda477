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
// A page's CRF is kept while it is resident: a page faulted back in starts over with C = 1
// (C = 0 before, when it left). A page brought in by readahead has no reference yet: C = 0,
// the first victims, in arrival order. Ties (equal CRFs: equal counts under LFU) go to the
// least recently referenced page, then the lower page id.
//
// Keys: comparing C(a) 2^(-lambda (t - last(a))) with the same of b at any t is comparing
// log2 C(a) + lambda last(a) with that of b, which does not change as t moves on. So each page
// has that key, a hit only raises it (by log2(1 + 2^(lambda delta) / C) > 0), and the pages
// sit in an indexed binary min-heap: O(log frames) per hit, fault and victim. The keys are
// doubles: at a billion accesses, CRFs within a relative 1e-7 of each other may be ordered
// as ties are.
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
    key_.assign(num_pages, 0.0);
    last_.assign(num_pages, 0);
    pos_.assign(num_pages, kNotInHeap);
    heap_.assign(std::min(frames, num_pages), kNoPage);
    size_ = 0;
    now_ = 0;
  }
  void on_hit(const Access& a, PageTableView) override {
    const PageId p = a.page;
    reference(p, crf_[p] * std::exp2(-decay_ * static_cast<double>(now_ + 1 - last_[p])));
    sift_down(pos_[p]);  // its key only grows
  }
  void on_fault(const Access& a, PageTableView) override {
    const PageId p = a.page;
    if (a.readahead) {
      crf_[p] = 0.0;
      key_[p] = -std::numeric_limits<double>::infinity();
      last_[p] = now_;
    } else {
      reference(p, 0.0);
    }
    pos_[p] = static_cast<std::uint32_t>(size_);
    heap_[size_++] = p;
    sift_up(pos_[p]);
  }
  void on_free(PageId p, PageTableView) override {
    if (pos_[p] != kNotInHeap) remove_at(pos_[p]);
  }
  void select_victims(std::size_t want, PageTableView, VictimList& out) override {
    while (out.size() < want && size_ > 0) {
      const PageId v = heap_[0];
      remove_at(0);
      out.push_back(v);
    }
  }

 private:
  static constexpr std::uint32_t kNotInHeap = std::numeric_limits<std::uint32_t>::max();

  // A reference at the next time: C = F(0) + `decayed`, the old CRF weighed by F(t - last).
  void reference(PageId p, double decayed) {
    ++now_;
    crf_[p] = 1.0 + decayed;
    last_[p] = now_;
    key_[p] = std::log2(crf_[p]) + decay_ * static_cast<double>(now_);
  }
  // Less CRF first; ties to the least recently referenced, then the lower id.
  bool before(PageId a, PageId b) const {
    if (key_[a] != key_[b]) return key_[a] < key_[b];
    if (last_[a] != last_[b]) return last_[a] < last_[b];
    return a < b;
  }
  void place(std::size_t i, PageId p) {
    heap_[i] = p;
    pos_[p] = static_cast<std::uint32_t>(i);
  }
  void sift_up(std::size_t i) {
    const PageId p = heap_[i];
    for (; i > 0 && before(p, heap_[(i - 1) / 2]); i = (i - 1) / 2) place(i, heap_[(i - 1) / 2]);
    place(i, p);
  }
  void sift_down(std::size_t i) {
    const PageId p = heap_[i];
    for (std::size_t child; (child = 2 * i + 1) < size_; i = child) {
      if (child + 1 < size_ && before(heap_[child + 1], heap_[child])) ++child;
      if (!before(heap_[child], p)) break;
      place(i, heap_[child]);
    }
    place(i, p);
  }
  void remove_at(std::size_t i) {
    pos_[heap_[i]] = kNotInHeap;
    const PageId moved = heap_[--size_];
    if (i == size_) return;
    place(i, moved);
    sift_up(i);
    sift_down(pos_[moved]);
  }

  double decay_;                   // lambda
  PageArray<double> crf_;          // per page: C at its last reference
  PageArray<double> key_;          // per page: log2 C + lambda last
  PageArray<std::uint64_t> last_;  // per page: the time of its last reference
  PageArray<std::uint32_t> pos_;   // per page: its index in heap_, or kNotInHeap
  PageArray<PageId> heap_;         // the resident pages, least key at the top
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
