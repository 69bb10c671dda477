#pragma once

#include <cstddef>
#include <cstdint>
#include <string>
#include <vector>

#include "pagesim/types.hpp"

namespace pagesim {

// A trace in columnar form. Per access: the dense page id and a flags byte (bit 0: write);
// 5 bytes an access. The process and kind of an access are those of its page, which keeps
// them out of the per-access columns. Immutable once built; share it read-only between runs.
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

  const std::vector<PageId>& pages() const { return pages_; }
  const std::vector<std::uint8_t>& flags() const { return flags_; }

  ProcId page_proc(PageId p) const { return page_proc_[p]; }
  std::uint64_t page_vpn(PageId p) const { return page_vpn_[p]; }
  PageKind page_kind(PageId p) const { return page_kind_[p]; }
  const std::vector<ProcId>& page_procs() const { return page_proc_; }
  const std::vector<std::uint64_t>& page_vpns() const { return page_vpn_; }
  const std::vector<PageKind>& page_kinds() const { return page_kind_; }

  // Original pid of dense process `proc`, and how many accesses it makes.
  std::uint64_t proc_pid(ProcId proc) const { return proc_pid_[proc]; }
  std::uint64_t proc_accesses(ProcId proc) const { return proc_accesses_[proc]; }
  const std::vector<std::uint64_t>& proc_pids() const { return proc_pid_; }

  // Human-readable description of page p: "pid 3 vpn 0x7f0012345".
  std::string describe_page(PageId p) const;

  // Number of writes in the trace.
  std::uint64_t count_writes() const;

  // A trace from its columns (deserialising, memory-mapped formats). Throws ConfigError if
  // they are inconsistent: a page id out of range, a process id out of range, unequal
  // lengths.
  static Trace from_columns(std::vector<PageId> pages, std::vector<std::uint8_t> flags,
                            std::vector<ProcId> page_proc, std::vector<std::uint64_t> page_vpn,
                            std::vector<PageKind> page_kind, std::vector<std::uint64_t> proc_pid,
                            std::uint32_t page_size, std::string source);

 private:
  friend class TraceBuilder;

  std::vector<PageId> pages_;
  std::vector<std::uint8_t> flags_;
  std::vector<ProcId> page_proc_;
  std::vector<std::uint64_t> page_vpn_;
  std::vector<PageKind> page_kind_;
  std::vector<std::uint64_t> proc_pid_;
  std::vector<std::uint64_t> proc_accesses_;
  std::uint32_t page_size_ = 4096;
  std::string source_;
};

// Builds a Trace from (pid, virtual page number) accesses, giving each distinct pair a dense
// PageId in order of first touch and each pid a dense ProcId.
class TraceBuilder {
 public:
  explicit TraceBuilder(std::uint32_t page_size = 4096, std::string source = "");

  void reserve(std::size_t accesses);
  // Throws ConfigError if the page was first seen with the other kind.
  void add(std::uint64_t pid, std::uint64_t vpn, bool write, PageKind kind = PageKind::kAnon);
  std::size_t size() const { return trace_.pages_.size(); }
  Trace build() &&;

 private:
  struct Slot {
    std::uint64_t pid;
    std::uint64_t vpn;
    PageId page;  // kNoPage when empty
  };
  PageId intern(std::uint64_t pid, std::uint64_t vpn, PageKind kind);
  ProcId intern_proc(std::uint64_t pid);
  void grow();

  Trace trace_;
  // Open addressing, linear probing, power-of-two capacity.
  std::vector<Slot> slots_;
  std::uint64_t last_pid_ = ~std::uint64_t{0};
  ProcId last_proc_ = 0;
};

}  // namespace pagesim
