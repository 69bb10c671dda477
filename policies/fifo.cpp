// First In, First Out: evict the page that became resident longest ago, whatever its use.
// The policy of Belady, Nelson and Shedler, "An anomaly in space-time characteristics of
// certain programs running in a paging machine" (CACM 1969): with 1 2 3 4 1 2 5 1 2 3 4 5 it
// faults 9 times at 3 frames and 10 times at 4.
//
//   on fault:  append p to the queue; victim = head of the queue
#include <algorithm>
#include <vector>

#include "pagesim/registry.hpp"

namespace pagesim {
namespace {

class Fifo final : public Policy {
 public:
  explicit Fifo(const Params& /*params*/) {}

  void reset(std::size_t num_pages, std::size_t frames) override {
    // At most min(frames, pages) pages are resident, so a ring of that size never overflows
    // (and memory far beyond the trace's footprint costs nothing).
    ring_.assign(std::min(frames, num_pages), kNoPage);
    head_ = 0;
    count_ = 0;
    exited_ = kNoProc;
  }
  void on_fault(const Access& a, PageTableView) override {
    std::size_t tail = head_ + count_;
    if (tail >= ring_.size()) tail -= ring_.size();
    ring_[tail] = a.page;
    ++count_;
  }
  // An exit frees every anonymous page of one process, in consecutive calls: the first drops
  // them all from the queue, in one pass that keeps the order (no check on the hot paths).
  void on_free(PageId p, PageTableView view) override {
    const ProcId q = view.proc(p);
    if (q == exited_) return;
    exited_ = q;
    std::size_t kept = 0;
    for (std::size_t k = 0; k < count_; ++k) {
      const PageId e = ring_[(head_ + k) % ring_.size()];
      if (view.proc(e) != q || view.kind(e) != PageKind::kAnon) ring_[(head_ + kept++) % ring_.size()] = e;
    }
    count_ = kept;
  }
  static constexpr bool pagesim_select_victim_fast_path = true;  // see policy.hpp
  PageId select_victim(PageTableView view) {
    if (count_ == 0) return kNoPage;
    const PageId victim = ring_[head_];
    if (++head_ == ring_.size()) head_ = 0;
    --count_;
    // A victim a few faults ahead: its bits arrive in time for its eviction.
    if (count_ > kAhead) {
      std::size_t ahead = head_ + kAhead;
      if (ahead >= ring_.size()) ahead -= ring_.size();
      view.prefetch(ring_[ahead]);
    }
    return victim;
  }
  void select_victims(std::size_t want, PageTableView view, VictimList& out) override {
    for (PageId v; out.size() < want && (v = select_victim(view)) != kNoPage;) out.push_back(v);
  }

 private:
  static constexpr std::size_t kAhead = 4;
  std::vector<PageId> ring_;
  std::size_t head_ = 0;
  std::size_t count_ = 0;
  ProcId exited_ = kNoProc;  // the process whose pages on_free dropped last
};

}  // namespace

PAGESIM_REGISTER_POLICY(Fifo, "fifo", "first in, first out");

}  // namespace pagesim
