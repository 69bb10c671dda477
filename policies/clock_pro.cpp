// CLOCK-Pro: S. Jiang, F. Chen, X. Zhang, "CLOCK-Pro: An Effective Improvement of the CLOCK
// Replacement", USENIX ATC 2005, section 4 (the LIRS idea on a clock). Every tracked page is
// on one circular list: hot pages (resident, small reuse distance), resident cold pages, and
// non-resident cold pages still in their "test period" (ghosts). A cold page accessed during
// its test period turns hot. m = frames; the cold pages get mc of them (the target), the hot
// pages mh = m - mc. Three hands move the same way round the clock; a page the hands will
// reach last is at the "list head", just behind HAND_hot.
//
// Section 4, and where it lives here:
//
//   page fault on x (after HAND_cold made room):                       on_fault
//     x on the list (a non-resident cold page in its test period): x turns hot, goes to the
//       list head; mc += 1 (adaptive); run HAND_hot.
//     x not on the list: x is a cold page at the list head and starts a test period.
//     if the non-resident cold pages exceed m: run HAND_test.
//   HAND_cold (find a victim):                                         select_victims
//     resident cold page, reference bit 0: evict it; if it is in its test period it stays on
//       the list as a non-resident cold page, otherwise it leaves the list. Stop at the next
//       resident cold page.
//     reference bit 1, in test period: clear the bit, the page turns hot, goes to the list
//       head; mc += 1; run HAND_hot.
//     reference bit 1, not in test period: clear the bit, start a new test period, move the
//       page to the list head.
//     other pages: pass.
//   HAND_hot (while more than mh pages are hot):
//     hot page with bit 1: clear it, pass (the page keeps its place, now at the head).
//     hot page with bit 0: it turns cold (no test period); go on to the next hot page.
//     cold page in its test period (on the way there too): the test period ends (mc -= 1); a
//       non-resident one leaves the list.
//   HAND_test (while more than m cold pages are non-resident):
//     cold page in its test period: the test period ends (mc -= 1); a non-resident one leaves
//       the list; stop at the next cold page.
//
// Variant and parameters: the adaptive CLOCK-Pro (`adaptive` = true; mc += 1 when a cold page
// is accessed in its test period, mc -= 1 when a test period ends without one), mc bounded
// to [1, m] so that a resident cold page always exists to be replaced. The initial target is
// `cold_ratio` = 1% of m (at least 1 frame), the same share as LIRS's Lhirs, which mc
// corresponds to; with `adaptive` = false mc stays there. Reference bits are the engine's
// (pte young bits, test-and-cleared). The access that faults a page in starts its test period
// and does not count as a reference in it: on_fault clears the bit the engine set.
//
// Where section 4 is silent: HAND_cold, having evicted the last resident cold page, stays on
// the page after its victim (there is no next resident cold page to stop at); HAND_hot, having
// demoted the last hot page (when mc = m, so mh = 0), stops after it rather than going round
// the clock to a hot page that is not there, so it ends no test periods on the way. Song
// Jiang's own simulator (clock-pro.c) differs from section 4: it first fills memory with hot
// pages and adapts mc by credits. This follows the paper's text, where every first fault makes
// a cold page in its test period.
//
// Beyond the paper, for batch reclaim: if no resident cold page is left while victims are
// still wanted, HAND_hot demotes one hot page.
//
// Scanned (Counters::pages_scanned): every page whose referenced bit a hand tests: the resident
// cold pages HAND_cold keeps (referenced: promoted or given a test period) and its victims, the
// hot pages HAND_hot reaches (kept hot or demoted to cold). Pages a hand only passes (the
// other kind, non-resident ones) are not.
#include <algorithm>
#include <vector>

#include "pagesim/page_list.hpp"
#include "pagesim/registry.hpp"

namespace pagesim {
namespace {

class ClockPro final : public Policy {
 public:
  explicit ClockPro(const Params& params)
      : cold_ratio_(params.get_double("cold_ratio", 0.01, 0.0, 1.0)),
        adaptive_(params.get_bool("adaptive", true)) {}

  void reset(std::size_t num_pages, std::size_t frames) override {
    clock_.reset(num_pages, 1);
    state_.assign(num_pages, 0);
    m_ = frames;
    mc_ = std::clamp<std::size_t>(static_cast<std::size_t>(cold_ratio_ * static_cast<double>(frames)),
                                  1, frames);
    hot_ = cold_resident_ = non_resident_ = 0;
    hand_hot_ = hand_cold_ = hand_test_ = kNoPage;
  }

  void on_fault(const Access& a, PageTableView view) override {
    const PageId x = a.page;
    view.test_and_clear_referenced(x);
    if (clock_.contains(0, x)) {
      unlink(x);
      --non_resident_;
      state_[x] = kResident | kHot;
      ++hot_;
      grow_cold_target();
      insert_at_head(x);
      run_hand_hot(view);
    } else {
      state_[x] = kResident | kTest;
      ++cold_resident_;
      insert_at_head(x);
    }
    while (non_resident_ > m_) hand_test_step();
  }

  // Off the clock, whatever it was; a hand on it moves to the next page. mc stays: the test
  // period of a freed cold page ends by an exit, which says nothing about the cold target.
  void on_free(PageId p, PageTableView) override {
    if (!clock_.contains(0, p)) return;
    if (state_[p] & kHot) {
      --hot_;
    } else if (state_[p] & kResident) {
      --cold_resident_;
    } else {
      --non_resident_;
    }
    state_[p] = 0;
    unlink(p);
  }

