#pragma once

#include <cstddef>
#include <cstdint>
#include <vector>

#include "pagesim/page_array.hpp"

namespace pagesim {

// A set of integers in [0, n) as a 64-ary tree of bit words: insert, erase, min and max in
// O(log64 n) word operations (3 to 4 for any trace that fits in memory), no allocation after
// reset. Level 0 holds one bit per integer; a bit of level k+1 says whether the word below it
// is non-empty.
class BitTree {
 public:
  void reset(std::size_t n) {
    levels_.clear();
    std::size_t words = n / 64 + 1;
    for (;;) {
      levels_.emplace_back(words, 0);
      if (words == 1) break;
      words = (words + 63) / 64;
    }
  }

  bool empty() const { return levels_.empty() || levels_.back()[0] == 0; }

  bool contains(std::size_t i) const { return (levels_[0][i >> 6] >> (i & 63)) & 1; }

  void insert(std::size_t i) {
    for (auto& level : levels_) {
      std::uint64_t& word = level[i >> 6];
      const bool was_empty = word == 0;
      word |= std::uint64_t{1} << (i & 63);
      if (!was_empty) return;
      i >>= 6;
    }
  }

  void erase(std::size_t i) {
    for (auto& level : levels_) {
      std::uint64_t& word = level[i >> 6];
      word &= ~(std::uint64_t{1} << (i & 63));
      if (word != 0) return;
      i >>= 6;
    }
  }

  // Largest / smallest member; the set must not be empty.
  std::size_t max() const {
    std::size_t i = 0;
    for (std::size_t l = levels_.size(); l-- > 0;) {
      i = i * 64 + static_cast<std::size_t>(63 - __builtin_clzll(levels_[l][i]));
    }
    return i;
  }
  std::size_t min() const {
    std::size_t i = 0;
    for (std::size_t l = levels_.size(); l-- > 0;) {
      i = i * 64 + static_cast<std::size_t>(__builtin_ctzll(levels_[l][i]));
    }
    return i;
  }

 private:
  std::vector<PageArray<std::uint64_t>> levels_;
};

}  // namespace pagesim
