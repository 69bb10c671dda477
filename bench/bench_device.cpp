// What the swap device cost model adds to replay time: the same 10-million-access zipf(0.9)
// trace over 1 million pages as bench_replay, replayed with
// device=none (counts and CPU time only) and with each device preset (IO queue, seeks,
// blocking reads), at 10% of the footprint (and 50% without device or readahead, to compare
// with bench_replay/*/memory_pct:50 on main). page_cluster=0 (no readahead) and 3 (default).
// Run: _build/bench/bench_device
#include <benchmark/benchmark.h>

#include "pagesim/generators.hpp"
#include "pagesim/registry.hpp"

namespace {

using pagesim::Trace;

const Trace& zipf_trace() {
  static const Trace trace = pagesim::generate_zipf(10'000'000, 1'000'000, 0.9, 0.3, 42);
  return trace;
}

void replay(benchmark::State& state, const std::string& policy, const std::string& device,
            std::int64_t page_cluster) {
  const Trace& t = zipf_trace();
  const auto frames = static_cast<std::int64_t>(t.num_pages() * static_cast<std::size_t>(state.range(0)) / 100);
  pagesim::Params params{{"frames", frames},
                         {"device", device},
                         {"page_cluster", page_cluster}};
  pagesim::Result r;
  for (auto _ : state) {
    r = pagesim::simulate(t, policy, params);
    benchmark::DoNotOptimize(r.total.faults);
  }
  state.SetItemsProcessed(state.iterations() * static_cast<std::int64_t>(t.size()));
  state.counters["miss_ratio"] = static_cast<double>(r.total.faults) / static_cast<double>(t.size());
  state.counters["virtual_s"] = static_cast<double>(r.time.elapsed_ns) * 1e-9;
  state.counters["seeks"] = static_cast<double>(r.device_stats.seeks);
}

const bool registered = [] {
  for (const char* policy : {"fifo", "lru"}) {
    for (const char* device : {"none", "hdd-2002", "nvme", "zram"}) {
      for (std::int64_t pc : {0, 3}) {
        const std::string name = std::string("device/") + policy + "/" + device + "/page_cluster:" +
                                 std::to_string(pc);
        auto* b = benchmark::RegisterBenchmark(name.c_str(), replay, policy, device, pc)
                      ->ArgName("memory_pct")
                      ->Arg(10)
                      ->Unit(benchmark::kMillisecond)
                      ->MinTime(1.0);
        // The hit path alone is compared with bench_replay at 50%.
        if (std::string(device) == "none" && pc == 0) b->Arg(50);
      }
    }
  }
  return true;
}();

}  // namespace

BENCHMARK_MAIN();
