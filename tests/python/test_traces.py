import gzip
import os
import re
import subprocess
import sys

import numpy as np
import pytest

import pagesim

ENV = dict(os.environ, PYTHONPATH=os.pathsep.join(sys.path))


def cli(*args, check=True):
    return subprocess.run([sys.executable, "-m", "pagesim", *args], capture_output=True, text=True,
                          env=ENV, check=check)


def same(a, b):
    return (np.array_equal(a.pages, b.pages) and np.array_equal(a.flags, b.flags)
            and np.array_equal(a.page_vpns, b.page_vpns) and np.array_equal(a.proc_pids, b.proc_pids))


@pytest.mark.parametrize("name", ["t.pgt", "t.txt", "t.csv", "t.lackey"])
def test_save_and_load_round_trip(tmp_path, name):
    t = pagesim.Trace.from_arrays(np.array([5, 6, 5, 9]), writes=np.array([1, 0, 1, 0]),
                                  pids=np.array([1, 1, 2, 2]))
    path = tmp_path / name
    t.save(str(path))
    assert same(pagesim.load(path), t)


def test_load_detects_gzip(tmp_path):
    path = tmp_path / "t.txt.gz"
    path.write_bytes(gzip.compress(b"1 W 0x1000\n1 R 0x2000\n"))
    t = pagesim.load(path)
    assert len(t) == 2 and t.num_writes == 1
    path.write_bytes(gzip.compress(b"1 W 0x1000\n" * 5000)[:50])
    with pytest.raises(pagesim.TraceFormatError, match="gzip stream ends early"):
        pagesim.load(path)


def test_generate_and_interleave():
    q = pagesim.generate("qsbench", elements=20000, procs=2, seed=3)
    assert q.num_procs == 2 and q.num_writes > 0
    assert same(q, pagesim.generate("qsbench", elements=20000, procs=2, seed=3))
    s = pagesim.generate("stream", mib=1, files=10)
    h = pagesim.generate("hog", mib=1, pid=2)
    both = pagesim.interleave([s, h], quantum=16)
    assert len(both) == len(s) + len(h) == 512 and both.num_procs == 2
    with pytest.raises(pagesim.ConfigError, match="did you mean 'files'"):
        pagesim.generate("stream", file=3)


COMPILE = dict(heap_mib=2, header_mib=1, source_mib=0, ram_mib=16, seed=3)


def test_generate_compile_and_its_collections():
    # 1 MiB of headers: 256 units; 2 MiB live / 0.25 = 2048 allocated pages, 8 a unit, 2 of
    # them long-lived. gcc's thresholds for 16 MiB of RAM: 30 + 70 * 16 / 1024 = 31.09 -> 31%,
    # 16 MiB / 8 = 2 MiB -> raised to 4 MiB = 1024 pages. The first collection comes when the
    # heap reaches 1024 * 1.31 = 1341.44 pages: after 168 units (1344 pages, 336 live). The
    # next would need 1342 pages in use again, 126 units more: there are only 88.
    t = pagesim.generate("compile", **COMPILE)
    again, collections = pagesim.traces.compile_with_collections(**COMPILE)
    assert same(t, again)
    assert not same(t, pagesim.generate("compile", **dict(COMPILE, seed=4)))
    assert [(c["heap_pages"], c["live_pages"]) for c in collections] == [(1344, 336)]
    c = collections[0]
    assert c["start"] < c["mark"] < c["sweep"] < c["end"]
    # The mark reads each live page once, in address order; page entries are below the heap.
    vpns = t.page_vpns[t.pages[c["mark"]:c["sweep"]]]
    heap = vpns[vpns >= 1 << 24]
    assert len(heap) == 336 and np.all(np.diff(heap.astype(np.int64)) > 0)
    assert not t.writes[c["mark"]:c["sweep"]][vpns >= 1 << 24].any()
    info = pagesim.traces.summary(t)
    assert info["file_pages"] == 256 and info["processes"][0]["pid"] == 1
    # A big machine's thresholds (100%, 128 MiB): no collection at all.
    assert pagesim.traces.compile_with_collections(**dict(COMPILE, ram_mib=1024))[1] == []
    assert set(pagesim.traces.generators()) == set(pagesim._core.generator_names())
    with pytest.raises(pagesim.ConfigError,
                       match=r"^parameter 'live_fraction' = 2 is out of range: allowed 0.01 to 1$"):
        pagesim.generate("compile", live_fraction=2)
    with pytest.raises(pagesim.ConfigError, match="did you mean 'ram_mib'"):
        pagesim.traces.compile_with_collections(ram_mb=64)


def test_cli_gen_compile(tmp_path):
    path = tmp_path / "compile.pgt"
    cli("gen", "compile", "-s", "3", "-P", "heap_mib=2", "-P", "header_mib=1", "-P", "source_mib=0",
        "-P", "ram_mib=16", "-o", str(path))
    assert same(pagesim.load(path), pagesim.generate("compile", **COMPILE))
    # -m is the live heap.
    cli("gen", "compile", "-m", "2", "-s", "3", "-P", "header_mib=1", "-P", "source_mib=0",
        "-P", "ram_mib=16", "-o", str(path))
    assert same(pagesim.load(path), pagesim.generate("compile", **COMPILE))
    r = cli("gen", "compile", "-P", "ggc_min_expand=-5", check=False)
    assert r.returncode == 2
    assert r.stderr == ("pagesim: error: parameter 'ggc_min_expand' = -5 is out of range: "
                        "allowed -1 to 100000\n")


