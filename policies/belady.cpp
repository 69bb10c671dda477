// Belady's MIN (prescient): evict the resident page whose next use lies farthest in the
// future. L. A. Belady, "A study of replacement algorithms for a virtual-storage computer",
// IBM Systems Journal 5(2), 1966; optimal in faults for demand paging (Mattson et al. 1970).
//
// Ties only arise between pages that are never used again. Among those, prefer a clean page
// (evicting it costs no write), then the lowest page id: MIN's fault count is unchanged and
// the swap-outs are the fewest any tie-break can give at that point.
//
//   on every access to p:  key(p) = (next_use, clean, -page); push (key, p)
//   select victim:         pop the largest key; skip entries that are stale (the page was
//                          accessed again since, or is no longer resident)
// Stale entries are dropped in bulk when the heap grows past twice the frames.
#include <algorithm>
#include <vector>

#include "pagesim/registry.hpp"

namespace pagesim {
namespace {

class Belady final : public Policy {
 public:
  explicit Belady(const Params& /*params*/) {}

  PolicyTraits traits() const override { return {/*needs_hits=*/true, /*needs_future=*/true}; }
  void reset(std::size_t num_pages, std::size_t frames) override {
    key_.assign(num_pages, 0);
    heap_.clear();
    heap_.reserve(2 * frames + 2);
    compact_at_ = 2 * frames + 1;
  }
  void on_hit(const Access& a, PageTableView view) override { update(a, view); }
  void on_fault(const Access& a, PageTableView view) override { update(a, view); }
  void select_victims(std::size_t want, PageTableView view, VictimList& out) override {
    while (out.size() < want && !heap_.empty()) {
      std::pop_heap(heap_.begin(), heap_.end());
      const Entry e = heap_.back();
      heap_.pop_back();
      if (view.resident(e.page) && key_[e.page] == e.key) out.push_back(e.page);
    }
  }

 private:
  struct Entry {
    std::uint64_t key;
    PageId page;
    bool operator<(const Entry& o) const { return key < o.key; }
  };

  void update(const Access& a, PageTableView view) {
    const std::uint64_t clean = view.dirty(a.page) ? 0 : 1;
    const std::uint64_t key = (std::uint64_t{a.next_use} << 33) | (clean << 32) |
                              (std::uint64_t{0xffffffffu} - a.page);
    key_[a.page] = key;
    if (heap_.size() >= compact_at_) compact(view);
    heap_.push_back(Entry{key, a.page});
    std::push_heap(heap_.begin(), heap_.end());
  }

  void compact(PageTableView view) {
    heap_.erase(std::remove_if(heap_.begin(), heap_.end(),
                               [&](const Entry& e) {
                                 return !view.resident(e.page) || key_[e.page] != e.key;
                               }),
                heap_.end());
    std::make_heap(heap_.begin(), heap_.end());
  }

  std::vector<std::uint64_t> key_;
  std::vector<Entry> heap_;
  std::size_t compact_at_ = 0;
};

}  // namespace

PAGESIM_REGISTER_POLICY(Belady, "belady", "prescient MIN: farthest next use; clean first among ties");

}  // namespace pagesim
