#pragma once

#include <algorithm>
#include <cmath>
#include <cstddef>
#include <cstdint>
#include <deque>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

#include "pagesim/params.hpp"
#include "pagesim/types.hpp"

namespace pagesim {

enum class DeviceKind : std::uint8_t {
  kNone,  // zero cost: counts only
  kHdd,   // rotating disk: command overhead, seek by distance, rotational latency, transfer
  kSsd,   // flash: per-request latency (read, write) + transfer, no seeks
  kZram,  // compressed RAM: CPU time of (de)compression per page, charged to the process
};

enum class IoScheduler : std::uint8_t {
  kFifo,          // in submission order; a page that connects two requests next to each
                  // other in the queue makes them one (2.6.20 noop)
  kElevator,      // C-LOOK: the lowest position at or after the head, then wrap around;
                  // two requests a page joins become one (join_neighbour)
  kReadPriority,  // queued reads go before queued writes (each class in submission order)
  kDeadline,      // Linux 2.6's deadline: one-way sweeps per direction in batches, reads
                  // preferred, each direction's oldest request first once it has expired
};

// Swap device parameters: a named preset (key "device") whose every figure can be overridden
// by its own key. Times in the units of the key names.
struct DeviceConfig {
  std::string name = "none";
  DeviceKind kind = DeviceKind::kNone;
  // HDD. seek(d) = track_seek + (seek - track_seek) * sqrt(d / span) * 15/8 for a head
  // movement of d > 0 pages over a device of `span` pages: 15/8 = 1 / E[sqrt|x - y|] for x, y
  // uniform on [0, 1], so that the average random seek is `seek_ms`. A request that starts
  // where the previous one ended (d = 0) pays neither seek nor rotational latency.
  double overhead_ms = 0;
  double seek_ms = 0;
  double track_seek_ms = 0;
  double rotation_ms = 0;
  // HDD and SSD: sustained transfer rate, MB/s (10^6 bytes per second).
  double transfer_mb_s = 0;
  // SSD: latency of one read / write request.
  double read_us = 0;
  double write_us = 0;
  // zram: CPU time to compress (swap-out) / decompress (swap-in) one page, and the
  // compression ratio (stored bytes = pages * page size / ratio).
  double compress_us = 0;
  double decompress_us = 0;
  double compression_ratio = 1;
  // Request queue (HDD and SSD).
  IoScheduler scheduler = IoScheduler::kElevator;
  // Adjacent requests of one direction merge up to this many pages (Linux 2.6 IDE
  // max_sectors 256 = 128 KiB = 32 pages).
  std::size_t max_request_pages = 32;
  // A writer waits for a free place while this many requests are queued (Linux nr_requests).
  std::size_t queue_depth = 128;
  // deadline (Linux 2.6.11 deadline-iosched.c defaults): a request expires this long after it
  // was made; a batch is at most fifo_batch requests, each starting where the last ended; reads
  // go first at most writes_starved times in a row while writes are queued.
  double read_expire_ms = 500;
  double write_expire_ms = 5000;
  std::size_t fifo_batch = 16;
  std::size_t writes_starved = 2;

  // Requests take time on the device and wait in its queue (HDD, SSD).
  bool queued() const { return kind == DeviceKind::kHdd || kind == DeviceKind::kSsd; }

