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

std::vector<std::size_t> Trace::last_accesses() const {
  std::vector<std::size_t> last(num_procs(), 0);
  for (std::size_t i = 0; i < size(); ++i) last[page_proc(page(i))] = i;
  return last;
}

Trace Trace::slice(std::size_t start, std::size_t stop) const {
  stop = std::min(stop, size());
  if (start > stop) {
    throw ConfigError("a trace slice [" + std::to_string(start) + ":" + std::to_string(stop) +
                      "] starts after it stops: expected start <= stop (at most the " +
                      std::to_string(size()) + " accesses)");
  }
  TraceBuilder b(page_size(),
                 source() + "[" + std::to_string(start) + ":" + std::to_string(stop) + "]");
  b.reserve(stop - start);
  for (std::size_t i = start; i < stop; ++i) b.add_access_of(*this, i);
  return std::move(b).build();
}

std::vector<std::size_t> Trace::first_accesses() const {
  std::vector<std::size_t> first(num_procs(), size());
  // Stops once every process has been seen: usually early in the trace.
  std::size_t unseen = num_procs();
  for (std::size_t i = 0; i < size() && unseen != 0; ++i) {
    std::size_t& f = first[page_proc(page(i))];
    if (f == size()) {
      f = i;
      --unseen;
    }
  }
  return first;
}

namespace {

// Index of the first element of `column` that `bad` holds for; called only after a
// vectorisable reduction has shown that there is one.
template <class T, class Bad>
std::size_t first_bad(const Column<T>& column, Bad bad) {
  std::size_t i = 0;
  while (i < column.size() && !bad(column[i])) ++i;
  return i;
}

[[noreturn]] void bad_element(const char* column, std::size_t i, std::uint64_t value, const std::string& allowed) {
  throw ConfigError(std::string("trace column '") + column + "': element " + std::to_string(i) + " is " +
                    std::to_string(value) + "; expected " + allowed);
}

// Each pid is one process and each (process, virtual page) one page: a duplicate would split
// the accesses of one page between two ids. The pages go through a hash table of their ids
// (8 bytes a page, freed on return), the few pids through a sorted copy.
void check_unique(const Column<ProcId>& page_proc, const Column<std::uint64_t>& page_vpn,
                  const Column<std::uint64_t>& proc_pid) {
  std::vector<std::uint64_t> pids(proc_pid.begin(), proc_pid.end());
  std::sort(pids.begin(), pids.end());
  if (const auto twice = std::adjacent_find(pids.begin(), pids.end()); twice != pids.end()) {
    throw ConfigError("trace column 'proc_pids': pid " + std::to_string(*twice) +
                      " appears twice; expected each process once");
  }
  std::size_t capacity = 2;
  while (capacity < 2 * page_proc.size()) capacity *= 2;
  std::vector<PageId> table(capacity, kNoPage);
  for (PageId p = 0; p < page_proc.size(); ++p) {
    std::size_t h = mix(page_proc[p], page_vpn[p]) & (capacity - 1);
    for (; table[h] != kNoPage; h = (h + 1) & (capacity - 1)) {
      const PageId other = table[h];
      if (page_proc[other] == page_proc[p] && page_vpn[other] == page_vpn[p]) {
        std::ostringstream page;
        page << "pid " << proc_pid[page_proc[p]] << " vpn 0x" << std::hex << page_vpn[p];
        throw ConfigError("trace pages " + std::to_string(other) + " and " + std::to_string(p) +
                          " are both " + page.str() +
                          "; expected each (process, virtual page) once");
      }
    }
    table[h] = p;
  }
}

}  // namespace

