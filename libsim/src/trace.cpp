#include "pagesim/trace.hpp"

#include <algorithm>
#include <sstream>

#include "pagesim/error.hpp"

namespace pagesim {
namespace {

std::uint64_t mix(std::uint64_t pid, std::uint64_t vpn) {
  // splitmix64 finaliser over both halves of the key.
  std::uint64_t z = vpn * 0x9e3779b97f4a7c15ULL ^ (pid + 0x632be59bd9b4e019ULL);
  z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ULL;
  z = (z ^ (z >> 27)) * 0x94d049bb133111ebULL;
  return z ^ (z >> 31);
}

}  // namespace

std::string Trace::describe_page(PageId p) const {
  std::ostringstream out;
  out << "pid " << proc_pid_[page_proc_[p]] << " vpn 0x" << std::hex << page_vpn_[p];
  return out.str();
}

std::uint64_t Trace::count_writes() const {
  std::uint64_t n = 0;
  for (auto f : flags_) n += f & kWrite;
  return n;
}

Trace Trace::from_columns(std::vector<PageId> pages, std::vector<std::uint8_t> flags,
                          std::vector<ProcId> page_proc, std::vector<std::uint64_t> page_vpn,
                          std::vector<PageKind> page_kind, std::vector<std::uint64_t> proc_pid,
                          std::uint32_t page_size, std::string source) {
  if (pages.size() != flags.size()) throw ConfigError("trace columns 'pages' and 'flags' differ in length");
  if (page_proc.size() != page_vpn.size() || page_proc.size() != page_kind.size()) {
    throw ConfigError("per-page trace columns differ in length");
  }
  if (page_size == 0 || (page_size & (page_size - 1)) != 0) {
    throw ConfigError("parameter 'page_size' = " + std::to_string(page_size) +
                      " is not allowed: must be a power of two");
  }
  Trace t;
  t.proc_accesses_.assign(proc_pid.size(), 0);
  for (ProcId proc : page_proc) {
    if (proc >= proc_pid.size()) throw ConfigError("trace page refers to process " + std::to_string(proc) + " of " + std::to_string(proc_pid.size()));
  }
  // Loading a 100-million-access file goes through here: check the page ids with a
  // vectorisable max first, and count per process with four interleaved counter sets so that
  // consecutive accesses of one process do not wait on each other's increment.
  PageId max_page = 0;
  for (PageId p : pages) max_page = std::max(max_page, p);
  if (!pages.empty() && max_page >= page_proc.size()) {
    for (std::size_t i = 0; i < pages.size(); ++i) {
      if (pages[i] >= page_proc.size()) {
        throw ConfigError("trace access " + std::to_string(i) + " refers to page " +
                          std::to_string(pages[i]) + " of " + std::to_string(page_proc.size()));
      }
    }
  }
  const std::size_t q = proc_pid.size();
  if (q == 1) {
    t.proc_accesses_[0] = pages.size();
  } else if (q > 1) {
    std::vector<std::uint64_t> count(4 * q, 0);
    const PageId* pg = pages.data();
    // With few processes, gather from a byte-wide copy of page_proc: 4 times denser in cache.
    std::vector<std::uint8_t> narrow;
    if (q <= 256) narrow.assign(page_proc.begin(), page_proc.end());
    const auto count_with = [&](const auto* owner) {
      std::size_t i = 0;
      for (; i + 4 <= pages.size(); i += 4) {
        ++count[owner[pg[i]]];
        ++count[q + owner[pg[i + 1]]];
        ++count[2 * q + owner[pg[i + 2]]];
        ++count[3 * q + owner[pg[i + 3]]];
      }
      for (; i < pages.size(); ++i) ++count[owner[pg[i]]];
    };
    if (q <= 256) {
      count_with(narrow.data());
    } else {
      count_with(page_proc.data());
    }
    for (std::size_t k = 0; k < q; ++k) t.proc_accesses_[k] = count[k] + count[q + k] + count[2 * q + k] + count[3 * q + k];
  }
  t.pages_ = std::move(pages);
  t.flags_ = std::move(flags);
  t.page_proc_ = std::move(page_proc);
  t.page_vpn_ = std::move(page_vpn);
  t.page_kind_ = std::move(page_kind);
  t.proc_pid_ = std::move(proc_pid);
  t.page_size_ = page_size;
  t.source_ = std::move(source);
  return t;
}

TraceBuilder::TraceBuilder(std::uint32_t page_size, std::string source) {
  if (page_size == 0 || (page_size & (page_size - 1)) != 0) {
    throw ConfigError("parameter 'page_size' = " + std::to_string(page_size) +
                      " is not allowed: must be a power of two");
  }
  trace_.page_size_ = page_size;
  trace_.source_ = std::move(source);
  slots_.assign(1024, Slot{0, 0, kNoPage});
}

void TraceBuilder::reserve(std::size_t accesses) {
  trace_.pages_.reserve(accesses);
  trace_.flags_.reserve(accesses);
}

void TraceBuilder::grow() {
  std::vector<Slot> old(slots_.size() * 2, Slot{0, 0, kNoPage});
  old.swap(slots_);
  const std::size_t mask = slots_.size() - 1;
  for (const Slot& s : old) {
    if (s.page == kNoPage) continue;
    std::size_t h = mix(s.pid, s.vpn) & mask;
    while (slots_[h].page != kNoPage) h = (h + 1) & mask;
    slots_[h] = s;
  }
}

ProcId TraceBuilder::intern_proc(std::uint64_t pid) {
  if (pid == last_pid_) return last_proc_;
  ProcId proc = 0;
  while (proc < trace_.proc_pid_.size() && trace_.proc_pid_[proc] != pid) ++proc;
  if (proc == trace_.proc_pid_.size()) {
    trace_.proc_pid_.push_back(pid);
    trace_.proc_accesses_.push_back(0);
  }
  last_pid_ = pid;
  last_proc_ = proc;
  return proc;
}

PageId TraceBuilder::intern(std::uint64_t pid, std::uint64_t vpn, PageKind kind) {
  const std::size_t mask = slots_.size() - 1;
  std::size_t h = mix(pid, vpn) & mask;
  while (slots_[h].page != kNoPage) {
    if (slots_[h].vpn == vpn && slots_[h].pid == pid) {
      const PageId p = slots_[h].page;
      if (trace_.page_kind_[p] != kind) {
        throw ConfigError("page " + trace_.describe_page(p) + " is accessed both as " +
                          (kind == PageKind::kFile ? "file" : "anon") + " and as " +
                          (kind == PageKind::kFile ? "anon" : "file") +
                          "; a page has one kind");
      }
      return p;
    }
    h = (h + 1) & mask;
  }
  const std::size_t count = trace_.page_proc_.size();
  if (count >= kNoPage - 1) throw ConfigError("trace has more than 2^32-2 distinct pages");
  const auto page = static_cast<PageId>(count);
  slots_[h] = Slot{pid, vpn, page};
  trace_.page_proc_.push_back(intern_proc(pid));
  trace_.page_vpn_.push_back(vpn);
  trace_.page_kind_.push_back(kind);
  if ((count + 1) * 2 > slots_.size()) grow();
  return page;
}

void TraceBuilder::add(std::uint64_t pid, std::uint64_t vpn, bool write, PageKind kind) {
  const PageId page = intern(pid, vpn, kind);
  trace_.pages_.push_back(page);
  trace_.flags_.push_back(write ? Trace::kWrite : 0);
  ++trace_.proc_accesses_[trace_.page_proc_[page]];
}

Trace TraceBuilder::build() && { return std::move(trace_); }

}  // namespace pagesim
