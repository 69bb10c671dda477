#pragma once

#include <cstddef>
#include <cstdint>
#include <vector>

#include "pagesim/types.hpp"

namespace pagesim {

// Doubly linked lists threaded through arrays indexed by PageId: O(1) insert, remove and
// move without allocation. Each page is on at most one of the `num_lists` lists; which one is
// kept per page. Head = most recently inserted at the front ("MRU"), tail = back ("LRU").
class PageLists {
 public:
  static constexpr std::uint8_t kNone = 0xff;

  PageLists() = default;
  PageLists(std::size_t num_pages, std::size_t num_lists) { reset(num_pages, num_lists); }

  void reset(std::size_t num_pages, std::size_t num_lists) {
    prev_.assign(num_pages, kNoPage);
    next_.assign(num_pages, kNoPage);
    owner_.assign(num_pages, kNone);
    lists_.assign(num_lists, Head{});
  }

  std::uint8_t list_of(PageId p) const { return owner_[p]; }
  bool contains(std::size_t list, PageId p) const { return owner_[p] == list; }
  std::size_t size(std::size_t list) const { return lists_[list].size; }
  bool empty(std::size_t list) const { return lists_[list].size == 0; }
  PageId front(std::size_t list) const { return lists_[list].head; }
  PageId back(std::size_t list) const { return lists_[list].tail; }
  // Towards the tail / towards the head; kNoPage at the end.
  PageId next(PageId p) const { return next_[p]; }
  PageId prev(PageId p) const { return prev_[p]; }

  void push_front(std::size_t list, PageId p) {
    Head& h = lists_[list];
    prev_[p] = kNoPage;
    next_[p] = h.head;
    if (h.head != kNoPage) prev_[h.head] = p; else h.tail = p;
    h.head = p;
    ++h.size;
    owner_[p] = static_cast<std::uint8_t>(list);
  }

  void push_back(std::size_t list, PageId p) {
    Head& h = lists_[list];
    next_[p] = kNoPage;
    prev_[p] = h.tail;
    if (h.tail != kNoPage) next_[h.tail] = p; else h.head = p;
    h.tail = p;
    ++h.size;
    owner_[p] = static_cast<std::uint8_t>(list);
  }

  // Removes p from whatever list holds it (no-op if none).
  void remove(PageId p) {
    if (owner_[p] == kNone) return;
    Head& h = lists_[owner_[p]];
    if (prev_[p] != kNoPage) next_[prev_[p]] = next_[p]; else h.head = next_[p];
    if (next_[p] != kNoPage) prev_[next_[p]] = prev_[p]; else h.tail = prev_[p];
    --h.size;
    owner_[p] = kNone;
  }

  PageId pop_back(std::size_t list) {
    const PageId p = lists_[list].tail;
    if (p != kNoPage) remove(p);
    return p;
  }

  PageId pop_front(std::size_t list) {
    const PageId p = lists_[list].head;
    if (p != kNoPage) remove(p);
    return p;
  }

  void move_to_front(std::size_t list, PageId p) {
    remove(p);
    push_front(list, p);
  }

 private:
  struct Head {
    PageId head = kNoPage;
    PageId tail = kNoPage;
    std::size_t size = 0;
  };
  std::vector<PageId> prev_;
  std::vector<PageId> next_;
  std::vector<std::uint8_t> owner_;
  std::vector<Head> lists_;
};

}  // namespace pagesim
