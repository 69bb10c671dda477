// CSV traces: a header line naming the columns, then one access per line.
//
//   pid,op,address,time,kind
//   1,R,0x7f0012345000,0.5,anon
//
// Columns (any order, names case-insensitive): `address` (byte address) or `page` (page
// number, any 64-bit value) - exactly one of them; `op` (R/W/read/write, default R), `pid`
// (default: the option pid, else 1), `time`
// (a number; must not decrease; not otherwise used: the order of the lines is the order of the
// accesses), `kind` (anon/file, default anon). An unknown column is an error.
#include <charconv>
#include <cmath>
#include <vector>

#include "pagesim/error.hpp"
#include "readers.hpp"

namespace pagesim::detail {
namespace {

enum class Col { kAddress, kPage, kOp, kPid, kTime, kKind };

}  // namespace

std::string_view trim(std::string_view s) {
  while (!s.empty() && (s.front() == ' ' || s.front() == '\t')) s.remove_prefix(1);
  while (!s.empty() && (s.back() == ' ' || s.back() == '\t')) s.remove_suffix(1);
  if (s.size() >= 2 && s.front() == '"' && s.back() == '"') s = s.substr(1, s.size() - 2);
  return s;
}

bool iequals(std::string_view a, std::string_view b) {
  if (a.size() != b.size()) return false;
  for (std::size_t i = 0; i < a.size(); ++i) {
    char x = a[i], y = b[i];
    if (x >= 'A' && x <= 'Z') x = static_cast<char>(x - 'A' + 'a');
    if (y >= 'A' && y <= 'Z') y = static_cast<char>(y - 'A' + 'a');
    if (x != y) return false;
  }
  return true;
}

std::size_t split(std::string_view line, std::vector<std::string_view>& out) {
  out.clear();
  std::size_t start = 0;
  for (;;) {
    const std::size_t comma = line.find(',', start);
    out.push_back(trim(line.substr(start, comma == std::string_view::npos ? std::string_view::npos : comma - start)));
    if (comma == std::string_view::npos) break;
    start = comma + 1;
  }
  return out.size();
}

std::uint64_t stream_csv(LineReader& reader, const ReadOptions& options, AccessSink& sink) {
  const std::uint32_t shift = page_shift(options.page_size_or_default());
  std::vector<Col> cols;
  std::vector<std::string_view> f;
  std::uint64_t count = 0;
  double last_time = -INFINITY;
  std::string_view line;
  while (reader.next(line)) {
    const auto fail = [&](const std::string& what) {
      throw TraceFormatError(reader.name(), reader.line_number(), what);
    };
    if (line.find_first_not_of(" \t") == std::string_view::npos || line[0] == '#') continue;
    split(line, f);
    if (cols.empty()) {
      bool has[6] = {};
      for (std::string_view name : f) {
        Col c;
        if (iequals(name, "address") || iequals(name, "addr")) c = Col::kAddress;
        else if (iequals(name, "page") || iequals(name, "vpn")) c = Col::kPage;
        else if (iequals(name, "op")) c = Col::kOp;
        else if (iequals(name, "pid")) c = Col::kPid;
        else if (iequals(name, "time") || iequals(name, "timestamp")) c = Col::kTime;
        else if (iequals(name, "kind")) c = Col::kKind;
        else fail("unknown column " + quoted(name) + ": expected a header naming address or page, op, pid, time, kind");
        if (has[static_cast<int>(c)]) fail("column " + quoted(name) + " appears twice in the header");
        has[static_cast<int>(c)] = true;
        cols.push_back(c);
      }
      if (has[0] == has[1]) fail("expected exactly one of the columns 'address' and 'page' in the header");
      continue;
    }
    if (f.size() != cols.size()) {
      fail("expected " + std::to_string(cols.size()) + " comma-separated fields as in the header, got " + std::to_string(f.size()));
    }
    std::uint64_t pid = options.pid.value_or(1), vpn = 0;
    bool write = false;
    PageKind kind = PageKind::kAnon;
    for (std::size_t k = 0; k < cols.size(); ++k) {
      const std::string_view v = f[k];
      switch (cols[k]) {
        case Col::kAddress: {
          std::uint64_t a = 0;
          if (!parse_u64(v, a)) fail("expected an address (decimal or 0x hexadecimal, at most 64 bits), got " + quoted(v));
          vpn = a >> shift;
          break;
        }
        case Col::kPage:
          // Any 64-bit page number: one without a byte address (a hashed oracleGeneral id) too.
          if (!parse_u64(v, vpn))
            fail("expected a page number (decimal or 0x hexadecimal), got " + quoted(v));
          break;
        case Col::kOp:
          if (iequals(v, "W") || iequals(v, "write")) write = true;
          else if (!iequals(v, "R") && !iequals(v, "read")) fail("expected op R, W, read or write, got " + quoted(v));
          break;
        case Col::kPid:
          if (!parse_decimal(v, pid)) fail("expected a decimal process id, got " + quoted(v));
          break;
        case Col::kTime: {
          double t = 0;
          const auto [end, ec] = std::from_chars(v.data(), v.data() + v.size(), t);
          if (v.empty() || ec != std::errc() || end != v.data() + v.size() || !std::isfinite(t)) {
            fail("expected a number in column 'time', got " + quoted(v));
          }
          if (t < last_time) fail("time " + quoted(v) + " is earlier than on the line before: expected lines in time order");
          last_time = t;
          break;
        }
        case Col::kKind:
          if (iequals(v, "file") || v == "1") kind = PageKind::kFile;
          else if (!iequals(v, "anon") && v != "0") fail("expected kind anon or file, got " + quoted(v));
          break;
      }
    }
    try {
      sink.add(pid, vpn, write, kind);
    } catch (const ConfigError& e) {
      fail(e.what());
    }
    ++count;
  }
  if (cols.empty()) {
    throw TraceFormatError(reader.name(), reader.line_number(),
                           if_empty(reader) + "expected a CSV header line, found none");
  }
  if (count == 0) throw TraceFormatError(reader.name(), reader.line_number(), "expected at least one access after the header, found none");
  return count;
}

}  // namespace pagesim::detail
