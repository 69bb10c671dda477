"""VMA swap readahead (swap_readahead="vma") against a model written here from the kernel's text.

The model replays a trace of anonymous pages under LRU with demand paging, as pagesim does
without a device: a dirty victim goes to swap (slots handed out in order: nothing is freed), a
fault on a page in swap reads the window of Linux 6.1's swap_ra_info around it, per process
(in Python's integers: the top vpn is not next to vpn 0, as pagesim has it).
"""
from collections import Counter, OrderedDict

import numpy as np
import pytest

import pagesim


def vma_readahead_model(pids, vpns, writes, frames, page_cluster):
    max_win = 1 << min(page_cluster, 5)  # SWAP_RA_ORDER_CEILING
    lru = OrderedDict()  # resident pages, least recently used first
    slot = {}  # a page's swap slot, from its first swap-out
    dirty, unused_readahead = set(), set()
    vma = {}  # per process: [vpn of the last swap-in or readahead hit, window, hits]
    c = Counter()

    def window(pid, vpn):
        prev, prev_win, hits = vma.setdefault(pid, [0, 0, 0])
        if hits == 0:
            pages = 2 if vpn in (prev + 1, prev - 1) else 1
        else:
            pages = 4
            while pages < hits + 2:
                pages *= 2
        pages = max(min(pages, max_win), prev_win // 2)
        vma[pid] = [vpn, pages, 0]
        if pages == 1:
            return []
        if vpn == prev + 1:
            left = vpn
        elif prev == vpn + 1:
            left = vpn - pages + 1
        else:
            left = vpn - (pages - 1) // 2
        table = vpn - vpn % 512
        return [(pid, v) for v in range(max(left, table), min(left + pages, table + 512))
                if v != vpn and (pid, v) in slot and (pid, v) not in lru]

    for pid, vpn, write in zip(pids.tolist(), vpns.tolist(), writes.tolist()):
        page = (pid, vpn)
        if page in lru:
            c["hits"] += 1
            lru.move_to_end(page)
            if page in unused_readahead:
                unused_readahead.remove(page)
                c["readahead_used"] += 1
                state = vma[pid]
                state[0], state[2] = vpn, min(state[2] + 1, 63)
        else:
            c["faults"] += 1
            ahead = []
            if page in slot:
                c["swap_ins"] += 1
                ahead = window(pid, vpn)
            for _ in range(1 + len(ahead) - (frames - len(lru))):
                victim, _ = lru.popitem(last=False)
                c["evictions"] += 1
                if victim in dirty:
                    dirty.remove(victim)
                    slot.setdefault(victim, len(slot))
                    c["swap_outs"] += 1
                if victim in unused_readahead:
                    unused_readahead.remove(victim)
                    c["readahead_wasted"] += 1
            for q in sorted(ahead, key=slot.get):  # read and inserted in slot order
                lru[q] = True
                unused_readahead.add(q)
                c["readahead_pages"] += 1
            lru[page] = True
        if write:
            dirty.add(page)
    return c


def random_trace(rng):
    """Runs of nearby addresses, forward or backward, and jumps, by 1 to 3 processes, over
    vpns around a page table's end (512) and at the top of the address space."""
    pids, vpns = [], []
    top = 2**64 - 1
    for _ in range(rng.integers(10, 40)):
        pid = int(rng.integers(1, 4))
        start = int(rng.integers(440, 600)) if rng.random() < 0.8 else top - int(rng.integers(100))
        step = int(rng.choice([1, 1, -1, 2, 0]))
        for k in range(int(rng.integers(1, 120))):
            pids.append(pid)
            vpns.append(min(max(start + step * k, 0), top))
    writes = rng.random(len(vpns)) < 0.6
    return np.array(pids), np.array(vpns, dtype=np.uint64), writes


@pytest.mark.parametrize("seed", range(8))
def test_vma_readahead_agrees_with_the_model(seed):
    rng = np.random.default_rng(seed)
    for _ in range(25):
        pids, vpns, writes = random_trace(rng)
        # At least 33 frames: a window's 31 readahead pages and its fault always fit.
        frames = int(rng.integers(33, 120))
        page_cluster = int(rng.integers(1, 8))
        trace = pagesim.Trace.from_arrays(vpns, writes=writes, pids=pids)
        got = pagesim.simulate(trace, "lru", frames=frames, page_cluster=page_cluster,
                               swap_readahead="vma", schedule="static").counters
        want = vma_readahead_model(pids, vpns, writes, frames, page_cluster)
        for key in ("faults", "hits", "swap_ins", "swap_outs", "evictions", "readahead_pages",
                    "readahead_used", "readahead_wasted"):
            assert got[key] == want[key], (key, frames, page_cluster)
