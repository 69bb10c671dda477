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
  const std::string msg = message_of([] { generate("qsbench", Params{{"procz", std::int64_t{2}}}); });
  CHECK(msg.find("unknown parameter 'procz' for generator 'qsbench': did you mean 'procs'?") != std::string::npos);
  CHECK(message_of([] { generate("quicksort", Params{}); }).find("allowed hog, kbuild") != std::string::npos);
  CHECK(generate("hog", Params{{"mib", std::int64_t{1}}}).size() == 256);
}

}  // namespace
}  // namespace pagesim::test
