// Trace file formats: round trips, hand-written lackey, din, pinatrace, SPC and MSR files,
// compressed input, streaming conversion, and a TraceFormatError for every kind of bad input.
#include <doctest/doctest.h>
#include <fcntl.h>
#include <sys/stat.h>
#include <unistd.h>

#include <csignal>
#include <cstring>
#include <filesystem>
#include <thread>

#include "helpers.hpp"
#include "pagesim/trace_io.hpp"
#include "trace_files.hpp"

namespace pagesim::test {
namespace {

// Two processes, reads and writes, anon pages (every format can hold them).
Trace anon_trace() {
  TraceBuilder b;
  const std::uint64_t pid[] = {7, 7, 9, 7, 9, 9, 7, 7};
  const std::uint64_t vpn[] = {0x7f001, 0x7f002, 0x400, 0x7f001, 0x401, 0x400, 0x10, 0x7f002};
  const bool write[] = {false, true, false, true, true, false, false, false};
  for (int i = 0; i < 8; ++i) b.add(pid[i], vpn[i], write[i]);
  return std::move(b).build();
}

Trace with_file_pages() {
  TraceBuilder b(4096, "mixed");
  b.add(1, 5, false, PageKind::kFile);
  b.add(2, 5, true);
  b.add(1, 6, false, PageKind::kFile);
  b.add(1, 5, false, PageKind::kFile);
  return std::move(b).build();
}

ReadOptions as(TraceFormat f) {
  ReadOptions o;
  o.format = f;
  return o;
}

TEST_CASE("round trip: native keeps every column, the source and the page size") {
  TempFile f("rt.pgt");
  TraceBuilder b(8192, "my source");
  b.add(3, 1, true, PageKind::kFile);
  b.add(4, 1, false);
  b.add(3, 1, false, PageKind::kFile);
  const Trace t = std::move(b).build();
  write_native(t, f.path());
  const Trace back = read_trace(f.path());
  check_same_columns(t, back);
  CHECK(back.source() == "my source");
  check_same_columns(anon_trace(), [&] { write_native(anon_trace(), f.path()); return read_native(f.path()); }());
}

TEST_CASE("a read option the format does not read is refused, naming it and the file") {
  TempFile f("opts.pgt");
  write_native(anon_trace(), f.path());
  ReadOptions size;
  size.page_size = 8192;
  CHECK(message_of([&] { read_trace(f.path(), size); }) ==
        "parameter 'page_size' does not apply to '" + f.path() +
            "', a native trace: a native trace records its own page size");
  CHECK_THROWS_AS(convert_trace(f.path(), f.path() + ".txt", size), ConfigError);
  ReadOptions pid;
  pid.pid = 3;
  CHECK_THROWS_AS(read_trace(f.path(), pid), ConfigError);
  // Without options the same file reads.
  CHECK(read_trace(f.path()).size() == anon_trace().size());

  ReadOptions numbers = as(TraceFormat::kLackey);
  numbers.page_numbers = true;
  CHECK(message_of([&] { parse_trace(" L 1000,1\n", numbers); }) ==
        "parameter 'page_numbers' does not apply to '<string>', a lackey trace: it applies to text "
        "traces only");
  ReadOptions fetches = as(TraceFormat::kText);
  fetches.instructions = true;
  CHECK(message_of([&] { parse_trace("R 1\n", fetches); }) ==
        "parameter 'instructions' does not apply to '<string>', a text trace: it applies to "
        "lackey and din traces only");
  // Detected formats are checked too; an option the format reads is taken.
  fetches.format = TraceFormat::kAuto;
  CHECK_THROWS_AS(parse_trace("R 1\n", fetches), ConfigError);
  numbers.format = TraceFormat::kText;
  CHECK(parse_trace("R 5\n", numbers).page_vpn(0) == 5);
}

TEST_CASE("round trip: native with more processes than a byte can number") {
  TraceBuilder b;
  for (std::uint64_t i = 0; i < 1001; ++i) b.add(i % 300, i % 7, i % 3 == 0);
  const Trace t = std::move(b).build();
  TempFile f("procs.pgt");
  write_native(t, f.path());
  const Trace back = read_native(f.path());
  check_same_columns(t, back);
  CHECK(back.proc_accesses(0) == 4);    // i = 0, 300, 600, 900
  CHECK(back.proc_accesses(299) == 3);  // i = 299, 599, 899
}

TEST_CASE("round trip: text, CSV and lackey give the same accesses back") {
  const Trace t = anon_trace();
  for (const char* name : {"rt.txt", "rt.csv", "rt.lackey"}) {
    CAPTURE(name);
    TempFile f(name);
    write_trace(t, f.path());
    CHECK(detect_format(f.path()) == (std::strstr(name, "csv") ? TraceFormat::kCsv
                                       : std::strstr(name, "lackey") ? TraceFormat::kLackey
                                                                     : TraceFormat::kText));
    check_same_columns(t, read_trace(f.path()));
  }
  // CSV also keeps the page kind.
  TempFile f("rt_kind.csv");
  write_csv(with_file_pages(), f.path());
  check_same_columns(with_file_pages(), read_trace(f.path()));
}

TEST_CASE("round trip: oracleGeneral keeps the page order and writes next_access_vtime") {
  // 5 3 5 9 3 5: next uses (0-based index) by hand: 2 4 5 -1 -1 -1; written 1-based, as
  // libCacheSim's reference count from 1: 3 5 6 -1 -1 -1.
  const Trace t = pages_trace({5, 3, 5, 9, 3, 5}, {true, false, false, false, true, false});
  TempFile f("rt.oracleGeneral.bin");
  write_trace(t, f.path());
  const std::string bytes = f.read();
  REQUIRE(bytes.size() == 6 * 24);
  const std::int64_t expected_next[] = {3, 5, 6, -1, -1, -1};
  const std::uint64_t expected_id[] = {5, 3, 5, 9, 3, 5};
  for (int i = 0; i < 6; ++i) {
    std::uint32_t clock, size;
    std::uint64_t id;
    std::int64_t next;
    std::memcpy(&clock, bytes.data() + 24 * i, 4);
    std::memcpy(&id, bytes.data() + 24 * i + 4, 8);
    std::memcpy(&size, bytes.data() + 24 * i + 12, 4);
    std::memcpy(&next, bytes.data() + 24 * i + 16, 8);
    CHECK(clock == static_cast<std::uint32_t>(i));
    CHECK(id == expected_id[i]);
    CHECK(size == 4096);
    CHECK(next == expected_next[i]);
  }
  const Trace back = read_trace(f.path());
  CHECK(back.pages() == t.pages());
  CHECK(back.page_vpns() == t.page_vpns());
  CHECK(back.count_writes() == 0);  // the format has no op: every record is a read
  // Several processes: obj_id = pid << 40 | vpn.
  TempFile g("multi.oracleGeneral");
  write_oracle_general(anon_trace(), g.path());
  std::uint64_t id;
  std::memcpy(&id, g.read().data() + 24 * 2 + 4, 8);
  CHECK(id == (std::uint64_t{9} << 40 | 0x400));
}

TEST_CASE("a hand-written lackey file gives the expected page accesses") {
  // 4096-byte pages. Line by line:
  //   banner                      -> pid 4242
  //   I  04000ff0,8               instruction fetch: skipped by default
  //    L 04001000,8               R page 0x4001
  //    S 04001ffc,8               spans 0x4001ffc..0x4002003: W 0x4001, W 0x4002
  //    M 7ff000010,4              R 0x7ff000, then W 0x7ff000
  //    M 04002fff,2               spans two pages: R 0x4002, R 0x4003, W 0x4002, W 0x4003
  //   ==4242== summary line       skipped
  const std::string lackey =
      "==4242== Lackey, an example Valgrind tool\n"
      "I  04000ff0,8\n"
      " L 04001000,8\n"
      " S 04001ffc,8\n"
      " M 7ff000010,4\n"
      " M 04002fff,2\n"
      "==4242== Counted 1 call to main()\n";
  const Trace t = parse_trace(lackey, as(TraceFormat::kLackey));
  CHECK(accesses_of(t) == "4242 R 16385\n4242 W 16385\n4242 W 16386\n4242 R 8384512\n4242 W 8384512\n"
                          "4242 R 16386\n4242 R 16387\n4242 W 16386\n4242 W 16387\n");
  // With instruction fetches: the I line spans 0x4000ff0..0x4000ff7, one page 0x4000.
  ReadOptions o = as(TraceFormat::kLackey);
  o.instructions = true;
  const Trace with_i = parse_trace(lackey, o);
  CHECK(with_i.size() == t.size() + 1);
  CHECK(with_i.page_vpn(with_i.page(0)) == 0x4000);
  // Detected without being told.
  CHECK(parse_trace(lackey, {}).size() == t.size());
}

TEST_CASE("lackey accesses that end at the top of the address space end there") {
  // 1-byte pages: page = address. " M fffffffffffffffe,2" reads pages 2^64-2 and 2^64-1, then
  // writes them; " L ffffffffffffffff,1" reads 2^64-1 (a loop that stepped past the last page
  // would wrap to page 0 and never end).
  ReadOptions o = as(TraceFormat::kLackey);
  o.page_size = 1;
  const Trace t = parse_trace(" M fffffffffffffffe,2\n L ffffffffffffffff,1\n", o);
  CHECK(accesses_of(t) ==
        "1 R 18446744073709551614\n1 R 18446744073709551615\n"
        "1 W 18446744073709551614\n1 W 18446744073709551615\n"
        "1 R 18446744073709551615\n");
}

TEST_CASE("a hand-written din file gives the expected page accesses") {
  // 4096-byte pages, pid 1 (din has none). Line by line:
  //   2 0                    instruction fetch: skipped by default
  //   0 1000                 R page 1
  //   0 70f60888             R 0x70f60 = 462688
  //   1 70F6088c 4           W 462688 (upper-case hex; the rest of the line is ignored)
  //   3 0x2fff               other access, with Dinero IV's 0x: R 2
  //   4 5000                 cache flush: skipped
  //   <tab>1<tab>0x00003000 comment   W 3
  //   (blank line)           skipped
  const std::string din =
      "2 0\n"
      "0 1000\n"
      "0 70f60888\n"
      "1 70F6088c 4\n"
      "3 0x2fff\n"
      "4 5000\n"
      "\t1\t0x00003000   comment\n"
      "\n";
  const Trace t = parse_trace(din, as(TraceFormat::kDin));
  CHECK(accesses_of(t) == "1 R 1\n1 R 462688\n1 W 462688\n1 R 2\n1 W 3\n");
  // A last line without a newline whose address is whole: a field after it, the CR of a CR
  // LF file, a flush (see "din cut short" for one that may be cut).
  CHECK(accesses_of(parse_trace("0 1000\n1 2000 4", as(TraceFormat::kDin))) == "1 R 1\n1 W 2\n");
  CHECK(accesses_of(parse_trace("0 1000\r\n1 2000\r", as(TraceFormat::kDin))) == "1 R 1\n1 W 2\n");
  CHECK(accesses_of(parse_trace("0 1000\n4 0", as(TraceFormat::kDin))) == "1 R 1\n");
  // With instruction fetches: "2 0" reads page 0 first.
  ReadOptions o = as(TraceFormat::kDin);
  o.instructions = true;
  CHECK(accesses_of(parse_trace(din, o)) == "1 R 0\n1 R 1\n1 R 462688\n1 W 462688\n1 R 2\n1 W 3\n");
  // 8192-byte pages and pid 7: 0x1000 >> 13 = 0, 0x70f60888 >> 13 = 231344, 0x2fff >> 13 = 1.
  o.instructions = false;
  o.page_size = 8192;
  o.pid = 7;
  CHECK(accesses_of(parse_trace(din, o)) == "7 R 0\n7 R 231344\n7 W 231344\n7 R 1\n7 W 1\n");
  // Detected by its first line.
  CHECK(accesses_of(parse_trace(din, {})) == accesses_of(t));
}

TEST_CASE("a hand-written pinatrace file gives the expected page accesses") {
  // As Pin's pinatrace prints them on Linux (%p is 0x... in glibc), then #eof; 4096-byte pages:
  //   W 0x7ffd6d1bc8f8 -> page 34357039548; R 0x7f1c2a3c6e70 -> 34120836038; R 0x1000 -> 1.
  const std::string pin =
      "0x7f1c2a1b4e43: W 0x7ffd6d1bc8f8\n"
      "0x7f1c2a1b4e50: R 0x7f1c2a3c6e70\n"
      "\n"
      "0x401000: R 0x1000\n"
      "#eof\n";
  const std::string expected = "1 W 34357039548\n1 R 34120836038\n1 R 1\n";
  CHECK(accesses_of(parse_trace(pin, as(TraceFormat::kPinatrace))) == expected);
  CHECK(accesses_of(parse_trace(pin, {})) == expected);  // detected by its first line
  // The tool was killed before its Fini: no #eof, the same accesses.
  CHECK(accesses_of(parse_trace(pin.substr(0, pin.size() - 5), as(TraceFormat::kPinatrace))) ==
        expected);
  // Windows' %p prints upper-case hex without 0x.
  CHECK(accesses_of(parse_trace("0000000140001000: W 000000000012FF08\n#eof\n", {})) ==
        "1 W 303\n");
  // glibc's %p prints a null data address as (nil): address 0, page 0.
  CHECK(accesses_of(parse_trace("0x401000: R (nil)\n0x401004: W 0x2000\n#eof\n",
                                as(TraceFormat::kPinatrace))) == "1 R 0\n1 W 2\n");
}

TEST_CASE("din and pinatrace round trips: the writers' exact lines and the same accesses back") {
  TraceBuilder b(4096, "one process");
  b.add(1, 0x7f001, false);
  b.add(1, 0x400, true);
  b.add(1, 0x7f001, true);
  const Trace t = std::move(b).build();
  TempFile din("rt.din");
  CHECK(write_trace(t, din.path()).empty());  // one process, pid 1, anonymous, 4096: nothing lost
  CHECK(din.read() == "0 7f001000\n1 400000\n1 7f001000\n");
  check_same_columns(t, read_trace(din.path()));
  TempFile pin("rt_pinatrace.out");
  CHECK(write_trace(t, pin.path()).empty());
  CHECK(pin.read() == "0x0: R 0x7f001000\n0x0: W 0x400000\n0x0: W 0x7f001000\n#eof\n");
  check_same_columns(t, read_trace(pin.path()));
  // gzip input, by name and by content.
  for (const auto& [name, contents] : {std::pair<std::string, std::string>{"rt.din.gz", din.read()},
                                       {"rt_din.gz", din.read()},
                                       {"rt_pinatrace.out.gz", pin.read()},
                                       {"rt_pin.gz", pin.read()}}) {
    CAPTURE(name);
    TempFile packed(name, gzip(contents));
    check_same_columns(t, read_trace(packed.path()));
  }
  // Several processes: the pages of pid 7 and pid 9 are read back as pid 1's.
  TempFile two("rt_two.din");
  write_trace(anon_trace(), two.path());
  CHECK(accesses_of(read_trace(two.path())) ==
        "1 R 520193\n1 W 520194\n1 R 1024\n1 W 520193\n1 W 1025\n1 R 1024\n1 R 16\n1 R 520194\n");
}

TEST_CASE("din and pinatrace are detected by name or first line; the other formats stay theirs") {
  CHECK(format_by_extension("a/t.din") == TraceFormat::kDin);
  CHECK(format_by_extension("T.DIN.zst") == TraceFormat::kDin);
  CHECK(format_by_extension("pinatrace.out") == TraceFormat::kPinatrace);
  CHECK(format_by_extension("run1.pinatrace.gz") == TraceFormat::kPinatrace);
  CHECK(format_by_extension("pinatrace.txt") == TraceFormat::kText);  // an extension wins
  // libCacheSim's traceConv --output-txt: NAME.oracleGeneral.txt is text.
  CHECK(format_by_extension("w.oracleGeneral.txt") == TraceFormat::kText);
  CHECK(format_by_extension("w.oracleGeneral") == TraceFormat::kOracleGeneral);
  CHECK(format_by_extension("w.oracleGeneral.zst") == TraceFormat::kOracleGeneral);
  CHECK(format_by_extension("pinatrace.pgt") == TraceFormat::kNative);
  CHECK(format_by_extension("trace.out") == TraceFormat::kAuto);
  // By name, whatever the content says.
  TempFile din_named("named.din", "0 1000\n");
  CHECK(detect_format(din_named.path()) == TraceFormat::kDin);
  TempFile pin_named("pinatrace.out", "#eof\n");
  CHECK(detect_format(pin_named.path()) == TraceFormat::kPinatrace);
  // By the first line that is not blank nor a comment.
  const std::pair<const char*, TraceFormat> by_content[] = {
      {"\n2 0\n0 1000\n", TraceFormat::kDin},
      {"3 0x2fff\n", TraceFormat::kDin},
      {"0x401000: R 0x7ffd0000\n#eof\n", TraceFormat::kPinatrace},
      {"0000000140001000: W 000000000012FF08\n", TraceFormat::kPinatrace},
      // A text line's op is R or W, no hex digit: "PID OP ADDRESS" and "OP ADDRESS" stay text.
      {"0 R 0x10\n", TraceFormat::kText},
      {"1 W 1f\n", TraceFormat::kText},
      {"R 1f\n", TraceFormat::kText},
      {"# c\nw 4096\n", TraceFormat::kText},
      // Not quite din (label 5, no address, a comma): what they were before.
      {"5 1000\n", TraceFormat::kText},
      {"0\n", TraceFormat::kText},
      {"0 1000,4\n", TraceFormat::kCsv},
      {"page,op\n1,R\n", TraceFormat::kCsv},
      {" L 1000,4\n", TraceFormat::kLackey},
      {"I  04000ff0,8\n", TraceFormat::kLackey},
  };
  for (const auto& [data, format] : by_content) {
    CAPTURE(data);
    TempFile f("sniffed", data);
    CHECK(detect_format(f.path()) == format);
  }
}

TEST_CASE("block traces: SPC and MSR requests become accesses to file pages, a disk a process") {
  // SPC, 4096-byte pages (8 sectors of 512 bytes):
  //   0,303567,3584,w,0.000000     ASU 0, bytes 155426304-155429887: W pages 37945, 37946
  //   1,0,512,R,0.001              ASU 1: R page 0
  //   # a comment, a blank line    skipped
  //   0,303568,8192,r,0.5,extra    bytes 155426816-155435007: R 37946, 37947 (extra fields)
  //   0,10,0,r,0.6                 0 bytes: nothing
  const std::string spc =
      "0,303567,3584,w,0.000000\n1,0,512,R,0.001\n# a comment\n\n0,303568,8192,r,0.5,extra\n"
      "0,10,0,r,0.6\n";
  const Trace t = parse_trace(spc, as(TraceFormat::kSpc));
  CHECK(accesses_of(t) == "0 W 37945 f\n0 W 37946 f\n1 R 0 f\n0 R 37946 f\n0 R 37947 f\n");
  // 512-byte pages: a page per sector, 7 + 1 + 16.
  ReadOptions sectors = as(TraceFormat::kSpc);
  sectors.page_size = 512;
  CHECK(parse_trace(spc, sectors).size() == 24);
  CHECK(accesses_of(parse_trace(spc, {})) == accesses_of(t));  // detected by its first line
  // MSR Cambridge:
  //   ...,hm,0,Read,4096,4096,51213   disk 0: R page 1
  //   ...,hm,0,Write,8191,2,100       bytes 8191-8192: W 1, 2
  //   ...,hm,1,read,0,1,100           disk 1: R 0
  const std::string msr =
      "128166372003061629,hm,0,Read,4096,4096,51213\n128166372003061630,hm,0,Write,8191,2,100\n"
      "128166372003061631,hm,1,read,0,1,100\n";
  CHECK(accesses_of(parse_trace(msr, as(TraceFormat::kMsr))) ==
        "0 R 1 f\n0 W 1 f\n0 W 2 f\n1 R 0 f\n");
  CHECK(accesses_of(parse_trace(msr, {})) == "0 R 1 f\n0 W 1 f\n0 W 2 f\n1 R 0 f\n");
  // Alibaba: device 3 writes bytes 8192-16383 (pages 2, 3), device 0 reads byte 4095 (page 0).
  const std::string alibaba = "3,W,8192,8192,1577808000000040\n0,r,4095,1,1577808000000041\n";
  CHECK(accesses_of(parse_trace(alibaba, as(TraceFormat::kAlibaba))) ==
        "3 W 2 f\n3 W 3 f\n0 R 0 f\n");
  CHECK(accesses_of(parse_trace(alibaba, {})) == "3 W 2 f\n3 W 3 f\n0 R 0 f\n");
  TempFile io("io_traces.csv", alibaba);
  CHECK(detect_format(io.path()) == TraceFormat::kAlibaba);
  CHECK(message_of([&] { parse_trace("3,T,0,512,1\n", as(TraceFormat::kAlibaba)); }) ==
        "<string>:1: expected an opcode R or W, got 'T'");
  // Named as MSR names its files, .csv, and told from CSV by its first line; .spc by name.
  TempFile hm("hm_0.csv", msr);
  CHECK(detect_format(hm.path()) == TraceFormat::kMsr);
  CHECK(read_trace(hm.path()).size() == 4);
  TempFile header("h.csv", "page,op\n1,R\n");
  CHECK(detect_format(header.path()) == TraceFormat::kCsv);
  CHECK(format_by_extension("Financial1.spc.gz") == TraceFormat::kSpc);
  CHECK(parse_format("SPC") == TraceFormat::kSpc);
  CHECK(std::string(format_name(TraceFormat::kMsr)) == "msr");

  const std::pair<std::string, std::string> bad[] = {
      {"0,1,512,x,0.0\n", "<string>:1: expected an opcode r or w, got 'x'"},
      {"0,1,512,r\n",
       "<string>:1: expected an SPC record 'ASU,LBA,Size,Opcode,Timestamp', got '0,1,512,r'"},
      {"0,1,512,r,now\n", "<string>:1: expected a timestamp in seconds, got 'now'"},
      {"0,36028797018963968,512,r,0\n",
       "<string>:1: expected an LBA whose byte offset fits in 64 bits, got '36028797018963968'"},
      {"0,36028797018963967,1024,r,0\n",
       "<string>:1: expected a request that ends within 64-bit byte offsets, got 1024 bytes at "
       "byte "
       "18446744073709551104"},
      {"0,1,0,r,0\n",
       "<string>:1: expected a request of at least one byte, found only requests of 0 bytes"},
      {"0,1,67108865,r,0\n",
       "<string>:1: expected a request of at most 64 MiB (67108864 bytes), got 67108865 bytes"},
      {"",
       "<string>: empty file: expected at least one request 'ASU,LBA,Size,Opcode,Timestamp', found "
       "none"},
  };
  for (const auto& [data, message] : bad) {
    CAPTURE(data);
    CHECK(message_of([&] { parse_trace(data, as(TraceFormat::kSpc)); }) == message);
  }
  CHECK(message_of([&] {
          parse_trace("1,hm,0,Read,0,512,1\n2,src,0,Read,0,512,1\n", as(TraceFormat::kMsr));
        }) ==
        "<string>:2: expected the host of the lines before, 'hm', got 'src': an MSR trace is one "
        "host's volumes (the disk number is the pid)");
  CHECK(message_of([&] { parse_trace("1,hm,0,Trim,0,512,1\n", as(TraceFormat::kMsr)); }) ==
        "<string>:1: expected a type Read or Write, got 'Trim'");
  ReadOptions pid = as(TraceFormat::kSpc);
  pid.pid = 3;
  CHECK(message_of([&] { parse_trace(spc, pid); }) ==
        "parameter 'pid' does not apply to '<string>', a spc trace: its disks are its pids");
  TempFile out("out.spc");
  CHECK(message_of([&] { write_trace(t, out.path()); }) ==
        "cannot write '" + out.path() +
            "' as spc: pagesim reads block I/O traces but does not write them; write native, "
            "text or CSV");
  CHECK_THROWS_AS(convert_trace(hm.path(), out.path(), {}), ConfigError);
}

TEST_CASE("a slice of a trace is a trace of those accesses, its pages numbered anew") {
  // with_file_pages() as accesses (pid op vpn [f]); slice [1, 4) of it.
  const Trace t = with_file_pages();
  const Trace s = t.slice(1, 4);
  REQUIRE(s.size() == 3);
  std::string want;
  for (std::size_t i = 1; i < 4; ++i) {
    const PageId p = t.page(i);
    want += std::to_string(t.proc_pid(t.page_proc(p))) + (t.write(i) ? " W " : " R ") +
            std::to_string(t.page_vpn(p)) + (t.page_kind(p) == PageKind::kFile ? " f" : "") + "\n";
  }
  CHECK(accesses_of(s) == want);
  CHECK(s.page(0) == 0);  // numbered as first accessed in the slice
  CHECK(s.page_size() == t.page_size());
  CHECK(s.source() == t.source() + "[1:4]");
  CHECK(t.slice(0, t.size() + 5).size() == t.size());  // stop clamped
  CHECK(t.slice(2, 2).size() == 0);
  CHECK(message_of([&] { t.slice(4, 2); }) ==
        "a trace slice [4:2] starts after it stops: expected start <= stop (at most the " +
            std::to_string(t.size()) + " accesses)");
}

TEST_CASE("CSV: columns in any order, address or page, optional op, pid, time and kind") {
  const Trace t = parse_trace("time,address,op,pid,kind\n1,0x1000,W,3,anon\n2,8192,read,3,file\n2.5,0x1fff,r,4,0\n",
                              as(TraceFormat::kCsv));
  CHECK(accesses_of(t) == "3 W 1\n3 R 2 f\n4 R 1\n");
  const Trace pages = parse_trace("page\n5\n0x6\n", as(TraceFormat::kCsv));
  CHECK(accesses_of(pages) == "1 R 5\n1 R 6\n");
}

TEST_CASE("gzip and zstd input is detected by its magic number and read like the plain file") {
  const std::string text = "1 W 0x1000\n2 R 0x2000\n1 R 0x1fff\n";
  const Trace plain = parse_trace(text, {});
  for (const auto& [name, packed] : {std::pair<std::string, std::string>{"c.txt.gz", gzip(text)},
                                     {"c.txt.zst", zstd(text)},
                                     {"c.dat", zstd(text)}}) {
    CAPTURE(name);
    TempFile f(name, packed);
    check_same_columns(plain, read_trace(f.path()));
    check_same_columns(plain, parse_trace(packed, {}));
  }
  // Two gzip members one after the other (cat a.gz b.gz) are one stream.
  check_same_columns(parse_trace(text + text, {}), parse_trace(gzip(text) + gzip(text), {}));
  // A compressed native file.
  TempFile n("c.pgt");
  write_native(plain, n.path());
  TempFile nz("c.pgt.zst", zstd(n.read()));
  check_same_columns(plain, read_trace(nz.path()));
  check_same_columns(plain, parse_trace(nz.read(), {}));
}

TEST_CASE("convert streams text to native; the result equals reading the text") {
  std::string text;
  for (int i = 0; i < 50000; ++i) text += std::to_string(i % 3) + (i % 7 ? " R " : " W ") + std::to_string((i * 7919) % 5000 * 4096) + "\n";
  TempFile in("conv.txt.gz", gzip(text));
  TempFile out("conv.pgt");
  convert_trace(in.path(), out.path(), {});
  const Trace expected = parse_trace(text, {});
  check_same_columns(expected, read_trace(out.path()));
  // And back to CSV, then to native again.
  TempFile csv("conv.csv");
  convert_trace(out.path(), csv.path(), {});
  TempFile again("conv2.pgt");
  convert_trace(csv.path(), again.path(), {});
  check_same_columns(expected, read_native(again.path()));
}

// ---- bad input ----------------------------------------------------------------------------

struct Bad {
  const char* what;
  std::string data;
  TraceFormat format;
  const char* expected;  // a substring of the message
};

TEST_CASE("every reader rejects bad input with a TraceFormatError naming where and what") {
  std::string native;
  {
    TempFile f("bad.pgt");
    write_native(anon_trace(), f.path());
    native = f.read();
  }
  const auto patched = [&](std::size_t offset, const void* value, std::size_t n) {
    std::string s = native;
    std::memcpy(s.data() + offset, value, n);
    return s;
  };
  const std::uint32_t v2 = 2, page_beyond = 1000, one = 1;
  // anon_trace's pages in order of first touch: 0 (7, 0x7f001), 1 (7, 0x7f002), 2 (9, 0x400),
  // 3 (9, 0x401), 4 (7, 0x10); its processes: 7, 9.
  std::uint64_t off_page_vpn = 0, off_proc_pid = 0;
  std::memcpy(&off_page_vpn, native.data() + 72, 8);
  std::memcpy(&off_proc_pid, native.data() + 88, 8);
  const std::uint64_t vpn_7f001 = 0x7f001, pid_7 = 7;
  std::string record(24, '\0');
  std::memset(record.data() + 16, 0xff, 8);  // next_access_vtime -1
  std::string bad_next = record + record;
  const std::int64_t zero = 0;
  std::memcpy(bad_next.data() + 24 + 16, &zero, 8);  // record 1 says its next use is record 0

  std::string varied;
  for (int i = 0; i < 20000; ++i) varied += "R " + std::to_string(i * 7919 % 100003) + "\n";
  const Bad cases[] = {
      // native
      {"empty native", "", TraceFormat::kNative, "<string>: byte 0: empty file"},
      {"wrong magic", "XXXXXXXX" + native.substr(8), TraceFormat::kNative,
       "byte 0: wrong magic number: expected 'PGSIMTRC'"},
      {"wrong version", patched(8, &v2, 4), TraceFormat::kNative,
       "byte 8: unsupported version 2: expected 1"},
      {"truncated header", native.substr(0, 60), TraceFormat::kNative, "byte 60: truncated header"},
      {"truncated columns", native.substr(0, native.size() - 3), TraceFormat::kNative,
       "truncated: the header promises"},
      {"page id beyond the page count", patched(128, &page_beyond, 4), TraceFormat::kNative,
       "byte 128: access 0 refers to page 1000: expected a page id below the page count 5"},
      {"reserved field", patched(44, &one, 4), TraceFormat::kNative,
       "byte 44: reserved field 1: expected 0"},
      {"header padding", patched(120, &one, 1), TraceFormat::kNative,
       "byte 120: header padding byte 1: expected 0"},
      {"one page twice", patched(off_page_vpn + 4 * 8, &vpn_7f001, 8), TraceFormat::kNative,
       "trace pages 0 and 4 are both pid 7 vpn 0x7f001; expected each (process, virtual page) "
       "once"},
      {"one pid twice", patched(off_proc_pid + 8, &pid_7, 8), TraceFormat::kNative,
       "pid 7 appears twice"},
      // text
      {"text unknown op", "R 1\nX 2\n", TraceFormat::kText, "<string>:2: expected R or W, got 'X'"},
      {"text non-numeric", "R 0x12g4\n", TraceFormat::kText, "<string>:1: expected an address"},
      {"text empty", "", TraceFormat::kText, "<string>: empty file: expected at least one access"},
      {"text CR line endings", "R 1\rW 2\r", TraceFormat::kText,
       "<string>:1: carriage return inside a line: the file uses CR line endings"},
      {"text hexadecimal pid", "0X10 R 0x1000\n", TraceFormat::kText,
       "<string>:1: expected a decimal process id, got '0X10'"},
      {"text binary bytes quoted", std::string("R 0x10\0\xff\n", 9), TraceFormat::kText,
       "<string>:1: expected an address (decimal or 0x hexadecimal, at most 64 bits), got "
       "'0x10\\x00\\xff'"},
      // lackey
      {"lackey unknown op", " X 0400,4\n", TraceFormat::kLackey,
       "<string>:1: expected a lackey access"},
      {"lackey non-hex", " L 04g0,4\n", TraceFormat::kLackey,
       "<string>:1: expected a hexadecimal address"},
      {"lackey non-numeric size", " L 0400,four\n", TraceFormat::kLackey,
       "<string>:1: expected a decimal size"},
      {"lackey no comma", " L 0400\n", TraceFormat::kLackey, "<string>:1: expected ADDRESS,SIZE"},
      {"lackey beyond the address space", " S ffffffffffffffff,2\n", TraceFormat::kLackey,
       "beyond the 64-bit address space"},
      {"lackey bad banner", "==12x== hello\n L 1,1\n", TraceFormat::kLackey,
       "<string>:1: expected a valgrind line '==PID== ...' or '==TIME PID== ...', got '==12x== "
       "hello'"},
      {"lackey bad time stamp", "**00:00 x1** hello\n L 1,1\n", TraceFormat::kLackey,
       "<string>:1: expected a valgrind line '**PID** ...' or '**TIME PID** ...'"},
      {"lackey empty", "==1== only a banner\n", TraceFormat::kLackey,
       "<string>:1: expected at least one lackey access"},
      {"lackey only fetches", "I  0400,4\n", TraceFormat::kLackey,
       "found only instruction fetches"},
      // din
      {"din unknown label", "0 1000\n5 2000\n", TraceFormat::kDin,
       "<string>:2: expected a din label 0 (read), 1 (write), 2 (instruction fetch), 3 (other "
       "access) or 4 (cache flush) before the address, got '5'"},
      {"din op letter", "r 1000\n", TraceFormat::kDin, "<string>:1: expected a din label 0 (read)"},
      {"din comment", "# a comment\n0 1000\n", TraceFormat::kDin, "got '#'"},
      {"din non-hex address", "0 12g4\n", TraceFormat::kDin,
       "<string>:1: expected a hexadecimal address (at most 64 bits) after the label, got '12g4'"},
      {"din missing address", "0 1000\n1\n", TraceFormat::kDin,
       "<string>:2: expected a hexadecimal address (at most 64 bits) after the label, got nothing"},
      {"din beyond 64 bits", "1 10000000000000000\n", TraceFormat::kDin,
       "<string>:1: expected a hexadecimal address (at most 64 bits) after the label, got "
       "'10000000000000000'"},
      {"din empty", "", TraceFormat::kDin,
       "<string>: empty file: expected at least one din access 'LABEL ADDRESS' (label 0 to 3), "
       "found none"},
      {"din cut short", "0 1000\n1 70f6", TraceFormat::kDin,
       "<string>:2: expected a newline at the end of the last line: the trace ends in the "
       "middle of '1 70f6' (the tool writing it stopped?); its address may be cut short"},
      {"din only flushes", "4 0\n", TraceFormat::kDin,
       "<string>:1: expected at least one din access 'LABEL ADDRESS' (label 0 to 3), found none"},
      {"din only fetches", "2 1000\n2 1004\n", TraceFormat::kDin,
       "<string>:2: expected at least one data access (label 0, 1 or 3), found only instruction "
       "fetches (read them with instructions=True)"},
      // pinatrace
      {"pinatrace unknown op", "0x401000: X 0x10\n", TraceFormat::kPinatrace,
       "<string>:1: expected R or W after the instruction address, got 'X'"},
      {"pinatrace lower-case op", "0x401000: r 0x10\n", TraceFormat::kPinatrace,
       "<string>:1: expected R or W after the instruction address, got 'r'"},
      {"pinatrace non-hex address", "0x401000: R 0x1g\n", TraceFormat::kPinatrace,
       "<string>:1: expected a hexadecimal address (at most 64 bits), got '0x1g'"},
      {"pinatrace missing address", "0x401000: W\n", TraceFormat::kPinatrace,
       "<string>:1: expected a hexadecimal address (at most 64 bits), got nothing"},
      {"pinatrace missing op", "0x401000:\n", TraceFormat::kPinatrace,
       "<string>:1: expected R or W after the instruction address, got nothing"},
      {"pinatrace no colon", "0x401000: R 0x10\n0x401000 R 0x10\n", TraceFormat::kPinatrace,
       "<string>:2: expected a pinatrace line 'IP: R ADDRESS' or 'IP: W ADDRESS' (IP and ADDRESS "
       "hexadecimal), got '0x401000 R 0x10'"},
      {"pinatrace bad ip", "0x40z000: R 0x10\n", TraceFormat::kPinatrace,
       "<string>:1: expected a pinatrace line"},
      {"pinatrace extra field", "0x401000: R 0x10 8\n", TraceFormat::kPinatrace,
       "<string>:1: expected the line to end after the address, got '8'"},
      {"pinatrace after #eof", "0x1: R 0x10\n#eof\n\n0x2: W 0x20\n", TraceFormat::kPinatrace,
       "<string>:4: expected nothing after the '#eof' that ends the trace on line 2, got '0x2: W "
       "0x20'"},
      {"pinatrace #eof twice", "0x1: R 0x10\n#eof\n#eof\n", TraceFormat::kPinatrace,
       "<string>:3: expected nothing after the '#eof'"},
      {"pinatrace cut short", "0x1: W 0x7ffd6d1bc8f8\n0x2: R 0x7f", TraceFormat::kPinatrace,
       "<string>:2: expected a newline at the end of the last access, or '#eof' after it: the "
       "trace ends in the middle of '0x2: R 0x7f' (pinatrace killed while writing it?)"},
      {"pinatrace only #eof", "#eof\n", TraceFormat::kPinatrace,
       "<string>:1: expected at least one pinatrace access 'IP: R ADDRESS' or 'IP: W ADDRESS', "
       "found none"},
      {"pinatrace empty", "", TraceFormat::kPinatrace,
       "<string>: empty file: expected at least one pinatrace access"},
      // csv
      {"csv empty", "", TraceFormat::kCsv, "<string>: empty file: expected a CSV header line"},
      {"csv header only", "page,op\n", TraceFormat::kCsv,
       "<string>:1: expected at least one access after the header"},
      {"csv unknown column", "page,colour\n1,red\n", TraceFormat::kCsv,
       "<string>:1: unknown column 'colour'"},
      {"csv no address column", "op,pid\nR,1\n", TraceFormat::kCsv,
       "exactly one of the columns 'address' and 'page'"},
      {"csv non-numeric", "page,op\n1,R\nx,R\n", TraceFormat::kCsv,
       "<string>:3: expected a page number"},
      {"csv unknown op", "page,op\n1,X\n", TraceFormat::kCsv,
       "<string>:2: expected op R, W, read or write, got 'X'"},
      {"csv field count", "page,op\n1\n", TraceFormat::kCsv,
       "<string>:2: expected 2 comma-separated fields"},
      {"csv address beyond 64 bits", "address\n0x10000000000000000\n", TraceFormat::kCsv,
       "<string>:2: expected an address (decimal or 0x hexadecimal, at most 64 bits)"},
      {"csv quoted empty field", "page\n1\n\"\"\n", TraceFormat::kCsv,
       "<string>:3: expected a page number (decimal or 0x hexadecimal), got ''"},
      {"csv hexadecimal pid", "pid,page\n0X10,1\n", TraceFormat::kCsv,
       "<string>:2: expected a decimal process id, got '0X10'"},
      {"csv time backwards", "page,time\n1,5\n2,4\n", TraceFormat::kCsv,
       "<string>:3: time '4' is earlier"},
      {"csv kind conflict", "page,kind\n1,anon\n1,file\n", TraceFormat::kCsv, "<string>:3: page"},
      // oracleGeneral
      {"oracle empty", "", TraceFormat::kOracleGeneral, "<string>: byte 0: empty file"},
      {"oracle truncated record", record + record.substr(0, 10), TraceFormat::kOracleGeneral,
       "byte 24: truncated record: expected 24 bytes (oracleGeneral), got 10"},
      {"oracle next use backwards", bad_next, TraceFormat::kOracleGeneral,
       "byte 40: record 1 has next_access_vtime 0"},
      // compression
      {"gzip ends early", gzip(varied).substr(0, 200), TraceFormat::kText,
       "gzip stream ends early"},
      {"gzip corrupt",
       std::string("\x1f\x8b\x08\x00\x00\x00\x00\x00\x00\x03garbage-garbage-garbage", 33),
       TraceFormat::kText, "corrupt gzip data"},
      {"zstd ends early", zstd("R 1\nW 2\n").substr(0, 10), TraceFormat::kText,
       "zstd stream ends early"},
      {"gzip native ends early", gzip(native).substr(0, 30), TraceFormat::kNative,
       "gzip stream ends early"},
      // detection
      {"unknown binary", std::string("\x01\x02\x00\x04", 4), TraceFormat::kAuto,
       "cannot tell the trace format"},
  };
  for (const Bad& c : cases) {
    const std::string what = c.what;
    CAPTURE(what);
    const std::string msg = message_of([&] { parse_trace(c.data, as(c.format)); });
    CHECK_MESSAGE(msg.find(c.expected) != std::string::npos, msg);
    CHECK_THROWS_AS(parse_trace(c.data, as(c.format)), TraceFormatError);
  }
}

TEST_CASE("errors from files name the file") {
  TempFile f("bad.lackey", " L 0400,4\n Q 0400,4\n");
  CHECK(message_of([&] { read_trace(f.path()); }).rfind(f.path() + ":2: expected a lackey access", 0) == 0);
  TempFile din("bad.din.gz", gzip("0 1000\n1 0x\n"));
  CHECK(message_of([&] { read_trace(din.path()); }) ==
        din.path() +
            ":2: expected a hexadecimal address (at most 64 bits) after the label, got '0x'");
  // The name chose din, and the content reads as text: the error says both.
  TempFile text("text.din", "R 1000\n");
  CHECK(message_of([&] { read_trace(text.path()); }) ==
        text.path() +
            ":1: expected a din label 0 (read), 1 (write), 2 (instruction fetch), 3 (other "
            "access) or 4 (cache flush) before the address, got 'R' (read as din because of the "
            "file's name; its first lines read as text: name the format, text, to read it as that)");
  ReadOptions named;
  named.format = TraceFormat::kDin;
  CHECK(message_of([&] { read_trace(text.path(), named); }).find("(read as") == std::string::npos);
  TempFile pin("bad_pinatrace.out", "0x1: R 0x10\n#eof\n0x1: R 0x10\n");
  CHECK(message_of([&] {
          read_trace(pin.path());
        }).rfind(pin.path() + ":3: expected nothing after", 0) == 0);
  std::string record(30, '\xff');
  TempFile g("trunc.oracleGeneral", record);
  CHECK(message_of([&] { read_trace(g.path()); }).rfind(g.path() + ": byte 24: truncated record", 0) == 0);
  TempFile z("trunc.txt.gz", gzip("R 1\nW 2\n").substr(0, 12));
  CHECK(message_of([&] { read_trace(z.path()); }).find(z.path() + ": byte ") == 0);
  CHECK_THROWS_AS(read_trace("/nonexistent/x.pgt"), TraceFormatError);
  CHECK_THROWS_AS(parse_format("parquet"), ConfigError);
}

TEST_CASE("stream_trace delivers every access to a sink without building a Trace") {
  struct Count final : AccessSink {
    std::uint64_t n = 0, writes = 0, last_vpn = 0;
    void add(std::uint64_t, std::uint64_t vpn, bool write, PageKind) override {
      ++n;
      writes += write;
      last_vpn = vpn;
    }
  };
  TempFile f("sink.csv.zst", zstd("address,op\n0x1000,W\n0x2000,R\n0x3fff,W\n"));
  Count c;
  CHECK(stream_trace(f.path(), {}, c) == 3);
  CHECK(c.n == 3);
  CHECK(c.writes == 2);
  CHECK(c.last_vpn == 3);
}

TEST_CASE("detect_format: magic number, then extension, then the first line") {
  TempFile native("d.txt");  // a native file with a misleading name
  write_native(anon_trace(), native.path());
  CHECK(detect_format(native.path()) == TraceFormat::kNative);
  TempFile lackey("d1", "==1== banner\n L 10,4\n");
  CHECK(detect_format(lackey.path()) == TraceFormat::kLackey);
  TempFile csv("d2", "# comment\npage,op\n1,R\n");
  CHECK(detect_format(csv.path()) == TraceFormat::kCsv);
  TempFile text("d3.gz", gzip("1 R 0x10\n"));
  CHECK(detect_format(text.path()) == TraceFormat::kText);
  TempFile oracle("d4.oracleGeneral.bin.zst", zstd(std::string(24, '\xff')));
  CHECK(detect_format(oracle.path()) == TraceFormat::kOracleGeneral);
  TempFile binary("d5.bin", std::string("\x01\x02\x03", 3));
  CHECK_THROWS_AS(detect_format(binary.path()), TraceFormatError);
  // UTF-8 in a comment, or in valgrind's Command: line (the program's name and arguments),
  // does not make a file binary: the first line that is neither decides.
  TempFile utf8_comment("d6",
                        "# donn\xc3\xa9"
                        "es\nR 0x1000\n");
  CHECK(detect_format(utf8_comment.path()) == TraceFormat::kText);
  TempFile utf8_banner(
      "d7.log",
      "==1== Lackey, an example Valgrind tool\n==1== Command: ./caf\xc3\xa9 -x\n L 1000,4\n");
  CHECK(detect_format(utf8_banner.path()) == TraceFormat::kLackey);
  // A deciding line that is not ASCII is no format's.
  TempFile utf8_line("d8", "R 0x1000 \xc3\xa9\n");
  CHECK_THROWS_AS(detect_format(utf8_line.path()), TraceFormatError);
}

TEST_CASE(
    "readers take what real files hold: a byte-order mark, valgrind's messages, long hex, pzstd") {
  const auto vpns = [](const Trace& t) {
    std::vector<std::uint64_t> out;
    for (std::size_t i = 0; i < t.size(); ++i) out.push_back(t.page_vpn(t.page(i)));
    return out;
  };
  ReadOptions detect;
  const Trace csv = parse_trace("\xef\xbb\xbfpage,op\n1,R\n", detect);  // Excel's "CSV UTF-8"
  CHECK(vpns(csv) == std::vector<std::uint64_t>{1});
  CHECK(vpns(parse_trace("\xef\xbb\xbfR 0x1000\n", detect)) == std::vector<std::uint64_t>{1});
  const Trace lackey = parse_trace(
      "--5-- WARNING: unhandled amd64-linux syscall: 999\n L 1000,4\n==6== x\n S 2fff,2\n", detect);
  CHECK(vpns(lackey) == std::vector<std::uint64_t>{1, 2, 3});  // 2fff,2 spans pages 2 and 3
  CHECK(lackey.proc_pid(lackey.page_proc(lackey.page(0))) == 5);
  CHECK(lackey.proc_pid(lackey.page_proc(lackey.page(1))) == 6);
  CHECK(vpns(parse_trace("R 0x00000000000000001000\n", detect)) == std::vector<std::uint64_t>{1});
  CHECK_THROWS_AS(parse_trace("R 0x10000000000000000\n", detect), TraceFormatError);  // 65 bits
  // pzstd starts with a skippable frame (magic 0x184D2A50, a 4-byte length, the payload).
  const std::string skippable(
      "\x50\x2a\x4d\x18\x04\x00\x00\x00"
      "abcd",
      12);
  CHECK(vpns(parse_trace(skippable + zstd("R 0x2000\n"), detect)) == std::vector<std::uint64_t>{2});
}

// A named pipe that a thread fills with `data` (then, if `endless`, with zeros until the
// reader closes it), as `zcat t.gz |` or `<(...)` would.
class Fifo {
 public:
  Fifo(const std::string& name, std::string data, bool endless = false) : file_(name) {
    REQUIRE(::mkfifo(file_.path().c_str(), 0600) == 0);
    writer_ = std::thread([this, data = std::move(data), endless] {
      const int fd = ::open(file_.path().c_str(), O_WRONLY);
      if (fd < 0) return;
      bool open = ::write(fd, data.data(), data.size()) == static_cast<ssize_t>(data.size());
      const std::string zeros(1 << 16, '\0');
      while (open && endless) open = ::write(fd, zeros.data(), zeros.size()) > 0;
      ::close(fd);
    });
  }
  ~Fifo() { writer_.join(); }
  Fifo(const Fifo&) = delete;
  Fifo& operator=(const Fifo&) = delete;
  const std::string& path() const { return file_.path(); }

