#pragma once

#include <algorithm>
#include <cstddef>
#include <vector>

#include "pagesim/page_table.hpp"
#include "pagesim/types.hpp"

namespace pagesim {

// The frames of a CLOCK-like policy on a circle (`clock`, `wsclock`): a page per frame,
// kNoPage in a free one. Frames are taken lowest first and a freed one before a new one, so a
// new frame is taken only when every frame taken so far holds a page: no more than the
// trace's pages are ever used, and a circle of that many visits the used ones in the same
// order. A faulted page takes the frame freed last, a victim's.
class FrameCircle {
 public:
  void reset(std::size_t num_pages, std::size_t frames_given) {
    const std::size_t frames = std::min(frames_given, num_pages);
    frames_.assign(frames, kNoPage);
    // Free frames, the next one last; frame 0 first.
    free_.resize(frames);
    for (std::size_t s = 0; s < frames; ++s) free_[s] = frames - 1 - s;
    free_count_ = frames;
    exited_ = kNoProc;
  }
  std::size_t size() const { return frames_.size(); }
  // No frame holds a page.
  bool empty() const { return free_count_ == frames_.size(); }
  PageId operator[](std::size_t at) const { return frames_[at]; }
  const PageId* data() const { return frames_.data(); }

  // Puts page p in the free frame freed last (a new one if none was freed).
  void place(PageId p) { frames_[free_[--free_count_]] = p; }
  // Frees frame `at` and returns its page.
  PageId take(std::size_t at) {
    const PageId p = frames_[at];
    frames_[at] = kNoPage;
    free_[free_count_++] = at;
    return p;
  }
  // on_free: an exit frees every anonymous page of one process, in consecutive calls; the
  // first frees all their frames, in frame order (no check on the hot paths).
  void free_process_of(PageId p, PageTableView view) {
    const ProcId q = view.proc(p);
    if (q == exited_) return;
    exited_ = q;
    for (std::size_t at = 0; at < frames_.size(); ++at) {
      const PageId e = frames_[at];
      if (e != kNoPage && view.proc(e) == q && view.kind(e) == PageKind::kAnon) take(at);
    }
  }

 private:
  std::vector<PageId> frames_;
  // A stack of free frames (at most all of them): free_[0 .. free_count_).
  std::vector<std::size_t> free_;
  std::size_t free_count_ = 0;
  ProcId exited_ = kNoProc;  // the process whose pages free_process_of freed last
};

}  // namespace pagesim
