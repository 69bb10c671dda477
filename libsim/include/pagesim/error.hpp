#pragma once

#include <cstdint>
#include <stdexcept>
#include <string>

namespace pagesim {

// Every error pagesim raises on bad input. The message says what was wrong and what is allowed.
class Error : public std::runtime_error {
 public:
  using std::runtime_error::runtime_error;
};

// A bad parameter, policy name, frame count or combination of options.
class ConfigError : public Error {
 public:
  using Error::Error;
};

// Malformed trace input. The message starts with "file:line:" (or "file: byte N:").
class TraceFormatError : public Error {
 public:
  // Text input: "file:line: what"; line 0 (before the first line: the file cannot be opened,
  // or has no line) gives "file: what".
  TraceFormatError(const std::string& file, std::uint64_t line, const std::string& what);
  // Binary input: "file: byte N: what" (line() is 0).
  struct ByteOffset {
    std::uint64_t value;
  };
  TraceFormatError(const std::string& file, ByteOffset offset, const std::string& what);
  const std::string& file() const { return file_; }
  std::uint64_t line() const { return line_; }
  std::uint64_t byte_offset() const { return byte_offset_; }
  // The same error with `note` after its message.
  TraceFormatError noted(const std::string& note) const;

 private:
  TraceFormatError(const std::string& message, const TraceFormatError& from);
  std::string file_;
  std::uint64_t line_;
  std::uint64_t byte_offset_ = 0;
};

// A policy broke the contract: nominated a page that is not resident, repeated one, returned
// more victims than asked or none at all.
class PolicyError : public Error {
 public:
  using Error::Error;
};

}  // namespace pagesim
