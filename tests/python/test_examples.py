"""The example scripts run and print what the README shows; the overnight example's recency
rows are worked out by hand."""
import importlib.util
import os
import subprocess
import sys
from pathlib import Path

import pytest

import pagesim

ROOT = Path(__file__).resolve().parents[2]


def readme_output(command: str) -> str:
    """The lines the README shows under `$ command`, up to the end of its code block."""
    text = (ROOT / "README.md").read_text()
    start = text.index(f"$ {command}\n") + len(command) + 3
    return text[start:text.index("```", start)]


@pytest.mark.parametrize("script", ["overnight_updatedb.py", "read_priority_seeks.py", "kbuild_exits.py"])
def test_readme_shows_what_the_example_prints(script):
    printed = subprocess.run([sys.executable, str(ROOT / "examples" / script)], check=True,
                             capture_output=True, text=True, env=os.environ).stdout
    assert printed == readme_output(f"PYTHONPATH=_build/python /usr/bin/python3 examples/{script}")


def load_overnight():
    path = ROOT / "examples" / "overnight_updatedb.py"
    spec = importlib.util.spec_from_file_location("overnight", path)
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


def test_overnight_recency_policies_by_hand():
    # Day: the editor's 3000 pages (ids 0..2999) are written, then read 9 times, in id order;
    # 8000 frames, so nothing is evicted. Night: updatedb reads 60000 file pages (ids 3000..
    # 62999), each a file read: the first 5000 fill memory, the next 3000 evict the editor's
    # pages in id order (the order of their last use, of their arrival, and of the clock hand
    # after its first round clears their referenced bits), each to the next swap slot: slots
    # 0..2999. The other 52000 evict updatedb's own clean pages. Morning: the editor reads
    # pages 0..2999; each fault on page 8k reads the aligned window of slots 8k..8k+7 (page
    # 8k..8k+7) in one request, the 7 others are hits: 375 major faults.
    #
    # hdd-2002, swap area 2 x 63000 = 126000 slots, then the file pages: a span of 189000
    # positions. The night's last read leaves the head at 126000 + 62999 + 1 = 189000; each
    # swap write went long before, at once on the idle disk when updatedb's next fault evicted
    # (updatedb waits for each of its reads). The first morning read moves the head by 189000,
    # the whole span:
    #   overhead 0.3 ms + seek 1 + (8.5 - 1) * sqrt(1) * 15/8 = 15.0625 ms + rotation 4.17 ms
    #   + 8 pages * 4096 B / 30 MB/s = 1.0922667 ms                = 20624767 ns (rounded)
    # and ends where the next begins, so each of the other 374 costs overhead + transfer:
    #   0.3 ms + 1.0922667 ms                                         = 1392267 ns (rounded)
    # The disk is idle at each fault, so the editor waits for exactly these.
    overnight = load_overnight()
    trace = overnight.overnight_trace()
    wait_ns = 20_624_767 + 374 * 1_392_267
    for policy in ("lru", "clock", "fifo"):
        r = pagesim.simulate(trace, policy, frames=8000, device="hdd-2002", schedule="static",
                             interval_ns=0)
        editor = {p["pid"]: p for p in r.per_process_time}[overnight.EDITOR]
        counters = {p["pid"]: p for p in r.per_process}
        assert counters[overnight.EDITOR]["major_faults"] == 375, policy
        assert counters[overnight.EDITOR]["readahead_used"] == 3000 - 375, policy
        assert counters[overnight.UPDATEDB]["file_reads"] == 60000, policy
        assert r["swap_outs"] == 3000, policy
        assert editor["iowait_ns"] == wait_ns, policy


def test_overnight_table_is_consistent():
    # Every file page is read once whatever the policy; a policy that keeps the editor's pages
    # swaps nothing out (only the editor has anonymous pages) and the editor never waits.
    overnight = load_overnight()
    rows = overnight.morning_table(overnight.overnight_trace())
    assert [row[0] for row in rows] == list(overnight.POLICIES)
    for policy, major, wait, stream_major, swap_outs in rows:
        assert stream_major == 60000, policy
        assert (major == 0) == (swap_outs == 0) == (wait == 0), policy
    kept = {row[0] for row in rows if row[1] == 0}
    assert {"active_inactive", "linux24_vscan", "arc", "lirs"} <= kept


def test_overnight_lru_k_loses_the_editor_when_its_references_are_one_burst():
    # The README: each editor page is referenced once per pass of 3000 accesses. With a
    # correlated period shorter than that, its ten references count and LRU-2 keeps it (updatedb's
    # pages have one); with 3000 or more, they are one burst, the editor's pages have one
    # reference like updatedb's, and the oldest go: the recency policies' 375 readahead faults.
    overnight = load_overnight()
    trace = overnight.overnight_trace()
    for period, major in ((0, 0), (2999, 0), (3000, 375)):
        r = pagesim.simulate(trace, "lru_k", frames=8000, device="hdd-2002", schedule="static",
                             interval_ns=0, correlated_period=period)
        counters = {p["pid"]: p for p in r.per_process}
        assert counters[overnight.EDITOR]["major_faults"] == major, period


def test_readme_python_policy_passes_its_own_tests():
    # The README's "In Python" block: a policy class and two pytest tests, run as written.
    text = (ROOT / "README.md").read_text()
    start = text.index("```python\nfrom collections import OrderedDict\n") + len("```python\n")
    namespace = {}
    exec(text[start:text.index("```", start)], namespace)
    tests = [name for name in namespace if name.startswith("test_")]
    assert tests == ["test_my_lru_conforms", "test_my_lru_is_no_better_than_min_on_a_scan"]
    for name in tests:
        namespace[name]()
