// Replay speed of every registered policy on a 10-million-access zipf(0.9) trace over
// 1 million pages, at 10% and 50% of the footprint: accesses per second (items_per_second)
// and the trace's memory per access. Run: _build/bench/bench_replay
#include <benchmark/benchmark.h>

#include "pagesim/generators.hpp"
#include "pagesim/registry.hpp"

namespace {

using pagesim::Trace;

const Trace& zipf_trace() {
  static const Trace trace = pagesim::generate_zipf(10'000'000, 1'000'000, 0.9, 0.3, 42);
  return trace;
}

double trace_bytes_per_access(const Trace& t) {
  const double per_access = sizeof(pagesim::PageId) + sizeof(std::uint8_t);
  const double per_page = sizeof(pagesim::ProcId) + sizeof(std::uint64_t) + sizeof(pagesim::PageKind);
  return per_access + per_page * static_cast<double>(t.num_pages()) / static_cast<double>(t.size());
}

void replay(benchmark::State& state, const std::string& policy) {
  const Trace& t = zipf_trace();
  const auto frames = static_cast<std::int64_t>(t.num_pages() * static_cast<std::size_t>(state.range(0)) / 100);
  // Demand paging (no readahead): the replay loop itself; bench_device measures the rest.
  pagesim::Params params{{"frames", frames}, {"page_cluster", std::int64_t{0}}};
  std::uint64_t faults = 0;
  for (auto _ : state) {
    const pagesim::Result r = pagesim::simulate(t, policy, params);
    faults = r.total.faults;
    benchmark::DoNotOptimize(faults);
  }
  state.SetItemsProcessed(state.iterations() * static_cast<std::int64_t>(t.size()));
  state.counters["miss_ratio"] = static_cast<double>(faults) / static_cast<double>(t.size());
  state.counters["trace_bytes_per_access"] = trace_bytes_per_access(t);
  if (pagesim::Registry::instance().get(policy).make(params)->traits().needs_future) {
    state.counters["with_next_use_bytes_per_access"] = trace_bytes_per_access(t) + sizeof(std::uint32_t);
  }
}

// freebsd with defer_swapspace_pageouts on qsbench (8 MiB, memory 2/3 of the footprint,
// the engine's defaults: readahead, one victim per fault): while a clean page is resident,
// each reclaim goes round after round, requeueing every dirty anonymous page of the inactive
// queue, until the active scan ages that page down.
void replay_freebsd_defer(benchmark::State& state) {
  static const Trace trace = [] {
    pagesim::QsbenchOptions options;
    options.mib = 8;
    return pagesim::generate_qsbench(options);
  }();
  const auto frames = static_cast<std::int64_t>(trace.num_pages() * 2 / 3);
  const pagesim::Params params{{"frames", frames}, {"defer_swapspace_pageouts", true}};
  std::uint64_t swap_outs = 0;
  for (auto _ : state) {
    const pagesim::Result r = pagesim::simulate(trace, "freebsd", params);
    swap_outs = r.total.swap_outs;
    benchmark::DoNotOptimize(swap_outs);
  }
  state.SetItemsProcessed(state.iterations() * static_cast<std::int64_t>(trace.size()));
  state.counters["swap_outs"] = static_cast<double>(swap_outs);
}

void next_use_pass(benchmark::State& state) {
  const Trace& t = zipf_trace();
  for (auto _ : state) benchmark::DoNotOptimize(pagesim::Engine::compute_next_use(t).data());
  state.SetItemsProcessed(state.iterations() * static_cast<std::int64_t>(t.size()));
}

const bool registered = [] {
  for (const std::string& name : pagesim::Registry::instance().names()) {
    benchmark::RegisterBenchmark(("replay/" + name).c_str(), replay, name)
        ->ArgName("memory_pct")
        ->Arg(10)
        ->Arg(50)
        ->Unit(benchmark::kMillisecond)
        ->MinTime(1.0);
  }
  benchmark::RegisterBenchmark("replay_freebsd_defer/qsbench", replay_freebsd_defer)
      ->Unit(benchmark::kMillisecond);
  benchmark::RegisterBenchmark("next_use_pass", next_use_pass)->Unit(benchmark::kMillisecond);
  return true;
}();

}  // namespace

BENCHMARK_MAIN();
