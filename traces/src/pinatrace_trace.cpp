// Intel Pin's sample tool pinatrace (source/tools/ManualExamples/pinatrace.cpp), whose
// analysis routines print fprintf(trace, "%p: R %p\n", ip, addr) and "%p: W %p\n" and whose
// Fini prints "#eof":
//
//   0x7f1c2a1b4e43: W 0x7ffd6d1bc8f8
//   0x7f1c2a1b4e50: R 0x7f1c2a3c6e70
//   #eof
//
// The instruction address is checked and ignored; a null data address, which %p prints as
// "(nil)", is address 0. A file without "#eof" (the tool was killed before Fini) is read to
// its end, but for a last line without a newline: the tool was killed while writing it, and
// its address may be cut short. A line after "#eof" is an error.
#include "pagesim/error.hpp"
#include "pagesim/line_reader.hpp"
#include "readers.hpp"

namespace pagesim::detail {

std::string parse_pinatrace_line(std::string_view line, PinatraceLine& out) {
  std::string_view rest = line;
  const std::string_view ip = next_field(rest);
  const std::string_view op = next_field(rest);
  const std::string_view address = next_field(rest);
  const std::string_view extra = next_field(rest);
  std::uint64_t ip_value = 0;
  if (ip.size() < 2 || ip.back() != ':' || !parse_hex(ip.substr(0, ip.size() - 1), ip_value)) {
    return "expected a pinatrace line 'IP: R ADDRESS' or 'IP: W ADDRESS' (IP and ADDRESS "
           "hexadecimal), got " +
           quoted(line);
  }
  if (op != "R" && op != "W")
    return "expected R or W after the instruction address, got " + quoted_or_nothing(op);
  // glibc's %p prints a null pointer as "(nil)".
  if (address == "(nil)") {
    out.address = 0;
  } else if (!parse_hex(address, out.address)) {
    return "expected a hexadecimal address (at most 64 bits), got " + quoted_or_nothing(address);
  }
  if (!extra.empty()) return "expected the line to end after the address, got " + quoted(extra);
  out.write = op == "W";
  return "";
}

std::uint64_t stream_pinatrace(LineReader& reader, const ReadOptions& options, AccessSink& sink) {
  const std::uint32_t shift = page_shift(options.page_size_or_default());
  const std::uint64_t pid = options.pid.value_or(1);
  std::uint64_t count = 0;
  std::uint64_t eof_line = 0;
  std::string_view line;
  PinatraceLine access{};
  while (reader.next(line)) {
    const auto fail = [&](const std::string& what) {
      throw TraceFormatError(reader.name(), reader.line_number(), what);
    };
    if (is_blank(line)) continue;
    // Something after the end: another trace appended, say, which must not be dropped silently.
    if (eof_line != 0) {
      fail("expected nothing after the '#eof' that ends the trace on line " +
           std::to_string(eof_line) + ", got " + quoted(line));
    }
    std::string_view rest = line;
    if (next_field(rest) == "#eof" && is_blank(rest)) {
      eof_line = reader.line_number();
      continue;
    }
    if (const std::string what = parse_pinatrace_line(line, access); !what.empty()) fail(what);
    if (!reader.terminated()) {
      fail(
          "expected a newline at the end of the last access, or '#eof' after it: the trace "
          "ends in the middle of " +
          quoted(line) +
          " (pinatrace killed while writing it?); its address may be cut short: remove the line");
    }
    sink.add(pid, access.address >> shift, access.write, PageKind::kAnon);
    ++count;
  }
  if (count == 0) {
    throw TraceFormatError(reader.name(), reader.line_number(),
                           if_empty(reader) +
                               "expected at least one pinatrace access 'IP: R ADDRESS' or 'IP: W "
                               "ADDRESS', found none");
  }
  return count;
}

}  // namespace pagesim::detail
