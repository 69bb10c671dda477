#include "pagesim/error.hpp"

namespace pagesim {

TraceFormatError::TraceFormatError(const std::string& file, std::uint64_t line,
                                   const std::string& what)
    : Error(file + ":" + std::to_string(line) + ": " + what), file_(file), line_(line) {}

}  // namespace pagesim
