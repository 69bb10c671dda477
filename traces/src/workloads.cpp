#include <unistd.h>

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <tuple>

#include "pagesim/error.hpp"
#include "pagesim/generators.hpp"
#include "pagesim/rng.hpp"

namespace pagesim {
namespace {

void check_page_size(std::uint32_t page_size) {
  if (page_size < 4 || (page_size & (page_size - 1)) != 0) {
    throw ConfigError("parameter 'page_size' = " + std::to_string(page_size) +
                      " is not allowed: must be a power of two of at least 4");
  }
}

// One process's page accesses (page index in its array, write bit), filtered through a window
// of its one or two most recently touched pages (see QsbenchOptions). The test for the most
// recent page is inlined in the sort's inner loops: it decides almost every touch.
class Recorder {
 public:
  Recorder(std::uint32_t window, std::uint32_t shift) : window_(window), shift_(shift) {}

  void touch(std::size_t element, bool write) {
    const std::uint64_t page = element >> shift_;
    if (page == p0_) {
      if (write && !w0_) {
        emit(page, true);
        w0_ = true;
      }
      return;
    }
    touch_other(page, write);
  }

  // Page index << 1 | write.
  std::vector<std::uint32_t> take() { return std::move(out_); }

 private:
  static constexpr std::uint64_t kNone = UINT64_MAX;

  void touch_other(std::uint64_t page, bool write) {
    if (window_ == 2 && page == p1_) {
      if (write && !w1_) {
        emit(page, true);
        w1_ = true;
      }
      std::swap(p0_, p1_);
      std::swap(w0_, w1_);
      return;
    }
    // A page from outside the window: first re-touch the window's most recent page if the
    // emitted order left it behind, so that here the emitted and the true recency order agree.
    if (p0_ != kNone && last_ != p0_) emit(p0_, false);
    emit(page, write);
    if (window_ == 0) return;
    p1_ = p0_;
    w1_ = w0_;
    p0_ = page;
    w0_ = write;
  }

  void emit(std::uint64_t page, bool write) {
    out_.push_back(static_cast<std::uint32_t>(page << 1 | (write ? 1u : 0u)));
    last_ = page;
  }

