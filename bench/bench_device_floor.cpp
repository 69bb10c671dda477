// The least work a device model does, without the engine: how far below bench_device's
// overhead/fifo/*/page_cluster:0 figures (issue 4's "the cost model adds at most 2x to replay
// time") any device model can go.
//
// A stand-alone replay of bench_device's trace and memory (zipf, 10% of the footprint, fifo,
// no readahead, 100 ns per access) in one function, everything in locals: the engine's
// generality (vmstat rows, policy calls, processes, waiting writers) is left out. Models, each
// adding work to the one before:
//   none     the bare fifo replay: no time, no slots;
//   latency  a swap slot per dirty page (a counter: a fresh swap area fills in order), each
//            request served at once for a fixed time (nvme's 80 / 20 us plus transfer); a read
//            waits for its completion;
//   seek     as latency, but the time of hdd-2002 (device.hpp's seek formula: a square root
//            of the head's movement);
//   queue    as seek, but requests queue and start when the device is free (first come first
//            served), so a write that extends a queued one merges into it.
// Counters: miss_ratio (bench_device's, 0.416014: the same replay); model_over_none = fastest
// replay with the model / fastest bare one, over pairs run alternately (as bench_device's
// overhead/*); ns_per_request = their difference per request. Run: _build/bench/bench_device_floor
#include <benchmark/benchmark.h>

#include <algorithm>
#include <chrono>
#include <cmath>
#include <cstdint>
#include <vector>

#include "pagesim/generators.hpp"

namespace {

using pagesim::PageId;

enum class Model { kNone, kLatency, kSeek, kQueue };

struct Outcome {
  double seconds = 0;
  std::uint64_t faults = 0;
  std::uint64_t requests = 0;
  std::uint64_t elapsed_ns = 0;
};

// The device: its clock, its head and (model queue) its requests, in a ring of 128 (Linux's
// nr_requests): a write that finds it full waits until the oldest starts.
class Device {
 public:
  Device(Model model, std::uint64_t span)
      : model_(model), inv_span_(1.0 / static_cast<double>(span)), queue_(kDepth) {}

  // Serves one request of `pages` pages at `position` when the device is free; returns its
  // completion.
  std::uint64_t serve(std::uint64_t position, std::uint32_t pages, bool write) {
    double ns = 0;
    if (model_ == Model::kLatency) {
      ns = (write ? 20e3 : 80e3) + pages * kNvmeTransferNs;
    } else {
      // hdd-2002: track-to-track 1 ms, average seek 8.5 ms, rotation 4.17 ms, overhead 0.3 ms,
      // 30 MB/s.
      if (position != head_) {
        const std::uint64_t d = position > head_ ? position - head_ : head_ - position;
        ns = 1e6 + 7.5e6 * 15 / 8 * std::sqrt(std::min(1.0, static_cast<double>(d) * inv_span_)) +
             4.17e6;
      }
      ns += 0.3e6 + pages * kHddTransferNs;
    }
    head_ = position + pages;
    free_at_ += static_cast<std::uint64_t>(ns + 0.5);
    ++requests_;
    return free_at_;
  }
  // A request submitted at `now` to an idle device starts no earlier.
  void idle_until(std::uint64_t now) { free_at_ = std::max(free_at_, now); }

  // Model queue: queues one page, merged into the last request when it extends it; `now` is
  // the submitter's clock, which a wait for room moves.
  void submit(std::uint64_t position, bool write, std::uint64_t& now) {
    if (count_ == 0) {
      idle_until(now);
    } else {
      Request& last = queue_[(first_ + count_ - 1) % kDepth];
      if (last.write == write && last.pages < 32 && position == last.start + last.pages) {
        ++last.pages;
        return;
      }
      if (count_ == kDepth) {
        now = std::max(now, free_at_);
        start();
      }
    }
    queue_[(first_ + count_++) % kDepth] = {position, 1, write};
  }
  // Starts the requests the device would have started by `now`.
  void advance(std::uint64_t now) {
    while (count_ != 0 && free_at_ <= now) start();
  }
  // Serves every queued request: when the last completes.
  std::uint64_t drain() {
    while (count_ != 0) start();
    return free_at_;
  }
  std::uint64_t requests() const { return requests_; }

