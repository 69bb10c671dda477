from collections import OrderedDict

import numpy as np
import pytest

import pagesim


class OrderedDictLRU(pagesim.Policy):
    """LRU from an OrderedDict: most recently used at the end."""

    traits = pagesim.PolicyTraits(needs_hits=True)

    def reset(self, num_pages, frames):
        self.order = OrderedDict()

    def on_hit(self, access, view):
        self.order.move_to_end(access.page)

    def on_fault(self, access, view):
        self.order[access.page] = None

    def select_victims(self, want, view):
        return [self.order.popitem(last=False)[0] for _ in range(want)]

    def on_free(self, page, view):  # its process exited (free_on_exit)
        self.order.pop(page, None)


def random_trace(seed, length=3000, pages=150, procs=2, write_fraction=0.3):
    """A skewed random trace with several processes (built independently of pagesim)."""
    import pagesim

    rng = np.random.default_rng(seed)
    vpn = np.minimum(rng.geometric(1.0 / (pages / 4), length), pages) - 1
    return pagesim.Trace.from_arrays(vpn, writes=rng.random(length) < write_fraction,
                                     pids=rng.integers(1, procs + 1, length))


@pytest.fixture
def small_trace():
    return random_trace(1)
