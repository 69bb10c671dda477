#include "pagesim/trace_io.hpp"

#include <sys/stat.h>
#include <unistd.h>

#include <algorithm>
#include <cerrno>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <memory>
#include <vector>

#include "pagesim/error.hpp"
#include "readers.hpp"

namespace pagesim {
namespace {

std::string lower(std::string_view s) {
  std::string out(s);
  for (char& c : out) {
    if (c >= 'A' && c <= 'Z') c = static_cast<char>(c - 'A' + 'a');
  }
  return out;
}

bool ends_with(std::string_view s, std::string_view suffix) {
  return s.size() >= suffix.size() && s.compare(s.size() - suffix.size(), suffix.size(), suffix) == 0;
}

// The file's name without its directory, lower case.
std::string file_name(const std::string& path) {
  return lower(path.substr(path.find_last_of('/') + 1));
}

// The block I/O trace formats (block_trace.cpp): read, not written; their disks are the pids.
bool is_block_trace(TraceFormat format) {
  return format == TraceFormat::kSpc || format == TraceFormat::kMsr ||
         format == TraceFormat::kAlibaba;
}

// Whether the file's name says oracleGeneral, as libCacheSim's traceConv names its output.
bool names_oracle_general(const std::string& name) {
  return name.find("oraclegeneral") != std::string::npos;
}

}  // namespace

TraceFormat format_by_extension(const std::string& path) {
  std::string name = file_name(path);
  for (const char* z : {".gz", ".zst", ".zstd"}) {
    if (ends_with(name, z)) name.resize(name.size() - std::strlen(z));
  }
  if (ends_with(name, ".pgt")) return TraceFormat::kNative;
  if (ends_with(name, ".csv")) return TraceFormat::kCsv;
  if (ends_with(name, ".lackey")) return TraceFormat::kLackey;
  if (ends_with(name, ".din")) return TraceFormat::kDin;
  if (ends_with(name, ".spc")) return TraceFormat::kSpc;
  // An extension wins over a tool's name in the file's: libCacheSim's traceConv --output-txt
  // writes NAME.oracleGeneral.txt, text; Pin's pinatrace writes pinatrace.out, and a
  // conversion of it may keep the name with another extension.
  if (ends_with(name, ".txt") || ends_with(name, ".trace")) return TraceFormat::kText;
  if (ends_with(name, ".ogb") || names_oracle_general(name)) return TraceFormat::kOracleGeneral;
  if (name.find("pinatrace") != std::string::npos) return TraceFormat::kPinatrace;
  return TraceFormat::kAuto;
}

namespace {

constexpr std::string_view kNativeMagic = "PGSIMTRC";

// The format the first bytes of a file imply; kAuto for binary data of an unknown kind.
TraceFormat sniff(std::string_view head) {
  if (head.substr(0, kNativeMagic.size()) == kNativeMagic) return TraceFormat::kNative;
  if (head.substr(0, 3) == "\xef\xbb\xbf") head.remove_prefix(3);  // a UTF-8 byte-order mark
  // Binary data has NULs and other control bytes within 4 KiB; text may hold UTF-8 in its
  // comments and in valgrind's banner lines (==PID== Command: with the program's arguments).
  for (char c : head) {
    const auto u = static_cast<unsigned char>(c);
    if (u < 0x20 && c != '\n' && c != '\r' && c != '\t') return TraceFormat::kAuto;
  }
  const auto ascii = [](std::string_view line) {
    return std::all_of(line.begin(), line.end(),
                       [](char c) { return static_cast<unsigned char>(c) < 0x80; });
  };
  std::size_t start = 0;
  while (start < head.size()) {
    std::size_t end = head.find('\n', start);
    if (end == std::string_view::npos) end = head.size();
    std::string_view line = head.substr(start, end - start);
    start = end + 1;
    while (!line.empty() && (line.back() == '\r' || line.back() == ' ')) line.remove_suffix(1);
    if (line.empty() || line[0] == '#') continue;
    const std::string_view mark = line.substr(0, 2);
    if (mark == "==" || mark == "--" || mark == "**" || mark == "++" ||
        line.substr(0, 3) == "I  " || line.substr(0, 3) == " L " || line.substr(0, 3) == " S " ||
        line.substr(0, 3) == " M ") {
      return TraceFormat::kLackey;
    }
    if (!ascii(line)) return TraceFormat::kAuto;
    // A text line's op (R or W) is no hexadecimal digit, so no text line is a din or a
    // pinatrace line.
    detail::PinatraceLine pin{};
    if (detail::parse_pinatrace_line(line, pin).empty()) return TraceFormat::kPinatrace;
    detail::DinLine din{};
    if (detail::parse_din_line(line, din).empty()) return TraceFormat::kDin;
    // A CSV file's first line is its header, of names: no block trace's record.
    std::vector<std::string_view> fields;
    detail::BlockRequest request{};
    if (detail::parse_spc_line(line, fields, request).empty()) return TraceFormat::kSpc;
    std::string_view host;
    if (detail::parse_msr_line(line, fields, request, host).empty()) return TraceFormat::kMsr;
    if (detail::parse_alibaba_line(line, fields, request).empty()) return TraceFormat::kAlibaba;
    return line.find(',') != std::string_view::npos ? TraceFormat::kCsv : TraceFormat::kText;
  }
  return TraceFormat::kText;
}

std::string head_of(ByteSource& source) {
  std::string head(4096, '\0');
  std::size_t got = 0;
  source.read_exact(head.data(), head.size(), got);
  head.resize(got);
  return head;
}

[[noreturn]] void unknown(const std::string& name) {
  throw TraceFormatError(
      name, TraceFormatError::ByteOffset{0},
      "cannot tell the trace format: expected a pagesim native trace, text, CSV, "
      "lackey, din, pinatrace, SPC, MSR Cambridge or Alibaba; name the format (format='oracle' for "
      "libCacheSim oracleGeneral)");
}

std::uint64_t stream_from(std::unique_ptr<ByteSource> source, TraceFormat format, const ReadOptions& options,
                          AccessSink& sink) {
  switch (format) {
    case TraceFormat::kOracleGeneral:
      return detail::stream_oracle_general(*source, options, sink);
    case TraceFormat::kText:
    case TraceFormat::kLackey:
    case TraceFormat::kCsv:
    case TraceFormat::kDin:
    case TraceFormat::kPinatrace:
    case TraceFormat::kSpc:
    case TraceFormat::kMsr:
    case TraceFormat::kAlibaba: {
      LineReader reader = LineReader::from_source(std::move(source));
      if (format == TraceFormat::kText) return detail::stream_text(reader, options, sink);
      if (format == TraceFormat::kSpc) return detail::stream_spc(reader, options, sink);
      if (format == TraceFormat::kMsr) return detail::stream_msr(reader, options, sink);
      if (format == TraceFormat::kAlibaba) return detail::stream_alibaba(reader, options, sink);
      if (format == TraceFormat::kLackey) return detail::stream_lackey(reader, options, sink);
      if (format == TraceFormat::kDin) return detail::stream_din(reader, options, sink);
      if (format == TraceFormat::kPinatrace) return detail::stream_pinatrace(reader, options, sink);
      return detail::stream_csv(reader, options, sink);
    }
    case TraceFormat::kNative:
    case TraceFormat::kAuto:
      break;
  }
  throw ConfigError("the native format is not read by streaming; use read_trace");
}

// Page p's byte address, for a trace written to `path` in a format of addresses.
std::uint64_t byte_address(const Trace& t, PageId p, const std::string& path) {
  const std::uint32_t shift = detail::page_shift(t.page_size());
  if (t.page_vpn(p) > (UINT64_MAX >> shift)) {
    throw ConfigError("cannot write '" + path + "': page " + t.describe_page(p) +
                      " has no byte address with " + std::to_string(t.page_size()) +
                      "-byte pages; write the trace as native or CSV");
  }
  return t.page_vpn(p) << shift;
}

}  // namespace

TraceFormat parse_format(std::string_view name) {
  const std::string n = lower(name);
  if (n == "auto") return TraceFormat::kAuto;
  if (n == "text" || n == "txt") return TraceFormat::kText;
  if (n == "native" || n == "pgt") return TraceFormat::kNative;
  if (n == "lackey") return TraceFormat::kLackey;
  if (n == "csv") return TraceFormat::kCsv;
  if (n == "oracle" || n == "oraclegeneral") return TraceFormat::kOracleGeneral;
  if (n == "din") return TraceFormat::kDin;
  if (n == "pinatrace") return TraceFormat::kPinatrace;
  if (n == "spc") return TraceFormat::kSpc;
  if (n == "msr") return TraceFormat::kMsr;
  if (n == "alibaba") return TraceFormat::kAlibaba;
  throw ConfigError(
      "trace format '" + std::string(name) +
      "' is not known: allowed auto, text, native, lackey, csv, oracle, din, pinatrace, spc, msr, "
      "alibaba");
}

const char* format_name(TraceFormat format) {
  switch (format) {
    case TraceFormat::kAuto: return "auto";
    case TraceFormat::kText: return "text";
    case TraceFormat::kNative: return "native";
    case TraceFormat::kLackey: return "lackey";
    case TraceFormat::kCsv: return "csv";
    case TraceFormat::kOracleGeneral: return "oracle";
    case TraceFormat::kDin:
      return "din";
    case TraceFormat::kPinatrace:
      return "pinatrace";
    case TraceFormat::kSpc:
      return "spc";
    case TraceFormat::kMsr:
      return "msr";
    case TraceFormat::kAlibaba:
      return "alibaba";
  }
  return "?";
}

namespace {

struct OpenedTrace {
  TraceFormat format;
  std::unique_ptr<ByteSource> source;  // from the first byte
  // When the file's name chose the format: its first 4 KiB, for the note on an error
  // (stream_opened); else empty.
  std::string named_head;
  // A text file's name that also names oracleGeneral (NAME.oracleGeneral.txt): binary records
  // in it are worth a note.
  bool named_oracle = false;
};

// Opens `path` once (a pipe cannot be opened twice) and settles its format: `format`, or for
// kAuto the one its first bytes and name imply; the source yields those bytes again.
OpenedTrace open_trace(const std::string& path, TraceFormat format) {
  auto source = open_source(path);
  std::string head = head_of(*source);
  std::string named_head;
  if (format == TraceFormat::kAuto) {
    if (head.substr(0, kNativeMagic.size()) == kNativeMagic) format = TraceFormat::kNative;
    if (format == TraceFormat::kAuto) {
      format = format_by_extension(path);
      if (format != TraceFormat::kAuto) named_head = head;
      // MSR Cambridge's and Alibaba's files are named .csv, without a header: a first line
      // that is a record of theirs is no CSV header.
      if (format == TraceFormat::kCsv) {
        const TraceFormat content = sniff(head);
        if (content == TraceFormat::kMsr || content == TraceFormat::kAlibaba) format = content;
      }
    }
    if (format == TraceFormat::kAuto) format = sniff(head);
    if (format == TraceFormat::kAuto) unknown(path);
  }
  const bool named_oracle =
      !named_head.empty() && format == TraceFormat::kText && names_oracle_general(file_name(path));
  return {format, with_head(std::move(head), std::move(source)), std::move(named_head),
          named_oracle};
}

// Refuses a read option that `format` does not read, which would otherwise be ignored.
void check_options(TraceFormat format, const ReadOptions& options, const std::string& name) {
  const auto refuse = [&](const std::string& option, const std::string& applies) {
    throw ConfigError(
        "parameter '" + option + "' does not apply to '" + name + "', a " +
        (format == TraceFormat::kOracleGeneral ? "oracleGeneral" : format_name(format)) +
        " trace: " + applies);
  };
  const bool native = format == TraceFormat::kNative;
  if (native && options.page_size != 0)
    refuse("page_size", "a native trace records its own page size");
  if (native && options.pid) refuse("pid", "a native trace records its pids");
  if (is_block_trace(format) && options.pid) refuse("pid", "its disks are its pids");
  if (options.page_numbers && format != TraceFormat::kText)
    refuse("page_numbers", "it applies to text traces only");
  if (options.instructions && format != TraceFormat::kLackey && format != TraceFormat::kDin)
    refuse("instructions", "it applies to lackey and din traces only");
}

// open_trace, then check_options.
OpenedTrace open_trace(const std::string& path, const ReadOptions& options) {
  OpenedTrace opened = open_trace(path, options.format);
  check_options(opened.format, options, path);
  return opened;
}

// Whether `lines` read as a trace of `format` without error.
bool reads_as(std::string_view lines, TraceFormat format, const ReadOptions& options) {
  struct Discard final : AccessSink {
    void add(std::uint64_t, std::uint64_t, bool, PageKind) override {}
  } discard;
  try {
    stream_from(memory_source(lines, ""), format, options, discard);
    return true;
  } catch (const Error&) {
    return false;
  }
}

// `e`, a format error in a trace whose file's name chose the format, with a note when its
// first lines read as another: a file named pinatrace.out that holds text is read as
// pinatrace, which the error alone would not tell.
// A binary head in a file whose name also names oracleGeneral gets a note when its whole
// records read as oracleGeneral.
TraceFormatError noted_by_content(const TraceFormatError& e, TraceFormat named,
                                  const std::string& head, bool named_oracle,
                                  const ReadOptions& options) {
  if (head.empty()) return e;
  TraceFormat suggested = sniff(head);
  std::string_view whole = std::string_view(head).substr(0, head.rfind('\n') + 1);
  std::string what = "lines";
  if (suggested == TraceFormat::kAuto && named_oracle) {
    suggested = TraceFormat::kOracleGeneral;
    whole =
        std::string_view(head).substr(0, head.size() - head.size() % detail::kOracleRecordBytes);
    what = "bytes";
  }
  if (suggested == TraceFormat::kAuto || suggested == named || whole.empty() ||
      !reads_as(whole, suggested, options))
    return e;
  const std::string content = format_name(suggested);
  return e.noted("(read as " + std::string(format_name(named)) +
                 " because of the file's name; its first " + what + " read as " + content +
                 ": name the format, " + content + ", to read it as that)");
}

// stream_from on an opened trace; noted_by_content on its errors.
std::uint64_t stream_opened(OpenedTrace opened, const ReadOptions& options, AccessSink& sink) {
  const std::string head = std::move(opened.named_head);
  try {
    return stream_from(std::move(opened.source), opened.format, options, sink);
  } catch (const TraceFormatError& e) {
    throw noted_by_content(e, opened.format, head, opened.named_oracle, options);
  }
}

// A native trace: mapped by read_native if it can be, else read from the source already open;
// noted_by_content on its errors.
Trace native_from(OpenedTrace opened, const std::string& path, const ReadOptions& options) {
  const std::string head = std::move(opened.named_head);
  try {
    if (!detail::mappable(*opened.source, path))
      return detail::parse_native_decompressed(*opened.source, std::string(), path);
    opened.source.reset();
    return read_native(path);
  } catch (const TraceFormatError& e) {
    throw noted_by_content(e, TraceFormat::kNative, head, false, options);
  }
}

}  // namespace

TraceFormat detect_format(const std::string& path) {
  return open_trace(path, TraceFormat::kAuto).format;
}

std::uint64_t stream_trace(const std::string& path, const ReadOptions& options, AccessSink& sink) {
  OpenedTrace opened = open_trace(path, options);
  if (opened.format == TraceFormat::kNative) {
    const Trace t = native_from(std::move(opened), path, options);
    sink.set_page_size(t.page_size());
    for (std::size_t i = 0; i < t.size(); ++i) {
      const PageId p = t.page(i);
      sink.add(t.proc_pid(t.page_proc(p)), t.page_vpn(p), t.write(i), t.page_kind(p));
    }
    return t.size();
  }
  return stream_opened(std::move(opened), options, sink);
}

Trace read_trace(const std::string& path, const ReadOptions& options, TraceFormat* format_read) {
  detail::page_shift(options.page_size_or_default());
  OpenedTrace opened = open_trace(path, options);
  if (format_read) *format_read = opened.format;
  if (opened.format == TraceFormat::kNative) return native_from(std::move(opened), path, options);
  BuilderSink sink(options.page_size_or_default(), path);
  stream_opened(std::move(opened), options, sink);
  return std::move(sink).build();
}

Trace parse_trace(std::string_view data, const ReadOptions& options, const std::string& name) {
  detail::page_shift(options.page_size_or_default());
  TraceFormat format = options.format;
  if (format == TraceFormat::kAuto || format == TraceFormat::kNative) {
    auto source = memory_source(data, name);
    std::string head = head_of(*source);
    if (format == TraceFormat::kAuto) format = sniff(head);
    if (format == TraceFormat::kAuto) unknown(name);
    if (format == TraceFormat::kNative) {
      check_options(format, options, name);
      if (std::string_view(source->compression()) == "none") return parse_native(data.data(), data.size(), name);
      return detail::parse_native_decompressed(*source, std::move(head), name);
    }
  }
  check_options(format, options, name);
  BuilderSink sink(options.page_size_or_default(), name);
  stream_from(memory_source(data, name), format, options, sink);
  return std::move(sink).build();
}

void write_text(const Trace& t, const std::string& path) {
  detail::refuse_empty(t, path);
  detail::OutputFile out(path);
  std::FILE* f = out.get();
  std::fprintf(f, "# pagesim trace: pid op address (%u-byte pages)\n", t.page_size());
  for (std::size_t i = 0; i < t.size(); ++i) {
    const PageId p = t.page(i);
    std::fprintf(f, "%llu %c 0x%llx\n", static_cast<unsigned long long>(t.proc_pid(t.page_proc(p))),
                 t.write(i) ? 'W' : 'R', static_cast<unsigned long long>(byte_address(t, p, path)));
  }
  out.commit();
}

void write_csv(const Trace& t, const std::string& path) {
  detail::refuse_empty(t, path);
  detail::OutputFile out(path);
  std::FILE* f = out.get();
  std::fputs("pid,op,page,kind\n", f);
  for (std::size_t i = 0; i < t.size(); ++i) {
    const PageId p = t.page(i);
    std::fprintf(f, "%llu,%c,%llu,%s\n", static_cast<unsigned long long>(t.proc_pid(t.page_proc(p))),
                 t.write(i) ? 'W' : 'R', static_cast<unsigned long long>(t.page_vpn(p)),
                 t.page_kind(p) == PageKind::kFile ? "file" : "anon");
  }
  out.commit();
}

void write_lackey(const Trace& t, const std::string& path) {
  detail::refuse_empty(t, path);
  detail::OutputFile out(path);
  std::FILE* f = out.get();
  std::uint64_t pid = ~std::uint64_t{0};
  for (std::size_t i = 0; i < t.size(); ++i) {
    const PageId p = t.page(i);
    const std::uint64_t this_pid = t.proc_pid(t.page_proc(p));
    if (this_pid != pid) {
      std::fprintf(f, "==%llu== pagesim trace\n", static_cast<unsigned long long>(this_pid));
      pid = this_pid;
    }
    std::fprintf(f, " %c %08llx,1\n", t.write(i) ? 'S' : 'L',
                 static_cast<unsigned long long>(byte_address(t, p, path)));
  }
  out.commit();
}

void write_din(const Trace& t, const std::string& path) {
  detail::refuse_empty(t, path);
  detail::OutputFile out(path);
  for (std::size_t i = 0; i < t.size(); ++i) {
    std::fprintf(out.get(), "%d %llx\n", t.write(i) ? 1 : 0,
                 static_cast<unsigned long long>(byte_address(t, t.page(i), path)));
  }
  out.commit();
}

void write_pinatrace(const Trace& t, const std::string& path) {
  detail::refuse_empty(t, path);
  detail::OutputFile out(path);
  for (std::size_t i = 0; i < t.size(); ++i) {
    std::fprintf(out.get(), "0x0: %c 0x%llx\n", t.write(i) ? 'W' : 'R',
                 static_cast<unsigned long long>(byte_address(t, t.page(i), path)));
  }
  std::fputs("#eof\n", out.get());
  out.commit();
}

void write_oracle_general(const Trace& t, const std::string& path) {
  detail::refuse_empty(t, path);
  // obj_id: the page number when the trace has one process; with several, pid << 40 | vpn so
  // that pages of different processes stay distinct objects.
  const bool multi = t.num_procs() > 1;
  std::vector<std::uint64_t> obj(t.num_pages());
  for (PageId p = 0; p < t.num_pages(); ++p) {
    const std::uint64_t pid = t.proc_pid(t.page_proc(p));
    if (multi && (t.page_vpn(p) >= (std::uint64_t{1} << 40) || pid >= (std::uint64_t{1} << 24))) {
      throw ConfigError("page " + t.describe_page(p) +
                        " does not fit the oracleGeneral object id pid<<40|vpn (vpn below 2^40, pid below 2^24)");
    }
    obj[p] = multi ? (pid << 40 | t.page_vpn(p)) : t.page_vpn(p);
  }
  // next_access_vtime as libCacheSim's traceConvOracleGeneral writes it: the reference count
  // (from 1) of the next request for the object, that is its index + 1; -1 if none.
  std::vector<std::int64_t> next(t.size());
  {
    std::vector<std::int64_t> seen(t.num_pages(), -1);
    for (std::size_t i = t.size(); i-- > 0;) {
      next[i] = seen[t.page(i)];
      seen[t.page(i)] = static_cast<std::int64_t>(i) + 1;
    }
  }
  detail::OutputFile out(path);
  char rec[24];
  for (std::size_t i = 0; i < t.size(); ++i) {
    const auto clock = static_cast<std::uint32_t>(std::min<std::size_t>(i, UINT32_MAX));
    const std::uint32_t size = t.page_size();
    std::memcpy(rec, &clock, 4);
    std::memcpy(rec + 4, &obj[t.page(i)], 8);
    std::memcpy(rec + 12, &size, 4);
    std::memcpy(rec + 16, &next[i], 8);
    std::fwrite(rec, 1, sizeof rec, out.get());
  }
  out.commit();
}

void refuse_compressed_output(const std::string& path) {
  const std::string name = lower(path);
  if (ends_with(name, ".gz") || ends_with(name, ".zst") || ends_with(name, ".zstd")) {
    throw ConfigError("cannot write '" + path +
                      "': pagesim reads compressed traces but writes them "
                      "uncompressed; write a name without the compression suffix and compress the "
                      "file afterwards");
  }
}

std::string lost_in(const Trace& t, TraceFormat format) {
  const bool keeps_writes = format != TraceFormat::kOracleGeneral;
  // These read every access as one process, pid 1 unless told otherwise.
  const bool has_pids = format != TraceFormat::kOracleGeneral && format != TraceFormat::kDin &&
                        format != TraceFormat::kPinatrace;
  const bool keeps_pids = has_pids || (t.num_procs() == 1 && t.proc_pid(0) == 1);
  const bool keeps_kinds = format == TraceFormat::kNative || format == TraceFormat::kCsv;
  const bool keeps_page_size = format == TraceFormat::kNative || format == TraceFormat::kText;
  std::vector<std::string> lost;
  if (const std::uint64_t writes = keeps_writes ? 0 : t.count_writes()) {
    lost.push_back("its " + std::to_string(writes) + " writes become reads");
  }
  if (!keeps_pids) {
    lost.push_back(
        t.num_procs() == 1
            ? "its pid " + std::to_string(t.proc_pid(0)) +
                  " becomes pid 1 (read it back with pid=" + std::to_string(t.proc_pid(0)) + ")"
            : "its " + std::to_string(t.num_procs()) + " processes become one, pid 1, " +
                  (format == TraceFormat::kOracleGeneral
                       ? "whose pages are pid << 40 | vpn"
                       : "in which pages of different processes at one address are one page"));
  }
  std::uint64_t file_pages = 0;
  for (PageId p = 0; p < t.num_pages() && !keeps_kinds; ++p)
    file_pages += t.page_kind(p) == PageKind::kFile;
  if (file_pages != 0)
    lost.push_back("its " + std::to_string(file_pages) + " file-backed pages become anonymous");
  if (!keeps_page_size && t.page_size() != kDefaultPageSize) {
    lost.push_back("its page size, " + std::to_string(t.page_size()) +
                   " bytes, is not recorded (read it back with page_size=" +
                   std::to_string(t.page_size()) + ")");
  }
  if (lost.empty()) return "";
  std::string note =
      std::string(format == TraceFormat::kOracleGeneral ? "oracleGeneral" : format_name(format)) +
      " does not keep all of this trace: ";
  for (std::size_t k = 0; k < lost.size(); ++k) note += (k ? "; " : "") + lost[k];
  return note;
}

TraceFormat output_format(const std::string& path, TraceFormat format) {
  refuse_compressed_output(path);
  if (format == TraceFormat::kAuto) format = format_by_extension(path);
  if (format == TraceFormat::kAuto) format = TraceFormat::kNative;
  if (is_block_trace(format)) {
    throw ConfigError("cannot write '" + path + "' as " + format_name(format) +
                      ": pagesim reads block I/O traces but does not write them; write native, "
                      "text or CSV");
  }
  return format;
}

std::string write_trace(const Trace& trace, const std::string& path, TraceFormat format) {
  format = output_format(path, format);
  switch (format) {
    case TraceFormat::kSpc:
    case TraceFormat::kMsr:
    case TraceFormat::kAlibaba:
      break;  // refused above
    case TraceFormat::kText:
      write_text(trace, path);
      break;
    case TraceFormat::kLackey:
      write_lackey(trace, path);
      break;
    case TraceFormat::kCsv:
      write_csv(trace, path);
      break;
    case TraceFormat::kOracleGeneral:
      write_oracle_general(trace, path);
      break;
    case TraceFormat::kDin:
      write_din(trace, path);
      break;
    case TraceFormat::kPinatrace:
      write_pinatrace(trace, path);
      break;
    case TraceFormat::kNative:
    case TraceFormat::kAuto:
      write_native(trace, path);
      break;
  }
  return lost_in(trace, format);
}

std::string convert_trace(const std::string& in, const std::string& out, const ReadOptions& options,
                          TraceFormat out_format) {
  detail::page_shift(options.page_size_or_default());
  out_format = output_format(out, out_format);  // before the reading, which may take long
  OpenedTrace opened = open_trace(in, options);
  if (opened.format == TraceFormat::kNative)
    return write_trace(native_from(std::move(opened), in, options), out, out_format);
  if (out_format == TraceFormat::kNative) {
    NativeWriter writer(out, options.page_size_or_default(), in);
    stream_opened(std::move(opened), options, writer);
    writer.finish();
    return "";  // native keeps everything
  }
  BuilderSink sink(options.page_size_or_default(), in);
  stream_opened(std::move(opened), options, sink);
  return write_trace(std::move(sink).build(), out, out_format);
}

namespace detail {

void refuse_empty(const Trace& t, const std::string& path) {
  if (t.size() == 0)
    throw ConfigError("cannot write '" + path +
                      "': the trace has no accesses, and a trace file needs one");
}

OutputFile::OutputFile(const std::string& path) : path_(path) {
  refuse_compressed_output(path);  // every writer comes here, whatever format it was asked for
  struct stat st {};
  if (::stat(path.c_str(), &st) == 0 && !S_ISREG(st.st_mode)) {
    f_ = std::fopen(path.c_str(), "wb");  // a pipe or a device: nothing to replace
  } else {
    char* resolved = ::realpath(path.c_str(), nullptr);  // an existing file, through its links
    target_ = resolved ? resolved : path;
    std::free(resolved);
    const std::size_t slash = target_.find_last_of('/');
    const std::size_t name_at = slash == std::string::npos ? 0 : slash + 1;
    temp_ = target_.substr(0, name_at) + "." + target_.substr(name_at) + ".pagesim-XXXXXX";
    const int fd = ::mkstemp(temp_.data());
    if (fd < 0) fail();
    const mode_t mask = ::umask(0);  // the mode a plain fopen would have given
    ::umask(mask);
    ::fchmod(fd, 0666 & ~mask);
    f_ = ::fdopen(fd, "wb");
    if (!f_) ::close(fd);
  }
  if (!f_) {
    if (!temp_.empty()) ::unlink(temp_.c_str());
    fail();
  }
  std::setvbuf(f_, nullptr, _IOFBF, 1 << 20);
}

OutputFile::~OutputFile() {
  if (f_) std::fclose(f_);
  if (!temp_.empty()) ::unlink(temp_.c_str());
}

void OutputFile::commit() {
  std::FILE* f = f_;
  f_ = nullptr;
  const bool error = std::ferror(f) != 0;
  if (std::fclose(f) != 0 || error) fail();
  if (!temp_.empty()) {
    if (std::rename(temp_.c_str(), target_.c_str()) != 0) fail();
    temp_.clear();
  }
}

void OutputFile::fail() const {
  throw ConfigError("cannot write '" + path_ + "': " + std::strerror(errno));
}

}  // namespace detail
}  // namespace pagesim
