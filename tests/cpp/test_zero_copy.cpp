// Zero-copy traces: a native file's columns are used in place in its mapping (checked
// against /proc/self/maps, which names the file that backs an address), the mapping lives
// as long as any copy of the Trace, and Trace::from_columns checks every column it is given.
#include <doctest/doctest.h>

#include <cstdio>
#include <cstring>
#include <filesystem>
#include <fstream>
#include <numeric>
#include <optional>
#include <sstream>

#include "helpers.hpp"
#include "pagesim/generators.hpp"
#include "pagesim/registry.hpp"
#include "pagesim/trace_io.hpp"
#include "trace_files.hpp"

namespace pagesim::test {
namespace {

struct MapEntry {
  std::uintptr_t start = 0;
  std::uint64_t offset = 0;
  std::string path;  // empty for anonymous memory (heap, vectors)
};

// The line of /proc/self/maps whose range holds `p`.
std::optional<MapEntry> mapping_of(const void* p) {
  const auto a = reinterpret_cast<std::uintptr_t>(p);
  std::ifstream maps("/proc/self/maps");
  std::string line;
  while (std::getline(maps, line)) {
    std::istringstream in(line);
    std::string range, perms, dev, path;
    std::uint64_t offset = 0, inode = 0;
    in >> range >> perms >> std::hex >> offset >> dev >> std::dec >> inode;
    std::getline(in >> std::ws, path);
    const auto dash = range.find('-');
    const auto start = static_cast<std::uintptr_t>(std::stoull(range.substr(0, dash), nullptr, 16));
    const auto end = static_cast<std::uintptr_t>(std::stoull(range.substr(dash + 1), nullptr, 16));
    if (a >= start && a < end) return MapEntry{start, offset, path};
  }
  return std::nullopt;
}

// Offset in `path` of the byte that `p` maps, or -1 if `p` is not in a mapping of that file.
std::int64_t file_offset_of(const void* p, const std::string& path) {
  const auto m = mapping_of(p);
  if (!m || m->path != std::filesystem::canonical(path).string()) return -1;
  return static_cast<std::int64_t>(reinterpret_cast<std::uintptr_t>(p) - m->start + m->offset);
}

bool mapped_anywhere(const std::string& canonical_path) {
  std::ifstream maps("/proc/self/maps");
  std::string line;
  while (std::getline(maps, line)) {
    if (line.find(canonical_path) != std::string::npos) return true;
  }
  return false;
}

Trace sample() { return generate_zipf(5000, 300, 0.8, 0.3, 11); }

}  // namespace

TEST_CASE("a native trace read back points into the file's mapping, at the columns' offsets") {
  const Trace t = sample();
  TempFile f("zero_copy.pgt");
  write_native(t, f.path());
  const Trace a = read_native(f.path());
  // The version-1 layout: pages at 128, then each column at the next multiple of 64.
  const std::int64_t flags_at = (128 + 4 * 5000 + 63) / 64 * 64;
  const std::int64_t procs_at = (flags_at + 5000 + 63) / 64 * 64;
  const auto pages = static_cast<std::int64_t>(t.num_pages());
  const std::int64_t vpns_at = (procs_at + 4 * pages + 63) / 64 * 64;
  const std::int64_t kinds_at = (vpns_at + 8 * pages + 63) / 64 * 64;
  const std::int64_t pids_at = (kinds_at + pages + 63) / 64 * 64;
  CHECK(file_offset_of(a.pages().data(), f.path()) == 128);
  CHECK(file_offset_of(a.flags().data(), f.path()) == flags_at);
  CHECK(file_offset_of(a.page_procs().data(), f.path()) == procs_at);
  CHECK(file_offset_of(a.page_vpns().data(), f.path()) == vpns_at);
  CHECK(file_offset_of(a.page_kinds().data(), f.path()) == kinds_at);
  CHECK(file_offset_of(a.proc_pids().data(), f.path()) == pids_at);
  CHECK(a.pages() == t.pages());
  CHECK(a.flags() == t.flags());
  // A trace built in memory is not in the file.
  CHECK(file_offset_of(t.pages().data(), f.path()) == -1);
  // Each read maps the file anew.
  const Trace b = read_native(f.path());
  CHECK(b.pages().data() != a.pages().data());
  CHECK(file_offset_of(b.pages().data(), f.path()) == 128);
}

TEST_CASE("a bad value in a native file is reported at its byte offset") {
  // 4 accesses over 3 pages of 2 processes: pages at 128 (16 bytes), flags at 192 (4),
  // page_proc at 256 (12), page_vpn at 320 (24), page_kind at 384 (3), proc_pid at 448.
  TraceBuilder b;
  b.add(1, 10, false);
  b.add(2, 20, true);
  b.add(1, 30, false, PageKind::kFile);
  b.add(1, 10, false);
  TempFile f("zero_copy_bad.pgt");
  write_native(std::move(b).build(), f.path());
  const std::string good = f.read();
  const auto patched = [&](std::size_t offset, std::uint8_t byte) {
    std::string bytes = good;
    bytes[offset] = static_cast<char>(byte);
    f.write(bytes);
    return message_of([&] { read_native(f.path()); });
  };
  const std::string name = f.path() + ": byte ";
  CHECK(patched(128 + 8, 3) == name + "136: access 2 refers to page 3: expected a page id below the page count 3");
  CHECK(patched(192 + 3, 2) == name + "195: access flags 2: expected 0 (read) or 1 (write)");
  CHECK(patched(256 + 4, 2) == name + "260: page 1 belongs to process 2: expected one below the process count 2");
  CHECK(patched(384 + 2, 7) == name + "386: page kind 7: expected 0 (anon) or 1 (file)");
  CHECK(patched(384 + 2, 1) == "(no error)");
}

TEST_CASE("a copy of a mapped Trace keeps the mapping after the original and the file are gone") {
  const Trace t = sample();
  const Params params{{"frames", std::int64_t{60}}};
  const Result lru = simulate(t, "lru", params);
  const Result belady = simulate(t, "belady", params);
  std::string mapped_path;
  std::optional<Trace> copy;
  {
    TempFile f("zero_copy_owner.pgt");
    write_native(t, f.path());
    mapped_path = std::filesystem::canonical(f.path()).string();
    std::optional<Trace> original = read_native(f.path());
    copy = *original;
    CHECK(copy->pages().data() == original->pages().data());  // shared, not copied
    original.reset();
  }  // the file is removed here; the mapping stays with the copy
  REQUIRE(mapped_anywhere(mapped_path));
  const Result lru_copy = simulate(*copy, "lru", params);
  const Result belady_copy = simulate(*copy, "belady", params);
  CHECK(lru_copy.total.faults == lru.total.faults);
  CHECK(lru_copy.total.swap_outs == lru.total.swap_outs);
  CHECK(belady_copy.total.faults == belady.total.faults);
  CHECK(belady_copy.total.swap_outs == belady.total.swap_outs);
  copy.reset();
  CHECK_FALSE(mapped_anywhere(mapped_path));  // the last copy unmaps
}

TEST_CASE("writing over the file a Trace is mapped from leaves that Trace intact") {
  const Trace t = sample();
  TempFile f("zero_copy_rewrite.pgt");
  write_native(t, f.path());
  const Trace mapped = read_native(f.path());
  // Truncating the file in place would make the next read of `mapped` a SIGBUS.
  write_native(mapped, f.path());
  CHECK(mapped.pages() == t.pages());
  check_same_columns(read_native(f.path()), t);
  write_trace(mapped, f.path(), TraceFormat::kText);
  CHECK(mapped.flags() == t.flags());
  ReadOptions text;
  text.format = TraceFormat::kText;
  CHECK(accesses_of(read_trace(f.path(), text)) == accesses_of(t));
}

TEST_CASE("parse_native with an owner uses the bytes in place; without one it copies them") {
  TempFile f("zero_copy_bytes.pgt");
  write_native(sample(), f.path());
  const std::string file = f.read();
  auto bytes = std::make_shared<std::vector<std::uint64_t>>((file.size() + 7) / 8);
  std::memcpy(bytes->data(), file.data(), file.size());
  const char* data = reinterpret_cast<const char*>(bytes->data());
  const Trace in_place = parse_native(data, file.size(), "bytes", bytes);
  CHECK(reinterpret_cast<const char*>(in_place.pages().data()) == data + 128);
  const Trace copied = parse_native(data, file.size(), "bytes");
  const auto* p = reinterpret_cast<const char*>(copied.pages().data());
  CHECK((p < data || p >= data + file.size()));
  CHECK(copied.pages() == in_place.pages());
  // The owner is shared by the Trace: dropping ours leaves the columns valid (ASan checks).
  bytes.reset();
  CHECK(in_place.pages() == copied.pages());
}

TEST_CASE("from_columns takes vectors without copying them") {
  std::vector<PageId> pages = {0, 1, 0};
  const PageId* buffer = pages.data();
  const Trace t = Trace::from_columns(std::move(pages), std::vector<std::uint8_t>{0, 1, 0}, {0, 0}, {7, 8},
                                      {PageKind::kAnon, PageKind::kFile}, {42}, 4096, "v");
  CHECK(t.pages().data() == buffer);
  CHECK(t.proc_accesses(0) == 3);
  CHECK(t.page_kind(1) == PageKind::kFile);
}

TEST_CASE("from_columns names the column, the element and what is allowed") {
  // Page p has vpn p unless `vpn` says otherwise; the pids are 1 and 2 unless `pids` does.
  const auto make = [](std::vector<PageId> pages, std::vector<std::uint8_t> flags,
                       std::vector<ProcId> procs, std::vector<std::uint8_t> kinds,
                       std::vector<std::uint64_t> vpn = {},
                       std::vector<std::uint64_t> pids = {1, 2}) {
    std::vector<PageKind> k(kinds.size());
    std::memcpy(k.data(), kinds.data(), kinds.size());  // any byte, as a mapped file may hold
    if (vpn.empty()) {
      vpn.resize(procs.size());
      std::iota(vpn.begin(), vpn.end(), 0);
    }
    return message_of([&] {
      Trace::from_columns(std::move(pages), std::move(flags), std::move(procs), std::move(vpn),
                          std::move(k), std::move(pids), 4096, "t");
    });
  };
  CHECK(make({0, 1, 2, 3}, {0, 1, 0, 0}, {0, 1, 0}, {0, 0, 0}) ==
        "trace column 'pages': element 3 is 3; expected a page id below the page count 3");
  CHECK(make({0, 1, 2, 0}, {0, 1, 2, 0}, {0, 1, 0}, {0, 0, 0}) ==
        "trace column 'flags': element 2 is 2; expected 0 (read) or 1 (write)");
  CHECK(make({0, 1, 2, 0}, {0, 1, 0, 0x81}, {0, 1, 0}, {0, 0, 0}) ==
        "trace column 'flags': element 3 is 129; expected 0 (read) or 1 (write)");
  CHECK(make({0, 1, 2, 0}, {0, 1, 0, 0}, {0, 1, 0}, {0, 2, 1}) ==
        "trace column 'page_kinds': element 1 is 2; expected 0 (anon) or 1 (file)");
  CHECK(make({0, 1, 2, 0}, {0, 1, 0, 0}, {0, 1, 2}, {0, 0, 0}) ==
        "trace column 'page_procs': element 2 is 2; expected a process id below the process count 2");
  CHECK(make({0, 1, 2}, {0, 1, 0, 0}, {0, 1, 0}, {0, 0, 0}) ==
        "trace columns 'pages' (3) and 'flags' (4) differ in length; expected one flags byte per access");
  CHECK(make({0, 1, 2}, {0, 1, 0}, {0, 1, 0}, {0, 0}) ==
        "per-page trace columns 'page_procs' (3), 'page_vpns' (3) and 'page_kinds' (2) differ in length; "
        "expected one entry per page");
  CHECK(make({0, 1, 2, 0}, {0, 1, 0, 0}, {0, 1, 0}, {0, 1, 0}) == "(no error)");
  // One page under two ids would split its accesses: pages 0 and 2 are both pid 1's vpn 7;
  // the same vpn in two processes is two pages.
  CHECK(make({0, 1, 2, 0}, {0, 1, 0, 0}, {0, 1, 0}, {0, 0, 0}, {7, 7, 0}) == "(no error)");
  CHECK(make({0, 1, 2, 0}, {0, 1, 0, 0}, {0, 1, 0}, {0, 0, 0}, {7, 5, 7}) ==
        "trace pages 0 and 2 are both pid 1 vpn 0x7; expected each (process, virtual page) once");
  CHECK(make({0, 1, 2, 0}, {0, 1, 0, 0}, {0, 1, 0}, {0, 0, 0}, {}, {9, 9}) ==
        "trace column 'proc_pids': pid 9 appears twice; expected each process once");
}

}  // namespace pagesim::test
