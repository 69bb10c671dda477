// Belady's MIN (prescient): evict the resident page whose next use lies farthest in the
// future. L. A. Belady, "A study of replacement algorithms for a virtual-storage computer",
// IBM Systems Journal 5(2), 1966; optimal in faults for demand paging (Mattson et al. 1970).
//
// Ties only arise between pages that are never used again. Among those, prefer a clean page
// (evicting it costs no write), then a dirty file page (a write to its file, not a swap-out),
// then a dirty anonymous page, each the lowest page id first: MIN's fault count is unchanged
// and no tie-break gives fewer swap-outs or fewer writes at that point.
//
//   on every access at time t to page p, with next use u:
//     if p was resident: remove its old key, which is t (its previous access's next use)
//     u finite: insert u into `upcoming`;
//     u never: insert p into never_[clean], never_[file] (dirty) or never_[anon] (dirty)
//   select victim: the lowest page of the first non-empty never_ set in that order, else the
//                  page of the largest time in `upcoming` (page = trace[u]: one page a time)
//
// Keys are access times, so `upcoming` is a bit set over time (BitTree): O(1)-ish insert,
// erase and max, one bit per access instead of a heap of (key, page) entries.
#include <algorithm>
#include <iterator>

#include "pagesim/bit_tree.hpp"
#include "pagesim/registry.hpp"

namespace pagesim {
namespace {

class Belady final : public Policy {
 public:
  explicit Belady(const Params& /*params*/) {}

  PolicyTraits traits() const override { return {/*needs_hits=*/true, /*needs_future=*/true}; }
  void reset(std::size_t num_pages, std::size_t /*frames*/) override {
    for (BitTree& set : never_) set.reset(num_pages);
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
    for (BitTree& set : never_) set.erase(p);
  }
  void select_victims(std::size_t want, PageTableView, VictimList& out) override {
    while (out.size() < want) {
      BitTree* never = std::find_if(std::begin(never_), std::end(never_),
                                    [](const BitTree& set) { return !set.empty(); });
      if (never != std::end(never_)) {
        out.push_back(take_min(*never));
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
    } else if (!view.dirty(a.page)) {
      never_[kClean].insert(a.page);
    } else {
      never_[view.kind(a.page) == PageKind::kFile ? kFile : kAnon].insert(a.page);
    }
  }
  static PageId take_min(BitTree& set) {
    const auto p = static_cast<PageId>(set.min());
    set.erase(p);
    return p;
  }

  // Pages never used again, by what evicting them costs.
  enum { kClean, kFile, kAnon };
  BitTree upcoming_;
  BitTree never_[3];
  const PageId* pages_ = nullptr;
};

}  // namespace

PAGESIM_REGISTER_POLICY(Belady, "belady", "prescient MIN: farthest next use; clean first among ties");

}  // namespace pagesim
