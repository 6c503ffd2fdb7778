"""Resumable output: whole lines only, partial lines cut, foreign files refused, and a sweep
killed mid-way (SIGKILL, SIGTERM) then resumed gives the same file as one never stopped."""

import json
import signal
import subprocess
import sys
import time

import pytest

from oddsim.purchase import BattleCache, PurchaseError, read_rows, sweep
from oddsim.purchase.output import RowWriter

SMALL = dict(rules="1942-2e", budget=9, units="inf,art", against="2 inf")


def test_csv_rows_read_back_exactly(tmp_path):
    out = tmp_path / "rows.csv"
    table = sweep(**SMALL, out=out, cache=BattleCache())
    lines = out.read_text().splitlines()
    assert lines[0].startswith("index,buy_infantry,buy_artillery,purchase,cost,leftover,goal,value")
    assert len(lines) == 1 + len(table)
    resumed = sweep(**SMALL, out=out, resume=True, cache=BattleCache())
    assert resumed.stats.resumed == len(table) and resumed.stats.solved == 0
    assert resumed.rows == table.rows  # floats survive the text round trip bit for bit


def test_json_lines_rows_read_back_exactly(tmp_path):
    out = tmp_path / "rows.json"
    table = sweep(**SMALL, out=out, cache=BattleCache())
    records = [json.loads(line) for line in out.read_text().splitlines()]
    assert [r["index"] for r in records] == list(range(len(table)))
    resumed = sweep(**SMALL, out=out, resume=True, cache=BattleCache())
    assert resumed.rows == table.rows


@pytest.mark.parametrize("suffix", [".csv", ".json"])
def test_resume_cuts_a_partial_last_line_and_redoes_it(tmp_path, suffix):
    out = tmp_path / f"rows{suffix}"
    sweep(**SMALL, out=out, cache=BattleCache())
    whole = out.read_bytes()
    lines = whole.splitlines(keepends=True)
    out.write_bytes(b"".join(lines[:-2]) + lines[-2][:7])  # the last row lost, the one before torn
    sweep(**SMALL, out=out, resume=True, cache=BattleCache())
    assert out.read_bytes() == whole


def test_existing_file_needs_resume(tmp_path):
    out = tmp_path / "rows.csv"
    sweep(**SMALL, out=out, cache=BattleCache())
    with pytest.raises(PurchaseError, match="already exists: add --resume"):
        sweep(**SMALL, out=out, cache=BattleCache())


def test_resume_refuses_another_sweeps_file(tmp_path):
    out = tmp_path / "rows.csv"
    sweep(**SMALL, out=out, cache=BattleCache())
    with pytest.raises(PurchaseError, match="another sweep"):
        sweep(**{**SMALL, "against": "3 inf"}, out=out, resume=True, cache=BattleCache())
    with pytest.raises(PurchaseError, match="other columns"):
        sweep(**{**SMALL, "units": "inf,arm"}, out=out, resume=True, cache=BattleCache())


def test_writer_writes_whole_chunks(tmp_path):
    out = tmp_path / "w.csv"
    with RowWriter(out, ["a", "b"], chunk_rows=2, chunk_seconds=3600) as writer:
        writer.add({"a": 1, "b": "x, y"})
        assert out.read_text() == "a,b\n"  # buffered, not written
        writer.add({"a": 2, "b": None})
        assert out.read_text() == 'a,b\n1,"x, y"\n2,\n'
        writer.add({"a": 3, "b": 0.1})
    assert out.read_text().endswith("3,0.1\n")
    assert read_rows(out, ["a", "b"])[2] == {"a": "3", "b": "0.1"}


# A sweep of 591 purchases (buying nothing among them) that takes about a second; committed row
# by row so a kill lands mid-way.
KILLED = ["--rules", "1942-2e", "--budget", "40", "--units", "inf,art,arm,ftr,bmb",
          "--against", "6 inf, 2 art, 1 arm, 1 ftr", "--quiet", "--top", "1"]


def start(args, out):
    return subprocess.Popen([sys.executable, "-m", "oddsim.cli", "purchase", *args, "--out", str(out)],
                            stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)


def rows_in(path):
    return path.read_bytes().count(b"\n") - 1 if path.exists() else 0


def stop_mid_way(process, out, sig, rows=20, timeout=60.0):
    deadline = time.monotonic() + timeout
    while rows_in(out) < rows:
        assert process.poll() is None, process.stderr.read()
        assert time.monotonic() < deadline, "the sweep never got going"
        time.sleep(0.005)
    process.send_signal(sig)
    process.wait(timeout=30)
    return process


def reference(tmp_path):
    from oddsim.cli import cli

    out = tmp_path / "reference.csv"
    with pytest.raises(SystemExit) as done:
        cli.main(args=["purchase", *KILLED, "--out", str(out)], prog_name="oddsim")
    assert done.value.code == 0
    return out.read_bytes()


@pytest.mark.slow
def test_resume_after_sigkill_gives_the_uninterrupted_file(tmp_path):
    out = tmp_path / "killed.csv"
    killed = stop_mid_way(start([*KILLED, "--chunk-rows", "1"], out), out, signal.SIGKILL)
    assert killed.returncode == -signal.SIGKILL
    assert 20 <= rows_in(out) < 591, "the kill did not land mid-way"
    with open(out, "ab") as f:
        f.write(b"123,4,0,")  # as if the kill had torn a write
    resumed = subprocess.run([sys.executable, "-m", "oddsim.cli", "purchase", *KILLED, "--out", str(out),
                              "--resume"], capture_output=True, text=True, timeout=120)
    assert resumed.returncode == 0, resumed.stderr
    assert "resumed from" in resumed.stdout
    assert out.read_bytes() == reference(tmp_path)


@pytest.mark.slow
def test_sigterm_writes_the_finished_rows_and_says_how_many(tmp_path):
    reference(tmp_path)  # (its kernels compiled here first: the command compiles, and says, nothing)
    out = tmp_path / "stopped.csv"
    stopped = stop_mid_way(start([*KILLED, "--chunk-rows", "7"], out), out, signal.SIGTERM, rows=7)
    assert stopped.returncode == 130
    message = stopped.stderr.read().strip().splitlines()
    assert message == [f"oddsim: interrupted: stopped after {rows_in(out)} of 591 rows; {out} holds "
                       f"them: rerun with --resume to finish"]  # one line
    assert out.read_bytes().endswith(b"\n")
