// Writeback-weighted MIN (prescient): MIN where a dirty page looks (1 + w) times nearer than
// it is. Of the farthest clean page c and the farthest dirty page d (next uses n_c, n_d at the
// faulting access t), evict d only if
//
//   n_d - t > (1 + w) * (n_c - t)
//
// else c. "Clean" is any page whose eviction is no swap-out (a dirty file page too). w = 0
// makes MIN's faults and `belady`'s swap-outs, w = infinity is `belady_clean_first`;
// in between it trades a swap-out now against the extra faults (and the evictions they force
// later) of evicting a clean page that is needed soon. A next use of "never" counts as the end
// of the trace. This is the weighted form of furthest-first for writeback-aware caching, where
// an eviction's cost is the miss plus w writebacks (Beckmann, Gibbons, Haeupler, McGuffey,
// "Writeback-Aware Caching", APOCS 2020; their Writeback-Aware Landlord weighs the same two
// costs online). Not the "conservative furthest-first" of Farach-Colton and Liberatore, which
// restricts the choice to evictions that keep MIN's fault count (see README).
//
// Parameter dirty_weight (w, default 1.5, 0..1e9).
//
//   on every access to p:  push (next_use(p), p) on the clean or the dirty heap
//   select victim:         compare the tops as above
#include "pagesim/prescient.hpp"
#include "pagesim/registry.hpp"

namespace pagesim {
namespace {

class BeladyWeighted final : public Policy {
 public:
  explicit BeladyWeighted(const Params& params)
      : weight_(params.get_double("dirty_weight", 1.5, 0.0, 1e9)) {}

  PolicyTraits traits() const override { return {/*needs_hits=*/true, /*needs_future=*/true}; }
  void reset(std::size_t num_pages, std::size_t frames) override {
    heaps_.reset(num_pages, frames);
    now_ = 0;
  }
  void on_hit(const Access& a, PageTableView view) override { access(a, view); }
  void on_fault(const Access& a, PageTableView view) override { access(a, view); }
  // A freed page's entries turn stale as the engine marks it non-resident: the heaps skip
  // and drop them like those of an evicted page.
  void on_free(PageId /*page*/, PageTableView /*view*/) override {}
  void select_victims(std::size_t want, PageTableView view, VictimList& out) override {
    // Victims are chosen for the access after the last one seen (every access is seen).
    const double t = static_cast<double>(now_ + 1);
    const double end = static_cast<double>(view.trace().size());
    const auto distance = [&](std::uint32_t next_use) {
      return (next_use == kNever ? end : static_cast<double>(next_use)) - t;
    };
    while (out.size() < want) {
      std::uint32_t nc = 0;
      std::uint32_t nd = 0;
      const bool clean = heaps_.top_clean(view, nc);
      const bool dirty = heaps_.top_dirty(view, nd);
      if (clean && (!dirty || distance(nd) <= (1.0 + weight_) * distance(nc))) {
        out.push_back(heaps_.pop_clean());
      } else if (dirty) {
        out.push_back(heaps_.pop_dirty());
      } else {
        break;
      }
    }
  }

 private:
  void access(const Access& a, PageTableView view) {
    now_ = a.index;
    heaps_.access(a.page, a.next_use, view);
  }

  double weight_;
  AccessIndex now_ = 0;
  NextUseHeaps heaps_;
};

}  // namespace

PAGESIM_REGISTER_POLICY(BeladyWeighted, "belady_weighted",
                        "prescient: farthest next use, dirty pages weighted (1+dirty_weight) nearer");

}  // namespace pagesim
