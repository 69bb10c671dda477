#pragma once

#include <algorithm>
#include <cstddef>
#include <cstdint>
#include <initializer_list>
#include <memory>
#include <string>
#include <unordered_map>
#include <vector>

#include "pagesim/page_array.hpp"
#include "pagesim/types.hpp"

namespace pagesim {

// A read-only column of a Trace: a pointer, a length and the owner of the memory, so that a
// column can be a vector's buffer, a memory-mapped file or a numpy array without a copy.
// Copies share the memory; the owner is released with the last copy.
template <class T>
class Column {
 public:
  Column() = default;
  // Takes the vector's buffer (no copy).
  // Implicit, so that code building vectors passes them where columns are expected.
  Column(std::vector<T>&& v) {
    auto owned = std::make_shared<const std::vector<T>>(std::move(v));
    data_ = owned->data();
    size_ = owned->size();
    owner_ = std::move(owned);
  }
  Column(std::initializer_list<T> values) : Column(std::vector<T>(values)) {}
  // `size` elements at `data`, valid as long as `owner` lives.
  Column(const T* data, std::size_t size, std::shared_ptr<const void> owner)
      : data_(data), size_(size), owner_(std::move(owner)) {}

  const T* data() const { return data_; }
  std::size_t size() const { return size_; }
  bool empty() const { return size_ == 0; }
  const T& operator[](std::size_t i) const { return data_[i]; }
  const T* begin() const { return data_; }
  const T* end() const { return data_ + size_; }
  const std::shared_ptr<const void>& owner() const { return owner_; }
  std::vector<T> to_vector() const { return std::vector<T>(begin(), end()); }

  friend bool operator==(const Column& a, const Column& b) {
    return a.size_ == b.size_ && std::equal(a.begin(), a.end(), b.begin());
  }
  friend bool operator!=(const Column& a, const Column& b) { return !(a == b); }

 private:
  const T* data_ = nullptr;
  std::size_t size_ = 0;
  std::shared_ptr<const void> owner_;
};

// A trace in columnar form. Per access: the dense page id and a flags byte (bit 0: write);
// 5 bytes an access. The process and kind of an access are those of its page, which keeps
// them out of the per-access columns. Immutable once built; share it read-only between runs.
// The columns may live in a vector, a mapped native file or a numpy array (see Column);
// copying a Trace shares them.
class Trace {
 public:
  static constexpr std::uint8_t kWrite = 1;

  std::size_t size() const { return pages_.size(); }
  std::size_t num_pages() const { return page_proc_.size(); }
  std::size_t num_procs() const { return proc_pid_.size(); }
  std::uint32_t page_size() const { return page_size_; }
  const std::string& source() const { return source_; }

  PageId page(std::size_t i) const { return pages_[i]; }
  bool write(std::size_t i) const { return (flags_[i] & kWrite) != 0; }
  ProcId proc(std::size_t i) const { return page_proc_[pages_[i]]; }

  const Column<PageId>& pages() const { return pages_; }
  const Column<std::uint8_t>& flags() const { return flags_; }

  ProcId page_proc(PageId p) const { return page_proc_[p]; }
  std::uint64_t page_vpn(PageId p) const { return page_vpn_[p]; }
  PageKind page_kind(PageId p) const { return page_kind_[p]; }
  const Column<ProcId>& page_procs() const { return page_proc_; }
  const Column<std::uint64_t>& page_vpns() const { return page_vpn_; }
  const Column<PageKind>& page_kinds() const { return page_kind_; }
  // Whether any page is file-backed (a pass over the pages).
  bool has_file_pages() const {
    return std::any_of(page_kind_.begin(), page_kind_.end(),
                       [](PageKind k) { return k == PageKind::kFile; });
  }

  // Original pid of dense process `proc`, and how many accesses it makes.
  std::uint64_t proc_pid(ProcId proc) const { return proc_pid_[proc]; }
  std::uint64_t proc_accesses(ProcId proc) const { return proc_accesses_[proc]; }
  const Column<std::uint64_t>& proc_pids() const { return proc_pid_; }

  // Human-readable description of page p: "pid 3 vpn 0x7f0012345".
  std::string describe_page(PageId p) const;

