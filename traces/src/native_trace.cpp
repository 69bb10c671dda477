// The native trace format (.pgt): a 128-byte header and 64-byte-aligned little-endian
// columns, so a reader can map the file and use the columns in place. traces/FORMAT.md is the
// specification; keep the two in step.
#include <fcntl.h>
#include <sys/mman.h>
#include <sys/stat.h>
#include <unistd.h>

#include <algorithm>
#include <cerrno>
#include <cstddef>
#include <cstdio>
#include <cstring>
#include <memory>
#include <string>
#include <vector>

#include "pagesim/byte_source.hpp"
#include "pagesim/error.hpp"
#include "pagesim/trace_io.hpp"
#include "readers.hpp"

static_assert(__BYTE_ORDER__ == __ORDER_LITTLE_ENDIAN__, "the native format is little-endian");

namespace pagesim {
namespace {

constexpr char kMagic[8] = {'P', 'G', 'S', 'I', 'M', 'T', 'R', 'C'};
constexpr std::uint32_t kVersion = 1;
constexpr std::uint64_t kHeaderSize = 128;
constexpr std::uint64_t kAlign = 64;

struct Header {
  char magic[8];
  std::uint32_t version;
  std::uint32_t header_size;
  std::uint64_t num_accesses;
  std::uint64_t num_pages;
  std::uint64_t num_procs;
  std::uint32_t page_size;
  std::uint32_t reserved0;
  std::uint64_t off_pages;      // u32 x num_accesses
  std::uint64_t off_flags;      // u8 x num_accesses
  std::uint64_t off_page_proc;  // u32 x num_pages
  std::uint64_t off_page_vpn;   // u64 x num_pages
  std::uint64_t off_page_kind;  // u8 x num_pages
  std::uint64_t off_proc_pid;   // u64 x num_procs
  std::uint64_t off_source;     // source_length bytes of UTF-8
  std::uint64_t source_length;
  std::uint64_t file_size;
};
static_assert(sizeof(Header) <= kHeaderSize);
static_assert(offsetof(Header, file_size) == 112);

std::uint64_t align(std::uint64_t x) { return (x + kAlign - 1) / kAlign * kAlign; }

// Column offsets for the given counts, in file order.
Header layout(std::uint64_t accesses, std::uint64_t pages, std::uint64_t procs, std::uint32_t page_size,
              std::uint64_t source_length) {
  Header h{};
  std::memcpy(h.magic, kMagic, sizeof kMagic);
  h.version = kVersion;
  h.header_size = static_cast<std::uint32_t>(kHeaderSize);
  h.num_accesses = accesses;
  h.num_pages = pages;
  h.num_procs = procs;
  h.page_size = page_size;
  h.off_pages = kHeaderSize;
  h.off_flags = align(h.off_pages + 4 * accesses);
  h.off_page_proc = align(h.off_flags + accesses);
  h.off_page_vpn = align(h.off_page_proc + 4 * pages);
  h.off_page_kind = align(h.off_page_vpn + 8 * pages);
  h.off_proc_pid = align(h.off_page_kind + pages);
  h.off_source = align(h.off_proc_pid + 8 * procs);
  h.source_length = source_length;
  h.file_size = h.off_source + source_length;
  return h;
}

// An OutputFile that keeps count of its position, for the column offsets.
class OutFile {
 public:
  explicit OutFile(const std::string& path) : file_(path) {}
  void write(const void* data, std::size_t n) {
    if (n != 0 && std::fwrite(data, 1, n, file_.get()) != n) file_.fail();
    pos_ += n;
  }
  void pad_to(std::uint64_t offset) {
    static const char zeros[kAlign] = {};
    while (pos_ < offset) write(zeros, static_cast<std::size_t>(std::min<std::uint64_t>(offset - pos_, kAlign)));
  }
  void seek(std::uint64_t offset) {
    if (std::fflush(file_.get()) != 0 ||
        std::fseek(file_.get(), static_cast<long>(offset), SEEK_SET) != 0)
      file_.fail();
    pos_ = offset;
  }
  void close() { file_.commit(); }
  bool in_place() const { return file_.in_place(); }

