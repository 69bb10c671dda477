#include "pagesim/device.hpp"

#include <algorithm>
#include <cmath>

#include "pagesim/error.hpp"

namespace pagesim {
namespace {

struct Preset {
  const char* name;
  DeviceConfig config;
};

std::vector<Preset> make_presets() {
  std::vector<Preset> out;
  DeviceConfig none;
  out.push_back({"none", none});

  // 2002 IDE 7200 rpm disk, after the IBM Deskstar 120GXP data sheet (reference/
  // linux-reclaim.md section 4): average read seek 8.2-8.5 ms (8.5 taken), command overhead
  // 0.3 ms, average rotational latency 4.17 ms (half a turn at 7200 rpm), track-to-track
  // ~1 ms, sustained transfer 25-48 MB/s (30 MB/s taken, [unverified]).
  DeviceConfig hdd;
  hdd.name = "hdd-2002";
  hdd.kind = DeviceKind::kHdd;
  hdd.overhead_ms = 0.3;
  hdd.seek_ms = 8.5;
  hdd.track_seek_ms = 1.0;
  hdd.rotation_ms = 4.17;
  hdd.transfer_mb_s = 30;
  out.push_back({"hdd-2002", hdd});

  // 5400 rpm laptop disk (reference section 4): 12 ms average seek, 5.5 ms average rotational
  // latency. Track-to-track 1.5 ms, overhead 0.5 ms and 20 MB/s are typical figures of such
  // drives [approximate].
  DeviceConfig laptop = hdd;
  laptop.name = "hdd-laptop";
  laptop.overhead_ms = 0.5;
  laptop.seek_ms = 12;
  laptop.track_seek_ms = 1.5;
  laptop.rotation_ms = 5.5;
  laptop.transfer_mb_s = 20;
  out.push_back({"hdd-laptop", laptop});

  // SATA SSD, QD1 4 KiB: ~100 us read, ~50 us write, 250 MB/s sustained (SATA II era)
  // [approximate].
  DeviceConfig ssd;
  ssd.name = "ssd-sata";
  ssd.kind = DeviceKind::kSsd;
  ssd.read_us = 100;
  ssd.write_us = 50;
  ssd.transfer_mb_s = 250;
  out.push_back({"ssd-sata", ssd});

  // NVMe (reference section 4): QD1 4 KiB read ~50-100 us (80 taken), cached writes ~10-30 us
  // (20 taken), 2000 MB/s [approximate].
  DeviceConfig nvme = ssd;
  nvme.name = "nvme";
  nvme.read_us = 80;
  nvme.write_us = 20;
  nvme.transfer_mb_s = 2000;
  out.push_back({"nvme", nvme});

  // zram: LZO on one core of the 2010s compresses ~400 MB/s and decompresses ~1.3 GB/s, so
  // ~10 us and ~3 us per 4 KiB page; anonymous memory compresses ~2.5:1 [approximate].
  DeviceConfig zram;
  zram.name = "zram";
  zram.kind = DeviceKind::kZram;
  zram.compress_us = 10;
  zram.decompress_us = 3;
  zram.compression_ratio = 2.5;
  out.push_back({"zram", zram});
  return out;
}

const std::vector<Preset>& presets() {
  static const std::vector<Preset> all = make_presets();
  return all;
}

}  // namespace

std::vector<std::string> DeviceConfig::preset_names() {
  std::vector<std::string> out;
  for (const auto& p : presets()) out.emplace_back(p.name);
  return out;
}

DeviceConfig DeviceConfig::preset(std::string_view name) {
  for (const auto& p : presets()) {
    if (name == p.name) return p.config;
  }
  std::string list;
  for (const auto& n : preset_names()) list += (list.empty() ? "" : ", ") + n;
  throw ConfigError("parameter 'device' = '" + std::string(name) +
                    "' is not allowed: choose one of " + list);
}

namespace {

constexpr unsigned bit(DeviceKind kind) { return 1u << static_cast<unsigned>(kind); }

// A figure of a device that a key overrides, and the kinds of device it belongs to (bits);
// in [lo, hi], or (lo, hi] when above_lo.
struct Figure {
  const char* key;
  double DeviceConfig::*field;
  unsigned kinds;
  double lo, hi;
  bool above_lo = false;
};

const std::vector<Figure>& figures() {
  constexpr double kMaxMs = 1e6, kMaxUs = 1e9;
  constexpr unsigned hdd = bit(DeviceKind::kHdd), ssd = bit(DeviceKind::kSsd),
                     zram = bit(DeviceKind::kZram);
  static const std::vector<Figure> all = {
      {"device_overhead_ms", &DeviceConfig::overhead_ms, hdd, 0, kMaxMs},
      {"device_seek_ms", &DeviceConfig::seek_ms, hdd, 0, kMaxMs},
      {"device_track_seek_ms", &DeviceConfig::track_seek_ms, hdd, 0, kMaxMs},
      {"device_rotation_ms", &DeviceConfig::rotation_ms, hdd, 0, kMaxMs},
      {"device_transfer_mb_s", &DeviceConfig::transfer_mb_s, hdd | ssd, 0, 1e9, true},
      {"device_read_us", &DeviceConfig::read_us, ssd, 0, kMaxUs},
      {"device_write_us", &DeviceConfig::write_us, ssd, 0, kMaxUs},
      {"device_compress_us", &DeviceConfig::compress_us, zram, 0, kMaxUs},
      {"device_decompress_us", &DeviceConfig::decompress_us, zram, 0, kMaxUs},
      {"device_compression_ratio", &DeviceConfig::compression_ratio, zram, 1, 1000},
  };
  return all;
}

bool of(const Figure& f, DeviceKind kind) { return (f.kinds & bit(kind)) != 0; }

// The presets a figure belongs to.
std::vector<std::string> devices_of(const Figure& f) {
  std::vector<std::string> out;
  for (const Preset& p : presets()) {
    if (of(f, p.config.kind)) out.emplace_back(p.name);
  }
  return out;
}

}  // namespace

std::vector<std::pair<std::string, std::vector<std::string>>> DeviceConfig::figure_devices() {
  std::vector<std::pair<std::string, std::vector<std::string>>> out;
  for (const Figure& f : figures()) out.emplace_back(f.key, devices_of(f));
  return out;
}

DeviceConfig DeviceConfig::from_params(const Params& params) {
  DeviceConfig c = preset(params.get_choice(
      "device", "none", {"none", "hdd-2002", "hdd-laptop", "ssd-sata", "nvme", "zram"}));
  // A figure given for another kind of device would change nothing (device_seek_ms without
  // device='hdd-2002' is a slip): an error naming the devices it is for.
  for (const Figure& f : figures()) {
    if (of(f, c.kind)) {
      c.*f.field = params.get_double(f.key, c.*f.field, f.lo, f.hi, f.above_lo);
    } else if (params.has(f.key)) {
      std::string list;
      for (const auto& d : devices_of(f)) list += (list.empty() ? "" : ", ") + d;
      throw ConfigError("parameter '" + std::string(f.key) + "' does not apply to device '" +
                        c.name + "': it is for device " + list);
    }
  }
  if (c.kind == DeviceKind::kHdd && c.track_seek_ms > c.seek_ms) {
    throw ConfigError("parameter 'device_track_seek_ms' = " + std::to_string(c.track_seek_ms) +
                      " must not exceed 'device_seek_ms' = " + std::to_string(c.seek_ms) +
                      " (track-to-track is the shortest seek)");
  }
  // The block layer's settings are taken for every device, so that one set of them serves a
  // comparison across devices; none and zram have no queue for them to act on.
  const std::string sched = params.get_choice("io_scheduler", "elevator",
                                              {"fifo", "elevator", "read_priority", "deadline"});
  c.scheduler = sched == "fifo"            ? IoScheduler::kFifo
                : sched == "elevator"      ? IoScheduler::kElevator
                : sched == "read_priority" ? IoScheduler::kReadPriority
                                           : IoScheduler::kDeadline;
  // deadline's settings likewise, taken with every scheduler: one set serves a comparison
  // across schedulers, and only deadline acts on them.
  c.read_expire_ms = params.get_double("io_read_expire_ms", c.read_expire_ms, 0, 1e9);
  c.write_expire_ms = params.get_double("io_write_expire_ms", c.write_expire_ms, 0, 1e9);
  c.fifo_batch = static_cast<std::size_t>(
      params.get_int("io_fifo_batch", static_cast<std::int64_t>(c.fifo_batch), 0, 1 << 20));
  c.writes_starved = static_cast<std::size_t>(
      params.get_int("io_writes_starved", static_cast<std::int64_t>(c.writes_starved), 0, 1 << 20));
  c.max_request_pages = static_cast<std::size_t>(params.get_int(
      "io_max_request_pages", static_cast<std::int64_t>(c.max_request_pages), 1, 1 << 20));
  c.queue_depth = static_cast<std::size_t>(
      params.get_int("io_queue_depth", static_cast<std::int64_t>(c.queue_depth), 1, 1 << 20));
  return c;
}

SwapDevice::SwapDevice(const DeviceConfig& config, std::uint64_t span_pages,
                       std::uint32_t page_size, std::vector<Tick>* wakeup)
    : config_(config),
      span_(std::max<std::uint64_t>(span_pages, 1)),
      transfer_ns_(config.transfer_mb_s > 0 ? page_size * 1e3 / config.transfer_mb_s : 0),
      wakeup_(wakeup),
      reading_(queued_device() ? (span_ + 63) / 64 : 0),
      writes_pending_(queued_device() ? span_ : 0),
      next_waiter_(wakeup->size(), kNoProc),
      waiting_of_(wakeup->size(), 0),
      waits_read_(wakeup->size(), 0) {
  queue_.reserve(config.queue_depth + 1);
  joins_ = config.scheduler == IoScheduler::kElevator || config.scheduler == IoScheduler::kDeadline;
  list_joins_ = config.scheduler == IoScheduler::kFifo;
  if (config.scheduler == IoScheduler::kDeadline) expires_.reserve(config.queue_depth + 1);
  overhead_ns_ = config.overhead_ms * 1e6;
  track_seek_ns_ = config.track_seek_ms * 1e6;
  seek_scale_ns_ = (config.seek_ms - config.track_seek_ms) * 1e6 * 15.0 / 8.0;
  rotation_ns_ = config.rotation_ms * 1e6;
  inv_span_ = 1.0 / static_cast<double>(span_);
  read_ns_ = config.read_us * 1e3;
  write_ns_ = config.write_us * 1e3;
  compress_ns_ = static_cast<Tick>(std::llround(config.compress_us * 1e3));
  decompress_ns_ = static_cast<Tick>(std::llround(config.decompress_us * 1e3));
  read_expire_ns_ = static_cast<Tick>(std::llround(config.read_expire_ms * 1e6));
  write_expire_ns_ = static_cast<Tick>(std::llround(config.write_expire_ms * 1e6));
}

std::size_t SwapDevice::pick_deadline(Tick now) {
  Deadline& d = deadline_;
  std::size_t k = kNoRequest;
  if (d.next != kNoRequest) {
    // A batch goes on while it is sequential and shorter than fifo_batch.
    if (head_ != queue_[d.next].start) d.batching += config_.fifo_batch;
    if (d.batching < config_.fifo_batch) k = d.next;
  }
  if (k == kNoRequest) {
    // A new choice of direction: reads, unless writes have waited writes_starved times.
    const auto first_of = [&](bool write) {
      return static_cast<std::size_t>(
          std::find_if(queue_.begin(), queue_.end(),
                       [&](const Request& r) { return r.write == write; }) -
          queue_.begin());
    };
    const std::size_t first_read = first_of(false), first_write = first_of(true);
    const bool reads = first_read < queue_.size(), writes = first_write < queue_.size();
    const bool write = !reads || (writes && d.starved++ >= config_.writes_starved);
    if (write) d.starved = 0;
    const std::size_t oldest = write ? first_write : first_read;
    if (now > expires_[oldest]) {
      d.batching = 0;  // the direction's oldest request has expired: it goes first
      k = oldest;
    } else if (d.next != kNoRequest && queue_[d.next].write == write) {
      k = d.next;  // on up from the last request
    } else {
      // The other direction, or no request above the last one: a new sweep from the lowest.
      d.batching = 0;
      k = oldest;
      for (std::size_t j = 0; j < queue_.size(); ++j) {
        if (queue_[j].write == write && queue_[j].start < queue_[k].start) k = j;
      }
    }
  }
  ++d.batching;
  d.next = next_in_order(k);  // an index before start_next erases k (erase_request)
  return k;
}

std::size_t SwapDevice::write_before(std::size_t k) {
  const Request& r = queue_[k];
  for (std::size_t j = 0; j < queue_.size(); ++j) {
    const Request& w = queue_[j];
    if (w.write && w.start < r.start + r.pages && r.start < w.start + w.pages) {
      if (config_.scheduler == IoScheduler::kDeadline) deadline_.next = k;
      ++stats_.reads_behind_writes;
      return j;
    }
  }
  return k;
}

std::size_t SwapDevice::next_in_order(std::size_t k) const {
  const Request& r = queue_[k];
  std::size_t next = kNoRequest;
  for (std::size_t j = 0; j < queue_.size(); ++j) {
    const Request& q = queue_[j];
    const bool after = q.start > r.start || (q.start == r.start && j > k);
    if (q.write == r.write && after && (next == kNoRequest || q.start < queue_[next].start)) {
      next = j;
    }
  }
  return next;
}

void SwapDevice::lower_max_start(bool write) {
  std::uint64_t m = 0;
  for (const Request& q : queue_) {
    if (q.write == write) m = std::max(m, q.start);
  }
  max_start_[write] = m;
}

void SwapDevice::join_neighbour(std::size_t k, bool front) {
  // The neighbour in sort order: after a front merge the one before k (whose start was one
  // more), after a back merge the one after it; fifo's, in the queue (touches_listed).
  std::size_t other = kNoRequest;
  if (list_joins_) {
    other = front ? k - 1 : k + 1;
  } else if (front) {
    const std::uint64_t key = queue_[k].start + 1;
    for (std::size_t j = 0; j < queue_.size(); ++j) {
      const Request& q = queue_[j];
      const bool before = q.start < key || (q.start == key && j < k);
      if (j != k && q.write == queue_[k].write && before &&
          (other == kNoRequest || q.start >= queue_[other].start)) {
        other = j;
      }
    }
  } else {
    other = next_in_order(k);
  }
  if (other == kNoRequest) return;
  const std::size_t lower = front ? other : k, upper = front ? k : other;
  Request& low = queue_[lower];
  const Request& up = queue_[upper];
  if (low.start + low.pages != up.start || low.pages + up.pages > config_.max_request_pages) {
    return;
  }
  low.pages += up.pages;
  low.behind_write |= up.behind_write;
  add_waiters(low, up.waiters);
  if (config_.scheduler != IoScheduler::kDeadline) {
    erase_request(upper);
    return;
  }
  // The upper one leaves the sort order (a next that was it becomes the one after it), and the
  // lower takes its place in the fifo if it expires first (deadline_merged_requests).
  if (deadline_.next == upper) deadline_.next = next_in_order(upper);
  std::size_t gone = upper;
  if (expires_[upper] < expires_[lower]) {
    queue_[upper] = low;
    if (deadline_.next == lower) deadline_.next = upper;
    gone = lower;
  }
  erase_request(gone);
}

bool SwapDevice::wait_for_read(std::uint64_t position, Tick now, ProcId waiter) {
  // A read still waiting behind its process's write: one of its waiters, who join the request
  // it goes into (admit_waiting). The first such read: it covers the others when it goes in.
  // Unless a read in the queue covers it: the wait is for that read, as below.
  for (Waiting& w : waiting_) {
    if (w.write || w.position != position || w.covered) continue;
    (*wakeup_)[waiter] = kNoTime;
    next_waiter_[waiter] = w.waiters;
    w.waiters = waiter;
    return true;
  }
  next_waiter_[waiter] = kNoProc;  // it waits for this page alone
  return join_read(position, now, waiter);
}

void SwapDevice::admit_waiting(Tick t) {
  while (!waiting_.empty()) {
    const Waiting w = waiting_.front();
    // A write let in tries to merge first, needing no room if it does: the woken process's
    // __make_request tries elv_merge again (goto again, in 2.4 and early 2.6), and so does each
    // later write of a process once the one before it is in.
    const bool full = w.write && queue_.size() >= config_.queue_depth;
    if (full && !merge(w.position, true, w.waiters)) return;
    waiting_.pop_front();
    if (w.covered && !reading(w.position) && !in_service_read(w.position, t)) {
      // Read by a later read that has completed: in the kernel the woken process finds the
      // page in the swap cache (that read brought it in) and reads nothing.
      for (ProcId p = w.waiters; p != kNoProc; p = next_waiter_[p]) (*wakeup_)[p] = t;
      ++stats_.read_joins;
    } else if (!full) {
      enqueue(w.position, w.write, t, w.waiters);
      if (!w.write) cover_waiting_reads(w.position, t);
    }
    if (--waiting_of_[w.by] == 0) {
      if (!waits_read_[w.by]) (*wakeup_)[w.by] = t;  // else the read's start wakes it
      waits_read_[w.by] = 0;
    }
  }
}

bool SwapDevice::submit_beside_waiting(std::uint64_t position, bool write, Tick now,
                                       ProcId waiter) {
  if (!write || queue_.size() < config_.queue_depth) {
    enqueue(position, write, now, waiter);
    if (!write) cover_waiting_reads(position, now);
    return true;
  }
  return merge(position, write, waiter);
}

void SwapDevice::cover_waiting_reads(std::uint64_t position, Tick now) {
  for (Waiting& w : waiting_) {
    if (w.write || w.position != position || w.covered) continue;
    w.covered = true;
    ProcId own = kNoProc, others = kNoProc;
    for (ProcId p = w.waiters; p != kNoProc;) {
      const ProcId next = next_waiter_[p];
      ProcId& list = p == w.by ? own : others;
      next_waiter_[p] = list;
      list = p;
      p = next;
    }
    w.waiters = own;
    join_read(position, now, others);
  }
}

SwapDevice::Busy SwapDevice::busy_until(Tick t) const {
  Busy b{stats_.read_busy_ns, stats_.write_busy_ns};
  if (free_at_ > t) (current_write_ ? b.write : b.read) -= free_at_ - std::max(t, current_start_);
  return b;
}

}  // namespace pagesim
