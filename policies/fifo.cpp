// First In, First Out: evict the page that became resident longest ago, whatever its use.
// The policy of Belady, Nelson and Shedler, "An anomaly in space-time characteristics of
// certain programs running in a paging machine" (CACM 1969): with 1 2 3 4 1 2 5 1 2 3 4 5 it
// faults 9 times at 3 frames and 10 times at 4.
//
//   on fault:  append p to the queue; victim = head of the queue
#include <vector>

#include "pagesim/registry.hpp"

namespace pagesim {
namespace {

class Fifo final : public Policy {
 public:
  explicit Fifo(const Params& /*params*/) {}

  void reset(std::size_t /*num_pages*/, std::size_t frames) override {
    // At most `frames` pages are resident, so a ring of that size never overflows.
    ring_.assign(frames, kNoPage);
    head_ = 0;
    count_ = 0;
  }
  void on_fault(const Access& a, PageTableView) override {
    std::size_t tail = head_ + count_;
    if (tail >= ring_.size()) tail -= ring_.size();
    ring_[tail] = a.page;
    ++count_;
  }
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
};

}  // namespace

PAGESIM_REGISTER_POLICY(Fifo, "fifo", "first in, first out");

}  // namespace pagesim
