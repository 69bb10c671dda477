#pragma once

#include <cstddef>
#include <cstdint>
#include <memory>
#include <string>
#include <string_view>

namespace pagesim {

// A stream of bytes from a file or a buffer, decompressed on the fly when it starts with the
// gzip (1f 8b) or zstd (28 b5 2f fd) magic number. Memory stays bounded by the buffers, so
// readers built on it stream inputs of any length.
class ByteSource {
 public:
  virtual ~ByteSource() = default;

  // Reads up to n bytes into out; 0 only at the end of the data. Throws TraceFormatError
  // naming the file and the (compressed) byte offset on a read error, corrupt compressed data
  // or a compressed stream that ends early.
  virtual std::size_t read(char* out, std::size_t n) = 0;

  // "none", "gzip" or "zstd".
  virtual const char* compression() const { return "none"; }
  const std::string& name() const { return name_; }

  // Reads exactly n bytes; false if the data ends first (then `got` says how many were read).
  bool read_exact(char* out, std::size_t n, std::size_t& got);

 protected:
  explicit ByteSource(std::string name) : name_(std::move(name)) {}

 private:
  std::string name_;
};

// Opens a file; throws TraceFormatError if it cannot be opened.
std::unique_ptr<ByteSource> open_source(const std::string& path);
// `head`, bytes already read from `rest`, then the rest of `rest`: a look at the start of an
// input that can be read only once (a pipe) without losing it. Same name and compression.
std::unique_ptr<ByteSource> with_head(std::string head, std::unique_ptr<ByteSource> rest);
// A source over `data` (not copied: it must outlive the source), decompressed likewise.
std::unique_ptr<ByteSource> memory_source(std::string_view data, std::string name = "<string>");

}  // namespace pagesim