  void select_victims(std::size_t want, PageTableView view, VictimList& out) override {
    while (out.size() < want) {
      if (cold_resident_ == 0) {
        if (hot_ == 0) break;
        hand_hot_step(view, /*force=*/true);
        continue;
      }
      const PageId p = hand_cold_;
      if ((state_[p] & (kResident | kHot)) != kResident) {
        hand_cold_ = next_of(p);
        continue;
      }
      if (view.test_and_clear_referenced(p)) {
        view.count_scanned(p);
        if (state_[p] & kTest) {
          state_[p] = kResident | kHot;
          --cold_resident_;
          ++hot_;
          grow_cold_target();
          move_to_head(p);
          run_hand_hot(view);
        } else {
          state_[p] |= kTest;
          move_to_head(p);
        }
        continue;
      }
      --cold_resident_;
      if (state_[p] & kTest) {
        state_[p] = kTest;  // non-resident, in its test period
        ++non_resident_;
        hand_cold_ = next_of(p);
      } else {
        state_[p] = 0;
        unlink(p);
      }
      out.push_back(p);
      if (cold_resident_ > 0) {
        advance(hand_cold_, [&](PageId q) { return (state_[q] & (kResident | kHot)) == kResident; });
      }
    }
  }

 private:
  static constexpr std::uint8_t kResident = 1;
  static constexpr std::uint8_t kHot = 2;
  static constexpr std::uint8_t kTest = 4;

  // The clock is list 0 walked from front to back and round again; the hands move that way.
  PageId next_of(PageId p) const {
    const PageId q = clock_.next(p);
    return q == kNoPage ? clock_.front(0) : q;
  }

  // Moves `hand` on until `stop` holds, at most once round the clock.
  template <class Pred>
  void advance(PageId& hand, Pred stop) const {
    if (hand == kNoPage) return;
    for (std::size_t k = 0; k < clock_.size(0) && !stop(hand); ++k) hand = next_of(hand);
  }

  // Takes p off the clock; a hand on p moves to the next page.
  void unlink(PageId p) {
    if (clock_.size(0) == 1) {
      hand_hot_ = hand_cold_ = hand_test_ = kNoPage;
    } else {
      const PageId n = next_of(p);
      if (hand_hot_ == p) hand_hot_ = n;
      if (hand_cold_ == p) hand_cold_ = n;
      if (hand_test_ == p) hand_test_ = n;
    }
    clock_.remove(p);
  }

  // The list head: just behind HAND_hot, the last place every hand reaches.
  void insert_at_head(PageId p) {
    if (hand_hot_ == kNoPage) {
      clock_.push_back(0, p);
      hand_hot_ = hand_cold_ = hand_test_ = p;
    } else {
      clock_.insert_before(0, hand_hot_, p);
    }
  }

  void move_to_head(PageId p) {
    unlink(p);
    insert_at_head(p);
  }

  void grow_cold_target() {
    if (adaptive_ && mc_ < m_) ++mc_;
  }
  void shrink_cold_target() {
    if (adaptive_ && mc_ > 1) --mc_;
  }

  // Ends the test period of cold page p; a non-resident p leaves the clock.
  void end_test(PageId p) {
    state_[p] = static_cast<std::uint8_t>(state_[p] & ~kTest);
    shrink_cold_target();
    if (!(state_[p] & kResident)) {
      unlink(p);
      --non_resident_;
    }
  }

  void run_hand_hot(PageTableView view) {
    while (hot_ > m_ - mc_) hand_hot_step(view, /*force=*/false);
  }

  // Moves HAND_hot until it demotes one hot page (or, unless forced, until no more hot pages
  // than mh remain).
  void hand_hot_step(PageTableView view, bool force) {
    while (force || hot_ > m_ - mc_) {
      const PageId p = hand_hot_;
      if (!(state_[p] & kHot)) {
        hand_hot_pass_cold();
        continue;
      }
      hand_hot_ = next_of(p);
      view.count_scanned(p);
      if (!view.test_and_clear_referenced(p)) {
        state_[p] = kResident;
        --hot_;
        ++cold_resident_;
        // "Finally the hand stops at a hot page", ending on its way the test periods of the
        // cold pages it passes.
        while (hot_ > 0 && !(state_[hand_hot_] & kHot)) hand_hot_pass_cold();
        return;
      }
    }
  }

  // HAND_hot passes the cold page it is on, whose test period ends ("it actually does the
  // work on the cold page on behalf of hand HAND_test").
  void hand_hot_pass_cold() {
    const PageId p = hand_hot_;
    if (state_[p] & kTest) {
      if (state_[p] & kResident) hand_hot_ = next_of(p);
      end_test(p);  // unlink moves the hand past a non-resident p
    } else {
      hand_hot_ = next_of(p);
    }
  }

  void hand_test_step() {
    const PageId p = hand_test_;
    if (!(state_[p] & kHot) && (state_[p] & kTest)) {
      if (state_[p] & kResident) hand_test_ = next_of(p);
      end_test(p);
      advance(hand_test_, [&](PageId q) { return (state_[q] & kHot) == 0; });
    } else {
      hand_test_ = next_of(p);
    }
  }

  double cold_ratio_;
  bool adaptive_;
  std::size_t m_ = 0;
  std::size_t mc_ = 1;
  std::size_t hot_ = 0;
  std::size_t cold_resident_ = 0;
  std::size_t non_resident_ = 0;
  PageLists clock_;
  std::vector<std::uint8_t> state_;
  PageId hand_hot_ = kNoPage;
  PageId hand_cold_ = kNoPage;
  PageId hand_test_ = kNoPage;
};

}  // namespace

PAGESIM_REGISTER_POLICY(ClockPro, "clock_pro",
                        "CLOCK-Pro (Jiang, Chen & Zhang 2005), adaptive: hot/cold/test pages, three hands");

}  // namespace pagesim
