"""Trace.from_columns: numpy columns over memory nothing writes used in place (no copy) and kept
alive, writable ones copied; bad input named."""
import gc
import pickle

import numpy as np
import pytest

import pagesim
from pagesim import Trace


def first_touch_dense(n, pages, seed):
    """Random page numbers renumbered 0, 1, 2, ... in order of first touch (as from_arrays does)."""
    raw = np.random.default_rng(seed).integers(0, pages, n)
    ids = {}
    return np.array([ids.setdefault(int(p), len(ids)) for p in raw], dtype=np.uint32)


def read_only(values, dtype):
    """A column over bytes, which nothing can write."""
    return np.frombuffer(np.asarray(values, dtype=dtype).tobytes(), dtype=dtype)


def test_columns_over_bytes_are_used_in_place():
    pages = read_only([0, 1, 2, 0, 1, 3], np.uint32)
    writes = read_only([0, 1, 0, 0, 1, 0], np.uint8)
    t = Trace.from_columns(pages, writes)
    assert np.shares_memory(t.pages, pages)
    assert np.shares_memory(t.flags, writes)
    assert (t.num_accesses, t.num_pages, t.num_procs, t.num_writes) == (6, 4, 1, 2)
    assert list(t.proc_pids) == [1] and list(t.page_vpns) == [0, 1, 2, 3]


def test_writable_arrays_and_their_views_are_copied():
    # A view (a slice, a pandas column's to_numpy()) was used in place and made read-only,
    # its base left writable: a page id written through the base after the checks crashed
    # the replay (SIGSEGV).
    base = (np.arange(1000) % 10).astype(np.uint32)
    for column in (base, base[:], base[:].view()):
        t = Trace.from_columns(column)
        assert not np.shares_memory(t.pages, base)
        assert base.flags.writeable and column.flags.writeable  # not frozen either
    expected = pagesim.simulate(Trace.from_columns(base.copy()), "lru", frames=5).counters
    base[500] = 4_000_000_000
    assert pagesim.simulate(t, "lru", frames=5).counters == expected
    # A read-only view of a writable array is no safer: its base can be written.
    base[500] = 0
    frozen_view = base[:]
    frozen_view.setflags(write=False)
    assert not np.shares_memory(Trace.from_columns(frozen_view).pages, base)
    # Nor is a read-only array that owns its memory: setflags(write=True) undoes it.
    owner = np.arange(10, dtype=np.uint32)
    owner.setflags(write=False)
    assert not np.shares_memory(Trace.from_columns(owner).pages, owner)


def test_bool_writes_and_per_page_columns_are_used_in_place():
    pages = read_only([1, 0, 1], np.uint32)
    writes = read_only([True, False, False], np.bool_)
    procs = read_only([0, 1], np.uint32)
    vpns = read_only([0x10, 0x20], np.uint64)
    kinds = read_only([0, 1], np.uint8)
    pids = read_only([7, 9], np.uint64)
    t = Trace.from_columns(pages, writes, page_procs=procs, page_vpns=vpns, page_kinds=kinds, proc_pids=pids)
    for column, given in [(t.flags, writes), (t.page_procs, procs), (t.page_vpns, vpns), (t.proc_pids, pids),
                          (t.page_kinds, kinds)]:
        assert np.shares_memory(column, given)
    assert list(t.proc_accesses) == [1, 2]  # page 1 (process 1) twice, page 0 once
    assert pagesim.traces.summary(t)["file_pages"] == 1
    # Every column reads back as a view, writes and page kinds too.
    assert np.shares_memory(t.writes, writes) and np.shares_memory(t.page_kinds, kinds)
    assert t.writes.dtype == np.bool_ and list(t.writes) == [True, False, False]
    assert list(t.page_kinds) == [0, 1] and not t.page_kinds.flags.writeable


def test_the_columns_of_a_trace_rebuild_it():
    t = pagesim.generate("kbuild", jobs=6, job_accesses=500, shared_mib=1, heap_mib=1)
    u = Trace.from_columns(t.pages, t.writes, page_procs=t.page_procs, page_vpns=t.page_vpns,
                           page_kinds=t.page_kinds, proc_pids=t.proc_pids)
    # In place: a Trace's columns are read-only views of memory nobody writes, slices too.
    assert np.shares_memory(u.pages, t.pages) and np.shares_memory(u.page_vpns, t.page_vpns)
    assert np.shares_memory(Trace.from_columns(t.pages[:100], t.writes[:100], page_procs=t.page_procs,
                                               page_vpns=t.page_vpns, page_kinds=t.page_kinds,
                                               proc_pids=t.proc_pids).pages, t.pages)
    assert 0 < pagesim.traces.summary(t)["file_pages"] < t.num_pages and t.num_procs == 7
    for policy in ("lru", "clock_pro"):
        assert (pagesim.simulate(u, policy, frames=200).summary()
                == pagesim.simulate(t, policy, frames=200).summary())