def test_traces_run_together_as_separate_processes(tmp_path):
    # Two programs traced apart, both as pid 1: together they are two processes, renumbered
    # 1 (the first input's) and 2. Pids that no two inputs share stay as they are.
    a = pagesim.Trace.from_arrays(np.array([1, 2, 3, 1, 2, 3]), writes=np.ones(6, np.uint8))
    b = pagesim.Trace.from_arrays(np.array([1, 4, 1, 4]))
    both = pagesim.together([a, b])
    assert sorted(both.proc_pids.tolist()) == [1, 2] and len(both) == 10
    assert both.num_pages == 5  # a's pages 1, 2, 3 and b's own 1, 4
    r = pagesim.simulate([a, b], "lru", frames=5)
    assert [(p["pid"], p["accesses"], p["faults"]) for p in r.per_process] == [(1, 6, 3), (2, 4, 2)]
    hog = pagesim.generate("hog", mib=1, pid=9)
    assert sorted(pagesim.together([hog, a]).proc_pids.tolist()) == [1, 9]
    # The command line takes several files the same way.
    pa, pb = tmp_path / "a.txt", tmp_path / "b.txt"
    pa.write_text("W 1\nW 2\nW 3\nW 1\nW 2\nW 3\n")
    pb.write_text("R 1\nR 4\nR 1\nR 4\n")
    out = cli("run", str(pa), str(pb), "--frames", "5", "--page-numbers").stdout
    assert out.startswith(f"# {pa} + {pb}: 10 accesses, 5 pages")
    # The /usr/bin/time view: pid 1 faulted on its 3 pages, pid 2 on its 2 (minor faults).
    section = out.split("\n\n")[1].splitlines()
    minor = 1 + section[1].split().index("minor_faults")  # after the pid
    rows = {line.split()[0]: line.split() for line in section[3:]}
    assert {pid: row[minor] for pid, row in rows.items()} == {"1": "3", "2": "2", "all": "5"}
    with pytest.raises(pagesim.ConfigError, match="at least one trace"):
        pagesim.together([])


def test_cli_gen_info_convert(tmp_path):
    out = tmp_path / "q.pgt"
    cli("gen", "qsbench", "-m", "1", "-p", "2", "-s", "5", "-o", str(out))
    info = cli("info", str(out)).stdout
    assert "accesses" in info and "footprint  512 pages, 2.0 MiB" in info and "processes  2" in info
    # --working-set: the figures of pagesim.mrc's functions (tested on their own).
    lines = cli("info", str(out), "--working-set", "1000").stdout.splitlines()
    trace = pagesim.load(out)
    sizes = pagesim.mrc.working_set_sizes(trace, 1000)
    mean = pagesim.mrc.working_set(trace, windows=[1000])["mean_size"][0]
    at = lines.index(f"working set  T = 1000 accesses: mean {mean:.1f} pages, peak "
                     f"{sizes['size'].max():.1f} (the most of the means of {sizes.index[1]} accesses)")
    each = pagesim.mrc.working_set_sizes(trace, 1000, per_process=True)
    assert lines[at + 1] == f"  each process in its own time; all at once: peak {each.sum(axis=1).max():.1f} pages"
    assert lines[at + 3].split() == ["1", f"{pagesim.mrc.working_set(trace, windows=[1000], per_process=True)['mean_size'][0]:.1f}",
                                     f"{each['size_1'].max():.1f}"]
    r = cli("info", str(out), "--working-set", "0", check=False)
    assert r.returncode == 2 and "--working-set must be >= 1" in r.stderr
    csv = tmp_path / "q.csv"
    cli("convert", str(out), str(csv))
    assert same(pagesim.load(csv), pagesim.load(out))
    bad = tmp_path / "bad.txt"
    bad.write_text("R 1\nQ 2\n")
    r = cli("info", str(bad), check=False)
    assert r.returncode == 2 and r.stderr.startswith("pagesim: error: ") and ":2: expected R or W" in r.stderr


def test_a_trace_from_a_pipe_is_read_whole(tmp_path):
    # 1000 lines of 16 bytes: more than the 4096 bytes the format is told from, which a second
    # open of the pipe would have lost.
    lines = "".join("R 0x%011x\n" % (0x1000 * i) for i in range(1000))
    r = subprocess.run([sys.executable, "-m", "pagesim", "info", "/dev/stdin"], input=lines,
                       capture_output=True, text=True, env=ENV, check=True)
    assert r.stdout.startswith("# /dev/stdin (text)\naccesses   1000\n")


def test_messages_keep_bytes_that_are_not_utf8(tmp_path):
    path = tmp_path / "x.txt"
    path.write_bytes(b"R 0x1000\nR \xff\xfe\n")
    with pytest.raises(pagesim.TraceFormatError) as e:
        pagesim.load(path)
    assert str(e.value) == (f"{path}:2: expected an address (decimal or 0x hexadecimal, at most 64 bits), "
                            "got '\\xff\\xfe'")
    # A file name that is not UTF-8: read, written, named in messages and in repr.
    name = tmp_path / os.fsdecode(b"bad\xffname.txt")
    with open(os.fsencode(name), "wb") as f:
        f.write(b"R 0x1000\nW 0x2000\n")
    t = pagesim.load(name)
    assert len(t) == 2 and "bad\\xffname.txt" in repr(t) and t.source.endswith("bad\\xffname.txt")
    t.save(tmp_path / "copy.pgt")
    assert "bad\\xffname" in repr(pagesim.load(tmp_path / "copy.pgt"))
    missing = os.fsdecode(os.fsencode(tmp_path) + b"/gone\xff.txt")
    r = cli("info", missing, check=False)
    assert r.returncode == 2 and r.stderr.startswith("pagesim: error: ") and "gone\\xff.txt" in r.stderr


