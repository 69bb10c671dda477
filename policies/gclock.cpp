// GCLOCK (generalized CLOCK): CLOCK with a use count per frame instead of a referenced bit.
// A. J. Smith, "Sequentiality and prefetching in database systems", ACM TODS 1978; here as
// PostgreSQL's buffer manager runs it (src/backend/storage/buffer: bufmgr.c PinBuffer and
// BufferAlloc, freelist.c StrategyGetBuffer's "clock sweep"), the best known GCLOCK in use:
//
//   PinBuffer (each use of a page in a buffer):
//     if usage_count < BM_MAX_USAGE_COUNT: usage_count++        (BM_MAX_USAGE_COUNT = 5)
//   BufferAlloc (a page read into the victim's buffer): usage_count = 1
//   StrategyGetBuffer, once the free list is empty:
//     loop { buf = the buffer at the hand; the hand moves on
//            if usage_count != 0: usage_count--                  (passed over)
//            else: return buf                                    (the victim) }
//
// `max_count` is BM_MAX_USAGE_COUNT (default 5); at 1 a count is CLOCK's referenced bit, and
// gclock is `clock` (tested: the same counts). Pins do not outlive an access here, so no
// buffer is skipped as pinned. A page brought in by readahead is not a use: count 0 (the
// first to go when the hand reaches it). As in `clock`, the new page takes the victim's frame
// and the hand stops just after it.
//
// Scanned (Counters::pages_scanned): every page the hand reaches, those it passes over (their
// count decremented) and the victim.
#include <algorithm>
#include <cstdint>

#include "pagesim/frame_circle.hpp"
#include "pagesim/page_array.hpp"
#include "pagesim/registry.hpp"

namespace pagesim {
namespace {

class GClock final : public Policy {
 public:
  explicit GClock(const Params& params)
      : max_count_(static_cast<std::uint8_t>(params.get_int("max_count", 5, 1, 255))) {}

  PolicyTraits traits() const override { return {/*needs_hits=*/true, /*needs_future=*/false}; }
  void reset(std::size_t num_pages, std::size_t frames) override {
    circle_.reset(num_pages, frames);
    count_.assign(num_pages, 0);
    hand_ = 0;
  }
  void on_hit(const Access& a, PageTableView) override {
    std::uint8_t& c = count_[a.page];
    c = static_cast<std::uint8_t>(c + (c < max_count_));
  }
  void on_fault(const Access& a, PageTableView) override {
    circle_.place(a.page);
    count_[a.page] = a.readahead ? 0 : 1;
  }
  // An exit frees the frames of the process's anonymous pages. The hand stays.
  void on_free(PageId p, PageTableView view) override { circle_.free_process_of(p, view); }
  static constexpr bool pagesim_select_victim_fast_path = true;  // see policy.hpp
  PageId select_victim(PageTableView view) {
    const std::size_t n = circle_.size();
    // Every count reaches 0 within max_count laps: one more finds the victim.
    for (std::size_t step = 0; step < (max_count_ + std::size_t{1}) * n; ++step) {
      const std::size_t at = hand_;
      if (++hand_ == n) hand_ = 0;
      const PageId p = circle_[at];
      if (p == kNoPage) continue;
      if (count_[p] == 0) return circle_.take(at);
      --count_[p];
      view.count_scanned(p);
    }
    return kNoPage;
  }
  void select_victims(std::size_t want, PageTableView view, VictimList& out) override {
    for (PageId v; out.size() < want && (v = select_victim(view)) != kNoPage;) out.push_back(v);
  }

 private:
  std::uint8_t max_count_;
  FrameCircle circle_;
  PageArray<std::uint8_t> count_;  // per resident page: its usage count
  std::size_t hand_ = 0;
};

}  // namespace

PAGESIM_REGISTER_POLICY(GClock, "gclock",
                        "generalized CLOCK: a use count per frame, capped at max_count "
                        "(PostgreSQL's clock sweep)");

}  // namespace pagesim
