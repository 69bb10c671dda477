#include "pagesim/swap.hpp"

namespace pagesim {

SwapMap::SwapMap(std::size_t slots, bool positions)
    : size_(slots), used_(positions ? slots : 0, 0) {
  highest_bit_ = slots == 0 ? 0 : static_cast<SlotId>(slots - 1);
}

SlotId SwapMap::take(SlotId offset) {
  if (offset == lowest_bit_) ++lowest_bit_;
  if (offset == highest_bit_ && highest_bit_ > 0) --highest_bit_;
  used_[offset] = 1;
  ++used_count_;
  if (used_count_ == size_) {
    lowest_bit_ = static_cast<SlotId>(size_);
    highest_bit_ = 0;
  }
  cluster_next_ = offset + 1;
  return offset;
}

SlotId SwapMap::allocate() {
  if (used_count_ == size_) return kNoSlot;
  if (used_.empty()) {
    ++used_count_;
    return 0;
  }
  SlotId offset = 0;
  bool lowest = false;
  if (cluster_nr_ == 0) {
    cluster_nr_ = kCluster - 1;
    lowest = true;
    if (size_ - used_count_ >= kCluster) {
      // The first (unaligned) run of kCluster free slots.
      std::size_t last_in_cluster = lowest_bit_ + kCluster - 1;
      for (std::size_t o = lowest_bit_; last_in_cluster <= highest_bit_; ++o) {
        if (used_[o]) {
          last_in_cluster = o + kCluster;
        } else if (o == last_in_cluster) {
          cluster_next_ = static_cast<SlotId>(o - (kCluster - 1));
          lowest = false;
          break;
        }
      }
    }
  } else {
    --cluster_nr_;
  }
  offset = lowest || cluster_next_ > highest_bit_ ? lowest_bit_ : cluster_next_;
  // checks: a free slot at offset, else the next free one up to highest_bit, else from
  // lowest_bit (a free slot exists, so this ends).
  for (;;) {
    if (!used_[offset]) return take(offset);
    ++offset;
    if (offset > highest_bit_) offset = lowest_bit_;
  }
}

void SwapMap::release(SlotId slot) {
  --used_count_;
  if (used_.empty()) return;
  used_[slot] = 0;
  if (slot < lowest_bit_) lowest_bit_ = slot;
  if (slot > highest_bit_) highest_bit_ = slot;
}

}  // namespace pagesim
