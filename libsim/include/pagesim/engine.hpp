#pragma once

#include <cstddef>
#include <cstdint>
#include <string>
#include <type_traits>
#include <utility>
#include <vector>

#include "pagesim/error.hpp"
#include "pagesim/page_array.hpp"
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
  // kswapd-like batch reclaim (keys "low_watermark", "high_watermark", in frames): when a
  // fault finds at most `low` free frames, reclaim until `high` are free. Default 0/0: one
  // victim per fault, when memory is full (textbook demand paging).
  std::size_t low_watermark = 0;
  std::size_t high_watermark = 0;
  // Virtual CPU time of one access (key "cpu_ns"); drives on_tick.
  Tick cpu_ns = 100;

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
  static PageArray<std::uint32_t> compute_next_use(const Trace& trace);

 private:
  PageTableView view() { return PageTableView(bits_.data(), &trace_, config_.frames, &resident_); }
  Access make_access(std::size_t i) const;
  // Makes room for one page: asks the policy for a victim and evicts it.
  template <class P>
  void reclaim(P& policy, std::size_t index);
  // Frames to reclaim before the next fault, 0 if none.
  std::size_t reclaim_want() const;
  // Throws PolicyError unless victims_ holds 1..want distinct resident pages (at least one
  // when no frame is free).
  void check_victims(std::size_t want, std::size_t index) const;
  void evict(PageId p);
  // Counts a fault on access i and makes its page resident.
  void fault_in(std::size_t i);
  // Counters of the process owning page p (the only one, in a single-process trace).
  Counters& counters_of(PageId p) {
    return per_proc_.size() == 1 ? per_proc_[0] : per_proc_[trace_.page_proc(p)];
  }
  Result finish();

  const Trace& trace_;
  EngineConfig config_;
  std::string policy_name_;
  PageArray<std::uint8_t> bits_;
  PageArray<std::uint32_t> next_use_;
  PageArray<SlotId> slot_;
  std::size_t resident_ = 0;
  SwapMap swap_;
  Counters total_;
  std::vector<Counters> per_proc_;
  VictimList victims_;
};

inline Access Engine::make_access(std::size_t i) const {
  Access a;
  a.index = i;
  a.page = trace_.page(i);
  a.proc = trace_.page_proc(a.page);
  a.write = trace_.write(i);
  a.kind = (bits_[a.page] & page_bits::kFile) ? PageKind::kFile : PageKind::kAnon;
  a.next_use = next_use_.empty() ? kNever : next_use_[i];
  return a;
}

inline void Engine::fault_in(std::size_t i) {
  const PageId p = trace_.page(i);
  std::uint8_t& b = bits_[p];
  Counters& proc = counters_of(p);
  ++proc.faults;
  if (!(b & (page_bits::kSeen | page_bits::kFile))) {
    ++proc.minor_faults;
  } else {
    ++proc.major_faults;
    if (b & page_bits::kInSwap) {
      ++proc.swap_ins;
      if (config_.free_slot_on_swapin) {
        swap_.release(slot_[p]);
        slot_[p] = kNoSlot;
        b = static_cast<std::uint8_t>((b & ~page_bits::kInSwap) | page_bits::kDirty);
      }
    } else if (b & page_bits::kFile) {
      ++proc.file_reads;
    } else {
      ++proc.zero_refills;
    }
  }
  b = static_cast<std::uint8_t>(b | page_bits::kResident | page_bits::kSeen |
                                page_bits::kReferenced);
  if (trace_.write(i)) b = static_cast<std::uint8_t>(b | page_bits::kDirty);
  ++resident_;
}

inline void Engine::evict(PageId p) {
  std::uint8_t& b = bits_[p];
  Counters& proc = counters_of(p);
  ++proc.evictions;
  if (b & page_bits::kDirty) {
    ++proc.evictions_dirty;
    if (b & page_bits::kFile) {
      ++proc.file_writes;
    } else {
      ++proc.swap_outs;
      // kInSwap mirrors slot_[p] != kNoSlot; testing the bit spares a cache miss.
      if (!(b & page_bits::kInSwap)) slot_[p] = swap_.allocate();
      b = static_cast<std::uint8_t>(b | page_bits::kInSwap);
    }
  } else {
    ++proc.evictions_clean;
  }
  b = static_cast<std::uint8_t>(
      b & ~(page_bits::kResident | page_bits::kDirty | page_bits::kReferenced));
  --resident_;
}

template <class P>
void Engine::reclaim(P& policy, std::size_t index) {
  const std::size_t want = reclaim_want();
  if (want == 0) return;
  victims_.clear();
  policy.select_victims(want, view().with_incoming(trace_.page(index)), victims_);
  // The common case, one resident victim for one wanted, is checked inline.
  const bool simple = want == 1 && victims_.size() == 1 && victims_[0] < bits_.size() &&
                      (bits_[victims_[0]] & page_bits::kResident);
  if (!simple) check_victims(want, index);
  for (PageId v : victims_) evict(v);
  for (PageId v : victims_) policy.on_evict(v, view());
}

namespace detail {
// Built-in policies may declare prefetch(PageId page, int stage): the replay loop calls it for
// the page of access i+2*kPrefetchDistance (stage 0) and i+kPrefetchDistance (stage 1), so the
// random loads of a run overlap instead of waiting one after another.
inline constexpr std::size_t kPrefetchDistance = 16;
template <class P, class = void>
struct HasPrefetch : std::false_type {};
template <class P>
struct HasPrefetch<P, std::void_t<decltype(std::declval<P&>().prefetch(PageId{}, 0))>>
    : std::true_type {};
}  // namespace detail

template <class P>
Result Engine::run(P& policy) {
  const PolicyTraits traits = policy.traits();
  if (traits.needs_future) next_use_ = compute_next_use(trace_);
  policy.reset(trace_.num_pages(), config_.frames);

  const PageId* pages = trace_.pages().data();
  const std::uint8_t* flags = trace_.flags().data();
  std::uint8_t* bits = bits_.data();
  const std::size_t n = trace_.size();
  Tick now = 0;
  Tick next_tick = traits.tick_ns;
  for (std::size_t i = 0; i < n; ++i) {
    if (traits.tick_ns != 0) {
      now += config_.cpu_ns;
      if (now >= next_tick) {
        policy.on_tick(now, view());
        next_tick += traits.tick_ns;
        if (next_tick <= now) next_tick = now + traits.tick_ns;
      }
    }
    constexpr std::size_t d = detail::kPrefetchDistance;
    if (i + 2 * d < n) {
      __builtin_prefetch(bits + pages[i + 2 * d], 1);
      if constexpr (detail::HasPrefetch<P>::value) {
        policy.prefetch(pages[i + 2 * d], 0);
        policy.prefetch(pages[i + d], 1);
      }
    }
    const PageId p = pages[i];
    const auto dirty = static_cast<std::uint8_t>((flags[i] & Trace::kWrite) * page_bits::kDirty);
    if (bits[p] & page_bits::kResident) {
      bits[p] = static_cast<std::uint8_t>(bits[p] | page_bits::kReferenced | dirty);
      if (traits.needs_hits) policy.on_hit(make_access(i), view());
      continue;
    }
    if (resident_ + config_.low_watermark >= config_.frames) reclaim(policy, i);
    fault_in(i);
    policy.on_fault(make_access(i), view());
  }
  return finish();
}

}  // namespace pagesim
