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

// Interleaves traces round robin, `quantum` accesses from each in turn until all are used
// up. Pids are kept (the same pid in two inputs is one process) unless `renumber`, which
// gives each input process its own pid 1, 2, ...; without it, a pid in two inputs whose pages
// differ in kind is an error.
Trace interleave(const std::vector<const Trace*>& traces, std::uint64_t quantum, bool renumber);

// Any generator by name, its options from `params` (unknown keys are rejected with a
// suggestion): qsbench, stream, hog, zipf, loop, phases, kbuild.
Trace generate(const std::string& kind, const Params& params);
std::vector<std::string> generator_names();

}  // namespace pagesim
