// S3-FIFO: J. Yang, Y. Zhang, Z. Qiu, Y. Yue, K. V. Rashmi, "FIFO queues are all you need for
// cache eviction", SOSP 2023, Algorithm 1. Three FIFO queues: a small queue S (10% of memory)
// that new pages enter, a main queue M (90%) run as a CLOCK with a 2-bit frequency counter, and
// a ghost queue G of page ids evicted from S. A page re-referenced while in S, or faulted again
// while its id is in G, goes to M: most one-hit pages leave after a short stay in S.
//
// Algorithm 1, and where it lives here:
//
//   read(x): if x in S or M: x.freq = min(x.freq + 1, 3)                     on_hit
//            else: insert(x); x.freq = 0                                      on_fault
//   insert(x): while cache is full: evict()                                   select_victims
//              if x in G: insert x to head of M else insert x to head of S    on_fault
//   evict(): if S.size >= 0.1 * cache size: evictS() else evictM()
//   evictS(): evicted = false
//             while not evicted and S.size > 0:
//               t = tail of S
//               if t.freq > 1: insert t to M; if M is full: evictM()
//               else: insert t to G; evicted = true
//               remove t from S
//   evictM(): evicted = false
//             while not evicted and M.size > 0:
//               t = tail of M
//               if t.freq > 0: insert t to head of M; t.freq -= 1
//               else: remove t from M; evicted = true
//
// Parameters: small_ratio = 0.1 (the S test compares |S| >= small_ratio * frames as reals);
// ghost_ratio = 0.9 (G remembers floor(ghost_ratio * frames) ids, "as many entries as M", as
// in the authors' libCacheSim S3FIFOv0.c; 0 ids means no ghost); move_to_main_threshold = 2
// (Algorithm 1's "t.freq > 1").
//
// Where the pseudocode is silent or the engine differs:
//   - a page moved from S to M starts in M with freq 0 (libCacheSim S3FIFOv0.c inserts it
//     anew); "M is full" means M holds more than its (1 - small_ratio) * frames share;
//   - the engine asks for exactly `want` victims: when the evictM nested in evictS evicts a
//     page, that page is the victim and evictS stops (Algorithm 1 goes on to evict from S as
//     well, freeing two frames for one fault);
//   - if evictS moves every page of S to M without evicting, the loop calls evict() again,
//     which then takes from M (Algorithm 1's "while cache is full" does the same).
//
// Scanned (Counters::pages_scanned): every tail page evictS and evictM look at, those moved from
// S to M or reinserted at M's head (freq > 0) and the victim.
#include <algorithm>
#include <vector>

#include "pagesim/page_list.hpp"
#include "pagesim/registry.hpp"

namespace pagesim {
namespace {

class S3Fifo final : public Policy {
 public:
  explicit S3Fifo(const Params& params)
      : small_ratio_(params.get_double("small_ratio", 0.1, 0.0, 1.0)),
        ghost_ratio_(params.get_double("ghost_ratio", 0.9, 0.0, 16.0)),
        threshold_(static_cast<std::uint8_t>(params.get_int("move_to_main_threshold", 2, 1, 3))) {}

  PolicyTraits traits() const override { return {/*needs_hits=*/true, /*needs_future=*/false}; }

  void reset(std::size_t num_pages, std::size_t frames) override {
    lists_.reset(num_pages, 3);
    freq_.assign(num_pages, 0);
    small_share_ = small_ratio_ * static_cast<double>(frames);
    main_share_ = static_cast<double>(frames) - small_share_;
    ghost_ids_ = static_cast<std::size_t>(ghost_ratio_ * static_cast<double>(frames));
  }

  void on_hit(const Access& a, PageTableView) override {
    if (freq_[a.page] < 3) ++freq_[a.page];
  }

  void on_fault(const Access& a, PageTableView) override {
    freq_[a.page] = 0;
    if (lists_.contains(kG, a.page)) {
      lists_.move_to_front(kM, a.page);
    } else {
      lists_.push_front(kS, a.page);
    }
  }

  // Out of S, M or G: a freed id in G would take the place of a live one. No freq to clear:
  // on_fault sets it.
  void on_free(PageId p, PageTableView) override { lists_.remove(p); }

  void select_victims(std::size_t want, PageTableView view, VictimList& out) override {
    while (out.size() < want && !(lists_.empty(kS) && lists_.empty(kM))) {
      // S below its share with M empty happens only under batch reclaim.
      if (!lists_.empty(kS) &&
          (static_cast<double>(lists_.size(kS)) >= small_share_ || lists_.empty(kM))) {
        evict_s(view, out);
      } else {
        evict_m(view, out);
      }
    }
  }

 private:
  static constexpr std::size_t kS = 0;
  static constexpr std::size_t kM = 1;
  static constexpr std::size_t kG = 2;

  void evict_s(PageTableView& view, VictimList& out) {
    while (!lists_.empty(kS)) {
      const PageId t = lists_.pop_back(kS);
      if (freq_[t] >= threshold_) {
        freq_[t] = 0;
        lists_.push_front(kM, t);
        view.count_scanned(t);
        if (static_cast<double>(lists_.size(kM)) > main_share_ && evict_m(view, out)) return;
      } else {
        if (ghost_ids_ > 0) {
          lists_.push_front(kG, t);
          if (lists_.size(kG) > ghost_ids_) lists_.pop_back(kG);
        }
        out.push_back(t);
        return;
      }
    }
  }

  bool evict_m(PageTableView& view, VictimList& out) {
    while (!lists_.empty(kM)) {
      const PageId t = lists_.back(kM);
      if (freq_[t] > 0) {
        --freq_[t];
        lists_.move_to_front(kM, t);
        view.count_scanned(t);
      } else {
        lists_.remove(t);
        out.push_back(t);
        return true;
      }
    }
    return false;
  }

  double small_ratio_;
  double ghost_ratio_;
  std::uint8_t threshold_;
  double small_share_ = 0.0;
  double main_share_ = 0.0;
  std::size_t ghost_ids_ = 0;
  PageLists lists_;
  std::vector<std::uint8_t> freq_;
};

}  // namespace

PAGESIM_REGISTER_POLICY(S3Fifo, "s3fifo",
                        "S3-FIFO (Yang et al. 2023): small FIFO, main CLOCK with 2-bit counters, ghost FIFO");

}  // namespace pagesim
