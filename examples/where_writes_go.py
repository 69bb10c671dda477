"""Where the extra swap-outs go: the headline's qsbench (32 MiB, memory = array / 1.5, demand
paging in trace order) run with page_stats=True; each policy's swap-outs by tenth of the
array, against the prescient optimum (belady, which attains the proven lower bound there)."""
import pandas as pd

import pagesim

POLICIES = ["lru", "clock", "rmap_aging", "belady"]

trace = pagesim.generate("qsbench", mib=32, seed=1)
pages = {p: pagesim.simulate(trace, p, frames=5461, page_stats=True, **pagesim.TEXTBOOK).page_stats()
         for p in POLICIES}
vpn = pages["lru"].vpn
tenth = ((vpn - vpn.min()).astype(int) * 10 // len(vpn)).rename("tenth")
table = pd.DataFrame({p: df.writes.astype(int) for p, df in pages.items()}).groupby(tenth).sum()
print("swap-outs by tenth of the array (819 or 820 pages each)")
print(pd.concat([table, table.sum().to_frame("all").T]).to_string())
print("pages never evicted: " + ", ".join(f"{p} {int((df.evictions == 0).sum())}"
                                          for p, df in pages.items()))
