// Writebacks: a policy cleans dirty pages without evicting them (PageTableView::start_writeback),
// and the engine writes them, counts them and leaves them resident and clean.
#include <doctest/doctest.h>

#include <algorithm>
#include <deque>

#include "helpers.hpp"
#include "trace_files.hpp"

namespace pagesim::test {
namespace {

// FIFO that launders, as page_launder does: a dirty page at the head is written and goes to
// the tail (scanned and kept), the first clean page at the head is the victim. With
// `declare` false its traits do not say writes_back; with `in_on_fault` it also asks for a
// writeback where it may not.
class LaunderingFifo final : public Policy {
 public:
  explicit LaunderingFifo(bool declare = true, bool in_on_fault = false)
      : declare_(declare), in_on_fault_(in_on_fault) {}
  PolicyTraits traits() const override {
    PolicyTraits t;
    t.writes_back = declare_;
    return t;
  }
  void reset(std::size_t, std::size_t) override { order_.clear(); }
  void on_fault(const Access& a, PageTableView view) override {
    order_.push_back(a.page);
    if (in_on_fault_) view.start_writeback(a.page);
  }
  void on_free(PageId p, PageTableView) override {
    order_.erase(std::remove(order_.begin(), order_.end(), p), order_.end());
  }
  void select_victims(std::size_t want, PageTableView view, VictimList& out) override {
    while (out.size() < want) {
      const PageId p = order_.front();
      order_.pop_front();
      if (view.start_writeback(p)) {
        view.count_scanned(p);
        order_.push_back(p);
      } else {
        out.push_back(p);
      }
    }
  }

