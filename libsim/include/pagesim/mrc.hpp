#pragma once

#include <cstddef>
#include <cstdint>
#include <vector>

#include "pagesim/trace.hpp"

namespace pagesim {

// Miss-ratio curves in one pass over a trace, for every memory size at once. Counts are
// faults as the engine counts them (cold faults included), with one victim per fault.

// faults[F] = faults of `lru` with F frames, for F = 0..trace.num_pages() (faults[0] is the
// number of accesses). Mattson, Gecsei, Slutz, Traiger, "Evaluation techniques for storage
// hierarchies", IBM Systems Journal 1970: LRU is a stack algorithm, an access with stack
// distance d (distinct pages since the previous access to the page, itself included) hits
// iff d <= F. Distances are counted with a Fenwick tree over access times that marks the
// latest access to each page: O(N log N) time, O(N + P) memory.
std::vector<std::uint64_t> lru_mrc(const Trace& trace);

// SHARDS estimate of lru_mrc (Waldspurger, Park, Garthwaite, Ahmad, "Efficient MRC
// Construction with SHARDS", FAST 2015). Fixed rate: a page is sampled iff
// hash(page) mod 2^24 < rate * 2^24; stack distances among sampled pages are divided by the
// rate, and the first histogram bucket gets the difference between the expected and the
// actual number of sampled accesses (their SHARDS_adj). Returns estimated faults[F] for
// F = 0..num_pages, scaled to the whole trace. rate in (0, 1]; rate 1 gives lru_mrc.
std::vector<double> shards_mrc(const Trace& trace, double rate, std::uint64_t seed = 0);

// Spatial sampling for miniature simulation (Waldspurger, Saemundsson, Ahmad, Park, "Cache
// Modeling and Optimization using Miniature Simulations", USENIX ATC 2017): the accesses of the
// pages that shards_mrc samples at `rate` with `seed` (the same hash, so the same pages), as a
// trace of their own (pid, virtual page number, kind and page size kept). Any policy run on it
// with frames * rate frames estimates its miss ratio with `frames` on the whole trace. `rate`
// is the rate the hash threshold gives (within 2^-25 of the one asked for). rate in (0, 1].
struct SampledTrace {
  Trace trace;
  double rate = 1.0;
};
SampledTrace sample_trace(const Trace& trace, double rate, std::uint64_t seed = 0);

// SHARDS with a fixed sample size: at most `max_pages` sampled pages; when a new one would
// exceed it, the sampled page with the largest hash leaves the sample and the threshold (so
// the rate) drops to its hash, and the histogram's mass is rescaled by new_rate / old_rate;
// at the end the SHARDS_adj correction with the final rate. The sample is bounded; the
// Fenwick tree over access times used here for stack distances is O(N).
std::vector<double> shards_fixed_size_mrc(const Trace& trace, std::size_t max_pages,
                                          std::uint64_t seed = 0);

// faults[F] = faults of Belady's MIN with F frames, F = 0..max_frames (0 or more than the
// footprint: all sizes up to the footprint). Mattson et al.'s OPT stack (priority = next
// use, sooner is higher; pages never used again lowest, by page id), in the one-pass form of
// Sugumar and Abraham, "Efficient simulation of caches under optimal replacement with
// applications to miss characterization", SIGMETRICS 1993: on an access at stack depth d the
// page goes to the top and each level down to d keeps the higher-priority of the page it held
// and the one pushed down from above. Exact for every size; O(N * min(d, max_frames)) time.
std::vector<std::uint64_t> opt_mrc(const Trace& trace, std::size_t max_frames = 0);

// Denning's working set ("The working set model for program behavior", CACM 1968): W(t, T) is
// the set of pages referenced by the T accesses up to t, t - T + 1 to t. Time is the trace's
// access count: with several processes, their accesses in trace order (a system-wide working
// set). The working-set policy keeps exactly W(t, T) resident, so access t faults iff its page
// is not in W(t - 1, T): a first reference, or a backward interreference interval (t minus
// the page's previous access) above T. Its memory varies; its mean size is the sum over t of
// |W(t, T)| divided by the accesses.
//
// Its prescient counterpart is Prieve and Fabry's VMIN ("VMIN: an optimal variable-space page
// replacement algorithm", CACM 1976): after a reference at t, keep the page until its next
// reference t' if t' - t <= T, else drop it at once. It faults exactly where the working-set
// policy with window T does (a reference faults iff its backward interval is above T). It
// minimises faults * (T - 1) + page-instants over demand paging with memory free to vary,
// interval by interval (holding a page over an interval g costs g page-instants; dropping it,
// 1 and a fault), so no such policy that faults no more holds fewer page-instants. Its size
// at t counts the page referenced at t.
struct WorkingSetPoint {
  std::uint64_t window = 0;         // T, in accesses
  std::uint64_t faults = 0;         // of the working-set policy with window T (and of VMIN)
  std::uint64_t size_sum = 0;       // sum over t of |W(t, T)|
  std::uint64_t accesses = 0;       // the t summed over: mean size = size_sum / accesses
  std::uint64_t vmin_size_sum = 0;  // sum over t of VMIN's resident pages, with T
};

// The working-set policy at each window of `windows` (each >= 1, else ConfigError), one point
// per distinct window in increasing order, in one pass (Denning and Schwartz, "Properties of
// the working-set model", CACM 1972): a reference at t whose page is next referenced at t'
// (or, the page's last, t' = the trace's end) keeps it in W for min(t' - t, T) instants, so
// size_sum(T) is the sum of min(gap, T) over the gaps; faults(T) counts the first references
// and the intervals above T. VMIN holds a page over an interval only if it is at most T, and
// for the instant of the reference otherwise (the last references too): vmin_size_sum(T) is
// the sum of the intervals at most T, plus one per interval above T, plus one per page. The
// gaps go into the buckets between consecutive windows (counts and sums): O(N log K) time for
// K windows, O(P + K) memory.
std::vector<WorkingSetPoint> working_set_curve(const Trace& trace,
                                               std::vector<std::uint64_t> windows);

// Denning's working set proper: each process's own, in its own virtual time (its accesses, in
// trace order), as working_set_curve computes it on the trace of that process alone. Indexed
// by process (ProcId), each with working_set_curve's points.
std::vector<std::vector<WorkingSetPoint>> working_set_curves_per_process(
    const Trace& trace, std::vector<std::uint64_t> windows);

// The working set's size over the trace: |W(t, T)| for each access t, as the mean of each
// block of `every` accesses (the last block may be shorter), so a trace's phases show: how
// much memory the program needs, and when. Whole trace (one series, the trace's time) or per
// process (a series each, indexed by process): at trace position t, process q's working set
// is the set of pages among its own last T accesses up to t (its virtual time, as in
// working_set_curves_per_process: it stays as it is while others run), and empty before its
// first access and after its last (it has exited). Their sum is what all processes need at
// once. O(N + blocks x processes); every >= 1 and window >= 1, else ConfigError.
std::vector<std::vector<double>> working_set_sizes(const Trace& trace, std::uint64_t window,
                                                   std::uint64_t every, bool per_process);

// Chu and Opderbeck's page-fault-frequency policy ("The page fault frequency replacement
// algorithm", AFIPS FJCC 1972), the working set's variable-space rival, as Denning states it
// ("Working sets past and present", IEEE TSE 1980): memory grows at each fault; when a fault
// comes more than T accesses after the previous one (the fault rate is below 1/T), the pages
// not referenced since that previous fault (counting its own access) leave first. Time is
// the trace's access count, as for working_set_curve; the size at t counts the page accessed
// at t.
struct PffPoint {
  std::uint64_t threshold = 0;  // T, in accesses
  std::uint64_t faults = 0;
  std::uint64_t size_sum = 0;  // sum over t of the resident pages
  std::uint64_t accesses = 0;  // the t summed over: mean size = size_sum / accesses
};

// The page-fault-frequency policy at each threshold of `thresholds` (each >= 1, else
// ConfigError), one point per distinct threshold in increasing order: one simulation each,
// O(N) (a page is kept or dropped at a shrink at most once per access since the fault before).
std::vector<PffPoint> pff_curve(const Trace& trace, std::vector<std::uint64_t> thresholds);

// The same for each process in its own virtual time, as pff_curve on its accesses alone.
// Indexed by process (ProcId).
std::vector<std::vector<PffPoint>> pff_curves_per_process(const Trace& trace,
                                                          std::vector<std::uint64_t> thresholds);

}  // namespace pagesim
