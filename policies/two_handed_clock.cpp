// The two-handed clock of SVR4 and Solaris, as Solaris 7's pageout scanner runs it
// (usr/src/uts/common/os/vm_pageout.c, "@(#)vm_pageout.c 1.125 99/07/16 SMI": setupclock,
// pageout_scanner, checkpage). Two hands go round the frames, the back hand handspreadpages
// behind the front one:
//
//   pageout_scanner, each step:  checkpage(fronthand, FRONT); checkpage(backhand, BACK);
//                                both hands move on
//   checkpage(pp, hand):  a free frame: skipped
//                         referenced: FRONT clears the bit (hat_clrref); either hand keeps it
//                         not referenced: freed, pushed to swap first if modified
//                         (the front hand frees too: a page its last lap left unreferenced)
//   setupclock:  fastscan = MIN(looppages / loopfraction, MAXHANDSPREADPAGES), loopfraction 2,
//                MAXHANDSPREADPAGES 64 MB; handspreadpages = fastscan, and < looppages;
//                backhand = the first page, fronthand = handspreadpages ahead of it
//
// So a page survives the back hand only if it was referenced since the front hand cleared its
// bit, handspreadpages steps before. Here the loop is the frames (looppages = the frames a
// trace can fill); `handspread` is handspreadpages, by default min(frames / 2, 16384) (64 MB
// of 4 KiB pages); given, it is only kept below the frames.
//
// Variant: Solaris runs the scanner by time (schedpaging sets a scan rate between slowscan and
// fastscan from the free memory, four times a second); here it runs when memory is needed,
// until it has freed the pages asked for. The checks go front, back, front, back, ... and stop
// at the one that frees the last page asked for; the next reclaim resumes with the check after
// it. The new page takes the victim's frame, referenced by the access that faulted it.
// Scanned (Counters::pages_scanned): every page a hand looks at, kept or freed.
#include <algorithm>
#include <cstdint>

#include "pagesim/frame_circle.hpp"
#include "pagesim/registry.hpp"

namespace pagesim {
namespace {

class TwoHandedClock final : public Policy {
 public:
  explicit TwoHandedClock(const Params& params)
      : handspread_(static_cast<std::size_t>(
            params.get_int("handspread", kMaxHandspread, 1, std::int64_t{1} << 40))),
        given_(params.has("handspread")) {}

  void reset(std::size_t num_pages, std::size_t frames) override {
    circle_.reset(num_pages, frames);
    const std::size_t loop = circle_.size();
    // fastscan = MIN(looppages / loopfraction, maxfastscan), unless given.
    std::size_t spread = given_ ? handspread_ : std::min(loop / 2, handspread_);
    if (loop > 0 && spread >= loop) spread = loop - 1;
    back_ = 0;
    front_ = loop == 0 ? 0 : spread % loop;
    front_next_ = true;
  }
  void on_fault(const Access& a, PageTableView) override { circle_.place(a.page); }
  // An exit frees the frames of the process's anonymous pages. The hands stay.
  void on_free(PageId p, PageTableView view) override { circle_.free_process_of(p, view); }
  static constexpr bool pagesim_select_victim_fast_path = true;  // see policy.hpp
  PageId select_victim(PageTableView view) {
    const std::size_t n = circle_.size();
    // Within two laps of both hands the front one has cleared every bit and met each page
    // again unreferenced.
    for (std::size_t check = 0; check < 4 * n + 2; ++check) {
      const bool front = front_next_;
      std::size_t& hand = front ? front_ : back_;
      const std::size_t at = hand;
      front_next_ = !front;
      if (++hand == n) hand = 0;
      const PageId p = circle_[at];
      if (p == kNoPage) continue;
      const bool referenced = front ? view.test_and_clear_referenced(p) : view.referenced(p);
      if (!referenced) return circle_.take(at);
      view.count_scanned(p);
    }
    return kNoPage;
  }
  void select_victims(std::size_t want, PageTableView view, VictimList& out) override {
    for (PageId v; out.size() < want && (v = select_victim(view)) != kNoPage;) out.push_back(v);
  }

 private:
  static constexpr std::int64_t kMaxHandspread = 16384;  // MAXHANDSPREADPAGES, 64 MB / 4 KiB
  std::size_t handspread_;
  bool given_;  // handspread given: not capped at half the frames
  FrameCircle circle_;
  std::size_t front_ = 0, back_ = 0;
  bool front_next_ = true;  // the next check is the front hand's
};

}  // namespace

PAGESIM_REGISTER_POLICY(TwoHandedClock, "two_handed_clock",
                        "SVR4/Solaris pageout: a front hand clears referenced bits, a back hand "
                        "handspread frames behind frees pages still unreferenced");

}  // namespace pagesim