 private:
  bool declare_;
  bool in_on_fault_;
  std::deque<PageId> order_;
};

// W1 W2 R3 R1 W3 R2 W3 W4 R1 R5 at 2 frames, 4 a file page, the rest anonymous (page ids 0-4
// in order of first touch). Memory, head first; d = dirty, s = has a swap slot:
//  #0 W1 #1 W2   minor                          [1d 2d]
//  #2 R3 minor: 1 written (slot 0), to the tail; 2 written (slot 1), to the tail; 1 clean:
//        the victim, evicted clean                                        [2s 3]
//  #3 R1 swap-in (slot 0): 2 clean, the victim                            [3 1s]
//  #4 W3 hit: 3 dirty                                                     [3d 1s]
//  #5 R2 swap-in (slot 1): 3 written (slot 2); 1 the victim               [3s 2s]
//  #6 W3 hit: 3 dirty again                                               [3sd 2s]
//  #7 W4 file read: 3 written again (slot 2); 2 the victim                [3s 4d]
//  #8 R1 swap-in (slot 0): 3 clean, the victim: no third write            [4d 1s]
//  #9 R5 minor: 4 written to its file; 1 the victim                       [4 5]
// Writes: 1, 2, 3 twice (swap), 4 (file): 5 writebacks; all 6 evictions clean. Scanned: the
// 5 pages written and kept, and the 6 victims.
Trace laundry_trace() {
  TraceBuilder b;
  const struct {
    std::uint64_t vpn;
    bool write;
  } seq[] = {{1, true},  {2, true}, {3, false}, {1, false}, {3, true},
             {2, false}, {3, true}, {4, true},  {1, false}, {5, false}};
  for (const auto& a : seq)
    b.add(1, a.vpn, a.write, a.vpn == 4 ? PageKind::kFile : PageKind::kAnon);
  return std::move(b).build();
}

TEST_CASE(
    "writebacks: written once each, left resident and clean, not written again when evicted") {
  const Trace t = laundry_trace();
  LaunderingFifo policy;
  Params params = testing::textbook(Params{{"frames", std::int64_t{2}}, {"page_stats", true}});
  const Result r = simulate(t, policy, params, "laundering_fifo");
  const Counters& c = r.total;
  CHECK(c.accesses == 10);
  CHECK(c.hits == 2);
  CHECK(c.minor_faults == 4);
  CHECK(c.swap_ins == 3);
  CHECK(c.file_reads == 1);
  CHECK(c.zero_refills == 0);
  CHECK(c.evictions == 6);
  CHECK(c.evictions_clean == 6);
  CHECK(c.swap_outs == 4);
  CHECK(c.file_writes == 1);
  CHECK(c.writebacks == 5);
  CHECK(c.pages_scanned == 11);
  const PageStats& s = *r.pages;
  CHECK(s.writes == std::vector<std::uint64_t>{1, 1, 2, 1, 0});
  CHECK(s.evictions == std::vector<std::uint64_t>{3, 2, 1, 0, 0});
  CHECK(s.faults == std::vector<std::uint64_t>{3, 2, 1, 1, 1});
}

TEST_CASE("writebacks on a device: queued as writes, adjacent slots merged") {
  // The trace above on nvme, first come first served, without readahead. Writes: slots 0 and 1
  // at #2 (one request, one merge), slot 2 at #5 and #7, page 4's file position at #9: 4
  // requests, 5 pages. Reads: slot 0 at #3 and #8, slot 1 at #5, the file page at #7.
  const Trace t = laundry_trace();
  LaunderingFifo policy;
  const Params params{{"frames", std::int64_t{2}},
                      {"device", std::string("nvme")},
                      {"io_scheduler", std::string("fifo")},
                      {"page_cluster", std::int64_t{0}}};
  const Result r = simulate(t, policy, params, "laundering_fifo");
  CHECK(r.total.swap_outs == 4);
  CHECK(r.total.writebacks == 5);
  CHECK(r.device_stats.writes == 4);
  CHECK(r.device_stats.pages_written == 5);
  CHECK(r.device_stats.merges == 1);
  CHECK(r.device_stats.reads == 4);
  CHECK(r.device_stats.pages_read == 4);
}

TEST_CASE("writebacks on a device: the process waits for its reads, not for the writes") {
  // As above, with a read of 2 us + 1000 ns of transfer (3000 ns), a write of 1000 ns a page,
  // 100 ns an access: access #k starts its CPU at the clock, then faults.
  //  #0 #1 end at 100, 200.  #2 at 300: writes of slots 0-1 submitted (one request, 300-2300).
  //  #3 at 400: read of slot 0 behind it, 2300-5300: waits 4900.
  //  #4 at 5400.  #5 at 5500: write of slot 2 (5500-6500), then the read of slot 1
  //  (6500-9500): waits 4000.  #6 at 9600.  #7 at 9700: slot 2 again (9700-10700), then the
  //  file read (10700-13700): waits 4000.  #8 at 13800: read of slot 0 (13800-16800): waits
  //  3000.  #9 at 16900: the file write, 16900-17900, which nobody waits for.
  // Busy: writes 2000 + 1000 + 1000 + 1000, reads 4 x 3000.
  const Trace t = laundry_trace();
  LaunderingFifo policy;
  const Params params = timed_nvme({{"frames", std::int64_t{2}}});
  const Result r = simulate(t, policy, params, "laundering_fifo");
  CHECK(r.time.iowait_ns == 4900 + 4000 + 4000 + 3000);
  CHECK(r.time.elapsed_ns == 16900);
  CHECK(r.device_stats.write_busy_ns == 5000);
  CHECK(r.device_stats.read_busy_ns == 12000);
}

// LaunderingFifo whose traits also say write_completions: it notes, at each select_victims
// call, the faulting page, the pages view.written() lists and view.async_writes().
class CompletionNotingFifo final : public Policy {
 public:
  struct Call {
    PageId incoming;
    std::vector<PageId> written;
    bool async;
    bool operator==(const Call& o) const {
      return incoming == o.incoming && written == o.written && async == o.async;
    }
  };
  PolicyTraits traits() const override {
    PolicyTraits t = fifo_.traits();
    t.write_completions = true;
    return t;
  }
  void reset(std::size_t n, std::size_t frames) override {
    fifo_.reset(n, frames);
    calls.clear();
  }
  void on_fault(const Access& a, PageTableView view) override { fifo_.on_fault(a, view); }
  void select_victims(std::size_t want, PageTableView view, VictimList& out) override {
    calls.push_back({view.incoming(), view.written(), view.async_writes()});
    fifo_.select_victims(want, view, out);
  }

