#pragma once
// Streaming readers behind read_trace/stream_trace. Each delivers accesses to the sink, throws
// TraceFormatError on bad input (including a file without accesses) and returns the count.
#include <cstdint>
#include <string>

#include "pagesim/byte_source.hpp"
#include "pagesim/line_reader.hpp"
#include "pagesim/trace_io.hpp"

namespace pagesim::detail {

std::uint64_t stream_text(LineReader& in, const ReadOptions& options, AccessSink& sink);
std::uint64_t stream_lackey(LineReader& in, const ReadOptions& options, AccessSink& sink);
std::uint64_t stream_csv(LineReader& in, const ReadOptions& options, AccessSink& sink);
std::uint64_t stream_oracle_general(ByteSource& in, const ReadOptions& options, AccessSink& sink);

std::uint32_t page_shift(std::uint32_t page_size);

// A compressed native trace: reads the rest of `source` after `bytes` (what was already read
// from it) and parses the whole, the Trace's columns pointing into the decompressed bytes.
Trace parse_native_decompressed(ByteSource& source, std::string bytes, const std::string& name);

// Call before opening `path` for writing. A Trace read from a native file maps it, and
// truncating that file would pull the pages from under the Trace (SIGBUS): an existing
// regular file is unlinked instead, so that the write creates a new one and the old one lives
// on, unnamed, as long as a mapping holds it. A symbolic link is followed (the link stays);
// anything else (a device, a pipe) is left alone.
void unlink_before_rewrite(const std::string& path);
std::string quoted(std::string_view s);

}  // namespace pagesim::detail
