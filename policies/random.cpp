// Random replacement: evict a resident page chosen uniformly at random. The baseline of
// Belady, "A study of replacement algorithms for a virtual-storage computer" (IBM Systems
// Journal 1966), and the meaningful reference point for Linux 2.4, whose virtual-address
// swap_out hand made eviction quasi-random with respect to recency.
//
// Deterministic: the same `seed` (default 1) gives the same victims on the same trace.
//   resident[] holds the resident pages; victim = resident[rng.below(n)], removed by moving
//   the last entry into its place.
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
    resident_.reserve(frames);
    position_.assign(num_pages, 0);
  }
  void on_fault(const Access& a, PageTableView) override {
    position_[a.page] = static_cast<std::uint32_t>(resident_.size());
    resident_.push_back(a.page);
  }
  PageId select_victim(PageTableView) {
    if (resident_.empty()) return kNoPage;
    const auto k = static_cast<std::uint32_t>(rng_.below(resident_.size()));
    const PageId victim = resident_[k];
    resident_[k] = resident_.back();
    position_[resident_[k]] = k;
    resident_.pop_back();
    return victim;
  }
  void select_victims(std::size_t want, PageTableView view, VictimList& out) override {
    for (PageId v; out.size() < want && (v = select_victim(view)) != kNoPage;) out.push_back(v);
  }

 private:
  std::uint64_t seed_;
  Rng rng_;
  std::vector<PageId> resident_;
  std::vector<std::uint32_t> position_;
};

}  // namespace

PAGESIM_REGISTER_POLICY(RandomPolicy, "random", "uniformly random resident page (seeded)");

}  // namespace pagesim