  std::vector<Call> calls;

 private:
  LaunderingFifo fifo_;
};

TEST_CASE("write completions: written() lists the pages whose writes completed, in time") {
  // The timed run above: writes of slots 0-1 (pages 0 and 1) at #2, 300-2300; slot 2 (page 2)
  // at #5, 5500-6500, and at #7, 9700-10700. Reclaims (select_victims) at #2 (300), #3 (400),
  // #5 (5500), #7 (9700), #8 (13800), #9 (16900):
  //  #2, #3  none done yet (the first completes at 2300)
  //  #5      slots 0-1 done, but page 0 was evicted at #2 and page 1 at #3 while their write
  //          was in service: page 0 is resident again (swapped in at #3), and not listed
  //  #7      page 2 (its write at #5)      #8  page 2 (its write at #7)      #9  none
  const Trace t = laundry_trace();
  const Params timed = timed_nvme({{"frames", std::int64_t{2}}});
  using Call = CompletionNotingFifo::Call;
  CompletionNotingFifo policy;
  const Result r = simulate(t, policy, timed, "noting_fifo");
  CHECK(policy.calls == std::vector<Call>{{2, {}, true},
                                          {0, {}, true},
                                          {1, {}, true},
                                          {3, {2}, true},
                                          {0, {2}, true},
                                          {4, {}, true}});
  // The writes themselves are as without the trait.
  CHECK(r.total.writebacks == 5);
  CHECK(r.time.elapsed_ns == 16900);
  // Without a device and on zram a write is done when it is started: nothing is listed.
  for (const char* device : {"none", "zram"}) {
    CAPTURE(device);
    const Params p{{"frames", std::int64_t{2}},
                   {"device", std::string(device)},
                   {"page_cluster", std::int64_t{0}}};
    CompletionNotingFifo synchronous;
    simulate(t, synchronous, p, "noting_fifo");
    REQUIRE(synchronous.calls.size() == 6);
    for (const Call& c : synchronous.calls) CHECK((c.written.empty() && !c.async));
  }
}

TEST_CASE("write completions: a page under writeback keeps its swap slot at a write") {
  // W1 W2 R3, then `gap` reads of 3 (hits), then W2; 2 frames, free_slot_on_swapin "write"
  // (a write to a page holding its slot frees it: reuse_swap_page). At #2 (300) pages 0 and 1
  // are written (slots 0-1, 300-2300) and 0 is the victim; page 1 stays, clean, holding slot
  // 1. W2 comes at 400 + 100 * gap: before 2300 its write is in service and the slot stays
  // (the kernel refuses to free a page under writeback from the swap cache): slots 0 and 1
  // are in use at the end; from 2300 on it is free to go: only slot 0 is.
  for (const std::uint64_t gap : {0u, 18u, 19u}) {
    CAPTURE(gap);
    TraceBuilder b;
    b.add(1, 1, true);
    b.add(1, 2, true);
    b.add(1, 3, false);
    for (std::uint64_t k = 0; k < gap; ++k) b.add(1, 3, false);
    b.add(1, 2, true);
    const Trace t = std::move(b).build();
    const Params params =
        timed_nvme({{"frames", std::int64_t{2}}, {"free_slot_on_swapin", std::string("write")}});
    CompletionNotingFifo policy;
    const Result r = simulate(t, policy, params, "noting_fifo");
    CHECK(r.swap_slots_used == (400 + 100 * gap < 2300 ? 2 : 1));
    // Without write completions the page is as good as written: its slot goes at once.
    LaunderingFifo plain;
    CHECK(simulate(t, plain, params, "laundering_fifo").swap_slots_used == 1);
  }
}

// A laundering FIFO (as LaunderingFifo) that checks what view.written() lists against the
// writebacks it started: each listed page is resident and has a writeback outstanding, which
// the listing ends; a page evicted or freed meanwhile is not listed for that write.
class CompletionCheckingFifo final : public Policy {
 public:
  PolicyTraits traits() const override {
    PolicyTraits t;
    t.writes_back = true;
    t.write_completions = true;
    return t;
  }
  void reset(std::size_t n, std::size_t) override {
    order_.clear();
    outstanding_.assign(n, 0);
  }
  void on_fault(const Access& a, PageTableView) override { order_.push_back(a.page); }
  void on_free(PageId p, PageTableView) override {
    order_.erase(std::remove(order_.begin(), order_.end(), p), order_.end());
    outstanding_[p] = 0;
  }
  void on_evict(PageId p, PageTableView) override { outstanding_[p] = 0; }
  void select_victims(std::size_t want, PageTableView view, VictimList& out) override {
    for (const PageId p : view.written()) {
      CHECK(outstanding_[p] == 1);
      CHECK(view.resident(p));
      outstanding_[p] = 0;
      ++listed;
    }
    while (out.size() < want) {
      const PageId p = order_.front();
      order_.pop_front();
      if (view.start_writeback(p)) {
        outstanding_[p] = 1;
        order_.push_back(p);
      } else {
        out.push_back(p);
      }
    }
  }

