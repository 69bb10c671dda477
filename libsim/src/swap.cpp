#include "pagesim/swap.hpp"

namespace pagesim {

SlotId SwapMap::allocate() {
  while (lowest_free_ < used_.size() && used_[lowest_free_]) ++lowest_free_;
  const SlotId slot = lowest_free_;
  if (slot == used_.size()) used_.push_back(false);
  used_[slot] = true;
  ++used_count_;
  ++lowest_free_;
  return slot;
}

void SwapMap::release(SlotId slot) {
  used_[slot] = false;
  --used_count_;
  if (slot < lowest_free_) lowest_free_ = slot;
}

}  // namespace pagesim
