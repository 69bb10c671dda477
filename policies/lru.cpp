// Least Recently Used: evict the resident page whose last access is oldest.
// Textbook demand paging (Mattson, Gecsei, Slutz, Traiger, "Evaluation techniques for storage
// hierarchies", IBM Systems Journal 1970): a stack algorithm, so its faults never grow with
// memory and one pass gives every memory size (see the miss-ratio curve tools).
//
//   on access to p:  move p to the head of the list
//   on fault:        victim = tail of the list
//
// The list is kept as recency stamps: each access gives its page the next stamp, and the
// resident pages' stamps sit in a bit tree, so the tail is the smallest stamp. The same order
// as a doubly linked list, but a hit touches one random cache line (the page's stamp) instead
// of three (the page and both neighbours). Stamps are renumbered 0..k-1 in order when they run
// out, every 3 x frames accesses or more, which costs a pass over 4 x frames bits.
#include <algorithm>
#include <vector>

#include "pagesim/bit_tree.hpp"
#include "pagesim/page_array.hpp"
#include "pagesim/registry.hpp"

namespace pagesim {
namespace {

class Lru final : public Policy {
 public:
  explicit Lru(const Params& /*params*/) {}

  PolicyTraits traits() const override { return {/*needs_hits=*/true, /*needs_future=*/false}; }
  void reset(std::size_t num_pages, std::size_t frames) override {
    stamp_.assign(num_pages, 0);
    const std::size_t capacity = 4 * std::max<std::size_t>(frames, 1024);
    page_of_.assign(capacity, kNoPage);
    stamps_.reset(capacity);
    next_ = 0;
  }
  void prefetch(PageId p, int stage) const {
    if (stage == 0) {
      __builtin_prefetch(&stamp_[p], 1);
    } else {
      __builtin_prefetch(stamps_.word_of(stamp_[p]), 1);
    }
  }
  void on_hit(const Access& a, PageTableView) override {
    stamps_.erase(stamp_[a.page]);
    stamp(a.page);
  }
  void on_fault(const Access& a, PageTableView) override { stamp(a.page); }
  void select_victims(std::size_t want, PageTableView view, VictimList& out) override {
    while (out.size() < want && !stamps_.empty()) {
      const std::size_t oldest = stamps_.min();
      stamps_.erase(oldest);
      out.push_back(page_of_[oldest]);
    }
    if (!stamps_.empty()) view.prefetch(page_of_[stamps_.min()]);  // the next victim
  }

 private:
  void stamp(PageId p) {
    if (next_ == page_of_.size()) renumber();
    stamp_[p] = static_cast<std::uint32_t>(next_);
    page_of_[next_] = p;
    stamps_.insert(next_);
    ++next_;
  }
  // Gives the live stamps the numbers 0..k-1 in the same order.
  void renumber() {
    std::size_t k = 0;
    for (std::size_t w = 0; w < stamps_.words(); ++w) {
      for (std::uint64_t bits = *stamps_.word_of(64 * w); bits != 0; bits &= bits - 1) {
        const std::size_t old = 64 * w + static_cast<std::size_t>(__builtin_ctzll(bits));
        const PageId p = page_of_[old];
        page_of_[k] = p;  // k <= old: nothing unread is overwritten
        stamp_[p] = static_cast<std::uint32_t>(k);
        ++k;
      }
    }
    stamps_.clear();
    for (std::size_t s = 0; s < k; ++s) stamps_.insert(s);
    next_ = k;
  }

  PageArray<std::uint32_t> stamp_;  // per page: its last stamp (meaningful while resident)
  PageArray<PageId> page_of_;       // per stamp: its page
  BitTree stamps_;                  // stamps of the resident pages
  std::size_t next_ = 0;
};

}  // namespace

PAGESIM_REGISTER_POLICY(Lru, "lru", "least recently used (exact; recency stamps in a bit tree)");

}  // namespace pagesim