  std::uint64_t listed = 0;

 private:
  std::deque<PageId> order_;
  std::vector<std::uint8_t> outstanding_;
};

TEST_CASE("write completions: each listed once, for a write of its own, on random traces") {
  std::uint64_t listed = 0;
  for (std::uint64_t seed = 1; seed <= 120; ++seed) {
    CAPTURE(seed);
    const Trace t =
        testing::staggered_trace(seed, 80 + seed, 3 + seed % 10, 2 + seed % 3, seed % 2 == 0);
    Params params{{"frames", static_cast<std::int64_t>(2 + seed % 6)},
                  {"device", std::string(seed % 3 == 0 ? "nvme" : "hdd-2002")},
                  {"io_scheduler", std::string(seed % 4 < 2 ? "fifo" : "elevator")},
                  {"free_on_exit", seed % 5 != 0},
                  {"schedule", std::string(seed % 2 == 0 ? "static" : "round_robin")}};
    if (seed % 7 == 0) params.set("free_slot_on_swapin", std::string("write"));
    if (seed % 3 == 1) params.set("page_cluster", std::int64_t{0});
    CompletionCheckingFifo policy;
    simulate(t, policy, params, "checking_fifo");
    listed += policy.listed;
  }
  CHECK(listed > 100);
}

TEST_CASE("writebacks: a laundering policy passes the conformance suite, exits included") {
  testing::ConformanceOptions o;
  const auto make = [](const Params&) { return std::make_unique<LaunderingFifo>(); };
  const testing::Report report = testing::check_conformance("laundering_fifo", make, o);
  CHECK_MESSAGE(report.ok(), report.text());
  o.params.set("free_on_exit", true);
  const testing::Report exits = testing::check_conformance("laundering_fifo", make, o);
  CHECK_MESSAGE(exits.ok(), exits.text());
}

TEST_CASE("start_writeback: only a clean-able page, only where the traits allow it") {
  const Trace t = laundry_trace();
  const Params params{{"frames", std::int64_t{2}}};
  LaunderingFifo undeclared(false);
  // At #2, for page 0.
  CHECK(message_of([&] { simulate(t, undeclared, params, "undeclared"); }) ==
        "start_writeback(0): only select_victims of a policy whose traits say writes_back may "
        "clean pages");
  LaunderingFifo outside(true, true);
  // In on_fault at #0, for page 0.
  CHECK(message_of([&] { simulate(t, outside, params, "outside"); }) ==
        "start_writeback(0): only select_victims of a policy whose traits say writes_back may "
        "clean pages");
}

}  // namespace
}  // namespace pagesim::test
