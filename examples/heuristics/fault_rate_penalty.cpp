// Fault-rate penalty: a process that faults heavily pays for its own faults. Global LRU lets
// a memory hog take frames from everybody ("only the memory hog should thrash, not every
// process on the machine"; "penalise heavily-faulting tasks", as proposed in the 2001-2004
// linux-mm threads). Here each process's recent faults are counted with exponential decay;
// while one process causes more than `share` of the recent faults and holds more than
// `min_resident` frames, victims are taken from its own least recently used pages (its
// resident set is trimmed); otherwise the global LRU page is evicted.
//
//   on fault by q:   recent[q] += 1; every `window` faults all recent[] are halved
//   victim:          h = argmax recent[q]; if recent[h] > share * sum(recent) and
//                    resident(h) > min_resident: LRU page of h
//                    else: the page with the oldest last use among the processes' LRU pages
#include "pagesim/registry.hpp"
#include "per_process_lru.hpp"

namespace heuristics {

class FaultRatePenalty final : public Policy {
 public:
  explicit FaultRatePenalty(const Params& params)
      : share_(params.get_double("share", 0.5, 0.0, 1.0)),
        window_(static_cast<std::uint64_t>(params.get_int("window", 256, 1, 1 << 30))),
        min_resident_(static_cast<std::size_t>(params.get_int("min_resident", 16, 0, 1 << 30))) {}

  PolicyTraits traits() const override { return {/*needs_hits=*/true, /*needs_future=*/false}; }
  void reset(std::size_t num_pages, std::size_t) override {
    lru_.reset(num_pages);
    recent_.assign(PerProcessLru::kMaxProcs, 0.0);
    faults_ = 0;
  }
  void on_hit(const Access& a, PageTableView) override { lru_.touch(a); }
  void on_fault(const Access& a, PageTableView) override {
    lru_.touch(a);
    recent_[a.proc] += 1;
    if (++faults_ % window_ == 0) {
      for (double& r : recent_) r /= 2;
    }
  }
  // An exited process's pages leave its list; an empty list is never chosen.
  void on_free(PageId p, PageTableView) override { lru_.forget(p); }
  void select_victims(std::size_t want, PageTableView, VictimList& out) override {
    while (out.size() < want) {
      const ProcId q = choose();
      if (q == kNoProc) return;
      out.push_back(lru_.take_oldest(q));
    }
  }

 private:
  static constexpr ProcId kNoProc = ~ProcId{0};

  ProcId choose() const {
    double total = 0;
    ProcId heavy = kNoProc;
    ProcId oldest = kNoProc;
    for (ProcId q = 0; q < PerProcessLru::kMaxProcs; ++q) {
      if (lru_.empty(q)) continue;
      total += recent_[q];
      if (heavy == kNoProc || recent_[q] > recent_[heavy]) heavy = q;
      if (oldest == kNoProc ||
          lru_.global_idle(lru_.oldest(q)) > lru_.global_idle(lru_.oldest(oldest))) {
        oldest = q;
      }
    }
    if (heavy != kNoProc && recent_[heavy] > share_ * total && lru_.resident(heavy) > min_resident_) {
      return heavy;
    }
    return oldest;
  }

  double share_;
  std::uint64_t window_;
  std::size_t min_resident_;
  PerProcessLru lru_;
  std::vector<double> recent_;
  std::uint64_t faults_ = 0;
};

}  // namespace heuristics

PAGESIM_REGISTER_POLICY(heuristics::FaultRatePenalty, "fault_rate_penalty",
                        "LRU that trims the resident set of the process causing most recent faults");
