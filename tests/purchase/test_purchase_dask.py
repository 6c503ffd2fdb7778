"""Dask: a two-worker local cluster on loopback gives the same rows, in the same order, as the
in-process run."""

import pytest

from oddsim.model.rules import load_ruleset
from oddsim.purchase import BattleCache, SweepSpec, run_sweep

distributed = pytest.importorskip("distributed")


def listening_hosts():
    """The addresses this process and its children listen on (TCP)."""
    psutil = pytest.importorskip("psutil")
    me = psutil.Process()
    hosts = set()
    for process in (me, *me.children(recursive=True)):
        connections = getattr(process, "net_connections", process.connections)(kind="tcp")
        hosts.update(c.laddr.ip for c in connections if c.status == psutil.CONN_LISTEN)
    return hosts


@pytest.mark.slow
def test_two_worker_loopback_cluster_gives_the_in_process_rows(tmp_path):
    from oddsim.purchase.dask_runner import dask_client

    spec = SweepSpec.build(load_ruleset("1942-2e"), budget=16, units="inf,art,arm,ftr", existing="1 arm",
                           against="3 inf, 1 art, 1 ftr", goal="tuv")
    alone = run_sweep(spec, cache=BattleCache())
    with dask_client(workers=2) as client:
        info = client.scheduler_info()
        addresses = [info["address"], *info["workers"]]
        assert len(info["workers"]) == 2
        assert all(address.startswith("tcp://127.0.0.1:") for address in addresses)
        assert listening_hosts() == {"127.0.0.1"}
        out = tmp_path / "dask.csv"
        on_dask = run_sweep(spec, scheduler=info["address"], out=out)
    assert on_dask.rows == alone.rows
    assert on_dask.in_enumeration_order() == alone.in_enumeration_order()
    assert [row.index for row in on_dask.in_enumeration_order()] == list(range(len(alone)))
    assert on_dask.stats.solved + on_dask.stats.cached == len(alone)
    lines = out.read_text().splitlines()[1:]
    assert [int(line.split(",")[0]) for line in lines] == list(range(len(alone)))  # file in order
