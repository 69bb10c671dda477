#pragma once

#include <cstddef>
#include <cstdint>
#include <memory>
#include <string>
#include <vector>

#include "pagesim/device.hpp"
#include "pagesim/trace.hpp"

namespace pagesim {

// Event counts of a run, overall or for one process.
//   accesses = hits + faults, faults = minor_faults + major_faults,
//   major_faults = swap_ins + file_reads + zero_refills,
//   evictions = evictions_clean + evictions_dirty,
//   swap_outs + file_writes = evictions_dirty + writebacks,
//   readahead_used + readahead_wasted <= readahead_pages (the rest is resident, unused, at the
//   end), pages_scanned >= evictions. Readahead pages are not faults; a later access to one is
//   a hit. A process's counts are those of its pages: a fault on one of its pages, the eviction
//   of one of them (whichever process's fault asked for the room), a scan of one of them.
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
  // Writes of anonymous pages to a swap slot: dirty evictions, and writebacks.
  std::uint64_t swap_outs = 0;
  // Writes of file pages back to their file: dirty evictions, and writebacks.
  std::uint64_t file_writes = 0;
  // Dirty pages cleaned and left resident (PageTableView::start_writeback: WSClock's scheduled
  // writes, page_launder's); a page written so and evicted clean later is not written again.
  std::uint64_t writebacks = 0;
  // Pages brought in by swap readahead (page_cluster) or file readahead (read_ahead_kb), not
  // by a fault of their own.
  std::uint64_t readahead_pages = 0;
  // Readahead pages accessed (a hit) before their eviction.
  std::uint64_t readahead_used = 0;
  // Readahead pages evicted (or freed at their process's exit) without having been accessed.
  std::uint64_t readahead_wasted = 0;
  // Reclaim work: pages the policy examined to choose its victims, victims included (each
  // eviction counts one), plus the pages it scanned and kept (PageTableView::count_scanned): a
  // CLOCK hand passing over a referenced page, a page rotated or moved between the policy's
  // lists (Linux: pgscan on the inactive lists and pgrefill on the active ones, summed). A
  // policy that never looks at a page it keeps (lru, fifo, arc, belady...) scans only its
  // victims: pages_scanned = evictions. Each policy's header says what it counts.
  std::uint64_t pages_scanned = 0;

  Counters& operator+=(const Counters& other);
  // Adds `times` times other.
  void add(const Counters& other, std::uint64_t times);
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
    f("writebacks", &Counters::writebacks);
    f("readahead_pages", &Counters::readahead_pages);
    f("readahead_used", &Counters::readahead_used);
    f("readahead_wasted", &Counters::readahead_wasted);
    f("pages_scanned", &Counters::pages_scanned);
  }
  // Calls f(name, value) for every counter.
  template <class F>
  void for_each(F&& f) const {
    for_each_field([&](const char* name, auto member) { f(name, this->*member); });
  }
};

// Times of one process, or of the run, as /usr/bin/time reports them (virtual nanoseconds).
struct ProcTime {
  // From the start of the run to the process's start: the clock when its first access began
  // (run: 0). With schedule=round_robin a process that the trace starts after others ended
  // starts when they have ended (see EngineConfig::schedule).
  Tick start_ns = 0;
  // From the start of the run to the process's last access (run: the last process's).
  Tick elapsed_ns = 0;
  // CPU time of its accesses (accesses * cpu_ns).
  Tick user_ns = 0;
  // CPU time of the kernel on its behalf: zram (de)compression.
  Tick sys_ns = 0;
  // Time blocked on the swap device: reads of its major faults, waits for room in the queue.
  Tick iowait_ns = 0;

  template <class F>
  static void for_each_field(F&& f) {
    f("start_ns", &ProcTime::start_ns);
    f("elapsed_ns", &ProcTime::elapsed_ns);
    f("user_ns", &ProcTime::user_ns);
    f("sys_ns", &ProcTime::sys_ns);
    f("iowait_ns", &ProcTime::iowait_ns);
  }
};

// Each page's counts in a run with page_stats (EngineConfig::page_stats), indexed by the
// trace's dense PageId, beside the page's process, virtual page number and kind (the trace's
// own columns, shared). Summed over the pages they are the run's accesses, faults,
// major_faults, readahead_pages, evictions and swap_outs + file_writes. Per page:
//   accesses >= faults >= major_faults (its hits are accesses - faults) (a first touch of an
//   anonymous page is its minor fault; every
//     other fault, a file page's first touch included, is major);
//   readahead: the times swap or file readahead brought it in, which are not faults;
//   writes: the times it was written (swap-outs of an anonymous page, file writes of a file
//     page): at its dirty evictions, and at writebacks (a policy's start_writeback), so that
//     without writebacks writes <= evictions;
//   faults + readahead - evictions = 1 if it is resident at the end, else 0 (or freed at its
//     process's exit, with free_on_exit).
struct PageStats {
  Column<ProcId> proc;
  Column<std::uint64_t> vpn;
  Column<PageKind> kind;
  std::vector<std::uint64_t> accesses;
  std::vector<std::uint64_t> faults;
  std::vector<std::uint64_t> major_faults;
  std::vector<std::uint64_t> readahead;
  std::vector<std::uint64_t> evictions;
  std::vector<std::uint64_t> writes;
};

struct Vmstat;  // pagesim/timing.hpp (Eigen)

struct Result {
  std::string policy;
  std::size_t frames = 0;
  Counters total;
  // Indexed by dense ProcId; proc_pids holds the original pids.
  std::vector<Counters> per_proc;
  std::vector<std::uint64_t> proc_pids;
  // Swap slots in use at the end (copies kept by the swap cache included).
  std::uint64_t swap_slots_used = 0;
  // Virtual time: the run (elapsed = the last process's end; user, sys and IO wait summed over
  // processes) and each process (indexed like per_proc).
  ProcTime time;
  std::vector<ProcTime> per_proc_time;
  // Swap device: preset name, scheduling of processes, what the device did.
  std::string device;
  std::string schedule;
  DeviceStats device_stats;
  // Per page, with page_stats; null without.
  std::shared_ptr<const PageStats> pages;
  // Time series at interval_ns; null when interval_ns = 0.
  std::shared_ptr<const Vmstat> vmstat;
};

}  // namespace pagesim