 private:
  detail::OutputFile file_;
  std::uint64_t pos_ = 0;
};

// A vector or a Column.
template <class Contiguous>
void write_column(OutFile& out, std::uint64_t offset, const Contiguous& v) {
  out.pad_to(offset);
  out.write(v.data(), v.size() * sizeof(*v.data()));
}

// `count` values of type T at `offset` in the file's bytes, which `owner` keeps alive.
template <class T>
Column<T> column_at(const char* data, std::uint64_t offset, std::uint64_t count, const std::shared_ptr<const void>& owner) {
  return Column<T>(reinterpret_cast<const T*>(data + offset), static_cast<std::size_t>(count), owner);
}

[[noreturn]] void bad(const std::string& name, std::uint64_t offset, const std::string& what) {
  throw TraceFormatError(name, TraceFormatError::ByteOffset{offset}, what);
}

// The mapping of a native file, owned by the columns of the Trace that point into it.
class Mapping {
 public:
  // MAP_POPULATE reads the file and fills the page tables now: the validation pass and the
  // first replay then take no page faults. No MADV_SEQUENTIAL: the mapping outlives the load
  // and is read again by every replay, its pages must not be dropped behind the first pass.
  Mapping(const std::string& path, int fd, std::size_t size) : size_(size) {
    if (size == 0) return;
    addr_ = ::mmap(nullptr, size, PROT_READ, MAP_PRIVATE | MAP_POPULATE, fd, 0);
    if (addr_ == MAP_FAILED) {
      addr_ = nullptr;
      throw TraceFormatError(path, 0, std::string("cannot map: ") + std::strerror(errno));
    }
  }
  ~Mapping() {
    if (addr_) ::munmap(addr_, size_);
  }
  Mapping(const Mapping&) = delete;
  Mapping& operator=(const Mapping&) = delete;
  const char* data() const { return static_cast<const char*>(addr_); }

