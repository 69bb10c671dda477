#pragma once

#include <cstdint>
#include <functional>
#include <string>
#include <vector>

#include "pagesim/params.hpp"
#include "pagesim/trace.hpp"

namespace pagesim {

// Synthetic workloads, deterministic for a seed. Page numbers are 0..pages-1 of pid 1.

// Independent references with P(rank k) proportional to 1/k^alpha (alpha 0 = uniform). Ranks
// are scattered over the page numbers by a seeded permutation, so popularity is not tied to
// address. Each access is a write with probability write_fraction.
Trace generate_zipf(std::uint64_t accesses, std::uint32_t pages, double alpha,
                    double write_fraction, std::uint64_t seed);

// Cyclic sweep over pages 0..pages-1, repeated until `accesses` references: the pattern on
// which LRU faults on every access once pages > frames.
Trace generate_loop(std::uint64_t accesses, std::uint32_t pages, double write_fraction,
                    std::uint64_t seed);

// qsbench, the classic VM benchmark of the Linux 2.4/2.6 days: each of `procs` processes
// fills an array of 32-bit ints with random numbers and quicksorts it. The generator really
// sorts (qsbench_sort below) and records the page reads and writes of the array in program
// order, fill pass included. Element accesses become page accesses through a window of the
// process's most recently touched pages: a re-access to a page in the window is dropped
// unless it is the page's first write since it entered; before a page from outside the window
// is emitted, the window's most recent page is re-emitted if the emitted order left it behind.
// window 0 keeps every element access; 1 drops consecutive repeats only (exact for every
// policy); the default 2 folds the partition pointers' ping-pong between two pages and is
// exact for LRU with at least 2 frames (the LRU stacks agree whenever a page outside the
// window is touched), an approximation of the referenced-bit timing for other policies. With
// procs > 1 the processes' streams are interleaved round robin, `quantum` accesses a turn;
// each process exits when its sort is done (replay with free_on_exit=true to free its array).
struct QsbenchOptions {
  std::uint64_t mib = 16;        // -m: array size per process
  std::uint64_t elements = 0;    // array length; 0 = mib * 2^20 / 4
  std::uint32_t procs = 1;       // -p
  std::uint64_t seed = 1;        // -s
  std::uint32_t window = 2;
  std::uint32_t page_size = 4096;
  std::uint64_t quantum = 10000;  // accesses per turn when procs > 1 (round robin)
};
// `sorted`, if given, receives each process's array after the sort.
Trace generate_qsbench(const QsbenchOptions& options,
                       std::vector<std::vector<std::uint32_t>>* sorted = nullptr);

// The quicksort qsbench runs (the structure of glibc's _quicksort, stdlib/qsort.c: median of
// three, an explicit stack with the smaller partition done first, partitions of at most 4
// elements left to one final insertion sort; the pivot value held in a register as a compiler
// does for ints). Calls touch(index, is_write) for every element read and write.
void qsbench_sort(std::vector<std::uint32_t>& a, const std::function<void(std::size_t, bool)>& touch);

// Streaming file reads (ls -lR, updatedb, dd): `files` files totalling `mib` MiB, sizes drawn
// from an exponential distribution (one file: dd of `mib` MiB), each read once start to end in
// turn, `passes` times. File-backed pages (PageKind::kFile); file f is at vpn f << 24.
Trace generate_stream(std::uint64_t mib, std::uint32_t files, std::uint32_t passes, std::uint64_t seed,
                      std::uint64_t pid = 1);

// The memory hog: allocate `mib` MiB and write every page once (`passes` times), then sleep
// (the trace ends; its pages stay allocated).
Trace generate_hog(std::uint64_t mib, std::uint32_t passes, std::uint64_t pid = 1);

// Working sets that shift: `phases` phases of accesses/phases uniform references to a working
// set of `pages` pages; each phase's set is shifted by shift * pages from the previous one
// (shift 0: one set, 1: disjoint sets).
Trace generate_phases(std::uint64_t accesses, std::uint32_t phases, std::uint32_t pages, double shift,
                      double write_fraction, std::uint64_t seed);

// A kernel build, `make -j parallel`: `jobs` short compiler processes (pids 100, 101, ...) run
// `parallel` at a time, round robin in turns of `quantum` accesses. Each makes
// `job_accesses` references: a share `shared_fraction` reads the shared read-only set
// (compiler binary and headers, `shared_mib`, skewed towards its first pages), the rest reads
// and writes a private heap of up to `heap_mib` that grows as the job runs and dies with it:
// replay with free_on_exit=true, or the dead jobs' heaps stay in memory until reclaimed.
// Shared pages are file pages of pid 0, the page cache: a Trace page belongs to one process,
// so accesses to them are counted under pid 0.
struct KbuildOptions {
  std::uint32_t jobs = 64;
  std::uint32_t parallel = 4;
  std::uint64_t shared_mib = 32;
  std::uint64_t heap_mib = 8;
  std::uint64_t job_accesses = 20000;
  double shared_fraction = 0.5;
  std::uint64_t quantum = 1000;
  std::uint64_t seed = 1;
};
Trace generate_kbuild(const KbuildOptions& options);

// One big compile in a small machine: a single compiler process (gcc 3.x/4.x compiling one huge
// file) whose garbage-collected heap outgrows RAM. Pid 1; 4 KiB pages.
//
// The compile reads its input a page at a time, headers first, then the source, each page once
// (a file page, PageKind::kFile). Each input page is one unit of work (a top-level declaration
// or a function, ~100 lines): it allocates its share of the heap, does `work` accesses per page
// it allocated, and ends with a call of ggc_collect, as gcc calls it between passes.
//   Allocation. All units together allocate heap_pages / live_fraction pages, spread evenly
//   (Bresenham) over the units; of these allocations, every (1 / live_fraction)-th one, evenly
//   spread, holds long-lived data (declarations, types, symbol tables, saved function bodies)
//   that lives to the end, the others die when their unit ends. An allocation takes the page
//   freed last (ggc-page's free list is LIFO) or else a new page above the heap's top; it writes
//   the page's page_entry and then the page.
//   Work. Each access reads a long-lived page with probability old_reads, the oldest most often
//   (page k of n in allocation order, k = floor(n u^2), u uniform: the builtin types and common
//   headers), and otherwise reads or writes (even odds) one of its unit's pages, uniformly.
//   Collection. At the end of each unit, with `in_use` the pages allocated and not yet swept and
//   `last` the pages live after the previous collection (0 before the first), gcc's ggc_collect
//   (ggc-page.c, 3.3 to 4.x) collects only if
//       in_use >= base + base * ggc_min_expand / 100,  base = max(last, ggc_min_heapsize),
//   in bytes, integer arithmetic. A collection, in address order each time:
//     clear_marks: writes the page_entry (its in-use bitmap) of every page in use;
//     mark:        reads every live page, the long-lived ones, once, after setting its mark bit
//                  in its page_entry (ggc_set_mark) -- the loop over the live heap;
//     sweep:       writes the page_entry of every page in use; a page with no live object goes
//                  on the free list. Sweeping touches page entries only: ggc-page frees a page by
//                  its in-use count; only a checking build (ENABLE_GC_CHECKING's poison_pages)
//                  writes free objects.
//   The page entries are malloc'd apart from the pages they describe, 64 to a page (about 64
//   bytes each: a 32-bit page_entry and its in-use bitmap); consecutive accesses to the same
//   page_entry page within a phase are one access.
// Default thresholds come from the machine's RAM as gcc computes them (ggc-common.c):
//   ggc_min_expand   = 30 + 70 * min(1, ram / 1 GiB)   percent, truncated to an integer;
//   ggc_min_heapsize = ram / 8, clamped to [4 MiB, 128 MiB], in KiB.
// `ram_pages` is what gcc's physmem_total() sees; the replay's frames are a separate choice.
// Pages (vpn): heap page k at 2^24 + k, its page_entry in 0x8000 + k / 64, header page k at
// 2^36 + k, source page k at 2^37 + k.
// Simplified: objects are whole pages (a page is live or garbage, never partly both); every
// unit is alike (headers make garbage too); the mark walks live pages in address order, not
// the object graph's order; ggc_collect runs only between units; the lexer's buffer, the
// page-table lookups and release_pages (which munmaps free pages not reused by the next
// collection; here they stay on the free list until reused) are not modelled.
struct CompileOptions {
  std::uint64_t heap_pages = 96 * 256;   // heap_mib: long-lived (live) heap at the end
  std::uint64_t header_pages = 8 * 256;  // header_mib: headers read, first
  std::uint64_t source_pages = 2 * 256;  // source_mib: the source file read, after them
  std::uint64_t ram_pages = 64 * 256;    // ram_mib: the RAM gcc's heuristics see
  std::int64_t ggc_min_expand = -1;      // percent; -1: gcc's heuristic for ram_pages
  std::int64_t ggc_min_heapsize = -1;    // KiB; -1: gcc's heuristic for ram_pages
  double live_fraction = 0.25;           // share of allocated pages that stay live
  std::uint32_t work = 8;                // accesses per allocated page
  double old_reads = 0.1;                // share of the work that reads long-lived pages
  std::uint64_t seed = 1;
};
// gcc's ggc_min_expand_heuristic and ggc_min_heapsize_heuristic (KiB) for `ram_pages` of 4 KiB.
std::int64_t ggc_min_expand_heuristic(std::uint64_t ram_pages);
std::int64_t ggc_min_heapsize_heuristic(std::uint64_t ram_pages);

// One collection: where its accesses are in the trace and the heap it found and left.
struct GcCollection {
  std::uint64_t start = 0;       // index of its first access (clear_marks)
  std::uint64_t mark = 0;        // index of the mark phase's first access
  std::uint64_t sweep = 0;       // index of the sweep's first access
  std::uint64_t end = 0;         // one past its last access
  std::uint64_t heap_pages = 0;  // pages in use when it began: live and garbage
  std::uint64_t live_pages = 0;  // pages in use after the sweep
};
// `collections`, if given, receives every collection in order.
Trace generate_compile(const CompileOptions& options,
                       std::vector<GcCollection>* collections = nullptr);
// The options from named parameters (heap_mib, header_mib, source_mib, ram_mib in MiB,
// ggc_min_expand in percent, ggc_min_heapsize in KiB, live_fraction, work, old_reads, seed),
// validated;
// unknown keys are left for the caller's check_all_used.
CompileOptions compile_options(const Params& params);

// Interleaves traces round robin, `quantum` accesses from each in turn until all are used
// up. Pids are kept (the same pid in two inputs is one process) unless `renumber`, which
// gives each input process its own pid 1, 2, ...; without it, a pid in two inputs whose pages
// differ in kind is an error.
Trace interleave(const std::vector<const Trace*>& traces, std::uint64_t quantum, bool renumber);

// Any generator by name, its options from `params` (unknown keys are rejected with a
// suggestion): qsbench, stream, hog, zipf, loop, phases, kbuild, compile.
Trace generate(const std::string& kind, const Params& params);
std::vector<std::string> generator_names();

}  // namespace pagesim
