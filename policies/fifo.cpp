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
    dead_ = 0;
  }
  void on_fault(const Access& a, PageTableView view) override {
    if (dead_ != 0) drop_dead(view);
    std::size_t tail = head_ + count_;
    if (tail >= ring_.size()) tail -= ring_.size();
    ring_[tail] = a.page;
    ++count_;
  }
  // A freed page leaves the queue at the next fault or reclaim (the ring has room for `frames`
  // pages, and until then it counts against them).
  void on_free(PageId p, PageTableView view) override { dead_ += view.resident(p); }
  PageId select_victim(PageTableView view) {
    if (dead_ != 0) drop_dead(view);
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
  // Drops the pages no longer resident (freed: a victim leaves at once), keeping the order.
  void drop_dead(PageTableView view) {
    std::size_t kept = 0;
    for (std::size_t k = 0; k < count_; ++k) {
      const PageId p = ring_[(head_ + k) % ring_.size()];
      if (view.resident(p)) ring_[(head_ + kept++) % ring_.size()] = p;
    }
    count_ = kept;
    dead_ = 0;
  }

  static constexpr std::size_t kAhead = 4;
  std::vector<PageId> ring_;
  std::size_t head_ = 0;
  std::size_t count_ = 0;
  std::size_t dead_ = 0;  // freed pages still in the ring
};

}  // namespace

PAGESIM_REGISTER_POLICY(Fifo, "fifo", "first in, first out");

}  // namespace pagesim
