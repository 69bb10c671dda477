#include "pagesim/text_trace.hpp"

#include <optional>

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
  for (std::string_view f; n < 4 && !(f = next_field(line)).empty();) fields[n++] = f;
  return n;
}

// The largest page size: the largest power of two a page size's 32 bits hold.
constexpr std::uint64_t kMaxPageSize = std::uint64_t{1} << 31;

// The page size pagesim's text writer records in its first line,
// "# pagesim trace: pid op address (8192-byte pages)", as written there; none if `line` is
// not that line.
std::optional<std::string_view> recorded_page_size(std::string_view line) {
  constexpr std::string_view kStart = "# pagesim trace:", kEnd = "-byte pages)";
  if (line.substr(0, kStart.size()) != kStart || line.size() < kEnd.size() ||
      line.substr(line.size() - kEnd.size()) != kEnd) {
    return std::nullopt;
  }
  line.remove_suffix(kEnd.size());
  const std::size_t open = line.rfind('(');
  if (open == std::string_view::npos) return std::nullopt;
  return line.substr(open + 1);
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
  std::uint32_t page_size = options.page_size_or_default();
  std::uint32_t bits = page_shift(page_size);
  const std::uint64_t default_pid = options.pid.value_or(0);
  std::size_t columns = 0;
  std::uint64_t columns_line = 0;
  std::uint64_t count = 0;
  std::string_view line;
  while (reader.next(line)) {
    const auto fail = [&](const std::string& what) {
      throw TraceFormatError(reader.name(), reader.line_number(), what);
    };
    // The page size pagesim's writer records, unless the caller gave one.
    if (reader.line_number() == 1 && options.page_size == 0) {
      if (const auto recorded = recorded_page_size(line)) {
        std::uint64_t size = 0;
        if (!parse_decimal(*recorded, size) || size == 0 || size > kMaxPageSize ||
            (size & (size - 1)) != 0) {
          fail("expected the header's page size to be a power of two from 1 to " +
               std::to_string(kMaxPageSize) + ", got " + quoted(*recorded));
        }
        page_size = static_cast<std::uint32_t>(size);
        bits = page_shift(page_size);
        sink.set_page_size(page_size);
      }
    }
    std::string_view f[4];
    const std::size_t n = split(line, f);
    if (n == 0) continue;
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
    std::uint64_t pid = default_pid;
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
    if (options.page_numbers && address > (UINT64_MAX >> bits)) {
      fail("page number " + quoted(f[n - 1]) + " is beyond the 64-bit address space with " +
           std::to_string(page_size) + "-byte pages");
    }
    sink.add(pid, options.page_numbers ? address : address >> bits, write, PageKind::kAnon);
    ++count;
  }
  if (count == 0) {
    throw TraceFormatError(reader.name(), reader.line_number(),
                           if_empty(reader) + "expected at least one access, found none");
  }
  return count;
}

}  // namespace detail

namespace {

Trace read(LineReader& reader, const TextTraceOptions& options) {
  ReadOptions o;
  o.page_size = options.page_size;
  o.page_numbers = options.page_numbers;
  BuilderSink sink(o.page_size_or_default(), reader.name());
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
