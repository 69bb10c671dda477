#pragma once

#include <algorithm>
#include <cstddef>
#include <cstdint>
#include <functional>
#include <map>
#include <string>
#include <type_traits>
#include <utility>
#include <vector>

#include "pagesim/device.hpp"
#include "pagesim/error.hpp"
#include "pagesim/page_array.hpp"
#include "pagesim/page_table.hpp"
#include "pagesim/params.hpp"
#include "pagesim/policy.hpp"
#include "pagesim/result.hpp"
#include "pagesim/swap.hpp"
#include "pagesim/trace.hpp"

namespace pagesim {

// In which order the accesses of several processes are replayed.
enum class Schedule : std::uint8_t {
  // Trace order. The clock stops for everybody while a process waits for the device.
  kStatic,
  // Each process replays its own accesses in trace order; the CPU goes round-robin between
  // the runnable ones for quantum_ns each; a process blocked on a read lets the others run,
  // and an idle CPU waits for the next read to complete. A process becomes runnable once
  // every process whose last access comes before its first access in the trace has ended
  // (detail::Admission).
  kRoundRobin,
};

// How a swap-in's readahead window is sized (key "swap_readahead"; "auto" picks what Linux
// 4.15 to 6.x picks for the device: kAdaptive on a disk, kVma otherwise, and on zram no
// readahead, page_cluster 0, with the slot freed at the swap-in).
enum class SwapReadahead : std::uint8_t {
  // "fixed", Linux 2.4 to 2.6.2x (valid_swaphandles): the aligned window of 2^page_cluster
  // slots, read forward from its start up to the first free slot.
  kFixed,
  // "adaptive", Linux 3.14 to 6.x on rotating swap devices (swap_cluster_readahead with
  // swapin_nr_pages): the aligned window's size follows the swap readahead pages used since
  // the last swap-in, and free slots in it are passed over.
  kAdaptive,
  // "vma", Linux 4.14 to 6.x when no swap device is rotational (swap_vma_readahead): the
  // window is of virtual addresses around the faulting page, in its process, sized as
  // adaptive's from that process's own readahead hits; each page there that is in swap is
  // read, wherever its slot lies.
  kVma,
};

// When a page swapped back in gives up its swap slot (key "free_slot_on_swapin"). Every mode
// but kOff and kAlways frees it at the swap-in when vm_swap_full(): nr_swap_pages * 2 <
// total_swap_pages.
enum class SlotFreeing : std::uint8_t {
  kWhenSwapHalfFull,  // 2.4.10 to 2.6.27
  kOff,               // 2.4.0: never
  kAlways,            // at every swap-in
  // Also at any write to the page while it holds its slot, at the swap-in or later: 2.6.28 to
  // 5.18's reuse_swap_page (do_swap_page and do_wp_page), try_to_free_swap in 5.9's do_wp_page.
  kAtWrite,
  // Also at a swap-in by a write (5.19 to 6.x: should_try_to_free_swap); a later write to the
  // page reuses it (PageAnonExclusive) and keeps the slot.
  kAtWriteFault,
};

// Engine settings, read from the run's Params.
struct EngineConfig {
  // Memory size in page frames (key "frames", required, >= 1).
  std::size_t frames = 0;
  // When a swapped-in page's swap slot is freed, making the page dirty (key
  // "free_slot_on_swapin": "always" or true, "never" or false, "write", "write_fault"; see
  // SlotFreeing). Default "swap_full": as Linux 2.4.10 to 2.6.27's do_swap_page, when more than
  // half of the swap slots are in use (vm_swap_full); otherwise the swap cache keeps the slot
  // and a clean re-eviction writes nothing.
  SlotFreeing free_slot_on_swapin = SlotFreeing::kWhenSwapHalfFull;
  // kswapd-like batch reclaim (keys "low_watermark", "high_watermark", in frames): when a
  // fault finds at most `low` free frames, reclaim until `high` are free. Default 0/0: one
  // victim per fault, when memory is full (textbook demand paging).
  std::size_t low_watermark = 0;
  std::size_t high_watermark = 0;
  // Virtual CPU time of one access (key "cpu_ns").
  Tick cpu_ns = 100;
  // Swap slots (key "swap_slots"; 0, the default, means twice the trace's pages). Evicting a
  // dirty anonymous page without a slot when all are in use is a ConfigError.
  std::size_t swap_slots = 0;
  // Swap readahead (key "page_cluster", 0 to 10, default 3 = windows of 8 slots; 0 turns it
  // off): see Engine.
  unsigned page_cluster = 3;
  SwapReadahead swap_readahead = SwapReadahead::kFixed;
  // File readahead (key "read_ahead_kb", Linux's /sys/block/*/queue/read_ahead_kb, 0 to
  // 16384, default 0 = off): windows of at most read_ahead_kb * 1024 / the trace's page size
  // pages (Linux's ra_pages, rounded down; under two pages nothing is read ahead); see Engine.
  unsigned read_ahead_kb = 0;
  // Swap device (key "device" and device_* / io_* keys, see device.hpp). Default "none":
  // IO costs no time, so counts-only runs pay nothing for the cost model.
  DeviceConfig device;
  // Key "schedule" ("static" or "round_robin"). Default: static for a one-process trace,
  // round_robin for several. static replays the accesses in trace order. round_robin runs
  // each process's own accesses in trace order for quantum_ns at a time, and a blocked process
  // lets the others run; a process starts once every process whose last access comes before
  // its first access in the trace has ended (make -j4: the fifth job starts when the first
  // ends), so processes run concurrently when their lifetimes overlap in the trace.
  bool schedule_given = false;
  Schedule schedule = Schedule::kStatic;
  // Round-robin time slice (key "quantum_ns", default 10 ms).
  Tick quantum_ns = 10'000'000;
  // vmstat interval (key "interval_ns", default 1 s; 0: no time series).
  Tick interval_ns = 1'000'000'000;
  // A process exits after its last access (key "free_on_exit"): its anonymous pages leave
  // memory and swap, and the policy forgets them (Policy::on_free); its file pages stay in
  // the page cache. Default false: a process whose accesses end sleeps, its pages stay until
  // reclaimed (a trace does not say whether its processes exited; the hog generator's sleeps).
  bool free_on_exit = false;
  // Count the accesses, faults, readahead, evictions and writes of every page (key
  // "page_stats", default false): Result::pages. Which pages a policy faults on and writes
  // again, where the run's counters say only how many; 48 bytes a page.
  bool page_stats = false;

