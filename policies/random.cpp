// Random replacement: evict a resident page chosen uniformly at random. The baseline of
// Belady, "A study of replacement algorithms for a virtual-storage computer" (IBM Systems
// Journal 1966), and the meaningful reference point for Linux 2.4, whose virtual-address
// swap_out hand made eviction quasi-random with respect to recency.
//
// Deterministic: the same `seed` (default 1) gives the same victims on the same trace.
//   resident[] holds the resident pages; victim = resident[rng.below(n)], removed by moving
//   the last entry into its place.
#include <algorithm>
#include <vector>

#include "pagesim/registry.hpp"
#include "pagesim/rng.hpp"

namespace pagesim {
namespace {

class RandomPolicy final : public Policy {
 public:
  explicit RandomPolicy(const Params& params)
      : seed_(static_cast<std::uint64_t>(params.get_int("seed", 1, 0, INT64_MAX))) {}

  void reset(std::size_t num_pages, std::size_t frames) override {
    rng_.reseed(seed_);
    resident_.clear();
    exited_ = kNoProc;
    resident_.reserve(std::min(frames, num_pages));
  }
  void on_fault(const Access& a, PageTableView) override {
    resident_.push_back(a.page);
  }
  // An exit frees every anonymous page of one process, in consecutive calls: the first drops
  // them all from resident_, keeping the others' order (no check on the hot paths).
  void on_free(PageId p, PageTableView view) override {
    const ProcId q = view.proc(p);
    if (q == exited_) return;
    exited_ = q;
    resident_.erase(std::remove_if(resident_.begin(), resident_.end(),
                                   [&](PageId e) {
                                     return view.proc(e) == q && view.kind(e) == PageKind::kAnon;
                                   }),
                    resident_.end());
  }
  static constexpr bool pagesim_select_victim_fast_path = true;  // see policy.hpp
  PageId select_victim(PageTableView view) {
    if (resident_.empty()) return kNoPage;
    const std::size_t k = rng_.below(resident_.size());
    const PageId victim = resident_[k];
    resident_[k] = resident_.back();
    resident_.pop_back();
    // The next victims lie anywhere, but the draws that choose them are known already: a copy
    // of the generator makes them. Fetch the page bits of the next victim and the entry of the
    // one after, assuming as many resident pages then (one in, one out: demand paging); a
    // wrong guess costs only a wasted fetch.
    if (!resident_.empty()) {
      Rng ahead = rng_;
      const std::size_t n = resident_.size() + 1;
      const std::size_t last = resident_.size() - 1;
      view.prefetch(resident_[std::min<std::size_t>(ahead.below(n), last)]);
      __builtin_prefetch(resident_.data() + std::min<std::size_t>(ahead.below(n), last));
    }
    return victim;
  }
  void select_victims(std::size_t want, PageTableView view, VictimList& out) override {
    for (PageId v; out.size() < want && (v = select_victim(view)) != kNoPage;) out.push_back(v);
  }

 private:
  std::uint64_t seed_;
  Rng rng_;
  std::vector<PageId> resident_;
  ProcId exited_ = kNoProc;  // the process whose pages on_free dropped last
};

}  // namespace

PAGESIM_REGISTER_POLICY(RandomPolicy, "random", "uniformly random resident page (seeded)");

}  // namespace pagesim
