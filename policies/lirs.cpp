// LIRS: S. Jiang and X. Zhang, "LIRS: An Efficient Low Inter-reference Recency Set
// Replacement Policy to Improve Buffer Cache Performance", SIGMETRICS 2002, section 3.3.
// Pages whose inter-reference recency (IRR) is low are LIR and keep Llirs frames; the other
// Lhirs = c - Llirs frames hold resident HIR pages, the only eviction candidates.
//
// Structures: the LIRS stack S (recency order; holds LIR pages, resident HIR pages and
// non-resident HIR pages whose recency is below the oldest LIR page's) and the list Q of
// resident HIR pages (front = next victim). Stack pruning removes the HIR pages at the bottom
// of S until an LIR page is there, so a page found in S has an IRR below some LIR page's
// recency.
//
// Section 3.3, and where it lives here (X is the accessed page):
//
//   warm-up: while fewer than Llirs pages are LIR, an accessed page becomes LIR.  on_fault
//   1. X is LIR: move X to the top of S; if X was at the bottom, prune S.         on_hit
//   2. X is a resident HIR page:                                                  on_hit
//      move X to the top of S;
//      (a) X was in S: X becomes LIR and leaves Q; the LIR page at the bottom of S
//          becomes HIR and moves to the end of Q; prune S.
//      (b) X was not in S: X stays HIR and moves to the end of Q.
//   3. X is not resident (a miss): evict the resident HIR page at the front of Q  select_victims
//      (if it is in S it stays there as non-resident HIR); load X, move X to the  on_fault
//      top of S; then as in 2(a) if X was in S, else put X at the end of Q.
//
// Parameters: hir_ratio = Lhirs / c (the paper's 1%); min_hir_frames = 2 is the floor of the
// authors' lirs.c (Song Jiang, 2002: Lhirs = max(HIR_RATE/100 * c, LOWEST_HG_NUM), the product
// rounded down as C's integer conversion does); Lhirs is capped at c. S is unbounded, as in
// the paper: it is a per-page array here.
//
// General forms of two steps, needed when c is tiny (Llirs = 0) or under batch reclaim:
// a promotion demotes the bottom LIR page only while more than Llirs pages are LIR (always the
// case after warm-up, as in the paper), and S is pruned after every change so its bottom is
// always LIR. If Q is empty when a victim is needed (only under batch reclaim), the LIR page
// at the bottom of S goes.
//
// Process exit (not in the paper, which has no deletion): a freed page leaves S and Q and
// loses its LIR status, history included. Llirs is kept: while fewer pages are LIR, faulted
// pages become LIR as in warm-up, so the freed LIR frames go back to LIR pages.
#include <algorithm>
#include <vector>

#include "pagesim/page_list.hpp"
#include "pagesim/registry.hpp"

namespace pagesim {
namespace {

class Lirs final : public Policy {
 public:
  explicit Lirs(const Params& params)
      : hir_ratio_(params.get_double("hir_ratio", 0.01, 0.0, 1.0)),
        min_hir_(static_cast<std::size_t>(params.get_int("min_hir_frames", 2, 1, 1 << 30))) {}

  PolicyTraits traits() const override { return {/*needs_hits=*/true, /*needs_future=*/false}; }

  void reset(std::size_t num_pages, std::size_t frames) override {
    s_.reset(num_pages, 1);
    q_.reset(num_pages, 1);
    lir_.assign(num_pages, 0);
    const auto hir = std::min(
        frames, std::max(min_hir_, static_cast<std::size_t>(hir_ratio_ * static_cast<double>(frames))));
    llirs_ = frames - hir;
    lir_count_ = 0;
  }

  static constexpr bool pagesim_prefetch_fast_path = true;  // see policy.hpp
  void prefetch(PageId p, int stage) const { s_.prefetch(p, stage); }
  void on_hit(const Access& a, PageTableView) override {
    const PageId x = a.page;
    if (lir_[x]) {
      const bool was_bottom = s_.back(0) == x;
      s_.move_to_front(0, x);
      if (was_bottom) prune();
    } else if (s_.contains(0, x)) {
      q_.remove(x);
      s_.move_to_front(0, x);
      promote(x);
    } else {
      s_.push_front(0, x);
      q_.remove(x);
      q_.push_back(0, x);
      prune();  // a no-op unless S holds no LIR page (Llirs = 0)
    }
  }

  void on_fault(const Access& a, PageTableView) override {
    const PageId x = a.page;
    const bool in_s = s_.contains(0, x);
    s_.move_to_front(0, x);
    if (lir_count_ < llirs_ || in_s) {
      promote(x);
    } else {
      q_.push_back(0, x);
      prune();
    }
  }

  void on_free(PageId x, PageTableView) override {
    q_.remove(x);
    s_.remove(x);
    if (lir_[x]) {
      lir_[x] = 0;
      --lir_count_;
    }
    prune();  // x may have been the bottom of S
  }

  void select_victims(std::size_t want, PageTableView, VictimList& out) override {
    while (out.size() < want) {
      if (!q_.empty(0)) {
        out.push_back(q_.pop_front(0));  // stays in S, if there, as non-resident HIR
      } else if (!s_.empty(0)) {
        const PageId v = s_.pop_back(0);
        lir_[v] = 0;
        --lir_count_;
        prune();
        out.push_back(v);
      } else {
        break;
      }
    }
  }

 private:
  // X (at the top of S, not in Q) becomes LIR; the bottom LIR page goes to the end of Q if
  // that makes one LIR page too many.
  void promote(PageId x) {
    lir_[x] = 1;
    ++lir_count_;
    if (lir_count_ > llirs_) {
      const PageId b = s_.pop_back(0);
      lir_[b] = 0;
      --lir_count_;
      q_.push_back(0, b);
    }
    prune();
  }

  // Removes HIR pages from the bottom of S until an LIR page is there. A non-resident HIR
  // page leaving S is forgotten; a resident one stays in Q.
  void prune() {
    while (!s_.empty(0) && !lir_[s_.back(0)]) s_.pop_back(0);
  }

  double hir_ratio_;
  std::size_t min_hir_;
  std::size_t llirs_ = 0;
  std::size_t lir_count_ = 0;
  PageLists s_;  // front = top of the stack
  PageLists q_;  // front = next victim
  std::vector<std::uint8_t> lir_;
};

}  // namespace

PAGESIM_REGISTER_POLICY(Lirs, "lirs",
                        "LIRS (Jiang & Zhang 2002): LIR/HIR by inter-reference recency, stack S, list Q");

}  // namespace pagesim
