// Miss-ratio curves on a 10-million-access zipf(0.9) trace over 1 million pages: the exact
// one-pass LRU curve (every memory size) against simulating `lru` at five memory sizes, and
// SHARDS (fixed rate 0.01 and 0.001, fixed size 8192 pages) with its mean absolute error in
// miss ratio against the exact curve; the variable-space policies' curves: the working set
// with VMIN at 40 windows in one pass, and page-fault frequency, one pass per threshold.
// items_per_second counts trace accesses per pass.
// Run: _build/bench/bench_mrc
#include <benchmark/benchmark.h>

#include <cmath>

#include "pagesim/generators.hpp"
#include "pagesim/mrc.hpp"
#include "pagesim/registry.hpp"

namespace {

using pagesim::Trace;

const Trace& zipf_trace() {
  static const Trace trace = pagesim::generate_zipf(10'000'000, 1'000'000, 0.9, 0.3, 42);
  return trace;
}

const std::vector<std::uint64_t>& exact_curve() {
  static const std::vector<std::uint64_t> curve = pagesim::lru_mrc(zipf_trace());
  return curve;
}

void lru_one_pass(benchmark::State& state) {
  const Trace& t = zipf_trace();
  for (auto _ : state) benchmark::DoNotOptimize(pagesim::lru_mrc(t).data());
  state.SetItemsProcessed(state.iterations() * static_cast<std::int64_t>(t.size()));
  state.counters["sizes"] = static_cast<double>(t.num_pages());
}

// Five memory sizes (1, 5, 10, 25, 50% of the footprint), each a full replay.
void lru_five_simulations(benchmark::State& state) {
  const Trace& t = zipf_trace();
  for (auto _ : state) {
    for (int pct : {1, 5, 10, 25, 50}) {
      pagesim::Params params{{"frames", static_cast<std::int64_t>(t.num_pages() * static_cast<std::size_t>(pct) / 100)}};
      benchmark::DoNotOptimize(pagesim::simulate(t, "lru", params).total.faults);
    }
  }
  state.SetItemsProcessed(state.iterations() * static_cast<std::int64_t>(t.size()));
  state.counters["sizes"] = 5;
}

// Mean absolute error in miss ratio over every memory size 1..footprint.
double mae(const std::vector<double>& est) {
  const auto& exact = exact_curve();
  const auto n = static_cast<double>(zipf_trace().size());
  double sum = 0;
  for (std::size_t f = 1; f < exact.size(); ++f) sum += std::fabs(est[f] - static_cast<double>(exact[f])) / n;
  return sum / static_cast<double>(exact.size() - 1);
}

void shards_rate(benchmark::State& state) {
  const Trace& t = zipf_trace();
  const double rate = 1.0 / static_cast<double>(state.range(0));
  std::vector<double> est;
  for (auto _ : state) est = pagesim::shards_mrc(t, rate, 1);
  state.SetItemsProcessed(state.iterations() * static_cast<std::int64_t>(t.size()));
  state.counters["mae"] = mae(est);
  // Across seeds: the error depends on which hot pages the hash happens to sample.
  double worst = 0;
  for (std::uint64_t seed = 2; seed <= 5; ++seed) worst = std::max(worst, mae(pagesim::shards_mrc(t, rate, seed)));
  state.counters["worst_mae_seeds_1_5"] = std::max(worst, mae(est));
}

void shards_fixed_size(benchmark::State& state) {
  const Trace& t = zipf_trace();
  std::vector<double> est;
  for (auto _ : state) est = pagesim::shards_fixed_size_mrc(t, static_cast<std::size_t>(state.range(0)), 1);
  state.SetItemsProcessed(state.iterations() * static_cast<std::int64_t>(t.size()));
  state.counters["mae"] = mae(est);
}

// 40 windows from 1 to the trace's length, spaced geometrically (pagesim.mrc.working_set's
// default), in one pass.
void working_set_40_windows(benchmark::State& state) {
  const Trace& t = zipf_trace();
  std::vector<std::uint64_t> windows;
  for (int k = 0; k < 40; ++k) {
    windows.push_back(
        static_cast<std::uint64_t>(std::round(std::pow(static_cast<double>(t.size()), k / 39.0))));
  }
  for (auto _ : state) benchmark::DoNotOptimize(pagesim::working_set_curve(t, windows).data());
  state.SetItemsProcessed(state.iterations() * static_cast<std::int64_t>(t.size()));
}

// One threshold (in accesses) per pass.
void pff_one_threshold(benchmark::State& state) {
  const Trace& t = zipf_trace();
  const auto threshold = static_cast<std::uint64_t>(state.range(0));
  double mean_size = 0;
  for (auto _ : state) {
    const auto points = pagesim::pff_curve(t, {threshold});
    mean_size = static_cast<double>(points[0].size_sum) / static_cast<double>(t.size());
  }
  state.SetItemsProcessed(state.iterations() * static_cast<std::int64_t>(t.size()));
  state.counters["mean_size"] = mean_size;
}

const bool registered = [] {
  benchmark::RegisterBenchmark("mrc/lru_one_pass", lru_one_pass)->Unit(benchmark::kMillisecond)->Iterations(2);
  benchmark::RegisterBenchmark("mrc/lru_five_simulations", lru_five_simulations)->Unit(benchmark::kMillisecond)->Iterations(1);
  benchmark::RegisterBenchmark("mrc/shards_rate_1_in", shards_rate)->Arg(100)->Arg(1000)->Unit(benchmark::kMillisecond)->Iterations(1);
  benchmark::RegisterBenchmark("mrc/shards_fixed_size", shards_fixed_size)->Arg(8192)->Unit(benchmark::kMillisecond)->Iterations(1);
  benchmark::RegisterBenchmark("mrc/working_set_40_windows", working_set_40_windows)
      ->Unit(benchmark::kMillisecond)
      ->Iterations(2);
  benchmark::RegisterBenchmark("mrc/pff_one_threshold", pff_one_threshold)
      ->Arg(100)
      ->Arg(10000)
      ->Unit(benchmark::kMillisecond)
      ->Iterations(2);
  return true;
}();

}  // namespace

BENCHMARK_MAIN();
