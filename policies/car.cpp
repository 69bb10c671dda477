// CAR: S. Bansal and D. S. Modha, "CAR: Clock with Adaptive Replacement", FAST 2004,
// Figure 2. ARC's adaptation with CLOCKs instead of LRU lists: T1 and T2 are clocks of
// resident pages whose hits only set the page's referenced bit (the engine's pte young bit,
// test-and-cleared here), B1 and B2 are LRU lists of ids evicted from T1 and T2, and the
// target size p of T1 adapts on ghost hits. c = frames.
//
// Figure 2, and where it lives here (x is the requested page; a clock's head is where its
// hand points, its tail is just behind the hand):
//
//    1: if x in T1 u T2: set the reference bit of x                     the engine, on a hit
//    3: else (miss):
//    4:   if |T1| + |T2| = c: replace()                                 select_victims
//    6:     if x not in B1 u B2 and |T1| + |B1| = c: discard the LRU page of B1     on_fault
//    8:     elif |T1| + |T2| + |B1| + |B2| = 2c and x not in B1 u B2: discard the LRU of B2
//   12:   if x not in B1 u B2: insert x at the tail of T1, reference bit 0
//   14:   elif x in B1: p = min(p + max(1, |B2| / |B1|), c); move x to the tail of T2, bit 0
//   17:   else (x in B2): p = max(p - max(1, |B1| / |B2|), 0); move x to the tail of T2, bit 0
//   replace():
//   23:   repeat
//   24:     if |T1| >= max(1, p):
//   25:       if the head page of T1 has bit 0: demote it to the MRU of B1 (found)
//   28:       else: set its bit to 0 and move it to the tail of T2
//   31:     else:
//   32:       if the head page of T2 has bit 0: demote it to the MRU of B2 (found)
//   35:       else: set its bit to 0 and move it to the tail of T2
//   38:   until found
//
// replace() does not depend on x, so the engine's order (victims first, then the faulting
// page) is the paper's. The engine sets the referenced bit of a page it faults in; CAR
// inserts with the bit 0 (lines 12-17), so on_fault clears it. p is a real number.
//
// Beyond the paper, for batch reclaim (watermarks): lines 6-8 run on every fault (with the
// paper's invariants they can only fire after a replace()), each extra victim is one more
// replace(), and replace() turns to the other clock if the one it picks is empty.
//
// Scanned (Counters::pages_scanned): every head page replace() looks at, those it moves to the
// tail of T2 (lines 28-29, 35-36) and the victim.
#include <algorithm>

#include "pagesim/page_list.hpp"
#include "pagesim/registry.hpp"

namespace pagesim {
namespace {

class Car final : public Policy {
 public:
  explicit Car(const Params& /*params*/) {}

  void reset(std::size_t num_pages, std::size_t frames) override {
    // Clocks: back = head (next under the hand), push_front = insert at the tail.
    // Ghosts: front = MRU, back = LRU.
    lists_.reset(num_pages, 4);
    c_ = frames;
    p_ = 0.0;
  }

  void on_fault(const Access& a, PageTableView view) override {
    const PageId x = a.page;
    const std::uint8_t where = lists_.list_of(x);
    if (where != kB1 && where != kB2) {
      if (lists_.size(kT1) + lists_.size(kB1) >= c_) {
        lists_.pop_back(kB1);  // a no-op if B1 is empty
      } else if (total() >= 2 * c_ && !lists_.empty(kB2)) {
        lists_.pop_back(kB2);
      }
      lists_.push_front(kT1, x);
    } else {
      const auto b1 = static_cast<double>(lists_.size(kB1));
      const auto b2 = static_cast<double>(lists_.size(kB2));
      if (where == kB1) {
        p_ = std::min(p_ + std::max(1.0, b2 / b1), static_cast<double>(c_));
      } else {
        p_ = std::max(p_ - std::max(1.0, b1 / b2), 0.0);
      }
      lists_.move_to_front(kT2, x);
    }
    view.test_and_clear_referenced(x);
  }

  // Out of its clock or ghost list (a freed ghost would hold room in the c and 2c bounds); a
  // hand is a clock's end, so none is left on it. p stays: it is a target within [0, c], and an
  // exit is no evidence for either list.
  void on_free(PageId p, PageTableView) override { lists_.remove(p); }

  void select_victims(std::size_t want, PageTableView view, VictimList& out) override {
    while (out.size() < want && lists_.size(kT1) + lists_.size(kT2) > 0) {
      out.push_back(replace(view));
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

  PageId replace(PageTableView view) {
    for (;;) {
      const auto t1 = static_cast<double>(lists_.size(kT1));
      const bool from_t1 = lists_.empty(kT2) || (!lists_.empty(kT1) && t1 >= std::max(1.0, p_));
      const std::size_t clock = from_t1 ? kT1 : kT2;
      const PageId head = lists_.back(clock);
      if (!view.test_and_clear_referenced(head)) {
        lists_.remove(head);
        lists_.push_front(from_t1 ? kB1 : kB2, head);
        return head;
      }
      view.count_scanned(head);
      lists_.move_to_front(kT2, head);
    }
  }

  PageLists lists_;
  std::size_t c_ = 0;
  double p_ = 0.0;
};

}  // namespace

PAGESIM_REGISTER_POLICY(Car, "car",
                        "CAR (Bansal & Modha 2004): ARC's adaptation over two CLOCKs with referenced bits");

}  // namespace pagesim
