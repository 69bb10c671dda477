// libFuzzer target for one trace reader, chosen at build time: scripts/fuzz.sh builds it once
// per format with -DPAGESIM_FUZZ_FORMAT='"csv"' (text, lackey, csv, oracle, din, pinatrace, spc,
// msr, alibaba, native, or auto: format detection and whichever reader it picks); input may also
// be gzip or zstd compressed.
// Any exception other than pagesim::Error, and any crash, is a finding.
#include <cstddef>
#include <cstdint>
#include <string_view>

#include "pagesim/error.hpp"
#include "pagesim/trace_io.hpp"

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  pagesim::ReadOptions options;
  options.format = pagesim::parse_format(PAGESIM_FUZZ_FORMAT);
  options.instructions = size % 2 == 0;  // lackey, din: with and without instruction fetches
  try {
    const pagesim::Trace t =
        pagesim::parse_trace(std::string_view(reinterpret_cast<const char*>(data), size), options, "fuzz");
    if (t.size() == 0) __builtin_trap();  // readers must never return an empty trace
  } catch (const pagesim::Error&) {
  }
  return 0;
}
