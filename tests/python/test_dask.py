"""The same sweep on a Dask cluster of two worker processes gives the same table."""
import os
import pathlib

import pytest

import pagesim
from conftest import random_trace

distributed = pytest.importorskip("distributed")


@pytest.fixture(scope="module")
def client():
    # Worker processes import pagesim from the same place as this process, and this test
    # directory (for the Python policy sent by reference).
    package_dir = str(pathlib.Path(pagesim.__file__).resolve().parent.parent)
    tests_dir = str(pathlib.Path(__file__).resolve().parent)
    old = os.environ.get("PYTHONPATH")
    os.environ["PYTHONPATH"] = os.pathsep.join([package_dir, tests_dir] + ([old] if old else []))
    cluster = distributed.LocalCluster(n_workers=2, processes=True, threads_per_worker=1,
                                       dashboard_address=None, silence_logs=40)
    c = distributed.Client(cluster)
    try:
        yield c
    finally:
        c.close()
        cluster.close()
        if old is None:
            del os.environ["PYTHONPATH"]
        else:
            os.environ["PYTHONPATH"] = old


def test_dask_sweep_equals_local_sweep(client, tmp_path):
    path = tmp_path / "t.txt"
    path.write_text("".join(f"{1 + i % 2} {'W' if i % 3 == 0 else 'R'} {(i * 7919) % 97 * 4096}\n"
                            for i in range(2000)))
    traces = {"generated": random_trace(1), "file": str(path)}
    kw = dict(policies=["lru", "fifo", ("random", {"seed": 5}), "belady"], fractions=[0.1, 0.5],
              progress=False, **pagesim.TEXTBOOK)
    local = pagesim.sweep(traces, **kw)
    remote = pagesim.sweep(traces, client=client, **kw)
    assert remote.equals(local)
    assert len(local) == 2 * 4 * 2
    # Listed parameters are grid axes on the cluster too.
    kw = dict(policies=["lru", "fifo"], frames=[10, 30], progress=False,
              device=["nvme", "zram"], page_cluster=[0, 3])
    remote = pagesim.sweep(traces, client=client, **kw)
    assert remote.equals(pagesim.sweep(traces, **kw)) and len(remote) == 4 * 2 * 2 * 2


def test_dask_errors_are_typed(client):
    with pytest.raises(pagesim.ConfigError, match="unknown policy 'lur'"):
        pagesim.sweep(random_trace(1), policies=["lur"], frames=[5], client=client, progress=False)


def test_dask_runs_registered_python_policies(client):
    from test_policy import OrderedDictLRU

    pagesim.register_policy("dask_lru", OrderedDictLRU, replace=True)
    try:
        kw = dict(policies=["lru", "dask_lru"], frames=[5, 40], progress=False)
        remote = pagesim.sweep(random_trace(2), client=client, **kw)
        assert remote.equals(pagesim.sweep(random_trace(2), **kw))
        a, b = (remote[remote.policy == p].drop(columns="policy").reset_index(drop=True)
                for p in ("lru", "dask_lru"))
        assert a.equals(b)
        with pytest.raises(pagesim.ConfigError, match="cannot be sent to Dask workers"):
            pagesim.sweep(random_trace(2), policies=[OrderedDictLRU()], frames=[5], client=client)
    finally:
        pagesim.unregister_policy("dask_lru")


def test_cli_sweep_on_a_dask_scheduler(client, tmp_path, capsys):
    # `pagesim sweep --dask ADDRESS`: the workers load the file by path; the table is the local one.
    from pagesim import cli
    path = tmp_path / "t.txt"
    path.write_text("".join(f"{1 + i % 2} {'W' if i % 3 == 0 else 'R'} {(i * 7919) % 97 * 4096}\n"
                            for i in range(2000)))
    args = ["sweep", str(path), "--policies", "lru,clock", "--frames", "10,30", "-P",
            "device=none,hdd-2002"]
    assert cli.main(args) == 0
    local = capsys.readouterr()
    assert cli.main(args + ["--dask", client.scheduler.address]) == 0
    remote = capsys.readouterr()
    assert remote.out == local.out
    # Two processes: the note on their memory at exit, which the workers' table shows too.
    assert "has 2 processes; those that finish before the last keep their memory" in local.err
    assert "has several processes; those that finish" in remote.err
    assert cli.main(args + ["--per-process", "--dask", client.scheduler.address]) == 0
    assert "has 2 processes; those that finish" in capsys.readouterr().err
    local = local.out
    rows = [line.split() for line in local.splitlines()[1:]]
    assert len(rows) == 2 * 2 * 2 and min(int(r[7]) for r in rows) > 0  # swap_outs
    # Read options the workers would not know: the trace is loaded here and sent.
    numbers = tmp_path / "numbers.txt"
    numbers.write_text("".join(f"W {(i * 7919) % 97}\n" for i in range(2000)))
    args = ["sweep", str(numbers), "--page-numbers", "--policies", "fifo", "--frames", "20"]
    assert cli.main(args) == 0
    local = capsys.readouterr().out
    assert cli.main(args + ["--dask", client.scheduler.address]) == 0
    assert capsys.readouterr().out == local and int(local.splitlines()[1].split()[-1]) > 0


