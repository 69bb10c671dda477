#pragma once
// Streaming readers behind read_trace/stream_trace. Each delivers accesses to the sink, throws
// TraceFormatError on bad input (including a file without accesses) and returns the count.
#include <cstddef>
#include <cstdint>
#include <cstdio>
#include <string>
#include <string_view>
#include <vector>

#include "pagesim/byte_source.hpp"
#include "pagesim/line_reader.hpp"
#include "pagesim/trace_io.hpp"

namespace pagesim::detail {

std::uint64_t stream_text(LineReader& in, const ReadOptions& options, AccessSink& sink);
std::uint64_t stream_lackey(LineReader& in, const ReadOptions& options, AccessSink& sink);
std::uint64_t stream_csv(LineReader& in, const ReadOptions& options, AccessSink& sink);
// libCacheSim's oracleGeneral: packed little-endian records of this many bytes.
inline constexpr std::size_t kOracleRecordBytes = 24;
std::uint64_t stream_oracle_general(ByteSource& in, const ReadOptions& options, AccessSink& sink);
std::uint64_t stream_din(LineReader& in, const ReadOptions& options, AccessSink& sink);
std::uint64_t stream_pinatrace(LineReader& in, const ReadOptions& options, AccessSink& sink);

// One line of each of these formats, parsed by its reader and by the format detection alike:
// "" if `line` is one (and `out` is set), else what was expected instead, for the message.
struct DinLine {
  std::uint64_t label;  // 0 read, 1 write, 2 instruction fetch, 3 other access, 4 cache flush
  std::uint64_t address;
  bool more;  // a field follows the address (a size, a comment)
};
std::string parse_din_line(std::string_view line, DinLine& out);
struct PinatraceLine {
  bool write;
  std::uint64_t address;
};
std::string parse_pinatrace_line(std::string_view line, PinatraceLine& out);

// Block I/O traces (block_trace.cpp): SPC (the UMass Trace Repository's), MSR Cambridge and
// Alibaba's.
std::uint64_t stream_spc(LineReader& in, const ReadOptions& options, AccessSink& sink);
std::uint64_t stream_msr(LineReader& in, const ReadOptions& options, AccessSink& sink);
std::uint64_t stream_alibaba(LineReader& in, const ReadOptions& options, AccessSink& sink);
// One request: `size` bytes at byte `offset` of disk `disk`.
struct BlockRequest {
  std::uint64_t disk;
  std::uint64_t offset;
  std::uint64_t size;
  bool write;
};
// As parse_din_line; `fields` is scratch space; an MSR line's host goes to `host`.
std::string parse_spc_line(std::string_view line, std::vector<std::string_view>& fields,
                           BlockRequest& out);
std::string parse_msr_line(std::string_view line, std::vector<std::string_view>& fields,
                           BlockRequest& out, std::string_view& host);
std::string parse_alibaba_line(std::string_view line, std::vector<std::string_view>& fields,
                               BlockRequest& out);

// CSV fields (csv_trace.cpp): `s` without the blanks and tabs around it and one pair of double
// quotes; ASCII case-insensitive equality; `line` split at commas into `out`, trimmed, and
// their count.
std::string_view trim(std::string_view s);
bool iequals(std::string_view a, std::string_view b);
std::size_t split(std::string_view line, std::vector<std::string_view>& out);

// Whether `line` holds nothing but blanks and tabs.
inline bool is_blank(std::string_view line) { return next_field(line).empty(); }

std::uint32_t page_shift(std::uint32_t page_size);

// "empty file: " if `reader` has read no line, to begin the message for input without accesses.
inline std::string if_empty(const LineReader& reader) {
  return reader.line_number() == 0 ? "empty file: " : "";
}

// Whether a native trace can be mapped: `source`, opened on `path`, is not compressed and
// `path` is a regular file (not a pipe, which could not be opened a second time either).
bool mappable(const ByteSource& source, const std::string& path);

// A native trace that cannot be mapped (compressed, or a pipe): reads the rest of `source`
// after `bytes` (what was already read from it), up to one byte past the size its header
// gives, and parses that, the Trace's columns pointing into the bytes read.
Trace parse_native_decompressed(ByteSource& source, std::string bytes, const std::string& name);

// Throws ConfigError if `t` has no accesses: no format can hold such a trace (its readers
// reject an empty file), so writing one would make a file that cannot be read back.
void refuse_empty(const Trace& t, const std::string& path);

// A trace file written whole or not at all. The bytes go to a temporary file next to `path`
// that commit() renames over it, so until then an existing file is untouched (a Trace that
// maps it keeps its pages, and an input converted onto itself is read to the end); if the
// writer throws or is destroyed first, the temporary file is removed. A symbolic link is
// followed (the link stays); a path that exists and is not a regular file (a pipe,
// /dev/stdout) is written in place.
class OutputFile {
 public:
  explicit OutputFile(const std::string& path);
  ~OutputFile();
  OutputFile(const OutputFile&) = delete;
  OutputFile& operator=(const OutputFile&) = delete;

  std::FILE* get() const { return f_; }
  // Written in place: the path is a pipe, a device or the like, which may not seek.
  bool in_place() const { return temp_.empty(); }
  void commit();
  // Throws ConfigError naming the path and errno's reason.
  [[noreturn]] void fail() const;

 private:
  std::string path_;
  std::string target_;  // what the temporary file becomes; empty when written in place
  std::string temp_;
  std::FILE* f_ = nullptr;
};

// `s` in quotes for a message, at most 40 bytes of it; bytes that are not printable ASCII
// (a NUL, a byte of a binary file) as \xNN, so the message stays one line of valid UTF-8.
std::string quoted(std::string_view s);
// quoted(s), or "nothing" for a field that is missing.
inline std::string quoted_or_nothing(std::string_view s) {
  return s.empty() ? "nothing" : quoted(s);
}
// The error for a last line without its newline, which a tool stopped mid-write leaves:
// its last field, `field`, may be cut short. `what` is "trace" or "log", `writer` who stopped.
inline std::string cut_last_line(std::string_view line, const std::string& what,
                                 const std::string& writer, const std::string& field) {
  return "expected a newline at the end of the last line: the " + what + " ends in the middle of " +
         quoted(line) + " (" + writer + " stopped?); its " + field +
         " may be cut short: end the line if it is whole, else remove it";
}

}  // namespace pagesim::detail
