#pragma once

#include <cstdint>
#include <memory>
#include <optional>
#include <string>
#include <string_view>

#include "pagesim/trace.hpp"
#include "pagesim/types.hpp"

namespace pagesim {

// Where a streaming reader delivers accesses, in trace order.
class AccessSink {
 public:
  virtual ~AccessSink() = default;
  virtual void add(std::uint64_t pid, std::uint64_t vpn, bool write, PageKind kind) = 0;
  // The page size the input records (a pagesim text trace's first line, a native header),
  // before the first add.
  virtual void set_page_size(std::uint32_t /*page_size*/) {}
};

// Collects accesses into a Trace.
class BuilderSink final : public AccessSink {
 public:
  explicit BuilderSink(std::uint32_t page_size = 4096, std::string source = "")
      : builder_(page_size, source), source_(std::move(source)) {}
  void add(std::uint64_t pid, std::uint64_t vpn, bool write, PageKind kind) override {
    builder_.add(pid, vpn, write, kind);
  }
  void set_page_size(std::uint32_t page_size) override {
    builder_ = TraceBuilder(page_size, source_);
  }
  std::size_t size() const { return builder_.size(); }
  Trace build() && { return std::move(builder_).build(); }

 private:
  TraceBuilder builder_;
  std::string source_;
};

// The trace file formats; traces/FORMAT.md describes each.
enum class TraceFormat {
  kAuto,
  kText,
  kNative,
  kLackey,
  kCsv,
  kOracleGeneral,
  kDin,
  kPinatrace,
  kSpc,
  kMsr,
  kAlibaba
};

// "auto", "text", "native" (or "pgt"), "lackey", "csv", "oracle" (or "oracleGeneral"), "din",
// "pinatrace", "spc", "msr", "alibaba"; a ConfigError listing them otherwise.
TraceFormat parse_format(std::string_view name);
const char* format_name(TraceFormat format);
// The format a file name implies (after a .gz or .zst suffix): .pgt native, .txt or .trace
// text, .csv, .lackey, .din, .spc, .ogb or a name containing "oracleGeneral", else a name
// containing "pinatrace" (Pin's pinatrace.out); kAuto for any other name. (MSR Cambridge and
// Alibaba block traces are named .csv: read_trace tells them from CSV by their first line.)
TraceFormat format_by_extension(const std::string& path);

constexpr std::uint32_t kDefaultPageSize = 4096;

struct ReadOptions {
  TraceFormat format = TraceFormat::kAuto;
  // Bytes per page: byte addresses are divided by it. 0: not given: the page size a text
  // trace's first line records (pagesim's text writer writes one), else kDefaultPageSize.
  // A native trace has its own.
  std::uint32_t page_size = 0;
  // Text: the numbers are page numbers, not byte addresses.
  bool page_numbers = false;
  // Lackey and din: also count instruction fetches (lackey's I lines, din's label 2), as reads.
  bool instructions = false;
  // The pid of accesses whose input names none: text and CSV without a pid column, lackey
  // before the first ==PID== line, oracleGeneral, din and pinatrace (which have no pid). Not
  // given: 0 for text, 1 for the others. (Block traces name their disks, the pids.)
  std::optional<std::uint64_t> pid;