 private:
  void* addr_ = nullptr;
  std::size_t size_;
};

}  // namespace

Trace parse_native(const char* data, std::size_t size, const std::string& name) {
  auto copy = std::make_shared<std::vector<std::uint64_t>>((size + 7) / 8);
  if (size != 0) std::memcpy(copy->data(), data, size);
  const char* bytes = reinterpret_cast<const char*>(copy->data());
  return parse_native(bytes, size, name, std::move(copy));
}

Trace parse_native(const char* data, std::size_t size, const std::string& name, std::shared_ptr<const void> owner) {
  if (reinterpret_cast<std::uintptr_t>(data) % alignof(std::uint64_t) != 0) return parse_native(data, size, name);
  if (size == 0) bad(name, 0, "empty file: expected a pagesim native trace header");
  if (size < sizeof kMagic || std::memcmp(data, kMagic, sizeof kMagic) != 0) {
    bad(name, 0, "wrong magic number: expected 'PGSIMTRC' (a pagesim native trace)");
  }
  if (size < kHeaderSize) {
    bad(name, size, "truncated header: expected " + std::to_string(kHeaderSize) + " bytes, file has " + std::to_string(size));
  }
  Header h;
  std::memcpy(&h, data, sizeof h);
  if (h.version != kVersion) {
    bad(name, offsetof(Header, version),
        "unsupported version " + std::to_string(h.version) + ": expected " + std::to_string(kVersion));
  }
  if (h.header_size != kHeaderSize) {
    bad(name, offsetof(Header, header_size), "header size " + std::to_string(h.header_size) + ": expected 128");
  }
  if (h.reserved0 != 0)
    bad(name, offsetof(Header, reserved0),
        "reserved field " + std::to_string(h.reserved0) + ": expected 0");
  for (std::uint64_t i = sizeof h; i < kHeaderSize; ++i) {
    if (data[i] != 0)
      bad(name, i,
          "header padding byte " + std::to_string(static_cast<unsigned char>(data[i])) +
              ": expected 0");
  }
  if (h.page_size == 0 || (h.page_size & (h.page_size - 1)) != 0) {
    bad(name, offsetof(Header, page_size), "page size " + std::to_string(h.page_size) + ": expected a power of two");
  }
  if (h.num_accesses == 0) bad(name, offsetof(Header, num_accesses), "expected at least one access, found none");
  if (h.num_pages == 0 || h.num_pages >= kNoPage) {
    bad(name, offsetof(Header, num_pages), "page count " + std::to_string(h.num_pages) + ": expected 1 to 2^32-2");
  }
  if (h.num_procs == 0 || h.num_procs > h.num_pages) {
    bad(name, offsetof(Header, num_procs),
        "process count " + std::to_string(h.num_procs) + ": expected 1 to the page count " + std::to_string(h.num_pages));
  }
  if (h.num_accesses > (std::uint64_t{1} << 56) || h.source_length > (std::uint64_t{1} << 32)) {
    bad(name, offsetof(Header, num_accesses), "counts too large for a trace file");
  }
  // The columns must sit exactly where the layout puts them: one rule, nothing to reconcile.
  const Header expected = layout(h.num_accesses, h.num_pages, h.num_procs, h.page_size, h.source_length);
  if (std::memcmp(&h.off_pages, &expected.off_pages, offsetof(Header, file_size) - offsetof(Header, off_pages)) != 0) {
    bad(name, offsetof(Header, off_pages), "column offsets do not match the counts: expected the version-1 layout");
  }
  if (h.file_size != expected.file_size) {
    bad(name, offsetof(Header, file_size), "file size field " + std::to_string(h.file_size) + ": expected " + std::to_string(expected.file_size));
  }
  if (size < h.file_size) {
    bad(name, size, "truncated: the header promises " + std::to_string(h.file_size) + " bytes, the file has " + std::to_string(size));
  }
  if (size > h.file_size) bad(name, h.file_size, "unexpected data after the end of the trace");

  // No copies: the columns point into the file's bytes. Trace::from_columns checks every
  // value with vectorised reductions (a PageKind byte is only read as one after that); only
  // when it finds a bad one is the offender looked for here, to name its byte offset.
  try {
    return Trace::from_columns(column_at<PageId>(data, h.off_pages, h.num_accesses, owner),
                               column_at<std::uint8_t>(data, h.off_flags, h.num_accesses, owner),
                               column_at<ProcId>(data, h.off_page_proc, h.num_pages, owner),
                               column_at<std::uint64_t>(data, h.off_page_vpn, h.num_pages, owner),
                               column_at<PageKind>(data, h.off_page_kind, h.num_pages, owner),
                               column_at<std::uint64_t>(data, h.off_proc_pid, h.num_procs, owner), h.page_size,
                               std::string(data + h.off_source, h.source_length));
  } catch (const ConfigError& e) {
    const auto* pages = reinterpret_cast<const PageId*>(data + h.off_pages);
    for (std::uint64_t i = 0; i < h.num_accesses; ++i) {
      if (pages[i] >= h.num_pages) {
        bad(name, h.off_pages + 4 * i,
            "access " + std::to_string(i) + " refers to page " + std::to_string(pages[i]) +
                ": expected a page id below the page count " + std::to_string(h.num_pages));
      }
    }
    const auto* flags = reinterpret_cast<const std::uint8_t*>(data + h.off_flags);
    for (std::uint64_t i = 0; i < h.num_accesses; ++i) {
      if (flags[i] > Trace::kWrite) {
        bad(name, h.off_flags + i, "access flags " + std::to_string(flags[i]) + ": expected 0 (read) or 1 (write)");
      }
    }
    const auto* procs = reinterpret_cast<const ProcId*>(data + h.off_page_proc);
    const auto* kinds = reinterpret_cast<const std::uint8_t*>(data + h.off_page_kind);
    for (std::uint64_t p = 0; p < h.num_pages; ++p) {
      if (procs[p] >= h.num_procs) {
        bad(name, h.off_page_proc + 4 * p, "page " + std::to_string(p) + " belongs to process " + std::to_string(procs[p]) +
                                               ": expected one below the process count " + std::to_string(h.num_procs));
      }
      if (kinds[p] > 1) bad(name, h.off_page_kind + p, "page kind " + std::to_string(kinds[p]) + ": expected 0 (anon) or 1 (file)");
    }
    bad(name, 0, e.what());
  }
}

Trace detail::parse_native_decompressed(ByteSource& source, std::string bytes, const std::string& name) {
  // Up to one byte past the size the header gives, enough to see data after the end: a
  // compressed stream that expands to far more is not held in memory.
  std::uint64_t limit = UINT64_MAX;
  std::vector<char> chunk(1 << 20);
  try {
    for (;;) {
      if (limit == UINT64_MAX && bytes.size() >= kHeaderSize &&
          std::memcmp(bytes.data(), kMagic, sizeof kMagic) == 0) {
        std::uint64_t file_size;
        std::memcpy(&file_size, bytes.data() + offsetof(Header, file_size), sizeof file_size);
        limit = std::max<std::uint64_t>(file_size, kHeaderSize) + 1;
      }
      if (bytes.size() >= limit) break;
      const std::size_t want =
          static_cast<std::size_t>(std::min<std::uint64_t>(chunk.size(), limit - bytes.size()));
      const std::size_t got = source.read(chunk.data(), want);
      if (got == 0) break;
      bytes.append(chunk.data(), got);
    }
  } catch (const std::bad_alloc&) {
    bad(name, bytes.size(),
        "out of memory after " + std::to_string(bytes.size()) +
            " bytes: expected a trace that fits in memory");
  }
  auto owned = std::make_shared<const std::string>(std::move(bytes));
  const char* data = owned->data();
  const std::size_t size = owned->size();
  return parse_native(data, size, name, std::move(owned));
}

bool detail::mappable(const ByteSource& source, const std::string& path) {
  struct stat st {};
  return std::string_view(source.compression()) == "none" && ::stat(path.c_str(), &st) == 0 &&
         S_ISREG(st.st_mode);
}

Trace read_native(const std::string& path) {
  auto source = open_source(path);
  if (!detail::mappable(*source, path))
    return detail::parse_native_decompressed(*source, std::string(), path);
  source.reset();
  const int fd = ::open(path.c_str(), O_RDONLY | O_CLOEXEC);
  if (fd < 0) throw TraceFormatError(path, 0, std::string("cannot open: ") + std::strerror(errno));
  struct stat st {};
  if (::fstat(fd, &st) != 0) {
    ::close(fd);
    throw TraceFormatError(path, 0, std::string("cannot stat: ") + std::strerror(errno));
  }
  const auto size = static_cast<std::size_t>(st.st_size);
  try {
    auto map = std::make_shared<const Mapping>(path, fd, size);
    ::close(fd);
    const char* data = map->data();
    return parse_native(data, size, path, std::move(map));
  } catch (...) {
    ::close(fd);  // harmless EBADF when already closed
    throw;
  }
}

void write_native(const Trace& t, const std::string& path) {
  detail::refuse_empty(t, path);
  const Header h = layout(t.size(), t.num_pages(), t.num_procs(), t.page_size(), t.source().size());
  OutFile out(path);
  out.write(&h, sizeof h);
  write_column(out, h.off_pages, t.pages());
  write_column(out, h.off_flags, t.flags());
  write_column(out, h.off_page_proc, t.page_procs());
  write_column(out, h.off_page_vpn, t.page_vpns());
  write_column(out, h.off_page_kind, t.page_kinds());
  write_column(out, h.off_proc_pid, t.proc_pids());
  out.pad_to(h.off_source);
  out.write(t.source().data(), t.source().size());
  out.close();
}

// ---- streaming writer -------------------------------------------------------------------

struct NativeWriter::Impl {
  Impl(const std::string& path, std::uint32_t ps, std::string src)
      : out(path), page_size(ps), source(std::move(src)) {
    if (out.in_place()) {
      throw ConfigError(
          "cannot stream a native trace to '" + path +
          "': its header is written last, so the output must be a regular file (or load "
          "the trace and save it, which writes in order)");
    }
    flags_file = std::tmpfile();
    if (!flags_file) throw ConfigError(std::string("cannot create a temporary file: ") + std::strerror(errno));
    Header placeholder{};
    out.write(&placeholder, sizeof placeholder);
    out.pad_to(kHeaderSize);
    page_buffer.reserve(kBuffer);
    flag_buffer.reserve(kBuffer);
  }
  ~Impl() {
    if (flags_file) std::fclose(flags_file);
  }
  Impl(const Impl&) = delete;
  Impl& operator=(const Impl&) = delete;