  // The preset of that name; throws ConfigError listing the presets.
  static DeviceConfig preset(std::string_view name);
  // Keys: device, device_overhead_ms, device_seek_ms, device_track_seek_ms,
  // device_rotation_ms, device_transfer_mb_s, device_read_us, device_write_us,
  // device_compress_us, device_decompress_us, device_compression_ratio, io_scheduler,
  // io_max_request_pages, io_queue_depth, io_read_expire_ms, io_write_expire_ms, io_fifo_batch,
  // io_writes_starved.
  static DeviceConfig from_params(const Params& params);
  static std::vector<std::string> preset_names();
  // Each device_* figure's key and the presets it applies to.
  static std::vector<std::pair<std::string, std::vector<std::string>>> figure_devices();
};

// What the device did in a run.
struct DeviceStats {
  std::uint64_t reads = 0;          // read requests served (after merging)
  std::uint64_t writes = 0;         // write requests served (after merging)
  std::uint64_t pages_read = 0;
  std::uint64_t pages_written = 0;
  std::uint64_t merges = 0;         // submissions merged into a queued request
  // Reads of a page that a queued or running request already reads (a page evicted under read
  // and faulted or read ahead again), joined to that request, and waiting reads let in after
  // a read that covered them had completed: no IO of their own.
  std::uint64_t read_joins = 0;
  // Times the read request the scheduler picked waited for a queued write of one of its
  // positions, which went first (a page evicted dirty, then read again before its write).
  std::uint64_t reads_behind_writes = 0;
  std::uint64_t seeks = 0;          // requests that moved the head (HDD)
  std::uint64_t seek_distance = 0;  // total head movement, pages (HDD)
  std::uint64_t busy_ns = 0;        // time spent serving requests
  std::uint64_t read_busy_ns = 0;   // the part of busy_ns spent on reads (zram: decompressing)
  std::uint64_t write_busy_ns = 0;  // and on writes (zram: compressing)
  // The part of busy_ns the head spent moving and waiting for the sector (HDD: seek and
  // rotational latency, each request's rounded to ns); the rest is command overhead and
  // transfer (SSD: latency and transfer).
  std::uint64_t seek_ns = 0;
  // Writes that went to the waiting list: the queue full, or behind their process's waiting
  // write.
  std::uint64_t queue_full_waits = 0;
  // zram: RAM holding the compressed pages at the end (slots in use * page size / ratio).
  std::uint64_t stored_bytes = 0;

  template <class F>
  static void for_each_field(F&& f) {
    f("reads", &DeviceStats::reads);
    f("writes", &DeviceStats::writes);
    f("pages_read", &DeviceStats::pages_read);
    f("pages_written", &DeviceStats::pages_written);
    f("merges", &DeviceStats::merges);
    f("read_joins", &DeviceStats::read_joins);
    f("reads_behind_writes", &DeviceStats::reads_behind_writes);
    f("seeks", &DeviceStats::seeks);
    f("seek_distance", &DeviceStats::seek_distance);
    f("busy_ns", &DeviceStats::busy_ns);
    f("read_busy_ns", &DeviceStats::read_busy_ns);
    f("write_busy_ns", &DeviceStats::write_busy_ns);
    f("seek_ns", &DeviceStats::seek_ns);
    f("queue_full_waits", &DeviceStats::queue_full_waits);
    f("stored_bytes", &DeviceStats::stored_bytes);
  }
};

inline constexpr Tick kNoTime = ~Tick{0};

// A swap device with a request queue, served one request at a time. Positions are in pages:
// swap slot s is at s, file pages after the swap area. Requests submitted at one instant are
// all queued (and merged) before any of them starts: the caller submits a batch, then calls
// advance(now) ("unplug").
//
// Time is advanced lazily: advance(t) starts, in scheduler order, every queued request the
// device would have started by time t. A request's completion time is known when it starts;
// the device then writes it to wakeup[p] for every process p waiting for it.
class SwapDevice {
 public:
  SwapDevice(const DeviceConfig& config, std::uint64_t span_pages, std::uint32_t page_size,
             std::vector<Tick>* wakeup);

  const DeviceConfig& config() const { return config_; }
  bool queued_device() const { return config_.queued(); }

