#include "pagesim/generators.hpp"

#include <algorithm>
#include <cmath>
#include <numeric>
#include <vector>

#include "pagesim/error.hpp"
#include "pagesim/rng.hpp"

namespace pagesim {
namespace {

void check_common(std::uint64_t accesses, std::uint32_t pages, double write_fraction) {
  if (accesses == 0) throw ConfigError("parameter 'accesses' = 0 is out of range: at least 1");
  if (pages == 0) throw ConfigError("parameter 'pages' = 0 is out of range: at least 1");
  if (!(write_fraction >= 0 && write_fraction <= 1)) {
    throw ConfigError("parameter 'write_fraction' is out of range: allowed 0 to 1");
  }
}

}  // namespace

Trace generate_zipf(std::uint64_t accesses, std::uint32_t pages, double alpha,
                    double write_fraction, std::uint64_t seed) {
  check_common(accesses, pages, write_fraction);
  if (!(alpha >= 0 && alpha <= 10)) {
    throw ConfigError("parameter 'alpha' is out of range: allowed 0 to 10");
  }
  Rng rng(seed);
  std::vector<double> cdf(pages);
  double sum = 0;
  for (std::uint32_t k = 0; k < pages; ++k) {
    sum += std::pow(static_cast<double>(k + 1), -alpha);
    cdf[k] = sum;
  }
  std::vector<std::uint32_t> vpn_of_rank(pages);
  std::iota(vpn_of_rank.begin(), vpn_of_rank.end(), 0u);
  for (std::uint32_t k = pages; k > 1; --k) {
    std::swap(vpn_of_rank[k - 1], vpn_of_rank[rng.below(k)]);
  }
  // Inverse-CDF sampling: rank = the first k with cdf[k] > u. A guide table (Chen and Asau,
  // 1974) narrows the binary search: guide[j] is the rank of the bucket boundary j * sum / m,
  // and a u in bucket j has its rank between guide[j] and guide[j + 1]; one bucket of slack
  // each side absorbs rounding in the bucket number. Same ranks as a search of the whole cdf.
  const std::size_t m = pages;
  std::vector<std::uint32_t> guide(m + 1);
  for (std::size_t j = 0; j <= m; ++j) {
    const double boundary = static_cast<double>(j) * sum / static_cast<double>(m);
    guide[j] = static_cast<std::uint32_t>(std::upper_bound(cdf.begin(), cdf.end(), boundary) - cdf.begin());
  }
  const double buckets_per_unit = static_cast<double>(m) / sum;
  TraceBuilder builder(4096, "zipf");
  builder.reserve(accesses);
  for (std::uint64_t i = 0; i < accesses; ++i) {
    const double u = rng.uniform() * sum;
    const auto j = std::min(static_cast<std::size_t>(u * buckets_per_unit), m);
    const auto first = cdf.begin() + static_cast<std::ptrdiff_t>(guide[j == 0 ? 0 : j - 1]);
    const auto last = cdf.begin() + static_cast<std::ptrdiff_t>(std::min<std::size_t>(
                                        guide[std::min(j + 2, m)] + std::size_t{1}, pages));
    const auto rank = static_cast<std::size_t>(std::upper_bound(first, last, u) - cdf.begin());
    builder.add(1, vpn_of_rank[std::min<std::size_t>(rank, pages - 1)], rng.uniform() < write_fraction);
  }
  return std::move(builder).build();
}

Trace generate_loop(std::uint64_t accesses, std::uint32_t pages, double write_fraction,
                    std::uint64_t seed) {
  check_common(accesses, pages, write_fraction);
  Rng rng(seed);
  TraceBuilder builder(4096, "loop");
  builder.reserve(accesses);
  for (std::uint64_t i = 0; i < accesses; ++i) {
    builder.add(1, i % pages, rng.uniform() < write_fraction);
  }
  return std::move(builder).build();
}

}  // namespace pagesim
