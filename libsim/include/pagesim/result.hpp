#pragma once

#include <cstddef>
#include <cstdint>
#include <string>
#include <vector>

namespace pagesim {

// Event counts of a run, overall or for one process.
//   accesses = hits + faults, faults = minor_faults + major_faults,
//   major_faults = swap_ins + file_reads + zero_refills,
//   evictions = evictions_clean + evictions_dirty, evictions_dirty = swap_outs + file_writes.
struct Counters {
  std::uint64_t accesses = 0;
  std::uint64_t hits = 0;
  std::uint64_t faults = 0;
  // First touch of an anonymous page: zero-fill, no IO.
  std::uint64_t minor_faults = 0;
  // Fault on a page that was resident before, or first touch of a file page.
  std::uint64_t major_faults = 0;
  // Major faults served from a swap slot.
  std::uint64_t swap_ins = 0;
  // Major faults on file pages, read from their file.
  std::uint64_t file_reads = 0;
  // Major faults on anonymous pages that were evicted clean without a swap copy (never
  // written): nothing to read, the page is zero-filled again.
  std::uint64_t zero_refills = 0;
  std::uint64_t evictions = 0;
  std::uint64_t evictions_clean = 0;
  std::uint64_t evictions_dirty = 0;
  // Dirty anonymous evictions: writes to a swap slot.
  std::uint64_t swap_outs = 0;
  // Dirty file evictions: writes back to the file.
  std::uint64_t file_writes = 0;

  Counters& operator+=(const Counters& other);
  bool operator==(const Counters& other) const;
  bool operator!=(const Counters& other) const { return !(*this == other); }

  // Calls f(name, &Counters::field) for every counter, in declaration order: the one list
  // of counters that sums, comparisons and conversions use.
  template <class F>
  static void for_each_field(F&& f) {
    f("accesses", &Counters::accesses);
    f("hits", &Counters::hits);
    f("faults", &Counters::faults);
    f("minor_faults", &Counters::minor_faults);
    f("major_faults", &Counters::major_faults);
    f("swap_ins", &Counters::swap_ins);
    f("file_reads", &Counters::file_reads);
    f("zero_refills", &Counters::zero_refills);
    f("evictions", &Counters::evictions);
    f("evictions_clean", &Counters::evictions_clean);
    f("evictions_dirty", &Counters::evictions_dirty);
    f("swap_outs", &Counters::swap_outs);
    f("file_writes", &Counters::file_writes);
  }
  // Calls f(name, value) for every counter.
  template <class F>
  void for_each(F&& f) const {
    for_each_field([&](const char* name, auto member) { f(name, this->*member); });
  }
};

struct Result {
  std::string policy;
  std::size_t frames = 0;
  Counters total;
  // Indexed by dense ProcId; proc_pids holds the original pids.
  std::vector<Counters> per_proc;
  std::vector<std::uint64_t> proc_pids;
  // Swap slots in use at the end (copies kept by the swap cache included).
  std::uint64_t swap_slots_used = 0;
};

}  // namespace pagesim
