// Trace input speed: parse throughput of each reader from memory (bytes/s = MB/s of input,
// items/s = accesses/s), native load of a 100-million-access file, and the qsbench
// generator's accesses/s. Run: _build/bench/bench_traces
#include <benchmark/benchmark.h>

#include <cstdio>
#include <string>
#include <vector>

#include "pagesim/generators.hpp"
#include "pagesim/trace_io.hpp"

namespace {

using pagesim::Trace;
using pagesim::TraceFormat;

constexpr std::size_t kParseAccesses = 2'000'000;

const Trace& sample() {
  static const Trace t = pagesim::generate_zipf(kParseAccesses, 200'000, 0.9, 0.3, 7);
  return t;
}

// The sample trace written in `format`, read back into memory.
const std::string& file_bytes(TraceFormat format) {
  static std::string cache[16];  // by TraceFormat
  std::string& bytes = cache[static_cast<int>(format)];
  if (bytes.empty()) {
    const std::string path = std::string("/tmp/pagesim_bench_traces.") + pagesim::format_name(format);
    pagesim::write_trace(sample(), path, format);
    std::FILE* f = std::fopen(path.c_str(), "rb");
    char buf[1 << 16];
    while (const std::size_t got = std::fread(buf, 1, sizeof buf, f)) bytes.append(buf, got);
    std::fclose(f);
    std::remove(path.c_str());
  }
  return bytes;
}

// The sample trace as an SPC block trace, which pagesim does not write: a 4096-byte request
// per access (ASU = pid, LBA = the page's first 512-byte block), timestamps in seconds.
const std::string& spc_bytes() {
  static const std::string bytes = [] {
    const Trace& t = sample();
    std::string s;
    char line[96];
    for (std::size_t i = 0; i < t.size(); ++i) {
      const pagesim::PageId p = t.page(i);
      const int n = std::snprintf(line, sizeof line, "%llu,%llu,4096,%c,%zu.%06zu\n",
                                  static_cast<unsigned long long>(t.proc_pid(t.page_proc(p))),
                                  static_cast<unsigned long long>(t.page_vpn(p) * 8),
                                  t.write(i) ? 'w' : 'r', i / 1000000, i % 1000000);
      s.append(line, static_cast<std::size_t>(n));
    }
    return s;
  }();
  return bytes;
}

void parse(benchmark::State& state, TraceFormat format) {
  const std::string& bytes = format == TraceFormat::kSpc ? spc_bytes() : file_bytes(format);
  pagesim::ReadOptions options;
  options.format = format;
  std::size_t n = 0;
  for (auto _ : state) {
    const Trace t = pagesim::parse_trace(bytes, options, "bench");
    n = t.size();
    benchmark::DoNotOptimize(t.pages().data());
  }
  state.SetBytesProcessed(state.iterations() * static_cast<std::int64_t>(bytes.size()));
  state.SetItemsProcessed(state.iterations() * static_cast<std::int64_t>(n));
  state.counters["bytes_per_access"] = static_cast<double>(bytes.size()) / static_cast<double>(n);
}

// 100 million accesses over 1 million pages of 4 processes, written once to /tmp.
const std::string& big_native() {
  static const std::string path = [] {
    constexpr std::size_t n = 100'000'000, pages = 1'000'000;
    std::vector<pagesim::PageId> page(n);
    std::vector<std::uint8_t> flags(n);
    std::uint64_t x = 1;
    for (std::size_t i = 0; i < n; ++i) {
      x = x * 6364136223846793005ULL + 1442695040888963407ULL;
      page[i] = static_cast<pagesim::PageId>((x >> 33) % pages);
      flags[i] = static_cast<std::uint8_t>((x >> 20) & 1);
    }
    std::vector<pagesim::ProcId> proc(pages);
    std::vector<std::uint64_t> vpn(pages);
    for (std::size_t p = 0; p < pages; ++p) {
      proc[p] = static_cast<pagesim::ProcId>(p % 4);
      vpn[p] = p;
    }
    const Trace t = Trace::from_columns(std::move(page), std::move(flags), std::move(proc), std::move(vpn),
                                        std::vector<pagesim::PageKind>(pages), {1, 2, 3, 4}, 4096, "bench");
    const std::string p = "/tmp/pagesim_bench_100m.pgt";
    pagesim::write_native(t, p);
    return p;
  }();
  return path;
}

void native_load_100m(benchmark::State& state) {
  const std::string& path = big_native();
  for (auto _ : state) {
    const Trace t = pagesim::read_native(path);
    benchmark::DoNotOptimize(t.pages().data());
  }
  state.SetItemsProcessed(state.iterations() * 100'000'000);
  state.SetBytesProcessed(state.iterations() * 500'000'000);
}

void qsbench(benchmark::State& state) {
  pagesim::QsbenchOptions o;
  o.mib = static_cast<std::uint64_t>(state.range(0));
  std::size_t n = 0;
  for (auto _ : state) {
    const Trace t = pagesim::generate_qsbench(o);
    n = t.size();
    benchmark::DoNotOptimize(t.pages().data());
  }
  state.SetItemsProcessed(state.iterations() * static_cast<std::int64_t>(n));
  state.counters["ints_sorted_per_s"] = benchmark::Counter(
      static_cast<double>(state.iterations()) * static_cast<double>(o.mib) * 262144.0, benchmark::Counter::kIsRate);
}

BENCHMARK_CAPTURE(parse, text, TraceFormat::kText)->Unit(benchmark::kMillisecond);
BENCHMARK_CAPTURE(parse, lackey, TraceFormat::kLackey)->Unit(benchmark::kMillisecond);
BENCHMARK_CAPTURE(parse, csv, TraceFormat::kCsv)->Unit(benchmark::kMillisecond);
BENCHMARK_CAPTURE(parse, oracle_general, TraceFormat::kOracleGeneral)->Unit(benchmark::kMillisecond);
BENCHMARK_CAPTURE(parse, din, TraceFormat::kDin)->Unit(benchmark::kMillisecond);
BENCHMARK_CAPTURE(parse, pinatrace, TraceFormat::kPinatrace)->Unit(benchmark::kMillisecond);
BENCHMARK_CAPTURE(parse, spc, TraceFormat::kSpc)->Unit(benchmark::kMillisecond);
BENCHMARK_CAPTURE(parse, native, TraceFormat::kNative)->Unit(benchmark::kMillisecond);
BENCHMARK(native_load_100m)->Unit(benchmark::kMillisecond)->MinTime(2.0);
BENCHMARK(qsbench)->Arg(16)->Unit(benchmark::kMillisecond);

}  // namespace

BENCHMARK_MAIN();
