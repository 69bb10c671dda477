#pragma once

#include <cstddef>
#include <cstdint>
#include <vector>

#include "pagesim/swap.hpp"
#include "pagesim/trace.hpp"
#include "pagesim/types.hpp"

namespace pagesim {

// Per-page state bits kept by the engine.
namespace page_bits {
inline constexpr std::uint8_t kResident = 1;
inline constexpr std::uint8_t kDirty = 2;
// Set by every access, test-and-cleared by policies (the pte young bit).
inline constexpr std::uint8_t kReferenced = 4;
// Has been resident before: a later fault is major.
inline constexpr std::uint8_t kSeen = 8;
// Has a copy in a swap slot (the swap cache keeps it after a swap-in).
inline constexpr std::uint8_t kInSwap = 16;
// File-backed page (a copy of the trace's page kind, next to the other bits).
inline constexpr std::uint8_t kFile = 32;
// Brought in by swap or file readahead and not accessed since (cleared by the first hit).
inline constexpr std::uint8_t kReadahead = 64;
// Freed by its process's exit (free_on_exit): never accessed again. Only error messages read
// it (a policy that nominates it forgot on_free).
inline constexpr std::uint8_t kFreed = 128;
// A fault on a page with these bits is major: the page was resident before, or it is a file
// page (its first touch reads the file). Else it is minor (a first touch, zero-filled).
inline constexpr bool major_fault(int bits) { return (bits & (kSeen | kFile)) != 0; }
// Engine::fault_tally and eviction_tally depend on these positions.
static_assert(kDirty == 1 << 1 && kSeen == 1 << 3 && kInSwap == 1 << 4 && kFile == 1 << 5 &&
              kReadahead == 1 << 6);
}  // namespace page_bits

// One page's state bits (page_bits::k*). A struct, not a plain byte: a store through a byte
// may alias any object, so the compiler would reload every engine field after each bit update
// in the replay loop; a store to a struct member does not.
struct PageBits {
  std::uint8_t value = 0;

  bool has(int mask) const { return (value & mask) != 0; }
  void set(int mask) { value = static_cast<std::uint8_t>(value | mask); }
  void clear(int mask) { value = static_cast<std::uint8_t>(value & ~mask); }
};

// What a policy may see of the engine's page table: residency, dirty and referenced bits,
// owner and kind of each page. Policies read it, may only test-and-clear referenced bits, as
// the kernel does with pte young bits, and report the pages they scan (count_scanned). Cheap to
// copy; pass by value. It points into the run's engine: use it within the callback it was
// given to, and keep no copy past the run (it would read freed memory).
class PageTableView {
 public:
  // `scanned`: the engine's count of pages scanned and kept, one per process (indexed by
  // ProcId); `procs`: the owner of each page, nullptr with one process (every page is
  // process 0's).
  PageTableView(PageBits* bits, const Trace* trace, std::size_t frames, const std::size_t* resident,
                std::uint64_t* scanned, const SlotId* slots = nullptr,
                const ProcId* procs = nullptr)
      : bits_(bits),
        trace_(trace),
        frames_(frames),
        resident_(resident),
        scanned_(scanned),
        slots_(slots),
        procs_(procs) {}

  // A PageId the view is given must be one of the trace's pages (below trace().num_pages()).
  // Compiled without NDEBUG (a debug build of the policy), another is a PolicyError naming it;
  // with NDEBUG nothing checks it, and it reads or writes past the page table.
  bool resident(PageId p) const { return bits(p).has(page_bits::kResident); }
  bool dirty(PageId p) const { return bits(p).has(page_bits::kDirty); }
  bool referenced(PageId p) const { return bits(p).has(page_bits::kReferenced); }
  bool in_swap(PageId p) const { return bits(p).has(page_bits::kInSwap); }
  // Writes only when the bit is set: a hand sweeping unreferenced pages stores nothing.
  bool test_and_clear_referenced(PageId p) {
    if (!referenced(p)) return false;
    bits(p).clear(page_bits::kReferenced);
    return true;
  }
  // Clears p's referenced bit when `clear`, without a branch: a store either way.
  void clear_referenced_if(PageId p, bool clear) {
    bits(p).value = static_cast<std::uint8_t>(bits(p).value & ~(clear * page_bits::kReferenced));
  }