  static EngineConfig from_params(const Params& params);
  // Every key from_params reads, with what it takes ("integer from 0 to 10 (default 3)"). A
  // device figure has each preset's default ("(default 4.17 for hdd-2002, 5.5 for hdd-laptop)").
  static std::map<std::string, std::string, std::less<>> parameters();
};

// Replays a trace against one policy. The per-access loop is a template over the policy type:
// a built-in policy (declared `final`) gets its callbacks inlined, a Policy& goes through
// virtual calls (Python-defined and user policies).
//
// Faults and IO (Linux 2.4.18 / 2.6.20 semantics, reference/linux-reclaim.md section 4):
// - a dirty anonymous page gets a swap slot on its first swap-out (SwapMap, scan_swap_map;
//   without readahead and a queued device, where no result depends on the slot's position,
//   the map only counts);
// - swap readahead (mm/swap_state.c swapin_readahead + valid_swaphandles): a swap-in of the
//   page in slot `off` also reads the slots of the aligned window of swap offsets
//   [(offset >> page_cluster) << page_cluster, + 2^page_cluster), offset = off + 1 (the
//   kernel's offset 0 is the swap header, left out of the first window), forward from its
//   start, stopping at the first free slot (or the end of swap), skipping resident pages;
//   then the faulting page; with swap_readahead adaptive (3.14 to 6.x swap_cluster_readahead)
//   the window's size is swapin_nr_pages' and free slots are passed over; with vma
//   (collect_vma_readahead) the window is of the faulting process's vpns instead;
// - file pages are read from and written to their file, placed after the swap area on the
//   same device in (process, vpn) order: a process's file pages stand for one file (below),
//   its vpns for their offsets (file_position);
// - file readahead (read_ahead_kb > 0; Linux 2.6.20 mm/readahead.c page_cache_readahead),
//   per process: the trace has no file identity, so a process's file faults stand for the
//   reads of one open file (one file_ra_state), and a file page's vpn for its offset in that
//   file. A read fault on file page p is sequential when vpn(p) is the vpn after the
//   process's last window (its first file read counts as a read at the start of the file:
//   sequential too); then the window vpn(p), vpn(p) + 1, ... is read, size pages: the
//   fault's page and size - 1 readahead pages, size being
//     get_init_ra_size(1, max) after no window (the first read, or a random one before it):
//       4 pages when max >= 32, 2 when max >= 4, else max;
//     get_next_ra_size(previous size) after a window: x4 while below max / 16, else x2,
//       capped at max (for 32 pages: 4, 8, 16, 32, 32, ...);
//   max being read_ahead_kb * 1024 / page size. A read fault elsewhere is random: ra_off, the
//   page is read alone and the next read fault on the vpn after it starts a window again. The
//   window stops at the first vpn for which the trace has no file page of the process: the
//   end of the file, anonymous memory, or a hole (a page the trace never accesses has no page
//   id, so it cannot be read ahead, and the window ends before it); the stream's next vpn is
//   still vpn(p) + size (Linux keeps ra->start and ra->size), so a read just past a hole goes
//   on with it. Resident pages in it are skipped (the page cache has them: no IO) but count
//   towards its size. When its pages not in memory are more than memory takes (frames - 1, or
//   the frames the policy freed: below), the window is cut and the stream's next vpn follows
//   the last page read, its size staying the uncut window's (which get_next_ra_size grows).
//   A write fault on a file page reads its page alone and leaves the
//   stream as it is (generic_file_buffered_write does not call page_cache_readahead). Not
//   modelled: the asynchronous ahead window (a sequential reader reads the next window at
//   its next fault, not while it consumes this one, so the wait for each window's first
//   request does not overlap its CPU time), reads that hit
//   (only faults move a stream: a hit at the stream's next vpn leaves it, and the next fault
//   starts over; 2.6.20 calls page_cache_readahead on every read), RA_FLAG_MISS shrinking (a
//   window's page evicted before use), RA_FLAG_INCACHE and mmap's read-around (filemap_nopage);
// - readahead pages (swap and file) are resident, clean and not referenced; the engine
//   reclaims frames for them like for the faulting page (Linux allocates them with reclaim
//   too), at most frames - 1 of them, and fewer when the policy returns fewer victims; the
//   batch is read with the faulting page in position order (adjacent pages merge into
//   requests of up to io_max_request_pages);
// - a major fault that reads blocks its process until the read completes. Writes are
//   asynchronous and the evicted page's frame is reused at once; the reclaiming process
//   blocks only when io_queue_depth requests are queued (the block layer's request limit):
//   its fault completes, its writes and reads wait in the device's list (SwapDevice::submit)
//   and it sleeps until they are in, and its read, if any, completes; the others run;
// - zram costs CPU time of the faulting (reclaiming) process instead of IO: sys time;
// - readahead pages become resident at the fault, before their read completes. The first use
//   (a hit) of a readahead page whose read is still queued or in service blocks its process
//   until that read completes, then goes on as a hit (readahead_used): its window may take
//   several requests (a page of it resident, io_max_request_pages), of which the faulting
//   process waited for its own page's only. Linux's do_swap_page finds such a page in the
//   swap cache (lookup_swap_cache) and sleeps in lock_page until the read unlocks it: a minor
//   fault with an IO wait; do_generic_mapping_read finds a file page not yet up to date and
//   sleeps in lock_page likewise. A readahead page evicted before its read completed
//   (reclaim at a later fault, or another process's, does not skip it as Linux skips a
//   locked page) joins that read at its next fault or readahead while the read is queued or
//   running (SwapDevice::submit, device_stats read_joins): the device reads it once.
class Engine {
 public:
  Engine(const Trace& trace, const EngineConfig& config, std::string policy_name);

  template <class P>
  Result run(P& policy);

  // next_use[i] = index of the next access to the page of access i, or kNever; and, when
  // `first_use` is not null, (*first_use)[p] = index of the first access to page p, or kNever.
  static PageArray<std::uint32_t> compute_next_use(const Trace& trace,
                                                   PageArray<std::uint32_t>* first_use = nullptr);

  Schedule schedule() const { return schedule_; }

