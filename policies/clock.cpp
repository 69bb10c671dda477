// CLOCK (second chance): frames on a circle, a hand sweeps it; a page whose referenced bit is
// set gets the bit cleared and is passed over, the first page found with the bit clear is the
// victim. F. J. Corbato, "A paging experiment with the Multics system" (1968); the
// formulation of Tanenbaum, Modern Operating Systems, section 3.4.5.
//
// Variant (differs between textbooks and simulators, and changes the counts):
//   - a faulted page enters with its referenced bit SET, by the access that faulted it (the
//     engine sets it on every access, as hardware sets the pte young bit);
//   - the new page takes the victim's place on the circle and the hand stops just after it,
//     so the new page is the last one the hand will reach.
// A CLOCK whose new pages enter with the bit clear evicts a page that was just faulted in on
// the next lap and gives different counts.
//
//   select victim:  loop { p = frame[hand]
//                          if referenced(p): clear it, hand++
//                          else: victim = p, slot = hand, hand++, stop }
//   on fault:       frame[slot] = p
#include <vector>

#include "pagesim/registry.hpp"

namespace pagesim {
namespace {

class Clock final : public Policy {
 public:
  explicit Clock(const Params& /*params*/) {}

  void reset(std::size_t /*num_pages*/, std::size_t frames) override {
    circle_.assign(frames, kNoPage);
    // Free frames, the next one last; frame 0 first.
    free_.resize(frames);
    for (std::size_t s = 0; s < frames; ++s) free_[s] = frames - 1 - s;
    free_count_ = frames;
    hand_ = 0;
  }
  void on_fault(const Access& a, PageTableView) override {
    circle_[free_[--free_count_]] = a.page;
  }
  PageId select_victim(PageTableView view) {
    // Two laps at most: the first clears every referenced bit.
    for (std::size_t step = 0; step < 2 * circle_.size(); ++step) {
      const std::size_t at = hand_;
      const PageId p = circle_[at];
      if (++hand_ == circle_.size()) hand_ = 0;
      // The hand visits frames in order but their pages' bits lie anywhere: fetch ahead.
      std::size_t a = at + kLookahead;
      if (a >= circle_.size()) a -= circle_.size();
      const PageId ahead = a < circle_.size() ? circle_[a] : kNoPage;
      if (ahead != kNoPage) view.prefetch(ahead);
      if (p != kNoPage && !view.test_and_clear_referenced(p)) {
        circle_[at] = kNoPage;
        free_[free_count_++] = at;
        return p;
      }
    }
    return kNoPage;
  }
  void select_victims(std::size_t want, PageTableView view, VictimList& out) override {
    for (PageId v; out.size() < want && (v = select_victim(view)) != kNoPage;) out.push_back(v);
  }

 private:
  static constexpr std::size_t kLookahead = 8;
  std::vector<PageId> circle_;
  // A stack of free frames (at most all of them): free_[0 .. free_count_).
  std::vector<std::size_t> free_;
  std::size_t free_count_ = 0;
  std::size_t hand_ = 0;
};

}  // namespace

PAGESIM_REGISTER_POLICY(Clock, "clock", "second chance: a hand sweeps the frames, clearing referenced bits");

}  // namespace pagesim
