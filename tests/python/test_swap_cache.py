"""The swap cache and its slots against a model written here: LRU demand paging without
readahead, one process, in trace order.

A dirty page evicted without a slot takes one (the run fails when none is free); one evicted
with a slot is written to it again; a clean one with a slot is dropped without a write. A
swap-in keeps its page's slot, unless free_slot_on_swapin says otherwise: by default (Linux
2.4.10 to 2.6.27 do_swap_page, vm_swap_full) when more than half of the slots are in use after
the fault's reclaim; then the page is dirty and the slot free. "write_fault" (5.19 to 6.x) also
frees it at a swap-in by a write, "write" (2.6.28 to 5.18) at any write while the page holds it.
"""
from collections import Counter, OrderedDict

import numpy as np
import pytest

import pagesim


class SwapFull(Exception):
    pass


def swap_cache_model(vpns, writes, frames, slots, free_slot):
    """free_slot: "swap_full" (the default), "never", "always", "write" or "write_fault"."""
    lru = OrderedDict()  # resident pages, least recently used first
    dirty, in_swap = set(), set()
    c = Counter()
    for vpn, write in zip(vpns.tolist(), writes.tolist()):
        if vpn in lru:
            c["hits"] += 1
            lru.move_to_end(vpn)
            if free_slot == "write" and write and vpn in in_swap:
                in_swap.remove(vpn)
        else:
            c["faults"] += 1
            if len(lru) == frames:
                victim, _ = lru.popitem(last=False)
                c["evictions"] += 1
                if victim in dirty:
                    if victim not in in_swap:
                        if len(in_swap) == slots:
                            raise SwapFull
                        in_swap.add(victim)
                    dirty.remove(victim)
                    c["swap_outs"] += 1
            if vpn in in_swap:
                c["swap_ins"] += 1
                if (free_slot == "always" or (write and free_slot in ("write", "write_fault"))
                        or (free_slot != "never" and 2 * len(in_swap) > slots)):
                    in_swap.remove(vpn)
                    dirty.add(vpn)
            lru[vpn] = True
        if write:
            dirty.add(vpn)
    c["swap_slots_used"] = len(in_swap)
    return c


@pytest.mark.parametrize("free_slot", [None, True, False, "never", "write", "write_fault"])
def test_swap_slots_agree_with_the_model(free_slot):
    mode = {None: "swap_full", True: "always", False: "never"}.get(free_slot, free_slot)
    rng = np.random.default_rng(7)
    full = 0
    for _ in range(100):
        pages = int(rng.integers(5, 60))
        length = int(rng.integers(50, 800))
        vpns = np.minimum(rng.geometric(3.0 / pages, length), pages) - 1
        writes = rng.random(length) < rng.random()
        trace = pagesim.Trace.from_arrays(vpns.astype(np.uint64), writes=writes)
        frames = int(rng.integers(1, max(2, trace.num_pages)))
        # From well under the footprint (swap fills up) to twice the pages (never half full).
        slots = int(rng.integers(1, 2 * trace.num_pages + 1))
        params = dict(frames=frames, swap_slots=slots, page_cluster=0, schedule="static")
        if free_slot is not None:
            params["free_slot_on_swapin"] = free_slot
        try:
            want = swap_cache_model(vpns, writes, frames, slots, mode)
        except SwapFull:
            full += 1
            with pytest.raises(pagesim.ConfigError, match="swap is full"):
                pagesim.simulate(trace, "lru", **params)
            continue
        r = pagesim.simulate(trace, "lru", **params)
        got = dict(r.counters, swap_slots_used=r.swap_slots_used)
        for key in ("faults", "hits", "swap_ins", "swap_outs", "evictions", "swap_slots_used"):
            assert got[key] == want[key], (key, frames, slots)
    assert 10 < full < 90  # runs that fill swap up and runs that do not
