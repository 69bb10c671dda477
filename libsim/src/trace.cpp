#include "pagesim/trace.hpp"

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
