// Bad input gives a typed error whose message says what is wrong and what is allowed.
#include <doctest/doctest.h>

#include <fstream>

#include "helpers.hpp"
#include "pagesim/generators.hpp"

namespace pagesim::test {
namespace {

std::string message_of(const std::function<void()>& f) {
  try {
    f();
  } catch (const Error& e) {
    return e.what();
  }
  return "(no error)";
}

TEST_CASE("malformed text traces name the file, the line and what was expected") {
  struct Case {
    const char* body;
    const char* expected;
  };
  const Case cases[] = {
      {"R 1\nX 2\n", "<string>:2: expected R or W, got 'X'"},
      {"R 1\n\n# comment\nR zz\n", "<string>:4: expected an address"},
      {"R 0x1ffffffffffffffff\n", "<string>:1: expected an address"},
      {"R\n", "<string>:1: expected 'OP ADDRESS' or 'PID OP ADDRESS'"},
      {"R 1 2 3\n",
       "<string>:1: expected 'OP ADDRESS' or 'PID OP ADDRESS' (OP is R or W), got 4 or more "
       "fields"},
      {"1 R 1\nR 2\n", "<string>:2: expected 3 fields as on line 1, got 2"},
      {"x1 R 1\n", "<string>:1: expected a decimal process id, got 'x1'"},
      {"# nothing\n\n", "<string>:2: expected at least one access, found none"},
      {"", "<string>: empty file: expected at least one access, found none"},
  };
  for (const auto& c : cases) {
    CAPTURE(c.body);
    CHECK_THROWS_AS(text(c.body), TraceFormatError);
    CHECK(message_of([&] { text(c.body); }).rfind(c.expected, 0) == 0);
  }
  // A page number whose address does not fit in 64 bits.
  TextTraceOptions pages;
  pages.page_numbers = true;
  CHECK(message_of([&] { parse_text_trace("R 0xfffffffffffff000\n", pages); })
            .find("beyond the 64-bit address space") != std::string::npos);
}

TEST_CASE("a missing trace file is a TraceFormatError naming the file") {
  CHECK_THROWS_AS(read_text_trace("/nonexistent/trace.txt"), TraceFormatError);
  CHECK(message_of([] { read_text_trace("/nonexistent/trace.txt"); })
            .find("/nonexistent/trace.txt") != std::string::npos);
}

TEST_CASE("a text trace read from a file gives the same accesses as from a string") {
  const std::string path = "pagesim_test_trace.txt";
  {
    std::ofstream out(path);
    out << "# pid op address\n1 W 0x7f0012345000\n1 R 0x7f0012345fff\n2 r 4096\n\n1 w 8191\r\n";
  }
  const Trace t = read_text_trace(path);
  std::remove(path.c_str());
  REQUIRE(t.size() == 4);
  CHECK(t.num_pages() == 3);  // (1, 0x7f0012345) twice, (2, 1), (1, 1)
  CHECK(t.page(0) == t.page(1));
  CHECK(t.write(0));
  CHECK(!t.write(1));
  CHECK(t.page_vpn(t.page(2)) == 1);
  CHECK(t.proc_pid(t.proc(2)) == 2);
  CHECK(t.write(3));
  CHECK(t.page(3) != t.page(2));
}

TEST_CASE("unknown policy, unknown or out-of-range parameter, frames 0: ConfigError") {
  const Trace t = pages_trace({1, 2, 3});
  CHECK_THROWS_AS(run(t, "lruu", 2), ConfigError);
  CHECK(message_of([&] { run(t, "lruu", 2); }).find("unknown policy 'lruu': did you mean 'lru'?") == 0);
  CHECK(message_of([&] { run(t, "random", 2, Params{{"sead", std::int64_t{3}}}); })
            .find("unknown parameter 'sead' for policy 'random': did you mean 'seed'?") == 0);
  CHECK(message_of([&] { run(t, "random", 2, Params{{"seed", std::int64_t{-1}}}); }) ==
        "parameter 'seed' = -1 is out of range: allowed 0 to 9223372036854775807");
  CHECK(message_of([&] {
          run(t, "lru", 2, Params{{"free_slot_on_swapin", std::string("yes")}});
        }) ==
        "parameter 'free_slot_on_swapin' = 'yes' is not allowed: choose one of swap_full, never, "
        "always, write, write_fault (or a boolean: true for always, false for never)");
  CHECK(message_of([&] {
          run(t, "lru", 2, Params{{"free_slot_on_swapin", std::int64_t{2}}});
        }) ==
        "parameter 'free_slot_on_swapin' must be one of swap_full, never, always, write, "
        "write_fault, got an integer (2) (or a boolean: true for always, false for never)");
  CHECK(message_of([&] { run(t, "lru", 0); }) ==
        "parameter 'frames' = 0 is out of range: allowed 1 to 1099511627776");
  CHECK(message_of([&] { simulate(t, "lru", Params{}); }).find("parameter 'frames' is required") == 0);
  CHECK(message_of([&] { run(t, "lru", 4, Params{{"high_watermark", std::int64_t{9}}}); })
            .find("parameter 'high_watermark' = 9 is out of range") == 0);
}

TEST_CASE("a name registered twice is a ConfigError naming both registering files") {
  // A registry of its own: a duplicate in the global one would stop the program before main.
  Registry local;
  const auto info = [](const char* file) {
    PolicyInfo p;
    p.name = "lru";
    p.file = file;
    return p;
  };
  local.add(info("policies/lru.cpp"));
  CHECK(message_of([&] { local.add(info("my_policy.cpp")); }) ==
        "policy 'lru' is registered twice: in policies/lru.cpp and in my_policy.cpp; give one "
        "another name");
  CHECK(local.names() == std::vector<std::string>{"lru"});
  // The built-in policies record their file, through PAGESIM_REGISTER_POLICY's __FILE__ and
  // the switched registrar's.
  CHECK(Registry::instance().get("lru").file.find("lru.cpp") != std::string::npos);
  CHECK(Registry::instance().get("active_inactive").file.find("active_inactive.cpp") !=
        std::string::npos);
  for (const PolicyInfo* p : Registry::instance().list()) CHECK_MESSAGE(!p->file.empty(), p->name);
}

TEST_CASE(
    "a device figure for another kind of device, or a run that could outlast the clock, is "
    "refused") {
  const Trace t = pages_trace({1, 2, 3, 1, 4, 2});
  CHECK(message_of([&] {
          run(t, "lru", 2, Params{{"device_seek_ms", 5.0}});
        }) ==
        "parameter 'device_seek_ms' does not apply to device 'none': it is for device hdd-2002, "
        "hdd-laptop");
  CHECK(message_of([&] {
          run(t, "lru", 2,
              Params{{"device", std::string("hdd-2002")}, {"device_compression_ratio", 2.0}});
        }) ==
        "parameter 'device_compression_ratio' does not apply to device 'hdd-2002': it is for "
        "device zram");
  CHECK(message_of([&] {
          run(t, "lru", 2, Params{{"device", std::string("zram")}, {"device_transfer_mb_s", 9.0}});
        }) ==
        "parameter 'device_transfer_mb_s' does not apply to device 'zram': it is for device "
        "hdd-2002, hdd-laptop, "
        "ssd-sata, nvme");
  // The block layer's settings serve every device (none and zram have no queue for them).
  CHECK(run(t, "lru", 2,
            Params{{"device", std::string("zram")}, {"io_scheduler", std::string("fifo")}})
            .faults == 6);
  // A transfer rate must be above 0, and the range says so.
  for (const double bad : {0.0, -3.0}) {
    CHECK(
        message_of([&] {
          run(t, "lru", 2, Params{{"device", std::string("nvme")}, {"device_transfer_mb_s", bad}});
        }) == "parameter 'device_transfer_mb_s' = " + std::string(bad == 0 ? "0" : "-3") +
                  " is out of range: allowed above 0, up to 1e+09");
  }
  // 64-bit nanoseconds: at 1e-9 MB/s a page takes 4.1e15 ns, and 6 accesses that each move up
  // to 2 x (1 + 8) pages could take 4.4e17 ns; at 1e-12 MB/s, 4.4e20 > 2^63.
  CHECK(
      run(t, "lru", 2, Params{{"device", std::string("hdd-2002")}, {"device_transfer_mb_s", 1e-9}})
          .faults == 6);
  CHECK(message_of([&] {
          run(t, "lru", 2,
              Params{{"device", std::string("hdd-2002")}, {"device_transfer_mb_s", 1e-12}});
        }) ==
        "device 'hdd-2002' with its figures (device_*: one page can take 4.096e+18 ns) could make "
        "this run of 6 accesses last beyond 2^63 ns (292 years) of virtual time: lower them");
  // 6 accesses of 2^40 ns are 6.6e12 ns: fine; 2^63 / 2^40 = 8.4 million of them are not.
  CHECK(simulate(t, "lru", Params{{"frames", std::int64_t{2}}, {"cpu_ns", std::int64_t{1} << 40}})
            .time.elapsed_ns == 6 * (std::uint64_t{1} << 40));
  const Trace long_trace = generate_loop(8'400'000, 3, 0.0, 1);
  CHECK(message_of([&] {
          run(long_trace, "lru", 2, Params{{"cpu_ns", std::int64_t{1} << 40}});
        })
            .find("parameter 'cpu_ns' = 1099511627776 could make this run of 8400000 accesses last "
                  "beyond") == 0);
}

// Deliberately broken policies: the engine refuses each nomination with a PolicyError that
// names the policy, the page and the access.
struct Broken final : Policy {
  enum Mode { kNonResident, kTwice, kTooMany, kNone, kIncoming, kFirstPage } mode;
  explicit Broken(Mode m) : mode(m) {}
  void reset(std::size_t, std::size_t) override {}
  void on_fault(const Access&, PageTableView) override {}
  void on_free(PageId, PageTableView) override {}
  void select_victims(std::size_t, PageTableView view, VictimList& out) override {
    switch (mode) {
      case kNonResident: out.push_back(static_cast<PageId>(view.trace().num_pages() - 1)); break;
      case kIncoming:
        out.push_back(view.incoming());
        break;
      case kFirstPage:
        out.push_back(0);
        break;
      case kTwice: out.push_back(0); out.push_back(0); break;
      case kTooMany: out.push_back(0); out.push_back(1); break;
      case kNone: break;
    }
  }
};

TEST_CASE("the engine rejects bad victims with a PolicyError naming policy, page and access") {
  const Trace t = pages_trace({1, 2, 3, 4});
  Params p{{"frames", std::int64_t{2}}};
  Broken non_resident(Broken::kNonResident);
  CHECK(message_of([&] { simulate(t, non_resident, p, "broken"); }) ==
        "policy nominated page 3 (pid 1 vpn 0x4), which is not resident: it has not been accessed "
        "yet (policy 'broken', at access #2)");
  Broken twice(Broken::kTwice);
  CHECK_THROWS_AS(simulate(t, twice, p, "broken"), PolicyError);
  Params batch{{"frames", std::int64_t{3}}, {"low_watermark", std::int64_t{0}}, {"high_watermark", std::int64_t{2}}};
  CHECK(message_of([&] { simulate(t, twice, batch, "broken"); }) ==
        "policy nominated page 0 (pid 1 vpn 0x1) twice in one batch (policy 'broken', at access #3)");
  Broken too_many(Broken::kTooMany);
  CHECK(message_of([&] { simulate(t, too_many, p, "broken"); }) ==
        "policy returned 2 victims when asked for 1 (policy 'broken', at access #2)");
  Broken none(Broken::kNone);
  CHECK(message_of([&] { simulate(t, none, p, "broken"); }) ==
        "policy returned no victim while no frame is free (frames=2) (policy 'broken', at access "
        "#2)");
}

TEST_CASE("a non-resident victim's error says why it is not resident") {
  // pages_trace: access #k is to page k (pid 1 vpn k+1). At 2 frames, access #2 is the first
  // that needs a victim.
  const Trace t = pages_trace({1, 2, 3, 4});
  Params p{{"frames", std::int64_t{2}}};
  Broken incoming(Broken::kIncoming);
  CHECK(message_of([&] { simulate(t, incoming, p, "broken"); }) ==
        "policy nominated page 2 (pid 1 vpn 0x3), which is not resident: it is the page being "
        "faulted in (the view's incoming page) (policy 'broken', at access #2)");
  // Page 0 is evicted (rightly) at access #2, and nominated again at access #3.
  Broken first(Broken::kFirstPage);
  CHECK(message_of([&] { simulate(t, first, p, "broken"); }) ==
        "policy nominated page 0 (pid 1 vpn 0x1), which is not resident: it was evicted earlier: "
        "did on_evict forget it? (policy 'broken', at access #3)");
  // Process 1 (page 0) exits after access #0; process 2's pages 1, 2 fill the 2 frames and its
  // page 3 needs a victim at access #3.
  TraceBuilder b(4096, "exit");
  b.add(1, 1, false);
  for (std::uint64_t vpn = 1; vpn <= 3; ++vpn) b.add(2, vpn, false);
  const Trace exits = std::move(b).build();
  Params free_on_exit{
      {"frames", std::int64_t{2}}, {"free_on_exit", true}, {"schedule", std::string("static")}};
  CHECK(message_of([&] { simulate(exits, first, free_on_exit, "broken"); }) ==
        "policy nominated page 0 (pid 1 vpn 0x1), which is not resident: it was freed when its "
        "process exited: did on_free forget it? (policy 'broken', at access #3)");
}

}  // namespace
}  // namespace pagesim::test
