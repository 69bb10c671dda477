// Clean-first MIN (prescient): evict a page whose eviction writes nothing, the one whose next
// use is farthest; only when every resident page is dirty, the dirty page whose next use is
// farthest. The "clean first" heuristic for writeback-aware caching and local register
// allocation (Farach-Colton and Liberatore, "On local register allocation", J. Algorithms
// 2000; Beckmann, Gibbons, Haeupler, McGuffey, "Writeback-Aware Caching", APOCS 2020).
//
// Variant: "clean" means the eviction is not a swap-out: a clean page, or a file page (its
// write goes to the file). Pages never used again count as farthest; among them the lowest
// page id. It minimises swap-outs greedily at each eviction and may fault much more than MIN.
//
//   on every access to p:  push (next_use(p), p) on the clean or the dirty heap
//   select victim:         v = farthest valid page of the clean heap,
//                          or, if there is none, of the dirty heap
#include "pagesim/prescient.hpp"
#include "pagesim/registry.hpp"

namespace pagesim {
namespace {

class BeladyCleanFirst final : public Policy {
 public:
  explicit BeladyCleanFirst(const Params& /*params*/) {}

  PolicyTraits traits() const override { return {/*needs_hits=*/true, /*needs_future=*/true}; }
  void reset(std::size_t num_pages, std::size_t frames) override { heaps_.reset(num_pages, frames); }
  void on_hit(const Access& a, PageTableView view) override { heaps_.access(a.page, a.next_use, view); }
  void on_fault(const Access& a, PageTableView view) override { heaps_.access(a.page, a.next_use, view); }
  // A freed page's entries turn stale as the engine marks it non-resident: the heaps skip
  // and drop them like those of an evicted page.
  void on_free(PageId /*page*/, PageTableView /*view*/) override {}
  void select_victims(std::size_t want, PageTableView view, VictimList& out) override {
    std::uint32_t next_use = 0;
    while (out.size() < want) {
      if (heaps_.top_clean(view, next_use)) {
        out.push_back(heaps_.pop_clean());
      } else if (heaps_.top_dirty(view, next_use)) {
        out.push_back(heaps_.pop_dirty());
      } else {
        break;
      }
    }
  }

 private:
  NextUseHeaps heaps_;
};

}  // namespace

PAGESIM_REGISTER_POLICY(BeladyCleanFirst, "belady_clean_first",
                        "prescient: farthest next use among clean pages, dirty only if none is clean");

}  // namespace pagesim
