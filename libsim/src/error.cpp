#include "pagesim/error.hpp"

namespace pagesim {

TraceFormatError::TraceFormatError(const std::string& file, std::uint64_t line,
                                   const std::string& what)
    : Error(file + (line != 0 ? ":" + std::to_string(line) : std::string()) + ": " + what),
      file_(file),
      line_(line) {}

TraceFormatError::TraceFormatError(const std::string& file, ByteOffset offset,
                                   const std::string& what)
    : Error(file + ": byte " + std::to_string(offset.value) + ": " + what),
      file_(file),
      line_(0),
      byte_offset_(offset.value) {}

TraceFormatError::TraceFormatError(const std::string& message, const TraceFormatError& from)
    : Error(message), file_(from.file_), line_(from.line_), byte_offset_(from.byte_offset_) {}

TraceFormatError TraceFormatError::noted(const std::string& note) const {
  return TraceFormatError(std::string(what()) + " " + note, *this);
}

}  // namespace pagesim