def test_bad_load_arguments_name_the_key(tmp_path):
    path = tmp_path / "t.txt"
    path.write_text("R 0x1000\n")
    with pytest.raises(pagesim.ConfigError, match=r"parameter 'pid' = -1 is not allowed"):
        pagesim.Trace.load(str(path), pid=-1)
    with pytest.raises(pagesim.ConfigError, match=r"parameter 'page_size' = 4294967296 is not allowed"):
        pagesim.Trace.load(str(path), page_size=2**32)
    with pytest.raises(pagesim.ConfigError, match=r"'page_size' = 3 is not allowed: must be a power of two"):
        pagesim.load(path, page_size=3)


def test_writes_are_whole_or_not_at_all(tmp_path):
    out = tmp_path / "out.pgt"
    out.write_bytes(b"keep me")
    bad = tmp_path / "bad.txt"
    bad.write_text("R 0x1000\nX 0x2000\n")
    r = cli("convert", str(bad), str(out), check=False)
    assert r.returncode == 2 and ":2: expected R or W" in r.stderr
    assert out.read_bytes() == b"keep me"
    empty = pagesim.Trace.from_arrays(np.array([], dtype=np.uint64))
    with pytest.raises(pagesim.ConfigError, match="the trace has no accesses"):
        empty.save(out)
    assert out.read_bytes() == b"keep me"
    # Converting a file onto itself reads it to the end first.
    same = tmp_path / "same.txt"
    same.write_text("R 0x1000\nW 0x2000\nR 0x1000\n")
    cli("convert", str(same), str(same), "--to", "native")
    assert len(pagesim.load(same)) == 3
    assert sorted(p.name for p in tmp_path.iterdir()) == ["bad.txt", "out.pgt", "same.txt"]


def test_kinds_may_be_page_kind_members_and_floats_are_refused():
    kinds = [pagesim.PageKind.FILE, pagesim.PageKind.ANON, pagesim.PageKind.FILE]
    t = pagesim.Trace.from_arrays(np.array([7, 8, 9]), kinds=kinds)
    assert list(t.page_kinds) == [1, 0, 1]
    with pytest.raises(pagesim.ConfigError, match="'kinds' must hold integers; element 1 is 1.5"):
        pagesim.Trace.from_arrays(np.array([7, 8, 9]), kinds=[pagesim.PageKind.FILE, 1.5, 0])
    with pytest.raises(pagesim.ConfigError, match="'pages' element 0 is 1180591620717411303424; expected a value from 0 to"):
        pagesim.Trace.from_arrays(np.array([2**70, 1], dtype=object))
    # writes are 0 or 1 (or booleans), as from_columns has them: a 2 was taken as a write.
    assert list(pagesim.Trace.from_arrays(np.array([7, 8]), writes=np.array([True, False])).writes) == [1, 0]
    with pytest.raises(pagesim.ConfigError, match=r"'writes' must hold 0 \(read\) or 1 \(write\), or booleans; element 1 is 2"):
        pagesim.Trace.from_arrays(np.array([7, 8, 9]), writes=[0, 2, 1])


def test_cli_output_format_by_extension_or_option(tmp_path):
    # An unknown extension silently wrote the native format.
    src = tmp_path / "t.txt"
    src.write_text("R 0x1000\nW 0x2000\n")
    known = (".pgt native, .txt or .trace text, .csv, .lackey, .din, .ogb or oracleGeneral in the name, "
             "pinatrace in the name")
    for args, option in ((["convert", str(src), str(tmp_path / "out.bogus")], "--to"),
                         (["gen", "loop", "-P", "accesses=10", "-P", "pages=3", "-o",
                           str(tmp_path / "z.xyz")], "--format")):
        r = cli(*args, check=False)
        assert r.returncode == 2 and r.stderr == (
            f"pagesim: error: {args[-1]!r}: cannot tell the format to write from the name: "
            f"expected {known}; or give {option}\n")
        cli(*args, option, "csv")
        assert open(args[-1]).readline().startswith("pid,op,")
    assert sorted(p.name for p in tmp_path.iterdir()) == ["out.bogus", "t.txt", "z.xyz"]


def test_cli_info_names_the_format_option(tmp_path):
    # An oracleGeneral file without its extension: the message said format='oracle'.
    path = tmp_path / "x.ogb"
    pagesim.Trace.from_arrays(np.array([1, 2, 1])).save(path)
    bare = tmp_path / "x.bin"
    path.rename(bare)
    r = cli("info", str(bare), check=False)
    assert r.returncode == 2 and "name the format (--format oracle for libCacheSim oracleGeneral)" in r.stderr
    assert "accesses   3" in cli("info", str(bare), "--format", "oracle").stdout


def test_a_read_option_the_format_does_not_read_is_refused(tmp_path):
    # A native trace records its page size: page_size=8192 was ignored (the trace kept 4096).
    path = tmp_path / "t.pgt"
    pagesim.Trace.from_arrays(np.array([1, 2, 1])).save(path)
    with pytest.raises(pagesim.ConfigError, match="parameter 'page_size' does not apply to .*t.pgt', a native"):
        pagesim.load(path, page_size=8192)
    assert pagesim.load(path).page_size == 4096
    r = cli("info", str(path), "--page-size", "8192", check=False)
    assert r.returncode == 2 and "--page-size does not apply to" in r.stderr
    lackey = tmp_path / "t.lackey"
    pagesim.Trace.from_arrays(np.array([1, 2, 1])).save(lackey)
    r = cli("info", str(lackey), "--page-numbers", check=False)
    assert r.returncode == 2 and "--page-numbers does not apply to" in r.stderr and "text traces only" in r.stderr


