#pragma once

#include <vector>

#include "pagesim/types.hpp"

namespace pagesim {

// Linux's read() marks a page cache page accessed once per run of reads of that page in
// succession: 2.6.20 do_generic_mapping_read ("When (part of) the same page is read multiple
// times in succession, only mark it as accessed the first time": prev_index != index), 6.1
// filemap_read (pos_same_folio against ra->prev_pos). prev_index belongs to the open file; a
// process's file pages are its file here. A write marks every page it writes
// (generic_file_buffered_write) and leaves prev_index as it is; a readahead page is read by
// no one yet.
class ReadsInSuccession {
 public:
  void reset() { last_.clear(); }
  // Whether access `a` to a file page marks it accessed: not a read of the page its process
  // read last.
  bool marks(const Access& a) {
    if (a.write) return true;
    if (a.proc >= last_.size()) last_.resize(a.proc + 1, kNoPage);
    const bool first = last_[a.proc] != a.page;
    last_[a.proc] = a.page;
    return first;
  }

 private:
  std::vector<PageId> last_;  // per process, the file page it read last
};

}  // namespace pagesim
