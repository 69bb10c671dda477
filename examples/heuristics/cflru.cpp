// Clean-First LRU: among the `window` least recently used pages, evict the least recently used
// CLEAN one; only when all of them are dirty, evict the LRU page. Writing a page to swap costs
// far more than dropping a clean copy, so a slightly more recent clean page is the cheaper
// victim. S. Park, D. Jung, J. Kang, J. Kim, J. Lee, "CFLRU: a replacement algorithm for flash
// memory", CASES 2006 (the "clean-first region" of the LRU list is the window here).
//
//   on access: move p to the MRU end
//   victim:    scan from the LRU end over `window` pages; first clean page found -> victim;
//              none clean -> the LRU page
#include <algorithm>

#include "pagesim/page_list.hpp"
#include "pagesim/registry.hpp"

namespace {

using namespace pagesim;

class CleanFirstLru final : public Policy {
 public:
  explicit CleanFirstLru(const Params& params)
      : window_param_(static_cast<std::size_t>(params.get_int("window", 0, 0, 1 << 20))) {}

  PolicyTraits traits() const override { return {/*needs_hits=*/true, /*needs_future=*/false}; }
  void reset(std::size_t num_pages, std::size_t frames) override {
    list_.reset(num_pages, 1);
    window_ = window_param_ != 0 ? window_param_ : std::max<std::size_t>(1, frames / 4);
  }
  void on_hit(const Access& a, PageTableView) override { list_.move_to_front(0, a.page); }
  void on_fault(const Access& a, PageTableView) override { list_.push_front(0, a.page); }
  void on_free(PageId p, PageTableView) override { list_.remove(p); }
  void select_victims(std::size_t want, PageTableView view, VictimList& out) override {
    while (out.size() < want && !list_.empty(0)) {
      PageId victim = list_.back(0);
      PageId p = victim;
      for (std::size_t k = 0; k < window_ && p != kNoPage; ++k, p = list_.prev(p)) {
        if (!view.dirty(p)) {
          victim = p;
          break;
        }
      }
      list_.remove(victim);
      out.push_back(victim);
    }
  }

 private:
  std::size_t window_param_;  // 0: a quarter of memory, the paper's best region size range
  std::size_t window_ = 1;
  PageLists list_;
};

}  // namespace

PAGESIM_REGISTER_POLICY(CleanFirstLru, "cflru", "clean-first LRU: evict a clean page from the LRU window first");
