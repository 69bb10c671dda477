// The "one big compile in a small machine" workload: gcc's garbage-collected heap
// (ggc-page.c) outgrowing RAM. The model and what it leaves out: generators.hpp, CompileOptions.
//
// The collection threshold, ggc-page.c ggc_collect (gcc 4.5; read in the android-gcc tree):
//   float allocated_last_gc =
//     MAX (G.allocated_last_gc, (size_t)PARAM_VALUE (GGC_MIN_HEAPSIZE) * 1024);
//   float min_expand = allocated_last_gc * PARAM_VALUE (GGC_MIN_EXPAND) / 100;
//   if (G.allocated < allocated_last_gc + min_expand && !ggc_force_collect)
//     return;
//   ... release_pages (); clear_marks (); ggc_mark_roots (); poison_pages ();
//   validate_free_objects (); sweep_pages ();
//   G.allocated_last_gc = G.allocated;
// (gcc 3.3's collectors make the same test in size_t.) poison_pages and validate_free_objects
// are empty macros unless ENABLE_GC_CHECKING / ENABLE_GC_ALWAYS_COLLECT; clear_marks and
// sweep_pages walk the page_entry lists (memset of in_use_p, num_free_objects, free_page).
// gcc 3.0 and 3.1 had fixed constants, what the heuristics below give a small machine:
// collect when G.allocated >= GGC_MIN_EXPAND_FOR_GC (1.3) * G.allocated_last_gc, itself at
// least GGC_MIN_LAST_ALLOCATED (4 MB).
//
// The defaults of the two parameters, gcc 4.4.0 gcc/ggc-common.c (init_ggc_heuristics; gcc
// 3.3's has the same two formulas, set with set_param_value ("ggc-min-expand", ...)):
//   /* The heuristic is a percentage equal to 30% + 70%*(RAM/1GB), yielding
//      a lower bound of 30% and an upper bound of 100% (when RAM >= 1GB).  */
//   min_expand /= 1024*1024*1024;  min_expand *= 70;
//   min_expand = MIN (min_expand, 70);  min_expand += 30;       (returned as int)
//   /* The heuristic is RAM/8, with a lower bound of 4M and an upper
//      bound of 128M (when RAM >= 1GB).  */
//   phys_kbytes /= 8;  ...
//   phys_kbytes = MAX (phys_kbytes, 4 * 1024);  phys_kbytes = MIN (phys_kbytes, 128 * 1024);
// Both are bounded by rlimits (RLIMIT_AS or RLIMIT_DATA, RLIMIT_RSS), none here. 4.x also
// caps the heap size at 100 / (110 + min_expand) of 2 RAM - max(RAM / 2, 20 MB); that cap
// is above RAM / 8 for every RAM where RAM / 8 is above the 4 MiB floor, so it changes nothing.
#include <algorithm>
#include <string>
#include <vector>

#include "pagesim/error.hpp"
#include "pagesim/generators.hpp"
#include "pagesim/rng.hpp"

namespace pagesim {
namespace {

constexpr std::uint64_t kPid = 1;
constexpr std::uint64_t kPageBytes = 4096;
constexpr std::uint64_t kEntriesPerMetaPage = 64;
constexpr std::uint64_t kMetaVpn = 0x8000;        // the page_entry structs: malloc'd
constexpr std::uint64_t kHeapVpn = 1ull << 24;    // the GC pages: mmap'd
constexpr std::uint64_t kHeaderVpn = 1ull << 36;  // file pages: headers, then the source
constexpr std::uint64_t kSourceVpn = 2ull << 36;
constexpr std::uint64_t kMaxAllocation = 1ull << 22;  // pages allocated in all: 16 GiB

std::uint64_t meta_vpn(std::uint64_t heap_page) {
  return kMetaVpn + heap_page / kEntriesPerMetaPage;
}

// The compiler's heap at page granularity: which pages are in use, which of those are live.
class GcHeap {
 public:
  explicit GcHeap(TraceBuilder& out) : out_(out) {}

  // ggc_alloc of a page's worth of objects: the page freed last, or a new one.
  std::uint64_t alloc(bool long_lived) {
    std::uint64_t page;
    if (!free_.empty()) {
      page = free_.back();
      free_.pop_back();
    } else {
      page = state_.size();
      state_.push_back(kFree);
    }
    state_[page] = long_lived ? kLive : kDying;
    ++in_use_;
    out_.add(kPid, meta_vpn(page), true);
    out_.add(kPid, kHeapVpn + page, true);
    if (long_lived) long_lived_.push_back(page);
    return page;
  }

