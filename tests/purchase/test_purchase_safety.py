"""Nothing lost: --resume touches no file that is not this sweep's, a full disk is one line and
leaves the rows written valid, and a Dask cluster that loses its workers fails in one line with
the finished rows kept (issue 11)."""

import json
import os

import pytest
from click.testing import CliRunner

from oddsim.cli import cli
from oddsim.model.rules import load_ruleset
from oddsim.purchase import BattleCache, PurchaseError, SweepSpec, run_sweep, sweep
from oddsim.purchase import output as output_module
from oddsim.purchase.dask_runner import dask_rows
from oddsim.purchase.output import RowWriter
from oddsim.purchase.rows import columns
from oddsim.purchase.runner import purchases_of

SMALL = dict(rules=load_ruleset("1942-2e"), budget=12, units="inf,arm", against="2 inf")
ARGS = ["purchase", "--budget", "12", "--units", "inf,arm", "--against", "2 inf", "--quiet"]


def purchase(*extra):
    return CliRunner().invoke(cli, [*ARGS, *extra])


def assert_refused(result):
    assert result.exit_code == 2, result.output
    assert len(result.stderr.strip().splitlines()) == 1
    assert result.stderr.startswith("oddsim: error: ")


@pytest.mark.parametrize("name, content", [
    ("scores.csv", b"name,score\nalice,10\nbob,20"),  # before: exit 2, but bob,20 was cut
    ("settings.json", b'{"config": {"a": 1}}'),  # before: exit 0 and the file replaced
    ("settings.json", b'{"config": {"a": 1}}\n{"b": 2'),
    ("notes.csv", b"just some words"),
    ("binary.csv", b"\xff\xfe\x00index\n"),  # before: UnicodeDecodeError
    ("binary.json", b"\x80\x81\n"),
])
def test_resume_leaves_a_file_that_is_not_ours_byte_for_byte(tmp_path, name, content):
    out = tmp_path / name
    out.write_bytes(content)
    assert_refused(purchase("--out", str(out), "--resume"))
    assert out.read_bytes() == content


def test_resume_leaves_another_sweeps_file_untouched_even_its_torn_line(tmp_path):
    out = tmp_path / "other.csv"
    sweep(**{**SMALL, "budget": 9}, out=out, cache=BattleCache())
    content = out.read_bytes() + b"3,1,0,1 inf"  # another sweep's rows and a torn write
    out.write_bytes(content)
    with pytest.raises(PurchaseError, match="another sweep"):
        sweep(**SMALL, out=out, resume=True, cache=BattleCache())
    assert out.read_bytes() == content


@pytest.mark.parametrize("suffix", [".csv", ".json"])
def test_resume_refuses_a_file_with_a_row_twice(tmp_path, suffix):
    out = tmp_path / f"rows{suffix}"
    sweep(**SMALL, out=out, cache=BattleCache())
    lines = out.read_bytes().splitlines(keepends=True)
    content = b"".join(lines + lines[-1:])
    out.write_bytes(content)
    with pytest.raises(PurchaseError, match="twice"):
        sweep(**SMALL, out=out, resume=True, cache=BattleCache())
    assert out.read_bytes() == content


def test_a_torn_first_line_of_ours_is_still_resumed(tmp_path):
    """A header or first row cut short by a kill is ours: cut and redone, as before."""
    out = tmp_path / "rows.csv"
    out.write_bytes(b"index,buy_infan")
    table = sweep(**SMALL, out=out, resume=True, cache=BattleCache())
    assert out.read_text().splitlines()[0].startswith("index,buy_infantry,buy_armor,")
    assert len(out.read_text().splitlines()) == 1 + len(table)
    json_out = tmp_path / "rows.json"
    json_out.write_bytes(b'{"index": 0, "buy_inf')
    assert len(sweep(**SMALL, out=json_out, resume=True, cache=BattleCache())) == len(table)


@pytest.mark.skipif(not os.path.exists("/dev/full"), reason="needs /dev/full")
def test_a_full_disk_is_one_line(tmp_path, monkeypatch):
    """Before: an OSError traceback."""
    def disk_full(fd, data):
        raise OSError(28, "No space left on device")

    monkeypatch.setattr(output_module.os, "write", disk_full)
    result = purchase("--out", str(tmp_path / "rows.csv"))
    assert_refused(result)
    assert "No space left on device" in result.stderr
    # a device is not a file of rows at all (/dev/full through a link): refused before any battle
    monkeypatch.undo()
    device = tmp_path / "full.csv"
    device.symlink_to("/dev/full")
    result = purchase("--out", str(device))
    assert_refused(result)
    assert "not a regular file" in result.stderr