 private:
  PageTableView view() {
    return PageTableView(bits_.data(), &trace_, config_.frames, &resident_, scanned_.data(),
                         slots_to_prefetch_, procs_to_prefetch_);
  }
  Access make_access(std::size_t i) const;
  // A hit with access flags `flags`: referenced, dirty on a write; a readahead page loses its
  // mark on first use.
  static void touch(PageBits& b, std::uint8_t flags) {
    b.value = static_cast<std::uint8_t>(
        (b.value | page_bits::kReferenced | (flags & Trace::kWrite) * page_bits::kDirty) &
        ~page_bits::kReadahead);
  }
  // The replay loops' look-ahead, given the pages of the accesses 2d, d and d/2 ahead of the
  // current one (d: kPrefetchDistance): the page bits of `far`, the policy's state for `far`
  // and `near` when it has a prefetch hook, the swap slot of `near` when `slots`
  // (slots_to_prefetch_) is not null, its owner when `procs` (procs_to_prefetch_) is, and the
  // owners of `half`'s slot's readahead window when `owners` (slot_owner_) is (readahead:
  // then `slots` is not null either), `half`'s vpn when `vpns` (vpns_to_prefetch_) is.
  template <class P>
  static void prefetch_ahead(P& policy, const PageBits* bits, const SlotId* slots,
                             const ProcId* procs, const PageId* owners, const std::uint64_t* vpns,
                             PageId far, PageId near, PageId half);
  // Asks the policy for `want` victims and evicts them.
  template <class P>
  void reclaim(P& policy, std::size_t index, std::size_t want);
  // reclaim(policy, index, 1), through the policy's select_victim when it has one.
  template <class P>
  void reclaim_one(P& policy, std::size_t index);
  // The view a reclaim at the fault of access `index` passes: the faulting page, and whether
  // free frames held it and its readahead pages (PageTableView::background).
  PageTableView reclaim_view(std::size_t index) {
    return view().with_incoming(trace_.page(index), config_.frames - resident_ >= 1 + ra_.size(),
                                writes_back_ ? &writebacks_ : nullptr,
                                tracks_written_ ? &written_ : nullptr);
  }
  // Frames to reclaim before the next fault by the watermarks, 0 if none.
  std::size_t reclaim_want() const {
    const std::size_t free = config_.frames - resident_;
    if (free > config_.low_watermark) return 0;
    return std::max<std::size_t>(config_.high_watermark, 1) - std::min(free, config_.high_watermark);
  }
  // Throws a PolicyError saying why victims_ is not 1..want distinct resident pages (at least
  // one when no frame is free): its size, or its element k (kBadCount for the size). Elements
  // before k are evicted by then, so a repeated page shows as not resident at its second place.
  static constexpr std::size_t kBadCount = ~std::size_t{0};
  [[noreturn]] void reject_victims(std::size_t want, std::size_t index, std::size_t k) const;
  // Whether v is a page of the trace and resident: a victim a policy may choose.
  bool resident_page(PageId v) const {
    return v < bits_.size() && bits_[v].has(page_bits::kResident);
  }
  // Throws a PolicyError unless v, the one victim chosen at access `index`, is resident.
  void check_victim(PageId v, std::size_t index) {
    if (!resident_page(v)) reject_victim(v, index);
  }
  [[noreturn]] void reject_victim(PageId v, std::size_t index);
  void evict(PageId p);
  // Writes the pages that select_victims cleaned (PageTableView::start_writeback).
  void start_writebacks();
  // tracks_written_: fills written_ with the pages whose writebacks the device has completed
  // by now_ (PageTableView::written), from its write log.
  void collect_written();
  // Page p's place on the device: its swap slot, or (`file`) its file position.
  std::uint64_t position_of(PageId p, bool file) const {
    return file ? file_position(p) : slot_[p];
  }
  std::uint64_t position_of(PageId p) const {
    return position_of(p, bits_[p].has(page_bits::kFile));
  }
  // tracks_written_: page p, with bits `bits`, is evicted: a writeback of it still under way
  // no longer tells the policy anything (PageTableView::written). Only a page with a place on
  // the device has one: a file page, or one holding a swap slot.
  void forget_writeback(PageId p, int bits) {
    if ((bits & (page_bits::kFile | page_bits::kInSwap)) == 0) return;
    PageId& w = writeback_page_[position_of(p)];
    if (w == p) w = kNoPage;
  }
  // tracks_written_: whether resident page p's writeback has not completed by now_. Its swap
  // slot stays meanwhile: the kernel keeps a page under writeback in the swap cache
  // (remove_exclusive_swap_page and reuse_swap_page refuse it).
  bool writeback_pending(PageId p);
  // The swap slot and the write of page p with bits `bits` leaving memory or cleaned:
  // counted only (evictions_count_only_), or given a slot position and written on the device.
  void write_out(PageId p, int bits) {
    if (evictions_count_only_) {
      if (!swap_.count_allocate(needs_slot(bits))) swap_full(p);
    } else {
      page_out(p, bits);
    }
  }
  // The bits of a page with bits `bits` after its eviction.
  static std::uint8_t evicted(int bits) {
    const int swap_out = (bits & (page_bits::kDirty | page_bits::kFile)) == page_bits::kDirty;
    return static_cast<std::uint8_t>((bits | swap_out * page_bits::kInSwap) &
                                     ~(page_bits::kResident | page_bits::kDirty |
                                       page_bits::kReferenced | page_bits::kReadahead));
  }
  // Faults and evictions are tallied by the bits their counts depend on, per process: one add
  // each, without a branch on those bits (which of them a faulting page or a victim has is
  // close to a coin toss). fold_tallies turns the tallies into counters; tally k stands for
  // the bits *_tally_bits(k).
  static constexpr std::size_t kTallies = 8;
  // A fault's counts depend on kSeen, kInSwap and kFile: bits 3 to 5.
  static std::size_t fault_tally(int bits) { return (bits >> 3) & 7; }
  static int fault_tally_bits(std::size_t k) { return static_cast<int>(k << 3); }
  // An eviction's on kDirty (bit 1), kFile and kReadahead (bits 5 and 6).
  static std::size_t eviction_tally(int bits) { return ((bits >> 1) & 1) | ((bits >> 4) & 6); }
  static int eviction_tally_bits(std::size_t k) {
    return static_cast<int>(((k & 1) << 1) | ((k & 6) << 4));
  }
  // Whether evicting a page with bits `bits` takes a swap slot: dirty, anonymous, none yet
  // (kInSwap says it holds one; testing the bit spares a cache miss).
  static bool needs_slot(int bits) {
    return (bits & (page_bits::kDirty | page_bits::kFile | page_bits::kInSwap)) == page_bits::kDirty;
  }
  // Gives dirty anonymous page p a swap slot; ConfigError when all are in use.
  void take_slot(PageId p);
  // The IO of evicting page p with bits `bits`, with slot positions or a device: its swap slot
  // if it needs one, and its write-back if dirty (which may wait for room in the queue).
  void page_out(PageId p, int bits) {
    if (needs_slot(bits)) take_slot(p);
    if (config_.device.kind != DeviceKind::kNone && (bits & page_bits::kDirty) != 0) {
      write_back(p, (bits & page_bits::kFile) != 0);
    }
  }
  // zram: process `proc` compresses (`write`) or decompresses `pages` pages, one request when
  // that is not 0; arithmetic, so that a caller can pass 0 instead of branching on a page.
  void zram_cost(ProcId proc, bool write, Tick pages) {
    const Tick cost = pages * device_.zram_ns(write);
    device_.cpu_work(now_, cost, write);
    proc_time_[proc].sys_ns += cost;
    now_ += cost;
    DeviceStats& st = device_.stats();
    (write ? st.writes : st.reads) += pages != 0;
    (write ? st.pages_written : st.pages_read) += pages;
    st.busy_ns += cost;
    (write ? st.write_busy_ns : st.read_busy_ns) += cost;
    // The rows of the intervals that end during it, with the work in progress (the page
    // being compressed still resident, the one being decompressed not yet) and counted up
    // to each row's end (SwapDevice::busy_until), before the next work replaces this one as
    // the device's last. Every other move of the clock takes its rows too, so none are due
    // when it starts.
    sample_until(now_);
  }
  // Frees p's swap slot.
  void release_slot(PageId p);
  // At the swap-in of page p (kInSwap) by an access that writes when `write`: frees its slot,
  // leaving it dirty, when free_slot_on_swapin says so now (do_swap_page: if (vm_swap_full())
  // remove_exclusive_swap_page(page), 2.4's delete_from_swap_cache and pte_mkdirty; a write
  // fault's reuse_swap_page or should_try_to_free_swap).
  void free_slot_at_swapin(PageId p, bool write) {
    if (config_.free_slot_on_swapin == SlotFreeing::kAlways || (write && frees_at_write_) ||
        swap_.used() * 2 > swap_.size()) {
      free_slot(p);
    }
  }
  // The slot of swap-in p (kInSwap) by an access that writes when `write`, whose process now
  // waits for its read when `reading`: free_slot_at_swapin now, or once the read has completed
  // (swapin_done), as do_swap_page judges and frees it after lock_page.
  void swapin_slot(PageId p, bool write, bool reading) {
    if (reading) {
      swapin_after_read_[proc_of(p)] = {p, write};
    } else {
      free_slot_at_swapin(p, write);
    }
  }
  // Process q, back from the wait for its swap-in's read: its slot goes now if it goes.
  void swapin_done(ProcId q) {
    const SwapinAfterRead s = std::exchange(swapin_after_read_[q], SwapinAfterRead{});
    // Evicted meanwhile (reclaim may take a page under a read), the page keeps its slot, also
    // when another process's readahead has brought it in again (its first use judges it).
    constexpr int kBoth = page_bits::kResident | page_bits::kInSwap;
    if (s.page != kNoPage && (bits_[s.page].value & (kBoth | page_bits::kReadahead)) == kBoth) {
      free_slot_at_swapin(s.page, s.write);
    }
  }
  // wait_for_read(q), then swapin_done(q).
  void wait_for_swapin(ProcId q) {
    wait_for_read(q);
    if (frees_slots_) swapin_done(q);
  }
  // Frees p's swap slot and makes it dirty: its copy in swap is no longer read.
  void free_slot(PageId p) {
    release_slot(p);
    bits_[p].clear(page_bits::kInSwap);
    bits_[p].set(page_bits::kDirty);
  }
  [[noreturn]] void swap_full(PageId p) const;
  // Handles the fault of access i to page p; true when its process now waits for a read.
  template <class P>
  bool fault(P& policy, std::size_t i, PageId p);
  // fault() with IO, watermarks or readahead.
  template <class P>
  bool fault_general(P& policy, std::size_t i);
  // Makes the pages in ra_ resident and tells the policy, for the fault of access i.
  template <class P>
  void read_ahead(P& policy, std::size_t i);
  // Fills ra_ with the pages to read ahead around p's slot.
  void collect_readahead(PageId p);
  // Adaptive swap readahead: the window in slots for a swap-in of the kernel's swap offset
  // `offset` (see collect_readahead).
  std::size_t swapin_nr_pages(std::uint64_t offset);
  // VMA swap readahead (swap_readahead vma): fills ra_ with the pages in swap around p's vpn.
  void collect_vma_readahead(PageId p);
  // File readahead at a read fault on file page p: updates its process's stream and fills ra_
  // with the pages of the window after p (see Engine).
  void collect_file_readahead(PageId p);
  // After fault_general cut the window of a read fault on file page p to the frames there
  // were (ra_ holds fewer pages than collect_file_readahead put in): the stream's next read
  // follows the last page read.
  void cut_file_window(PageId p);
  // Counts a fault on access i and makes its page resident; `reading`: its process now waits
  // for the page's read (see swapin_slot).
  void fault_in(std::size_t i, bool reading = false);
  // The bits of a page with bits `bits` after a fault on it by an access with flags `flags`.
  static std::uint8_t faulted_in(int bits, std::uint8_t flags) {
    return static_cast<std::uint8_t>(bits | page_bits::kResident | page_bits::kSeen |
                                     page_bits::kReferenced | (flags & Trace::kWrite) * page_bits::kDirty);
  }
  // Submits the reads of a fault of page p (ra_ around it); true when proc blocks.
  bool read_pages(PageId p, ProcId proc, bool swap_in);
  // Writes dirty page p back to its file or its swap slot (the device's cost).
  void write_back(PageId p, bool file);
  // A file page's place on the device: after the swap area, in (process, vpn) order.
  std::uint64_t file_position(PageId p) const { return swap_.size() + file_rank_[p]; }
  // Static order: proc waits (and the clock with it) until its read completes, or the writes
  // of its fault that wait for room in the queue are in (write_back).
  void wait_for_read(ProcId proc);
  // A hit at now_ on page p that still carries kReadahead (its first use), when
  // readahead_waits_: whether the read that brings it in is still queued or in service. Then
  // its process waits for that read as after a fault (ready_at_: kNoTime until the read
  // starts, then its completion): Linux's do_swap_page (do_generic_mapping_read for a file
  // page) finds the page in the cache and sleeps in lock_page until the read unlocks it.
  bool readahead_pending(PageId p);
  // The first use of readahead page p, at now_: a swap readahead hit for adaptive and VMA swap
  // readahead (lookup_swap_cache's TestClearPageReadahead; file pages are not the swap
  // cache's). VMA readahead counts it for p's process, at p's vpn (vma_readahead_hit). True
  // when its process now waits for the page's read (readahead_pending, if readahead_waits_).
  // Then do_swap_page maps it, and its slot goes as a faulting page's would (`write`: the
  // access writes).
  bool used_readahead(PageId p, bool write) {
    const bool swap = !bits_[p].has(page_bits::kFile);
    ra_hits_ += swap;
    if (vma_readahead_ && swap) vma_readahead_hit(p);
    const bool pending = readahead_waits_ && readahead_pending(p);
    if (frees_slots_ && bits_[p].has(page_bits::kInSwap)) swapin_slot(p, write, pending);
    return pending;
  }
  // A hit on page p with bits `before` (and access flags `flags`) that has one of the bits of
  // hit_watch_: the first use of a readahead page (used_readahead), or a write to a page
  // holding its slot under free_slot_on_swapin "write" (reuse_swap_page in do_wp_page). True
  // when its process now waits for a read.
  bool watched_hit(PageId p, int before, std::uint8_t flags) {
    const bool write = (flags & Trace::kWrite) != 0;
    if ((before & page_bits::kReadahead) != 0) return used_readahead(p, write);
    if (write && !(tracks_written_ && writeback_pending(p))) free_slot(p);
    return false;
  }
  void vma_readahead_hit(PageId p);
  // Books process q's wait for IO over [from, to), after it ended.
  void book_iowait(ProcId q, Tick from, Tick to) {
    proc_time_[q].iowait_ns += to - from;
    if (from < vm_last_time_)
      book_in_taken_rows(from, to, vm_iowait_, proc_time_.size(), q, vm_last_iowait_[q]);
  }
  // Books the CPU's idle time over [from, to) while a process waited for IO, after it ended.
  void book_idle(Tick from, Tick to) {
    idle_ns_ += to - from;
    if (from < vm_last_time_) book_in_taken_rows(from, to, vm_idle_, 1, 0, vm_last_idle_);
  }
  // For a wait that began before the last vmstat row was taken: adds its part in each row
  // taken since (row k covers [time of row k - 1, time of row k)) to column `col` of `rows`
  // (`stride` columns), and to `counted`, the total that the next row starts from, so that
  // the next row gets the rest.
  void book_in_taken_rows(Tick from, Tick to, std::vector<std::int64_t>& rows, std::size_t stride,
                          std::size_t col, Tick& counted);
  // Moves the clock to t (not backwards), taking vmstat rows on the way.
  void jump_to(Tick t) {
    if (t <= now_) return;
    sample_until(t);
    now_ = t;
  }
  // Takes the vmstat rows due by time t: those of the intervals that ended before t. The row
  // of time T covers (T - interval_ns, T]: an access that ends at T counts in it, so it is
  // taken at the first instant after T (next_sample_ is T + 1).
  void sample_until(Tick t) {
    if (next_sample_ <= t) take_samples(t);
  }
  void take_samples(Tick t);
  // Adds the tallied faults and evictions to per_proc_ and clears the tallies.
  void fold_tallies();
  template <class P>
  void on_events(P& policy);
  void set_next_event() { next_event_ = std::min(next_tick_, next_sample_); }
  template <class P, bool kMulti>
  void run_static(P& policy, const PolicyTraits& traits);
  // A plain run: one process, demand paging (one victim per fault, when memory is full), no
  // readahead, and a policy that picks one victim at a time and ignores hits. The common case,
  // with a replay loop of its own.
  bool plain(const PolicyTraits& traits) const;
  template <class P>
  void run_plain(P& policy);
  // run_plain's loop over accesses [begin, end). Without IO (kIo false) it runs between two
  // events and keeps no time; with IO, which moves the clock at faults, it keeps time per
  // access and takes the events itself.
  template <class P, bool kIo>
  void replay_plain(P& policy, std::size_t begin, std::size_t end);
  // replay_plain's fault with IO (kIo): the fault of access i to page p.
  template <class P>
  void fault_plain_io(P& policy, std::size_t i, PageId p);
  template <class P>
  void run_round_robin(P& policy, const PolicyTraits& traits);
  // Process q's exit with free_on_exit (else nothing): frees its anonymous pages, frames and
  // swap slots, and tells the policy (on_free). Not for the last process: the run ends there.
  template <class P>
  void exit_process(P& policy, ProcId q);
  // Fills exit_begin_, exit_pages_ and exits_.
  void plan_exits();
  // A page with its place in its process's address space.
  struct AddressedPage {
    ProcId proc;
    PageId page;
    std::uint64_t vpn;
  };
  // The pages of `kind` sorted by (process, vpn), and each one's index in that order in
  // `rank` (0 for a page of the other kind).
  std::vector<AddressedPage> by_address(PageKind kind, PageArray<std::uint32_t>& rank) const;
  // Owner of page p; a single-process trace spares the lookup (a cache miss per fault).
  ProcId proc_of(PageId p) const { return one_proc_ ? 0 : trace_.page_proc(p); }
  // Counters of the process owning page p.
  Counters& counters_of(PageId p) { return per_proc_[proc_of(p)]; }
  Result finish();

