#pragma once

#include <cstdint>
#include <cstdio>
#include <memory>
#include <string>
#include <string_view>
#include <vector>

#include "pagesim/byte_source.hpp"

namespace pagesim {

// Reads a text file (or an in-memory string) line by line in bounded memory, counting lines
// from 1 for error messages. Files compressed with gzip or zstd are decompressed on the fly.
class LineReader {
 public:
  // Throws TraceFormatError if the file cannot be opened.
  static LineReader open(const std::string& path);
  static LineReader from_string(std::string_view text, std::string name = "<string>");
  static LineReader from_source(std::unique_ptr<ByteSource> source);

  // The next line without its end-of-line characters (LF or CR LF; a CR inside a line is an
  // error that says the file uses CR line endings) nor, on line 1, a UTF-8 byte-order mark;
  // false at end of input.
  bool next(std::string_view& line);
  // Whether the line next() returned last ended with a newline (false for a last line cut
  // short).
  bool terminated() const { return terminated_; }
  std::uint64_t line_number() const { return line_number_; }
  const std::string& name() const { return name_; }

 private:
  LineReader() = default;
  bool refill();
  // A CR inside a line: the file ends its lines with CR alone.
  [[noreturn]] void cr_line_ends(std::uint64_t line) const;

  std::unique_ptr<ByteSource> source_;
  std::string name_;
  std::vector<char> buffer_;
  std::size_t begin_ = 0;
  std::size_t end_ = 0;
  bool eof_ = false;
  bool terminated_ = true;
  std::uint64_t line_number_ = 0;
};

// Parses hexadecimal digits (no prefix) of a value that fits in 64 bits; false for anything
// else.
bool parse_hex_digits(std::string_view digits, std::uint64_t& value);

// Parses hexadecimal digits with or without a 0x prefix (lackey, din and pinatrace print
// them either way) of a value that fits in 64 bits; false for anything else.
bool parse_hex(std::string_view text, std::uint64_t& value);

// Parses an unsigned decimal number that fits in 64 bits (a pid); false for anything else.
bool parse_decimal(std::string_view text, std::uint64_t& value);

// Parses an unsigned decimal or 0x-prefixed hexadecimal number; false if `text` is anything
// else or does not fit in 64 bits.
bool parse_u64(std::string_view text, std::uint64_t& value);

// The next field of `rest`, fields being separated by blanks and tabs: removed from `rest`
// with the blanks before it. Empty when no field is left. Inline: readers call it per field.
inline std::string_view next_field(std::string_view& rest) {
  std::size_t start = 0;
  while (start < rest.size() && (rest[start] == ' ' || rest[start] == '\t')) ++start;
  std::size_t end = start;
  while (end < rest.size() && rest[end] != ' ' && rest[end] != '\t') ++end;
  const std::string_view field = rest.substr(start, end - start);
  rest.remove_prefix(end);
  return field;
}

}  // namespace pagesim