def test_a_disk_that_fills_mid_sweep_keeps_the_rows_written_valid(tmp_path, monkeypatch):
    out = tmp_path / "rows.csv"
    real_write = os.write
    writes = []

    def write_then_fill(fd, data):
        writes.append(len(data))
        if len(writes) < 3:
            return real_write(fd, data)
        real_write(fd, bytes(data)[: len(data) // 2])  # half a chunk lands, then the disk is full
        raise OSError(28, "No space left on device")

    monkeypatch.setattr(output_module.os, "write", write_then_fill)
    with pytest.raises(PurchaseError, match="No space left on device.*rows written before are kept"):
        run_sweep(SweepSpec.build(**SMALL), out=out, cache=BattleCache(), chunk_rows=2)
    monkeypatch.setattr(output_module.os, "write", real_write)
    text = out.read_text()
    assert text.endswith("\n")
    lines = text.splitlines()
    assert len(lines) == 1 + 2  # the header, then the first chunk of two rows: no half chunk
    resumed = sweep(**SMALL, out=out, resume=True, cache=BattleCache())
    assert resumed.stats.resumed == 2
    assert resumed.rows == sweep(**SMALL, cache=BattleCache()).rows


class _Future:
    """A stub Dask future: a batch's rows, or the exception of a worker that was killed."""

    def __init__(self, value=None, error=None):
        self.value, self.error = value, error

    def result(self):
        if self.error is not None:
            raise self.error
        return self.value

    def cancel(self):
        if self.error is not None:
            raise RuntimeError("the cluster is gone")


class _Completed(list):
    def add(self, future):
        self.append(future)


class _DyingClient:
    """Two workers; the first batch is solved, then the workers are killed."""

    def __init__(self, error):
        self.error = error
        self.submitted = 0

    def nthreads(self):
        return {"w1": 1, "w2": 1}

    def scatter(self, value, **kwargs):
        return value

    def submit(self, function, spec, batch, **kwargs):
        self.submitted += 1
        if self.submitted == 1:
            return _Future(value=function(spec, batch))
        return _Future(error=self.error)


def test_dask_workers_killed_is_one_line_with_the_rows_kept(tmp_path, monkeypatch):
    """Before: a FutureCancelledError traceback. A killed worker surfaces as an exception from
    ``future.result()``; the client is stubbed so the test needs no cluster to kill."""
    distributed = pytest.importorskip("distributed")
    monkeypatch.setattr(distributed, "as_completed", _Completed)
    spec = SweepSpec.build(**SMALL)
    out = tmp_path / "rows.csv"
    rows = dask_rows(spec, purchases_of(spec), _DyingClient(
        distributed.client.FutureCancelledError("batch", "killed worker")), batch_rows=2)
    with pytest.raises(PurchaseError, match="lost a batch.*FutureCancelledError.*--resume"):
        with RowWriter(out, columns(spec.units)) as writer:
            for evaluated in rows:
                writer.add(evaluated.row.record(spec.units))
    assert len(out.read_text().splitlines()) == 1 + 2  # the first batch's two rows, whole
    resumed = sweep(**SMALL, out=out, resume=True, cache=BattleCache())
    assert resumed.stats.resumed == 2


def test_a_local_cluster_of_absurdly_many_workers_is_refused():
    """Before: --workers 99999999999999999999999 started processes until the machine ran out."""
    pytest.importorskip("distributed")
    from oddsim._runtime.dask_cluster import max_local_workers

    for workers in ("99999999999999999999999", str(max_local_workers() + 1), "0"):
        result = purchase("--workers", workers)
        assert_refused(result)
        assert "--workers must be a whole number from 1 to" in result.stderr


def test_a_scheduler_address_without_a_port_is_one_line():
    """Before: a ValueError traceback from Dask."""
    pytest.importorskip("distributed")
    result = purchase("--scheduler", "tcp://x")
    assert_refused(result)
    assert "cannot reach the Dask scheduler at tcp://x" in result.stderr


def test_an_out_that_is_a_fifo_is_refused_at_once_without_blocking(tmp_path):
    # before: the sweep blocked forever opening the FIFO, ignored the first SIGINT and SIGTERM,
    # then said the FIFO held rows to resume
    fifo = tmp_path / "rows.csv"
    os.mkfifo(fifo)
    for extra in ((), ("--resume",)):
        result = purchase("--out", str(fifo), *extra)
        assert_refused(result)
        assert "not a regular file" in result.stderr
    with pytest.raises(PurchaseError, match="not a regular file"):
        with RowWriter(fifo, columns(["infantry"])):
            pass


@pytest.mark.parametrize("suffix", [".csv", ".json"])
@pytest.mark.parametrize("column, value, message", [
    ("attacker_win", 7.5, "impossible attacker_win"),  # before: a 750% chance, ranked first
    ("attacker_win", float("inf"), "impossible attacker_win"),
    ("defender_ipc_lost", float("nan"), "impossible defender_ipc_lost"),  # before: dropped silently
    ("attacker_ipc_lost", -3.0, "impossible attacker_ipc_lost"),
    ("tuv_swing", 99.0, "impossible tuv_swing"),
    ("draw", 0.9, "impossible sum of chances"),
])
def test_resume_refuses_rows_whose_figures_cannot_be(tmp_path, suffix, column, value, message):
    out = tmp_path / f"rows{suffix}"
    sweep(**SMALL, out=out, cache=BattleCache())
    names = columns(["infantry", "armor"])
    if suffix == ".csv":
        lines = out.read_text().splitlines()
        fields = lines[1].split(",")
        fields[names.index(column)] = repr(value)
        lines[1] = ",".join(fields)
        out.write_text("\n".join(lines) + "\n")
    else:
        lines = out.read_text().splitlines()
        record = json.loads(lines[0])
        record[column] = value
        lines[0] = json.dumps(record)  # (writes NaN and Infinity as Python's json reads them)
        out.write_text("\n".join(lines) + "\n")
    content = out.read_bytes()
    with pytest.raises(PurchaseError, match=message):
        sweep(**SMALL, out=out, resume=True, cache=BattleCache())
    assert out.read_bytes() == content
    assert_refused(purchase("--out", str(out), "--resume"))


def test_resume_of_a_line_nested_thousands_deep_is_one_line(tmp_path):
    # before: a RecursionError traceback
    out = tmp_path / "rows.json"
    out.write_text("[" * 100_000 + "]" * 100_000 + "\n")
    result = purchase("--out", str(out), "--resume")
    assert_refused(result)
    assert "not valid JSON" in result.stderr
