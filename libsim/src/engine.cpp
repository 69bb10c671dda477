#include "pagesim/engine.hpp"

#include <algorithm>
#include <array>
#include <sstream>
#include <string>
#include <utility>
#include <variant>

#include "pagesim/timing.hpp"

namespace pagesim {
namespace {

// More rows than this means the interval is far too small for the run.
constexpr std::size_t kMaxVmstatRows = 1'000'000;

// Key "free_slot_on_swapin": a mode's name, or a boolean for always or never.
SlotFreeing slot_freeing(const Params& params) {
  constexpr std::string_view kKey = "free_slot_on_swapin";
  const auto given = params.values().find(kKey);
  const auto* number =
      given == params.values().end() ? nullptr : std::get_if<std::int64_t>(&given->second);
  if (given != params.values().end() &&
      (std::holds_alternative<bool>(given->second) || (number && (*number == 0 || *number == 1)))) {
    return params.get_bool(kKey, false) ? SlotFreeing::kAlways : SlotFreeing::kOff;
  }
  std::string mode;
  try {
    mode = params.get_choice(kKey, "swap_full",
                             {"swap_full", "never", "always", "write", "write_fault"});
  } catch (const ConfigError& e) {
    throw ConfigError(std::string(e.what()) + " (or a boolean: true for always, false for never)");
  }
  return mode == "swap_full" ? SlotFreeing::kWhenSwapHalfFull
         : mode == "never"   ? SlotFreeing::kOff
         : mode == "always"  ? SlotFreeing::kAlways
         : mode == "write"   ? SlotFreeing::kAtWrite
                             : SlotFreeing::kAtWriteFault;
}

}  // namespace

EngineConfig EngineConfig::from_params(const Params& params) {
  EngineConfig config;
  if (!params.has("frames")) {
    params.get_int("frames", 0, 1, 0);  // registers the key for suggestions
    throw ConfigError("parameter 'frames' is required: memory size in page frames, at least 1");
  }
  config.frames = static_cast<std::size_t>(params.get_int("frames", 0, 1, std::int64_t{1} << 40));
  config.free_slot_on_swapin = slot_freeing(params);
  const auto frames = static_cast<std::int64_t>(config.frames);
  config.low_watermark =
      static_cast<std::size_t>(params.get_int("low_watermark", 0, 0, frames - 1));
  config.high_watermark = static_cast<std::size_t>(
      params.get_int("high_watermark", static_cast<std::int64_t>(config.low_watermark),
                     static_cast<std::int64_t>(config.low_watermark), frames - 1));
  config.cpu_ns = static_cast<Tick>(params.get_int("cpu_ns", 100, 0, std::int64_t{1} << 40));
  config.swap_slots =
      static_cast<std::size_t>(params.get_int("swap_slots", 0, 0, (std::int64_t{1} << 32) - 2));
  config.page_cluster = static_cast<unsigned>(params.get_int("page_cluster", 3, 0, 10));
  const std::string readahead =
      params.get_choice("swap_readahead", "fixed", {"fixed", "adaptive", "vma", "auto"});
  config.read_ahead_kb = static_cast<unsigned>(params.get_int("read_ahead_kb", 0, 0, 16384));
  config.device = DeviceConfig::from_params(params);
  if (readahead == "auto") {
    // Linux 4.15 to 6.x's choice by the swap device. do_swap_page reads a page of a
    // SWP_SYNCHRONOUS_IO device (zram) alone, into a page outside the swap cache, when its
    // swap count is 1, as every page's is here: no readahead, and swap_free drops the slot
    // (unless free_slot_on_swapin is given). Otherwise swapin_readahead takes
    // swap_vma_readahead unless a swap device is rotational (swap_use_vma_readahead:
    // !nr_rotate_swap). `none`, which has no seeks, counts as not rotational.
    if (config.device.kind == DeviceKind::kZram) {
      config.page_cluster = 0;
      if (!params.has("free_slot_on_swapin")) config.free_slot_on_swapin = SlotFreeing::kAlways;
    }
    config.swap_readahead =
        config.device.kind == DeviceKind::kHdd ? SwapReadahead::kAdaptive : SwapReadahead::kVma;
  } else {
    config.swap_readahead = readahead == "fixed"      ? SwapReadahead::kFixed
                            : readahead == "adaptive" ? SwapReadahead::kAdaptive
                                                      : SwapReadahead::kVma;
  }
  if (params.has("schedule")) {
    config.schedule_given = true;
    config.schedule = params.get_choice("schedule", "static", {"static", "round_robin"}) == "static"
                          ? Schedule::kStatic
                          : Schedule::kRoundRobin;
  } else {
    params.get_choice("schedule", "static", {"static", "round_robin"});
  }
  config.quantum_ns = static_cast<Tick>(
      params.get_int("quantum_ns", static_cast<std::int64_t>(config.quantum_ns), 1, std::int64_t{1} << 50));
  config.interval_ns = static_cast<Tick>(params.get_int(
      "interval_ns", static_cast<std::int64_t>(config.interval_ns), 0, std::int64_t{1} << 60));
  config.free_on_exit = params.get_bool("free_on_exit", false);
  config.page_stats = params.get_bool("page_stats", false);
  return config;
}

std::map<std::string, std::string, std::less<>> EngineConfig::parameters() {
  // Each key's range, and its default under each preset that reads it.
  struct Key {
    std::string range;
    std::vector<std::pair<std::string, std::string>> defaults;  // (default, preset)
  };
  std::map<std::string, Key, std::less<>> keys;
  const std::vector<std::string> presets = DeviceConfig::preset_names();
  for (const std::string& device : presets) {
    Params params{{"frames", std::int64_t{1}}, {"device", device}};
    from_params(params);
    for (const auto& [key, what] : params.asked()) {  // "<range> (default <value>)"
      const std::size_t at = what.rfind(" (default ");
      keys[key].range = what.substr(0, at);
      keys[key].defaults.emplace_back(what.substr(at + 10, what.size() - at - 11), device);
    }
  }
  std::map<std::string, std::string, std::less<>> out;
  for (const auto& [key, k] : keys) {
    const std::string& first = k.defaults.front().first;
    const bool one_default = k.defaults.size() == presets.size() &&
                             std::all_of(k.defaults.begin(), k.defaults.end(),
                                         [&](const auto& d) { return d.first == first; });
    std::string list;
    for (const auto& [value, device] : k.defaults) {
      list += (list.empty() ? "" : ", ") + value + " for " + device;
    }
    out[key] = k.range + " (default " + (one_default ? first : list) + ")";
  }
  // Defaults that depend on the trace, ranges that depend on frames (read above as 1) or that
  // from_params narrows after reading the key.
  const auto with_range = [&](const std::string& key, const std::string& range) {
    out[key] = range + out[key].substr(keys[key].range.size());
  };
  with_range("device_seek_ms", "number from device_track_seek_ms to 1e+06");
  with_range("device_track_seek_ms", "number from 0 to device_seek_ms");
  out["frames"] = keys["frames"].range + " (required)";
  out["swap_slots"] = keys["swap_slots"].range + " (default 0: twice the trace's pages)";
  out["schedule"] = keys["schedule"].range +
                    " (default static for a trace of one process, round_robin for several)";
  out["free_slot_on_swapin"] =
      "one of swap_full, never, always, write, write_fault; true for always, false for never "
      "(default swap_full; always for zram with swap_readahead auto)";
  out["low_watermark"] = "integer from 0 to frames - 1 (default 0)";
  out["high_watermark"] = "integer from low_watermark to frames - 1 (default low_watermark)";
  return out;
}

namespace {

std::size_t swap_size(const EngineConfig& config, const Trace& trace) {
  if (config.swap_slots != 0) return config.swap_slots;
  return std::max<std::size_t>(2 * trace.num_pages(), 1);
}

// Readahead reads a slot's neighbours and a queued device seeks to it; otherwise which slot a
// page gets changes no result, and the swap map only counts.
bool slot_positions_matter(const EngineConfig& config) {
  return config.page_cluster != 0 || config.device.kind == DeviceKind::kHdd ||
         config.device.kind == DeviceKind::kSsd;
}

// File readahead's largest window in pages, ra_pages (read_ahead_kb rounded down to pages as
// Linux's read_ahead_kb store does); 0, off, when a window could hold no page besides the
// faulting one or there are no file pages to read (`file_pages`).
std::uint32_t file_readahead_pages(const EngineConfig& config, const Trace& trace,
                                   bool file_pages) {
  const std::uint64_t pages = std::uint64_t{config.read_ahead_kb} * 1024 / trace.page_size();
  return pages >= 2 && file_pages ? static_cast<std::uint32_t>(pages) : 0;
}

// mm/readahead.c (2.6.20) for a read of one page:
//   get_init_ra_size(size, max): newsize = roundup_pow_of_two(size);
//     if (newsize <= max / 32) newsize = newsize * 4;
//     else if (newsize <= max / 4) newsize = newsize * 2;
//     else newsize = max;
std::uint32_t init_ra_size(std::uint32_t max) {
  if (max >= 32) return 4;
  if (max >= 4) return 2;
  return max;
}

//   get_next_ra_size(ra) without RA_FLAG_MISS (not modelled):
//     if (cur < max / 16) newsize = 4 * cur; else newsize = 2 * cur;
//     return min(newsize, max);
std::uint32_t next_ra_size(std::uint32_t cur, std::uint32_t max) {
  return std::min(cur < max / 16 ? 4 * cur : 2 * cur, max);
}

// Whether b is the page (or offset) after a.
bool follows(std::uint64_t a, std::uint64_t b) { return a < b && b - a == 1; }

// __swapin_nr_pages (mm/swap_state.c, 4.14 to 6.x; inline in swapin_nr_pages from 3.14): the
// readahead window of a swap-in at `offset` (a swap offset, or a page number for VMA
// readahead) after `hits` readahead hits, the last swap-in at `prev_offset` and a last window
// of `prev_win`:
//   pages = hits + 2;
//   if (pages == 2) {     /* no hits: a window of 2 only next to the last swap-in */
//     if (offset != prev_offset + 1 && offset != prev_offset - 1) pages = 1;
//   } else {
//     unsigned int roundup = 4;
//     while (roundup < pages) roundup <<= 1;
//     pages = roundup;
//   }
//   if (pages > max_pages) pages = max_pages;
//   last_ra = prev_win / 2;                        /* don't shrink readahead too fast */
//   if (pages < last_ra) pages = last_ra;
// (Without the kernel's wrap-around: the top vpn is not next to vpn 0.)
std::uint64_t swapin_window(std::uint64_t prev_offset, std::uint64_t offset, std::uint64_t hits,
                            std::uint64_t max_pages, std::uint64_t prev_win) {
  std::uint64_t pages = hits + 2;
  if (hits == 0) {
    if (!follows(prev_offset, offset) && !follows(offset, prev_offset)) pages = 1;
  } else {
    std::uint64_t roundup = 4;
    while (roundup < pages) roundup <<= 1;
    pages = roundup;
  }
  return std::max(std::min(pages, max_pages), prev_win / 2);
}

}  // namespace

Engine::Engine(const Trace& trace, const EngineConfig& config, std::string policy_name) try
    : trace_(trace),
      config_(config),
      policy_name_(std::move(policy_name)),
      schedule_(config.schedule_given   ? config.schedule
                : trace.num_procs() > 1 ? Schedule::kRoundRobin
                                        : Schedule::kStatic),
      file_pages_(trace.has_file_pages()),
      swap_(swap_size(config, trace), slot_positions_matter(config)),
      ready_at_(trace.num_procs(), 0),
      // The swap area, then a page's worth for every page (the file pages lie at its start,
      // file_position): the span over which a seek averages device_seek_ms.
      device_(config.device, swap_size(config, trace) + (file_pages_ ? trace.num_pages() : 0),
              trace.page_size(), &ready_at_) {
  if (config_.frames == 0) {
    throw ConfigError("parameter 'frames' = 0 is out of range: memory needs at least 1 frame");
  }
  // Virtual time is 64-bit nanoseconds. At most every access faults and reads its page and
  // a readahead window more (2^page_cluster, or read_ahead_kb's), and as many pages are written
  // out, each the longest request the device serves; refuse settings under which that could pass
  // 2^63 ns (292 years) rather than let the clock wrap around.
  file_ra_max_ = file_readahead_pages(config_, trace, file_pages_);
  const std::size_t window =
      std::max<std::size_t>(std::size_t{1} << config_.page_cluster, file_ra_max_);
  const double pages_moved = 2.0 * (1.0 + static_cast<double>(window));
  const double longest =
      static_cast<double>(trace.size()) *
      (static_cast<double>(config_.cpu_ns) + pages_moved * device_.longest_page_ns());
  if (longest >= 0x1p63) {
    // Name what makes it long: cpu_ns alone, or the device's figures.
    std::string what = "parameter 'cpu_ns' = " + std::to_string(config_.cpu_ns);
    if (static_cast<double>(trace.size()) * static_cast<double>(config_.cpu_ns) < 0x1p62) {
      std::ostringstream longest_page;
      longest_page << device_.longest_page_ns();
      what = "device '" + config_.device.name + "' with its figures (device_*: one page can take " +
             longest_page.str() + " ns)";
    }
    throw ConfigError(what + " could make this run of " + std::to_string(trace.size()) +
                      " accesses last beyond 2^63 ns (292 years) of virtual time: lower them");
  }
  bits_.resize(trace.num_pages());
  if (config_.page_stats) {
    for (auto* counts : {&page_stats_.faults, &page_stats_.major_faults, &page_stats_.readahead,
                         &page_stats_.evictions, &page_stats_.writes}) {
      counts->assign(trace.num_pages(), 0);
    }
  }
  for (PageId p = 0; p < trace.num_pages(); ++p) {
    if (trace.page_kind(p) == PageKind::kFile) bits_[p].set(page_bits::kFile);
  }
  if (slot_positions_matter(config_)) slot_.assign(trace.num_pages(), kNoSlot);
  vma_readahead_ = config_.page_cluster != 0 && config_.swap_readahead == SwapReadahead::kVma;
  if (vma_readahead_) {
    vma_ra_.assign(trace.num_procs(), VmaReadahead{});
    anon_by_address_ = by_address(PageKind::kAnon, anon_rank_);
    vpns_to_prefetch_ = trace.page_vpns().data();
  } else if (config_.page_cluster != 0) {
    slot_owner_.assign(swap_.size(), kNoPage);
    owners_to_prefetch_ = slot_owner_.data();
  }
  if (device_.queued_device() || config_.page_cluster != 0) slots_to_prefetch_ = slot_.data();
  per_proc_.assign(trace.num_procs(), Counters{});
  fault_tallies_.assign(trace.num_procs() * kTallies, 0);
  scanned_.assign(trace.num_procs(), 0);
  eviction_tallies_.assign(trace.num_procs() * kTallies, 0);
  one_proc_ = trace.num_procs() == 1;
  if (!one_proc_) procs_to_prefetch_ = trace.page_procs().data();
  resident_of_.assign(trace.num_procs(), 0);
  proc_time_.assign(trace.num_procs(), ProcTime{});
  vm_last_iowait_.assign(trace.num_procs(), 0);
  finish_.assign(trace.num_procs(), 0);
  ra_.reserve(window);
  if (file_pages_) {
    std::vector<AddressedPage> files = by_address(PageKind::kFile, file_rank_);
    if (file_ra_max_ != 0) file_by_rank_ = std::move(files);
  }
  if (file_ra_max_ != 0) file_streams_.assign(trace.num_procs(), FileStream{});
  demand_paging_ =
      config_.device.kind == DeviceKind::kNone && config_.high_watermark == 0 && file_ra_max_ == 0;
  readahead_waits_ = device_.queued_device() && (config_.page_cluster != 0 || file_ra_max_ != 0);
  if (config_.free_on_exit && !one_proc_) plan_exits();
  evictions_count_only_ = config_.device.kind == DeviceKind::kNone && swap_.counts_only();
  // Each anonymous page holds one slot at most.
  const SlotFreeing freeing = config_.free_slot_on_swapin;
  frees_at_write_ = freeing == SlotFreeing::kAtWrite || freeing == SlotFreeing::kAtWriteFault;
  frees_slots_ =
      freeing == SlotFreeing::kAlways || frees_at_write_ ||
      (freeing == SlotFreeing::kWhenSwapHalfFull && 2 * trace.num_pages() > swap_.size());
  if (freeing == SlotFreeing::kAtWrite) hit_watch_ |= page_bits::kInSwap;
  if (frees_slots_) swapin_after_read_.resize(trace.num_procs());
} catch (const std::bad_alloc&) {
  // The tables are a few bytes a page and a swap slot; a swap area set far beyond the trace
  // is what can outgrow memory.
  throw ConfigError("not enough memory for the tables of " + std::to_string(trace.num_pages()) +
                    " pages and " + std::to_string(swap_size(config, trace)) +
                    " swap slots: lower parameter 'swap_slots' (default: twice the pages)");
}

std::vector<Engine::AddressedPage> Engine::by_address(PageKind kind,
                                                      PageArray<std::uint32_t>& rank) const {
  // Sorted with their keys beside them: comparisons that looked the pages up in the trace's
  // columns would miss the cache at every step.
  std::vector<AddressedPage> sorted;
  for (PageId p = 0; p < trace_.num_pages(); ++p) {
    if (trace_.page_kind(p) == kind) sorted.push_back({trace_.page_proc(p), p, trace_.page_vpn(p)});
  }
  std::sort(sorted.begin(), sorted.end(), [](const AddressedPage& a, const AddressedPage& b) {
    return std::pair(a.proc, a.vpn) < std::pair(b.proc, b.vpn);
  });
  rank.assign(trace_.num_pages(), 0);
  for (std::size_t r = 0; r < sorted.size(); ++r)
    rank[sorted[r].page] = static_cast<std::uint32_t>(r);
  return sorted;
}

void Engine::plan_exits() {
  const std::size_t np = trace_.num_procs();
  exit_begin_.assign(np + 1, 0);
  for (PageId p = 0; p < trace_.num_pages(); ++p) {
    if (trace_.page_kind(p) == PageKind::kAnon) ++exit_begin_[trace_.page_proc(p) + 1];
  }
  for (ProcId q = 0; q < np; ++q) exit_begin_[q + 1] += exit_begin_[q];
  exit_pages_.resize(exit_begin_[np]);
  std::vector<std::size_t> next(exit_begin_.begin(), exit_begin_.end() - 1);
  for (PageId p = 0; p < trace_.num_pages(); ++p) {
    if (trace_.page_kind(p) == PageKind::kAnon) exit_pages_[next[trace_.page_proc(p)]++] = p;
  }
  // The static order: each process exits after its last access, unless that is the trace's.
  // A process without accesses (Trace::from_columns allows one) never runs, so never exits:
  // last_accesses gives it index 0, where run_static expects one exit at most.
  const std::vector<std::size_t> first = trace_.first_accesses();
  const std::vector<std::size_t> last = trace_.last_accesses();
  for (ProcId q = 0; q < np; ++q) {
    if (first[q] < trace_.size() && last[q] + 1 < trace_.size()) exits_.emplace_back(last[q], q);
  }
  std::sort(exits_.begin(), exits_.end());
}

namespace detail {

Admission::Admission(const std::vector<std::size_t>& first, const std::vector<std::size_t>& last)
    : behind_(first.size(), 0), ended_(first.size(), 0) {
  for (ProcId q = 0; q < last.size(); ++q) {
    if (last[q] != kNone) by_last_.push_back(q);
  }
  std::sort(by_last_.begin(), by_last_.end(),
            [&](ProcId a, ProcId b) { return last[a] < last[b]; });
  std::vector<std::size_t> lasts;
  lasts.reserve(by_last_.size());
  for (ProcId q : by_last_) lasts.push_back(last[q]);
  for (ProcId q = 0; q < first.size(); ++q) {
    if (first[q] != kNone) {
      behind_[q] = static_cast<std::size_t>(std::lower_bound(lasts.begin(), lasts.end(), first[q]) -
                                            lasts.begin());
    }
  }
}

}  // namespace detail

PageArray<std::uint32_t> Engine::compute_next_use(const Trace& trace,
                                                  PageArray<std::uint32_t>* first_use) {
  if (trace.size() >= kNever) {
    throw ConfigError("a prescient policy needs a trace of fewer than 2^32-1 accesses; this one has " +
                      std::to_string(trace.size()));
  }
  PageArray<std::uint32_t> next(trace.size());
  PageArray<std::uint32_t> upcoming(trace.num_pages(), kNever);
  const PageId* pages = trace.pages().data();
  for (std::size_t i = trace.size(); i-- > 0;) {
    next[i] = upcoming[pages[i]];
    upcoming[pages[i]] = static_cast<std::uint32_t>(i);
  }
  if (first_use != nullptr) *first_use = std::move(upcoming);
  return next;
}

void Engine::swap_full(PageId p) const {
  throw ConfigError(
      "swap is full: all " + std::to_string(swap_.size()) +
      " slots (parameter 'swap_slots') are in use, so dirty page " + trace_.describe_page(p) +
      " cannot be swapped out; raise swap_slots (0 means twice the trace's pages)" +
      (config_.free_slot_on_swapin == SlotFreeing::kOff
           ? ", or leave out free_slot_on_swapin=never (false), which keeps the slots of "
             "the pages swapped back in"
           : ""));
}

void Engine::release_slot(PageId p) {
  if (slot_.empty()) {
    swap_.release(0);  // the map only counts
    return;
  }
  const SlotId slot = slot_[p];
  swap_.release(slot);
  if (!slot_owner_.empty()) slot_owner_[slot] = kNoPage;
  slot_[p] = kNoSlot;
}

void Engine::collect_readahead(PageId p) {
  // fixed, valid_swaphandles (2.6.20): the aligned window, forward from its start, up to the
  // first free slot (one without an owner) or the end of swap; the faulting slot is part of
  // the run.
  //   toff = (swp_offset(entry) >> page_cluster) << page_cluster;
  //   if (!toff)            /* first page is swap header */
  //     toff++, i--;
  // adaptive, swap_cluster_readahead (6.1): the aligned window of swapin_nr_pages(offset)
  // offsets, each read unless it is free (__read_swap_cache_async fails: continue) or in the
  // swap cache.
  //   mask = swapin_nr_pages(offset) - 1;
  //   start_offset = offset & ~mask;  end_offset = offset | mask;
  //   if (!start_offset)    /* First page is swap header. */
  //     start_offset++;
  // The kernel's offsets count the header: slot s is offset s + 1, so the window of offsets
  // [base, base + pages) is slots [base - 1, base - 1 + pages), less the header's in the
  // first window.
  const SlotId off = slot_[p];
  const std::uint64_t offset = std::uint64_t{off} + 1;
  const bool adaptive = config_.swap_readahead == SwapReadahead::kAdaptive;
  const std::size_t pages =
      adaptive ? swapin_nr_pages(offset) : std::size_t{1} << config_.page_cluster;
  const std::size_t base = offset & ~std::uint64_t{pages - 1};
  const std::size_t start = base == 0 ? 0 : base - 1;
  const std::size_t end = std::min(base + pages - 1, swap_.size());
  device_.prefetch_read(off);
  // The window's owners share a cache line or two, their page bits lie anywhere: fetch those
  // together rather than one miss after another.
  for (std::size_t s = start; s < end; ++s) {
    if (slot_owner_[s] != kNoPage) __builtin_prefetch(&bits_[slot_owner_[s]]);
  }
  for (std::size_t s = start; s < end; ++s) {
    if (s == off) continue;
    const PageId q = slot_owner_[s];
    if (q == kNoPage) {
      if (adaptive) continue;
      break;
    }
    // Already in memory (the swap cache): read_swap_cache_async finds it, no IO.
    if (bits_[q].has(page_bits::kResident)) continue;
    ra_.push_back({q, s});
  }
}

std::size_t Engine::swapin_nr_pages(std::uint64_t offset) {
  // swapin_nr_pages (mm/swap_state.c, 3.14 to 6.x): the global state, with the hits since the
  // last call; prev_offset moves only at a swap-in without hits.
  //   hits = atomic_xchg(&swapin_readahead_hits, 0);
  //   pages = __swapin_nr_pages(READ_ONCE(prev_offset), offset, hits, max_pages,
  //                             atomic_read(&last_readahead_pages));
  //   if (!hits) WRITE_ONCE(prev_offset, offset);
  //   atomic_set(&last_readahead_pages, pages);
  const std::uint64_t hits = ra_hits_;
  ra_hits_ = 0;
  ra_last_pages_ = static_cast<std::size_t>(swapin_window(
      ra_prev_offset_, offset, hits, std::uint64_t{1} << config_.page_cluster, ra_last_pages_));
  if (hits == 0) ra_prev_offset_ = offset;
  return ra_last_pages_;
}

void Engine::collect_vma_readahead(PageId p) {
  // swap_ra_info (mm/swap_state.c, 6.1),
  // fpfn being p's vpn and pfn the VMA's last swap-in or readahead hit:
  //   max_win = 1 << min(page_cluster, SWAP_RA_ORDER_CEILING);   /* 5 on 64-bit */
  //   win = __swapin_nr_pages(pfn, fpfn, hits, max_win, prev_win);
  //   atomic_long_set(&vma->swap_readahead_info, SWAP_RA_VAL(faddr, win, 0));
  //   if (win == 1) return;
  //   if (fpfn == pfn + 1)      { lpfn = fpfn;           rpfn = fpfn + win; }  /* forward */
  //   else if (pfn == fpfn + 1) { lpfn = fpfn - win + 1; rpfn = fpfn + 1; }    /* backward */
  //   else { left = (win - 1) / 2; lpfn = fpfn - left; rpfn = fpfn + win - left; }
  //   start = max3(lpfn, PFN_DOWN(vma->vm_start), PFN_DOWN(faddr & PMD_MASK));
  //   end = min3(rpfn, PFN_DOWN(vma->vm_end), PFN_DOWN((faddr & PMD_MASK) + PMD_SIZE));
  // then swap_vma_readahead reads each page of [start, end) whose pte is a swap entry (not
  // present, not none), wherever its slot lies; all but the faulting one are readahead pages.
  // The VMA is the process's anonymous pages, bounded only by fpfn's page table (x86-64's 512
  // entries, which also keeps the window at vpn 0 or above); a vpn the trace never accesses is
  // a none pte, and a page in memory (the swap cache) needs no IO.
  constexpr std::uint64_t kSwapRaOrderCeiling = 5;
  constexpr std::uint64_t kPtesPerTable = 512;
  const std::uint64_t fpfn = trace_.page_vpn(p);
  VmaReadahead& vma = vma_ra_[proc_of(p)];
  const std::uint64_t pfn = vma.prev_vpn;
  const std::uint64_t win = swapin_window(
      pfn, fpfn, vma.hits,
      std::uint64_t{1} << std::min<std::uint64_t>(config_.page_cluster, kSwapRaOrderCeiling),
      vma.win);
  vma = VmaReadahead{fpfn, win, 0};
  if (win == 1) return;
  // The window as pages before and after fpfn, cut to the page table.
  std::uint64_t before = (win - 1) / 2;
  if (follows(pfn, fpfn)) {
    before = 0;
  } else if (follows(fpfn, pfn)) {
    before = win - 1;
  }
  const std::uint64_t table = fpfn % kPtesPerTable;  // fpfn's place in its page table
  const std::uint64_t start = fpfn - std::min(before, table);
  const std::uint64_t last = fpfn + std::min(win - 1 - before, kPtesPerTable - 1 - table);
  const auto in_swap = [&](PageId q) {
    return bits_[q].has(page_bits::kInSwap) && !bits_[q].has(page_bits::kResident);
  };
  // The process's pages next to p in anon_by_address_, down to start and up to last.
  const ProcId proc = proc_of(p);
  const std::size_t rank = anon_rank_[p];
  for (std::size_t r = rank; r-- > 0;) {
    const AddressedPage& q = anon_by_address_[r];
    if (q.proc != proc || q.vpn < start) break;
    if (in_swap(q.page)) ra_.push_back({q.page, slot_[q.page]});
  }
  for (std::size_t r = rank + 1; r < anon_by_address_.size(); ++r) {
    const AddressedPage& q = anon_by_address_[r];
    if (q.proc != proc || q.vpn > last) break;
    if (in_swap(q.page)) ra_.push_back({q.page, slot_[q.page]});
  }
  // In position order, as read_pages takes a fault's batch. The kernel issues them in address
  // order; every scheduler but fifo orders them by position anyway.
  std::sort(ra_.begin(), ra_.end(),
            [](const Readahead& a, const Readahead& b) { return a.position < b.position; });
}

void Engine::vma_readahead_hit(PageId p) {
  // lookup_swap_cache (6.1), finding a page with PG_readahead in the swap cache for a fault at
  // addr of the VMA:
  //   if (readahead) hits = min_t(int, hits + 1, SWAP_RA_HITS_MAX);   /* 63 */
  //   atomic_long_set(&vma->swap_readahead_info, SWAP_RA_VAL(addr, win, hits));
  constexpr std::uint64_t kSwapRaHitsMax = 63;
  VmaReadahead& vma = vma_ra_[proc_of(p)];
  vma.prev_vpn = trace_.page_vpn(p);
  vma.hits = std::min(vma.hits + 1, kSwapRaHitsMax);
}

void Engine::collect_file_readahead(PageId p) {
  // page_cache_readahead (2.6.20) for a read of one page at offset p, prev_page being the last
  // page of the stream's last window:
  //   sequential = (offset == ra->prev_page + 1);   // prev_page == -1 at open: the first read
  //   if (sequential && ra->size == 0) {            // the first read, or the first after a
  //     ra->size = get_init_ra_size(1, max);        // random one
  //     ra->start = offset;
  //     blockable_page_cache_readahead(mapping, filp, offset, ra->size, ra, 1);
  //   } else if (!sequential) {
  //     ra_off(ra);                                 // ra->size = 0
  //     blockable_page_cache_readahead(mapping, filp, offset, 1, ra, 1);
  //   } else {                                      // the next window (the ahead window,
  //     ...get_next_ra_size(ra)...                  // read at once here, see Engine)
  //   }
  // Hits do not move a stream (the replay loops stay as they are): a reader that goes on
  // through pages already in memory past its window faults next further on, a random read.
  // Offsets are vpns, a process's file pages its file (file_by_rank_ in offset order).
  const ProcId proc = proc_of(p);
  const std::uint64_t vpn = trace_.page_vpn(p);
  FileStream& s = file_streams_[proc];
  if (!s.follows(vpn)) {
    s.after(vpn, 1);
    s.size = 0;
    return;
  }
  s.size = s.size == 0 ? init_ra_size(file_ra_max_) : next_ra_size(s.size, file_ra_max_);
  s.after(vpn, s.size);
  // __do_page_cache_readahead: the window's pages that are not in the page cache, up to the
  // end of the file: here the first vpn that is not one of this process's file pages (a
  // page the trace never accesses is not in it: a hole ends the window too).
  const std::size_t rank = file_rank_[p];
  const std::size_t end = std::min<std::size_t>(rank + s.size, file_by_rank_.size());
  for (std::size_t r = rank + 1; r < end; ++r) {
    const AddressedPage& q = file_by_rank_[r];
    if (q.proc != proc || q.vpn != vpn + (r - rank)) break;
    if (bits_[q.page].has(page_bits::kResident)) continue;
    ra_.push_back({q.page, swap_.size() + r});
  }
}

void Engine::cut_file_window(PageId p) {
  const PageId last = ra_.empty() ? p : ra_.back().page;
  file_streams_[proc_of(p)].after(trace_.page_vpn(last), 1);
}

// read_pages, write_back and wait_for_read are flattened: the device's queue work (device.hpp)
// inlined, so that a fault makes one call into the device model, not four; a tenth of a device
// replay without readahead.
__attribute__((flatten)) bool Engine::read_pages(PageId p, ProcId proc, bool swap_in) {
  switch (config_.device.kind) {
    case DeviceKind::kNone:
      return false;
    case DeviceKind::kZram: {
      // Decompression on the faulting CPU; file pages are read from a file on another device,
      // which zram does not model (no cost).
      if (swap_in) zram_cost(proc, false, 1 + ra_.size());
      return false;
    }
    case DeviceKind::kHdd:
    case DeviceKind::kSsd:
      break;
  }
  // Readahead in position order with the faulting page in its place (one batch: adjacent
  // positions merge into one request), then unplug. The process waits for the request holding
  // its page, a swap-in (do_swap_page) as a file read (do_generic_mapping_read's lock_page);
  // the first use of a page read ahead waits for its own (readahead_pending).
  const std::uint64_t pos = swap_in ? slot_[p] : file_position(p);
  std::size_t k = 0;
  // (Behind a write of this fault that waits for room in the queue, they wait too: see
  // SwapDevice::submit.)
  for (; k < ra_.size() && ra_[k].position < pos; ++k) {
    device_.submit(ra_[k].position, false, now_, kNoProc, proc);
  }
  ready_at_[proc] = kNoTime;
  device_.submit(pos, false, now_, proc, proc);
  for (; k < ra_.size(); ++k) device_.submit(ra_[k].position, false, now_, kNoProc, proc);
  device_.advance(now_);
  return true;
}

__attribute__((flatten)) void Engine::write_back(PageId p, bool file) {
  switch (config_.device.kind) {
    case DeviceKind::kNone:
      return;
    case DeviceKind::kZram: {
      if (!file) zram_cost(cur_proc_, true, 1);  // a file page is not zram's
      return;
    }
    case DeviceKind::kHdd:
    case DeviceKind::kSsd:
      break;
  }
  // Only a queued device needs the position: zram spares the slot_ load (a cache miss).
  const std::uint64_t position = position_of(p, file);
  // Without room in the queue the writer sleeps (get_request_wait) until a request leaves it:
  // its fault ends blocked (Engine::fault), and the others run meanwhile.
  if (!device_.submit(position, true, now_, kNoProc, cur_proc_)) ready_at_[cur_proc_] = kNoTime;
}

__attribute__((flatten)) void Engine::wait_for_read(ProcId proc) {
  const Tick before = now_;
  while (ready_at_[proc] == kNoTime) {
    const Tick s = std::max(now_, device_.free_at());
    sample_until(s);
    device_.advance(s);
  }
  jump_to(ready_at_[proc]);
  book_iowait(proc, before, now_);
  book_idle(before, now_);
}

bool Engine::readahead_pending(PageId p) {
  // A swap readahead page carries its slot until its first use; a file page's place is fixed.
  device_.advance(now_);
  return device_.wait_for_read(position_of(p), now_, proc_of(p));
}

void Engine::book_in_taken_rows(Tick from, Tick to, std::vector<std::int64_t>& rows,
                                std::size_t stride, std::size_t col, Tick& counted) {
  for (std::size_t k = vm_time_.size(); k-- > 0;) {
    const auto end = static_cast<Tick>(vm_time_[k]);
    const Tick start = k == 0 ? 0 : static_cast<Tick>(vm_time_[k - 1]);
    if (end <= from) break;
    if (to <= start) continue;
    const Tick part = std::min(to, end) - std::max(from, start);
    rows[k * stride + col] += static_cast<std::int64_t>(part);
    counted += part;
  }
}

namespace {

// The counts of a fault on a page with bits `bits`, into c.
void count_fault(int bits, Counters& c) {
  const bool major = page_bits::major_fault(bits);
  const bool swap_in = (bits & page_bits::kInSwap) != 0;  // a page with a swap copy was seen before
  const bool file = (bits & page_bits::kFile) != 0;
  ++c.faults;
  c.minor_faults += !major;
  c.major_faults += major;
  c.swap_ins += swap_in;
  c.file_reads += file;
  c.zero_refills += major & !swap_in & !file;
}

// The counts of evicting a page with bits `bits`, into c.
void count_eviction(int bits, Counters& c) {
  const bool dirty = (bits & page_bits::kDirty) != 0;
  const bool file = (bits & page_bits::kFile) != 0;
  ++c.evictions;
  ++c.pages_scanned;  // a victim is a page scanned
  c.readahead_wasted += (bits & page_bits::kReadahead) != 0;
  c.evictions_dirty += dirty;
  c.evictions_clean += !dirty;
  c.file_writes += dirty & file;
  c.swap_outs += dirty & !file;
}

}  // namespace

void Engine::fold_tallies() {
  // The counts of one fault and of one eviction of each tally.
  static const auto one = [] {
    std::array<std::pair<Counters, Counters>, kTallies> c;
    for (std::size_t k = 0; k < kTallies; ++k) {
      count_fault(fault_tally_bits(k), c[k].first);
      count_eviction(eviction_tally_bits(k), c[k].second);
    }
    return c;
  }();
  // Most tallies are 0 between two vmstat rows: only those that are not cost an add.
  for (std::size_t j = 0; j < fault_tallies_.size(); ++j) {
    Counters& c = per_proc_[j / kTallies];
    if (fault_tallies_[j] != 0) c.add(one[j % kTallies].first, fault_tallies_[j]);
    if (eviction_tallies_[j] != 0) c.add(one[j % kTallies].second, eviction_tallies_[j]);
    fault_tallies_[j] = 0;
    eviction_tallies_[j] = 0;
  }
  for (std::size_t q = 0; q < scanned_.size(); ++q) {
    per_proc_[q].pages_scanned += scanned_[q];
    scanned_[q] = 0;
  }
}

void Engine::take_samples(Tick t) {
  fold_tallies();
  while (next_sample_ <= t) {
    const Tick at = next_sample_ - 1;
    if (vm_time_.size() >= kMaxVmstatRows) {
      throw ConfigError("the vmstat series would have more than " + std::to_string(kMaxVmstatRows) +
                        " rows: raise interval_ns (now " + std::to_string(config_.interval_ns) +
                        ") or set interval_ns=0 to turn it off");
    }
    if (device_.queued_device()) device_.advance(at);
    Counters total;
    for (const Counters& c : per_proc_) total += c;
    vm_time_.push_back(static_cast<std::int64_t>(at));
    vm_resident_.insert(vm_resident_.end(), resident_of_.begin(), resident_of_.end());
    vm_free_.push_back(static_cast<std::int64_t>(config_.frames - resident_));
    vm_swap_used_.push_back(static_cast<std::int64_t>(swap_.used()));
    const auto in_row = [&](std::uint64_t Counters::*m) {
      return static_cast<std::int64_t>(total.*m - vm_last_.*m);
    };
    vm_faults_.push_back(in_row(&Counters::faults));
    vm_major_.push_back(in_row(&Counters::major_faults));
    vm_swap_ins_.push_back(in_row(&Counters::swap_ins));
    vm_swap_outs_.push_back(in_row(&Counters::swap_outs));
    vm_file_reads_.push_back(in_row(&Counters::file_reads));
    vm_file_writes_.push_back(in_row(&Counters::file_writes));
    vm_readahead_.push_back(in_row(&Counters::readahead_pages));
    vm_scanned_.push_back(in_row(&Counters::pages_scanned));
    const SwapDevice::Busy busy = device_.busy_until(at);
    vm_read_busy_.push_back(static_cast<std::int64_t>(busy.read - vm_last_busy_.read));
    vm_write_busy_.push_back(static_cast<std::int64_t>(busy.write - vm_last_busy_.write));
    // Waits still going on are booked into this row when they end (book_in_taken_rows).
    for (std::size_t q = 0; q < proc_time_.size(); ++q) {
      vm_iowait_.push_back(static_cast<std::int64_t>(proc_time_[q].iowait_ns - vm_last_iowait_[q]));
      vm_last_iowait_[q] = proc_time_[q].iowait_ns;
    }
    vm_idle_.push_back(static_cast<std::int64_t>(idle_ns_ - vm_last_idle_));
    vm_last_idle_ = idle_ns_;
    vm_last_ = total;
    vm_last_busy_ = busy;
    vm_last_time_ = at;
    next_sample_ += config_.interval_ns;
    set_next_event();
  }
}

void Engine::start_writebacks() {
  for (const PageId p : writebacks_) {
    PageBits& b = bits_[p];
    const int bits = b.value | page_bits::kDirty;  // as it was before start_writeback
    const bool file = (bits & page_bits::kFile) != 0;
    Counters& c = per_proc_[proc_of(p)];
    ++c.writebacks;
    ++(file ? c.file_writes : c.swap_outs);
    if (config_.page_stats) ++page_stats_.writes[p];
    write_out(p, bits);
    // Clean, with its swap copy (the swap cache keeps the page and its slot).
    if (!file) b.set(page_bits::kInSwap);
    if (tracks_written_) writeback_page_[position_of(p, file)] = p;
  }
  writebacks_.clear();
}

void Engine::collect_written() {
  written_.clear();
  std::vector<SwapDevice::WriteDone>& log = device_.write_log();
  // The device started every request due by now_ (fault_general's advance), one at a time: all
  // but the last have completed.
  std::size_t k = 0;
  for (; k < log.size() && log[k].at <= now_; ++k) {
    for (std::uint64_t q = log[k].position; q < log[k].position + log[k].pages; ++q) {
      const PageId p = writeback_page_[q];
      // A later write of q is pending: its completion tells.
      if (p == kNoPage || device_.write_pending(q)) continue;
      writeback_page_[q] = kNoPage;
      if (bits_[p].has(page_bits::kResident) && position_of(p) == q) written_.push_back(p);
    }
  }
  log.erase(log.begin(), log.begin() + static_cast<std::ptrdiff_t>(k));
}

bool Engine::writeback_pending(PageId p) {
  const std::uint64_t q = position_of(p);
  if (writeback_page_[q] != p) return false;
  device_.advance(now_);
  if (device_.write_pending(q)) return true;
  // Started: pending while the request holding it is in service, the log's last started.
  const std::vector<SwapDevice::WriteDone>& log = device_.write_log();
  for (auto it = log.rbegin(); it != log.rend() && it->at > now_; ++it) {
    if (it->position <= q && q < it->position + it->pages) return true;
  }
  return false;
}

const std::vector<PageId>& PageTableView::no_pages() {
  static const std::vector<PageId> none;
  return none;
}

void PageTableView::refuse_page(PageId p) const {
  throw PolicyError("page id " + std::to_string(p) +
                    " given to the PageTableView is not a page of the trace (" +
                    std::to_string(trace_->num_pages()) + " pages, ids 0 to " +
                    std::to_string(trace_->num_pages() - 1) + ")");
}

void PageTableView::refuse_writeback(PageId p) {
  throw PolicyError("start_writeback(" + std::to_string(p) +
                    "): only select_victims of a policy whose traits say writes_back may "
                    "clean pages");
}

void Engine::reject_victim(PageId v, std::size_t index) {
  victims_.clear();
  if (v != kNoPage) victims_.push_back(v);
  reject_victims(1, index, v == kNoPage ? kBadCount : 0);
}

void Engine::reject_victims(std::size_t want, std::size_t index, std::size_t k) const {
  const std::string where =
      " (policy '" + policy_name_ + "', at access #" + std::to_string(index) + ")";
  if (k == kBadCount) {
    if (victims_.empty()) {
      throw PolicyError("policy returned no victim while no frame is free (frames=" +
                        std::to_string(config_.frames) + ")" + where);
    }
    throw PolicyError("policy returned " + std::to_string(victims_.size()) +
                      " victims when asked for " + std::to_string(want) + where);
  }
  const PageId v = victims_[k];
  if (v >= trace_.num_pages()) {
    throw PolicyError("policy nominated page id " + std::to_string(v) +
                      ", which does not exist (the trace has " +
                      std::to_string(trace_.num_pages()) + " pages)" + where);
  }
  const auto before = victims_.begin() + static_cast<std::ptrdiff_t>(k);
  if (std::find(victims_.begin(), before, v) != before) {
    throw PolicyError("policy nominated page " + std::to_string(v) + " (" +
                      trace_.describe_page(v) + ") twice in one batch" + where);
  }
  // Why not, from what the page's bits still say (the replay keeps no history).
  const PageBits b = bits_[v];
  const char* why =
      v == trace_.page(index)    ? "it is the page being faulted in (the view's incoming page)"
      : b.has(page_bits::kFreed) ? "it was freed when its process exited: did on_free forget it?"
      : b.has(page_bits::kSeen) || b.has(page_bits::kInSwap)
          ? "it was evicted earlier: did on_evict forget it?"
          : "it has not been accessed yet";
  throw PolicyError("policy nominated page " + std::to_string(v) + " (" + trace_.describe_page(v) +
                    "), which is not resident: " + why + where);
}

Result Engine::finish() {
  Result r;
  r.policy = policy_name_;
  r.frames = config_.frames;
  r.device = config_.device.name;
  r.schedule = schedule_ == Schedule::kStatic ? "static" : "round_robin";
  Tick elapsed = 0;
  for (Tick f : finish_) elapsed = std::max(elapsed, f);

  // vmstat: the rows of the intervals that end by the end (the loops take them at the next
  // access, and the CPU time of zram at the last fault may pass some), then a last, partial
  // interval. A run whose clock never moved (cpu_ns = 0, no IO time) has one row, at 0.
  sample_until(elapsed + 1);
  if (config_.interval_ns != 0 &&
      (elapsed > vm_last_time_ || (vm_time_.empty() && trace_.size() != 0))) {
    next_sample_ = elapsed + 1;
    sample_until(elapsed + 1);
  }
  // Writes still queued when the last process ends are served after it.
  if (device_.queued_device()) device_.drain();

  fold_tallies();
  // Readahead pages still resident and unused at the end are neither used nor wasted.
  std::vector<std::uint64_t> unused(per_proc_.size(), 0);
  std::uint64_t any_readahead = 0;
  for (const Counters& c : per_proc_) any_readahead += c.readahead_pages;
  if (any_readahead != 0) {
    for (PageId p = 0; p < bits_.size(); ++p) {
      if (bits_[p].has(page_bits::kReadahead)) ++unused[trace_.page_proc(p)];
    }
  }

  r.per_proc = per_proc_;
  r.proc_pids = trace_.proc_pids().to_vector();
  r.per_proc_time = proc_time_;
  for (ProcId proc = 0; proc < r.per_proc.size(); ++proc) {
    Counters& c = r.per_proc[proc];
    c.accesses = trace_.proc_accesses(proc);
    c.hits = c.accesses - c.faults;
    c.readahead_used = c.readahead_pages - c.readahead_wasted - unused[proc];
    r.total += c;
    ProcTime& t = r.per_proc_time[proc];
    t.user_ns = c.accesses * config_.cpu_ns;
    t.elapsed_ns = finish_[proc];
    r.time.user_ns += t.user_ns;
    r.time.sys_ns += t.sys_ns;
    r.time.iowait_ns += t.iowait_ns;
  }
  r.time.elapsed_ns = elapsed;
  r.swap_slots_used = swap_.used();
  if (config_.page_stats) {
    page_stats_.proc = trace_.page_procs();
    page_stats_.vpn = trace_.page_vpns();
    page_stats_.kind = trace_.page_kinds();
    page_stats_.accesses.assign(trace_.num_pages(), 0);
    for (const PageId p : trace_.pages()) ++page_stats_.accesses[p];
    r.pages = std::make_shared<const PageStats>(std::move(page_stats_));
  }
  r.device_stats = device_.stats();
  if (config_.device.kind == DeviceKind::kZram) {
    r.device_stats.stored_bytes = static_cast<std::uint64_t>(
        static_cast<double>(swap_.used()) * trace_.page_size() / config_.device.compression_ratio + 0.5);
  }

  if (config_.interval_ns != 0) {
    auto vm = std::make_shared<Vmstat>();
    vm->interval_ns = config_.interval_ns;
    const auto rows = static_cast<Eigen::Index>(vm_time_.size());
    const auto procs = static_cast<Eigen::Index>(per_proc_.size());
    const auto col = [&](const std::vector<std::int64_t>& v) {
      return Vmstat::Column(Eigen::Map<const Vmstat::Column>(v.data(), rows));
    };
    vm->time_ns = col(vm_time_);
    vm->resident = Eigen::Map<const Vmstat::PerProc>(vm_resident_.data(), rows, procs);
    vm->free_frames = col(vm_free_);
    vm->swap_used = col(vm_swap_used_);
    vm->faults = col(vm_faults_);
    vm->major_faults = col(vm_major_);
    vm->swap_ins = col(vm_swap_ins_);
    vm->swap_outs = col(vm_swap_outs_);
    vm->file_reads = col(vm_file_reads_);
    vm->file_writes = col(vm_file_writes_);
    vm->readahead_pages = col(vm_readahead_);
    vm->pages_scanned = col(vm_scanned_);
    // Times as fractions of each row's interval (the last may be partial; a row at 0 has no
    // length, and its fractions are NaN).
    Eigen::VectorXd length(rows);
    for (Eigen::Index k = 0; k < rows; ++k) {
      length[k] = static_cast<double>(vm->time_ns[k] - (k == 0 ? 0 : vm->time_ns[k - 1]));
    }
    const Eigen::VectorXd read = col(vm_read_busy_).cast<double>();
    const Eigen::VectorXd write = col(vm_write_busy_).cast<double>();
    vm->device_busy = (read + write).cwiseQuotient(length);
    vm->device_read_busy = read.cwiseQuotient(length);
    vm->device_write_busy = write.cwiseQuotient(length);
    // zram's work is the CPU's; the CPU runs accesses whenever it neither does that nor idles.
    const Eigen::VectorXd system = config_.device.kind == DeviceKind::kZram
                                       ? Eigen::VectorXd(read + write)
                                       : Eigen::VectorXd::Zero(rows);
    const Eigen::VectorXd idle = col(vm_idle_).cast<double>();
    vm->cpu_user = (length - system - idle).cwiseQuotient(length);
    vm->cpu_system = system.cwiseQuotient(length);
    vm->cpu_iowait = idle.cwiseQuotient(length);
    vm->iowait = Eigen::Map<const Vmstat::PerProc>(vm_iowait_.data(), rows, procs).cast<double>();
    for (Eigen::Index k = 0; k < rows; ++k) vm->iowait.row(k) /= length[k];
    r.vmstat = std::move(vm);
  }
  return r;
}

}  // namespace pagesim
