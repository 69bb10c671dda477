// Block I/O traces of storage systems, as the page cache over the disk sees them: a request of
// `size` bytes at byte `offset` touches the pages offset / page_size to (offset + size - 1) /
// page_size, each an access in that order (writes for a write request). The pages are
// file-backed, as a buffer cache's are (a miss reads the block from the disk, a dirty
// eviction writes it back: file reads and file writes, no swap); each disk is a process, so
// that the same block number on two disks is two pages. A request of 0 bytes touches nothing.
// These are the traces the caching papers were measured on (ARC, CAR, CLOCK-Pro, S3-FIFO).
//
// SPC: the Storage Performance Council's trace format (SPC Trace File Format Specification
// 1.0.1), as the UMass Trace Repository's Financial1.spc and WebSearch1.spc are written:
//
//   0,303567,3584,w,0.000000        ASU,LBA,Size,Opcode,Timestamp[,more fields]
//
// ASU: the application specific storage unit, a disk (the pid); LBA: the first 512-byte
// block; Size: bytes; Opcode: r or w (either case); Timestamp: seconds, a number (not
// otherwise used: the order of the lines is the order of the requests).
//
// MSR Cambridge (SNIA IOTTA; Narayanan, Donnelly, Rowstron, "Write off-loading", FAST 2008),
// one file per volume, hm_0.csv and the like:
//
//   128166372003061629,hm,0,Read,3267772416,4096,51213
//   Timestamp,Hostname,DiskNumber,Type,Offset,Size,ResponseTime
//
// Timestamp and ResponseTime in 100 ns units (not used); Type Read or Write (either case);
// Offset and Size in bytes; the disk number is the pid, and every line has one host (a
// second one would make its disk 0 the first one's).
//
// Alibaba (the alibaba/block-traces repository's io_traces.csv, 2020: Li et al., "An in-depth
// analysis of cloud block storage workloads in large-scale production", IISWC 2020):
//
//   0,R,126703644672,4096,1577808000000040      device_id,opcode,offset,length,timestamp
//
// The device is the pid; opcode R or W (either case); offset and length in bytes; the
// timestamp in microseconds (not used).
#include <charconv>
#include <cmath>
#include <initializer_list>
#include <string>
#include <vector>

#include "pagesim/error.hpp"
#include "readers.hpp"

