// Generators: qsbench really sorts and its access counts match a hand count; the others make
// the workload they document, deterministically for a seed.
#include <doctest/doctest.h>

#include <algorithm>
#include <set>

#include "helpers.hpp"
#include "pagesim/generators.hpp"
#include "pagesim/rng.hpp"
#include "trace_files.hpp"

namespace pagesim::test {
namespace {

TEST_CASE("qsbench_sort on [3, 1, 2]: the element accesses counted by hand") {
  // 3 elements <= 4: no partitioning, only glibc's final insertion sort.
  //   smallest of a[0..2]: run 1: R1 R0 (1 < 3, smallest=1); run 2: R2 R1 (2 < 1? no)
  //   swap(1, 0): R1 R0 W1 W0                        -> [1, 3, 2]
  //   insertion, run 2: R2 (v=2); R1 (2 < 3, pos 0); R0 (2 < 1? no) -> pos 1
  //   shift: R1 W2; then W1                          -> [1, 2, 3]
  std::vector<std::uint32_t> a = {3, 1, 2};
  std::string seen;
  qsbench_sort(a, [&](std::size_t i, bool w) { seen += (w ? "W" : "R") + std::to_string(i) + " "; });
  CHECK(seen == "R1 R0 R2 R1 R1 R0 W1 W0 R2 R1 R0 R1 W2 W1 ");
  CHECK(a == std::vector<std::uint32_t>{1, 2, 3});
}

TEST_CASE("qsbench_sort on 6 elements: partition then insertion, counted by hand") {
  // [5, 1, 4, 2, 6, 3], n = 6 > 4: one partition step.
  //   lo 0, hi 5, mid 2. R2 R0 (4 < 5: swap) R2 R0 W2 W0 -> [4,1,5,2,6,3]
  //   R5 R2 (3 < 5: swap mid,hi) R2 R5 W2 W5 -> [4,1,3,2,6,5]; R2 R0 (3 < 4: swap) R2 R0 W2 W0 -> [3,1,4,2,6,5]
  //   pivot: R2 (4). left 1, right 4.
  //   scan left: R1 (1<4) R2 (4<4 no) -> left 2; scan right: R4 (4<6) R3 (4<2 no) -> right 3
  //   2 < 3: swap(2, 3): R2 R3 W2 W3 -> [3,1,2,4,6,5]; left 3, right 2 -> loop ends
  //   right-lo = 2 <= 4 and hi-left = 2 <= 4: stack empty, done.
  //   insertion: smallest of a[0..4]: R1 R0 (1<3 -> 1); R2 R1; R3 R1; R4 R1; swap(1,0): R1 R0 W1 W0 -> [1,3,2,4,6,5]
  //   run 2: R2 (2) R1 (2<3) R0 (2<1 no) -> pos 1; R1 W2 W1 -> [1,2,3,4,6,5]
  //   run 3: R3 (4) R2 (4<3 no); run 4: R4 (6) R3 no; run 5: R5 (5) R4 (5<6) R3 (5<4 no) -> pos 4; R4 W5 W4
  std::vector<std::uint32_t> a = {5, 1, 4, 2, 6, 3};
  std::string seen;
  qsbench_sort(a, [&](std::size_t i, bool w) { seen += (w ? "W" : "R") + std::to_string(i) + " "; });
  CHECK(seen ==
        "R2 R0 R2 R0 W2 W0 R5 R2 R2 R5 W2 W5 R2 R0 R2 R0 W2 W0 R2 "
        "R1 R2 R4 R3 R2 R3 W2 W3 "
        "R1 R0 R2 R1 R3 R1 R4 R1 R1 R0 W1 W0 "
        "R2 R1 R0 R1 W2 W1 R3 R2 R4 R3 R5 R4 R3 R4 W5 W4 ");
  CHECK(a == std::vector<std::uint32_t>{1, 2, 3, 4, 5, 6});
}

TEST_CASE("qsbench_sort sorts arrays of every small size and larger random ones") {
  Rng rng(3);
  for (std::size_t n : {0u, 1u, 2u, 3u, 4u, 5u, 6u, 7u, 8u, 9u, 10u, 17u, 64u, 1000u, 30000u}) {
    for (int rep = 0; rep < 5; ++rep) {
      std::vector<std::uint32_t> a(n);
      for (auto& x : a) x = static_cast<std::uint32_t>(rng.below(rep == 0 ? 3 : 1000000));  // rep 0: many equal keys
      std::vector<std::uint32_t> expected = a;
      std::sort(expected.begin(), expected.end());
      std::size_t outside = 0;
      qsbench_sort(a, [&](std::size_t i, bool) { outside += i >= n; });
      CHECK(outside == 0);
      CHECK(a == expected);
    }
  }
}

TEST_CASE("qsbench: the array ends sorted, one fill write per page, counts as the sort makes them") {
  QsbenchOptions o;
  o.elements = 50000;
  o.procs = 2;
  o.seed = 9;
  std::vector<std::vector<std::uint32_t>> arrays;
  const Trace t = generate_qsbench(o, &arrays);
  REQUIRE(arrays.size() == 2);
  for (const auto& a : arrays) CHECK(std::is_sorted(a.begin(), a.end()));
  CHECK(arrays[0] != arrays[1]);
  CHECK(t.num_procs() == 2);
  // 50000 ints = 200000 bytes = 48.8 -> 49 pages per process, every one written by the fill pass.
  CHECK(t.num_pages() == 2 * 49);
  CHECK(t.page_vpn(t.page(0)) == 0x10000);
  CHECK(t.write(0));

  // Window 0 with one int per page: exactly the fill's n writes plus every access of the sort.
  QsbenchOptions raw;
  raw.elements = 300;
  raw.window = 0;
  raw.page_size = 4;
  raw.seed = 4;
  std::vector<std::vector<std::uint32_t>> sorted;
  const Trace r = generate_qsbench(raw, &sorted);
  std::vector<std::uint32_t> again(300);
  Rng rng(raw.seed * 0x100000001b3ULL);
  for (auto& x : again) x = static_cast<std::uint32_t>(rng.next() >> 33);
  std::size_t touches = 0, writes = 0;
  qsbench_sort(again, [&](std::size_t, bool w) { ++touches; writes += w; });
  CHECK(again == sorted[0]);
  CHECK(r.size() == 300 + touches);
  CHECK(r.count_writes() == 300 + writes);
}

TEST_CASE("qsbench: the page filter keeps LRU's counts exact (window 1 and 2 against no filter)") {
  QsbenchOptions o;
  o.elements = 20000;
  o.page_size = 256;  // 64 ints a page: 313 pages, a trace small enough to replay unfiltered
  o.window = 0;
  const Trace full = generate_qsbench(o);
  for (std::uint32_t window : {1u, 2u}) {
    o.window = window;
    const Trace filtered = generate_qsbench(o);
    CHECK(filtered.size() < full.size());
    for (std::int64_t frames : {2, 50, 200}) {
      CAPTURE(window);
      CAPTURE(frames);
      const Counters a = run(full, "lru", frames), b = run(filtered, "lru", frames);
      CHECK(a.faults == b.faults);
      CHECK(a.swap_outs == b.swap_outs);
      CHECK(a.major_faults == b.major_faults);
    }
  }
}

TEST_CASE("generators are deterministic for a seed") {
  const auto same = [](const Trace& a, const Trace& b) { return a.pages() == b.pages() && a.flags() == b.flags(); };
  QsbenchOptions q;
  q.elements = 5000;
  CHECK(same(generate_qsbench(q), generate_qsbench(q)));
  KbuildOptions k;
  k.jobs = 6;
  k.job_accesses = 2000;
  CHECK(same(generate_kbuild(k), generate_kbuild(k)));
  CHECK(same(generate_phases(10000, 3, 500, 0.5, 0.2, 5), generate_phases(10000, 3, 500, 0.5, 0.2, 5)));
  CHECK(!same(generate_phases(10000, 3, 500, 0.5, 0.2, 5), generate_phases(10000, 3, 500, 0.5, 0.2, 6)));
  CHECK(same(generate_stream(4, 30, 1, 2), generate_stream(4, 30, 1, 2)));
}

TEST_CASE("stream reads every file page once; hog writes every page once") {
  const Trace s = generate_stream(3, 40, 1, 7);
  CHECK(s.size() == 3 * 256);
  CHECK(s.num_pages() == 3 * 256);
  CHECK(s.count_writes() == 0);
  for (PageId p = 0; p < s.num_pages(); ++p) CHECK(s.page_kind(p) == PageKind::kFile);
  std::set<std::uint64_t> files;
  for (auto v : s.page_vpns()) files.insert(v >> 24);
  CHECK(files.size() == 40);
  // dd: one file, sequential.
  const Trace dd = generate_stream(1, 1, 2, 1);
  CHECK(dd.size() == 512);
  CHECK(dd.num_pages() == 256);
  for (std::size_t i = 1; i < 256; ++i) CHECK(dd.page_vpn(dd.page(i)) == dd.page_vpn(dd.page(i - 1)) + 1);

  const Trace h = generate_hog(2, 1);
  CHECK(h.size() == 512);
  CHECK(h.num_pages() == 512);
  CHECK(h.count_writes() == 512);
  CHECK_THROWS_AS(generate_stream(1, 1000, 1, 1), ConfigError);
}

TEST_CASE("phases: each phase uses its own shifted working set") {
  const Trace t = generate_phases(30000, 3, 1000, 1.0, 0, 1);
  for (std::size_t i = 0; i < t.size(); ++i) {
    const std::uint64_t phase = i / 10000, v = t.page_vpn(t.page(i));
    CHECK(v >= phase * 1000);
    CHECK(v < phase * 1000 + 1000);
  }
  CHECK(generate_phases(30000, 3, 1000, 0.0, 0, 1).num_pages() <= 1000);
}

TEST_CASE("kbuild: short private processes, a shared read-only page-cache set") {
  KbuildOptions o;
  o.jobs = 10;
  o.parallel = 3;
  o.job_accesses = 3000;
  o.shared_mib = 1;
  o.heap_mib = 1;
  const Trace t = generate_kbuild(o);
  CHECK(t.size() == 30000);
  CHECK(t.num_procs() == 11);  // pid 0 (page cache) and 10 jobs
  for (PageId p = 0; p < t.num_pages(); ++p) {
    const bool shared = t.proc_pid(t.page_proc(p)) == 0;
    CHECK((t.page_kind(p) == PageKind::kFile) == shared);
  }
  std::uint64_t shared_writes = 0;
  for (std::size_t i = 0; i < t.size(); ++i) shared_writes += t.write(i) && t.proc_pid(t.proc(i)) == 0;
  CHECK(shared_writes == 0);
}

// The compile generator's page layout (generators.hpp): page_entry pages, heap, header, source.
std::string compile_page_name(std::uint64_t vpn) {
  if (vpn >= (2ull << 36)) return "S" + std::to_string(vpn - (2ull << 36));
  if (vpn >= (1ull << 36)) return "H" + std::to_string(vpn - (1ull << 36));
  if (vpn >= (1ull << 24)) return "h" + std::to_string(vpn - (1ull << 24));
  return "M" + std::to_string(vpn - 0x8000);
}

std::string compile_accesses(const Trace& t, std::size_t from = 0, std::size_t to = SIZE_MAX) {
  std::string out;
  for (std::size_t i = from; i < std::min(to, t.size()); ++i) {
    out += (t.write(i) ? "W" : "R") + compile_page_name(t.page_vpn(t.page(i))) + " ";
  }
  return out;
}

TEST_CASE("compile: a tiny compile traced by hand (allocation, thresholds, mark, sweep, reuse)") {
  // 2 header and 2 source pages, 4 units. live_fraction 0.5: 4 / 0.5 = 8 allocations, 2 a unit;
  // allocation j is long-lived iff floor((j + 1) / 2) > floor(j / 2), i.e. j odd. No work.
  // ggc_min_heapsize 8 KiB (2 pages), ggc_min_expand 50%: collect when
  // in_use * 4096 >= base + base / 2, base = max(live after the last collection, 8192).
  // Page entries: heap pages 0..4 all on page_entry page M0.
  //   unit 0: R H0; j0 -> new h0, j1 -> new h1 (W M0 W h)      in use 2 = 8192 < 12288: no
  //   unit 1: R H1; j2 -> new h2, j3 -> new h3                 in use 4 = 16384 >= 12288:
  //     collection 1 at 10: clear W M0; mark at 11: W M0 R h1 R h3 (live: h1 h3);
  //     sweep at 14: W M0; frees h0 then h2 (free list, last freed on top: h2 h0); ends at 15.
  //   unit 2: R S0; j4 -> h2 (freed last), j5 -> h0        in use 4 >= 8192 + 4096 = 12288:
  //     collection 2 at 20: W M0 | W M0 R h0 R h1 R h3 | W M0; frees h2; live 3; ends at 26.
  //   unit 3: R S1; j6 -> h2, j7 -> new h4          in use 5 = 20480 >= 12288 + 6144 = 18432:
  //     collection 3 at 31: W M0 | W M0 R h0 R h1 R h3 R h4 | W M0; live 4; ends at 38.
  CompileOptions o;
  o.heap_pages = 4;
  o.header_pages = 2;
  o.source_pages = 2;
  o.ggc_min_expand = 50;
  o.ggc_min_heapsize = 8;
  o.live_fraction = 0.5;
  o.work = 0;
  std::vector<GcCollection> gcs;
  const Trace t = generate_compile(o, &gcs);
  CHECK(compile_accesses(t) ==
        "RH0 WM0 Wh0 WM0 Wh1 "
        "RH1 WM0 Wh2 WM0 Wh3 "
        "WM0 WM0 Rh1 Rh3 WM0 "
        "RS0 WM0 Wh2 WM0 Wh0 "
        "WM0 WM0 Rh0 Rh1 Rh3 WM0 "
        "RS1 WM0 Wh2 WM0 Wh4 "
        "WM0 WM0 Rh0 Rh1 Rh3 Rh4 WM0 ");
  REQUIRE(gcs.size() == 3);
  const auto fields = [](const GcCollection& c) {
    return std::vector<std::uint64_t>{c.start, c.mark, c.sweep, c.end, c.heap_pages, c.live_pages};
  };
  CHECK(fields(gcs[0]) == std::vector<std::uint64_t>{10, 11, 14, 15, 4, 2});
  CHECK(fields(gcs[1]) == std::vector<std::uint64_t>{20, 21, 25, 26, 4, 3});
  CHECK(fields(gcs[2]) == std::vector<std::uint64_t>{31, 32, 37, 38, 5, 4});
  // Kinds: the header and source pages are file pages, the heap and its page entries anonymous.
  for (PageId p = 0; p < t.num_pages(); ++p) {
    const char region = compile_page_name(t.page_vpn(p))[0];
    CHECK((t.page_kind(p) == PageKind::kFile) == (region == 'H' || region == 'S'));
    CHECK(t.proc_pid(t.page_proc(p)) == 1);
  }
  // ggc_min_expand 100%: the heap must double. Units 1 and 2 collect as before (4 pages >=
  // 2 x 2), unit 3 does not: 5 pages < 2 x 3 live after collection 2.
  o.ggc_min_expand = 100;
  gcs.clear();
  const Trace doubling = generate_compile(o, &gcs);
  REQUIRE(gcs.size() == 2);
  CHECK(fields(gcs[0]) == std::vector<std::uint64_t>{10, 11, 14, 15, 4, 2});
  CHECK(fields(gcs[1]) == std::vector<std::uint64_t>{20, 21, 25, 26, 4, 3});
  CHECK(compile_accesses(doubling, 26) == "RS1 WM0 Wh2 WM0 Wh4 ");
}

TEST_CASE("compile: gcc's default GC thresholds for the machine's RAM (ggc-common.c)") {
  // ggc_min_expand = 30 + 70 * min(1, RAM / 1 GiB), truncated; ggc_min_heapsize = RAM / 8 in
  // KiB within [4096, 131072]. RAM in 4 KiB pages: 16 MiB = 4096, 1 GiB = 262144.
  CHECK(ggc_min_expand_heuristic(4096) == 31);          // 30 + 1.09
  CHECK(ggc_min_expand_heuristic(16384) == 34);         // 64 MiB: 30 + 4.375
  CHECK(ggc_min_expand_heuristic(131072) == 65);        // 512 MiB
  CHECK(ggc_min_expand_heuristic(262144) == 100);       // 1 GiB
  CHECK(ggc_min_expand_heuristic(1048576) == 100);      // 4 GiB: capped
  CHECK(ggc_min_heapsize_heuristic(4096) == 4096);      // 16 MiB / 8 = 2 MiB, raised to 4 MiB
  CHECK(ggc_min_heapsize_heuristic(16384) == 8192);     // 64 MiB / 8
  CHECK(ggc_min_heapsize_heuristic(262144) == 131072);  // 1 GiB / 8 = 128 MiB
  CHECK(ggc_min_heapsize_heuristic(1048576) == 131072);

  // -1 (the default) takes the heuristic for ram_pages; explicit values give the same trace.
  CompileOptions o;
  o.heap_pages = 3000;
  o.header_pages = 40;
  o.source_pages = 20;
  o.ram_pages = 16384;
  std::vector<GcCollection> by_ram, explicit_values;
  const Trace a = generate_compile(o, &by_ram);
  o.ram_pages = 1;
  o.ggc_min_expand = 34;
  o.ggc_min_heapsize = 8192;
  const Trace b = generate_compile(o, &explicit_values);
  CHECK(accesses_of(a) == accesses_of(b));
  REQUIRE(!by_ram.empty());
  CHECK(by_ram.size() == explicit_values.size());
  // The first collection comes with the first unit that brings the heap to 1.34 x 8 MiB
  // = 2744.32 pages: 2745 pages or more, in the unit before fewer.
  CHECK(by_ram[0].heap_pages >= 2745);
  CHECK(by_ram[0].heap_pages < 2745 + 200);  // a unit allocates 3000 / 0.25 / 60 = 200 pages
}

TEST_CASE("compile: every collection marks the live heap once in address order; files read once") {
  CompileOptions o;
  o.heap_pages = 2000;
  o.header_pages = 30;
  o.source_pages = 10;
  o.ram_pages = 4096;  // 31%, 4 MiB = 1024 pages
  o.work = 6;
  o.old_reads = 0.2;
  o.seed = 5;
  std::vector<GcCollection> gcs;
  const Trace t = generate_compile(o, &gcs);
  REQUIRE(gcs.size() >= 3);
  std::uint64_t last_live = 0;
  for (const GcCollection& c : gcs) {
    CAPTURE(c.start);
    // The threshold held: in use >= base * 1.31, base = max(last live, 4 MiB), in bytes.
    const std::uint64_t base = std::max<std::uint64_t>(last_live * 4096, 4096 * 1024);
    CHECK(c.heap_pages * 4096 >= base + base * 31 / 100);
    CHECK(c.start < c.mark);
    CHECK(c.mark < c.sweep);
    CHECK(c.sweep < c.end);
    // clear_marks and the sweep write page entries only.
    for (std::size_t i : {c.start, c.sweep, c.end - 1})
      CHECK(compile_page_name(t.page_vpn(t.page(i)))[0] == 'M');
    // The mark: every live page read once, in increasing address order, nothing written but
    // page entries; the live pages are the long-lived pages allocated so far.
    std::vector<std::uint64_t> marked;
    for (std::uint64_t i = c.mark; i < c.sweep; ++i) {
      const std::string name = compile_page_name(t.page_vpn(t.page(i)));
      if (name[0] == 'h') {
        CHECK(!t.write(i));
        marked.push_back(t.page_vpn(t.page(i)));
      } else {
        CHECK(name[0] == 'M');
        CHECK(t.write(i));
      }
    }
    CHECK(std::is_sorted(marked.begin(), marked.end()));
    CHECK(std::adjacent_find(marked.begin(), marked.end()) == marked.end());
    CHECK(marked.size() == c.live_pages);
    CHECK(c.live_pages <= c.heap_pages);
    last_live = c.live_pages;
  }
  // 40 units of 2000 / 0.25 / 40 = 200 allocations; each collection finds the live pages of
  // the units so far: 50 per unit.
  for (const GcCollection& c : gcs) CHECK(c.live_pages % 50 == 0);
  // Each file page is read once, headers first; nothing else is a file page.
  std::vector<std::string> files;
  for (std::size_t i = 0; i < t.size(); ++i) {
    const std::string name = compile_page_name(t.page_vpn(t.page(i)));
    if (name[0] == 'H' || name[0] == 'S') {
      CHECK(!t.write(i));
      files.push_back(name);
    }
  }
  REQUIRE(files.size() == 40);
  CHECK(files.front() == "H0");
  CHECK(files[29] == "H29");
  CHECK(files[30] == "S0");
  CHECK(files.back() == "S9");
  // 8000 allocations of 2 accesses (page entry, page) and 6 work accesses each, 40 file reads.
  std::uint64_t in_collections = 0;
  for (const GcCollection& c : gcs) in_collections += c.end - c.start;
  CHECK(t.size() == 40 + 8000 * (2 + 6) + in_collections);
}

TEST_CASE(
    "compile: deterministic for a seed, another seed another trace; bad options name the key") {
  CompileOptions o;
  o.heap_pages = 500;
  o.header_pages = 8;
  o.source_pages = 4;
  o.ram_pages = 4096;
  const Trace a = generate_compile(o);
  CHECK(accesses_of(a) == accesses_of(generate_compile(o)));
  o.seed = 2;
  const Trace b = generate_compile(o);
  CHECK(accesses_of(a) != accesses_of(b));
  CHECK(a.size() == b.size());  // the seed moves the work, not the allocations or collections

  CHECK(generate("compile", Params{{"heap_mib", std::int64_t{2}},
                                   {"header_mib", std::int64_t{1}},
                                   {"source_mib", std::int64_t{0}},
                                   {"ram_mib", std::int64_t{16}}})
            .size() > 0);
  CHECK(message_of([] {
          generate("compile", Params{{"live_fraction", 0.0}});
        }) == "parameter 'live_fraction' = 0 is out of range: allowed 0.01 to 1");
  CHECK(message_of([] {
          generate("compile", Params{{"heap_mib", std::int64_t{0}}});
        }) == "parameter 'heap_mib' = 0 is out of range: allowed 1 to 65536");
  CHECK(message_of([] {
          generate("compile", Params{{"ggc_min_expand", std::int64_t{-2}}});
        }) == "parameter 'ggc_min_expand' = -2 is out of range: allowed -1 to 100000");
  CHECK(message_of([] {
          generate("compile", Params{{"heap_mb", std::int64_t{8}}});
        }).find("unknown parameter 'heap_mb' for generator 'compile': did you mean 'heap_mib'?") !=
        std::string::npos);
  CHECK(message_of([] {
          generate("compile",
                   Params{{"header_mib", std::int64_t{0}}, {"source_mib", std::int64_t{0}}});
        }).find("'header_mib' and 'source_mib' are both 0") != std::string::npos);
}

TEST_CASE("interleave takes a quantum from each trace in turn") {
  const Trace a = pages_trace({1, 2, 3, 4, 5});
  TraceBuilder b;
  for (std::uint64_t v : {10u, 11u, 12u}) b.add(2, v, true);
  const Trace bt = std::move(b).build();
  const Trace t = interleave({&a, &bt}, 2, false);
  CHECK(accesses_of(t) == "1 R 1\n1 R 2\n2 W 10\n2 W 11\n1 R 3\n1 R 4\n2 W 12\n1 R 5\n");
  // The same pid twice is one process unless renumbered.
  CHECK(interleave({&a, &a}, 1, false).num_procs() == 1);
  const Trace r = interleave({&a, &a}, 1, true);
  CHECK(r.num_procs() == 2);
  CHECK(r.num_pages() == 10);
}

TEST_CASE("generate() by name validates its options") {
  Params p{{"elements", std::int64_t{1000}}, {"seed", std::int64_t{3}}};
  CHECK(generate("qsbench", p).size() > 0);
  // Two sizes of the array: one would win without a word.
  CHECK(message_of([] {
          generate("qsbench", Params{{"mib", std::int64_t{1}}, {"elements", std::int64_t{5}}});
        }) == "parameters 'mib' = 1 and 'elements' = 5 both size the array: give one of them");
  CHECK(generate("qsbench", Params{{"mib", std::int64_t{0}}, {"elements", std::int64_t{1000}}})
            .size() == generate("qsbench", p).size());
  const std::string msg = message_of([] { generate("qsbench", Params{{"procz", std::int64_t{2}}}); });
  CHECK(msg.find("unknown parameter 'procz' for generator 'qsbench': did you mean 'procs'?") != std::string::npos);
  CHECK(message_of([] { generate("quicksort", Params{}); }).find("allowed compile, hog, kbuild") !=
        std::string::npos);
  CHECK(generate("hog", Params{{"mib", std::int64_t{1}}}).size() == 256);
}

}  // namespace
}  // namespace pagesim::test
