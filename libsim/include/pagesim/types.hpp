#pragma once

#include <cstdint>
#include <limits>

namespace pagesim {

// Dense id of a distinct (process, virtual page) pair in a trace: 0..num_pages-1.
using PageId = std::uint32_t;
// Dense id of a process in a trace: 0..num_procs-1 (the original pid is kept beside it).
using ProcId = std::uint32_t;
// Index of an access in the trace's columns. With schedule=round_robin, accesses are
// replayed in another order than their indices (each process in its own order).
using AccessIndex = std::uint64_t;
// Virtual time in nanoseconds.
using Tick = std::uint64_t;

inline constexpr PageId kNoPage = std::numeric_limits<PageId>::max();
// No process.
inline constexpr ProcId kNoProc = ~ProcId{0};
// next_use of an access whose page is never accessed again.
inline constexpr std::uint32_t kNever = std::numeric_limits<std::uint32_t>::max();

enum class PageKind : std::uint8_t { kAnon = 0, kFile = 1 };

// One access as the engine hands it to a policy.
struct Access {
  AccessIndex index = 0;
  PageId page = 0;
  ProcId proc = 0;
  bool write = false;
  PageKind kind = PageKind::kAnon;
  // Index of the next access to the same page, or kNever. Filled only for policies whose
  // traits say needs_future; kNever otherwise.
  std::uint32_t next_use = kNever;
  // The page was brought in by swap readahead (page_cluster) or file readahead
  // (read_ahead_kb) during the fault of access `index` (of another page): resident, not
  // referenced, not dirty. See policy.hpp.
  bool readahead = false;
};

}  // namespace pagesim
