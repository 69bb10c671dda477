// PageLists, the intrusive lists the queue-based policies keep their pages on.
#include <doctest/doctest.h>

#include <vector>

#include "pagesim/page_list.hpp"

namespace pagesim::test {
namespace {

// Front to back.
std::vector<PageId> contents(const PageLists& lists, std::size_t list) {
  std::vector<PageId> out;
  for (PageId p = lists.front(list); p != kNoPage; p = lists.next(p)) out.push_back(p);
  return out;
}

// Back to front: the links the other way agree.
std::vector<PageId> contents_backwards(const PageLists& lists, std::size_t list) {
  std::vector<PageId> out;
  for (PageId p = lists.back(list); p != kNoPage; p = lists.prev(p)) out.insert(out.begin(), p);
  return out;
}

TEST_CASE(
    "PageLists::rotate_to_front moves a back segment to the front, as pop_back + push_front") {
  PageLists lists(8, 2);
  for (PageId p : {0u, 1u, 2u, 3u, 4u}) lists.push_back(0, p);  // 0 1 2 3 4
  lists.push_back(1, 7);

  lists.rotate_to_front(0, 3);  // as two pop_back + push_front: 3 4 0 1 2
  CHECK(contents(lists, 0) == std::vector<PageId>{3, 4, 0, 1, 2});
  CHECK(contents_backwards(lists, 0) == std::vector<PageId>{3, 4, 0, 1, 2});
  CHECK(lists.size(0) == 5);
  CHECK(lists.contains(0, 4));

  lists.rotate_to_front(0, 3);  // already at the front: unchanged
  CHECK(contents(lists, 0) == std::vector<PageId>{3, 4, 0, 1, 2});

  lists.rotate_to_front(0, 2);  // the back page alone: 2 3 4 0 1
  CHECK(contents(lists, 0) == std::vector<PageId>{2, 3, 4, 0, 1});
  CHECK(contents_backwards(lists, 0) == std::vector<PageId>{2, 3, 4, 0, 1});

  lists.remove(1);
  lists.push_front(0, 5);  // 5 2 3 4 0
  CHECK(contents(lists, 0) == std::vector<PageId>{5, 2, 3, 4, 0});
  CHECK(contents(lists, 1) == std::vector<PageId>{7});
}

}  // namespace
}  // namespace pagesim::test
