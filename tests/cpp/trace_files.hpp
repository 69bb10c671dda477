#pragma once
// Helpers for the trace-format tests: temporary files and compressed copies made with zlib
// and zstd directly (independently of pagesim's reader).
#include <zlib.h>
#include <zstd.h>

#include <doctest/doctest.h>

#include <cstdio>
#include <fstream>
#include <functional>
#include <sstream>
#include <string>

#include "pagesim/error.hpp"
#include "pagesim/trace.hpp"

namespace pagesim::test {

// A file in the working directory, removed when the object goes.
class TempFile {
 public:
  explicit TempFile(std::string name) : path_("pagesim_test_" + std::move(name)) {}
  TempFile(std::string name, const std::string& contents) : TempFile(std::move(name)) { write(contents); }
  ~TempFile() { std::remove(path_.c_str()); }
  TempFile(const TempFile&) = delete;
  TempFile& operator=(const TempFile&) = delete;
  const std::string& path() const { return path_; }
  void write(const std::string& contents) const {
    std::ofstream out(path_, std::ios::binary);
    out << contents;
  }
  std::string read() const {
    std::ifstream in(path_, std::ios::binary);
    std::stringstream s;
    s << in.rdbuf();
    return s.str();
  }

 private:
  std::string path_;
};

// Checks that two traces have the same columns, page size and per-process access counts.
inline void check_same_columns(const Trace& a, const Trace& b) {
  CHECK(a.pages() == b.pages());
  CHECK(a.flags() == b.flags());
  CHECK(a.page_procs() == b.page_procs());
  CHECK(a.page_vpns() == b.page_vpns());
  CHECK(a.page_kinds() == b.page_kinds());
  CHECK(a.proc_pids() == b.proc_pids());
  CHECK(a.page_size() == b.page_size());
  for (ProcId p = 0; p < a.num_procs(); ++p) CHECK(a.proc_accesses(p) == b.proc_accesses(p));
}

inline std::string gzip(const std::string& data) {
  z_stream z{};
  deflateInit2(&z, 6, Z_DEFLATED, 16 + MAX_WBITS, 8, Z_DEFAULT_STRATEGY);
  std::string out(deflateBound(&z, static_cast<uLong>(data.size())) + 64, '\0');
  z.next_in = reinterpret_cast<Bytef*>(const_cast<char*>(data.data()));
  z.avail_in = static_cast<uInt>(data.size());
  z.next_out = reinterpret_cast<Bytef*>(out.data());
  z.avail_out = static_cast<uInt>(out.size());
  deflate(&z, Z_FINISH);
  out.resize(z.total_out);
  deflateEnd(&z);
  return out;
}

inline std::string zstd(const std::string& data) {
  std::string out(ZSTD_compressBound(data.size()), '\0');
  out.resize(ZSTD_compress(out.data(), out.size(), data.data(), data.size(), 3));
  return out;
}

inline std::string message_of(const std::function<void()>& f) {
  try {
    f();
  } catch (const Error& e) {
    return e.what();
  }
  return "(no error)";
}

// (pid, vpn, write, kind) of every access, for comparing traces.
inline std::string accesses_of(const Trace& t) {
  std::string out;
  for (std::size_t i = 0; i < t.size(); ++i) {
    const PageId p = t.page(i);
    out += std::to_string(t.proc_pid(t.page_proc(p))) + (t.write(i) ? " W " : " R ") + std::to_string(t.page_vpn(p)) +
           (t.page_kind(p) == PageKind::kFile ? " f\n" : "\n");
  }
  return out;
}

}  // namespace pagesim::test
