// Swap slot allocation as Linux 2.4.18 / 2.6.20 scan_swap_map (SWAPFILE_CLUSTER 256), worked
// out by hand; slots numbered from 0 (the kernel's slot 0 is the swap header).
#include <doctest/doctest.h>

#include "helpers.hpp"
#include "pagesim/swap.hpp"
#include "random_traces.hpp"

namespace pagesim::test {
namespace {

std::vector<SlotId> allocate(SwapMap& map, std::size_t n) {
  std::vector<SlotId> out;
  for (std::size_t k = 0; k < n; ++k) out.push_back(map.allocate());
  return out;
}

std::vector<SlotId> range(SlotId from, SlotId to) {  // [from, to)
  std::vector<SlotId> out;
  for (SlotId s = from; s < to; ++s) out.push_back(s);
  return out;
}

TEST_CASE("300 consecutive swap-outs cross the 256-slot cluster; freed slots are reused only when swap runs low") {
  SwapMap map(600);
  // #1: cluster_nr = 0 -> 255; 600 free >= 256; first free run of 256 from lowest_bit 0 is
  //     0..255 -> cluster_next = 0 -> slot 0.
  // #2..#256: cluster_nr 255 -> 0, slots 1..255; cluster_next = 256.
  // #257: cluster_nr = 0 -> 255; 344 free >= 256; run from lowest_bit 256: 256..511 -> slot 256.
  // #258..#300: slots 257..299, cluster_nr = 255 - 43 = 212, cluster_next = 300.
  CHECK(allocate(map, 300) == range(0, 300));
  CHECK(map.used() == 300);

  // Free 10..19 and 100: lowest_bit = 10. The current cluster goes on regardless:
  // 212 more slots 300..511, cluster_nr = 0, cluster_next = 512.
  for (SlotId s = 10; s < 20; ++s) map.release(s);
  map.release(100);
  CHECK(allocate(map, 212) == range(300, 512));
  // Next: cluster_nr = 0 -> 255; free = 600 - 501 = 99 < 256 -> "lowest": offset =
  // lowest_bit = 10, free -> slot 10, cluster_next = 11. Then 11..19 from cluster_next;
  // cluster_next = 20 is in use -> scan forward to 100; then 101 in use -> scan to 512.
  std::vector<SlotId> want = range(10, 20);
  want.push_back(100);
  want.push_back(512);
  want.push_back(513);
  CHECK(allocate(map, 13) == want);
}

TEST_CASE("a new cluster starts at the first fully free 256-slot run") {
  SwapMap map(1024);
  // 0..255, 256..511 (cluster 2 from #257), 512..599 (cluster 3 from #513: cluster_nr
  // 255 - 87 = 168 after #600, cluster_next 600).
  CHECK(allocate(map, 600) == range(0, 600));
  for (SlotId s = 0; s < 300; ++s) map.release(s);
  // The cluster goes on: 600..767 (168 slots), cluster_nr = 0.
  CHECK(allocate(map, 168) == range(600, 768));
  // Search from lowest_bit 0: 0..255 is a free run -> cluster_next = 0.
  CHECK(allocate(map, 3) == range(0, 3));
}

TEST_CASE("an unaligned free run is found; a full map returns kNoSlot") {
  SwapMap map(700);
  CHECK(allocate(map, 512) == range(0, 512));  // two clusters; cluster_nr = 0
  // Free 5..260 (256 slots): the search from lowest_bit 5 finds last_in_cluster 260 free.
  for (SlotId s = 5; s <= 260; ++s) map.release(s);
  // 188 free at the top + 256 = 444 >= 256; run 5..260 comes first.
  CHECK(map.allocate() == 5);
  CHECK(map.allocate() == 6);

  SwapMap small(4);
  // #1: fewer than 256 free -> "lowest": slot 0, cluster_nr = 255; #2..#4 go on from
  // cluster_next: 1 2 3. Full: lowest_bit = 4, highest_bit = 0.
  CHECK(allocate(small, 4) == range(0, 4));
  CHECK(small.allocate() == kNoSlot);
  // Free 2: lowest = highest = 2. cluster_next = 4 > highest -> lowest_bit -> 2.
  small.release(2);
  CHECK(small.allocate() == 2);
  // Full again; free 0 and 3: lowest 0, highest 3. cluster_nr is still > 0, cluster_next = 3
  // <= highest and free -> 3 before 0 (the kernel goes on where it left off).
  small.release(0);
  small.release(3);
  CHECK(small.allocate() == 3);
  CHECK(small.allocate() == 0);
}

TEST_CASE("a counting swap map is full and freed like the positional one") {
  SwapMap map(3, /*positions=*/false);
  CHECK(map.size() == 3);
  CHECK(allocate(map, 3) == std::vector<SlotId>{0, 0, 0});
  CHECK(map.used() == 3);
  CHECK(map.allocate() == kNoSlot);
  CHECK_FALSE(map.in_use(0));
  map.release(0);
  CHECK(map.used() == 2);
  CHECK(map.allocate() == 0);
  CHECK(map.allocate() == kNoSlot);
}

TEST_CASE("a full swap device is an error naming swap_slots") {
  // 1 frame, 1 slot: W1 | W2 evicts dirty 1 -> slot 0 | W3 evicts dirty 2: no slot left.
  // With readahead the map has positions; without (and without a device) it only counts.
  const Trace t = text("W 1\nW 2\nW 3\n");
  for (std::int64_t page_cluster : {3, 0}) {
    Params p{{"frames", std::int64_t{1}}, {"swap_slots", std::int64_t{1}}, {"page_cluster", page_cluster}};
    CHECK_THROWS_WITH_AS(simulate(t, "fifo", p), doctest::Contains("swap_slots"), ConfigError);
  }
}

TEST_CASE("without readahead the slot positions change no count: counting equals positional") {
  // No device and page_cluster 0: the swap map only counts. A queued device needs positions;
  // in one process's static order it changes times, not counts. Small swap areas fill up.
  int full = 0, runs = 0;
  for (std::uint64_t seed = 1; seed <= 60; ++seed) {
    const Trace t = random_trace(seed, 3000, 80);
    const auto frames = static_cast<std::int64_t>(4 + seed % 20);
    const auto slots = static_cast<std::int64_t>(seed % 3 == 0 ? 20 + seed % 30 : 0);
    for (const char* policy : {"fifo", "lru", "clock"}) {
      for (bool free_slot : {false, true}) {
        CAPTURE(seed);
        CAPTURE(policy);
        CAPTURE(free_slot);
        Params counting{{"frames", frames}, {"page_cluster", std::int64_t{0}},
                        {"swap_slots", slots}, {"free_slot_on_swapin", free_slot}};
        Params positional = counting;
        positional.set("device", std::string("hdd-2002"));
        std::string counting_error, positional_error;
        Result a, b;
        try { a = simulate(t, policy, counting); } catch (const ConfigError& e) { counting_error = e.what(); }
        try { b = simulate(t, policy, positional); } catch (const ConfigError& e) { positional_error = e.what(); }
        CHECK(counting_error == positional_error);
        CHECK(a.total == b.total);
        CHECK(a.swap_slots_used == b.swap_slots_used);
        full += !counting_error.empty();
        ++runs;
      }
    }
  }
  CHECK(full > 0);  // both outcomes are compared
  CHECK(full < runs);
}

}  // namespace
}  // namespace pagesim::test
