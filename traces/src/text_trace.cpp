#include "pagesim/text_trace.hpp"

#include "pagesim/error.hpp"
#include "pagesim/line_reader.hpp"
#include "readers.hpp"

namespace pagesim {
namespace detail {
namespace {

// Splits `line` at blanks into at most 4 fields (a 4th means too many); drops a # comment.
std::size_t split(std::string_view line, std::string_view (&fields)[4]) {
  if (auto hash = line.find('#'); hash != std::string_view::npos) line = line.substr(0, hash);
  std::size_t n = 0;
  std::size_t i = 0;
  while (n < 4) {
    while (i < line.size() && (line[i] == ' ' || line[i] == '\t')) ++i;
    if (i == line.size()) break;
    const std::size_t start = i;
    while (i < line.size() && line[i] != ' ' && line[i] != '\t') ++i;
    fields[n++] = line.substr(start, i - start);
  }
  return n;
}

}  // namespace

std::uint32_t page_shift(std::uint32_t page_size) {
  if (page_size == 0 || (page_size & (page_size - 1)) != 0) {
    throw ConfigError("parameter 'page_size' = " + std::to_string(page_size) +
                      " is not allowed: must be a power of two");
  }
  return static_cast<std::uint32_t>(__builtin_ctz(page_size));
}

std::string quoted(std::string_view s) {
  std::string out = "'";
  for (const char c : s.substr(0, 40)) {
    const auto u = static_cast<unsigned char>(c);
    if (u >= 0x20 && u < 0x7f) {
      out += c;
    } else {
      static constexpr char kHex[] = "0123456789abcdef";
      out += {'\\', 'x', kHex[u >> 4], kHex[u & 15]};
    }
  }
  return out + (s.size() > 40 ? "...'" : "'");
}

std::uint64_t stream_text(LineReader& reader, const ReadOptions& options, AccessSink& sink) {
  const std::uint32_t bits = page_shift(options.page_size);
  const std::uint64_t shift = options.page_numbers ? 0 : bits;
  const std::uint64_t max_vpn = options.page_numbers ? (UINT64_MAX >> bits) : UINT64_MAX;
  std::size_t columns = 0;
  std::uint64_t columns_line = 0;
  std::uint64_t count = 0;
  std::string_view line;
  while (reader.next(line)) {
    std::string_view f[4];
    const std::size_t n = split(line, f);
    if (n == 0) continue;
    const auto fail = [&](const std::string& what) {
      throw TraceFormatError(reader.name(), reader.line_number(), what);
    };
    if (n < 2 || n > 3) {
      fail("expected 'OP ADDRESS' or 'PID OP ADDRESS' (OP is R or W), got " +
           std::to_string(n) + (n > 3 ? " or more" : "") + " field" + (n == 1 ? "" : "s"));
    }
    if (columns == 0) {
      columns = n;
      columns_line = reader.line_number();
    } else if (n != columns) {
      fail("expected " + std::to_string(columns) + " fields as on line " +
           std::to_string(columns_line) + ", got " + std::to_string(n));
    }
    std::uint64_t pid = 0;
    if (n == 3 && !parse_decimal(f[0], pid)) {
      fail("expected a decimal process id, got " + quoted(f[0]));
    }
    const std::string_view op = f[n - 2];
    bool write = false;
    if (op == "W" || op == "w") write = true;
    else if (op != "R" && op != "r") fail("expected R or W, got " + quoted(op));
    std::uint64_t address = 0;
    if (!parse_u64(f[n - 1], address)) {
      fail("expected an address (decimal or 0x hexadecimal, at most 64 bits), got " +
           quoted(f[n - 1]));
    }
    if (address > max_vpn) {
      fail("page number " + quoted(f[n - 1]) + " is beyond the 64-bit address space with " +
           std::to_string(options.page_size) + "-byte pages");
    }
    sink.add(pid, address >> shift, write, PageKind::kAnon);
    ++count;
  }
  if (count == 0) {
    throw TraceFormatError(reader.name(), reader.line_number(),
                           "expected at least one access, found none");
  }
  return count;
}

}  // namespace detail

namespace {

Trace read(LineReader& reader, const TextTraceOptions& options) {
  ReadOptions o;
  o.page_size = options.page_size;
  o.page_numbers = options.page_numbers;
  detail::page_shift(o.page_size);
  BuilderSink sink(options.page_size, reader.name());
  detail::stream_text(reader, o, sink);
  return std::move(sink).build();
}

}  // namespace

Trace read_text_trace(const std::string& path, const TextTraceOptions& options) {
  LineReader reader = LineReader::open(path);
  return read(reader, options);
}

Trace parse_text_trace(std::string_view text, const TextTraceOptions& options,
                       const std::string& name) {
  LineReader reader = LineReader::from_string(text, name);
  return read(reader, options);
}

}  // namespace pagesim