  // In select_victims of a policy whose traits say writes_back: cleans resident dirty page p
  // without evicting it (a launder; WSClock's "schedule the write"). The engine writes it when
  // select_victims returns, before it evicts the victims: to its swap slot (given one if it
  // has none; kept, as in the swap cache) or to its file, counted in swap_outs or file_writes
  // and in writebacks, queued on the device without blocking the process. The page is clean
  // from this call on (dirty(p) is false), until a write to it dirties it again. False, and
  // nothing done, when p is not resident or not dirty. Elsewhere a PolicyError.
  bool start_writeback(PageId p) {
    if (writebacks_ == nullptr) refuse_writeback(p);
    if (!resident(p) || !dirty(p)) return false;
    bits(p).clear(page_bits::kDirty);
    writebacks_->push_back(p);
    return true;
  }

  // In select_victims of a policy whose traits say write_completions: whether the writes
  // start_writeback starts take time (a queued device: hdd, ssd, nvme), so that written()
  // tells when they complete. False without a device and on zram, where a write is done
  // when the call returns: the kernel's synchronous writepage ("probably a ramdisk"), after
  // which the page may be freed at once.
  bool async_writes() const { return written_ != nullptr; }
  // With async_writes(): the pages this policy's start_writeback cleaned whose writes have
  // completed since its last select_victims call, by the reclaim's time, in completion order:
  // when end_page_writeback would run. Only pages still resident, each once per writeback. A
  // page evicted while its write was pending (and faulted in again since) is not listed for
  // that write. Empty elsewhere.
  const std::vector<PageId>& written() const { return written_ ? *written_ : no_pages(); }

  // Reclaim work (Counters::pages_scanned, /proc/vmstat pgscan and pgrefill): the policy
  // examined resident page p to choose victims and kept it (passed over a referenced page,
  // rotated or moved it between its lists); with n > 1, p and n - 1 other pages of p's
  // process. Victims count by themselves: do not report a page for the look that takes it as a
  // victim (one looked at and kept earlier in the same call is reported for that look). Counted
  // under p's process, as the kernel's memcg counts the pages scanned on its lists.
  void count_scanned(PageId p, std::uint64_t n = 1) {
    check(p);
    scanned_[procs_ == nullptr ? 0 : procs_[p]] += n;
  }

  // Hint: the policy will soon nominate p (the engine then reads p's bits, with a device its
  // swap slot, and with several processes its owner).
  void prefetch(PageId p) const {
    __builtin_prefetch(bits_ + p, 1);
    if (slots_ != nullptr) __builtin_prefetch(slots_ + p, 0);
    if (procs_ != nullptr) __builtin_prefetch(procs_ + p, 0);
  }

  ProcId proc(PageId p) const {
    check(p);
    return trace_->page_proc(p);
  }
  PageKind kind(PageId p) const {
    return bits(p).has(page_bits::kFile) ? PageKind::kFile : PageKind::kAnon;
  }
  const Trace& trace() const { return *trace_; }

  std::size_t frames() const { return frames_; }
  std::size_t resident_count() const { return *resident_; }

  // In select_victims: the page whose fault asked for room, kNoPage when the reclaim has no
  // single faulting page (and outside select_victims). ARC-like policies choose the victim by
  // whether the incoming page is in a ghost list (ARC's REPLACE(x, p)).
  PageId incoming() const { return incoming_; }
  // In select_victims: whether the faulting page and its readahead pages had free frames, so
  // that only the watermarks asked for the reclaim: kswapd's, in the background, rather than
  // a direct reclaim by the faulting process (which happens when memory is full).
  bool background() const { return background_; }
  // `writebacks`: where start_writeback lists the pages it cleans, nullptr where it may not;
  // `written`: what written() lists, nullptr when writes complete at once.
  PageTableView with_incoming(PageId p, bool background = false,
                              std::vector<PageId>* writebacks = nullptr,
                              const std::vector<PageId>* written = nullptr) const {
    PageTableView v = *this;
    v.incoming_ = p;
    v.background_ = background;
    v.writebacks_ = writebacks;
    v.written_ = written;
    return v;
  }

 private:
  PageBits* bits_;
  const Trace* trace_;
  std::size_t frames_;
  const std::size_t* resident_;
  std::uint64_t* scanned_;
  const SlotId* slots_;
  const ProcId* procs_;
  PageId incoming_ = kNoPage;
  bool background_ = false;
  std::vector<PageId>* writebacks_ = nullptr;
  const std::vector<PageId>* written_ = nullptr;

  void check([[maybe_unused]] PageId p) const {
#ifndef NDEBUG
    if (trace_ != nullptr && p >= trace_->num_pages()) refuse_page(p);
#endif
  }
  PageBits& bits(PageId p) const {
    check(p);
    return bits_[p];
  }

  [[noreturn]] static void refuse_writeback(PageId p);
  [[noreturn]] void refuse_page(PageId p) const;
  static const std::vector<PageId>& no_pages();
};

}  // namespace pagesim