  // The end of a unit: its short-lived objects are garbage from now on.
  void end_unit(const std::vector<std::uint64_t>& unit_pages) {
    for (const std::uint64_t p : unit_pages) {
      if (state_[p] == kDying) state_[p] = kGarbage;
    }
  }

  // ggc_collect.
  void collect(std::uint64_t min_expand, std::uint64_t min_heapsize_bytes,
               std::vector<GcCollection>* log) {
    const std::uint64_t base = std::max(last_live_ * kPageBytes, min_heapsize_bytes);
    if (in_use_ * kPageBytes < base + base * min_expand / 100) return;
    GcCollection c;
    c.start = out_.size();
    c.heap_pages = in_use_;
    write_entries_in_use();  // clear_marks
    c.mark = out_.size();
    std::uint64_t last_meta = UINT64_MAX;
    for (std::uint64_t p = 0; p < state_.size(); ++p) {  // ggc_mark_roots, in address order
      if (state_[p] != kLive) continue;
      write_entry(p, last_meta);
      out_.add(kPid, kHeapVpn + p, false);
    }
    c.sweep = out_.size();
    write_entries_in_use();  // sweep_pages
    for (std::uint64_t p = 0; p < state_.size(); ++p) {
      if (state_[p] == kGarbage) {
        state_[p] = kFree;
        free_.push_back(p);
        --in_use_;
      }
    }
    c.end = out_.size();
    c.live_pages = last_live_ = in_use_;
    if (log) log->push_back(c);
  }

  const std::vector<std::uint64_t>& long_lived() const { return long_lived_; }

 private:
  // Writes the page_entry pages of the pages in use, in address order.
  void write_entries_in_use() {
    std::uint64_t last_meta = UINT64_MAX;
    for (std::uint64_t p = 0; p < state_.size(); ++p) {
      if (state_[p] != kFree) write_entry(p, last_meta);
    }
  }

  // Writes heap page p's page_entry; consecutive entries on one page are one access (`last`:
  // the page written last in this phase).
  void write_entry(std::uint64_t p, std::uint64_t& last) {
    if (meta_vpn(p) != last) out_.add(kPid, last = meta_vpn(p), true);
  }

