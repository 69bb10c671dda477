// What the swap device cost model adds to replay time: the same 10-million-access zipf(0.9)
// trace over 1 million pages as bench_replay, replayed with
// device=none (counts and CPU time only) and with each device preset (IO queue, seeks,
// blocking reads), at 10% of the footprint (and 50% without device or readahead, to compare
// with bench_replay/*/memory_pct:50 on main). page_cluster=0 (no readahead) and 3 (default).
// overhead/*: the ratio of the two, from alternating replays (counter device_over_none), and
// the time the device adds per IO request it serves (device_ns_per_request), which does not
// depend on how fast the policy is; at 10% of the footprint, and without readahead also at
// 25% and 50% (lower miss ratios: fewer requests per access).
// readahead/*: the three ways to size and place swap readahead windows (swap_readahead fixed,
// adaptive, vma) at the default page_cluster, on nvme (where the kernel reads ahead by vma).
// Run: _build/bench/bench_device
#include <benchmark/benchmark.h>

#include <algorithm>
#include <chrono>

#include "pagesim/generators.hpp"
#include "pagesim/registry.hpp"

namespace {

using pagesim::Trace;

const Trace& zipf_trace() {
  static const Trace trace = pagesim::generate_zipf(10'000'000, 1'000'000, 0.9, 0.3, 42);
  return trace;
}

void replay(benchmark::State& state, const std::string& policy, const std::string& device,
            std::int64_t page_cluster, const std::string& swap_readahead) {
  const Trace& t = zipf_trace();
  const auto frames = static_cast<std::int64_t>(t.num_pages() * static_cast<std::size_t>(state.range(0)) / 100);
  pagesim::Params params{{"frames", frames},
                         {"device", device},
                         {"page_cluster", page_cluster},
                         {"swap_readahead", swap_readahead}};
  pagesim::Result r;
  for (auto _ : state) {
    r = pagesim::simulate(t, policy, params);
    benchmark::DoNotOptimize(r.total.faults);
  }
  state.SetItemsProcessed(state.iterations() * static_cast<std::int64_t>(t.size()));
  state.counters["miss_ratio"] = static_cast<double>(r.total.faults) / static_cast<double>(t.size());
  state.counters["virtual_s"] = static_cast<double>(r.time.elapsed_ns) * 1e-9;
  state.counters["seeks"] = static_cast<double>(r.device_stats.seeks);
  state.counters["readahead_pages"] = static_cast<double>(r.total.readahead_pages);
}

// The overhead as one figure: replays without and with the device alternate, so that the
// VM's drift over minutes (20-30% on the machine of RESULTS.md) slows both alike. Counter
// device_over_none = fastest replay with the device / fastest without, over the iterations;
// device_ns_per_request = (fastest with - fastest without) / requests served (reads + writes
// after merging; zram: the batches it decompresses and the pages it compresses).
void overhead(benchmark::State& state, const std::string& policy, const std::string& device,
              std::int64_t page_cluster) {
  const Trace& t = zipf_trace();
  const auto frames =
      static_cast<std::int64_t>(t.num_pages() * static_cast<std::size_t>(state.range(0)) / 100);
  const pagesim::Params none{{"frames", frames}, {"page_cluster", page_cluster}};
  const pagesim::Params with{{"frames", frames}, {"page_cluster", page_cluster}, {"device", device}};
  double best_none = 1e300, best_with = 1e300;
  pagesim::DeviceStats stats;
  for (auto _ : state) {
    for (const pagesim::Params* params : {&none, &with}) {
      const auto start = std::chrono::steady_clock::now();
      const pagesim::Result r = pagesim::simulate(t, policy, *params);
      const std::chrono::duration<double> took = std::chrono::steady_clock::now() - start;
      if (params == &with) stats = r.device_stats;
      double& best = params == &none ? best_none : best_with;
      best = std::min(best, took.count());
    }
  }
  state.counters["none_ms"] = best_none * 1e3;
  state.counters["device_ms"] = best_with * 1e3;
  state.counters["device_over_none"] = best_with / best_none;
  const auto requests = static_cast<double>(stats.reads + stats.writes);
  state.counters["requests"] = requests;
  state.counters["device_ns_per_request"] = (best_with - best_none) * 1e9 / requests;
}

const bool registered = [] {
  for (const char* policy : {"fifo", "lru"}) {
    for (const char* device : {"none", "hdd-2002", "nvme", "zram"}) {
      for (std::int64_t pc : {0, 3}) {
        const std::string name = std::string("device/") + policy + "/" + device + "/page_cluster:" +
                                 std::to_string(pc);
        auto* b = benchmark::RegisterBenchmark(name.c_str(), replay, policy, device, pc, "fixed")
                      ->ArgName("memory_pct")
                      ->Arg(10)
                      ->Unit(benchmark::kMillisecond)
                      ->MinTime(1.0);
        // The hit path alone is compared with bench_replay at 50%.
        if (std::string(device) == "none" && pc == 0) b->Arg(50);
      }
    }
  }
  for (const char* policy : {"fifo", "lru"}) {
    for (const char* device : {"hdd-2002", "nvme", "zram"}) {
      for (std::int64_t pc : {0, 3}) {
        const std::string name = std::string("overhead/") + policy + "/" + device + "/page_cluster:" +
                                 std::to_string(pc);
        auto* b = benchmark::RegisterBenchmark(name.c_str(), overhead, policy, device, pc)
                      ->ArgName("memory_pct")
                      ->Arg(10)
                      ->Iterations(5)
                      ->Unit(benchmark::kMillisecond);
        // Without readahead also at larger memories: the overhead against the miss ratio.
        if (pc == 0) b->Arg(25)->Arg(50);
      }
    }
  }
  for (const char* policy : {"fifo", "lru"}) {
    for (const char* mode : {"fixed", "adaptive", "vma"}) {
      const std::string name = std::string("readahead/") + policy + "/nvme/swap_readahead:" + mode;
      benchmark::RegisterBenchmark(name.c_str(), replay, policy, "nvme", 3, mode)
          ->ArgName("memory_pct")
          ->Arg(10)
          ->Unit(benchmark::kMillisecond)
          ->MinTime(1.0);
    }
  }
  return true;
}();

}  // namespace

BENCHMARK_MAIN();
