// ARC: N. Megiddo and D. S. Modha, "ARC: A Self-Tuning, Low Overhead Replacement Cache",
// FAST 2003, Figure 4. Two LRU lists of resident pages, T1 (seen once recently) and T2 (seen
// at least twice), each with a ghost list of evicted page ids, B1 and B2; the target size p of
// T1 grows on a hit in B1 and shrinks on a hit in B2. c = frames.
//
// Figure 4, and where it lives here (x is the requested page):
//
//   Case I: x in T1 u T2 (hit): move x to the MRU of T2.                       on_hit
//   Case II: x in B1: p = min(p + d1, c), d1 = 1 if |B1| >= |B2| else |B2|/|B1|;
//            REPLACE(x, p); move x from B1 to the MRU of T2.                    select_victims,
//   Case III: x in B2: p = max(p - d2, 0), d2 = 1 if |B2| >= |B1| else |B1|/|B2|;   on_fault
//            REPLACE(x, p); move x from B2 to the MRU of T2.
//   Case IV: x in no list.
//     A: |T1| + |B1| = c:
//          if |T1| < c: delete the LRU of B1; REPLACE(x, p)
//          else (B1 is empty): delete the LRU of T1 and drop it from the cache (no ghost)
//     B: |T1| + |B1| < c and |T1| + |T2| + |B1| + |B2| >= c:
//          if the total is 2c: delete the LRU of B2
//          REPLACE(x, p)
//     put x at the MRU of T1.
//   REPLACE(x, p):
//     if |T1| >= 1 and (|T1| > p or (x in B2 and |T1| = p)):
//          move the LRU of T1 to the MRU of B1 (it leaves the cache)
//     else move the LRU of T2 to the MRU of B2 (it leaves the cache)
//
// p is a real number, as in the paper (d1, d2 are ratios).
//
// The engine asks for victims before it tells the policy which page faulted; REPLACE depends
// on x (x in B2, and the adaptation of p comes first). select_victims therefore reads the
// faulting page from PageTableView::incoming() and runs cases II-IV up to and including
// REPLACE; on_fault moves x into T1 or T2. When memory is not full no REPLACE happens, and
// under demand paging (one victim per fault) the ghost lists are then empty, so this is the
// paper's algorithm exactly. Beyond the paper, for batch reclaim (watermarks): a fault with
// free frames on a ghost page adapts p in on_fault; each extra victim of a batch is one more
// REPLACE(x, p); on_fault trims B1 to keep |T1| + |B1| <= c and B2 to keep the total <= 2c;
// REPLACE takes from the other list if the one it picks is empty.
#include <algorithm>

#include "pagesim/page_list.hpp"
#include "pagesim/registry.hpp"

namespace pagesim {
namespace {

class Arc final : public Policy {
 public:
  explicit Arc(const Params& /*params*/) {}

  PolicyTraits traits() const override { return {/*needs_hits=*/true, /*needs_future=*/false}; }

  void reset(std::size_t num_pages, std::size_t frames) override {
    lists_.reset(num_pages, 4);
    c_ = frames;
    p_ = 0.0;
    adapted_for_ = kNoPage;
  }

  static constexpr bool pagesim_prefetch_fast_path = true;  // see policy.hpp
  void prefetch(PageId p, int stage) const { lists_.prefetch(p, stage); }
  void on_hit(const Access& a, PageTableView) override { lists_.move_to_front(kT2, a.page); }

  void on_fault(const Access& a, PageTableView) override {
    const PageId x = a.page;
    const std::uint8_t where = lists_.list_of(x);
    if (where == kB1 || where == kB2) {
      if (adapted_for_ != x) adapt(where);
      lists_.move_to_front(kT2, x);
    } else {
      lists_.push_front(kT1, x);
    }
    adapted_for_ = kNoPage;
    while (lists_.size(kT1) + lists_.size(kB1) > c_ && !lists_.empty(kB1)) lists_.pop_back(kB1);
    while (total() > 2 * c_ && !lists_.empty(kB2)) lists_.pop_back(kB2);
  }

  // Out of T1, T2, B1 or B2: a freed ghost would hold room in |T1| + |B1| <= c and the total
  // <= 2c that live history can use; the bounds only loosen. p stays: it is a target within
  // [0, c], and an exit is no evidence for either list.
  void on_free(PageId p, PageTableView) override {
    lists_.remove(p);
    if (adapted_for_ == p) adapted_for_ = kNoPage;
  }

  void select_victims(std::size_t want, PageTableView view, VictimList& out) override {
    const PageId x = view.incoming();
    const std::uint8_t where = x == kNoPage ? PageLists::kNone : lists_.list_of(x);
    const bool in_b2 = where == kB2;
    if (where == kB1 || where == kB2) {
      adapt(where);  // cases II and III
      adapted_for_ = x;
    } else if (lists_.size(kT1) + lists_.size(kB1) >= c_) {  // case IV.A
      if (lists_.size(kT1) < c_) {
        lists_.pop_back(kB1);
      } else {
        out.push_back(lists_.pop_back(kT1));
      }
    } else if (total() >= 2 * c_) {  // case IV.B
      lists_.pop_back(kB2);
    }
    while (out.size() < want && lists_.size(kT1) + lists_.size(kT2) > 0) {
      out.push_back(replace(in_b2));
    }
  }

 private:
  static constexpr std::size_t kT1 = 0;
  static constexpr std::size_t kT2 = 1;
  static constexpr std::size_t kB1 = 2;
  static constexpr std::size_t kB2 = 3;

  std::size_t total() const {
    return lists_.size(kT1) + lists_.size(kT2) + lists_.size(kB1) + lists_.size(kB2);
  }

  void adapt(std::uint8_t ghost) {
    const auto b1 = static_cast<double>(lists_.size(kB1));
    const auto b2 = static_cast<double>(lists_.size(kB2));
    if (ghost == kB1) {
      p_ = std::min(p_ + (b1 >= b2 ? 1.0 : b2 / b1), static_cast<double>(c_));
    } else {
      p_ = std::max(p_ - (b2 >= b1 ? 1.0 : b1 / b2), 0.0);
    }
  }

  // Moves the chosen LRU page to its ghost list and returns it.
  PageId replace(bool x_in_b2) {
    const std::size_t t1 = lists_.size(kT1);
    const auto t1d = static_cast<double>(t1);
    bool from_t1 = t1 >= 1 && (t1d > p_ || (x_in_b2 && t1d == p_));
    if (lists_.empty(kT2)) from_t1 = true;
    const PageId y = lists_.pop_back(from_t1 ? kT1 : kT2);
    lists_.push_front(from_t1 ? kB1 : kB2, y);
    return y;
  }

  PageLists lists_;
  std::size_t c_ = 0;
  double p_ = 0.0;
  // The ghost page whose adaptation select_victims already made (on_fault must not repeat it).
  PageId adapted_for_ = kNoPage;
};

}  // namespace

PAGESIM_REGISTER_POLICY(Arc, "arc",
                        "ARC (Megiddo & Modha 2003): T1/T2 LRU lists, B1/B2 ghosts, adaptive p");

}  // namespace pagesim