def test_cli_policies_lists_parameters():
    out = cli("policies", "random", "lru").stdout
    assert out == ("random: uniformly random resident page (seeded)\n"
                   "  -P seed  integer from 0 to 9223372036854775807 (default 1)\n"
                   "\n"
                   "lru: least recently used (exact; recency stamps in a bitmap)\n"
                   "  no parameters of its own\n")
    r = cli("policies", "lur", check=False)
    assert r.returncode == 2 and "unknown policy 'lur': did you mean 'lru'?" in r.stderr
    engine = cli("policies", "--engine").stdout.splitlines()
    assert engine[0] == "engine settings, taken with every policy:"
    assert "  -P page_cluster              integer from 0 to 10 (default 3)" in engine
    assert len(engine) == 1 + len(pagesim.engine_parameters())


def test_cli_notes_that_finished_processes_keep_their_memory(tmp_path):
    # qsbench -p 2: two sorts that end one after the other; replayed without free_on_exit the
    # first one's array stays in memory, which changes every count. A note says so, once.
    path = tmp_path / "q2.pgt"
    pagesim.generate("qsbench", mib=1, procs=2).save(path)
    note = (f"pagesim: note: {path} has 2 processes; those that finish before the last keep "
            f"their memory: -P free_on_exit=true frees it as each exits\n")
    assert cli("run", str(path), "--frames", "300").stderr == note
    assert cli("sweep", str(path), "--policies", "lru", "--fractions", "0.5").stderr == note
    assert cli("run", str(path), "--frames", "300", "-P", "free_on_exit=false").stderr == ""
    single = tmp_path / "q1.pgt"
    pagesim.generate("qsbench", mib=1).save(single)
    assert cli("run", str(single), "--frames", "100").stderr == ""


def test_cli_refuses_a_key_given_twice(tmp_path):
    path = tmp_path / "t.txt"
    path.write_text("R 0x1000\n")
    r = cli("sweep", str(path), "--policies", "lru", "--frames", "2", "-P", "device=nvme", "-P", "device=zram",
            check=False)
    assert r.returncode == 2 and r.stderr == (
        "pagesim: error: -P device is given twice: give it once (sweep: several values "
        "comma-separated, -P key=a,b)\n")
    r = cli("run", str(path), "--frames", "2", "-P", "cpu_ns=1", "-P", "cpu_ns=2", check=False)
    assert r.returncode == 2 and r.stderr == "pagesim: error: -P cpu_ns is given twice: give it once\n"


def test_cli_sweep_per_process(tmp_path):
    path = tmp_path / "q2.pgt"
    pagesim.generate("qsbench", mib=1, procs=2).save(path)
    out = tmp_path / "p.csv"
    cli("sweep", str(path), "--policies", "lru", "--frames", "150", "-P", "device=nvme",
        "-P", "free_on_exit=true", "--per-process", "--columns", "faults,iowait_ns", "-o", str(out))
    import pandas as pd
    df = pd.read_csv(out)
    r = pagesim.simulate(pagesim.load(path), "lru", frames=150, device="nvme", free_on_exit=True)
    assert df["pid"].tolist() == [p["pid"] for p in r.per_process]
    assert df["faults"].tolist() == [p["faults"] for p in r.per_process]
    assert df["iowait_ns"].tolist() == [p["iowait_ns"] for p in r.per_process_time]
    r = cli("sweep", str(path), "--policies", "lru", "--frames", "150", "--per-process",
            "--columns", "seeks", check=False)
    assert r.returncode == 2 and "unknown column 'seeks'" in r.stderr


def oracle_records(*records):
    """oracleGeneral bytes: (clock_time, obj_id, obj_size, next_access_vtime) per record."""
    import struct
    return b"".join(struct.pack("<IQIq", *r) for r in records)


def test_hashed_oracle_ids_survive_csv_and_back(tmp_path):
    # A libCacheSim trace with a hashed 64-bit id, which has no byte address with 4096-byte
    # pages: ids 0xdeadbeefcafebabe, 0xdeadbeefcafebabe, 7, 2**64-1 (next uses 1-based: 2, -1).
    ids = [0xdeadbeefcafebabe, 0xdeadbeefcafebabe, 7, 2**64 - 1]
    og = tmp_path / "hash.ogb"
    og.write_bytes(oracle_records((0, ids[0], 4096, 2), (1, ids[1], 4096, -1), (2, ids[2], 4096, -1),
                                  (3, ids[3], 4096, -1)))
    pagesim.convert(og, tmp_path / "h.csv")
    for back in ["back.ogb", "back.pgt"]:
        pagesim.convert(tmp_path / "h.csv", tmp_path / back)
        t = pagesim.load(tmp_path / back)
        assert [int(t.page_vpns[p]) for p in t.pages] == ids
    # An address format refuses them, recommending formats that do keep them.
    with pytest.raises(pagesim.ConfigError, match="write the trace as native or CSV"):
        pagesim.convert(og, tmp_path / "h.txt")
    assert not (tmp_path / "h.txt").exists()


def test_oracle_next_access_vtime_is_one_based_as_libcachesim_writes_it(tmp_path):
    # Pages 5 3 5 9 3 5: the next request of each (0-based) 2 4 5 - - -, written 1-based.
    import struct
    pagesim.Trace.from_arrays([5, 3, 5, 9, 3, 5]).save(tmp_path / "t.ogb")
    data = (tmp_path / "t.ogb").read_bytes()
    assert [struct.unpack_from("<q", data, 24 * i + 16)[0] for i in range(6)] == [3, 5, 6, -1, -1, -1]


