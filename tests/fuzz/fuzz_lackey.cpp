// libFuzzer target: the lackey reader (input may also be gzip or zstd compressed). Built and run
// by scripts/fuzz.sh. Any exception other than pagesim::Error, and any crash, is a finding.
#include <cstddef>
#include <cstdint>
#include <string_view>

#include "pagesim/error.hpp"
#include "pagesim/trace_io.hpp"

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  pagesim::ReadOptions options;
  options.format = pagesim::TraceFormat::kLackey;
  options.instructions = size % 2 == 0;
  try {
    const pagesim::Trace t =
        pagesim::parse_trace(std::string_view(reinterpret_cast<const char*>(data), size), options, "fuzz");
    if (t.size() == 0) __builtin_trap();  // readers must never return an empty trace
  } catch (const pagesim::Error&) {
  }
  return 0;
}