 private:
  static constexpr double kNvmeTransferNs = 4096 * 1e3 / 2000;
  static constexpr double kHddTransferNs = 4096 * 1e3 / 30;
  static constexpr std::size_t kDepth = 128;
  struct Request {
    std::uint64_t start;
    std::uint32_t pages;
    bool write;
  };
  void start() {
    const Request r = queue_[first_];
    first_ = (first_ + 1) % kDepth;
    --count_;
    serve(r.start, r.pages, r.write);
  }
  Model model_;
  double inv_span_;
  std::uint64_t head_ = 0;
  std::uint64_t free_at_ = 0;
  std::uint64_t requests_ = 0;
  std::vector<Request> queue_;
  std::size_t first_ = 0, count_ = 0;
};

template <Model kModel>
Outcome replay(const pagesim::Trace& trace, std::size_t frames) {
  constexpr std::uint8_t kResident = 1, kDirty = 2, kInSwap = 4;
  constexpr bool kIo = kModel != Model::kNone;
  const PageId* pages = trace.pages().data();
  const std::uint8_t* flags = trace.flags().data();
  const std::size_t n = trace.size();
  std::vector<std::uint8_t> bits(trace.num_pages(), 0);
  std::vector<std::uint32_t> slot(kIo ? trace.num_pages() : 0, 0);
  std::vector<PageId> ring(frames);
  std::size_t head = 0, resident = 0;
  std::uint32_t next_slot = 0;
  std::uint64_t now = 0, faults = 0;
  Device device(kModel, trace.num_pages());
  const auto began = std::chrono::steady_clock::now();
  for (std::size_t i = 0; i < n; ++i) {
    constexpr std::size_t kAhead = 16;
    if (i + kAhead < n) {
      __builtin_prefetch(&bits[pages[i + kAhead]], 1);
      if (kIo) __builtin_prefetch(&slot[pages[i + kAhead / 2]], 0);
    }
    now += 100;
    const PageId p = pages[i];
    if ((bits[p] & kResident) != 0) {
      bits[p] |= (flags[i] & 1) * kDirty;
      continue;
    }
    ++faults;
    if (kModel == Model::kQueue) device.advance(now);
    if (resident == frames) {
      const PageId v = ring[head];
      head = head + 1 == frames ? 0 : head + 1;
      --resident;
      // The victim four faults ahead, as the engine's fifo fetches it.
      const PageId ahead = ring[head + 4 < frames ? head + 4 : head + 4 - frames];
      __builtin_prefetch(&bits[ahead], 1);
      if (kIo) __builtin_prefetch(&slot[ahead], 1);
      const std::uint8_t b = bits[v];
      if (kIo && (b & kDirty) != 0) {
        if ((b & kInSwap) == 0) slot[v] = next_slot++;
        if (kModel == Model::kQueue) {
          device.submit(slot[v], true, now);
        } else {
          device.idle_until(now);
          device.serve(slot[v], 1, true);
        }
      }
      // A dirty page leaves with a copy in swap (kInSwap is kDirty * 2).
      bits[v] = static_cast<std::uint8_t>((b | (b & kDirty) * 2) & ~(kResident | kDirty));
    }
    if (kIo && (bits[p] & kInSwap) != 0) {
      if (kModel == Model::kQueue) {
        device.submit(slot[p], false, now);
        now = device.drain();  // first come first served: the read is the last queued
      } else {
        device.idle_until(now);
        now = device.serve(slot[p], 1, false);
      }
    }
    bits[p] = static_cast<std::uint8_t>(bits[p] | kResident | (flags[i] & 1) * kDirty);
    std::size_t tail = head + resident;
    if (tail >= frames) tail -= frames;
    ring[tail] = p;
    ++resident;
  }
  const std::chrono::duration<double> took = std::chrono::steady_clock::now() - began;
  return {took.count(), faults, device.requests(), now};
}

template <Model kModel>
void floor_overhead(benchmark::State& state) {
  static const pagesim::Trace trace = pagesim::generate_zipf(10'000'000, 1'000'000, 0.9, 0.3, 42);
  const std::size_t frames = trace.num_pages() / 10;
  double best_none = 1e300, best_with = 1e300;
  Outcome with;
  for (auto _ : state) {
    best_none = std::min(best_none, replay<Model::kNone>(trace, frames).seconds);
    with = replay<kModel>(trace, frames);
    best_with = std::min(best_with, with.seconds);
  }
  state.counters["none_ms"] = best_none * 1e3;
  state.counters["model_ms"] = best_with * 1e3;
  state.counters["model_over_none"] = best_with / best_none;
  // As bench_device's: the same replay.
  state.counters["miss_ratio"] =
      static_cast<double>(with.faults) / static_cast<double>(trace.size());
  state.counters["requests"] = static_cast<double>(with.requests);
  state.counters["ns_per_request"] =
      (best_with - best_none) * 1e9 / static_cast<double>(with.requests);
  state.counters["virtual_s"] = static_cast<double>(with.elapsed_ns) * 1e-9;
}

BENCHMARK_TEMPLATE(floor_overhead, Model::kLatency)
    ->Name("floor/latency")
    ->Iterations(7)
    ->Unit(benchmark::kMillisecond);
BENCHMARK_TEMPLATE(floor_overhead, Model::kSeek)
    ->Name("floor/seek")
    ->Iterations(7)
    ->Unit(benchmark::kMillisecond);
BENCHMARK_TEMPLATE(floor_overhead, Model::kQueue)
    ->Name("floor/queue")
    ->Iterations(7)
    ->Unit(benchmark::kMillisecond);

}  // namespace

BENCHMARK_MAIN();
