// valgrind --tool=lackey --trace-mem=yes output (valgrind 3.x lackey/lk_main.c):
//
//   ==4242== Lackey, an example Valgrind tool        banner and summary lines: give the pid
//   --4242-- WARNING: unhandled syscall: 999         valgrind's own messages: the same
//   **4242** phase 1 done                           client messages (VALGRIND_PRINTF): the same
//   ++4242++ ...                                    and valgrind's ++ lines
//   ==00:00:00:01.234 4242== Lackey, ...            with --time-stamp=yes: the time, the pid
//   I  04001000,2                                   instruction fetch (skipped by default)
//    L 1ffefffb58,8                                 load
//    S 1ffefffb50,8                                 store
//    M 0421f870,4                                   modify: a load then a store
//   SB 04001000                                     --trace-superblocks=yes: skipped
//
// Addresses are hexadecimal (lackey prints %08lx, no 0x), sizes decimal. An access touches
// every page from its first byte to its last, so one that spans a page boundary touches both.
#include "pagesim/error.hpp"
#include "pagesim/line_reader.hpp"
#include "readers.hpp"

namespace pagesim::detail {
namespace {

constexpr std::uint64_t kMaxSize = 1 << 16;

bool parse_dec(std::string_view text, std::uint64_t& value) {
  return !text.empty() && text[0] != '0' ? parse_u64(text, value) : (text == "0" ? (value = 0, true) : false);
}

// A valgrind line, `line` starting with a doubled mark (==, --, ** or ++): sets `pid` to the
// pid between the marks, after the time stamp valgrind --time-stamp=yes puts before it
// (==00:00:00:01.234 4242==). False if the line is not of that shape.
bool parse_valgrind_line(std::string_view line, std::uint64_t& pid) {
  const std::string_view mark = line.substr(0, 2);
  const std::size_t end = line.find(mark, 2);
  if (end == std::string_view::npos) return false;
  std::string_view inside = line.substr(2, end - 2);
  if (const std::size_t blank = inside.rfind(' '); blank != std::string_view::npos) {
    const std::string_view stamp = inside.substr(0, blank);
    if (stamp.empty() || stamp.find_first_not_of("0123456789:.") != std::string_view::npos)
      return false;
    inside.remove_prefix(blank + 1);
  }
  return parse_dec(inside, pid);
}

}  // namespace

std::uint64_t stream_lackey(LineReader& reader, const ReadOptions& options, AccessSink& sink) {
  const std::uint32_t shift = page_shift(options.page_size_or_default());
  std::uint64_t pid = options.pid.value_or(1);
  std::uint64_t count = 0;
  std::uint64_t fetches = 0;
  bool accessed = false;      // accesses were read since the last change of pid
  bool valgrind_log = false;  // valgrind's banner was read: a log valgrind wrote
  std::string_view line;
  while (reader.next(line)) {
    const auto fail = [&](const std::string& what) {
      throw TraceFormatError(reader.name(), reader.line_number(), what);
    };
    if (line.empty()) continue;
    if (line.size() >= 2 && std::string_view("=-*+").find(line[0]) != std::string_view::npos &&
        line[1] == line[0]) {
      const std::string mark(2, line[0]);
      std::uint64_t line_pid = 0;
      if (!parse_valgrind_line(line, line_pid)) {
        fail("expected a valgrind line '" + mark + "PID" + mark + " ...' or '" + mark + "TIME PID" +
             mark + " ...', got " + quoted(line));
      }
      // In a log valgrind wrote, another process's log starts with the banner. A process
      // whose first line is anything else was forked by the one before: its accesses went
      // into the same log with nothing to tell them from its parent's. (Other files, such
      // as pagesim's own, change the pid with any such line.)
      const bool banner = line.find(" Lackey, an example Valgrind tool") != std::string_view::npos;
      valgrind_log = valgrind_log || banner;
      if (valgrind_log && line_pid != pid && accessed && !banner) {
        fail(
            "process " + std::to_string(line_pid) +
            "'s line comes without its banner while process " + std::to_string(pid) +
            "'s accesses are under way: the log of a program that forks mixes the child's accesses "
            "with the parent's, with nothing to tell them apart; trace it again with "
            "--child-silent-after-fork=yes (the parent alone) or --log-file=NAME.%p (a log per "
            "process)");
      }
      if (line_pid != pid) accessed = false;
      pid = line_pid;
      continue;
    }
    std::size_t i = 0;
    while (i < line.size() && line[i] == ' ') ++i;
    if (i == line.size()) continue;
    if (line.substr(i, 3) == "SB ") continue;  // --trace-superblocks=yes: a superblock's start
    const char op = line[i++];
    if (op != 'I' && op != 'L' && op != 'S' && op != 'M') {
      fail("expected a lackey access 'I', ' L', ' S' or ' M' followed by ADDRESS,SIZE, got " + quoted(line));
    }
    if (i == line.size() || line[i] != ' ') fail("expected a blank after the op " + quoted(std::string_view(&op, 1)));
    while (i < line.size() && line[i] == ' ') ++i;
    std::string_view rest = line.substr(i);
    while (!rest.empty() && (rest.back() == ' ' || rest.back() == '\t')) rest.remove_suffix(1);
    const std::size_t comma = rest.find(',');
    if (comma == std::string_view::npos) fail("expected ADDRESS,SIZE, got " + quoted(rest));
    std::uint64_t address = 0;
    std::uint64_t size = 0;
    if (!parse_hex(rest.substr(0, comma), address)) {
      fail("expected a hexadecimal address (at most 64 bits), got " + quoted(rest.substr(0, comma)));
    }
    if (!parse_dec(rest.substr(comma + 1), size) || size == 0 || size > kMaxSize) {
      fail("expected a decimal size from 1 to " + std::to_string(kMaxSize) + ", got " + quoted(rest.substr(comma + 1)));
    }
    if (address > UINT64_MAX - (size - 1)) {
      fail("access of " + std::to_string(size) + " bytes at " + quoted(rest.substr(0, comma)) +
           " goes beyond the 64-bit address space");
    }
    // A log always ends with valgrind's summary lines: a last access line without its
    // newline was cut, and its size may be cut short too.
    if (!reader.terminated()) {
      fail(cut_last_line(line, "log", "valgrind", "size"));
    }
    if (op == 'I') {
      ++fetches;
      if (!options.instructions) continue;
    }
    const std::uint64_t first = address >> shift;
    const std::uint64_t last = (address + size - 1) >> shift;
    // Each page of [first, last]; last may be the top page (2^64 - 1 with 1-byte pages).
    const auto add_pages = [&](bool write) {
      for (std::uint64_t p = first;; ++p) {
        sink.add(pid, p, write, PageKind::kAnon);
        if (p == last) break;
      }
      count += last - first + 1;
    };
    // M is a load then a store of the same bytes: the reads first, then the writes.
    if (op != 'S') add_pages(false);
    if (op == 'S' || op == 'M') add_pages(true);
    accessed = true;
  }
  if (count == 0) {
    throw TraceFormatError(
        reader.name(), reader.line_number(),
        if_empty(reader) +
            (fetches ? "expected at least one load or store, found only instruction fetches "
                       "(read them with instructions=True)"
                     : "expected at least one lackey access line, found none"));
  }
  return count;
}

}  // namespace pagesim::detail
