#include "pagesim/line_reader.hpp"

#include <cerrno>
#include <cstring>

#include "pagesim/error.hpp"

namespace pagesim {

LineReader LineReader::open(const std::string& path) {
  return from_source(open_source(path));
}

LineReader LineReader::from_source(std::unique_ptr<ByteSource> source) {
  LineReader r;
  r.name_ = source->name();
  r.source_ = std::move(source);
  r.buffer_.resize(1 << 16);
  return r;
}

LineReader LineReader::from_string(std::string_view text, std::string name) {
  LineReader r;
  r.name_ = std::move(name);
  r.buffer_.assign(text.begin(), text.end());
  r.end_ = r.buffer_.size();
  r.eof_ = true;
  return r;
}

bool LineReader::refill() {
  if (eof_) return false;
  // Keep the unfinished line, read more behind it; grow if one line fills the buffer.
  std::memmove(buffer_.data(), buffer_.data() + begin_, end_ - begin_);
  end_ -= begin_;
  begin_ = 0;
  if (end_ == buffer_.size()) {
    // A binary file read as text has no line ends; do not buffer all of it.
    if (buffer_.size() >= (std::size_t{16} << 20)) {
      if (std::memchr(buffer_.data(), '\r', end_)) cr_line_ends(line_number_ + 1);
      throw TraceFormatError(name_, line_number_ + 1, "line longer than 16 MiB: expected a text trace");
    }
    buffer_.resize(buffer_.size() * 2);
  }
  const std::size_t got = source_->read(buffer_.data() + end_, buffer_.size() - end_);
  if (got == 0) {
    eof_ = true;
    return false;
  }
  end_ += got;
  return true;
}

bool LineReader::next(std::string_view& line) {
  std::size_t scanned = begin_;
  for (;;) {
    const void* nl = end_ > scanned ? std::memchr(buffer_.data() + scanned, '\n', end_ - scanned)
                                    : nullptr;
    if (nl) {
      const auto stop = static_cast<std::size_t>(static_cast<const char*>(nl) - buffer_.data());
      line = std::string_view(buffer_.data() + begin_, stop - begin_);
      begin_ = stop + 1;
      terminated_ = true;
      break;
    }
    scanned = end_ - begin_;
    if (!refill()) {
      if (begin_ == end_) return false;
      line = std::string_view(buffer_.data() + begin_, end_ - begin_);
      begin_ = end_;
      terminated_ = false;
      break;
    }
    scanned += begin_;
  }
  if (!line.empty() && line.back() == '\r') {
    line.remove_suffix(1);
    terminated_ = true;  // a CR LF file cut between the two
  }
  if (line_number_ == 0 && line.substr(0, 3) == "\xef\xbb\xbf") line.remove_prefix(3);
  ++line_number_;
  if (line.find('\r') != std::string_view::npos) cr_line_ends(line_number_);
  return true;
}

void LineReader::cr_line_ends(std::uint64_t line) const {
  throw TraceFormatError(
      name_, line,
      "carriage return inside a line: the file uses CR line endings (classic Mac OS); "
      "expected LF or CR LF (convert it with tr '\\r' '\\n')");
}

bool parse_hex_digits(std::string_view digits, std::uint64_t& value) {
  if (digits.empty()) return false;
  while (digits.size() > 16 && digits.front() == '0') digits.remove_prefix(1);
  if (digits.size() > 16) return false;
  std::uint64_t v = 0;
  for (char c : digits) {
    unsigned d;
    if (c >= '0' && c <= '9') d = static_cast<unsigned>(c - '0');
    else if (c >= 'a' && c <= 'f') d = static_cast<unsigned>(c - 'a' + 10);
    else if (c >= 'A' && c <= 'F') d = static_cast<unsigned>(c - 'A' + 10);
    else return false;
    v = (v << 4) | d;
  }
  value = v;
  return true;
}

bool parse_hex(std::string_view text, std::uint64_t& value) {
  if (text.size() > 2 && text[0] == '0' && (text[1] == 'x' || text[1] == 'X'))
    text.remove_prefix(2);
  return parse_hex_digits(text, value);
}

bool parse_decimal(std::string_view text, std::uint64_t& value) {
  if (text.empty()) return false;
  std::uint64_t v = 0;
  for (char c : text) {
    if (c < '0' || c > '9') return false;
    const auto d = static_cast<std::uint64_t>(c - '0');
    if (v > (UINT64_MAX - d) / 10) return false;
    v = v * 10 + d;
  }
  value = v;
  return true;
}

bool parse_u64(std::string_view text, std::uint64_t& value) {
  if (text.size() > 2 && text[0] == '0' && (text[1] == 'x' || text[1] == 'X'))
    return parse_hex_digits(text.substr(2), value);
  return parse_decimal(text, value);
}

}  // namespace pagesim
