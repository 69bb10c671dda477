#pragma once

#include <cstdint>
#include <string>
#include <string_view>

#include "pagesim/trace.hpp"

namespace pagesim {

// The plain text trace format: one access per line,
//
//   [PID] OP ADDRESS      # comment
//
// OP is R or W (either case), ADDRESS a decimal or 0x-hexadecimal number, PID an optional
// decimal process id (every data line has it or none does). Blank lines and `#` comments are
// ignored. ADDRESS is a byte address divided by `page_size`, or a page number when
// `page_numbers` is set.
struct TextTraceOptions {
  // 0: the page size the first line records ("# pagesim trace: ... (8192-byte pages)", as
  // pagesim's writer puts it), else 4096.
  std::uint32_t page_size = 0;
  bool page_numbers = false;
};

// Throws TraceFormatError naming the file, the line and what was expected.
Trace read_text_trace(const std::string& path, const TextTraceOptions& options = {});
Trace parse_text_trace(std::string_view text, const TextTraceOptions& options = {},
                       const std::string& name = "<string>");

}  // namespace pagesim