  static constexpr std::size_t kBuffer = 1 << 16;

  void flush() {
    out.write(page_buffer.data(), page_buffer.size() * sizeof(PageId));
    if (!flag_buffer.empty() && std::fwrite(flag_buffer.data(), 1, flag_buffer.size(), flags_file) != flag_buffer.size()) {
      throw ConfigError(std::string("cannot write a temporary file: ") + std::strerror(errno));
    }
    page_buffer.clear();
    flag_buffer.clear();
  }

  OutFile out;
  std::uint32_t page_size;
  std::string source;
  std::FILE* flags_file = nullptr;
  std::vector<PageId> page_buffer;
  std::vector<std::uint8_t> flag_buffer;
  PageInterner pages;
  std::uint64_t accesses = 0;
};

NativeWriter::NativeWriter(const std::string& path, std::uint32_t page_size, std::string source) {
  detail::page_shift(page_size);
  impl_ = std::make_unique<Impl>(path, page_size, std::move(source));
}

void NativeWriter::set_page_size(std::uint32_t page_size) {
  detail::page_shift(page_size);
  impl_->page_size = page_size;  // goes into the header, written by finish()
}

NativeWriter::~NativeWriter() = default;

std::uint64_t NativeWriter::size() const { return impl_->accesses; }

void NativeWriter::add(std::uint64_t pid, std::uint64_t vpn, bool write, PageKind kind) {
  Impl& w = *impl_;
  w.page_buffer.push_back(w.pages.intern(pid, vpn, kind));
  w.flag_buffer.push_back(write ? Trace::kWrite : 0);
  ++w.accesses;
  if (w.page_buffer.size() == Impl::kBuffer) w.flush();
}

void NativeWriter::finish() {
  Impl& w = *impl_;
  w.flush();
  if (w.accesses == 0) throw ConfigError("cannot write a native trace with no accesses");
  const PageInterner::Columns& c = w.pages.columns();
  const Header h = layout(w.accesses, c.page_proc.size(), c.proc_pid.size(), w.page_size, w.source.size());
  w.out.pad_to(h.off_flags);
  std::rewind(w.flags_file);
  std::vector<char> chunk(1 << 20);
  std::uint64_t copied = 0;
  while (const std::size_t got = std::fread(chunk.data(), 1, chunk.size(), w.flags_file)) {
    w.out.write(chunk.data(), got);
    copied += got;
  }
  if (copied != w.accesses) throw ConfigError("temporary flags file lost data");
  write_column(w.out, h.off_page_proc, c.page_proc);
  write_column(w.out, h.off_page_vpn, c.page_vpn);
  write_column(w.out, h.off_page_kind, c.page_kind);
  write_column(w.out, h.off_proc_pid, c.proc_pid);
  w.out.pad_to(h.off_source);
  w.out.write(w.source.data(), w.source.size());
  w.out.seek(0);
  w.out.write(&h, sizeof h);
  w.out.close();
}

}  // namespace pagesim
