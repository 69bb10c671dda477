#include "pagesim/byte_source.hpp"

#include <zlib.h>
#include <zstd.h>

#include <cerrno>
#include <cstdio>
#include <cstring>
#include <vector>

#include "pagesim/error.hpp"

namespace pagesim {
namespace {

constexpr std::size_t kChunk = 1 << 18;

class FileSource final : public ByteSource {
 public:
  FileSource(std::string path, std::FILE* f) : ByteSource(std::move(path)), file_(f) {}
  ~FileSource() override { std::fclose(file_); }
  FileSource(const FileSource&) = delete;
  FileSource& operator=(const FileSource&) = delete;

  std::size_t read(char* out, std::size_t n) override {
    const std::size_t got = std::fread(out, 1, n, file_);
    if (got == 0 && std::ferror(file_)) {
      throw TraceFormatError(name(), TraceFormatError::ByteOffset{offset_},
                             std::string("read error: ") + std::strerror(errno));
    }
    offset_ += got;
    return got;
  }

 private:
  std::FILE* file_;
  std::uint64_t offset_ = 0;
};

class MemorySource final : public ByteSource {
 public:
  MemorySource(std::string_view data, std::string name) : ByteSource(std::move(name)), data_(data) {}
  std::size_t read(char* out, std::size_t n) override {
    const std::size_t k = std::min(n, data_.size() - pos_);
    if (k != 0) std::memcpy(out, data_.data() + pos_, k);
    pos_ += k;
    return k;
  }

 private:
  std::string_view data_;
  std::size_t pos_ = 0;
};

// Replays the bytes peeked for magic detection, then the rest of the raw source.
class Peeked {
 public:
  Peeked(std::unique_ptr<ByteSource> raw, std::string head) : raw_(std::move(raw)), head_(std::move(head)) {}
  std::size_t read(char* out, std::size_t n) {
    if (pos_ < head_.size()) {
      const std::size_t k = std::min(n, head_.size() - pos_);
      std::memcpy(out, head_.data() + pos_, k);
      pos_ += k;
      return k;
    }
    return raw_->read(out, n);
  }
  const ByteSource& raw() const { return *raw_; }

 private:
  std::unique_ptr<ByteSource> raw_;
  std::string head_;
  std::size_t pos_ = 0;
};

// The bytes of `in` as they are: the peeked head, then the rest.
class HeadSource final : public ByteSource {
 public:
  explicit HeadSource(Peeked in) : ByteSource(in.raw().name()), in_(std::move(in)) {}
  std::size_t read(char* out, std::size_t n) override { return in_.read(out, n); }
  const char* compression() const override { return in_.raw().compression(); }

 private:
  Peeked in_;
};

class GzipSource final : public ByteSource {
 public:
  explicit GzipSource(Peeked in) : ByteSource(in.raw().name()), in_(std::move(in)), buffer_(kChunk) {
    std::memset(&z_, 0, sizeof z_);
    if (inflateInit2(&z_, 16 + MAX_WBITS) != Z_OK) throw TraceFormatError(name(), 0, "cannot initialise zlib");
  }
  ~GzipSource() override { inflateEnd(&z_); }
  GzipSource(const GzipSource&) = delete;
  GzipSource& operator=(const GzipSource&) = delete;
  const char* compression() const override { return "gzip"; }

  std::size_t read(char* out, std::size_t n) override {
    if (n == 0 || done_) return 0;
    z_.next_out = reinterpret_cast<Bytef*>(out);
    z_.avail_out = static_cast<uInt>(std::min<std::size_t>(n, 1u << 30));
    while (z_.avail_out != 0) {
      if (z_.avail_in == 0) {
        const std::size_t got = in_.read(buffer_.data(), buffer_.size());
        if (got == 0) {
          if (member_started_) {
            throw TraceFormatError(name(), TraceFormatError::ByteOffset{consumed_},
                                   "gzip stream ends early: expected more compressed data");
          }
          done_ = true;
          break;
        }
        z_.next_in = reinterpret_cast<Bytef*>(buffer_.data());
        z_.avail_in = static_cast<uInt>(got);
      }
      const uInt before = z_.avail_in;
      member_started_ = true;
      const int rc = inflate(&z_, Z_NO_FLUSH);
      consumed_ += before - z_.avail_in;
      if (rc == Z_STREAM_END) {
        // A gzip file may hold several members (cat a.gz b.gz); continue with the next one.
        member_started_ = false;
        inflateReset(&z_);
      } else if (rc == Z_BUF_ERROR) {
        continue;  // needs more input
      } else if (rc != Z_OK) {
        throw TraceFormatError(name(), TraceFormatError::ByteOffset{consumed_},
                               std::string("corrupt gzip data: ") + (z_.msg ? z_.msg : "inflate failed"));
      }
    }
    return n - z_.avail_out;
  }

