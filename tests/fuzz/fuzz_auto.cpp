// libFuzzer target: format detection and whichever reader it picks, compressed or not.
#include <cstddef>
#include <cstdint>
#include <string_view>

#include "pagesim/error.hpp"
#include "pagesim/trace_io.hpp"

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  try {
    const pagesim::Trace t =
        pagesim::parse_trace(std::string_view(reinterpret_cast<const char*>(data), size), {}, "fuzz");
    if (t.size() == 0) __builtin_trap();
  } catch (const pagesim::Error&) {
  }
  return 0;
}