  enum : std::uint8_t { kFree, kLive, kDying, kGarbage };
  TraceBuilder& out_;
  std::vector<std::uint8_t> state_;        // by page, in address order
  std::vector<std::uint64_t> free_;        // the free list, last freed at the back
  std::vector<std::uint64_t> long_lived_;  // in allocation order
  std::uint64_t in_use_ = 0;
  std::uint64_t last_live_ = 0;
};

// Evenly spread: how many of `total` fall among the first `i` of `n`.
std::uint64_t share(std::uint64_t i, std::uint64_t total, std::uint64_t n) {
  return static_cast<std::uint64_t>(static_cast<unsigned __int128>(i) * total / n);
}

}  // namespace

std::int64_t ggc_min_expand_heuristic(std::uint64_t ram_pages) {
  // 30 + min(70, 70 * RAM / 1 GiB), truncated: 1 GiB is 262144 pages.
  return 30 + static_cast<std::int64_t>(std::min<std::uint64_t>(70, 70 * ram_pages / 262144));
}

std::int64_t ggc_min_heapsize_heuristic(std::uint64_t ram_pages) {
  // RAM / 8 in KiB (4 KiB pages: ram_pages / 2), truncated, clamped to [4 MiB, 128 MiB].
  return static_cast<std::int64_t>(std::clamp<std::uint64_t>(ram_pages / 2, 4 * 1024, 128 * 1024));
}

namespace {

// Options a C++ caller can get wrong; compile_options() has validated the named parameters.
void check(const CompileOptions& o) {
  if (o.heap_pages == 0)
    throw ConfigError("parameter 'heap_mib' (heap_pages) = 0 is out of range: at least 1");
  if (o.header_pages + o.source_pages == 0) {
    throw ConfigError(
        "parameters 'header_mib' and 'source_mib' are both 0: the compile reads at least one page");
  }
  if (o.ram_pages == 0)
    throw ConfigError("parameter 'ram_mib' (ram_pages) = 0 is out of range: at least 1");
  if (!(o.live_fraction >= 0.01 && o.live_fraction <= 1)) {
    throw ConfigError("parameter 'live_fraction' is out of range: allowed 0.01 to 1");
  }
  if (!(o.old_reads >= 0 && o.old_reads <= 1)) {
    throw ConfigError("parameter 'old_reads' is out of range: allowed 0 to 1");
  }
  if (o.ggc_min_expand < -1 || o.ggc_min_heapsize < -1) {
    throw ConfigError(
        "parameters 'ggc_min_expand' and 'ggc_min_heapsize' are out of range: at least -1 "
        "(-1: gcc's heuristic for ram_mib)");
  }
}

}  // namespace

Trace generate_compile(const CompileOptions& o, std::vector<GcCollection>* collections) {
  check(o);
  const std::uint64_t units = o.header_pages + o.source_pages;
  const auto allocation =
      static_cast<std::uint64_t>(static_cast<double>(o.heap_pages) / o.live_fraction + 0.5);
  if (allocation > kMaxAllocation) {
    throw ConfigError("heap_mib / live_fraction = " + std::to_string(allocation / 256) +
                      " MiB of allocation is too large: at most " +
                      std::to_string(kMaxAllocation / 256));
  }
  const auto min_expand = static_cast<std::uint64_t>(
      o.ggc_min_expand >= 0 ? o.ggc_min_expand : ggc_min_expand_heuristic(o.ram_pages));
  const auto min_heapsize_kib = static_cast<std::uint64_t>(
      o.ggc_min_heapsize >= 0 ? o.ggc_min_heapsize : ggc_min_heapsize_heuristic(o.ram_pages));

  TraceBuilder builder(4096, "compile");
  builder.reserve(static_cast<std::size_t>(units + allocation * (2 + o.work)));
  GcHeap heap(builder);
  Rng rng(o.seed);
  std::uint64_t allocated = 0;  // allocations so far: which of them are long-lived
  std::vector<std::uint64_t> unit_pages;
  for (std::uint64_t u = 0; u < units; ++u) {
    if (u < o.header_pages) {
      builder.add(kPid, kHeaderVpn + u, false, PageKind::kFile);
    } else {
      builder.add(kPid, kSourceVpn + (u - o.header_pages), false, PageKind::kFile);
    }
    unit_pages.clear();
    for (const std::uint64_t end = share(u + 1, allocation, units); allocated < end; ++allocated) {
      const bool long_lived = share(allocated + 1, o.heap_pages, allocation) >
                              share(allocated, o.heap_pages, allocation);
      unit_pages.push_back(heap.alloc(long_lived));
    }
    const std::vector<std::uint64_t>& old = heap.long_lived();
    for (std::uint64_t i = 0, n = unit_pages.size() * o.work; i < n; ++i) {
      if (rng.uniform() < o.old_reads && !old.empty()) {
        const double x = rng.uniform();
        const auto k = static_cast<std::size_t>(x * x * static_cast<double>(old.size()));
        builder.add(kPid, kHeapVpn + old[k], false);
      } else {
        const std::uint64_t page = unit_pages[rng.below(unit_pages.size())];
        builder.add(kPid, kHeapVpn + page, rng.uniform() < 0.5);
      }
    }
    heap.end_unit(unit_pages);
    heap.collect(min_expand, min_heapsize_kib * 1024, collections);
  }
  return std::move(builder).build();
}

CompileOptions compile_options(const Params& params) {
  const auto pages = [&](const char* key, std::int64_t fallback_mib, std::int64_t lo) {
    return static_cast<std::uint64_t>(params.get_int(key, fallback_mib, lo, 1 << 16)) * 256;
  };
  CompileOptions o;
  o.heap_pages = pages("heap_mib", 96, 1);
  o.header_pages = pages("header_mib", 8, 0);
  o.source_pages = pages("source_mib", 2, 0);
  o.ram_pages = pages("ram_mib", 64, 1);
  o.ggc_min_expand = params.get_int("ggc_min_expand", -1, -1, 100000);
  o.ggc_min_heapsize = params.get_int("ggc_min_heapsize", -1, -1, std::int64_t{1} << 32);
  o.live_fraction = params.get_double("live_fraction", 0.25, 0.01, 1);
  o.work = static_cast<std::uint32_t>(params.get_int("work", 8, 0, 1000));
  o.old_reads = params.get_double("old_reads", 0.1, 0, 1);
  o.seed = static_cast<std::uint64_t>(params.get_int("seed", 1, 0, INT64_MAX));
  return o;
}

}  // namespace pagesim
