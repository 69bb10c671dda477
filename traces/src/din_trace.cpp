// Dinero III/IV "din" traces, Dinero IV's `-informat d` (dineroIV 7, tracein_din in dinfmt.c):
//
//   2 0            LABEL ADDRESS: an instruction fetch at byte address 0
//   0 70f60888     a data read
//   1 70f6088c 4   a data write; the rest of a line is ignored (comments, a size)
//
// LABEL: 0 read, 1 write, 2 instruction fetch, 3 an access of another kind (Dinero IV's
// D4XMISC, which it simulates as a data reference), 4 a cache flush (D4XCOPYB: no address is
// referenced). Both fields are hexadecimal; Dinero IV takes them with or without 0x. A last
// access without a newline that ends at its address is an error: a tool stopped while writing
// it leaves a shorter address that reads as another.
#include "pagesim/error.hpp"
#include "pagesim/line_reader.hpp"
#include "readers.hpp"

namespace pagesim::detail {
namespace {

constexpr std::uint64_t kWrite = 1;
constexpr std::uint64_t kFetch = 2;
constexpr std::uint64_t kFlush = 4;

}  // namespace

std::string parse_din_line(std::string_view line, DinLine& out) {
  const std::string_view label = next_field(line);
  const std::string_view address = next_field(line);
  if (!parse_hex(label, out.label) || out.label > kFlush) {
    return "expected a din label 0 (read), 1 (write), 2 (instruction fetch), 3 (other access) or "
           "4 (cache flush) before the address, got " +
           quoted_or_nothing(label);
  }
  if (!parse_hex(address, out.address))
    return "expected a hexadecimal address (at most 64 bits) after the label, got " +
           quoted_or_nothing(address);
  out.more = !is_blank(line);
  return "";
}

std::uint64_t stream_din(LineReader& reader, const ReadOptions& options, AccessSink& sink) {
  const std::uint32_t shift = page_shift(options.page_size_or_default());
  const std::uint64_t pid = options.pid.value_or(1);
  std::uint64_t count = 0;
  std::uint64_t fetches = 0;
  std::string_view line;
  DinLine din{};
  while (reader.next(line)) {
    if (is_blank(line)) continue;
    if (const std::string what = parse_din_line(line, din); !what.empty())
      throw TraceFormatError(reader.name(), reader.line_number(), what);
    if (din.label == kFlush) continue;
    if (din.label == kFetch) {
      ++fetches;
      if (!options.instructions) continue;
    }
    if (!reader.terminated() && !din.more) {
      throw TraceFormatError(reader.name(), reader.line_number(),
                             cut_last_line(line, "trace", "the tool writing it", "address"));
    }
    sink.add(pid, din.address >> shift, din.label == kWrite, PageKind::kAnon);
    ++count;
  }
  if (count == 0) {
    throw TraceFormatError(
        reader.name(), reader.line_number(),
        if_empty(reader) +
            (fetches
                 ? "expected at least one data access (label 0, 1 or 3), found only instruction "
                   "fetches (read them with instructions=True)"
                 : "expected at least one din access 'LABEL ADDRESS' (label 0 to 3), found none"));
  }
  return count;
}

}  // namespace pagesim::detail
