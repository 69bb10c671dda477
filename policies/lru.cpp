// Least Recently Used: evict the resident page whose last access is oldest.
// Textbook demand paging (Mattson, Gecsei, Slutz, Traiger, "Evaluation techniques for storage
// hierarchies", IBM Systems Journal 1970): a stack algorithm, so its faults never grow with
// memory and one pass gives every memory size (see the miss-ratio curve tools).
//
//   on access to p:  move p to the head of the list
//   on fault:        victim = tail of the list
#include "pagesim/page_list.hpp"
#include "pagesim/registry.hpp"

namespace pagesim {
namespace {

class Lru final : public Policy {
 public:
  explicit Lru(const Params& /*params*/) {}

  PolicyTraits traits() const override { return {/*needs_hits=*/true, /*needs_future=*/false}; }
  void reset(std::size_t num_pages, std::size_t /*frames*/) override { list_.reset(num_pages, 1); }
  void prefetch(PageId p, int stage) const { list_.prefetch(p, stage); }
  void on_hit(const Access& a, PageTableView) override { list_.move_to_front(0, a.page); }
  void on_fault(const Access& a, PageTableView) override { list_.push_front(0, a.page); }
  void select_victims(std::size_t want, PageTableView view, VictimList& out) override {
    while (out.size() < want && !list_.empty(0)) out.push_back(list_.pop_back(0));
    if (!list_.empty(0)) {  // the next victim and the one after it, likely
      view.prefetch(list_.back(0));
      list_.prefetch(list_.back(0), 1);
    }
  }

 private:
  PageLists list_;
};

}  // namespace

PAGESIM_REGISTER_POLICY(Lru, "lru", "least recently used (exact, doubly linked list)");

}  // namespace pagesim