def test_a_read_only_memmap_is_used_in_place(tmp_path):
    np.save(tmp_path / "pages.npy", first_touch_dense(2000, 100, 1))
    pages = np.load(tmp_path / "pages.npy", mmap_mode="r")
    t = Trace.from_columns(pages)
    assert np.shares_memory(t.pages, pages)
    expected = pagesim.simulate(Trace.from_arrays(np.array(pages)), "lru", frames=30).counters
    del pages
    gc.collect()
    assert pagesim.simulate(t, "lru", frames=30).counters == expected
    # A mapping this process may write (mode r+) is copied.
    writable = np.load(tmp_path / "pages.npy", mmap_mode="r+")
    assert not np.shares_memory(Trace.from_columns(writable).pages, writable)


def test_other_dtypes_and_lists_are_converted_once_and_left_writable():
    pages = np.array([0, 1, 0, 2], dtype=np.int64)
    t = Trace.from_columns(pages, writes=[0, 1, 1, 0])
    assert not np.shares_memory(t.pages, pages)
    assert pages.flags.writeable
    pages[0] = 2  # the Trace holds its own copy
    assert list(t.pages) == [0, 1, 0, 2] and t.num_writes == 2
    strided = np.arange(8, dtype=np.uint32)[::2]  # not contiguous
    assert not np.shares_memory(Trace.from_columns(strided).pages, strided)


@pytest.mark.parametrize("policy", ["lru", "belady"])
def test_from_columns_replays_like_from_arrays(policy):
    pages = first_touch_dense(5000, 400, 7)
    writes = (np.random.default_rng(8).random(5000) < 0.3).astype(np.uint8)
    expected = pagesim.simulate(Trace.from_arrays(pages, writes=writes), policy, frames=60).counters
    t = Trace.from_columns(read_only(pages, np.uint32), read_only(writes, np.uint8))
    assert pagesim.simulate(t, policy, frames=60).counters == expected


def test_the_trace_keeps_the_arrays_alive():
    pages = first_touch_dense(3000, 200, 3)
    expected = pagesim.simulate(Trace.from_arrays(pages), "lru", frames=50).counters
    t = Trace.from_columns(pages.copy(), np.zeros(3000, dtype=np.uint8))
    gc.collect()
    assert pagesim.simulate(t, "lru", frames=50).counters == expected
    view = t.pages
    del t
    gc.collect()
    assert np.array_equal(view, pages)  # the view keeps the Trace, which keeps the array
    assert pickle.loads(pickle.dumps(Trace.from_columns(pages))).num_accesses == 3000


@pytest.mark.parametrize("kwargs, message", [
    (dict(pages=np.array([0, 3], dtype=np.uint32), page_procs=np.zeros(3, dtype=np.uint32)),
     r"'pages': element 1 is 3; expected a page id below the page count 3"),
    (dict(pages=np.array([0, 1], dtype=np.uint32), writes=np.array([0, 2], dtype=np.uint8)),
     r"'writes' element 1 is 2; expected 0 \(read\) or 1 \(write\)"),
    (dict(pages=np.array([0, 1], dtype=np.uint32), writes=np.zeros(3, dtype=np.uint8)),
     r"'writes' has 3 elements; expected 2"),
    (dict(pages=np.zeros((2, 2), dtype=np.uint32)), r"'pages' must be a one-dimensional array; got 2 dimensions"),
    (dict(pages=np.array([0, -1])), r"'pages' element 1 is -1; expected a value from 0 to 4294967295"),
    (dict(pages=np.array([0, 2**32], dtype=np.uint64)), r"'pages' element 1 is 4294967296"),
    (dict(pages=np.array([0.5, 1.0])), r"'pages' must hold integers; got dtype float64"),
    (dict(pages=np.array([0, 1], dtype=np.uint32), page_kinds=np.array([0, 2], dtype=np.uint8)),
     r"'page_kinds': element 1 is 2; expected 0 \(anon\) or 1 \(file\)"),
    (dict(pages=np.array([0, 1], dtype=np.uint32), page_vpns=np.zeros(3, dtype=np.uint64)),
     r"'page_vpns' has 3 elements; expected 2"),
    (dict(pages=np.array([0, 1], dtype=np.uint32), page_procs=np.array([0, 1], dtype=np.uint32),
          proc_pids=np.array([5], dtype=np.uint64)),
     r"'page_procs': element 1 is 1; expected a process id below the process count 1"),
])
def test_bad_columns_raise_naming_the_argument(kwargs, message):
    with pytest.raises(pagesim.ConfigError, match=message) as info:
        Trace.from_columns(**kwargs)
    assert isinstance(info.value, ValueError)
    for value in kwargs.values():
        assert value.flags.writeable  # a rejected array is not frozen
