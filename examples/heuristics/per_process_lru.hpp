#pragma once
// Shared by the two process-aware heuristics: one LRU list per process, a global clock and a
// per-process clock, so that victims can be chosen by process.
#include <cstdint>
#include <vector>

#include "pagesim/error.hpp"
#include "pagesim/page_list.hpp"
#include "pagesim/policy.hpp"

namespace heuristics {

using namespace pagesim;

class PerProcessLru {
 public:
  // PageLists names its lists with a byte, one value of which means "none".
  static constexpr std::size_t kMaxProcs = PageLists::kNone;

  void reset(std::size_t num_pages) {
    lists_.reset(num_pages, kMaxProcs);
    last_global_.assign(num_pages, 0);
    last_own_.assign(num_pages, 0);
    own_clock_.assign(kMaxProcs, 0);
    global_clock_ = 0;
  }

  void touch(const Access& a) {
    if (a.proc >= kMaxProcs) {
      throw ConfigError("this heuristic handles at most 255 processes; the trace has more");
    }
    ++global_clock_;
    last_global_[a.page] = global_clock_;
    last_own_[a.page] = ++own_clock_[a.proc];
    lists_.move_to_front(a.proc, a.page);
  }

  bool empty(ProcId proc) const { return lists_.empty(proc); }
  std::size_t resident(ProcId proc) const { return lists_.size(proc); }
  // The least recently used page of `proc`.
  PageId oldest(ProcId proc) const { return lists_.back(proc); }
  // Accesses (by anyone) since p was last used.
  std::uint64_t global_idle(PageId p) const { return global_clock_ - last_global_[p]; }
  // Accesses by p's own process since p was last used.
  std::uint64_t own_idle(PageId p, ProcId owner) const { return own_clock_[owner] - last_own_[p]; }

  // Removes and returns the oldest page of `proc`.
  PageId take_oldest(ProcId proc) { return lists_.pop_back(proc); }
  // Drops p, if listed (its process exited).
  void forget(PageId p) { lists_.remove(p); }

 private:
  PageLists lists_;
  std::vector<std::uint64_t> last_global_;
  std::vector<std::uint64_t> last_own_;
  std::vector<std::uint64_t> own_clock_;
  std::uint64_t global_clock_ = 0;
};

}  // namespace heuristics