def test_from_columns_refuses_a_process_without_pages(tmp_path):
    with pytest.raises(pagesim.ConfigError,
                       match=r"^trace column 'proc_pids': process 1 \(pid 6\) owns no page"):
        pagesim.Trace.from_columns(np.array([0], np.uint32), proc_pids=np.array([5, 6], np.uint64))
    # Gaps in page_procs leave a process without a page too: process 1 of 0, 2, 2.
    with pytest.raises(pagesim.ConfigError, match=r"process 1 \(pid 2\) owns no page"):
        pagesim.Trace.from_columns(np.array([0, 1, 2], np.uint32), page_procs=np.array([0, 2, 2], np.uint32))
    # Each process with a page: saved and loaded back.
    t = pagesim.Trace.from_columns(np.array([0, 1], np.uint32), page_procs=np.array([1, 0], np.uint32),
                                   proc_pids=np.array([5, 6], np.uint64))
    t.save(tmp_path / "two.pgt")
    assert pagesim.load(tmp_path / "two.pgt").proc_pids.tolist() == [5, 6]


def test_a_compressed_output_name_is_refused_on_every_path(tmp_path):
    (tmp_path / "q.txt").write_text("R 0x1000\n")
    t = pagesim.load(tmp_path / "q.txt")
    refused = "pagesim reads compressed traces but writes them uncompressed"
    with pytest.raises(pagesim.ConfigError, match=refused):
        t.save(tmp_path / "s.csv.gz", format="csv")
    with pytest.raises(pagesim.ConfigError, match=refused):
        pagesim.convert(tmp_path / "q.txt", tmp_path / "c.lackey.gz")
    with pytest.raises(pagesim.ConfigError, match=refused):
        pagesim.convert(tmp_path / "q.txt", tmp_path / "n.zstd", out_format="native")
    r = cli("convert", str(tmp_path / "q.txt"), str(tmp_path / "o.txt.zst"), check=False)
    assert r.returncode == 2 and refused in r.stderr
    r = cli("gen", "loop", "-P", "accesses=10", "-P", "pages=2", "-o", str(tmp_path / "g.txt.gz"),
            "--format", "text", check=False)
    assert r.returncode == 2 and refused in r.stderr
    assert sorted(p.name for p in tmp_path.iterdir()) == ["q.txt"]


def test_real_valgrind_lines_are_skipped(tmp_path):
    # valgrind --time-stamp=yes banners, a VALGRIND_PRINTF client message and a ++ line.
    path = tmp_path / "v.lackey"
    path.write_text("==00:00:00:00.000 844== Lackey, an example Valgrind tool\n"
                    "==00:00:00:00.000 844== \n"
                    " S 1fff000708,8\n"
                    "**844** phase 1 done\n"
                    "++844++ x\n"
                    " L 04001000,4\n")
    t = pagesim.load(path)
    assert t.page_vpns.tolist() == [0x1fff000, 0x4001] and t.proc_pids.tolist() == [844]


def test_page_size_survives_text_and_lossy_writes_warn(tmp_path):
    t = pagesim.generate("qsbench", mib=1, page_size=8192, seed=1)
    assert t.page_size == 8192 and t.num_writes > 0
    t.save(tmp_path / "q.txt")  # text keeps the page size: no warning (pytest's -W error would fail)
    back = pagesim.load(tmp_path / "q.txt")
    assert back.page_size == 8192 and same(back, t)
    assert pagesim.Trace.from_text(str(tmp_path / "q.txt")).page_size == 8192
    assert pagesim.load(tmp_path / "q.txt", page_size=4096).page_size == 4096  # a given one wins
    with pytest.warns(UserWarning) as caught:
        t.save(tmp_path / "q.csv")
    assert [str(w.message) for w in caught] == [
        f"{tmp_path / 'q.csv'}: csv does not keep all of this trace: its page size, 8192 bytes, is not "
        f"recorded (read it back with page_size=8192)"]
    assert pagesim.load(tmp_path / "q.csv", page_size=8192).page_size == 8192
    with pytest.warns(UserWarning, match=rf"^{tmp_path / 'q.ogb'}: oracleGeneral does not keep all of "
                                         rf"this trace: its {t.num_writes} writes become reads; its page "
                                         rf"size, 8192 bytes"):
        pagesim.convert(tmp_path / "q.txt", tmp_path / "q.ogb")
    # Nothing lost: no warning (a read-only, pid 1, 4096-byte trace as oracleGeneral).
    import warnings
    with warnings.catch_warnings():
        warnings.simplefilter("error")
        pagesim.Trace.from_arrays([1, 2, 1]).save(tmp_path / "r.ogb")
        pagesim.convert(tmp_path / "r.ogb", tmp_path / "r.csv")
    # The command line prints the note on stderr.
    r = cli("convert", str(tmp_path / "q.txt"), str(tmp_path / "c.lackey"))
    assert r.stderr == (f"pagesim: note: {tmp_path / 'c.lackey'}: lackey does not keep all of this trace: "
                        f"its page size, 8192 bytes, is not recorded (read it back with --page-size 8192)\n")
    r = cli("gen", "loop", "-P", "accesses=10", "-P", "pages=2", "-P", "write_fraction=1",
            "-o", str(tmp_path / "g.ogb"))
    assert r.stderr == (f"pagesim: note: {tmp_path / 'g.ogb'}: oracleGeneral does not keep all of this "
                        f"trace: its 10 writes become reads\n")
    assert cli("gen", "loop", "-P", "accesses=10", "-P", "pages=2", "-o", str(tmp_path / "g.csv")).stderr == ""
    # A pid that oracleGeneral cannot keep is read back with --pid.
    pagesim.Trace.from_arrays([1, 2, 1], pids=[9, 9, 9]).save(tmp_path / "p9.pgt")
    r = cli("convert", str(tmp_path / "p9.pgt"), str(tmp_path / "p9.ogb"))
    assert r.stderr == (f"pagesim: note: {tmp_path / 'p9.ogb'}: oracleGeneral does not keep all of "
                        f"this trace: its pid 9 becomes pid 1 (read it back with --pid 9)\n")
    info = cli("info", "--pid", "9", str(tmp_path / "p9.ogb")).stdout
    assert re.search(r"^\s+9\s+3\s+0\s+2\s", info, re.M), info  # pid 9: 3 accesses, 2 pages


