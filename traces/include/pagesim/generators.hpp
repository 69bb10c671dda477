#pragma once

#include <cstdint>

#include "pagesim/trace.hpp"

namespace pagesim {

// Synthetic workloads, deterministic for a seed. Page numbers are 0..pages-1 of pid 1.

// Independent references with P(rank k) proportional to 1/k^alpha (alpha 0 = uniform). Ranks
// are scattered over the page numbers by a seeded permutation, so popularity is not tied to
// address. Each access is a write with probability write_fraction.
Trace generate_zipf(std::uint64_t accesses, std::uint32_t pages, double alpha,
                    double write_fraction, std::uint64_t seed);

// Cyclic sweep over pages 0..pages-1, repeated until `accesses` references: the pattern on
// which LRU faults on every access once pages > frames.
Trace generate_loop(std::uint64_t accesses, std::uint32_t pages, double write_fraction,
                    std::uint64_t seed);

}  // namespace pagesim
