#pragma once

#include <cstddef>
#include <cstdint>
#include <vector>

#include "pagesim/page_array.hpp"
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
    nodes_.assign(num_pages, Node{});
    lists_.assign(num_lists, Head{});
  }

  std::uint8_t list_of(PageId p) const { return nodes_[p].owner; }
  bool contains(std::size_t list, PageId p) const { return nodes_[p].owner == list; }
  std::size_t size(std::size_t list) const { return lists_[list].size; }
  bool empty(std::size_t list) const { return lists_[list].size == 0; }
  PageId front(std::size_t list) const { return lists_[list].head; }
  PageId back(std::size_t list) const { return lists_[list].tail; }
  // Towards the tail / towards the head; kNoPage at the end.
  PageId next(PageId p) const { return nodes_[p].next; }
  PageId prev(PageId p) const { return nodes_[p].prev; }

  void push_front(std::size_t list, PageId p) {
    Head& h = lists_[list];
    nodes_[p].prev = kNoPage;
    nodes_[p].next = h.head;
    if (h.head != kNoPage) nodes_[h.head].prev = p; else h.tail = p;
    h.head = p;
    ++h.size;
    nodes_[p].owner = static_cast<std::uint8_t>(list);
  }

  void push_back(std::size_t list, PageId p) {
    Head& h = lists_[list];
    nodes_[p].next = kNoPage;
    nodes_[p].prev = h.tail;
    if (h.tail != kNoPage) nodes_[h.tail].next = p; else h.head = p;
    h.tail = p;
    ++h.size;
    nodes_[p].owner = static_cast<std::uint8_t>(list);
  }

  // Inserts p just before `pos` (towards the head), which must be on `list`; kNoPage = at
  // the tail. CLOCK-like policies use it to insert behind a hand.
  void insert_before(std::size_t list, PageId pos, PageId p) {
    if (pos == kNoPage) {
      push_back(list, p);
      return;
    }
    Head& h = lists_[list];
    nodes_[p].next = pos;
    nodes_[p].prev = nodes_[pos].prev;
    if (nodes_[pos].prev != kNoPage) nodes_[nodes_[pos].prev].next = p; else h.head = p;
    nodes_[pos].prev = p;
    ++h.size;
    nodes_[p].owner = static_cast<std::uint8_t>(list);
  }

  // Removes p from whatever list holds it (no-op if none).
  void remove(PageId p) {
    if (nodes_[p].owner == kNone) return;
    Head& h = lists_[nodes_[p].owner];
    if (nodes_[p].prev != kNoPage) nodes_[nodes_[p].prev].next = nodes_[p].next; else h.head = nodes_[p].next;
    if (nodes_[p].next != kNoPage) nodes_[nodes_[p].next].prev = nodes_[p].prev; else h.tail = nodes_[p].prev;
    --h.size;
    nodes_[p].owner = kNone;
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

  // Stage 0 brings p's node into the cache; stage 1 (later) brings its neighbours, which are
  // known once the node is there. See Engine::run.
  void prefetch(PageId p, int stage) const {
    const Node& n = nodes_[p];
    if (stage == 0) {
      __builtin_prefetch(&n, 1);
    } else {
      if (n.prev != kNoPage) __builtin_prefetch(&nodes_[n.prev], 1);
      if (n.next != kNoPage) __builtin_prefetch(&nodes_[n.next], 1);
    }
  }

  void move_to_front(std::size_t list, PageId p) {
    if (lists_[list].head == p) return;
    remove(p);
    push_front(list, p);
  }

  // Moves the pages from `first` to the back of `list` (first must be on it) to the front,
  // in their order: what as many pop_back + push_front would do, in O(1).
  void rotate_to_front(std::size_t list, PageId first) {
    Head& h = lists_[list];
    if (h.head == first) return;
    const PageId last = nodes_[first].prev;
    nodes_[last].next = kNoPage;
    nodes_[first].prev = kNoPage;
    nodes_[h.tail].next = h.head;
    nodes_[h.head].prev = h.tail;
    h.head = first;
    h.tail = last;
  }

 private:
  struct Head {
    PageId head = kNoPage;
    PageId tail = kNoPage;
    std::size_t size = 0;
  };
  // Links and owner side by side: one cache line per page touched.
  struct Node {
    PageId prev = kNoPage;
    PageId next = kNoPage;
    std::uint8_t owner = kNone;
  };
  PageArray<Node> nodes_;
  std::vector<Head> lists_;
};

}  // namespace pagesim
