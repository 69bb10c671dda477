#pragma once

#include <cstdint>

#include "pagesim/rng.hpp"
#include "pagesim/trace.hpp"

namespace pagesim::test {

// A small random trace: up to `procs` processes, `pages` pages each (some file-backed when
// `files`), skewed towards low page numbers so that there are hits, writes with
// probability 0.3.
inline Trace random_trace(std::uint64_t seed, std::size_t length, std::uint64_t pages,
                          std::uint64_t procs = 1, bool files = false) {
  Rng rng(seed);
  TraceBuilder b;
  for (std::size_t i = 0; i < length; ++i) {
    const std::uint64_t pid = 1 + rng.below(procs);
    const std::uint64_t r = rng.below(pages);
    const std::uint64_t vpn = rng.below(2) ? r : r / 2;
    // Odd pages of even pids are file-backed: a page keeps one kind.
    const bool file = files && pid % 2 == 0 && vpn % 2 == 1;
    b.add(pid, vpn, rng.uniform() < 0.3, file ? PageKind::kFile : PageKind::kAnon);
  }
  return std::move(b).build();
}

}  // namespace pagesim::test
