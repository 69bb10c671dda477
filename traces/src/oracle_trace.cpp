// libCacheSim's oracleGeneral binary format (libCacheSim/traceReader/customizedReader/oracle/
// oracleGeneralBin.h): packed little-endian 24-byte records
//
//   uint32 clock_time; uint64 obj_id; uint32 obj_size; int64 next_access_vtime;
//
// next_access_vtime is the reference count (from 1) of the next request for the same object,
// -1 (or INT64_MAX) if there is none. The format has no op and no pid: every record is a read
// of page obj_id by one process. pagesim recomputes next use itself, so the reader only checks
// that the field points past the record, which holds for this and for the 0-based index that
// pagesim wrote before. As libCacheSim's reader does by default (ignore_size_zero_req), a
// record with obj_size 0 is skipped; error messages count every record of the file.
#include <cstring>
#include <vector>

#include "pagesim/error.hpp"
#include "readers.hpp"

namespace pagesim::detail {

std::uint64_t stream_oracle_general(ByteSource& in, const ReadOptions& options, AccessSink& sink) {
  constexpr std::size_t kRecord = kOracleRecordBytes;
  std::vector<char> buffer(kRecord * 8192);
  std::uint64_t index = 0;  // records read
  std::uint64_t count = 0;  // accesses delivered
  for (;;) {
    std::size_t got = 0;
    const bool full = in.read_exact(buffer.data(), buffer.size(), got);
    const std::size_t records = got / kRecord;
    for (std::size_t r = 0; r < records; ++r, ++index) {
      const char* rec = buffer.data() + r * kRecord;
      std::uint64_t obj_id;
      std::uint32_t obj_size;
      std::int64_t next;
      std::memcpy(&obj_id, rec + 4, 8);
      std::memcpy(&obj_size, rec + 12, 4);
      std::memcpy(&next, rec + 16, 8);
      if (next != -1 && next != INT64_MAX && (next < 0 || static_cast<std::uint64_t>(next) <= index)) {
        throw TraceFormatError(in.name(), TraceFormatError::ByteOffset{index * kRecord + 16},
                               "record " + std::to_string(index) + " has next_access_vtime " + std::to_string(next) +
                                   ": expected -1 or the index of a later record");
      }
      if (obj_size == 0) continue;
      sink.add(options.pid.value_or(1), obj_id, false, PageKind::kAnon);
      ++count;
    }
    if (got % kRecord != 0) {
      throw TraceFormatError(in.name(), TraceFormatError::ByteOffset{index * kRecord},
                             "truncated record: expected 24 bytes (oracleGeneral), got " + std::to_string(got % kRecord));
    }
    if (!full) break;
  }
  if (index == 0) {
    throw TraceFormatError(in.name(), TraceFormatError::ByteOffset{0}, "empty file: expected 24-byte oracleGeneral records");
  }
  if (count == 0) {
    throw TraceFormatError(
        in.name(), TraceFormatError::ByteOffset{0},
        "all " + std::to_string(index) +
            " records have obj_size 0 and are skipped (as libCacheSim does): expected at least "
            "one request of a size above 0");
  }
  return count;
}

}  // namespace pagesim::detail