@pytest.mark.parametrize("bad", [-1, 0, 3, 2**32, 4096.0, "4096", True])
def test_a_bad_page_size_is_a_config_error_naming_it(tmp_path, bad):
    (tmp_path / "t.txt").write_text("R 0x1000\n")
    np_pages = np.array([0], np.uint32)
    calls = [lambda: pagesim.Trace.from_arrays([1], page_size=bad),
             lambda: pagesim.Trace.from_columns(np_pages, page_size=bad),
             lambda: pagesim.Trace.from_text(str(tmp_path / "t.txt"), page_size=bad),
             lambda: pagesim.Trace.parse_text("R 0x1000\n", page_size=bad),
             lambda: pagesim.Trace.load(str(tmp_path / "t.txt"), page_size=bad),
             lambda: pagesim.convert(tmp_path / "t.txt", tmp_path / "t.pgt", page_size=bad)]
    for call in calls:
        with pytest.raises(pagesim.ConfigError,
                           match=rf"^parameter 'page_size' = {bad!r} is not allowed: must be a power of "
                                 rf"two from 1 to 2\*\*31"):
            call()


def test_from_arrays_takes_and_names_the_whole_uint64_range():
    t = pagesim.Trace.from_arrays([2**64 - 1, 0])
    assert t.page_vpns.tolist() == [2**64 - 1, 0]
    assert pagesim.Trace.from_arrays(np.array([2**64 - 1, 1], dtype=object)).page_vpns.tolist() == [2**64 - 1, 1]
    with pytest.raises(pagesim.ConfigError,
                       match=r"'pages' element 0 is 18446744073709551616; expected a value from 0 to "
                             r"18446744073709551615$"):
        pagesim.Trace.from_arrays([2**64, 1])
    with pytest.raises(pagesim.ConfigError, match=r"'pages' must hold integers; element 1 is 2.5$"):
        pagesim.Trace.from_arrays([1, 2.5])


def test_pid_option_and_smaller_reader_fixes(tmp_path):
    (tmp_path / "x.txt").write_text("R 0x1000\n")
    (tmp_path / "x.csv").write_text("page\n1\n")
    for name, default in [("x.txt", 0), ("x.csv", 1)]:
        assert pagesim.Trace.load(str(tmp_path / name), pid=7).proc_pids.tolist() == [7]
        assert pagesim.load(tmp_path / name, pid=7).proc_pids.tolist() == [7]
        assert pagesim.load(tmp_path / name).proc_pids.tolist() == [default]
    assert pagesim.summary is pagesim.traces.summary and "summary" in pagesim.__all__
    (tmp_path / "mac.txt").write_bytes(b"1 R 0x1000\r1 W 0x2000\r")
    with pytest.raises(pagesim.TraceFormatError,
                       match=r"mac.txt:1: carriage return inside a line: the file uses CR line endings"):
        pagesim.load(tmp_path / "mac.txt")
    (tmp_path / "empty.txt").write_text("")
    with pytest.raises(pagesim.TraceFormatError,
                       match=r"empty.txt: empty file: expected at least one access, found none$"):
        pagesim.load(tmp_path / "empty.txt")
    with pytest.raises(pagesim.TraceFormatError, match=r"gone.txt: cannot open: No such file"):
        pagesim.load(tmp_path / "gone.txt")


# Dinero din: a fetch (skipped), R 0x1000, W 0x70f6088c (the size after it ignored), label 3
# (another kind of access: a read) at 0x2fff, a cache flush (skipped).
DIN = "2 0\n0 1000\n1 70f6088c 4\n3 0x2fff\n4 5000\n"
# Pin's pinatrace: W 0x7ffd6d1bc8f8 (page 0x7ffd6d1bc), R 0x1000, the end.
PIN = "0x7f1c2a1b4e43: W 0x7ffd6d1bc8f8\n0x401000: R 0x1000\n#eof\n"


def accesses(t):
    return list(zip(t.page_vpns[t.pages].tolist(), t.flags.tolist()))