 private:
  Peeked in_;
  std::vector<char> buffer_;
  z_stream z_;
  std::uint64_t consumed_ = 0;
  bool member_started_ = false;
  bool done_ = false;
};

class ZstdSource final : public ByteSource {
 public:
  explicit ZstdSource(Peeked in) : ByteSource(in.raw().name()), in_(std::move(in)), buffer_(kChunk) {
    stream_ = ZSTD_createDStream();
    if (!stream_) throw TraceFormatError(name(), 0, "cannot initialise zstd");
    ZSTD_initDStream(stream_);
  }
  ~ZstdSource() override { ZSTD_freeDStream(stream_); }
  ZstdSource(const ZstdSource&) = delete;
  ZstdSource& operator=(const ZstdSource&) = delete;
  const char* compression() const override { return "zstd"; }

  std::size_t read(char* out, std::size_t n) override {
    ZSTD_outBuffer o{out, n, 0};
    while (o.pos < o.size && !done_) {
      if (input_.pos == input_.size) {
        const std::size_t got = in_.read(buffer_.data(), buffer_.size());
        if (got == 0) {
          if (frame_open_) {
            throw TraceFormatError(name(), TraceFormatError::ByteOffset{consumed_},
                                   "zstd stream ends early: expected more compressed data");
          }
          done_ = true;
          break;
        }
        input_ = ZSTD_inBuffer{buffer_.data(), got, 0};
      }
      const std::size_t before = input_.pos;
      const std::size_t rc = ZSTD_decompressStream(stream_, &o, &input_);
      consumed_ += input_.pos - before;
      if (ZSTD_isError(rc)) {
        throw TraceFormatError(name(), TraceFormatError::ByteOffset{consumed_},
                               std::string("corrupt zstd data: ") + ZSTD_getErrorName(rc));
      }
      frame_open_ = rc != 0;
    }
    return o.pos;
  }

 private:
  Peeked in_;
  std::vector<char> buffer_;
  ZSTD_DStream* stream_;
  ZSTD_inBuffer input_{nullptr, 0, 0};
  std::uint64_t consumed_ = 0;
  bool frame_open_ = false;
  bool done_ = false;
};

std::unique_ptr<ByteSource> detect(std::unique_ptr<ByteSource> raw) {
  std::string head(4, '\0');
  std::size_t got = 0;
  raw->read_exact(head.data(), head.size(), got);
  head.resize(got);
  const auto starts = [&](std::string_view magic) { return head.size() >= magic.size() && head.compare(0, magic.size(), magic) == 0; };
  // zstd: a frame, or a skippable frame (magic 0x184D2A5?, as pzstd writes first).
  const bool gzip = starts("\x1f\x8b");
  const bool zstd = starts("\x28\xb5\x2f\xfd") || (head.size() == 4 && (head[0] & 0xf0) == 0x50 &&
                                                   head.compare(1, 3, "\x2a\x4d\x18") == 0);
  Peeked in(std::move(raw), std::move(head));
  if (gzip) return std::make_unique<GzipSource>(std::move(in));
  if (zstd) return std::make_unique<ZstdSource>(std::move(in));
  return std::make_unique<HeadSource>(std::move(in));
}

}  // namespace

bool ByteSource::read_exact(char* out, std::size_t n, std::size_t& got) {
  got = 0;
  while (got < n) {
    const std::size_t k = read(out + got, n - got);
    if (k == 0) return false;
    got += k;
  }
  return true;
}

std::unique_ptr<ByteSource> open_source(const std::string& path) {
  std::FILE* f = std::fopen(path.c_str(), "rb");
  if (!f) throw TraceFormatError(path, 0, std::string("cannot open: ") + std::strerror(errno));
  return detect(std::make_unique<FileSource>(path, f));
}

std::unique_ptr<ByteSource> with_head(std::string head, std::unique_ptr<ByteSource> rest) {
  return std::make_unique<HeadSource>(Peeked(std::move(rest), std::move(head)));
}

std::unique_ptr<ByteSource> memory_source(std::string_view data, std::string name) {
  return detect(std::make_unique<MemorySource>(data, std::move(name)));
}

}  // namespace pagesim
