#pragma once

#include <cstddef>
#include <cstdint>
#include <vector>

namespace pagesim {

using SlotId = std::uint32_t;
inline constexpr SlotId kNoSlot = ~SlotId{0};

// Swap slot map. Allocation follows Linux 2.4.18/2.6.20 scan_swap_map in spirit: slots are
// handed out in increasing order and freed slots are reused lowest first, so consecutive
// swap-outs get consecutive slots.
class SwapMap {
 public:
  SlotId allocate();
  void release(SlotId slot);
  std::size_t used() const { return used_count_; }
  std::size_t size() const { return used_.size(); }
  bool in_use(SlotId slot) const { return slot < used_.size() && used_[slot]; }

 private:
  std::vector<bool> used_;
  std::size_t used_count_ = 0;
  SlotId lowest_free_ = 0;
};

}  // namespace pagesim