  const Trace& trace_;
  EngineConfig config_;
  std::string policy_name_;
  Schedule schedule_;
  bool file_pages_;  // the trace has file-backed pages
  PageArray<PageBits> bits_;
  PageArray<std::uint32_t> next_use_;
  // Prescient policies: next use of each page after its last access (its first access before
  // it), for readahead pages (kept only when swap or file readahead is on: a random store per
  // hit).
  PageArray<std::uint32_t> page_next_;
  bool track_page_next_ = false;
  // No device, no watermarks and no file readahead: a fault without swap readahead is
  // textbook demand paging.
  bool demand_paging_ = false;
  // Swap or file readahead on a queued device: a fault's window may take several requests,
  // and its pages are resident before they are read, so the first hit on one may have to wait
  // (readahead_pending).
  bool readahead_waits_ = false;
  // No device and no slot positions: an eviction only counts (see evict).
  bool evictions_count_only_ = false;
  // With page_stats, each page's counts (its columns are the trace's, set by finish).
  PageStats page_stats_;
  // A swap-in may free its slot: free_slot_on_swapin is not "never", and it is not left to
  // vm_swap_full alone with a swap area that the trace's pages cannot fill more than half.
  bool frees_slots_ = false;
  // A swap-in by a write frees its slot (free_slot_on_swapin "write" or "write_fault").
  bool frees_at_write_ = false;
  // Per process, the swap-in whose read it waits for, if its slot may go then (swapin_slot).
  struct SwapinAfterRead {
    PageId page = kNoPage;
    bool write = false;
  };
  std::vector<SwapinAfterRead> swapin_after_read_;
  // The page bits that send a hit to watched_hit: kReadahead, and kInSwap under
  // free_slot_on_swapin "write".
  int hit_watch_ = page_bits::kReadahead;
  // Per page its swap slot; empty when slot positions change no result (no readahead, no
  // queued device: the swap map only counts).
  PageArray<SlotId> slot_;
  // slot_'s data when faults read the slots of their pages (readahead, a queued device), else
  // nullptr. The replay loop fetches the slots of faulting pages ahead, the view those of the
  // victims a policy is about to nominate (a queued device reads them, take_slot writes them).
  const SlotId* slots_to_prefetch_ = nullptr;
  // The trace's page owners with several processes, else nullptr: a fault and an eviction
  // count under the page's process, a lookup in an array of 4 bytes per page.
  const ProcId* procs_to_prefetch_ = nullptr;
  // Per slot its page, kNoPage for a free slot; for readahead (empty without).
  PageArray<PageId> slot_owner_;
  // slot_owner_'s data with readahead, else nullptr: the replay loops fetch the owners of a
  // swap-in's window ahead.
  const PageId* owners_to_prefetch_ = nullptr;
  // The trace's page vpns with VMA readahead, else nullptr: a swap-in sizes its window by its
  // vpn, a lookup in an array of 8 bytes per page.
  const std::uint64_t* vpns_to_prefetch_ = nullptr;
  std::size_t resident_ = 0;
  std::vector<std::int64_t> resident_of_;
  SwapMap swap_;
  std::vector<Counters> per_proc_;
  // free_on_exit with several processes: each process's anonymous pages,
  // exit_pages_[exit_begin_[q] .. exit_begin_[q + 1]), and for the static order the accesses
  // after which a process exits, (trace index, process) by index.
  std::vector<std::size_t> exit_begin_;
  std::vector<PageId> exit_pages_;
  std::vector<std::pair<std::size_t, ProcId>> exits_;
  // Per process kTallies each: [proc * kTallies + k]. Not yet in per_proc_.
  std::vector<std::uint64_t> fault_tallies_, eviction_tallies_;
  // Per process the pages the policy scanned and kept (PageTableView::count_scanned). Not yet
  // in per_proc_: fold_tallies adds them, with the victims the eviction tallies count.
  std::vector<std::uint64_t> scanned_;
  bool one_proc_ = false;
  VictimList victims_;
  // The policy's traits say writes_back: its select_victims may list pages to clean in
  // writebacks_, which the engine writes when it returns.
  bool writes_back_ = false;
  std::vector<PageId> writebacks_;
  // The policy's traits say write_completions, on a queued device: the device logs its writes,
  // writeback_page_ holds at each position the page whose writeback there is pending (kNoPage:
  // none), and written_ the pages whose writebacks completed, for the policy's next reclaim.
  bool tracks_written_ = false;
  PageArray<PageId> writeback_page_;
  std::vector<PageId> written_;
  // The pages to read ahead at a fault, in position order, with their positions on the
  // device (swap slots, or file positions; which the collect functions know: read_pages then
  // need not look them up, a cache miss each).
  struct Readahead {
    PageId page;
    std::uint64_t position;
  };
  std::vector<Readahead> ra_;
  // Adaptive swap readahead's state, swapin_nr_pages' (global in the kernel, as here): the
  // swap readahead pages used since the last swap-in (swapin_readahead_hits), the offset of
  // the last swap-in that found none (prev_offset), the last window (last_readahead_pages).
  std::uint64_t ra_hits_ = 0;
  std::uint64_t ra_prev_offset_ = 0;
  std::size_t ra_last_pages_ = 0;
  // VMA swap readahead's state per process (a process's anonymous pages stand for one VMA:
  // the trace has no mappings), the VMA's swap_readahead_info: the vpn of its last swap-in or
  // readahead hit, its last window, its readahead hits since that swap-in. Empty unless
  // swap_readahead is vma.
  struct VmaReadahead {
    std::uint64_t prev_vpn = 0;
    std::uint64_t win = 0;
    std::uint64_t hits = 0;
  };
  std::vector<VmaReadahead> vma_ra_;
  bool vma_readahead_ = false;  // swap_readahead vma, with page_cluster > 0
  // With VMA readahead, the anonymous pages sorted by (process, vpn), and each one's index in
  // it (0 for a file page): a page's neighbours in its address space, read in a row.
  std::vector<AddressedPage> anon_by_address_;
  PageArray<std::uint32_t> anon_rank_;
  // File readahead: the largest window in pages (ra_pages), 0 when off (read_ahead_kb under
  // two pages, or a trace without file pages).
  std::uint32_t file_ra_max_ = 0;
  // The file pages sorted by (process, vpn): a process's file in offset order (only with file
  // readahead on); and each file page's index in it (only for a trace with file pages, 0 for
  // an anonymous page), which places it on the device and starts its window.
  std::vector<AddressedPage> file_by_rank_;
  PageArray<std::uint32_t> file_rank_;
  // Per process, its stream's state (file_ra_state): the vpn after its last window (after the
  // last page read when the window was cut), or after its last random read, and that
  // window's size, uncut (0 after a random read: ra_off). Before its first file read every read is
  // sequential (prev_page -1 at open).
  struct FileStream {
    std::uint64_t next = 0;
    std::uint32_t size = 0;
    bool started = false;
    bool past_end = false;  // next is 2^64 or beyond: no vpn follows
    // Whether a read at `vpn` follows the stream.
    bool follows(std::uint64_t vpn) const { return !started || (!past_end && next == vpn); }
    // The stream goes on after the n pages from `vpn`.
    void after(std::uint64_t vpn, std::uint64_t n) {
      started = true;
      past_end = __builtin_add_overflow(vpn, n, &next);
    }
  };
  std::vector<FileStream> file_streams_;

