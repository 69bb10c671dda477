// Process-aware aging: a page ages only while its own process runs. A global LRU measures a
// page's idleness in everybody's accesses, so the pages of a program that sleeps while a
// memory hog streams look old and are evicted, and the program faults on every wake-up (the
// "interactive program evicted overnight" of the 2001-2004 linux-mm threads). Here the
// idleness of a page is counted in its owner's accesses ("ignore page age while the
// processes using it have not run", as suggested in those threads): a sleeping program's
// pages do not age, and the victim is the page idle longest by its owner's clock.
//
//   on access by process q to p:  own_clock[q]++; last_own[p] = own_clock[q]; p to q's MRU
//   victim: over all processes q, the LRU page t of q; pick the t with the largest
//           own_clock[q] - last_own[t] (ties: the lower process id)
#include "pagesim/registry.hpp"
#include "per_process_lru.hpp"

namespace heuristics {

class ProcessAwareAging final : public Policy {
 public:
  explicit ProcessAwareAging(const Params& /*params*/) {}

  PolicyTraits traits() const override { return {/*needs_hits=*/true, /*needs_future=*/false}; }
  void reset(std::size_t num_pages, std::size_t) override { lru_.reset(num_pages); }
  void on_hit(const Access& a, PageTableView) override { lru_.touch(a); }
  void on_fault(const Access& a, PageTableView) override { lru_.touch(a); }
  void on_free(PageId p, PageTableView) override { lru_.forget(p); }
  void select_victims(std::size_t want, PageTableView, VictimList& out) override {
    while (out.size() < want) {
      ProcId best = kNoProc;
      std::uint64_t best_idle = 0;
      for (ProcId q = 0; q < PerProcessLru::kMaxProcs; ++q) {
        if (lru_.empty(q)) continue;
        const std::uint64_t idle = lru_.own_idle(lru_.oldest(q), q);
        if (best == kNoProc || idle > best_idle) {
          best = q;
          best_idle = idle;
        }
      }
      if (best == kNoProc) return;
      out.push_back(lru_.take_oldest(best));
    }
  }

 private:
  static constexpr ProcId kNoProc = ~ProcId{0};
  PerProcessLru lru_;
};

}  // namespace heuristics

PAGESIM_REGISTER_POLICY(heuristics::ProcessAwareAging, "process_aware_aging",
                        "LRU by each page's own process clock: sleeping programs' pages do not age");
