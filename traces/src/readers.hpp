#pragma once
// Streaming readers behind read_trace/stream_trace. Each delivers accesses to the sink, throws
// TraceFormatError on bad input (including a file without accesses) and returns the count.
#include <cstdint>

#include "pagesim/byte_source.hpp"
#include "pagesim/line_reader.hpp"
#include "pagesim/trace_io.hpp"

namespace pagesim::detail {

std::uint64_t stream_text(LineReader& in, const ReadOptions& options, AccessSink& sink);
std::uint64_t stream_lackey(LineReader& in, const ReadOptions& options, AccessSink& sink);
std::uint64_t stream_csv(LineReader& in, const ReadOptions& options, AccessSink& sink);
std::uint64_t stream_oracle_general(ByteSource& in, const ReadOptions& options, AccessSink& sink);

std::uint32_t page_shift(std::uint32_t page_size);
std::string quoted(std::string_view s);

}  // namespace pagesim::detail