Trace Trace::from_columns(Column<PageId> pages, Column<std::uint8_t> flags, Column<ProcId> page_proc,
                          Column<std::uint64_t> page_vpn, Column<PageKind> page_kind,
                          Column<std::uint64_t> proc_pid, std::uint32_t page_size, std::string source) {
  if (pages.size() != flags.size()) {
    throw ConfigError("trace columns 'pages' (" + std::to_string(pages.size()) + ") and 'flags' (" +
                      std::to_string(flags.size()) + ") differ in length; expected one flags byte per access");
  }
  if (page_proc.size() != page_vpn.size() || page_proc.size() != page_kind.size()) {
    throw ConfigError("per-page trace columns 'page_procs' (" + std::to_string(page_proc.size()) + "), 'page_vpns' (" +
                      std::to_string(page_vpn.size()) + ") and 'page_kinds' (" + std::to_string(page_kind.size()) +
                      ") differ in length; expected one entry per page");
  }
  if (page_size == 0 || (page_size & (page_size - 1)) != 0) {
    throw ConfigError("parameter 'page_size' = " + std::to_string(page_size) +
                      " is not allowed: must be a power of two");
  }
  // Loading a 100-million-access file goes through here: every column is checked with a
  // vectorisable reduction first, and the exact offender is looked for only on failure.
  const std::size_t num_pages = page_proc.size(), q = proc_pid.size();
  ProcId max_proc = 0;
  for (ProcId proc : page_proc) max_proc = std::max(max_proc, proc);
  if (!page_proc.empty() && max_proc >= q) {
    const std::size_t i = first_bad(page_proc, [q](ProcId v) { return v >= q; });
    bad_element("page_procs", i, page_proc[i], "a process id below the process count " + std::to_string(q));
  }
  // Processes are dense like pages: each owns a page (a native file has at most as many
  // processes as pages). Without pages there is nothing to own.
  if (num_pages != 0) {
    std::vector<std::uint8_t> owns(q, 0);
    for (ProcId proc : page_proc) owns[proc] = 1;
    if (const auto none = std::find(owns.begin(), owns.end(), 0); none != owns.end()) {
      const auto k = static_cast<std::size_t>(none - owns.begin());
      throw ConfigError("trace column 'proc_pids': process " + std::to_string(k) + " (pid " +
                        std::to_string(proc_pid[k]) +
                        ") owns no page; expected every process to own one (in 'page_procs')");
    }
  }
  const auto* kind_bytes = reinterpret_cast<const std::uint8_t*>(page_kind.data());
  std::uint8_t all_kinds = 0;
  for (std::size_t p = 0; p < num_pages; ++p) all_kinds |= kind_bytes[p];
  if (all_kinds > 1) {
    std::size_t i = 0;
    while (kind_bytes[i] <= 1) ++i;
    bad_element("page_kinds", i, kind_bytes[i], "0 (anon) or 1 (file)");
  }
  PageId max_page = 0;
  for (PageId p : pages) max_page = std::max(max_page, p);
  if (!pages.empty() && max_page >= num_pages) {
    const std::size_t i = first_bad(pages, [num_pages](PageId v) { return v >= num_pages; });
    bad_element("pages", i, pages[i], "a page id below the page count " + std::to_string(num_pages));
  }
  std::uint8_t all_flags = 0;
  for (std::uint8_t f : flags) all_flags |= f;
  if (all_flags > kWrite) {
    const std::size_t i = first_bad(flags, [](std::uint8_t v) { return v > kWrite; });
    bad_element("flags", i, flags[i], "0 (read) or 1 (write)");
  }
  check_unique(page_proc, page_vpn, proc_pid);
  Trace t;
  // Per-process access counts with four interleaved counter sets, so that consecutive
  // accesses of one process do not wait on each other's increment.
  t.proc_accesses_.assign(q, 0);
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

PageInterner::PageInterner() : slots_(1024, Slot{0, 0, kNoPage}) {}

void PageInterner::grow() {
  PageArray<Slot> old(slots_.size() * 2, Slot{0, 0, kNoPage});
  old.swap(slots_);
  const std::size_t mask = slots_.size() - 1;
  for (const Slot& s : old) {
    if (s.page == kNoPage) continue;
    std::size_t h = mix(s.pid, s.vpn) & mask;
    while (slots_[h].page != kNoPage) h = (h + 1) & mask;
    slots_[h] = s;
  }
}

ProcId PageInterner::intern_proc(std::uint64_t pid) {
  std::vector<std::uint64_t>& pids = columns_.proc_pid;
  if (pid == last_pid_ && !pids.empty()) return last_proc_;
  const auto [it, added] = proc_of_.try_emplace(pid, static_cast<ProcId>(pids.size()));
  const ProcId proc = it->second;
  if (added) pids.push_back(pid);
  last_pid_ = pid;
  last_proc_ = proc;
  return proc;
}

PageId PageInterner::intern(std::uint64_t pid, std::uint64_t vpn, PageKind kind) {
  const std::size_t mask = slots_.size() - 1;
  std::size_t h = mix(pid, vpn) & mask;
  while (slots_[h].page != kNoPage) {
    if (slots_[h].vpn == vpn && slots_[h].pid == pid) {
      const PageId p = slots_[h].page;
      if (columns_.page_kind[p] != kind) {
        std::ostringstream page;
        page << "pid " << pid << " vpn 0x" << std::hex << vpn;
        throw ConfigError("page " + page.str() + " is accessed both as " +
                          (kind == PageKind::kFile ? "file" : "anon") + " and as " +
                          (kind == PageKind::kFile ? "anon" : "file") +
                          "; a page has one kind");
      }
      return p;
    }
    h = (h + 1) & mask;
  }
  const std::size_t count = columns_.page_proc.size();
  if (count >= kNoPage - 1) throw ConfigError("trace has more than 2^32-2 distinct pages");
  const auto page = static_cast<PageId>(count);
  slots_[h] = Slot{pid, vpn, page};
  columns_.page_proc.push_back(intern_proc(pid));
  columns_.page_vpn.push_back(vpn);
  columns_.page_kind.push_back(kind);
  if ((count + 1) * 2 > slots_.size()) grow();
  return page;
}

TraceBuilder::TraceBuilder(std::uint32_t page_size, std::string source) {
  if (page_size == 0 || (page_size & (page_size - 1)) != 0) {
    throw ConfigError("parameter 'page_size' = " + std::to_string(page_size) +
                      " is not allowed: must be a power of two");
  }
  page_size_ = page_size;
  source_ = std::move(source);
}

void TraceBuilder::reserve(std::size_t accesses) {
  pages_.reserve(accesses);
  flags_.reserve(accesses);
}

void TraceBuilder::add(std::uint64_t pid, std::uint64_t vpn, bool write, PageKind kind) {
  const PageId page = interner_.intern(pid, vpn, kind);
  pages_.push_back(page);
  flags_.push_back(write ? Trace::kWrite : 0);
  const ProcId proc = interner_.columns().page_proc[page];
  if (proc == proc_accesses_.size()) proc_accesses_.push_back(0);
  ++proc_accesses_[proc];
}

Trace TraceBuilder::build() && {
  PageInterner::Columns c = std::move(interner_).take();
  Trace t;
  t.pages_ = std::move(pages_);
  t.flags_ = std::move(flags_);
  t.page_proc_ = std::move(c.page_proc);
  t.page_vpn_ = std::move(c.page_vpn);
  t.page_kind_ = std::move(c.page_kind);
  t.proc_pid_ = std::move(c.proc_pid);
  t.proc_accesses_ = std::move(proc_accesses_);
  t.page_size_ = page_size_;
  t.source_ = std::move(source_);
  return t;
}

}  // namespace pagesim