  // Number of writes in the trace.
  std::uint64_t count_writes() const;
  // Per process, the index of its last access (a pass over the trace).
  std::vector<std::size_t> last_accesses() const;
  // Per process, the index of its first access, size() for a process without accesses (a
  // pass over the trace up to the last process's first access).
  std::vector<std::size_t> first_accesses() const;

  // The accesses [start, stop) as a trace of their own (stop is clamped to size()): their
  // pages, with pid, virtual page number and kind, numbered as first accessed there (so
  // num_pages() is the window's footprint), the page size kept, the source `source()[a:b]`.
  // ConfigError if start > stop.
  Trace slice(std::size_t start, std::size_t stop) const;

  // A trace from its columns (deserialising, memory-mapped formats, numpy); vectors convert
  // without a copy. Throws ConfigError naming the column and the index if they are
  // inconsistent: unequal lengths, a page id >= the page count, a process id >= the process
  // count, a flags byte other than 0 or 1, a page kind other than 0 or 1, two pages with the
  // same process and virtual page number, a pid listed twice.
  static Trace from_columns(Column<PageId> pages, Column<std::uint8_t> flags, Column<ProcId> page_proc,
                            Column<std::uint64_t> page_vpn, Column<PageKind> page_kind,
                            Column<std::uint64_t> proc_pid, std::uint32_t page_size, std::string source);

 private:
  friend class TraceBuilder;

  Column<PageId> pages_;
  Column<std::uint8_t> flags_;
  Column<ProcId> page_proc_;
  Column<std::uint64_t> page_vpn_;
  Column<PageKind> page_kind_;
  Column<std::uint64_t> proc_pid_;
  std::vector<std::uint64_t> proc_accesses_;
  std::uint32_t page_size_ = 4096;
  std::string source_;
};

// Gives each distinct (pid, virtual page number) a dense PageId in order of first touch and
// each pid a dense ProcId, and keeps the per-page and per-process columns that go with them.
// TraceBuilder and the streaming native writer intern through it.
class PageInterner {
 public:
  struct Columns {
    std::vector<ProcId> page_proc;
    std::vector<std::uint64_t> page_vpn;
    std::vector<PageKind> page_kind;
    std::vector<std::uint64_t> proc_pid;
  };

  PageInterner();
  // Throws ConfigError if the page was first seen with the other kind, or if there would be
  // more than 2^32-2 pages.
  PageId intern(std::uint64_t pid, std::uint64_t vpn, PageKind kind);
  const Columns& columns() const { return columns_; }
  Columns take() && { return std::move(columns_); }

 private:
  struct Slot {
    std::uint64_t pid;
    std::uint64_t vpn;
    PageId page;  // kNoPage when empty
  };
  ProcId intern_proc(std::uint64_t pid);
  void grow();

  Columns columns_;
  // Open addressing, linear probing, power-of-two capacity; huge pages, as every access
  // probes it at random.
  PageArray<Slot> slots_;
  // Each pid's process (a block trace may have thousands of volumes as pids), and the last.
  std::unordered_map<std::uint64_t, ProcId> proc_of_;
  std::uint64_t last_pid_ = ~std::uint64_t{0};
  ProcId last_proc_ = 0;
};

// Builds a Trace from (pid, virtual page number) accesses (ids as PageInterner gives them).
class TraceBuilder {
 public:
  explicit TraceBuilder(std::uint32_t page_size = 4096, std::string source = "");

  void reserve(std::size_t accesses);
  // Throws ConfigError if the page was first seen with the other kind.
  void add(std::uint64_t pid, std::uint64_t vpn, bool write, PageKind kind = PageKind::kAnon);
  // Adds access i of `t` again: its page's pid, virtual page number and kind, its write.
  void add_access_of(const Trace& t, std::size_t i) {
    const PageId p = t.page(i);
    add(t.proc_pid(t.page_proc(p)), t.page_vpn(p), t.write(i), t.page_kind(p));
  }
  std::size_t size() const { return pages_.size(); }
  Trace build() &&;

 private:
  std::vector<PageId> pages_;
  std::vector<std::uint8_t> flags_;
  std::vector<std::uint64_t> proc_accesses_;
  std::uint32_t page_size_ = 4096;
  std::string source_;
  PageInterner interner_;
};

}  // namespace pagesim
