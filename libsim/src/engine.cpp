#include "pagesim/engine.hpp"

#include <algorithm>

namespace pagesim {

EngineConfig EngineConfig::from_params(const Params& params) {
  EngineConfig config;
  if (!params.has("frames")) {
    params.get_int("frames", 0, 1, 0);  // registers the key for suggestions
    throw ConfigError("parameter 'frames' is required: memory size in page frames, at least 1");
  }
  config.frames = static_cast<std::size_t>(params.get_int("frames", 0, 1, std::int64_t{1} << 40));
  config.free_slot_on_swapin = params.get_bool("free_slot_on_swapin", false);
  const auto frames = static_cast<std::int64_t>(config.frames);
  config.low_watermark =
      static_cast<std::size_t>(params.get_int("low_watermark", 0, 0, frames - 1));
  config.high_watermark = static_cast<std::size_t>(
      params.get_int("high_watermark", static_cast<std::int64_t>(config.low_watermark),
                     static_cast<std::int64_t>(config.low_watermark), frames - 1));
  config.cpu_ns = static_cast<Tick>(params.get_int("cpu_ns", 100, 0, std::int64_t{1} << 40));
  return config;
}

Engine::Engine(const Trace& trace, const EngineConfig& config, std::string policy_name)
    : trace_(trace), config_(config), policy_name_(std::move(policy_name)) {
  if (config_.frames == 0) {
    throw ConfigError("parameter 'frames' = 0 is out of range: memory needs at least 1 frame");
  }
  bits_.resize(trace.num_pages());
  for (PageId p = 0; p < trace.num_pages(); ++p) {
    bits_[p] = trace.page_kind(p) == PageKind::kFile ? page_bits::kFile : 0;
  }
  slot_.assign(trace.num_pages(), kNoSlot);
  per_proc_.assign(trace.num_procs(), Counters{});
}

PageArray<std::uint32_t> Engine::compute_next_use(const Trace& trace) {
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
  return next;
}

std::size_t Engine::reclaim_want() const {
  const std::size_t free = config_.frames - resident_;
  if (free > config_.low_watermark) return 0;
  return std::max<std::size_t>(config_.high_watermark, 1) - std::min(free, config_.high_watermark);
}

void Engine::check_victims(std::size_t want, std::size_t index) const {
  const auto where = [&] {
    return " (policy '" + policy_name_ + "', at access #" + std::to_string(index) + ")";
  };
  if (victims_.empty() && resident_ == config_.frames) {
    throw PolicyError("policy returned no victim while all " + std::to_string(config_.frames) +
                      " frames are in use" + where());
  }
  if (victims_.size() > want) {
    throw PolicyError("policy returned " + std::to_string(victims_.size()) +
                      " victims when asked for " + std::to_string(want) + where());
  }
  for (std::size_t k = 0; k < victims_.size(); ++k) {
    const PageId v = victims_[k];
    if (v >= trace_.num_pages()) {
      throw PolicyError("policy nominated page id " + std::to_string(v) +
                        ", which does not exist (the trace has " +
                        std::to_string(trace_.num_pages()) + " pages)" + where());
    }
    if (std::find(victims_.begin(), victims_.begin() + static_cast<std::ptrdiff_t>(k), v) !=
        victims_.begin() + static_cast<std::ptrdiff_t>(k)) {
      throw PolicyError("policy nominated page " + std::to_string(v) + " (" +
                        trace_.describe_page(v) + ") twice in one batch" + where());
    }
    if (!(bits_[v] & page_bits::kResident)) {
      throw PolicyError("policy nominated page " + std::to_string(v) + " (" +
                        trace_.describe_page(v) + "), which is not resident" + where());
    }
  }
}

Result Engine::finish() {
  Result r;
  r.policy = policy_name_;
  r.frames = config_.frames;
  r.per_proc = per_proc_;
  r.proc_pids = trace_.proc_pids();
  for (ProcId proc = 0; proc < r.per_proc.size(); ++proc) {
    Counters& c = r.per_proc[proc];
    c.accesses = trace_.proc_accesses(proc);
    c.hits = c.accesses - c.faults;
    r.total += c;
  }
  r.swap_slots_used = swap_.used();
  return r;
}

}  // namespace pagesim