def test_simulate_submitted_to_dask_returns_a_result(client, tmp_path):
    # A Result travels back from a worker (pickled with every view).
    path = tmp_path / "t.txt"
    path.write_text("".join(f"{1 + i % 2} W {(i * 7919) % 97 * 4096}\n" for i in range(2000)))
    remote = client.submit(pagesim.simulate, str(path), "lru", frames=20, device="nvme").result()
    local = pagesim.simulate(str(path), "lru", frames=20, device="nvme")
    assert remote.summary() == local.summary() and remote.counters["swap_outs"] > 0
    assert remote.vmstat().equals(local.vmstat())


def test_dask_stops_at_the_first_failing_run_and_names_it(client, tmp_path):
    # A missing file fails at once; the sweep raises then instead of after the other trace's
    # runs. The error is load's own (as without Dask: it was a FileNotFoundError), naming the
    # run (any of the missing file's).
    big = tmp_path / "big.pgt"
    pagesim._core.generate_zipf(300_000, 20_000, 0.9, 0.3, 1).save(big)
    missing = str(tmp_path / "nope.pgt")
    with pytest.raises(pagesim.TraceFormatError,
                       match=r"nope.pgt: cannot open.*\(in the sweep's run of \w+ on .*nope.pgt at \d+ frames\)"):
        pagesim.sweep([missing, str(big)], policies=["lru", "clock", "fifo", "lirs"],
                      frames=[5, 50, 500, 5000, 10_000], client=client, progress=False)


def test_dask_refuses_a_policy_class_of_main(client):
    # A class defined in a script or notebook (module __main__) cannot be rebuilt by a worker.
    from test_policy import OrderedDictLRU

    Scripted = type("Scripted", (OrderedDictLRU,), {"__module__": "__main__"})
    pagesim.register_policy("scripted", Scripted, replace=True)
    try:
        with pytest.raises(pagesim.ConfigError, match="class Scripted is defined in __main__"):
            pagesim.sweep(random_trace(2), policies=["scripted"], frames=[5], client=client)
    finally:
        pagesim.unregister_policy("scripted")


def test_dask_per_process_rows_equal_local_ones(client):
    t = pagesim.generate("qsbench", mib=1, procs=2)
    kw = dict(policies=["lru", "fifo"], frames=[150, 300], device="nvme", per_process=True, progress=False)
    assert pagesim.sweep(t, client=client, **kw).equals(pagesim.sweep(t, **kw))


def test_dask_records_failed_runs_as_the_local_sweep_does(client, tmp_path):
    # on_error="record": the same table as the local sweep, a missing file's runs included
    # (its trace cannot be loaded, so their rows have no fraction).
    t = random_trace(1)
    kw = dict(policies=["fifo", "lru"], frames=[10_000, 5], swap_slots=10, device=["nvme"],
              progress=False, on_error="record")
    with pytest.warns(RuntimeWarning, match="2 run"):
        local = pagesim.sweep(t, **kw)
    with pytest.warns(RuntimeWarning, match="2 run"):
        remote = pagesim.sweep(t, client=client, **kw)
    assert remote.equals(local) and local.error.notna().sum() == 2
    missing = str(tmp_path / "nope.pgt")
    with pytest.warns(RuntimeWarning, match="6 run"):  # 2 of t, 4 of the missing file
        df = pagesim.sweep({"t": t, "missing": missing}, client=client, **kw)
    assert df.trace.tolist() == ["t"] * 4 + ["missing"] * 4
    assert df.error[4:].str.startswith("TraceFormatError: ").all() and df.fraction[4:].isna().all()
    assert df.drop(columns="trace")[:4].equals(local.drop(columns="trace"))


def test_an_interrupted_dask_sweep_keeps_the_runs_that_finished(client):
    # The progress callback interrupts after 3 runs; the table holds the runs that had finished
    # by then (3 or a few more, on two workers), as the local sweep gives them.
    t = random_trace(1)
    kw = dict(policies=["fifo", "lru"], frames=list(range(5, 45)), **pagesim.TEXTBOOK)

    def progress(done, total):
        if done == 3:
            raise KeyboardInterrupt

    with pytest.raises(pagesim.SweepInterrupted) as info:
        pagesim.sweep(t, client=client, progress=progress, **kw)
    stopped = info.value
    assert stopped.total == 80 and 3 <= stopped.finished == len(stopped.table) < 80
    local = pagesim.sweep(t, progress=False, **kw).set_index(["policy", "frames"])
    part = stopped.table.set_index(["policy", "frames"])
    assert part.equals(local.loc[part.index])
    # Usable afterwards.
    assert len(pagesim.sweep(t, client=client, policies=["lru"], frames=[5], progress=False)) == 1
