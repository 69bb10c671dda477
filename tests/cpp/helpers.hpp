#pragma once

#include <cstdint>
#include <string>
#include <vector>

#include "pagesim/params.hpp"
#include "pagesim/registry.hpp"
#include "pagesim/testing.hpp"
#include "pagesim/text_trace.hpp"
#include "pagesim/trace.hpp"

namespace pagesim::test {

// A trace of pid 1 from page numbers; a page listed in `writes` positions is written.
inline Trace pages_trace(const std::vector<std::uint64_t>& pages,
                         const std::vector<bool>& writes = {}) {
  TraceBuilder b;
  for (std::size_t i = 0; i < pages.size(); ++i) b.add(1, pages[i], i < writes.size() && writes[i]);
  return std::move(b).build();
}

// A trace from the text format with page numbers, e.g. "R 1\nW 2\n".
inline Trace text(const std::string& body) {
  TextTraceOptions o;
  o.page_numbers = true;
  return parse_text_trace(body, o);
}

// Textbook demand paging in trace order unless `params` says otherwise (testing::textbook),
// as hand-traced counts and bounds assume.
inline Counters run(const Trace& t, const std::string& policy, std::int64_t frames,
                    Params params = {}) {
  params.set("frames", frames);
  return simulate(t, policy, testing::textbook(params)).total;
}

// nvme without readahead, first come first served: a read of 2 us + 4096 B at 4096 MB/s = 3000
// ns, a write of 0 + 1000 ns a page; 100 ns an access. Access #k of a trace that never waits
// for IO faults (or hits) at (k + 1) * 100 ns.
inline Params timed_nvme(Params params = {}) {
  params.set("device", std::string("nvme"));
  params.set("device_read_us", 2.0);
  params.set("device_write_us", 0.0);
  params.set("device_transfer_mb_s", 4096.0);
  params.set("io_scheduler", std::string("fifo"));
  params.set("page_cluster", std::int64_t{0});
  params.set("cpu_ns", std::int64_t{100});
  return params;
}

// 5 frames, page_cluster 3 (the first window is slots 0-6, the kernel's offsets 1-7, its
// offset 0 being the swap header), io_max_request_pages 1 (a window is a request a page),
// fifo; nvme: a read of 2 us + 4096 B at 4096 MB/s = 3000 ns, a write of 0 + 1000 ns; cpu 100.
inline Params windows_a_request_a_page() {
  return Params{{"frames", std::int64_t{5}},
                {"page_cluster", std::int64_t{3}},
                {"device", std::string("nvme")},
                {"device_read_us", 2.0},
                {"device_write_us", 0.0},
                {"device_transfer_mb_s", 4096.0},
                {"io_max_request_pages", std::int64_t{1}},
                {"io_scheduler", std::string("fifo")},
                {"cpu_ns", std::int64_t{100}}};
}

}  // namespace pagesim::test
