// Belady's MIN (prescient): evict the resident page whose next use lies farthest in the
// future. L. A. Belady, "A study of replacement algorithms for a virtual-storage computer",
// IBM Systems Journal 5(2), 1966; optimal in faults for demand paging (Mattson et al. 1970).
//
// Ties only arise between pages that are never used again. Among those, prefer a clean page
// (evicting it costs no write), then the lowest page id: MIN's fault count is unchanged and
// no tie-break gives fewer swap-outs at that point.
//
//   on every access at time t to page p, with next use u:
//     if p was resident: remove its old key, which is t (its previous access's next use)
//     u finite: insert u into `upcoming`;  u never: insert p into never_clean or never_dirty
//   select victim: the lowest page of never_clean, else of never_dirty, else the page of
//                  the largest time in `upcoming` (page = trace[u]: each time has one page)
//
// Keys are access times, so `upcoming` is a bit set over time (BitTree): O(1)-ish insert,
// erase and max, one bit per access instead of a heap of (key, page) entries.
#include "pagesim/bit_tree.hpp"
#include "pagesim/registry.hpp"

namespace pagesim {
namespace {

class Belady final : public Policy {
 public:
  explicit Belady(const Params& /*params*/) {}

  PolicyTraits traits() const override { return {/*needs_hits=*/true, /*needs_future=*/true}; }
  void reset(std::size_t num_pages, std::size_t /*frames*/) override {
    never_clean_.reset(num_pages);
    never_dirty_.reset(num_pages);
    pages_ = nullptr;
  }
  void on_hit(const Access& a, PageTableView view) override {
    upcoming_.erase(a.index);
    insert(a, view);
  }
  void on_fault(const Access& a, PageTableView view) override {
    if (pages_ == nullptr) {
      pages_ = view.trace().pages().data();
      upcoming_.reset(view.trace().size());
    }
    insert(a, view);
  }
  // Its process has made its last access, so a resident freed page is in a never set
  // (prescient runs replay in trace order); an evicted one left every set.
  void on_free(PageId p, PageTableView view) override {
    if (!view.resident(p)) return;
    never_clean_.erase(p);
    never_dirty_.erase(p);
  }
  void select_victims(std::size_t want, PageTableView, VictimList& out) override {
    while (out.size() < want) {
      if (!never_clean_.empty()) {
        out.push_back(take_min(never_clean_));
      } else if (!never_dirty_.empty()) {
        out.push_back(take_min(never_dirty_));
      } else if (!upcoming_.empty()) {
        const std::size_t t = upcoming_.max();
        upcoming_.erase(t);
        out.push_back(pages_[t]);
      } else {
        break;
      }
    }
  }

 private:
  void insert(const Access& a, PageTableView view) {
    if (a.next_use != kNever) {
      upcoming_.insert(a.next_use);
    } else {
      (view.dirty(a.page) ? never_dirty_ : never_clean_).insert(a.page);
    }
  }
  static PageId take_min(BitTree& set) {
    const auto p = static_cast<PageId>(set.min());
    set.erase(p);
    return p;
  }

  BitTree upcoming_;
  BitTree never_clean_;
  BitTree never_dirty_;
  const PageId* pages_ = nullptr;
};

}  // namespace

PAGESIM_REGISTER_POLICY(Belady, "belady", "prescient MIN: farthest next use; clean first among ties");

}  // namespace pagesim
