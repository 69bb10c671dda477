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
  TraceFormatError(const std::string& file, std::uint64_t line, const std::string& what);
  const std::string& file() const { return file_; }
  std::uint64_t line() const { return line_; }

 private:
  std::string file_;
  std::uint64_t line_;
};

// A policy broke the contract: nominated a page that is not resident, repeated one, returned
// more victims than asked or none at all.
class PolicyError : public Error {
 public:
  using Error::Error;
};

}  // namespace pagesim
