"""Swap readahead (swap_readahead="fixed", "adaptive", "vma") against models written here from
the kernel's text.

The model replays a trace of anonymous pages under LRU with demand paging, as pagesim does
without a device: a dirty victim goes to swap (slots handed out in order: nothing is freed, and
a page keeps its slot, the swap cache's, when it comes back), a fault on a page in swap reads
the window around it, and the readahead pages come in before the faulting page, unreferenced,
in slot order. The windows:
- fixed: Linux 2.6.20's valid_swaphandles, the aligned window of swap offsets (slot + 1: offset
  0 is the swap header) read forward from its start up to the first free slot;
- adaptive: Linux 6.1's swap_cluster_readahead, the aligned window of swapin_nr_pages' size, one
  state for the whole machine, free slots passed over;
- vma: Linux 6.1's swap_vma_readahead (swap_ra_info), a window of vpns per process (in Python's
  integers: the top vpn is not next to vpn 0, as pagesim has it).
"""
from collections import Counter, OrderedDict

import numpy as np
import pytest

import pagesim


def nr_pages(prev, at, hits, max_pages, prev_win):
    """__swapin_nr_pages: the window's size from the readahead hits since the last swap-in."""
    if hits == 0:
        pages = 2 if at in (prev + 1, prev - 1) else 1
    else:
        pages = 4
        while pages < hits + 2:
            pages *= 2
    return max(min(pages, max_pages), prev_win // 2)


class FixedWindow:
    def __init__(self, page_cluster):
        self.page_cluster = page_cluster

    def window(self, page, slot, resident):
        owner = {s: q for q, s in slot.items()}
        offset = (slot[page] + 1) >> self.page_cluster << self.page_cluster
        count = 1 << self.page_cluster
        if offset == 0:  # the swap header
            offset, count = 1, count - 1
        ahead = []
        for off in range(offset, offset + count):
            q = owner.get(off - 1)
            if q is None:  # a free slot ends the window
                break
            if q != page and q not in resident:
                ahead.append(q)
        return ahead

    def hit(self, page):
        pass


class AdaptiveWindow:
    def __init__(self, page_cluster):
        self.max_pages = 1 << page_cluster
        self.prev_offset, self.last_pages, self.hits = 0, 0, 0

    def window(self, page, slot, resident):
        offset = slot[page] + 1
        pages = nr_pages(self.prev_offset, offset, self.hits, self.max_pages, self.last_pages)
        if self.hits == 0:
            self.prev_offset = offset
        self.hits, self.last_pages = 0, pages
        if pages == 1:
            return []
        owner = {s: q for q, s in slot.items()}
        start = max(offset & ~(pages - 1), 1)
        ahead = [owner.get(off - 1) for off in range(start, (offset | (pages - 1)) + 1)]
        return [q for q in ahead if q is not None and q != page and q not in resident]

    def hit(self, page):
        self.hits += 1


class VmaWindow:
    def __init__(self, page_cluster):
        self.max_win = 1 << min(page_cluster, 5)  # SWAP_RA_ORDER_CEILING
        self.vma = {}  # per process: [vpn of the last swap-in or readahead hit, window, hits]

    def window(self, page, slot, resident):
        pid, vpn = page
        prev, prev_win, hits = self.vma.setdefault(pid, [0, 0, 0])
        pages = nr_pages(prev, vpn, hits, self.max_win, prev_win)
        self.vma[pid] = [vpn, pages, 0]
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
                if v != vpn and (pid, v) in slot and (pid, v) not in resident]

    def hit(self, page):
        state = self.vma[page[0]]
        state[0], state[2] = page[1], min(state[2] + 1, 63)


WINDOWS = {"fixed": FixedWindow, "adaptive": AdaptiveWindow, "vma": VmaWindow}


def readahead_model(pids, vpns, writes, frames, page_cluster, mode):
    readahead = WINDOWS[mode](page_cluster)
    lru = OrderedDict()  # resident pages, least recently used first
    slot = {}  # a page's swap slot, from its first swap-out
    dirty, unused_readahead = set(), set()
    c = Counter()
    for pid, vpn, write in zip(pids.tolist(), vpns.tolist(), writes.tolist()):
        page = (pid, vpn)
        if page in lru:
            c["hits"] += 1
            lru.move_to_end(page)
            if page in unused_readahead:
                unused_readahead.remove(page)
                c["readahead_used"] += 1
                readahead.hit(page)
        else:
            c["faults"] += 1
            ahead = []
            if page in slot:
                c["swap_ins"] += 1
                ahead = readahead.window(page, slot, lru)
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


@pytest.mark.parametrize("mode", ["fixed", "adaptive", "vma"])
@pytest.mark.parametrize("seed", range(8))
def test_swap_readahead_agrees_with_the_model(mode, seed):
    rng = np.random.default_rng(seed)
    for _ in range(25):
        pids, vpns, writes = random_trace(rng)
        # At least 33 frames: a window's 31 readahead pages and its fault always fit (vma caps
        # its windows at 32 pages, the slot windows take page_cluster up to 5).
        frames = int(rng.integers(33, 120))
        page_cluster = int(rng.integers(1, 8 if mode == "vma" else 6))
        trace = pagesim.Trace.from_arrays(vpns, writes=writes, pids=pids)
        got = pagesim.simulate(trace, "lru", frames=frames, page_cluster=page_cluster,
                               swap_readahead=mode, schedule="static").counters
        want = readahead_model(pids, vpns, writes, frames, page_cluster, mode)
        for key in ("faults", "hits", "swap_ins", "swap_outs", "evictions", "readahead_pages",
                    "readahead_used", "readahead_wasted"):
            assert got[key] == want[key], (key, frames, page_cluster)
