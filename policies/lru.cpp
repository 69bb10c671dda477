// Least Recently Used: evict the resident page whose last access is oldest.
// Textbook demand paging (Mattson, Gecsei, Slutz, Traiger, "Evaluation techniques for storage
// hierarchies", IBM Systems Journal 1970): a stack algorithm, so its faults never grow with
// memory and one pass gives every memory size (see the miss-ratio curve tools).
//
//   on access to p:  move p to the head of the list
//   on fault:        victim = tail of the list
//
// The list is kept as recency stamps: each access gives its page the next stamp and the
// resident pages' stamps are bits in a bitmap, so the tail is the lowest set bit. New stamps
// only go above all others and the lowest only rises, so a cursor finds it scanning forward.
// The same order as a doubly linked list, but a hit touches one random cache line (the page's
// stamp) instead of three (the page and both neighbours). When the stamps run out they are
// renumbered 0..k-1 in order: every 3 x frames accesses or more, a pass over 4 x frames bits.
#include <algorithm>
#include <cstdint>
#include <vector>

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
    // At most min(frames, num_pages) stamps are live at a time.
    const std::size_t words = std::max<std::size_t>(std::min(frames, num_pages), 1024) / 16 + 1;
    page_of_.assign(64 * words, kNoPage);
    live_.assign(words, 0);
    next_ = 0;
    oldest_word_ = 0;
  }
  static constexpr bool pagesim_prefetch_fast_path = true;  // see policy.hpp
  void prefetch(PageId p, int stage) const {
    if (stage == 0) {
      __builtin_prefetch(&stamp_[p], 1);
    } else {
      __builtin_prefetch(&live_[stamp_[p] / 64], 1);
    }
  }
  void on_hit(const Access& a, PageTableView) override {
    const std::uint32_t s = stamp_[a.page];
    live_[s / 64] &= ~(std::uint64_t{1} << (s % 64));
    stamp(a.page);
  }
  void on_fault(const Access& a, PageTableView) override { stamp(a.page); }
  void on_free(PageId p, PageTableView view) override {
    const std::uint32_t s = stamp_[p];
    if (view.resident(p)) live_[s / 64] &= ~(std::uint64_t{1} << (s % 64));
  }
  static constexpr bool pagesim_select_victim_fast_path = true;  // see policy.hpp
  PageId select_victim(PageTableView view) {
    const std::size_t s = oldest();
    if (s == kNone) return kNoPage;
    live_[s / 64] &= ~(std::uint64_t{1} << (s % 64));
    const std::size_t next = oldest();
    if (next != kNone) view.prefetch(page_of_[next]);  // the next victim
    return page_of_[s];
  }
  void select_victims(std::size_t want, PageTableView view, VictimList& out) override {
    for (PageId v; out.size() < want && (v = select_victim(view)) != kNoPage;) out.push_back(v);
  }

 private:
  static constexpr std::size_t kNone = ~std::size_t{0};

  void stamp(PageId p) {
    // The last word stays unused, so that next_ / 64 is always a word of live_.
    if (next_ == page_of_.size() - 64) renumber();
    stamp_[p] = static_cast<std::uint32_t>(next_);
    page_of_[next_] = p;
    live_[next_ / 64] |= std::uint64_t{1} << (next_ % 64);
    ++next_;
  }
  // The lowest live stamp, or kNone: moves the cursor past empty words, but not past the
  // word that the next stamp goes into.
  std::size_t oldest() {
    const std::size_t last = next_ / 64;
    while (oldest_word_ < last && live_[oldest_word_] == 0) ++oldest_word_;
    if (live_[oldest_word_] == 0) return kNone;
    return oldest_word_ * 64 + static_cast<std::size_t>(__builtin_ctzll(live_[oldest_word_]));
  }
  // Gives the live stamps the numbers 0..k-1 in the same order.
  void renumber() {
    std::size_t k = 0;
    for (std::size_t w = oldest_word_; w < live_.size(); ++w) {
      for (std::uint64_t bits = live_[w]; bits != 0; bits &= bits - 1) {
        const std::size_t old = 64 * w + static_cast<std::size_t>(__builtin_ctzll(bits));
        const PageId p = page_of_[old];
        page_of_[k] = p;  // k <= old: nothing unread is overwritten
        stamp_[p] = static_cast<std::uint32_t>(k);
        ++k;
      }
      live_[w] = 0;
    }
    std::fill(live_.begin(), live_.begin() + static_cast<std::ptrdiff_t>(k / 64), ~std::uint64_t{0});
    if (k % 64 != 0) live_[k / 64] = (std::uint64_t{1} << (k % 64)) - 1;
    next_ = k;
    oldest_word_ = 0;
  }

  PageArray<std::uint32_t> stamp_;  // per page: its last stamp (meaningful while resident)
  PageArray<PageId> page_of_;       // per stamp: its page
  PageArray<std::uint64_t> live_;   // bit per stamp: its page is resident with that stamp
  std::size_t next_ = 0;            // the next stamp
  std::size_t oldest_word_ = 0;     // no live stamp below 64 x oldest_word_
};

}  // namespace

PAGESIM_REGISTER_POLICY(Lru, "lru", "least recently used (exact; recency stamps in a bitmap)");

}  // namespace pagesim