  // Queues one page of IO at `position`, submitted at `now` (not before the last advance) by
  // process `by`. `waiter` is a process that blocks until it completes, or kNoProc.
  //
  // A read of a page with a write queued (or waiting for room) when the read is submitted
  // does not start while a write of its request's positions is queued: that write goes first
  // (start_next), whatever the scheduler would pick. The engine reuses an evicted page's frame at
  // once, so a page evicted dirty and faulted again before its write has completed is read back
  // from its slot, which holds it only once the write is done (in the kernel the page would still
  // be in the swap cache, which frees no page under writeback). A write still waiting for room does
  // not hold the read back.
  //
  // A read of a position that a queued request or the one in service already reads joins
  // that request (its waiter with it) instead of reading the page again: in the kernel the
  // page would be in the swap cache, locked until that read completes, and a fault on it waits
  // for it (lock_page). Here reclaim may have evicted it meanwhile (the engine does not keep
  // pages under read), and its next fault or readahead joins the read. So at most one queued
  // request reads a position. (A slot freed and written again while its old read is queued is
  // read by that read too: a case the kernel's swap cache never has.)
  //
  // A write that makes a new request (one that merges into a queued request needs none) finds
  // room in the queue only while fewer than queue_depth requests are queued (the block
  // layer's request limit, get_request_wait): otherwise it waits, in a first-come
  // list, and its process `by` sleeps. So do `by`'s submissions after it (the process is
  // asleep: they are issued when it wakes), reads too, which need no room of their own. Each
  // start makes room for the first waiting write, and lets in the reads behind it and the
  // writes after it that merge into a queued request (the kernel's woken process tries
  // elv_merge again: goto again in 2.4's and early 2.6's __make_request); a process whose
  // waiting submissions are all in and that waits for no read wakes then (wakeup[by] = that
  // time). A read that goes into the queue (submitted or let in) while a read of its position
  // waits covers that one: when let in, the waiting read joins it, or reads nothing if it has
  // completed (in the kernel the page is in the swap cache, brought in by that read: the
  // woken process finds it there).
  // Returns false when the submission waits (the caller marks `by` as blocked:
  // wakeup[by] = kNoTime).
  bool submit(std::uint64_t position, bool write, Tick now, ProcId waiter = kNoProc, ProcId by = 0);
  // Starts every request the device would have started by time t.
  void advance(Tick t) {
    while (!queue_.empty() && free_at_ <= t) start_next();
  }
  // Starts the next queued request when the device becomes free; returns its start time,
  // or kNoTime if nothing is queued.
  Tick start_next();
  void drain() {
    while (start_next() != kNoTime) {
    }
  }
  std::size_t queued() const { return queue_.size(); }
  // Makes process `waiter` wait for the read of the page at `position` when it has not
  // completed by `now` (the last advance): for a read still waiting for its place (then for
  // the request it joins) unless covered, the queued read request holding it (one at most: see
  // submit), its wakeup set when that request starts, or for the read in service holding it, its
  // wakeup set to when it completes. False when none holds it: the read is done. A process waits
  // for at most one request.
  bool wait_for_read(std::uint64_t position, Tick now, ProcId waiter);
  // Fetches what submitting a read at `position` will look at (whether a queued request reads
  // it, whether a write of it is pending), a cache miss otherwise.
  void prefetch_read(std::uint64_t position) const {
    if (!reading_.empty()) {
      __builtin_prefetch(&reading_[position / 64]);
      __builtin_prefetch(&writes_pending_[position]);
    }
  }
  // When the device is (or was last) free to start the next request.
  Tick free_at() const { return free_at_; }
  // Busy time in [0, t) serving reads and writes (zram: its CPU work), for t not before the
  // start of the last started request.
  struct Busy {
    Tick read = 0, write = 0;
  };
  Busy busy_until(Tick t) const;
  std::uint64_t head() const { return head_; }
  std::uint64_t span() const { return span_; }
  // zram: CPU time of one page.
  Tick zram_ns(bool write) const { return write ? compress_ns_ : decompress_ns_; }
  // zram: the CPU compresses (`write`) or decompresses from `start` for `ns` (0: none), after
  // any work before it; what busy_until counts.
  void cpu_work(Tick start, Tick ns, bool write) {
    current_start_ = start;
    current_write_ = write;
    free_at_ = start + ns;
  }
  // The longest one page can take to read or write as a request of its own (after the
  // farthest seek), in ns: a bound on what any page of IO adds to a run's time.
  double longest_page_ns() const {
    return track_seek_ns_ + seek_scale_ns_ + rotation_ns_ +
           std::max(rest_ns(1, false), rest_ns(1, true)) +
           static_cast<double>(std::max(compress_ns_, decompress_ns_));
  }

