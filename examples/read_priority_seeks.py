"""Why promoting swap reads ahead of swap writes can make a swapping machine slower on a disk.

Process A (pid 2) writes its 512 pages, then reads them back at random; process B (pid 1)
streams writes over 2048 new pages. 512 frames, LRU, batch reclaim of 32 pages (watermarks
8/40), a 2002 IDE disk (hdd-2002), round-robin with a 1 us quantum. B's swap-outs land on
consecutive slots and leave as long merged writes; A's swap-ins are scattered. With
io_scheduler=read_priority every read jumps ahead of the queued writes: the head leaves the
write stream for each read and has to come back.

Run: PYTHONPATH=_build/python /usr/bin/python3 examples/read_priority_seeks.py
"""
import numpy as np

import pagesim

rng = np.random.default_rng(5)
pages = list(range(512))
pids = [2] * 512
for k in range(2048):
    pages += [k, int(rng.integers(512))]
    pids += [1, 2]
writes = np.array([1] * 512 + [1, 0] * 2048, dtype=np.uint8)
trace = pagesim.Trace.from_arrays(np.array(pages), writes=writes, pids=np.array(pids))

rows = []
for scheduler in ("fifo", "elevator", "read_priority"):
    r = pagesim.simulate(trace, "lru", frames=512, device="hdd-2002", io_scheduler=scheduler,
                         low_watermark=8, high_watermark=40, quantum_ns=1000)
    s = r.device_stats
    rows.append((scheduler, r.time["elapsed_ns"] / 1e9, r["major_faults"], r["swap_outs"],
                 s["reads"], s["writes"], s["seeks"], s["seek_distance"], s["busy_ns"] / 1e9,
                 s["seek_ns"] / 1e9))

print(f"{'io_scheduler':<14} {'elapsed_s':>9} {'major':>6} {'swap_outs':>9} {'reads':>6} "
      f"{'writes':>6} {'seeks':>6} {'seek_dist':>9} {'busy_s':>7} {'seek_s':>6}")
for row in rows:
    print(f"{row[0]:<14} {row[1]:>9.3f} {row[2]:>6} {row[3]:>9} {row[4]:>6} {row[5]:>6} "
          f"{row[6]:>6} {row[7]:>9} {row[8]:>7.3f} {row[9]:>6.3f}")