  std::uint32_t page_size_or_default() const {
    return page_size != 0 ? page_size : kDefaultPageSize;
  }
};

// The format of a file: the native magic number, else the file name's extension (after a .gz
// or .zst suffix), else a look at the first line. Throws TraceFormatError if it cannot tell.
TraceFormat detect_format(const std::string& path);

// Reads any format (options.format, or detected). The file is opened once, so it may be a
// pipe (/dev/stdin, <(zcat t.gz)). Throws TraceFormatError naming the file, the line or byte
// offset, and what was expected. If `format_read` is given, it is set to the format read (what
// detect_format would say, without opening the file again).
Trace read_trace(const std::string& path, const ReadOptions& options = {},
                 TraceFormat* format_read = nullptr);
// The same from bytes in memory (tests, fuzzers); `data` may be compressed.
Trace parse_trace(std::string_view data, const ReadOptions& options, const std::string& name = "<string>");

// Streams the accesses of a file in a streaming format (every format but native)
// into `sink` in bounded memory; returns the number of accesses. Throws TraceFormatError for a
// file with none.
std::uint64_t stream_trace(const std::string& path, const ReadOptions& options, AccessSink& sink);

// Writes `trace` as `format` (kAuto: by the file name's extension; native if unknown). The
// file is written whole or not at all: into a temporary file that then replaces `path`, so
// that a failed write leaves an existing file as it was, and a Trace mapped from it
// (read_native) stays valid, even when it is the trace being written. A name ending in .gz,
// .zst or .zstd is refused whatever the format: pagesim writes no compressed files. Returns
// what the format did not keep of this trace, as lost_in() says ("" if nothing), for the
// caller to pass on.
std::string write_trace(const Trace& trace, const std::string& path,
                        TraceFormat format = TraceFormat::kAuto);

// What writing `trace` as `format` (not kAuto) loses of it: its writes, pids, page kinds or
// page size where the format keeps none (traces/FORMAT.md has the table), e.g. "oracleGeneral
// does not keep all of this trace: its 3 writes become reads"; "" if the file keeps all of it.
std::string lost_in(const Trace& trace, TraceFormat format);

// Throws ConfigError for an output name ending in .gz, .zst or .zstd (any case).
void refuse_compressed_output(const std::string& path);

// The format write_trace writes `path` as when asked for `format`: kAuto is the name's
// extension's (format_by_extension), else native. Throws ConfigError for a compressed name
// and for a block I/O trace format (read, never written), so that a caller can refuse an
// output before the work that makes it.
TraceFormat output_format(const std::string& path, TraceFormat format);

// Converts a trace file. The input is opened once, so it may be a pipe; the output is
// written as write_trace does, so it may even be the input. A streaming input converted to
// native never holds the input or the per-access columns in memory: memory is O(distinct
// pages). Other combinations load the trace (5 bytes an access) and write it. Returns what
// the output format did not keep (write_trace).
std::string convert_trace(const std::string& in, const std::string& out, const ReadOptions& options,
                          TraceFormat out_format = TraceFormat::kAuto);

// ---- individual formats -----------------------------------------------------------------

// Native (.pgt). read_native maps the file and the Trace's columns point into the mapping,
// which lives as long as the Trace or a copy of it (a compressed file is decompressed into
// memory and used the same way). Do not rewrite or truncate the file while such a Trace lives.
Trace read_native(const std::string& path);
// From bytes in memory. Without an owner the bytes are copied once (the caller's buffer
// may go away); with one, the columns point into `data`, which `owner` must keep alive and
// unchanged.
Trace parse_native(const char* data, std::size_t size, const std::string& name);
Trace parse_native(const char* data, std::size_t size, const std::string& name, std::shared_ptr<const void> owner);
void write_native(const Trace& trace, const std::string& path);

// Writes a native file from streamed accesses: the page column goes straight to the output,
// the flags column to a temporary file, per-page tables stay in memory (O(distinct pages)).
class NativeWriter final : public AccessSink {
 public:
  NativeWriter(const std::string& path, std::uint32_t page_size, std::string source);
  ~NativeWriter() override;
  NativeWriter(const NativeWriter&) = delete;
  NativeWriter& operator=(const NativeWriter&) = delete;
  void add(std::uint64_t pid, std::uint64_t vpn, bool write, PageKind kind) override;
  void set_page_size(std::uint32_t page_size) override;
  // Writes the remaining columns and the header, and puts the file in place. Without it
  // nothing is written (an existing file stays as it was).
  void finish();
  std::uint64_t size() const;

 private:
  struct Impl;
  std::unique_ptr<Impl> impl_;
};

// valgrind --tool=lackey --trace-mem=yes output.
void write_lackey(const Trace& trace, const std::string& path);
// CSV with a header line.
void write_csv(const Trace& trace, const std::string& path);
// libCacheSim oracleGeneral: 24-byte records with next_access_vtime filled in.
void write_oracle_general(const Trace& trace, const std::string& path);
// The plain text format ("PID R|W 0xADDRESS").
void write_text(const Trace& trace, const std::string& path);
// Dinero din: "0 ADDRESS" (read) or "1 ADDRESS" (write), the page's byte address in hex.
void write_din(const Trace& trace, const std::string& path);
// Pin pinatrace: "0x0: R 0xADDRESS" or "0x0: W 0xADDRESS" (no instruction address), then "#eof".
void write_pinatrace(const Trace& trace, const std::string& path);

}  // namespace pagesim
