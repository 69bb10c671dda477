#pragma once

#include <cstddef>
#include <cstdint>
#include <vector>

namespace pagesim {

using SlotId = std::uint32_t;
inline constexpr SlotId kNoSlot = ~SlotId{0};

// Swap slot map of a fixed number of slots, allocated as Linux 2.4.18 / 2.6.20
// mm/swapfile.c scan_swap_map does (SWAPFILE_CLUSTER = 256), with slot 0 usable (the kernel's
// slot 0 holds the swap header; pagesim numbers slots from 0):
//
//   if (!cluster_nr) {                       // current cluster used up
//     cluster_nr = SWAPFILE_CLUSTER - 1;
//     if (pages - inuse_pages < SWAPFILE_CLUSTER) goto lowest;
//     find the first run of 256 free slots from lowest_bit to highest_bit;
//     found: cluster_next = its first slot; goto cluster;  else goto lowest;
//   }
//   cluster_nr--;
//   cluster: offset = cluster_next; if (offset > highest_bit) lowest: offset = lowest_bit;
//   checks:  if slot free: take it (lowest_bit/highest_bit follow), cluster_next = offset + 1
//            else scan forward to highest_bit for a free slot, then from lowest_bit.
//
// So consecutive swap-outs get consecutive slots while a cluster lasts, a new cluster starts at
// the first fully free 256-slot run, and only when fewer than 256 slots are free are freed
// slots reused lowest first. swap_entry_free widens [lowest_bit, highest_bit] again.
class SwapMap {
 public:
  static constexpr std::size_t kCluster = 256;

  // With positions = false the map only counts: allocate gives slot 0 while any slot is free
  // and in_use is always false. For runs in which no result depends on where a page goes.
  explicit SwapMap(std::size_t slots = 0, bool positions = true);
  // A free slot, or kNoSlot when all are in use.
  SlotId allocate();
  // For a map that only counts: takes a slot when `take`, without a branch on it; false when
  // none was free (and nothing was taken).
  bool count_allocate(bool take) {
    used_count_ += take;
    if (used_count_ <= size_) return true;
    used_count_ -= take;
    return false;
  }
  // For a map that only counts: the number of slots in use, from a caller that counted them.
  void set_used(std::size_t used) { used_count_ = used; }
  bool counts_only() const { return used_.empty(); }
  void release(SlotId slot);
  std::size_t used() const { return used_count_; }
  std::size_t size() const { return size_; }
  bool in_use(SlotId slot) const { return slot < used_.size() && used_[slot]; }

 private:
  SlotId take(SlotId offset);

  std::size_t size_;
  std::vector<std::uint8_t> used_;  // per slot, empty when only counting
  std::size_t used_count_ = 0;
  SlotId lowest_bit_ = 0;
  SlotId highest_bit_ = 0;
  SlotId cluster_next_ = 0;
  std::size_t cluster_nr_ = 0;
};

}  // namespace pagesim