def test_din_and_pinatrace_load_detect_and_round_trip(tmp_path):
    (tmp_path / "t.din").write_text(DIN)
    t = pagesim.load(tmp_path / "t.din")
    assert accesses(t) == [(1, 0), (0x70f60, 1), (2, 0)] and t.proc_pids.tolist() == [1]
    assert accesses(pagesim.load(tmp_path / "t.din", instructions=True)) == [(0, 0), (1, 0), (0x70f60, 1), (2, 0)]
    (tmp_path / "pinatrace.out").write_text(PIN)
    p = pagesim.load(tmp_path / "pinatrace.out", pid=4)
    assert accesses(p) == [(0x7ffd6d1bc, 1), (1, 0)] and p.proc_pids.tolist() == [4]
    # By name, and by the first line whatever the name, compressed or not.
    (tmp_path / "bare").write_text(DIN)
    (tmp_path / "bare.gz").write_bytes(gzip.compress(PIN.encode()))
    assert [pagesim.traces.detect_format(tmp_path / n) for n in ["t.din", "pinatrace.out", "bare", "bare.gz"]] == [
        "din", "pinatrace", "din", "pinatrace"]
    assert same(pagesim.load(tmp_path / "bare.gz"), pagesim.load(tmp_path / "pinatrace.out"))
    # One process, pid 1, anonymous, 4096-byte pages: written without a warning (-W error) and
    # read back the same.
    for name in ["r.din", "r.pinatrace"]:
        t.save(tmp_path / name)
        assert same(pagesim.load(tmp_path / name), t)
    assert (tmp_path / "r.din").read_text() == "0 1000\n1 70f60000\n0 2000\n"
    assert (tmp_path / "r.pinatrace").read_text() == "0x0: R 0x1000\n0x0: W 0x70f60000\n0x0: R 0x2000\n#eof\n"


def load_error(path, **options):
    """The message of the TraceFormatError that loading `path` raises."""
    with pytest.raises(pagesim.TraceFormatError) as e:
        pagesim.load(path, **options)
    return str(e.value)


def test_an_error_in_a_trace_whose_name_chose_its_format_says_so(tmp_path):
    # Text in a file named as Pin names its output: read as pinatrace, and the error says why.
    (tmp_path / "pinatrace.out").write_text("R 1000\n")
    assert load_error(tmp_path / "pinatrace.out") == (
        f"{tmp_path / 'pinatrace.out'}:1: expected a pinatrace line 'IP: R ADDRESS' or 'IP: W ADDRESS' "
        "(IP and ADDRESS hexadecimal), got 'R 1000' (read as pinatrace because of the file's name; its "
        "first lines read as text: name the format, text, to read it as that)")
    # Text's R 1000 reads byte 1000 (decimal): page 0.
    assert accesses(pagesim.load(tmp_path / "pinatrace.out", format="text")) == [(0, 0)]
    # Named, or chosen by the content: the error alone.
    assert load_error(tmp_path / "pinatrace.out", format="pinatrace").endswith("got 'R 1000'")
    # A din file whose first line has a typo looks like text to the format detection, but
    # does not read as text: no note.
    (tmp_path / "typo.din").write_text("0 7g\n1 2000\n")
    assert load_error(tmp_path / "typo.din").endswith("after the label, got '7g'")
    (tmp_path / "bare").write_text("0 1000\n1 zz\n")
    assert load_error(tmp_path / "bare").endswith("after the label, got 'zz'")
    # A lackey log named as a native trace: the native reader's error, and the note.
    (tmp_path / "log.pgt").write_text("==7== Lackey, an example tool\n I  04016b0,3\n L  1ffefffd18,8\n")
    assert load_error(tmp_path / "log.pgt") == (
        f"{tmp_path / 'log.pgt'}: byte 0: wrong magic number: expected 'PGSIMTRC' (a pagesim native trace) "
        "(read as native because of the file's name; its first lines read as lackey: name the format, "
        "lackey, to read it as that)")
    assert accesses(pagesim.load(tmp_path / "log.pgt", format="lackey")) == [(0x1ffefff, 0)]  # a load
    # Binary oracleGeneral records named as traceConv --output-txt names its text.
    (tmp_path / "w.oracleGeneral.txt").write_bytes(oracle_records((1, 5, 4096, -1), (2, 6, 4096, -1)))
    assert load_error(tmp_path / "w.oracleGeneral.txt").endswith(
        "(read as text because of the file's name; its first bytes read as oracle: name the format, "
        "oracle, to read it as that)")
    assert pagesim.load(tmp_path / "w.oracleGeneral.txt", format="oracle").num_accesses == 2


def test_din_and_pinatrace_lossy_writes_errors_and_cli(tmp_path):
    two = pagesim.Trace.from_arrays([5, 6, 5], writes=[1, 0, 0], pids=[3, 4, 3])
    with pytest.warns(UserWarning) as caught:
        two.save(tmp_path / "two.din")
    assert [str(w.message) for w in caught] == [
        f"{tmp_path / 'two.din'}: din does not keep all of this trace: its 2 processes become one, pid 1, "
        f"in which pages of different processes at one address are one page"]
    assert (tmp_path / "two.din").read_text() == "1 5000\n0 6000\n0 5000\n"
    r = cli("convert", str(tmp_path / "two.din"), str(tmp_path / "two.pinatrace.out"))
    assert r.stderr == ""  # pid 1, anonymous, 4096-byte pages: pinatrace keeps all of it
    assert (tmp_path / "two.pinatrace.out").read_text() == "0x0: W 0x5000\n0x0: R 0x6000\n0x0: R 0x5000\n#eof\n"
    r = cli("convert", str(tmp_path / "two.din"), str(tmp_path / "p.din"), "--pid", "9", "--to", "din")
    assert r.stderr == (f"pagesim: note: {tmp_path / 'p.din'}: din does not keep all of this trace: its pid 9 "
                        f"becomes pid 1 (read it back with --pid 9)\n")
    # --format names them; --instructions counts din's fetches.
    (tmp_path / "t.txt").write_text(DIN)
    info = cli("info", "--format", "din", "--instructions", str(tmp_path / "t.txt")).stdout
    assert info.startswith(f"# {tmp_path / 't.txt'} (din)\naccesses   4\n"), info
    # Bad input: the file, the line and what was expected.
    (tmp_path / "bad.din").write_text("0 1000\n7 2000\n")
    r = cli("info", str(tmp_path / "bad.din"), check=False)
    assert r.returncode == 2 and r.stderr == (
        f"pagesim: error: {tmp_path / 'bad.din'}:2: expected a din label 0 (read), 1 (write), 2 (instruction "
        f"fetch), 3 (other access) or 4 (cache flush) before the address, got '7'\n")
    (tmp_path / "pinatrace.out").write_text(PIN + "0x1: R 0x10\n")
    with pytest.raises(pagesim.TraceFormatError,
                       match=r"pinatrace.out:4: expected nothing after the '#eof' that ends the trace on "
                             r"line 3, got '0x1: R 0x10'$"):
        pagesim.load(tmp_path / "pinatrace.out")