  // Virtual time.
  std::vector<Tick> ready_at_;  // per process: when its read completes, kNoTime if unknown
  SwapDevice device_;
  Tick now_ = 0;
  Tick tick_ns_ = 0;
  Tick next_tick_ = kNoTime;
  Tick next_sample_ = kNoTime;
  Tick next_event_ = kNoTime;
  ProcId cur_proc_ = 0;
  std::vector<ProcTime> proc_time_;
  std::vector<Tick> finish_;

  Tick idle_ns_ = 0;  // the CPU idle while a process waits for IO

  // vmstat rows, flattened; times in ns, made fractions of their intervals at the end.
  std::vector<std::int64_t> vm_time_, vm_resident_, vm_free_, vm_swap_used_, vm_faults_, vm_major_,
      vm_swap_ins_, vm_swap_outs_, vm_file_reads_, vm_file_writes_, vm_readahead_, vm_scanned_,
      vm_read_busy_, vm_write_busy_, vm_idle_, vm_iowait_;
  Counters vm_last_;
  SwapDevice::Busy vm_last_busy_;
  Tick vm_last_idle_ = 0;
  std::vector<Tick> vm_last_iowait_;  // per process
  Tick vm_last_time_ = 0;
};


namespace detail {
// The fast paths of the inlined replay (run by name, or Engine::run on the concrete type), opt
// in by the markers of policy.hpp: a policy's own public select_victim or prefetch, a helper
// of another meaning (a peek that does not pop), is never called unless its class declares
// the marker.
//
// prefetch(PageId page, int stage): the replay loop calls it for the page of access
// i+2*kPrefetchDistance (stage 0) and i+kPrefetchDistance (stage 1), so the random loads of a
// run overlap instead of waiting one after another.
inline constexpr std::size_t kPrefetchDistance = 16;
// PageId select_victim(PageTableView view): one victim, or kNoPage. A reclaim of one page
// (every fault of demand paging) calls it instead of select_victims, sparing the victim list.
template <class P, class = void>
struct HasSelectVictim : std::false_type {};
template <class P>
struct HasSelectVictim<P, std::enable_if_t<P::pagesim_select_victim_fast_path>> : std::true_type {};
template <class P, class = void>
struct HasPrefetch : std::false_type {};
template <class P>
struct HasPrefetch<P, std::enable_if_t<P::pagesim_prefetch_fast_path>> : std::true_type {};

// schedule=round_robin's admission: process q may start once every process whose last access
// comes before q's first access in the trace has ended (make -j4: the fifth job starts when
// the first ends; processes whose lifetimes overlap in the trace run together). The unfinished
// process with the earliest first access is always admitted: no deadlock. by_last_ holds the
// processes by last access; q waits for the first behind_[q] of them, and it is admitted once
// those have ended, that is once the prefix of by_last_ that has ended is at least that long.
// O(np log np) to set up, O(1) a question, O(np) over all ends.
class Admission {
 public:
  static constexpr std::size_t kNone = ~std::size_t{0};
  // Per process the trace indices of its first and last accesses, kNone for both when it has
  // none (it holds nobody back).
  Admission(const std::vector<std::size_t>& first, const std::vector<std::size_t>& last);
  bool admitted(ProcId q) const { return behind_[q] <= ended_prefix_; }
  bool ended(ProcId q) const { return ended_[q] != 0; }
  void end(ProcId q) {
    ended_[q] = 1;
    while (ended_prefix_ < by_last_.size() && ended_[by_last_[ended_prefix_]] != 0) ++ended_prefix_;
  }