  std::uint64_t window_;
  std::uint64_t shift_;
  std::uint64_t p0_ = kNone, p1_ = kNone;  // most recent first
  bool w0_ = false, w1_ = false;           // written since entering the window
  std::uint64_t last_ = kNone;
  std::vector<std::uint32_t> out_;
};

constexpr std::size_t kThresh = 4;  // glibc MAX_THRESH

template <class Touch>
void quicksort(std::uint32_t* a, std::size_t n, Touch& touch) {
  const auto get = [&](std::size_t i) {
    touch(i, false);
    return a[i];
  };
  const auto set = [&](std::size_t i, std::uint32_t v) {
    touch(i, true);
    a[i] = v;
  };
  const auto swap = [&](std::size_t i, std::size_t j) {
    const std::uint32_t x = get(i), y = get(j);
    set(i, y);
    set(j, x);
  };
  if (n <= 1) return;
  if (n > kThresh) {
    std::vector<std::pair<std::size_t, std::size_t>> stack;
    std::size_t lo = 0, hi = n - 1;
    for (;;) {
      // Median of three: a[lo] <= a[mid] <= a[hi] afterwards, the outer two act as sentinels.
      const std::size_t mid = lo + ((hi - lo) >> 1);
      if (get(mid) < get(lo)) swap(mid, lo);
      if (get(hi) < get(mid)) {
        swap(mid, hi);
        if (get(mid) < get(lo)) swap(mid, lo);
      }
      const std::uint32_t pivot = get(mid);
      std::size_t left = lo + 1, right = hi - 1;
      do {
        while (get(left) < pivot) ++left;
        while (pivot < get(right)) --right;
        if (left < right) {
          swap(left, right);
          ++left;
          --right;
        } else if (left == right) {
          ++left;
          --right;
          break;
        }
      } while (left <= right);
      // Partitions of at most kThresh elements are left for the insertion sort.
      const bool small_left = right - lo <= kThresh;
      const bool small_right = hi - left <= kThresh;
      if (small_left && small_right) {
        if (stack.empty()) break;
        std::tie(lo, hi) = stack.back();
        stack.pop_back();
      } else if (small_left) {
        lo = left;
      } else if (small_right) {
        hi = right;
      } else if (right - lo > hi - left) {
        stack.emplace_back(lo, right);
        lo = left;
      } else {
        stack.emplace_back(left, hi);
        hi = right;
      }
    }
  }
  // Insertion sort over the whole array, the smallest of the first kThresh + 1 elements first
  // as the sentinel (it is the global minimum: every partition step kept smaller elements left).
  const std::size_t end = n - 1;
  const std::size_t thresh = std::min(end, kThresh);
  std::size_t smallest = 0;
  for (std::size_t run = 1; run <= thresh; ++run) {
    if (get(run) < get(smallest)) smallest = run;
  }
  if (smallest != 0) swap(smallest, 0);
  for (std::size_t run = 2; run <= end; ++run) {
    const std::uint32_t v = get(run);
    std::size_t pos = run - 1;
    while (v < get(pos)) --pos;
    ++pos;
    if (pos != run) {
      for (std::size_t k = run; k > pos; --k) set(k, get(k - 1));
      set(pos, v);
    }
  }
}

}  // namespace

void qsbench_sort(std::vector<std::uint32_t>& a, const std::function<void(std::size_t, bool)>& touch) {
  quicksort(a.data(), a.size(), touch);
}

Trace generate_qsbench(const QsbenchOptions& o, std::vector<std::vector<std::uint32_t>>* sorted) {
  check_page_size(o.page_size);
  if (o.procs == 0 || o.procs > 1024) throw ConfigError("parameter 'procs' is out of range: allowed 1 to 1024");
  if (o.quantum == 0) throw ConfigError("parameter 'quantum' = 0 is out of range: at least 1");
  if (o.window > 2) throw ConfigError("parameter 'window' is out of range: allowed 0 to 2");
  const std::uint64_t n = o.elements != 0 ? o.elements : o.mib * (std::uint64_t{1} << 20) / 4;
  if (n == 0) {
    throw ConfigError(
        "parameter 'mib' = 0 asks for an empty array: give mib from 1 to 8192, or 'elements' (0 "
        "is for a size in elements)");
  }
  if (n > (std::uint64_t{1} << 31)) throw ConfigError("qsbench array of " + std::to_string(n) + " ints is too large: at most 2^31 (8 GiB)");
  const auto shift = static_cast<std::uint32_t>(__builtin_ctz(o.page_size)) - 2;
  const std::uint64_t base_vpn = std::uint64_t{0x10000000} >> (shift + 2);  // the array at 256 MiB

  std::vector<std::vector<std::uint32_t>> streams(o.procs);
  std::vector<std::uint32_t> a(n);
  for (std::uint32_t p = 0; p < o.procs; ++p) {
    Recorder rec(o.window, shift);
    Rng rng(o.seed * 0x100000001b3ULL + p);
    for (std::size_t i = 0; i < n; ++i) {  // the fill pass: array[i] = rand()
      rec.touch(i, true);
      a[i] = static_cast<std::uint32_t>(rng.next() >> 33);
    }
    const auto touch = [&rec](std::size_t i, bool w) { rec.touch(i, w); };
    quicksort(a.data(), a.size(), touch);
    streams[p] = rec.take();
    if (sorted) sorted->push_back(a);
  }
  std::size_t total = 0;
  for (const auto& s : streams) total += s.size();
  TraceBuilder builder(o.page_size, "qsbench");
  builder.reserve(total);
  std::vector<std::size_t> pos(o.procs, 0);
  for (std::size_t done = 0; done < total;) {
    for (std::uint32_t p = 0; p < o.procs; ++p) {
      const std::size_t stop = std::min<std::size_t>(streams[p].size(), pos[p] + o.quantum);
      for (; pos[p] < stop; ++pos[p], ++done) {
        const std::uint32_t e = streams[p][pos[p]];
        builder.add(p + 1, base_vpn + (e >> 1), (e & 1) != 0);
      }
    }
  }
  return std::move(builder).build();
}

Trace generate_stream(std::uint64_t mib, std::uint32_t files, std::uint32_t passes, std::uint64_t seed,
                      std::uint64_t pid) {
  const std::uint64_t pages = mib * 256;
  if (pages == 0) throw ConfigError("parameter 'mib' = 0 is out of range: at least 1");
  if (files == 0 || files > pages) {
    throw ConfigError("parameter 'files' = " + std::to_string(files) + " is out of range: allowed 1 to " +
                      std::to_string(pages) + " (one page each)");
  }
  if (passes == 0) throw ConfigError("parameter 'passes' = 0 is out of range: at least 1");
  // Sizes: 1 page each, the rest shared out in proportion to exponential draws.
  Rng rng(seed);
  std::vector<double> weight(files);
  double sum = 0;
  for (auto& w : weight) sum += (w = -std::log(1.0 - rng.uniform()));
  std::vector<std::uint64_t> size(files, 1);
  std::uint64_t given = files;
  for (std::uint32_t f = 0; f < files; ++f) {
    const auto extra = static_cast<std::uint64_t>(static_cast<double>(pages - files) * weight[f] / sum);
    size[f] += extra;
    given += extra;
  }
  size[0] += pages - given;  // rounding remainder
  TraceBuilder builder(4096, "stream");
  builder.reserve(pages * passes);
  for (std::uint32_t pass = 0; pass < passes; ++pass) {
    for (std::uint32_t f = 0; f < files; ++f) {
      for (std::uint64_t k = 0; k < size[f]; ++k) builder.add(pid, (std::uint64_t{f} << 24) + k, false, PageKind::kFile);
    }
  }
  return std::move(builder).build();
}

Trace generate_hog(std::uint64_t mib, std::uint32_t passes, std::uint64_t pid) {
  const std::uint64_t pages = mib * 256;
  if (pages == 0) throw ConfigError("parameter 'mib' = 0 is out of range: at least 1");
  if (passes == 0) throw ConfigError("parameter 'passes' = 0 is out of range: at least 1");
  TraceBuilder builder(4096, "hog");
  builder.reserve(pages * passes);
  for (std::uint32_t pass = 0; pass < passes; ++pass) {
    for (std::uint64_t k = 0; k < pages; ++k) builder.add(pid, 0x10000 + k, true);
  }
  return std::move(builder).build();
}

Trace generate_phases(std::uint64_t accesses, std::uint32_t phases, std::uint32_t pages, double shift,
                      double write_fraction, std::uint64_t seed) {
  if (accesses == 0) throw ConfigError("parameter 'accesses' = 0 is out of range: at least 1");
  if (phases == 0 || phases > accesses) throw ConfigError("parameter 'phases' is out of range: allowed 1 to 'accesses'");
  if (pages == 0) throw ConfigError("parameter 'pages' = 0 is out of range: at least 1");
  if (!(shift >= 0 && shift <= 1)) throw ConfigError("parameter 'shift' is out of range: allowed 0 to 1");
  if (!(write_fraction >= 0 && write_fraction <= 1)) throw ConfigError("parameter 'write_fraction' is out of range: allowed 0 to 1");
  Rng rng(seed);
  TraceBuilder builder(4096, "phases");
  builder.reserve(accesses);
  const auto step = static_cast<std::uint64_t>(std::llround(shift * pages));
  for (std::uint32_t ph = 0; ph < phases; ++ph) {
    const std::uint64_t first = accesses * ph / phases, last = accesses * (ph + 1) / phases;
    for (std::uint64_t i = first; i < last; ++i) {
      builder.add(1, step * ph + rng.below(pages), rng.uniform() < write_fraction);
    }
  }
  return std::move(builder).build();
}

Trace generate_kbuild(const KbuildOptions& o) {
  if (o.jobs == 0) throw ConfigError("parameter 'jobs' = 0 is out of range: at least 1");
  if (o.parallel == 0 || o.parallel > 1024) throw ConfigError("parameter 'parallel' is out of range: allowed 1 to 1024");
  if (o.shared_mib == 0 || o.heap_mib == 0) throw ConfigError("parameters 'shared_mib' and 'heap_mib' must be at least 1");
  if (o.job_accesses == 0 || o.quantum == 0) throw ConfigError("parameters 'job_accesses' and 'quantum' must be at least 1");
  if (!(o.shared_fraction >= 0 && o.shared_fraction <= 1)) throw ConfigError("parameter 'shared_fraction' is out of range: allowed 0 to 1");
  const std::uint64_t shared_pages = o.shared_mib * 256, heap_pages = o.heap_mib * 256;
  struct Job {
    std::uint32_t id;
    Rng rng;
    std::uint64_t done = 0;
    std::uint64_t heap = 0;  // this job's heap size in pages
    std::uint64_t top = 0;   // pages allocated so far
  };
  Rng master(o.seed);
  const auto start = [&](std::uint32_t id) {
    Job j{id, Rng(master.next()), 0, 0, 0};
    j.heap = heap_pages / 2 + j.rng.below(heap_pages - heap_pages / 2) + 1;
    return j;
  };
  TraceBuilder builder(4096, "kbuild");
  builder.reserve(static_cast<std::size_t>(o.jobs) * o.job_accesses);
  std::vector<Job> running;
  std::uint32_t next = 0;
  while (next < o.jobs && running.size() < o.parallel) running.push_back(start(next++));
  while (!running.empty()) {
    for (std::size_t s = 0; s < running.size();) {
      Job& j = running[s];
      const std::uint64_t pid = 100 + j.id;
      for (std::uint64_t q = 0; q < o.quantum && j.done < o.job_accesses; ++q, ++j.done) {
        if (j.rng.uniform() < o.shared_fraction) {
          // Skewed towards the start of the shared set: the compiler's hot text and common headers.
          const double u = j.rng.uniform();
          builder.add(0, 0x400000 + static_cast<std::uint64_t>(u * u * static_cast<double>(shared_pages)), false, PageKind::kFile);
        } else {
          // The heap grows in proportion to progress; a new page is written first.
          const std::uint64_t want = 1 + j.heap * (j.done + 1) / o.job_accesses;
          if (j.top < std::min(want, j.heap)) {
            builder.add(pid, 0x10000 + j.top++, true);
          } else {
            builder.add(pid, 0x10000 + j.rng.below(j.top), j.rng.uniform() < 0.5);
          }
        }
      }
      if (j.done == o.job_accesses) {
        if (next < o.jobs) {
          running[s] = start(next++);
          ++s;
        } else {
          running.erase(running.begin() + static_cast<std::ptrdiff_t>(s));
        }
      } else {
        ++s;
      }
    }
  }
  return std::move(builder).build();
}

Trace interleave(const std::vector<const Trace*>& traces, std::uint64_t quantum, bool renumber) {
  if (traces.empty()) throw ConfigError("interleave needs at least one trace");
  if (quantum == 0) throw ConfigError("parameter 'quantum' = 0 is out of range: at least 1");
  const std::uint32_t page_size = traces[0]->page_size();
  std::size_t total = 0;
  std::vector<std::vector<std::uint64_t>> pid_of(traces.size());
  std::uint64_t next_pid = 1;
  for (std::size_t k = 0; k < traces.size(); ++k) {
    const Trace& t = *traces[k];
    if (t.page_size() != page_size) throw ConfigError("interleave: traces have different page sizes");
    total += t.size();
    for (ProcId p = 0; p < t.num_procs(); ++p) pid_of[k].push_back(renumber ? next_pid++ : t.proc_pid(p));
  }
  TraceBuilder builder(page_size, "interleave");
  builder.reserve(total);
  std::vector<std::size_t> pos(traces.size(), 0);
  for (std::size_t done = 0; done < total;) {
    for (std::size_t k = 0; k < traces.size(); ++k) {
      const Trace& t = *traces[k];
      const std::size_t stop = std::min<std::size_t>(t.size(), pos[k] + quantum);
      for (std::size_t& i = pos[k]; i < stop; ++i, ++done) {
        const PageId p = t.page(i);
        builder.add(pid_of[k][t.page_proc(p)], t.page_vpn(p), t.write(i), t.page_kind(p));
      }
    }
  }
  return std::move(builder).build();
}

std::vector<std::string> generator_names() {
  return {"compile", "hog", "kbuild", "loop", "phases", "qsbench", "stream", "zipf"};
}

namespace {

// A trace takes 5 bytes an access: refuse one larger than this machine's memory by the
// parameter `key` = `value` that asks for its `accesses`, rather than fail on the allocation.
void check_fits(const char* key, std::uint64_t value, double accesses) {
  const double need = 5.0 * accesses;
  const double have = static_cast<double>(::sysconf(_SC_PHYS_PAGES)) *
                      static_cast<double>(::sysconf(_SC_PAGE_SIZE));
  if (have > 0 && need > have) {
    char what[160];
    std::snprintf(what, sizeof what,
                  "%.1f GiB (5 bytes an access), more than this machine's %.1f GiB of memory",
                  need / (1 << 30), have / (1 << 30));
    throw ConfigError("parameter '" + std::string(key) + "' = " + std::to_string(value) +
                      " asks for a trace of " + what);
  }
}

}  // namespace

Trace generate(const std::string& kind, const Params& params) {
  // Sizes and counts are at least 1 (lo 1); seeds and fractions may be 0.
  const auto u64 = [&](const char* key, std::int64_t fallback, std::int64_t hi = INT64_MAX,
                       std::int64_t lo = 0) {
    return static_cast<std::uint64_t>(params.get_int(key, fallback, lo, hi));
  };
  const auto u32 = [&](const char* key, std::int64_t fallback, std::int64_t lo = 0) {
    return static_cast<std::uint32_t>(params.get_int(key, fallback, lo, UINT32_MAX));
  };
  if (kind == "qsbench") {
    QsbenchOptions o;
    o.mib = u64("mib", 16, 8192);  // 0 with `elements`
    o.elements = u64("elements", 0);
    if (o.elements != 0 && params.has("mib") && o.mib != 0) {
      throw ConfigError("parameters 'mib' = " + std::to_string(o.mib) + " and 'elements' = " +
                        std::to_string(o.elements) + " both size the array: give one of them");
    }
    o.procs = static_cast<std::uint32_t>(params.get_int("procs", 1, 1, 1024));
    o.seed = u64("seed", 1);
    o.window = static_cast<std::uint32_t>(params.get_int("window", 2, 0, 2));
    o.page_size = u32("page_size", 4096);
    o.quantum = u64("quantum", 10000, INT64_MAX, 1);
    params.check_all_used("generator 'qsbench'");
    return generate_qsbench(o);
  }
  if (kind == "stream") {
    const std::uint64_t mib = u64("mib", 64, 1 << 24, 1);
    const std::uint32_t files = u32("files", 1, 1), passes = u32("passes", 1, 1);
    const std::uint64_t seed = u64("seed", 1), pid = u64("pid", 1);
    params.check_all_used("generator 'stream'");
    return generate_stream(mib, files, passes, seed, pid);
  }
  if (kind == "hog") {
    const std::uint64_t mib = u64("mib", 64, 1 << 24, 1);
    const std::uint32_t passes = u32("passes", 1, 1);
    const std::uint64_t pid = u64("pid", 1);
    params.check_all_used("generator 'hog'");
    return generate_hog(mib, passes, pid);
  }
  if (kind == "zipf" || kind == "loop") {
    const std::uint64_t accesses = u64("accesses", 1000000, INT64_MAX, 1);
    const std::uint32_t pages = u32("pages", 10000, 1);
    check_fits("accesses", accesses, static_cast<double>(accesses));
    const double alpha = kind == "zipf" ? params.get_double("alpha", 0.9, 0, 10) : 0;
    const double wf = params.get_double("write_fraction", 0.3, 0, 1);
    const std::uint64_t seed = u64("seed", 1);
    params.check_all_used("generator '" + kind + "'");
    return kind == "zipf" ? generate_zipf(accesses, pages, alpha, wf, seed) : generate_loop(accesses, pages, wf, seed);
  }
  if (kind == "phases") {
    const std::uint64_t accesses = u64("accesses", 1000000, INT64_MAX, 1);
    const std::uint32_t phases = u32("phases", 4, 1), pages = u32("pages", 10000, 1);
    check_fits("accesses", accesses, static_cast<double>(accesses));
    const double shift = params.get_double("shift", 0.5, 0, 1);
    const double wf = params.get_double("write_fraction", 0.3, 0, 1);
    const std::uint64_t seed = u64("seed", 1);
    params.check_all_used("generator 'phases'");
    return generate_phases(accesses, phases, pages, shift, wf, seed);
  }
  if (kind == "kbuild") {
    KbuildOptions o;
    o.jobs = u32("jobs", 64);
    o.parallel = u32("parallel", 4);
    o.shared_mib = u64("shared_mib", 32, 1 << 20);
    o.heap_mib = u64("heap_mib", 8, 1 << 20);
    o.job_accesses = u64("job_accesses", 20000);
    check_fits("job_accesses", o.job_accesses, o.jobs * static_cast<double>(o.job_accesses));
    o.shared_fraction = params.get_double("shared_fraction", 0.5, 0, 1);
    o.quantum = u64("quantum", 1000);
    o.seed = u64("seed", 1);
    params.check_all_used("generator 'kbuild'");
    return generate_kbuild(o);
  }
  if (kind == "compile") {
    const CompileOptions o = compile_options(params);
    params.check_all_used("generator 'compile'");
    return generate_compile(o);
  }
  std::string names;
  for (const auto& n : generator_names()) names += (names.empty() ? "" : ", ") + n;
  throw ConfigError("generator '" + kind + "' is not known: allowed " + names);
}

}  // namespace pagesim
