#pragma once

#include <cstddef>
#include <cstdint>
#include <string>
#include <vector>

#include "pagesim/error.hpp"
#include "pagesim/page_table.hpp"
#include "pagesim/params.hpp"
#include "pagesim/policy.hpp"
#include "pagesim/result.hpp"
#include "pagesim/swap.hpp"
#include "pagesim/trace.hpp"

namespace pagesim {

// Engine settings, read from the run's Params.
struct EngineConfig {
  // Memory size in page frames (key "frames", required, >= 1).
  std::size_t frames = 0;
  // Free the swap slot when a page is swapped in, making the page dirty (key
  // "free_slot_on_swapin"; Linux does this when swap is more than half full). Default: the
  // swap cache keeps the slot and a clean re-eviction writes nothing.
  bool free_slot_on_swapin = false;

  static EngineConfig from_params(const Params& params);
};

// Replays a trace against one policy. The per-access loop is a template over the policy type:
// a built-in policy (declared `final`) gets its callbacks inlined, a Policy& goes through
// virtual calls (Python-defined and user policies).
class Engine {
 public:
  Engine(const Trace& trace, const EngineConfig& config, std::string policy_name);

  template <class P>
  Result run(P& policy);

  // next_use[i] = index of the next access to the page of access i, or kNever.
  static std::vector<std::uint32_t> compute_next_use(const Trace& trace);

 private:
  PageTableView view() { return PageTableView(bits_.data(), &trace_, config_.frames, &resident_); }
  Access make_access(std::size_t i) const;
  // Makes room for one page: asks the policy for a victim and evicts it.
  template <class P>
  void reclaim(P& policy, std::size_t index);
  // Checks and evicts the nominated victims, then tells the policy.
  void evict_victims(std::size_t want, std::size_t index);
  void evict(PageId p);
  // Counts a fault on access i and makes its page resident.
  void fault_in(std::size_t i);
  Result finish();

  const Trace& trace_;
  EngineConfig config_;
  std::string policy_name_;
  std::vector<std::uint8_t> bits_;
  std::vector<std::uint32_t> next_use_;
  std::vector<SlotId> slot_;
  std::size_t resident_ = 0;
  SwapMap swap_;
  Counters total_;
  std::vector<Counters> per_proc_;
  VictimList victims_;
};

template <class P>
void Engine::reclaim(P& policy, std::size_t index) {
  victims_.clear();
  policy.select_victims(1, view(), victims_);
  evict_victims(1, index);
  for (PageId v : victims_) policy.on_evict(v, view());
}

template <class P>
Result Engine::run(P& policy) {
  const PolicyTraits traits = policy.traits();
  if (traits.needs_future) next_use_ = compute_next_use(trace_);
  policy.reset(trace_.num_pages(), config_.frames);

  const PageId* pages = trace_.pages().data();
  const std::uint8_t* flags = trace_.flags().data();
  std::uint8_t* bits = bits_.data();
  const std::size_t n = trace_.size();
  for (std::size_t i = 0; i < n; ++i) {
    const PageId p = pages[i];
    const auto dirty = static_cast<std::uint8_t>((flags[i] & Trace::kWrite) * page_bits::kDirty);
    if (bits[p] & page_bits::kResident) {
      bits[p] = static_cast<std::uint8_t>(bits[p] | page_bits::kReferenced | dirty);
      if (traits.needs_hits) policy.on_hit(make_access(i), view());
      continue;
    }
    if (resident_ == config_.frames) reclaim(policy, i);
    fault_in(i);
    policy.on_fault(make_access(i), view());
  }
  return finish();
}

}  // namespace pagesim