# SPC (UMass Financial1.spc style): ASU 0 writes bytes 4096-12287 (pages 1, 2), ASU 1 reads
# sector 8 (page 1 of disk 1), ASU 0 reads page 1 again. MSR Cambridge: disk 0 reads page 1.
SPC = "0,8,8192,W,0.000000\n1,8,512,r,0.0010\n0,15,512,r,0.0020\n"
MSR = "128166372003061629,hm,0,Read,4096,4096,51213\n"


def test_block_traces_are_file_pages_a_disk_a_process(tmp_path):
    (tmp_path / "Financial1.spc").write_text(SPC)
    t = pagesim.load(tmp_path / "Financial1.spc")
    assert accesses(t) == [(1, 1), (2, 1), (1, 0), (1, 0)]
    assert t.proc_pids[t.page_procs[t.pages]].tolist() == [0, 0, 1, 0]
    assert (t.page_kinds == 1).all()  # file-backed: a miss reads the block
    assert pagesim.traces.detect_format(tmp_path / "Financial1.spc") == "spc"
    # LRU in 2 frames: every access faults and reads its block (file reads, no zero-fill); the
    # third evicts disk 0's dirty page 1 and the fourth, reading it back, its dirty page 2:
    # two file writes, no swap.
    c = pagesim.simulate(t, "lru", frames=2, **pagesim.TEXTBOOK).counters
    assert (c["faults"], c["file_reads"], c["file_writes"], c["swap_outs"]) == (4, 4, 2, 0)
    (tmp_path / "io_traces.csv").write_text("3,W,8192,4096,1577808000000040\n")  # Alibaba's
    a = pagesim.load(tmp_path / "io_traces.csv")
    assert pagesim.traces.detect_format(tmp_path / "io_traces.csv") == "alibaba"
    assert accesses(a) == [(2, 1)] and a.proc_pids.tolist() == [3]
    (tmp_path / "hm_0.csv").write_text(MSR)  # MSR names its files .csv; no header
    m = pagesim.load(tmp_path / "hm_0.csv")
    assert pagesim.traces.detect_format(tmp_path / "hm_0.csv") == "msr" and accesses(m) == [(1, 0)]
    # Converted to native on the command line; not written as a block trace.
    r = cli("convert", str(tmp_path / "Financial1.spc"), str(tmp_path / "f.pgt"))
    assert r.returncode == 0 and same(pagesim.load(tmp_path / "f.pgt"), t)
    with pytest.raises(pagesim.ConfigError, match="pagesim reads block I/O traces but does not write them"):
        t.save(tmp_path / "back.spc")
    (tmp_path / "bad.spc").write_text(SPC + "0,1,512,t,0.3\n")
    r = cli("info", str(tmp_path / "bad.spc"), check=False)
    assert r.returncode == 2 and r.stderr == (
        f"pagesim: error: {tmp_path / 'bad.spc'}:4: expected an opcode r or w, got 't'\n")


def test_a_trace_slice_is_a_trace_of_those_accesses(tmp_path):
    t = pagesim.Trace.from_arrays(np.array([5, 6, 5, 7, 8, 5]), writes=np.array([1, 0, 0, 1, 0, 0]),
                                  pids=np.array([3, 3, 3, 4, 4, 3]), kinds=np.array([0, 0, 0, 1, 1, 0]))
    s = t[1:4]  # accesses 6 R, 5 R (pid 3), 7 W (pid 4, file)
    assert accesses(s) == [(6, 0), (5, 0), (7, 1)] and s.pages.tolist() == [0, 1, 2]
    assert s.proc_pids[s.page_procs[s.pages]].tolist() == [3, 3, 4]
    assert s.page_kinds.tolist() == [0, 0, 1] and s.source == "numpy[1:4]"
    assert len(t[-2:]) == 2 and len(t[10:]) == 0 and len(t[4:2]) == 0 and len(t[:]) == 6
    with pytest.raises(pagesim.ConfigError, match="step 1"):
        t[::2]
    with pytest.raises(TypeError, match="sliced, trace\\[a:b\\], not indexed"):
        t[1]
    # --head N on the command line: the first N accesses, in any command that reads traces.
    t.save(tmp_path / "t.pgt")
    info = cli("info", str(tmp_path / "t.pgt"), "--head", "4").stdout
    assert "accesses   4\nfootprint  3 pages" in info, info
    cli("convert", str(tmp_path / "t.pgt"), str(tmp_path / "h.csv"), "--head", "2")
    assert accesses(pagesim.load(tmp_path / "h.csv")) == [(5, 1), (6, 0)]
    r = cli("run", str(tmp_path / "t.pgt"), "--head", "0", "--policy", "lru", "--frames", "2", check=False)
    assert r.returncode == 2 and r.stderr == "pagesim: error: --head must be >= 1 (a number of accesses), got 0\n"
