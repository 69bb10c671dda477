#pragma once

#include <algorithm>
#include <cstddef>
#include <vector>

#include "pagesim/trace.hpp"
#include "pagesim/types.hpp"

namespace pagesim {

// Every process's pages of one kind sorted by virtual page number. Anonymous pages in the
// order in which a Linux 2.4 swap_out walks a process's page tables (swap_out_vma ->
// swap_out_pgd -> swap_out_pmd); file pages in the order of their offsets in the file a
// process's file pages stand for (engine.hpp, file readahead). Process m's pages are
// pages[begin[m] .. begin[m + 1]). Built once per run from the trace.
struct VpnOrder {
  std::vector<PageId> pages;
  std::vector<std::size_t> begin;

  void build(const Trace& trace, PageKind kind = PageKind::kAnon) {
    const std::size_t procs = trace.num_procs();
    begin.assign(procs + 1, 0);
    for (PageId p = 0; p < trace.num_pages(); ++p) {
      if (trace.page_kind(p) == kind) ++begin[trace.page_proc(p) + 1];
    }
    for (std::size_t m = 0; m < procs; ++m) begin[m + 1] += begin[m];
    pages.assign(begin[procs], kNoPage);
    std::vector<std::size_t> fill(begin.begin(), begin.end() - 1);
    for (PageId p = 0; p < trace.num_pages(); ++p) {
      if (trace.page_kind(p) == kind) pages[fill[trace.page_proc(p)]++] = p;
    }
    for (std::size_t m = 0; m < procs; ++m) {
      std::sort(pages.begin() + static_cast<std::ptrdiff_t>(begin[m]),
                pages.begin() + static_cast<std::ptrdiff_t>(begin[m + 1]),
                [&](PageId a, PageId b) { return trace.page_vpn(a) < trace.page_vpn(b); });
    }
  }
};

}  // namespace pagesim