  // A started write request: its pages' positions, and when it completes.
  struct WriteDone {
    Tick at;
    std::uint64_t position;
    std::uint32_t pages;
  };
  // From now on each write that starts is appended to write_log(), in start order, which is
  // also completion order (one request at a time). For an engine that tells a policy when the
  // pages it wrote back are written (PolicyTraits::write_completions).
  void log_writes() { log_writes_ = true; }
  // The log's reader takes the entries it has read out.
  std::vector<WriteDone>& write_log() { return write_log_; }
  // Whether a write of `position` is waiting for room or queued (not yet started).
  bool write_pending(std::uint64_t position) const { return writes_pending_[position] != 0; }

  const DeviceStats& stats() const { return stats_; }
  DeviceStats& stats() { return stats_; }

 private:
  struct Request {
    // Built in place: a temporary written field by field and copied as a whole stalls the
    // copy (store forwarding fails), a tenth of a device replay.
    Request(std::uint64_t position, bool is_write, ProcId waiter, bool behind)
        : start(position), pages(1), write(is_write), behind_write(behind), waiters(waiter) {}
    std::uint64_t start;
    std::uint32_t pages;
    bool write;
    // A read of which a page was submitted while a write of that page was pending (waiting
    // for room or queued): start_next checks whether one still is.
    bool behind_write;
    // First process waiting for it; the others follow through next_waiter_ (a process waits
    // for at most one request): no allocation per request.
    ProcId waiters;
  };
  // The queued request to start next, at `now` (the device free).
  std::size_t pick(Tick now);
  // deadline_dispatch_requests of Linux 2.6.11, at `now`.
  std::size_t pick_deadline(Tick now);
  // The queued request after request k in its direction's sort order (deadline's rb_next;
  // elevator's joins find their neighbour by it too), by start, then (two requests of one start,
  // which the kernel never has: a slot written again while its first write is queued) by age;
  // kNoRequest when none.
  std::size_t next_in_order(std::size_t k) const;
  // deadline, elevator and fifo: a page has merged into request k, at its front or its back.
  // The request it now touches, the one before it in sort order (by k's start before the
  // merge) or the one after it (fifo: in the queue, when touches_listed), becomes one with it
  // when together they fit max_request_pages, the lower absorbing the upper:
  // __make_request's attempt_front_merge / attempt_back_merge (2.4: the list's previous or
  // next request, elevator_linus keeping the list in sector order; 2.6 deadline:
  // deadline_former_request, deadline_latter_request, deadline_merged_requests; 2.6.20 noop:
  // noop_former_request, noop_latter_request, the list's, the earlier of the two in it being
  // the lower).
  void join_neighbour(std::size_t k, bool front);
  // Takes request k out of the queue (deadline: with its expiry, and the batch's next moving
  // down with the requests after k).
  void erase_request(std::size_t k) {
    queue_.erase(queue_.begin() + static_cast<std::ptrdiff_t>(k));
    if (config_.scheduler == IoScheduler::kDeadline) {
      expires_.erase(expires_.begin() + static_cast<std::ptrdiff_t>(k));
      if (deadline_.next != kNoRequest && deadline_.next > k) --deadline_.next;
    }
  }
  // Merges a page into a queued request of the same direction that it extends (back or front
  // merge, as the Linux elevators do), up to max_request_pages, with the processes waiting for
  // it (`waiters`: the first, the others through next_waiter_; kNoProc: none); false when none.
  // `behind`: a read of a page whose write is pending (Request::behind_write).
  bool merge(std::uint64_t position, bool write, ProcId waiters, bool behind = false);
  // Whether a write of one of read r's positions is waiting for room or queued (one was when
  // it was submitted: r.behind_write).
  bool unwritten(const Request& r) const {
    for (std::uint64_t q = r.start; q < r.start + r.pages; ++q) {
      if (writes_pending_[q] != 0) return true;
    }
    return false;
  }
  // Read request k, picked to start next, waits for a write of its positions: the first queued
  // write that holds one of them (deadline: then k goes next), or k itself when that write
  // waits for room.
  std::size_t write_before(std::size_t k);
  // Makes `waiters` (the first, the others through next_waiter_; kNoProc: none) wait for the
  // read that holds `position` at `now`: the queued request (woken when it starts, see
  // start_next) or the one in service (woken when it completes); false when none holds it.
  bool join_read(std::uint64_t position, Tick now, ProcId waiters);
  // Adds `waiters` (the first, the others through next_waiter_; kNoProc: none) to r's.
  void add_waiters(Request& r, ProcId waiters);
  // The queued read request that reads `position`, which one does (reading(position)).
  Request& queued_read(std::uint64_t position) {
    // Unsigned, position - start < pages says start <= position < start + pages.
    return *std::find_if(queue_.begin(), queue_.end(), [&](const Request& q) {
      return !q.write && position - q.start < q.pages;
    });
  }
  // Whether a queued request reads `position`; marks or unmarks it.
  bool reading(std::uint64_t position) const {
    return (reading_[position / 64] >> (position % 64) & 1) != 0;
  }
  void mark_reading(std::uint64_t position) {
    reading_[position / 64] |= std::uint64_t{1} << (position % 64);
  }
  // Unmarks [position, position + pages), a word at a time.
  void unmark_reading(std::uint64_t position, std::uint32_t pages) {
    for (std::uint64_t q = position, end = position + pages; q < end;) {
      const std::uint64_t bits = std::min<std::uint64_t>(64 - q % 64, end - q);
      const std::uint64_t mask = bits == 64 ? ~std::uint64_t{0} : (std::uint64_t{1} << bits) - 1;
      reading_[q / 64] &= ~(mask << (q % 64));
      q += bits;
    }
  }
  // Whether the request in service at `now` reads `position`.
  bool in_service_read(std::uint64_t position, Tick now) const {
    // Unsigned, position - start < pages says start <= position < start + pages.
    return free_at_ > now && !current_write_ && position - current_position_ < current_pages_;
  }
  // submit's queueing: merged where it can be, else a new request.
  void enqueue(std::uint64_t position, bool write, Tick now, ProcId waiters);
  // Lets the waiting submissions in that the queue has room for, at time t.
  void admit_waiting(Tick t);
  // A read of `position` has gone into the queue at `now` (a queued request or the one in
  // service holds it): marks the waiting reads of `position` covered, and their waiters but
  // their own process (which waits for its submissions too) wait for that read from now on.
  void cover_waiting_reads(std::uint64_t position, Tick now);
  // submit's queueing while other processes' submissions wait, as without them but for the
  // covering of waiting reads: false when the submission has to wait. Out of line, so that
  // the flattened callers of submit do not take in what runs only while submissions wait.
  bool submit_beside_waiting(std::uint64_t position, bool write, Tick now, ProcId waiter);
  // A request's service time is its positioning, for a request at `position` with the head
  // at `head` (HDD seek and rotational latency, 0 when it starts at the head), and the rest
  // for `pages` pages (HDD command overhead, SSD latency, transfer), together rounded to ns.
  double positioning_ns(std::uint64_t position, std::uint64_t head) const;
  double rest_ns(std::uint32_t pages, bool write) const;
  // ns >= 0: rounds half up, as llround.
  static Tick to_ns(double ns) { return static_cast<Tick>(ns + 0.5); }

