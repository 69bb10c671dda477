import numpy as np
import pytest


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
