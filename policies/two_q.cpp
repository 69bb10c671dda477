// 2Q, full version: T. Johnson and D. Shasha, "2Q: A Low Overhead High Performance Buffer
// Management Replacement Algorithm", VLDB 1994, section 2.2 ("Full Version"). A page seen once
// goes to the FIFO A1in; if it is referenced again after leaving A1in while its id is still
// remembered in the ghost FIFO A1out, it is "hot" and goes to the LRU list Am. A correlated
// burst of references inside A1in does not promote a page.
//
// The paper's pseudocode and where it lives here:
//
//   reclaimfor(X):                                            select_victims
//     if there are free page slots then put X into a free slot
//     else if |A1in| > Kin then
//       page out the tail of A1in, call it Y
//       add identifier of Y to the head of A1out
//       if |A1out| > Kout then remove identifier of Z from the tail of A1out
//     else
//       page out the tail of Am, call it Y
//       (do not put it on A1out; it hasn't been accessed for a while)
//
//   On accessing X:
//     if X is in Am then move X to the head of Am              on_hit
//     else if X is in A1out then reclaimfor(X); add X to Am     select_victims remembers that X
//                                                               was in A1out, on_fault adds it
//     else if X is in A1in then do nothing                      on_hit
//     else reclaimfor(X); add X to the head of A1in             on_fault
//
// Parameters (the paper's recommended values, section 3.2): kin = 0.25 and kout = 0.50 as
// fractions of the page slots, i.e. Kin = floor(kin * frames) pages, Kout = floor(kout *
// frames) ids; |A1in| > Kin compares integers, so it is the same test for the real 0.25*c.
// The paper sizes A1out by memory only; an A1out of 0 ids (kout = 0) makes 2Q admit nothing to
// Am and behave as FIFO.
//
// Beyond the paper: with kswapd-like batch reclaim, reclaimfor runs once per requested frame.
// If Am is empty when the paper would page out its tail (only possible for kin = 1 or in a
// batch), the tail of A1in goes instead, as to a full A1in.
#include "pagesim/page_list.hpp"
#include "pagesim/registry.hpp"

namespace pagesim {
namespace {

class TwoQ final : public Policy {
 public:
  explicit TwoQ(const Params& params)
      : kin_(params.get_double("kin", 0.25, 0.0, 1.0)),
        kout_(params.get_double("kout", 0.5, 0.0, 16.0)) {}

  PolicyTraits traits() const override { return {/*needs_hits=*/true, /*needs_future=*/false}; }

  void reset(std::size_t num_pages, std::size_t frames) override {
    lists_.reset(num_pages, 3);
    kin_pages_ = static_cast<std::size_t>(kin_ * static_cast<double>(frames));
    kout_ids_ = static_cast<std::size_t>(kout_ * static_cast<double>(frames));
    remembered_ = kNoPage;
  }

  static constexpr bool pagesim_prefetch_fast_path = true;  // see policy.hpp
  void prefetch(PageId p, int stage) const { lists_.prefetch(p, stage); }
  void on_hit(const Access& a, PageTableView) override {
    if (lists_.contains(kAm, a.page)) lists_.move_to_front(kAm, a.page);
    // In A1in: do nothing (a correlated reference).
  }

  void on_fault(const Access& a, PageTableView) override {
    if (a.page == remembered_ || lists_.contains(kA1out, a.page)) {
      lists_.remove(a.page);
      lists_.push_front(kAm, a.page);
    } else {
      lists_.push_front(kA1in, a.page);
    }
    remembered_ = kNoPage;
  }

  // Out of A1in, Am or A1out: a freed id there would take one of the Kout places of a live one.
  void on_free(PageId p, PageTableView) override {
    lists_.remove(p);
    if (remembered_ == p) remembered_ = kNoPage;
  }

  void select_victims(std::size_t want, PageTableView view, VictimList& out) override {
    // "if X is in A1out" is decided before reclaimfor(X), which may push X off A1out.
    if (view.incoming() != kNoPage && lists_.contains(kA1out, view.incoming())) {
      remembered_ = view.incoming();
    }
    while (out.size() < want) {
      if (lists_.size(kA1in) > kin_pages_ || (lists_.empty(kAm) && !lists_.empty(kA1in))) {
        const PageId y = lists_.pop_back(kA1in);
        out.push_back(y);
        if (kout_ids_ > 0) {
          lists_.push_front(kA1out, y);
          if (lists_.size(kA1out) > kout_ids_) lists_.pop_back(kA1out);
        }
      } else if (!lists_.empty(kAm)) {
        out.push_back(lists_.pop_back(kAm));
      } else {
        break;
      }
    }
  }

 private:
  static constexpr std::size_t kA1in = 0;
  static constexpr std::size_t kAm = 1;
  static constexpr std::size_t kA1out = 2;

  double kin_;
  double kout_;
  std::size_t kin_pages_ = 0;
  std::size_t kout_ids_ = 0;
  PageLists lists_;
  // The faulting page, if it was in A1out when select_victims ran.
  PageId remembered_ = kNoPage;
};

}  // namespace

PAGESIM_REGISTER_POLICY(TwoQ, "two_q",
                        "2Q (Johnson & Shasha 1994, full version): A1in FIFO, A1out ghost, Am LRU");

}  // namespace pagesim