 private:
  std::vector<ProcId> by_last_;
  std::vector<std::size_t> behind_;
  std::vector<std::uint8_t> ended_;
  std::size_t ended_prefix_ = 0;
};
}  // namespace detail

inline Access Engine::make_access(std::size_t i) const {
  Access a;
  a.index = i;
  a.page = trace_.page(i);
  a.proc = trace_.page_proc(a.page);
  a.write = trace_.write(i);
  a.kind = bits_[a.page].has(page_bits::kFile) ? PageKind::kFile : PageKind::kAnon;
  a.next_use = next_use_.empty() ? kNever : next_use_[i];
  return a;
}

inline void Engine::fault_in(std::size_t i, bool reading) {
  const PageId p = trace_.page(i);
  PageBits& b = bits_[p];
  const ProcId owner = proc_of(p);
  ++fault_tallies_[owner * kTallies + fault_tally(b.value)];
  if (config_.page_stats) {
    ++page_stats_.faults[p];
    page_stats_.major_faults[p] += page_bits::major_fault(b.value);
  }
  const std::uint8_t flags = trace_.flags()[i];
  if (frees_slots_ && b.has(page_bits::kInSwap)) {
    swapin_slot(p, (flags & Trace::kWrite) != 0, reading);
  }
  b.value = faulted_in(b.value, flags);
  ++resident_;
  ++resident_of_[owner];
}

inline void Engine::take_slot(PageId p) {
  const SlotId slot = swap_.allocate();
  if (slot == kNoSlot) swap_full(p);
  if (!slot_.empty()) slot_[p] = slot;
  if (!slot_owner_.empty()) slot_owner_[slot] = p;
}

// Without a device and slot positions (evictions_count_only_) the swap map only counts, also
// without a branch; with them, the branches lead to the slot allocator and the device.
inline void Engine::evict(PageId p) {
  PageBits& b = bits_[p];
  const ProcId owner = proc_of(p);
  const int bits = b.value;
  ++eviction_tallies_[owner * kTallies + eviction_tally(bits)];
  if (config_.page_stats) {
    ++page_stats_.evictions[p];
    page_stats_.writes[p] += (bits & page_bits::kDirty) != 0;
  }
  write_out(p, bits);
  if (tracks_written_) forget_writeback(p, bits);
  b.value = evicted(bits);
  --resident_;
  --resident_of_[owner];
}

// Forced inline: GCC keeps it out of line otherwise, and the call costs a tenth of a fault.
template <class P>
__attribute__((always_inline)) inline void Engine::reclaim(P& policy, std::size_t index,
                                                           std::size_t want) {
  victims_.clear();
  if (tracks_written_) collect_written();
  policy.select_victims(want, reclaim_view(index), victims_);
  if (!writebacks_.empty()) start_writebacks();
  const std::size_t n = victims_.size();
  if (n > want || (n == 0 && resident_ == config_.frames)) reject_victims(want, index, kBadCount);
  // Each victim is checked as it goes: one evicted twice is no longer resident the second time.
  for (std::size_t k = 0; k < n; ++k) {
    const PageId v = victims_[k];
    if (!resident_page(v)) reject_victims(want, index, k);
    evict(v);
  }
  for (PageId v : victims_) policy.on_evict(v, view());
}

template <class P>
__attribute__((always_inline)) inline void Engine::reclaim_one(P& policy, std::size_t index) {
  if constexpr (!detail::HasSelectVictim<P>::value) {
    reclaim(policy, index, 1);
  } else {
    if (tracks_written_) collect_written();
    const PageId v = policy.select_victim(reclaim_view(index));
    if (!writebacks_.empty()) start_writebacks();
    if (v == kNoPage && resident_ < config_.frames) return;  // none, while a frame is free
    check_victim(v, index);
    evict(v);
    policy.on_evict(v, view());
  }
}

// Inlined into the replay loop: a call, with its register saves, costs a tenth of a fault.
template <class P>
__attribute__((always_inline)) inline bool Engine::fault(P& policy, std::size_t i, PageId p) {
  if (!demand_paging_ || (config_.page_cluster != 0 && bits_[p].has(page_bits::kInSwap))) {
    return fault_general(policy, i);
  }
  // No device, no watermarks, nothing to read ahead (no file readahead either, see
  // demand_paging_): one victim when memory is full.
  if (resident_ == config_.frames) reclaim_one(policy, i);
  fault_in(i);
  if (track_page_next_) page_next_[p] = next_use_[i];
  policy.on_fault(make_access(i), view());
  return false;
}

template <class P>
bool Engine::fault_general(P& policy, std::size_t i) {
  const PageId p = trace_.page(i);
  // Without a device (counts only) the IO bookkeeping is skipped entirely.
  const bool io = config_.device.kind != DeviceKind::kNone;
  if (io) {
    cur_proc_ = proc_of(p);
    if (device_.queued_device()) device_.advance(now_);
  }
  const PageBits b = bits_[p];
  const bool swap_in = b.has(page_bits::kInSwap);
  ra_.clear();
  std::size_t file_window = 0;  // the readahead pages of a file window, before any cut
  if (config_.page_cluster != 0 && swap_in) {  // in this order: swap_in is a coin toss
    if (vma_readahead_) {
      collect_vma_readahead(p);
    } else {
      collect_readahead(p);
    }
  } else if (file_ra_max_ != 0 && b.has(page_bits::kFile) && !trace_.write(i)) {
    // A write does not read ahead (generic_file_buffered_write never calls
    // page_cache_readahead): its page is read alone and the stream stays as it is.
    collect_file_readahead(p);
    file_window = ra_.size();
  }
  // At most frames - 1 readahead pages: then want <= resident pages, as policies assume.
  if (ra_.size() >= config_.frames) ra_.resize(config_.frames - 1);

  std::size_t want = reclaim_want();
  const std::size_t free = config_.frames - resident_;
  if (free < 1 + ra_.size()) want = std::max(want, 1 + ra_.size() - free);
  if (want == 1) {
    reclaim_one(policy, i);
  } else if (want != 0) {
    reclaim(policy, i, want);
  }
  if (!ra_.empty() && ra_.size() + resident_ >= config_.frames) {
    ra_.resize(config_.frames - resident_ - 1);
  }
  if (ra_.size() < file_window) cut_file_window(p);

  // Blocked by its read, or by a write of its reclaim that waits for room in the queue
  // (write_back: the process waits for no time yet).
  const ProcId proc = proc_of(p);
  const bool reading = io && (swap_in || b.has(page_bits::kFile)) && read_pages(p, proc, swap_in);
  const bool blocked = reading || (io && ready_at_[proc] == kNoTime);
  fault_in(i, reading);
  if (track_page_next_) page_next_[p] = next_use_[i];
  if (!ra_.empty()) read_ahead(policy, i);
  policy.on_fault(make_access(i), view());
  return blocked;
}

template <class P>
void Engine::read_ahead(P& policy, std::size_t i) {
  for (const Readahead& r : ra_) {
    const PageId q = r.page;
    // kSeen: a file page read ahead has been resident (a swapped-out page had it already).
    bits_[q].set(page_bits::kResident | page_bits::kSeen | page_bits::kReadahead);
    if (config_.page_stats) ++page_stats_.readahead[q];
    ++resident_;
    ++resident_of_[proc_of(q)];
    ++counters_of(q).readahead_pages;
  }
  for (const Readahead& r : ra_) {
    const PageId q = r.page;
    Access a;
    a.index = i;
    a.page = q;
    a.proc = proc_of(q);
    a.kind = bits_[q].has(page_bits::kFile) ? PageKind::kFile : PageKind::kAnon;
    a.readahead = true;
    a.next_use = track_page_next_ ? page_next_[q] : kNever;
    policy.on_fault(a, view());
  }
}

template <class P>
void Engine::on_events(P& policy) {
  sample_until(now_);
  if (now_ >= next_tick_) {
    policy.on_tick(now_, view());
    next_tick_ += tick_ns_;
    if (next_tick_ <= now_) next_tick_ = now_ + tick_ns_;
  }
  set_next_event();
}

template <class P>
__attribute__((always_inline)) inline void Engine::prefetch_ahead(
    P& policy, const PageBits* bits, const SlotId* slots, const ProcId* procs, const PageId* owners,
    const std::uint64_t* vpns, PageId far, PageId near, PageId half) {
  __builtin_prefetch(bits + far, 1);
  if constexpr (detail::HasPrefetch<P>::value) {
    policy.prefetch(far, 0);
    policy.prefetch(near, 1);
  }
  if (slots != nullptr) {
    // A hit fetches slot 0 instead (cached): a select, not a branch that mispredicts on every
    // other fault.
    __builtin_prefetch(slots + (bits[near].has(page_bits::kResident) ? 0 : near), 0);
  }
  if (procs != nullptr) __builtin_prefetch(procs + near, 0);
  if (owners != nullptr) {
    // A swap-in reads the owners of its slot's window (one cache line): fetch it once the slot
    // is in. Selects again; a page without a slot fetches slot 0's.
    const SlotId s = slots[bits[half].has(page_bits::kResident) ? 0 : half];
    __builtin_prefetch(owners + (s == kNoSlot ? 0 : s), 0);
  }
  if (vpns != nullptr)
    __builtin_prefetch(vpns + (bits[half].has(page_bits::kResident) ? 0 : half), 0);
}

template <class P, bool kMulti>
void Engine::run_static(P& policy, const PolicyTraits& traits) {
  const PageId* pages = trace_.pages().data();
  const std::uint8_t* flags = trace_.flags().data();
  const ProcId* page_proc = trace_.page_procs().data();
  PageBits* bits = bits_.data();
  const std::size_t n = trace_.size();
  const Tick cpu = config_.cpu_ns;
  const bool hit_work = traits.needs_hits || track_page_next_;
  const int watch = hit_watch_;
  // With a queued device or readahead, a fault reads its page's slot: fetch it ahead like the
  // bits.
  const SlotId* slots = slots_to_prefetch_;
  const ProcId* procs = procs_to_prefetch_;
  const PageId* owners = owners_to_prefetch_;
  const std::uint64_t* vpns = vpns_to_prefetch_;
  constexpr std::size_t d = detail::kPrefetchDistance;
  Tick now = now_;
  Tick next_event = next_event_;
  std::size_t exit_k = 0;
  std::size_t next_exit = exits_.empty() ? n : exits_[0].first;
  // Each process starts at its first access: (trace index, process) by index.
  std::vector<std::pair<std::size_t, ProcId>> starts;
  if constexpr (kMulti) {
    const std::vector<std::size_t> first = trace_.first_accesses();
    for (ProcId q = 0; q < first.size(); ++q) {
      if (first[q] < n) starts.emplace_back(first[q], q);
    }
    std::sort(starts.begin(), starts.end());
  }
  std::size_t start_k = 0;
  std::size_t next_start = starts.empty() ? n : starts[0].first;
  for (std::size_t i = 0; i < n; ++i) {
    if constexpr (kMulti) {
      if (i == next_start) {
        proc_time_[starts[start_k].second].start_ns = now;
        next_start = ++start_k < starts.size() ? starts[start_k].first : n;
      }
    }
    now += cpu;
    if (now >= next_event) {
      now_ = now;
      on_events(policy);
      now = now_;
      next_event = next_event_;
    }
    if (i + 2 * d < n) {
      prefetch_ahead(policy, bits, slots, procs, owners, vpns, pages[i + 2 * d], pages[i + d],
                     pages[i + d / 2]);
    }
    const PageId p = pages[i];
    if (bits[p].has(page_bits::kResident)) {
      const int before = bits[p].value;
      touch(bits[p], flags[i]);
      if (hit_work) {
        if (track_page_next_) page_next_[p] = next_use_[i];
        if (traits.needs_hits) policy.on_hit(make_access(i), view());
      }
      if ((before & watch) != 0) {
        now_ = now;
        if (watched_hit(p, before, flags[i])) wait_for_swapin(proc_of(p));
        now = now_;
        next_event = next_event_;
      }
      if constexpr (kMulti) finish_[page_proc[p]] = now;
    } else {
      now_ = now;
      if (fault(policy, i, p)) wait_for_swapin(proc_of(p));
      now = now_;
      next_event = next_event_;
      if constexpr (kMulti) finish_[page_proc[p]] = now;
    }
    if constexpr (kMulti) {
      if (i == next_exit) {
        exit_process(policy, exits_[exit_k].second);
        next_exit = ++exit_k < exits_.size() ? exits_[exit_k].first : n;
      }
    }
  }
  now_ = now;
  if constexpr (!kMulti) {
    if (!finish_.empty()) finish_[0] = now;  // an empty trace has no process
  }
}

inline bool Engine::plain(const PolicyTraits& traits) const {
  return config_.high_watermark == 0 && trace_.num_procs() == 1 && schedule_ == Schedule::kStatic &&
         config_.page_cluster == 0 && file_ra_max_ == 0 && !frees_slots_ && !traits.needs_hits &&
         !track_page_next_ && !config_.page_stats && !traits.writes_back;
}

template <class P>
void Engine::run_plain(P& policy) {
  const std::size_t n = trace_.size();
  if (config_.device.kind != DeviceKind::kNone) {
    // IO moves the clock at faults: one pass that keeps time per access.
    replay_plain<P, true>(policy, 0, n);
    finish_[0] = now_;
    return;
  }
  // Without a device virtual time moves by cpu_ns per access and nothing else: the loop runs
  // from one event (vmstat row, policy tick) to the next without keeping time.
  const Tick cpu = config_.cpu_ns;
  std::size_t i = 0;
  while (i < n) {
    // Access j >= i runs at now_ + (j - i + 1) * cpu; the events due by then come first.
    std::size_t end = n;
    if (cpu != 0 && next_event_ != kNoTime) {
      const Tick wait = next_event_ > now_ ? next_event_ - now_ : 0;
      const Tick before = wait == 0 ? 0 : (wait - 1) / cpu;  // accesses that run before it
      if (before < n - i) end = i + before;
    }
    replay_plain<P, false>(policy, i, end);
    now_ += (end - i) * cpu;
    i = end;
    if (i == n) break;
    now_ += cpu;
    on_events(policy);
    replay_plain<P, false>(policy, i, i + 1);
    ++i;
  }
  finish_[0] = now_;
}

template <class P, bool kIo>
void Engine::replay_plain(P& policy, std::size_t begin, std::size_t end) {
  const PageId* pages = trace_.pages().data();
  const std::uint8_t* flags = trace_.flags().data();
  PageBits* bits = bits_.data();
  const std::size_t n = trace_.size();
  const std::size_t frames = config_.frames;
  // Without IO the counts (resident pages, swap slots, tallies) are locals, not the engine's:
  // the policy's referenced-bit updates are byte stores, which the compiler must assume may
  // change any engine field, so it would load and store those around each of them.
  std::size_t resident = resident_;
  std::size_t swap_used = swap_.used();
  const std::size_t swap_size = swap_.size();
  std::uint64_t faults[kTallies] = {};
  std::uint64_t evictions[kTallies] = {};
  const SlotId* slots = kIo ? slots_to_prefetch_ : nullptr;
  const Tick cpu = config_.cpu_ns;
  constexpr std::size_t d = detail::kPrefetchDistance;
  Tick now = now_;
  Tick next_event = next_event_;
  const PageTableView view(bits, &trace_, frames, &resident, scanned_.data());
  for (std::size_t i = begin; i < end; ++i) {
    if constexpr (kIo) {
      now += cpu;
      if (now >= next_event) {
        now_ = now;
        on_events(policy);
        now = now_;
        next_event = next_event_;
      }
    }
    if (i + 2 * d < n) {  // one process and no readahead: no page owners, no slot owners
      prefetch_ahead(policy, bits, slots, nullptr, nullptr, nullptr, pages[i + 2 * d], pages[i + d],
                     kNoPage);
    }
    const PageId p = pages[i];
    if (bits[p].has(page_bits::kResident)) {
      touch(bits[p], flags[i]);
      continue;
    }
    if constexpr (kIo) {
      // Out of line, with the counts in the engine: one call site in the loop instead of the
      // device's three, around which the compiler kept the loop's pointers on the stack (lru
      // on nvme 300 -> 287 ms, fifo on hdd-2002 218 -> 214).
      now_ = now;
      fault_plain_io(policy, i, p);
      now = now_;
      next_event = next_event_;
      continue;
    }
    // fault_general and evict for one process, without readahead or watermarks.
    if (resident == frames) {
      const PageId v = policy.select_victim(view.with_incoming(p));
      check_victim(v, i);
      const int victim_bits = bits[v].value;
      ++evictions[eviction_tally(victim_bits)];
      swap_used += needs_slot(victim_bits);
      if (swap_used > swap_size) swap_full(v);
      bits[v].value = evicted(victim_bits);
      --resident;
      policy.on_evict(v, view);
    }
    const int page = bits[p].value;
    ++faults[fault_tally(page)];
    bits[p].value = faulted_in(page, flags[i]);
    ++resident;
    policy.on_fault(make_access(i), view);
  }
  if constexpr (kIo) {
    now_ = now;
  } else {
    for (std::size_t k = 0; k < kTallies; ++k) {
      fault_tallies_[k] += faults[k];
      eviction_tallies_[k] += evictions[k];
    }
    swap_.set_used(swap_used);
    resident_ = resident;
    resident_of_[0] = static_cast<std::int64_t>(resident);
  }
}

template <class P>
__attribute__((noinline)) void Engine::fault_plain_io(P& policy, std::size_t i, PageId p) {
  PageBits* bits = bits_.data();
  const PageTableView view(bits, &trace_, config_.frames, &resident_, scanned_.data(),
                           slots_to_prefetch_);
  if (device_.queued_device()) device_.advance(now_);
  const bool zram = config_.device.kind == DeviceKind::kZram;
  if (resident_ == config_.frames) {
    const PageId v = policy.select_victim(view.with_incoming(p));
    check_victim(v, i);
    const int victim_bits = bits[v].value;
    ++eviction_tallies_[eviction_tally(victim_bits)];
    if (zram) {
      // Without branches on the victim's bits, which are close to a coin toss (zram 134 -> 109
      // ms for fifo at 10%): a swap map that only counts (no readahead, no queued device),
      // the compression of a dirty anonymous page.
      if (!swap_.count_allocate(needs_slot(victim_bits))) swap_full(v);
      const bool anon_dirty =
          (victim_bits & (page_bits::kDirty | page_bits::kFile)) == page_bits::kDirty;
      zram_cost(0, true, anon_dirty);
    } else {
      page_out(v, victim_bits);
    }
    bits[v].value = evicted(victim_bits);
    --resident_;
    resident_of_[0] = static_cast<std::int64_t>(resident_);  // a vmstat row may come next
    policy.on_evict(v, view);
  }
  const int page = bits[p].value;
  const bool swap_in = (page & page_bits::kInSwap) != 0;
  bool blocked = false;
  if (zram) {
    zram_cost(0, false, swap_in);
  } else {
    blocked = (swap_in || (page & page_bits::kFile) != 0) && read_pages(p, 0, swap_in);
  }
  ++fault_tallies_[fault_tally(page)];
  bits[p].value = faulted_in(page, trace_.flags()[i]);
  ++resident_;
  resident_of_[0] = static_cast<std::int64_t>(resident_);
  policy.on_fault(make_access(i), view);
  // Or a write of its eviction waits for room in the queue (write_back).
  if (blocked || ready_at_[0] == kNoTime) wait_for_read(0);
}

template <class P>
void Engine::run_round_robin(P& policy, const PolicyTraits& traits) {
  const PageId* pages = trace_.pages().data();
  const std::uint8_t* flags = trace_.flags().data();
  const ProcId* page_proc = trace_.page_procs().data();
  PageBits* bits = bits_.data();
  const std::size_t n = trace_.size();
  const std::size_t np = trace_.num_procs();
  const Tick cpu = config_.cpu_ns;
  const int watch = hit_watch_;
  const SlotId* slots = slots_to_prefetch_;
  const ProcId* procs = procs_to_prefetch_;
  const PageId* owners = owners_to_prefetch_;
  const std::uint64_t* vpns = vpns_to_prefetch_;
  constexpr std::size_t d = detail::kPrefetchDistance;
  if (n >= (std::size_t{1} << 32)) {
    throw ConfigError("schedule='round_robin' handles traces of fewer than 2^32 accesses; this one has " +
                      std::to_string(n) + ": set schedule='static'");
  }
  // Each process's accesses, in trace order.
  std::vector<std::size_t> begin(np + 1, 0);
  for (ProcId q = 0; q < np; ++q) begin[q + 1] = begin[q] + trace_.proc_accesses(q);
  std::vector<std::size_t> cursor(begin.begin(), begin.end() - 1);
  std::vector<std::uint32_t> order(n);
  for (std::size_t i = 0; i < n; ++i) order[cursor[page_proc[pages[i]]]++] = static_cast<std::uint32_t>(i);
  std::copy(begin.begin(), begin.end() - 1, cursor.begin());
  std::vector<std::size_t> first(np, detail::Admission::kNone), last(np, detail::Admission::kNone);
  for (ProcId q = 0; q < np; ++q) {
    if (begin[q] != begin[q + 1]) {
      first[q] = order[begin[q]];
      last[q] = order[begin[q + 1] - 1];
    }
  }
  detail::Admission admission(first, last);

  std::vector<Tick> blocked_since(np, kNoTime);
  std::size_t remaining = np;
  const auto end_process = [&](ProcId q, Tick at) {
    admission.end(q);
    finish_[q] = at;
    if (--remaining != 0) exit_process(policy, q);
  };
  // Not ended and admitted: a process that has not been admitted has not started.
  const auto alive = [&](ProcId c) { return !admission.ended(c) && admission.admitted(c); };
  std::size_t rr = 0;
  while (remaining != 0) {
    sample_until(now_);
    device_.advance(now_);
    ProcId q = kNoProc;
    for (std::size_t k = 0; k < np; ++k) {
      const auto c = static_cast<ProcId>((rr + k) % np);
      if (alive(c) && ready_at_[c] <= now_) {
        q = c;
        break;
      }
    }
    if (q == kNoProc) {
      // Every process alive waits for a read: the CPU idles until the first one completes.
      const auto earliest = [&] {
        Tick t = kNoTime;
        for (ProcId c = 0; c < np; ++c) {
          if (alive(c)) t = std::min(t, ready_at_[c]);
        }
        return t;
      };
      Tick t = earliest();
      while (t == kNoTime) {
        const Tick s = std::max(now_, device_.free_at());
        sample_until(s);
        device_.advance(s);
        t = earliest();
      }
      const Tick idle_from = now_;
      jump_to(t);
      book_idle(idle_from, now_);
      continue;
    }
    rr = q + 1;
    if (blocked_since[q] != kNoTime) {
      book_iowait(q, blocked_since[q], ready_at_[q]);
      blocked_since[q] = kNoTime;
      if (frees_slots_) swapin_done(q);
    }
    if (cursor[q] == begin[q + 1]) {
      // Its last access waited for a read (or it has none): it ends when the read completes.
      end_process(q, ready_at_[q]);
      continue;
    }
    if (cursor[q] == begin[q]) proc_time_[q].start_ns = now_;  // its first slice
    const Tick slice_end = now_ + config_.quantum_ns;
    Tick now = now_;
    bool blocked = false;
    const std::size_t end = begin[q + 1];
    std::size_t k = cursor[q];
    while (k < end) {
      // The look-ahead follows this process's accesses (to the end of its slice or further).
      if (k + 2 * d < end) {
        prefetch_ahead(policy, bits, slots, procs, owners, vpns, pages[order[k + 2 * d]],
                       pages[order[k + d]], pages[order[k + d / 2]]);
      }
      const std::size_t i = order[k++];
      now += cpu;
      if (now >= next_event_) {
        now_ = now;
        on_events(policy);
        now = now_;
      }
      const PageId p = pages[i];
      if (bits[p].has(page_bits::kResident)) {
        const int before = bits[p].value;
        touch(bits[p], flags[i]);
        if (traits.needs_hits) policy.on_hit(make_access(i), view());
        if ((before & watch) != 0) {
          now_ = now;
          blocked = watched_hit(p, before, flags[i]);
          if (blocked) break;
        }
      } else {
        now_ = now;
        blocked = fault(policy, i, p);
        now = now_;
        if (blocked) break;
      }
      if (now >= slice_end) break;
    }
    cursor[q] = k;
    now_ = now;
    if (blocked) {
      blocked_since[q] = now_;
    } else if (k == end) {
      end_process(q, now_);
    }
  }
}

template <class P>
void Engine::exit_process(P& policy, ProcId q) {
  if (exit_begin_.empty()) return;
  for (std::size_t k = exit_begin_[q]; k < exit_begin_[q + 1]; ++k) {
    const PageId p = exit_pages_[k];
    try {
      policy.on_free(p, view());  // the view still shows the page as it was
    } catch (const PolicyError& e) {
      throw PolicyError("policy '" + policy_name_ + "': " + e.what());
    }
    PageBits& b = bits_[p];
    if (b.has(page_bits::kResident)) {
      --resident_;
      --resident_of_[q];
    }
    if (b.has(page_bits::kInSwap)) release_slot(p);
    // Read ahead and never used: wasted, as if evicted.
    per_proc_[q].readahead_wasted += b.has(page_bits::kReadahead);
    b.value = page_bits::kFreed;
  }
}

template <class P>
Result Engine::run(P& policy) {
  const PolicyTraits traits = policy.traits();
  if (traits.needs_future) {
    if (schedule_ == Schedule::kRoundRobin) {
      throw ConfigError(
          "policy '" + policy_name_ +
          "' needs the future of the replay order, which is known in advance only with "
          "schedule='static'; " +
          (config_.schedule_given
               ? std::string("schedule='round_robin' was given")
               : "this trace has " + std::to_string(trace_.num_procs()) +
                     " processes, scheduled round-robin by default (a blocked process lets "
                     "the others run)") +
          ": set schedule='static'");
    }
    track_page_next_ = config_.page_cluster != 0 || file_ra_max_ != 0;
    // Until its first access a page's next use is that access: a file page read ahead
    // before it was ever accessed.
    next_use_ = compute_next_use(trace_, track_page_next_ ? &page_next_ : nullptr);
  }
  policy.reset(trace_.num_pages(), config_.frames);
  writes_back_ = traits.writes_back;
  tracks_written_ = traits.writes_back && traits.write_completions && device_.queued_device();
  if (tracks_written_) {
    device_.log_writes();
    writeback_page_.assign(device_.span(), kNoPage);
  }
  tick_ns_ = traits.tick_ns;
  next_tick_ = tick_ns_ == 0 ? kNoTime : tick_ns_;
  next_sample_ = config_.interval_ns == 0 ? kNoTime : config_.interval_ns + 1;
  set_next_event();
  if constexpr (detail::HasSelectVictim<P>::value) {
    if (plain(traits)) {
      run_plain(policy);
      return finish();
    }
  }
  if (schedule_ == Schedule::kRoundRobin) {
    run_round_robin(policy, traits);
  } else if (trace_.num_procs() > 1) {
    run_static<P, true>(policy, traits);
  } else {
    run_static<P, false>(policy, traits);
  }
  return finish();
}

}  // namespace pagesim