  DeviceConfig config_;
  std::uint64_t span_;
  double transfer_ns_;
  // The configuration's figures in the units positioning_ns, rest_ns and zram_ns work in.
  double overhead_ns_ = 0, track_seek_ns_ = 0, seek_scale_ns_ = 0, rotation_ns_ = 0,
         inv_span_ = 0, read_ns_ = 0, write_ns_ = 0;
  Tick compress_ns_ = 0, decompress_ns_ = 0;
  std::vector<Tick>* wakeup_;
  std::vector<Request> queue_;
  // deadline: when each queued request expires (made, plus its direction's expiry), beside
  // queue_ so that the other schedulers' requests stay small.
  std::vector<Tick> expires_;
  // Queued devices: one bit per position, set while a queued request reads it (see submit).
  std::vector<std::uint64_t> reading_;
  // Queued devices: per position, the writes of it submitted and not started (waiting for room
  // or queued). A count, not a bit: a slot freed and taken again while its write is queued is
  // written again. A byte, to keep the array small: a count reaching kManyWrites stays there,
  // which only sends the position's reads to write_before's scan of the queue.
  static constexpr std::uint8_t kManyWrites = 255;
  std::vector<std::uint8_t> writes_pending_;
  bool log_writes_ = false;
  std::vector<WriteDone> write_log_;
  // elevator and deadline join requests (join_neighbour); per direction (reads, writes), at
  // least the largest start of a queued request (0 when none): a back merge looks for a
  // request to join, a scan of the queue, only when one may start above it.
  bool joins_ = false;
  std::uint64_t max_start_[2] = {0, 0};
  // fifo joins request k, after a page merged at its front or back, with the request before
  // or after it in the queue, its list (2.6.20 noop's former and latter requests), when that
  // one is of its direction and now touches it.
  bool list_joins_ = false;
  bool touches_listed(std::size_t k, bool front) const {
    const std::size_t j = front ? k - 1 : k + 1;  // k - 1 wraps around past the end for k = 0
    if (j >= queue_.size() || queue_[j].write != queue_[k].write) return false;
    const Request& low = queue_[front ? j : k];
    return low.start + low.pages == queue_[front ? k : j].start;
  }
  // After the request with direction `write`'s largest start left the queue: its max_start_
  // again, by a scan (as rarely as that happens).
  void lower_max_start(bool write);
  std::vector<ProcId> next_waiter_;
  // Submissions waiting for room (see submit), first come first, each with the processes
  // waiting for it as a Request has them; per process, how many of its submissions wait and
  // whether one of them is a read it waits for.
  // A waiting read is `covered` once a read of its position has gone into the queue after
  // it: see admit_waiting.
  struct Waiting {
    std::uint64_t position;
    bool write, covered;
    ProcId waiters, by;
  };
  std::deque<Waiting> waiting_;
  std::vector<std::uint32_t> waiting_of_;
  std::vector<std::uint8_t> waits_read_;
  std::uint64_t head_ = 0;
  Tick free_at_ = 0;
  Tick current_start_ = 0;
  bool current_write_ = false;
  // The pages of the last started request (queued devices): [current_position_,
  // current_position_ + current_pages_).
  std::uint64_t current_position_ = 0;
  std::uint32_t current_pages_ = 0;
  // deadline's state (deadline_data): the next request of the batch in sort order, its index
  // in queue_ (next_drq; kNoRequest: none), the batch's length so far, and how many times in a
  // row reads went first while writes were queued. Its last_sector is head_.
  static constexpr std::size_t kNoRequest = ~std::size_t{0};
  struct Deadline {
    std::size_t next = kNoRequest;
    std::size_t batching = 0, starved = 0;
  };
  Deadline deadline_;
  Tick read_expire_ns_ = 0, write_expire_ns_ = 0;
  DeviceStats stats_;
};

// The queue's work at each fault, here rather than in device.cpp so that the engine's device
// calls (Engine::read_pages, write_back, wait_for_read) take it in whole: one call per fault
// instead of four.

inline double SwapDevice::positioning_ns(std::uint64_t position, std::uint64_t head) const {
  // DeviceConfig's seek formula, in ns with the constants folded.
  if (config_.kind != DeviceKind::kHdd || position == head) return 0;
  const std::uint64_t d = position > head ? position - head : head - position;
  const double frac = std::min(1.0, static_cast<double>(d) * inv_span_);
  return track_seek_ns_ + seek_scale_ns_ * std::sqrt(frac) + rotation_ns_;
}

inline double SwapDevice::rest_ns(std::uint32_t pages, bool write) const {
  double ns = static_cast<double>(pages) * transfer_ns_;
  if (config_.kind == DeviceKind::kHdd) {
    ns += overhead_ns_;
  } else if (config_.kind == DeviceKind::kSsd) {
    ns += write ? write_ns_ : read_ns_;
  }
  return ns;
}

inline bool SwapDevice::submit(std::uint64_t position, bool write, Tick now, ProcId waiter,
                               ProcId by) {
  if (waiter != kNoProc) next_waiter_[waiter] = kNoProc;  // it waits for this page alone
  if (write) writes_pending_[position] += writes_pending_[position] != kManyWrites;
  if (waiting_.empty()) {
    if (!write || queue_.size() < config_.queue_depth) {
      enqueue(position, write, now, waiter);
      return true;
    }
    // A write that merges into a queued request needs no room (Linux's __make_request tries
    // elv_merge before get_request_wait).
    if (merge(position, write, waiter)) return true;
  } else if (waiting_of_[by] == 0 && submit_beside_waiting(position, write, now, waiter)) {
    return true;  // (a process whose earlier submissions wait issues nothing before them)
  }
  stats_.queue_full_waits += write;
  waiting_.push_back({position, write, false, waiter, by});
  ++waiting_of_[by];
  waits_read_[by] |= waiter == by;
  return false;
}

inline bool SwapDevice::merge(std::uint64_t position, bool write, ProcId waiters, bool behind) {
  for (auto it = queue_.rbegin(); it != queue_.rend(); ++it) {
    Request& r = *it;
    if (r.write != write || r.pages >= config_.max_request_pages) continue;
    if (position == r.start + r.pages || position + 1 == r.start) {
      const bool front = position + 1 == r.start;
      const auto k = static_cast<std::size_t>(&r - queue_.data());
      if (front) {
        // deadline takes a front-merged request out of its sort order (deadline_del_drq_rb):
        // when it was the next of a batch, the next becomes the one after it.
        if (k == deadline_.next) deadline_.next = next_in_order(k);
        r.start = position;
      }
      ++r.pages;
      r.behind_write |= behind;
      add_waiters(r, waiters);
      ++stats_.merges;
      if ((joins_ && (front || max_start_[write] > position)) ||
          (list_joins_ && touches_listed(k, front))) {
        join_neighbour(k, front);
      }
      return true;
    }
  }
  return false;
}

inline void SwapDevice::add_waiters(Request& r, ProcId waiters) {
  if (waiters == kNoProc) return;
  ProcId last = waiters;
  while (next_waiter_[last] != kNoProc) last = next_waiter_[last];
  next_waiter_[last] = r.waiters;
  r.waiters = waiters;
}

inline bool SwapDevice::join_read(std::uint64_t position, Tick now, ProcId waiters) {
  if (reading(position)) {
    for (ProcId w = waiters; w != kNoProc; w = next_waiter_[w]) (*wakeup_)[w] = kNoTime;
    add_waiters(queued_read(position), waiters);
    return true;
  }
  if (!in_service_read(position, now)) return false;
  for (ProcId w = waiters; w != kNoProc; w = next_waiter_[w]) (*wakeup_)[w] = free_at_;
  return true;
}

inline void SwapDevice::enqueue(std::uint64_t position, bool write, Tick now, ProcId waiters) {
  // An idle device starts no earlier than now (a select, not a branch on the queue).
  free_at_ = queue_.empty() ? std::max(free_at_, now) : free_at_;
  bool behind = false;
  if (!write) {
    if (join_read(position, now, waiters)) {
      ++stats_.read_joins;
      return;
    }
    mark_reading(position);
    behind = writes_pending_[position] != 0;
  }
  if (merge(position, write, waiters, behind)) return;
  queue_.emplace_back(position, write, waiters, behind);
  if (joins_) max_start_[write] = std::max(max_start_[write], position);
  if (config_.scheduler == IoScheduler::kDeadline) {
    expires_.push_back(now + (write ? write_expire_ns_ : read_expire_ns_));
  }
}

inline std::size_t SwapDevice::pick(Tick now) {
  switch (config_.scheduler) {
    case IoScheduler::kFifo:
      return 0;
    case IoScheduler::kReadPriority:
      for (std::size_t k = 0; k < queue_.size(); ++k) {
        if (!queue_[k].write) return k;
      }
      return 0;
    case IoScheduler::kElevator: {
      // C-LOOK as one minimum: the distance from the head modulo 2^64 orders the requests at
      // or after the head by position, then those before it by position (they wrap around to
      // the top). The first of equals, without a branch on each request.
      std::size_t best = 0;
      std::uint64_t best_key = queue_[0].start - head_;
      for (std::size_t k = 1; k < queue_.size(); ++k) {
        const std::uint64_t key = queue_[k].start - head_;
        best = key < best_key ? k : best;
        best_key = std::min(key, best_key);
      }
      return best;
    }
    case IoScheduler::kDeadline:
      return pick_deadline(now);
  }
  return 0;
}

// Flattened: pick, positioning_ns and rest_ns inlined, which GCC does not do on its own; a
// tenth of a device replay without readahead.
__attribute__((flatten)) inline Tick SwapDevice::start_next() {
  if (queue_.empty()) return kNoTime;
  std::size_t k = pick(free_at_);
  if (queue_[k].behind_write && unwritten(queue_[k])) k = write_before(k);
  // Field by field: the request may have been written a moment ago, and a copy of the whole
  // struct would read it in wider loads than those stores, which stalls.
  const std::uint64_t position = queue_[k].start;
  const std::uint32_t pages = queue_[k].pages;
  const bool write = queue_[k].write;
  const ProcId waiters = queue_[k].waiters;
  erase_request(k);
  if (joins_ && position == max_start_[write]) lower_max_start(write);
  if (write) {
    for (std::uint64_t q = position; q < position + pages; ++q) {
      writes_pending_[q] -= writes_pending_[q] != kManyWrites;
    }
  } else {
    unmark_reading(position, pages);
  }
  const Tick start = free_at_;
  const double positioning = positioning_ns(position, head_);
  const Tick service = to_ns(positioning + rest_ns(pages, write));
  if (config_.kind == DeviceKind::kHdd && position != head_) {
    ++stats_.seeks;
    stats_.seek_distance += position > head_ ? position - head_ : head_ - position;
    stats_.seek_ns += to_ns(positioning);
  }
  head_ = position + pages;
  current_start_ = start;
  current_write_ = write;
  current_position_ = position;
  current_pages_ = pages;
  free_at_ = start + service;
  if (log_writes_ && write) write_log_.push_back({free_at_, position, pages});
  stats_.busy_ns += service;
  // Selects, not a branch: reads and writes alternate as the trace's faults do.
  ++(write ? stats_.writes : stats_.reads);
  (write ? stats_.pages_written : stats_.pages_read) += pages;
  (write ? stats_.write_busy_ns : stats_.read_busy_ns) += service;
  for (ProcId w = waiters; w != kNoProc; w = next_waiter_[w]) (*wakeup_)[w] = free_at_;
  if (!waiting_.empty()) admit_waiting(start);
  return start;
}

}  // namespace pagesim
