// Segment MIN (prescient): clean first, then the dirty page whose next WRITE is farthest.
// A heuristic for the fewest swap-outs derived from the lower bound in libsim/src/prescient.cpp:
// a page written at a and next written at a' (or never) costs one swap-out iff it is evicted
// at least once inside its write segment [a, a'), and keeping a segment whole is an interval
// packing problem, for which "drop the interval that ends last" (Belady's rule applied to
// segments instead of accesses) is the optimal greedy. A clean page costs nothing to evict
// and needs a frame only at its own accesses, so it goes first (farthest next use first, as
// MIN, to refault as late as possible). Once a dirty page is evicted its segment is paid for:
// it comes back clean (swap cache) and is free to evict again until its next write.
// (Farach-Colton and Liberatore, "On local register allocation", J. Algorithms 2000, for the
// clean/dirty cost model; Beckmann, Gibbons, Haeupler, McGuffey, "Writeback-Aware Caching",
// APOCS 2020, for the dirty-interval view of writebacks.)
//
// Variant: among dirty pages, the segment end is the page's next write, or "never" (the end
// of the trace) if it is not written again: those go first. Ties by lowest page id.
//
//   once:                    next_write[i] = next write to page(i) after access i, or never
//   on every access i to p:  push p on the clean heap (key next_use) or, if dirty, on the
//                            dirty heap (key next_write[i])
//   select victim:           top of the clean heap, else top of the dirty heap
#include <vector>

#include "pagesim/prescient.hpp"
#include "pagesim/registry.hpp"

namespace pagesim {
namespace {

class BeladySegment final : public Policy {
 public:
  explicit BeladySegment(const Params& /*params*/) {}

  PolicyTraits traits() const override { return {/*needs_hits=*/true, /*needs_future=*/true}; }
  void reset(std::size_t num_pages, std::size_t frames) override {
    heaps_.reset(num_pages, frames);
    next_write_.clear();
  }
  void on_hit(const Access& a, PageTableView view) override { access(a, view); }
  void on_fault(const Access& a, PageTableView view) override { access(a, view); }
  // A freed page's entries turn stale as the engine marks it non-resident: the heaps skip
  // and drop them like those of an evicted page.
  void on_free(PageId /*page*/, PageTableView /*view*/) override {}
  void select_victims(std::size_t want, PageTableView view, VictimList& out) override {
    std::uint32_t key = 0;
    while (out.size() < want) {
      if (heaps_.top_clean(view, key)) {
        out.push_back(heaps_.pop_clean());
      } else if (heaps_.top_dirty(view, key)) {
        out.push_back(heaps_.pop_dirty());
      } else {
        break;
      }
    }
  }

 private:
  void access(const Access& a, PageTableView view) {
    // The engine replays in trace order whenever next_use is available (needs_future).
    if (next_write_.empty()) compute_next_write(view.trace());
    heaps_.access(a.page, a.next_use, next_write_[a.index], view);
  }

  void compute_next_write(const Trace& trace) {
    next_write_.assign(trace.size(), kNever);
    std::vector<std::uint32_t> upcoming(trace.num_pages(), kNever);
    for (std::size_t i = trace.size(); i-- > 0;) {
      next_write_[i] = upcoming[trace.page(i)];
      if (trace.write(i)) upcoming[trace.page(i)] = static_cast<std::uint32_t>(i);
    }
  }

  NextUseHeaps heaps_;
  std::vector<std::uint32_t> next_write_;
};

}  // namespace

PAGESIM_REGISTER_POLICY(BeladySegment, "belady_segment",
                        "prescient: clean first (farthest next use), then the dirty page written again last");

}  // namespace pagesim
