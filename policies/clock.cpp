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
//
// Scanned (Counters::pages_scanned): every page the hand reaches, the referenced ones it passes
// over and the victim.
#include <algorithm>
#include <vector>

#include "pagesim/registry.hpp"

namespace pagesim {
namespace {

class Clock final : public Policy {
 public:
  explicit Clock(const Params& /*params*/) {}

  void reset(std::size_t num_pages, std::size_t frames_given) override {
    // Frames are taken lowest first and a freed one before a new one, so a new frame is taken
    // only when every frame taken so far holds a page: no more than the trace's pages are ever
    // used, and a circle of that many visits the used ones in the same order.
    const std::size_t frames = std::min(frames_given, num_pages);
    circle_.assign(frames, kNoPage);
    // Free frames, the next one last; frame 0 first.
    free_.resize(frames);
    for (std::size_t s = 0; s < frames; ++s) free_[s] = frames - 1 - s;
    free_count_ = frames;
    hand_ = 0;
    exited_ = kNoProc;
  }
  void on_fault(const Access& a, PageTableView) override {
    circle_[free_[--free_count_]] = a.page;
  }
  // An exit frees every anonymous page of one process, in consecutive calls: the first frees
  // all their frames, in frame order (no check on the hot paths). The hand stays.
  void on_free(PageId p, PageTableView view) override {
    const ProcId q = view.proc(p);
    if (q == exited_) return;
    exited_ = q;
    for (std::size_t at = 0; at < circle_.size(); ++at) {
      const PageId e = circle_[at];
      if (e != kNoPage && view.proc(e) == q && view.kind(e) == PageKind::kAnon) take(at);
    }
  }
  static constexpr bool pagesim_select_victim_fast_path = true;  // see policy.hpp
  PageId select_victim(PageTableView view) {
    const std::size_t n = circle_.size();
    // Two laps at most: the first clears every referenced bit.
    for (std::size_t step = 0; step < 2 * n;) {
      const std::size_t at = hand_;
      // kGroup occupied frames at once where the circle does not wrap: the victim is the first
      // of them whose page is unreferenced, found without a branch per frame. Whether a page
      // is referenced is close to a coin toss (57% on bench/'s zipf trace at 10% memory), so
      // a branch per frame mispredicts about once per fault; this way faults run 7% faster.
      if (at + kGroup <= n) {
        const PageId* f = circle_.data() + at;
        bool full = true;
        for (std::size_t j = 0; j < kGroup; ++j) full &= f[j] != kNoPage;
        if (full) {
          if (at + kLookahead + kGroup <= n) {
            for (std::size_t j = 0; j < kGroup; ++j) view.prefetch(f[kLookahead + j]);
          }
          unsigned referenced = 0;
          for (std::size_t j = 0; j < kGroup; ++j) {
            referenced |= unsigned{view.referenced(f[j])} << j;
          }
          // The first unreferenced frame; kGroup when all are referenced.
          const auto k = static_cast<std::size_t>(__builtin_ctz(~referenced));
          for (std::size_t j = 0; j < kGroup; ++j) view.clear_referenced_if(f[j], j < k);
          for (std::size_t j = 0; j < k; ++j) view.count_scanned(f[j]);
          step += k + 1;
          if (k == kGroup) {
            hand_ = at + kGroup == n ? 0 : at + kGroup;
            continue;
          }
          hand_ = at + k + 1 == n ? 0 : at + k + 1;
          return take(at + k);
        }
      }
      const PageId p = circle_[at];
      if (++hand_ == n) hand_ = 0;
      ++step;
      // The hand visits frames in order but their pages' bits lie anywhere: fetch ahead.
      std::size_t a = at + kLookahead;
      if (a >= n) a -= n;
      const PageId ahead = a < n ? circle_[a] : kNoPage;
      if (ahead != kNoPage) view.prefetch(ahead);
      if (p == kNoPage) continue;
      if (!view.test_and_clear_referenced(p)) return take(at);
      view.count_scanned(p);
    }
    return kNoPage;
  }
  void select_victims(std::size_t want, PageTableView view, VictimList& out) override {
    for (PageId v; out.size() < want && (v = select_victim(view)) != kNoPage;) out.push_back(v);
  }

 private:
  // Frees frame `at` and returns its page, the victim.
  PageId take(std::size_t at) {
    const PageId p = circle_[at];
    circle_[at] = kNoPage;
    free_[free_count_++] = at;
    return p;
  }

  static constexpr std::size_t kLookahead = 8;
  // Groups of 8 ran 10% slower than of 4, and 3 slower too.
  static constexpr std::size_t kGroup = 4;
  std::vector<PageId> circle_;
  // A stack of free frames (at most all of them): free_[0 .. free_count_).
  std::vector<std::size_t> free_;
  std::size_t free_count_ = 0;
  std::size_t hand_ = 0;
  ProcId exited_ = kNoProc;  // the process whose pages on_free dropped last
};

}  // namespace

PAGESIM_REGISTER_POLICY(Clock, "clock", "second chance: a hand sweeps the frames, clearing referenced bits");

}  // namespace pagesim