 private:
  TempFile file_;
  std::thread writer_;
};

TEST_CASE("a trace from a pipe is opened once and read whole, in every format") {
  // 1000 lines of 16 bytes: the format is told from the first 4096 bytes, which a second open
  // of a pipe would not see again (a named pipe would not even open: no writer is left).
  std::string text;
  for (int i = 0; i < 1000; ++i) {
    char line[32];
    std::snprintf(line, sizeof line, "R 0x%011x\n", 0x1000 * i);
    text += line;
  }
  REQUIRE(text.size() == 16000);
  {
    Fifo pipe("pipe_text", text);
    const Trace t = read_trace(pipe.path());
    CHECK(t.size() == 1000);
    CHECK(t.page_vpn(t.page(999)) == 999);
  }
  std::string native;
  {
    TempFile f("pipe.pgt");
    write_native(anon_trace(), f.path());
    native = f.read();
  }
  {
    Fifo pipe("pipe_native", native);
    check_same_columns(read_trace(pipe.path()), anon_trace());
  }
  {
    Fifo pipe("pipe_native_gz", gzip(native));
    check_same_columns(read_trace(pipe.path()), anon_trace());
  }
  {
    // Data after the end: read to one byte past the size the header gives, not to the end of
    // an endless stream (without that limit this test never ends).
    struct sigaction ignore {
    }, old{};
    ignore.sa_handler = SIG_IGN;
    ::sigaction(SIGPIPE, &ignore, &old);
    {
      Fifo pipe("pipe_endless", native, true);
      const std::string msg = message_of([&] { read_trace(pipe.path()); });
      CHECK(msg == pipe.path() + ": byte " + std::to_string(native.size()) +
                       ": unexpected data after the end of the trace");
    }
    ::sigaction(SIGPIPE, &old, nullptr);
  }
  {
    Fifo pipe("pipe_convert", text);
    TempFile out("pipe_convert.pgt");
    convert_trace(pipe.path(), out.path(), {});
    CHECK(read_trace(out.path()).size() == 1000);
  }
}

TEST_CASE("a trace file is written whole or not at all") {
  TempFile out("whole.pgt", "keep me");
  // A conversion that fails on line 2 leaves the existing output as it was.
  TempFile bad("whole_bad.txt", "R 0x1000\nX 0x2000\n");
  CHECK_THROWS_AS(convert_trace(bad.path(), out.path(), {}), TraceFormatError);
  CHECK(out.read() == "keep me");
  // So does a streaming writer destroyed without finish().
  {
    NativeWriter w(out.path(), 4096, "x");
    w.add(1, 2, true, PageKind::kAnon);
  }
  CHECK(out.read() == "keep me");
  // A trace with no accesses cannot be read back from any format: refused by name.
  const Trace empty = std::move(TraceBuilder()).build();
  CHECK(message_of([&] { write_trace(empty, out.path()); }) ==
        "cannot write '" + out.path() + "': the trace has no accesses, and a trace file needs one");
  CHECK(out.read() == "keep me");
  // A conversion onto its own input reads the input to the end before replacing it.
  TempFile same("whole_same.txt", "R 0x1000\nW 0x2000\nR 0x1000\n");
  convert_trace(same.path(), same.path(), {}, TraceFormat::kNative);
  const Trace t = read_trace(same.path());  // native now, found by its magic number
  CHECK(t.size() == 3);
  CHECK(t.count_writes() == 1);
  // Streaming text to native rewrites the header last, so a pipe is refused before any
  // bytes. (A native input is loaded and written in order: that goes through a pipe.)
  {
    TempFile text("whole_text.txt", "R 0x1000\n");
    TempFile fifo("whole_fifo");
    REQUIRE(::mkfifo(fifo.path().c_str(), 0600) == 0);
    std::size_t drained = 0;
    std::thread reader([&] {
      const int fd = ::open(fifo.path().c_str(), O_RDONLY);
      char buffer[4096];
      for (ssize_t got; (got = ::read(fd, buffer, sizeof buffer)) > 0;)
        drained += static_cast<std::size_t>(got);
      ::close(fd);
    });
    CHECK(message_of([&] { convert_trace(text.path(), fifo.path(), {}, TraceFormat::kNative); })
              .find("cannot stream a native trace to '" + fifo.path() +
                    "': its header is written last") == 0);
    reader.join();
    CHECK(drained == 0);
  }
  // No temporary file is left next to it.
  std::size_t left = 0;
  for (const auto& entry : std::filesystem::directory_iterator(".")) {
    left += entry.path().filename().string().find(".pagesim-") != std::string::npos;
  }
  CHECK(left == 0);
}

// The vpn of each access, in order.
std::vector<std::uint64_t> access_vpns(const Trace& t) {
  std::vector<std::uint64_t> out;
  for (std::size_t i = 0; i < t.size(); ++i) out.push_back(t.page_vpn(t.page(i)));
  return out;
}

// One oracleGeneral record.
std::string oracle_record(std::uint64_t id, std::uint32_t size, std::int64_t next) {
  std::string r(24, '\0');
  std::memcpy(r.data() + 4, &id, 8);
  std::memcpy(r.data() + 12, &size, 4);
  std::memcpy(r.data() + 16, &next, 8);
  return r;
}

TEST_CASE("CSV reads any 64-bit page number, such as a hashed oracleGeneral id") {
  const Trace t =
      parse_trace("page\n0xdeadbeefcafebabe\n18446744073709551615\n", as(TraceFormat::kCsv));
  CHECK(access_vpns(t) == std::vector<std::uint64_t>{0xdeadbeefcafebabeULL, UINT64_MAX});
  // Written as CSV and read back: the same pages; lackey (an address format) refuses them.
  TempFile csv("hashed.csv");
  write_trace(t, csv.path());
  CHECK(access_vpns(read_trace(csv.path())) == access_vpns(t));
  TempFile lackey("hashed.lackey");
  CHECK(message_of([&] {
          write_trace(t, lackey.path());
        }).find("write the trace as native or CSV") != std::string::npos);
}

TEST_CASE(
    "lackey: valgrind's time-stamped, client-message and ++ lines are skipped and set the pid") {
  // valgrind --time-stamp=yes puts the time before the pid; VALGRIND_PRINTF lines are **PID**.
  const Trace t = parse_trace(
      "==00:00:00:00.000 844== Lackey, an example Valgrind tool\n"
      " L 00001000,4\n"
      "**844** phase 1 done\n"
      " S 00002000,4\n"
      "==00:00:00:01.000 883== Lackey, an example Valgrind tool\n"  // a second log appended
      "++883++ something\n"
      " L 00003000,4\n"
      "--00:00:00:01.250 883-- a message\n"
      " L 00004000,4\n",
      as(TraceFormat::kLackey));
  CHECK(access_vpns(t) == std::vector<std::uint64_t>{1, 2, 3, 4});
  CHECK(std::vector<std::uint64_t>(t.proc_pids().begin(), t.proc_pids().end()) ==
        std::vector<std::uint64_t>{844, 883});
  // A forked child writes into its parent's log without a banner: its accesses cannot be
  // told from the parent's, and only its exit summary names it.
  CHECK(message_of([] {
          parse_trace(
              "==100== Lackey, an example Valgrind tool\n S 1000,1\n S 2000,1\n"
              "==101== Exit code:       0\n S 3000,1\n==100== Exit code:       0\n",
              as(TraceFormat::kLackey));
        }) ==
        "<string>:4: process 101's line comes without its banner while process 100's "
        "accesses are under way: the log of a program that forks mixes the child's "
        "accesses with the parent's, with nothing to tell them apart; trace it again with "
        "--child-silent-after-fork=yes (the parent alone) or --log-file=NAME.%p (a log "
        "per process)");
  // --trace-superblocks=yes adds "SB ADDRESS" lines: skipped.
  CHECK(access_vpns(parse_trace("SB 04001000\n L 00001000,4\nSB 04001010\n",
                                as(TraceFormat::kLackey))) == std::vector<std::uint64_t>{1});
  // A log cut in the middle of its last access line.
  CHECK(message_of([] {
          parse_trace("==100== Lackey, an example Valgrind tool\n L 1000,8\n L 0ff8,1",
                      as(TraceFormat::kLackey));
        }).find("<string>:3: expected a newline at the end of the last line") == 0);
  ReadOptions detect;
  CHECK(parse_trace("**883** hi\n L 00001000,4\n", detect).page_vpn(0) == 1);  // sniffed as lackey
}

TEST_CASE("oracleGeneral skips records of size 0, as libCacheSim does; errors count every record") {
  // Records: 7 (size 0, skipped), 8, 7 (size 0), 9: the accesses are 8, 9.
  const std::string data = oracle_record(7, 0, -1) + oracle_record(8, 4096, -1) +
                           oracle_record(7, 0, -1) + oracle_record(9, 1, -1);
  CHECK(access_vpns(parse_trace(data, as(TraceFormat::kOracleGeneral))) ==
        std::vector<std::uint64_t>{8, 9});
  // Record 2 (after a skipped one) points back at record 1: named as record 2 at byte 2*24+16 = 64.
  const std::string back =
      oracle_record(7, 0, -1) + oracle_record(8, 1, -1) + oracle_record(8, 1, 1);
  CHECK(message_of([&] { parse_trace(back, as(TraceFormat::kOracleGeneral)); }) ==
        "<string>: byte 64: record 2 has next_access_vtime 1: expected -1 or the index of a later "
        "record");
  CHECK(
      message_of([&] { parse_trace(oracle_record(7, 0, -1), as(TraceFormat::kOracleGeneral)); }) ==
      "<string>: byte 0: all 1 records have obj_size 0 and are skipped (as libCacheSim does): "
      "expected at "
      "least one request of a size above 0");
  // The 1-based next_access_vtime of libCacheSim (and pagesim's writer) and a 0-based one both
  // read.
  for (const std::int64_t next : {1, 2}) {
    const std::string two = oracle_record(5, 1, next) + oracle_record(5, 1, -1);
    CHECK(access_vpns(parse_trace(two, as(TraceFormat::kOracleGeneral))) ==
          std::vector<std::uint64_t>{5, 5});
  }
}

TEST_CASE("a compressed output name is refused whatever the format asked for") {
  const Trace t = pages_trace({1, 2});
  TempFile in("plain.txt", "R 0x1000\n");
  for (const TraceFormat f : {TraceFormat::kText, TraceFormat::kCsv, TraceFormat::kLackey,
                              TraceFormat::kNative, TraceFormat::kOracleGeneral, TraceFormat::kDin,
                              TraceFormat::kPinatrace, TraceFormat::kAuto}) {
    CAPTURE(format_name(f));
    TempFile out("out.txt.zst");
    const std::string expected = "cannot write '" + out.path() +
                                 "': pagesim reads compressed traces but writes "
                                 "them uncompressed";
    CHECK(message_of([&] { write_trace(t, out.path(), f); }).rfind(expected, 0) == 0);
    CHECK(message_of([&] { convert_trace(in.path(), out.path(), {}, f); }).rfind(expected, 0) == 0);
    CHECK(!std::filesystem::exists(out.path()));
  }
  TempFile gz("each.CSV.GZ");
  CHECK_THROWS_AS(write_csv(t, gz.path()), ConfigError);  // the writers themselves too
  CHECK(!std::filesystem::exists(gz.path()));
}

TEST_CASE("text keeps the page size in its first line; the reader takes it unless given one") {
  TraceBuilder b(8192, "big pages");
  b.add(1, 3, false);
  b.add(1, 5, true);
  const Trace t = std::move(b).build();
  TempFile f("ps.txt");
  CHECK(write_trace(t, f.path()).empty());  // nothing lost
  CHECK(f.read() == "# pagesim trace: pid op address (8192-byte pages)\n1 R 0x6000\n1 W 0xa000\n");
  const Trace back = read_trace(f.path());
  CHECK(back.page_size() == 8192);
  CHECK(access_vpns(back) == std::vector<std::uint64_t>{3, 5});
  // Streamed to native, the header gets it too.
  TempFile n("ps.pgt");
  CHECK(convert_trace(f.path(), n.path(), {}).empty());
  CHECK(read_trace(n.path()).page_size() == 8192);
  // A page size given wins: 0x6000 / 4096 = 6, 0xa000 / 4096 = 10.
  ReadOptions given;
  given.page_size = 4096;
  const Trace small = read_trace(f.path(), given);
  CHECK(small.page_size() == 4096);
  CHECK(access_vpns(small) == std::vector<std::uint64_t>{6, 10});
  CHECK(read_text_trace(f.path()).page_size() == 8192);
  // Only the writer's first line counts: a later one, or another comment, is a comment.
  CHECK(parse_trace("R 0x1000\n# pagesim trace: pid op address (8192-byte pages)\n",
                    as(TraceFormat::kText))
            .page_size() == 4096);
  // A header whose page size is no page size is an error, not a comment (which would read the
  // file with 4096-byte pages).
  for (const char* size : {"3000", "0", "-4096", "4294967296", "4k", ""}) {
    CAPTURE(size);
    const std::string header =
        std::string("# pagesim trace: pid op address (") + size + "-byte pages)\nR 1\n";
    CHECK(message_of([&] { parse_trace(header, as(TraceFormat::kText)); }) ==
          std::string("<string>:1: expected the header's page size to be a power of two from 1 to "
                      "2147483648, got '") +
              size + "'");
  }
}

TEST_CASE("the pid option is the pid of accesses whose line names none, in every format") {
  ReadOptions o;
  o.pid = 7;
  for (const auto& [format, data] :
       {std::pair{TraceFormat::kText, std::string("R 0x1000\n")},
        std::pair{TraceFormat::kCsv, std::string("page\n1\n")},
        std::pair{TraceFormat::kLackey, std::string(" L 1000,1\n")},
        std::pair{TraceFormat::kDin, std::string("0 1000\n")},
        std::pair{TraceFormat::kPinatrace, std::string("0x1: R 0x1000\n")},
        std::pair{TraceFormat::kOracleGeneral, oracle_record(1, 1, -1)}}) {
    CAPTURE(format_name(format));
    o.format = format;
    CHECK(parse_trace(data, o).proc_pid(0) == 7);
    CHECK(parse_trace(data, as(format)).proc_pid(0) == (format == TraceFormat::kText ? 0 : 1));
  }
  // A pid column wins.
  o.format = TraceFormat::kCsv;
  CHECK(parse_trace("pid,page\n3,1\n", o).proc_pid(0) == 3);
  o.format = TraceFormat::kText;
  CHECK(parse_trace("3 R 0x1000\n", o).proc_pid(0) == 3);
}

TEST_CASE("lost_in says what a format does not keep of this trace, and only that") {
  // with_file_pages: pids 1 and 2, 1 write, 2 file-backed pages (1/5 and 1/6), 4096-byte pages.
  const Trace mixed = with_file_pages();
  CHECK(lost_in(mixed, TraceFormat::kNative).empty());
  CHECK(lost_in(mixed, TraceFormat::kCsv).empty());
  CHECK(lost_in(mixed, TraceFormat::kText) ==
        "text does not keep all of this trace: its 2 file-backed pages become anonymous");
  CHECK(lost_in(mixed, TraceFormat::kOracleGeneral) ==
        "oracleGeneral does not keep all of this trace: its 1 writes become reads; its 2 processes "
        "become one, "
        "pid 1, whose pages are pid << 40 | vpn; its 2 file-backed pages become anonymous");
  // din and pinatrace keep the writes, and lose the rest as oracleGeneral does.
  CHECK(
      lost_in(mixed, TraceFormat::kDin) ==
      "din does not keep all of this trace: its 2 processes become one, pid 1, in which pages of "
      "different processes at one address are one page; its 2 file-backed pages become anonymous");
  CHECK(lost_in(mixed, TraceFormat::kPinatrace) ==
        "pinatrace does not keep all of this trace: its 2 processes become one, pid 1, in which "
        "pages of different processes at one address are one page; its 2 file-backed pages become "
        "anonymous");
  CHECK(lost_in(pages_trace({1, 2, 1}, {true, false, true}), TraceFormat::kDin).empty());
  CHECK(lost_in(pages_trace({1, 2, 1}, {true, false, true}), TraceFormat::kPinatrace).empty());
  // pid 1, no writes, anonymous, 4096-byte pages: oracleGeneral loses nothing.
  CHECK(lost_in(pages_trace({1, 2, 1}), TraceFormat::kOracleGeneral).empty());
  TraceBuilder b(8192);
  b.add(5, 1, false);
  const Trace big = std::move(b).build();
  CHECK(lost_in(big, TraceFormat::kText).empty());
  CHECK(lost_in(big, TraceFormat::kLackey) ==
        "lackey does not keep all of this trace: its page size, 8192 bytes, is not recorded (read "
        "it back with page_size=8192)");
  CHECK(lost_in(big, TraceFormat::kOracleGeneral) ==
        "oracleGeneral does not keep all of this trace: its pid 5 becomes pid 1 (read it back with "
        "pid=5); its page size, 8192 bytes, is not recorded (read it back with page_size=8192)");
  CHECK(
      lost_in(big, TraceFormat::kDin) ==
      "din does not keep all of this trace: its pid 5 becomes pid 1 (read it back with pid=5); its "
      "page size, 8192 bytes, is not recorded (read it back with page_size=8192)");
  CHECK(lost_in(big, TraceFormat::kPinatrace) ==
        "pinatrace does not keep all of this trace: its pid 5 becomes pid 1 (read it back with "
        "pid=5); its page size, 8192 bytes, is not recorded (read it back with page_size=8192)");
}

TEST_CASE("a missing or empty file is named without a line number") {
  CHECK(message_of([] {
          read_trace("/nonexistent/x.txt");
        }).rfind("/nonexistent/x.txt: cannot open: ", 0) == 0);
  TempFile empty("empty.csv", "");
  CHECK(message_of([&] { read_trace(empty.path()); }) ==
        empty.path() + ": empty file: expected a CSV header line, found none");
}

TEST_CASE("a process that owns no page is refused, by name") {
  // One page, of process 0; process 1 (pid 6) owns none: no native file could hold it (Q <= P).
  CHECK(message_of([] {
          Trace::from_columns(std::vector<PageId>{0}, std::vector<std::uint8_t>{0},
                              std::vector<ProcId>{0}, std::vector<std::uint64_t>{0},
                              std::vector<PageKind>{PageKind::kAnon},
                              std::vector<std::uint64_t>{5, 6}, 4096, "");
        }) ==
        "trace column 'proc_pids': process 1 (pid 6) owns no page; expected every process to own "
        "one (in "
        "'page_procs')");
}

}  // namespace
}  // namespace pagesim::test