namespace pagesim::detail {
namespace {

constexpr std::uint64_t kSectorBytes = 512;
// The largest request read: block traces' requests are kilobytes to a few megabytes, and a
// corrupt size field could otherwise ask for 2^64 accesses.
constexpr std::uint64_t kMaxRequestBytes = std::uint64_t{64} << 20;

bool is_number(std::string_view v) {
  double t = 0;
  const auto [end, ec] = std::from_chars(v.data(), v.data() + v.size(), t);
  return !v.empty() && ec == std::errc() && end == v.data() + v.size() && std::isfinite(t);
}

// Sets `write` from a field naming the request's direction, `read` or `write` (either case);
// false for anything else.
bool parse_op(std::string_view field, std::string_view read, std::string_view write_word,
              bool& write) {
  write = iequals(field, write_word);
  return write || iequals(field, read);
}

// One decimal field of a record: its index, what it is (for the message), where it goes.
struct DecimalField {
  std::size_t index;
  const char* what;
  std::uint64_t* value;
};

// "" if each of `fields` of the record `f` is a decimal number (stored), else what was
// expected of the first that is not.
std::string parse_decimals(const std::vector<std::string_view>& f,
                           std::initializer_list<DecimalField> fields) {
  for (const DecimalField& d : fields) {
    if (!parse_decimal(f[d.index], *d.value))
      return std::string("expected a decimal ") + d.what + ", got " + quoted_or_nothing(f[d.index]);
  }
  return "";
}

// "" if a request of `size` bytes at `offset` is not too large and has a last byte within 64
// bits.
std::string check_end(std::uint64_t offset, std::uint64_t size) {
  if (size > kMaxRequestBytes) {
    return "expected a request of at most 64 MiB (" + std::to_string(kMaxRequestBytes) +
           " bytes), got " + std::to_string(size) + " bytes";
  }
  if (size != 0 && offset > UINT64_MAX - (size - 1)) {
    return "expected a request that ends within 64-bit byte offsets, got " + std::to_string(size) +
           " bytes at byte " + std::to_string(offset);
  }
  return "";
}

// Reads a whole format's requests: `parse` is parse_spc_line or parse_msr_line bound to its
// scratch space; `what` the format's line, for the message of a file without requests.
template <class Parse>
std::uint64_t stream_requests(LineReader& reader, const ReadOptions& options, AccessSink& sink,
                              Parse parse, const std::string& what) {
  const std::uint32_t shift = page_shift(options.page_size_or_default());
  std::uint64_t count = 0;
  bool any = false;
  std::string_view line;
  BlockRequest r{};
  while (reader.next(line)) {
    if (is_blank(line) || line[0] == '#') continue;
    if (const std::string error = parse(line, r); !error.empty())
      throw TraceFormatError(reader.name(), reader.line_number(), error);
    any = true;
    if (r.size == 0) continue;
    try {
      const std::uint64_t last = (r.offset + (r.size - 1)) >> shift;
      for (std::uint64_t vpn = r.offset >> shift; vpn <= last; ++vpn) {
        sink.add(r.disk, vpn, r.write, PageKind::kFile);
        ++count;
        if (vpn == UINT64_MAX) break;
      }
    } catch (const ConfigError& e) {
      throw TraceFormatError(reader.name(), reader.line_number(), e.what());
    }
  }
  if (count == 0) {
    throw TraceFormatError(
        reader.name(), reader.line_number(),
        if_empty(reader) + (any ? "expected a request of at least one byte, found "
                                  "only requests of 0 bytes"
                                : "expected at least one request " + what + ", found none"));
  }
  return count;
}

}  // namespace

std::string parse_spc_line(std::string_view line, std::vector<std::string_view>& f,
                           BlockRequest& out) {
  if (split(line, f) < 5) {
    return "expected an SPC record 'ASU,LBA,Size,Opcode,Timestamp', got " + quoted(line);
  }
  std::uint64_t lba = 0;
  if (std::string error = parse_decimals(f, {{0, "ASU", &out.disk},
                                             {1, "LBA (512-byte blocks)", &lba},
                                             {2, "size in bytes", &out.size}});
      !error.empty())
    return error;
  if (lba > UINT64_MAX / kSectorBytes) {
    return "expected an LBA whose byte offset fits in 64 bits, got " + quoted(f[1]);
  }
  if (!parse_op(f[3], "r", "w", out.write))
    return "expected an opcode r or w, got " + quoted_or_nothing(f[3]);
  if (!is_number(f[4])) return "expected a timestamp in seconds, got " + quoted_or_nothing(f[4]);
  out.offset = lba * kSectorBytes;
  return check_end(out.offset, out.size);
}

std::string parse_msr_line(std::string_view line, std::vector<std::string_view>& f,
                           BlockRequest& out, std::string_view& host) {
  if (split(line, f) != 7) {
    return "expected an MSR Cambridge record 'Timestamp,Hostname,DiskNumber,Type,Offset,Size,"
           "ResponseTime', got " +
           quoted(line);
  }
  std::uint64_t unused = 0;
  if (std::string error = parse_decimals(f, {{0, "timestamp", &unused},
                                             {2, "disk number", &out.disk},
                                             {4, "byte offset", &out.offset},
                                             {5, "size in bytes", &out.size},
                                             {6, "response time", &unused}});
      !error.empty())
    return error;
  if (f[1].empty()) return "expected a host name, got nothing";
  host = f[1];
  if (!parse_op(f[3], "read", "write", out.write))
    return "expected a type Read or Write, got " + quoted_or_nothing(f[3]);
  return check_end(out.offset, out.size);
}

std::string parse_alibaba_line(std::string_view line, std::vector<std::string_view>& f,
                               BlockRequest& out) {
  if (split(line, f) != 5) {
    return "expected an Alibaba record 'device_id,opcode,offset,length,timestamp', got " +
           quoted(line);
  }
  std::uint64_t unused = 0;
  if (std::string error = parse_decimals(f, {{0, "device id", &out.disk},
                                             {2, "byte offset", &out.offset},
                                             {3, "length in bytes", &out.size},
                                             {4, "timestamp", &unused}});
      !error.empty())
    return error;
  if (!parse_op(f[1], "r", "w", out.write))
    return "expected an opcode R or W, got " + quoted_or_nothing(f[1]);
  return check_end(out.offset, out.size);
}

namespace {

// stream_requests with a parser of one record per line.
template <std::string (*Parse)(std::string_view, std::vector<std::string_view>&, BlockRequest&)>
std::uint64_t stream_records(LineReader& reader, const ReadOptions& options, AccessSink& sink,
                             const std::string& what) {
  std::vector<std::string_view> fields;
  return stream_requests(
      reader, options, sink,
      [&](std::string_view line, BlockRequest& r) { return Parse(line, fields, r); }, what);
}

}  // namespace

std::uint64_t stream_spc(LineReader& reader, const ReadOptions& options, AccessSink& sink) {
  return stream_records<parse_spc_line>(reader, options, sink, "'ASU,LBA,Size,Opcode,Timestamp'");
}

std::uint64_t stream_msr(LineReader& reader, const ReadOptions& options, AccessSink& sink) {
  std::vector<std::string_view> fields;
  std::string first_host;
  return stream_requests(
      reader, options, sink,
      [&](std::string_view line, BlockRequest& r) {
        std::string_view host;
        std::string error = parse_msr_line(line, fields, r, host);
        if (!error.empty()) return error;
        if (first_host.empty()) first_host = host;
        if (host != first_host) {
          return "expected the host of the lines before, " + quoted(first_host) + ", got " +
                 quoted(host) + ": an MSR trace is one host's volumes (the disk number is the pid)";
        }
        return error;
      },
      "'Timestamp,Hostname,DiskNumber,Type,Offset,Size,ResponseTime'");
}

std::uint64_t stream_alibaba(LineReader& reader, const ReadOptions& options, AccessSink& sink) {
  return stream_records<parse_alibaba_line>(reader, options, sink,
                                            "'device_id,opcode,offset,length,timestamp'");
}

}  // namespace pagesim::detail
