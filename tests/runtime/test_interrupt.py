"""Ctrl-C: the first one stops every long computation, which says "interrupted" (in text, and at
the top of the JSON) and exits 130; never a SystemError out of a Numba call.

Ctrl-C is a real SIGINT sent to this process, right after a chosen kernel call returns (or, for
the exact solver, while its kernel runs)."""

import importlib
import json
import os
import signal
import threading
import time

import pytest
from click.testing import CliRunner

import oddsim
import oddsim.engines.exact
import oddsim.engines.montecarlo
import oddsim.stages.pipeline
from oddsim import raid as raid_module
from oddsim._runtime import interrupt
from oddsim._runtime.interrupt import call_interruptibly
from oddsim.api import run_waves
from oddsim.cli import cli
from oddsim.trench import TrenchBattle, simulate_trench
from oddsim.trench import montecarlo as trench_mc

solve_module = importlib.import_module("oddsim.engines.exact.solve")  # the package re-exports solve()
mc_simulate = importlib.import_module("oddsim.engines.montecarlo.simulate")  # it fights chunk by chunk


def ctrl_c_after_call(monkeypatch, owner, name, on_call=1):
    """Wrap ``owner.name`` so that a SIGINT reaches this process right after call ``on_call``;
    returns the list of calls."""
    original = getattr(owner, name)
    calls = []

    def wrapper(*args, **kwargs):
        calls.append(args)
        out = original(*args, **kwargs)
        if len(calls) == on_call:
            os.kill(os.getpid(), signal.SIGINT)
        return out

    monkeypatch.setattr(owner, name, wrapper)
    return calls


def count_calls(monkeypatch, owner, name):
    original = getattr(owner, name)
    calls = []

    def wrapper(*args, **kwargs):
        calls.append(args)
        return original(*args, **kwargs)

    monkeypatch.setattr(owner, name, wrapper)
    return calls


def test_one_ctrl_c_stops_every_monte_carlo_stage_of_waves(monkeypatch):
    """Before: each sub-battle took its own Ctrl-C and the waves reported no interruption."""
    chunks = ctrl_c_after_call(monkeypatch, mc_simulate, "_fight_chunk")
    stages = count_calls(monkeypatch, oddsim.engines.montecarlo, "simulate")
    battle = oddsim.Battle(rules="1942-2e", attacker="3 inf, 1 arm", defender="4 inf, 1 art")
    result = run_waves(battle, ["3 inf, 1 arm"], method="mc", runs=2_000_000, seed=4)
    assert result.interrupted
    assert len(stages) > 2  # the later wave met several defender compositions
    assert len(chunks) == len(stages)  # each stage fought one chunk, then saw the flag
    assert result.to_dict()["interrupted"] is True
    assert result.to_table().splitlines()[0].startswith("interrupted")


def invoke(*args):
    return CliRunner().invoke(cli, list(args))


def test_battle_with_waves_exits_130_and_says_interrupted_at_the_top(monkeypatch):
    ctrl_c_after_call(monkeypatch, mc_simulate, "_fight_chunk")
    result = invoke("battle", "-a", "3 inf, 1 arm", "-d", "4 inf, 1 art", "--wave", "3 inf, 1 arm",
                    "--method", "mc", "--runs", "2000000", "--seed", "4", "--json")
    assert result.exit_code == 130, result.output
    assert next(iter(json.loads(result.stdout))) == "interrupted"
    assert json.loads(result.stdout)["interrupted"] is True
    assert result.stderr.strip().splitlines()[0].startswith("oddsim: interrupted")
    assert len(result.stderr.strip().splitlines()) == 1


def test_one_battle_in_monte_carlo_exits_130_with_the_partial_result(monkeypatch):
    ctrl_c_after_call(monkeypatch, mc_simulate, "_fight_chunk")
    result = invoke("battle", "-a", "3 inf, 1 arm", "-d", "4 inf", "--method", "mc", "--runs",
                    "2000000", "--seed", "1", "--quiet")
    assert result.exit_code == 130
    assert "interrupted" in result.stdout
    assert "Monte Carlo, 16,384 runs" in result.stdout  # the first chunk (FIRST_CHUNK)
    ctrl_c_after_call(monkeypatch, mc_simulate, "_fight_chunk")
    as_json = invoke("battle", "-a", "3 inf, 1 arm", "-d", "4 inf", "--method", "mc", "--runs",
                     "2000000", "--seed", "1", "--json")
    assert as_json.exit_code == 130
    data = json.loads(as_json.stdout)
    assert next(iter(data)) == "interrupted" and data["interrupted"] is True
    assert data["runs"] == 16_384


def test_amphibious_marks_the_interruption_at_the_top_of_the_json(monkeypatch):
    """Before: only deep inside the sea battle's result."""
    ctrl_c_after_call(monkeypatch, mc_simulate, "_fight_chunk")
    result = invoke("amphibious", "--fleet", "1 bb, 2 transport", "--cargo", "2 inf, 1 arm",
                    "--sea-defender", "1 sub, 1 dd", "-d", "2 inf", "--method", "mc",
                    "--runs", "2000000", "--seed", "2", "--json")
    assert result.exit_code == 130, result.output
    data = json.loads(result.stdout)
    assert next(iter(data)) == "interrupted" and data["interrupted"] is True
    ctrl_c_after_call(monkeypatch, mc_simulate, "_fight_chunk")
    text = invoke("amphibious", "--fleet", "1 bb, 2 transport", "--cargo", "2 inf, 1 arm",
                  "--sea-defender", "1 sub, 1 dd", "-d", "2 inf", "--method", "mc", "--runs",
                  "2000000", "--seed", "2")
    assert text.exit_code == 130
    assert text.stdout.splitlines()[0].startswith("interrupted")


TRENCH = TrenchBattle(attacker="5,4,3", defender="4,4,4", year=1917, attacker_support="2,0,1")


def test_trench_monte_carlo_is_run_in_calls_that_give_the_one_call_counts(monkeypatch):
    whole = simulate_trench(TRENCH, runs=5_000, seed=7)
    monkeypatch.setattr(trench_mc, "CALL_BATTLES", 1_000)
    calls = count_calls(monkeypatch, trench_mc, "simulate_counts")
    split = simulate_trench(TRENCH, runs=5_000, seed=7)
    assert len(calls) == 5
    assert split.counts == whole.counts


def test_trench_monte_carlo_stops_on_the_first_ctrl_c(monkeypatch):
    """Before: one Numba call for every run, deaf to Ctrl-C for minutes."""
    monkeypatch.setattr(trench_mc, "CALL_BATTLES", 1_000)
    ctrl_c_after_call(monkeypatch, trench_mc, "simulate_counts")
    result = simulate_trench(TRENCH, runs=10_000, seed=7)
    assert result.interrupted and result.runs == 1_000 and result.counts.total == 1_000
    ctrl_c_after_call(monkeypatch, trench_mc, "simulate_counts")
    cli_result = invoke("trench", "--attacker", "5,4,3", "--defender", "4,4,4", "--year", "1917",
                        "--method", "mc", "--runs", "10000", "--seed", "7", "--json")
    assert cli_result.exit_code == 130
    assert next(iter(json.loads(cli_result.stdout))) == "interrupted"


def test_raid_monte_carlo_stops_on_the_first_ctrl_c(monkeypatch):
    monkeypatch.setattr(raid_module, "RAID_CHUNK", 1_000)
    ctrl_c_after_call(monkeypatch, raid_module, "_raid_chunk")
    result = invoke("raid", "--bombers", "2", "--territory-value", "6", "--method", "mc",
                    "--runs", "10000", "--seed", "3", "--json")
    assert result.exit_code == 130
    data = json.loads(result.stdout)
    assert next(iter(data)) == "interrupted"
    assert data["interrupted"] is True and data["runs"] == 1_000


def ctrl_c_soon(delay=0.2):
    timer = threading.Timer(delay, os.kill, (os.getpid(), signal.SIGINT))
    timer.start()
    return timer


def test_a_call_in_the_background_is_left_at_the_first_ctrl_c():
    release = threading.Event()
    ctrl_c_soon()
    with pytest.raises(KeyboardInterrupt):
        call_interruptibly(release.wait, 60, background=True)
    release.set()  # the abandoned call ends


def test_a_call_in_the_foreground_finishes_before_ctrl_c_is_handled():
    finished = []

    def call():
        os.kill(os.getpid(), signal.SIGINT)  # lands while the call runs
        finished.append(True)
        return 7

    with pytest.raises(KeyboardInterrupt):
        call_interruptibly(call)
    assert finished == [True]


def test_waves_of_large_exact_stages_stop_on_the_first_ctrl_c(monkeypatch):
    """The stages share one Ctrl-C flag; a large exact stage runs in the background and is
    left when the flag is set (the first Ctrl-C only sets it)."""
    release = threading.Event()
    monkeypatch.setattr(solve_module, "_solve", lambda battle, lowered: release.wait(60))
    big = oddsim.Battle(rules="1942-2e", attacker="100 inf, 50 arm", defender="150 inf")
    assert oddsim.stages.pipeline.estimate_work(big)[1] >= solve_module.BACKGROUND_WORK
    ctrl_c_soon()
    with pytest.raises(KeyboardInterrupt):
        run_waves(big, ["10 arm"], method="exact")
    release.set()


def test_ctrl_c_during_a_first_runs_compile_stops_at_once(monkeypatch):
    """A command line's first exact solve may compile the engine for seconds, however small the
    battle: it runs in the background thread, so Ctrl-C is not held back until the compile ends
    (before: a small battle's solve, compile included, ran with Ctrl-C held)."""
    release, finished = threading.Event(), threading.Event()

    def compiling(battle, lowered):  # stands for a first call that compiles the kernels
        release.wait(3)
        finished.set()

    monkeypatch.setattr(solve_module, "_solve", compiling)
    monkeypatch.setattr(solve_module, "_solved_once", False)
    monkeypatch.setattr(oddsim._runtime.warm, "_front_end", True)
    small = oddsim.Battle(rules="1942-2e", attacker="2 inf", defender="1 inf")
    assert oddsim.stages.pipeline.estimate_work(small)[1] < solve_module.BACKGROUND_WORK
    ctrl_c_soon()
    with pytest.raises(KeyboardInterrupt):
        oddsim.solve(small)
    assert not finished.is_set()  # stopped while the "compile" still ran
    release.set()
    finished.wait(5)


@pytest.mark.slow
def test_ctrl_c_during_a_long_exact_solve_is_one_line_not_a_system_error():
    """Before: a SystemError traceback when Ctrl-C landed as a Numba kernel returned. This
    solve (a retreat that needs the win chance of every state) takes seconds."""
    ctrl_c_soon(0.5)
    result = invoke("battle", "-a", "200 inf, 130 arm, 20 ftr", "-d", "260 inf, 90 art",
                    "--retreat-below-win", "0.5", "--method", "exact")
    if result.exit_code == 0:  # this machine solved it before the signal came
        with pytest.raises(KeyboardInterrupt):
            time.sleep(60)
        pytest.skip("the solve finished before Ctrl-C")
    assert result.exit_code == 130, result.output
    assert result.stderr.strip() == "oddsim: interrupted"
    assert result.stdout == ""
    for thread in [t for t in threading.enumerate() if t.name == "oddsim-solve"]:
        thread.join()


def test_a_chart_stops_on_the_first_ctrl_c_and_writes_nothing(monkeypatch, tmp_path):
    """Before: each point's Monte Carlo took its own Ctrl-C and the chart went on."""
    chunks = ctrl_c_after_call(monkeypatch, mc_simulate, "_fight_chunk")
    out = tmp_path / "curve.png"
    result = invoke("chart", "curve", "-a", "2 arm", "-d", "3 inf", "--vary", "inf=0..6",
                    "--method", "mc", "--runs", "100000", "--seed", "1", "--out", str(out))
    assert result.exit_code == 130
    assert result.stderr.strip() == "oddsim: interrupted"
    assert len(chunks) == 1 and not out.exists()


def test_interrupted_waves_give_errors_of_the_runs_done_not_of_the_runs_asked(monkeypatch):
    """Before: a later wave's sub-battle of small share fought a whole first chunk after Ctrl-C,
    and its runs / share (far beyond the runs asked) set the standard errors of every figure, so
    an interrupted 10**10-run answer printed '± 0.0003%' from 2**14 battles."""
    ctrl_c_after_call(monkeypatch, mc_simulate, "_fight_chunk")
    battle = oddsim.Battle(rules="1942-2e", attacker="3 inf, 1 arm", defender="4 inf, 1 art")
    result = run_waves(battle, ["3 inf, 1 arm"], method="mc", runs=10**10, seed=4)
    assert result.interrupted
    first = result.waves[0]
    done = 2**14  # the first chunk of the first wave, all that ran before the flag was seen
    p = first["attacker_win"]
    # A binomial chance from `done` battles: its error is at least sqrt(p (1 - p) / done).
    assert first["std_error"]["attacker_win"] >= 0.999 * (p * (1 - p) / done) ** 0.5
    q = result.attacker_win
    assert result.std_error["attacker_win"] >= 0.999 * (q * (1 - q) / done) ** 0.5


def test_background_calls_in_a_row_share_one_thread_that_ends_when_idle(monkeypatch):
    monkeypatch.setattr(interrupt, "WORKER_IDLE_S", 0.2)
    first = call_interruptibly(threading.current_thread, background=True)
    second = call_interruptibly(threading.current_thread, background=True)
    assert first is second and first is not threading.main_thread()
    first.join(5)  # idle past WORKER_IDLE_S: it ends
    assert not first.is_alive()
    assert call_interruptibly(threading.current_thread, background=True) is not first


def test_a_background_call_after_an_abandoned_one_does_not_wait_for_it():
    release = threading.Event()
    ctrl_c_soon(0.1)
    with pytest.raises(KeyboardInterrupt):
        call_interruptibly(release.wait, 60, background=True)
    try:
        assert call_interruptibly(lambda: 7, background=True) == 7  # the abandoned call still waits
        assert not release.is_set()
    finally:
        release.set()


def test_an_error_in_a_background_call_reaches_the_caller():
    def fail():
        raise ValueError("from the worker")

    with pytest.raises(ValueError, match="from the worker"):
        call_interruptibly(fail, background=True)
    assert call_interruptibly(lambda: 3, background=True) == 3  # the worker serves on


def test_a_forked_child_makes_its_own_worker_thread():
    """A child forked while the parent's worker waits has no such thread: it starts its own."""
    assert call_interruptibly(lambda: 1, background=True) == 1  # the parent's worker now waits
    pid = os.fork()
    if pid == 0:  # the child: exit 0 only if the call came back within a few seconds
        signal.alarm(10)
        os._exit(0 if call_interruptibly(lambda: 2, background=True) == 2 else 1)
    _, status = os.waitpid(pid, 0)
    assert os.WIFEXITED(status) and os.WEXITSTATUS(status) == 0


@pytest.mark.parametrize("args, owner, name", [
    (("battle", "-a", "3 inf, 1 arm", "-d", "4 inf", "--method", "mc", "--runs", "2000000",
      "--quiet"), mc_simulate, "_fight_chunk"),
    (("battle", "-a", "3 inf, 1 arm", "-d", "4 inf", "--wave", "2 arm", "--method", "mc", "--runs",
      "2000000", "--quiet"), mc_simulate, "_fight_chunk"),
    (("amphibious", "--fleet", "1 bb, 2 transport", "--cargo", "2 inf, 1 arm", "--sea-defender",
      "1 sub, 1 dd", "-d", "2 inf", "--method", "mc", "--runs", "2000000", "--quiet"), mc_simulate,
     "_fight_chunk"),
    (("raid", "--bombers", "2", "--territory-value", "6", "--method", "mc", "--runs", "10000",
      "--quiet"), raid_module, "_raid_chunk"),
    (("trench", "--attacker", "5,4,3", "--defender", "4,4,4", "--year", "1917", "--method", "mc",
      "--runs", "10000"), trench_mc, "simulate_counts"),
])
def test_an_interrupted_run_writes_no_chart(monkeypatch, tmp_path, args, owner, name):
    """The README: "a chart is not written". Before: the chart of the partial result was written."""
    monkeypatch.setattr(raid_module, "RAID_CHUNK", 1_000)
    monkeypatch.setattr(trench_mc, "CALL_BATTLES", 1_000)
    ctrl_c_after_call(monkeypatch, owner, name)
    chart = tmp_path / "odds.png"
    result = invoke(*args, "--seed", "7", "--plot", str(chart))
    assert result.exit_code == 130, result.output
    assert "interrupted" in result.stdout
    assert result.stderr == ("oddsim: interrupted: the figures above are from the runs done so far; "
                             "no chart was written\n")
    assert not chart.exists()


def test_an_interrupted_chart_says_so_in_one_line(monkeypatch, tmp_path):
    """Before: click printed a blank line on stderr before ours."""
    from oddsim._entry import INTERRUPTED

    ctrl_c_after_call(monkeypatch, mc_simulate, "_fight_chunk")
    chart = tmp_path / "curve.png"
    result = invoke("chart", "curve", "-a", "2 arm", "-d", "5 inf", "--vary", "inf=0..20", "--method", "mc",
                    "--runs", "2000000", "--out", str(chart))
    assert result.exit_code == 130, result.output
    assert result.stderr == f"{INTERRUPTED}\n"
    assert not chart.exists()


PURCHASE = ("purchase", "--budget", "12", "--units", "inf,art,arm", "--against", "3 inf", "--method",
            "exact", "--quiet", "--top", "0")


def test_an_interrupted_purchase_without_out_prints_the_ranking_of_the_rows_done(monkeypatch):
    """Before: Ctrl-C on a sweep without --out printed one line and none of the rows done."""
    rows_module = importlib.import_module("oddsim.purchase.swept")  # (one lattice sweep, then row by row)
    full = invoke(*PURCHASE)
    assert full.exit_code == 0, full.output
    full_rows = [line for line in full.stdout.splitlines() if _rank_line(line)]
    calls = ctrl_c_after_call(monkeypatch, rows_module, "purchase_row", on_call=3)
    result = invoke(*PURCHASE)
    assert result.exit_code == 130, result.output
    assert len(calls) == 3  # the row in hand when Ctrl-C came is the last one
    lines = result.stdout.splitlines()
    # buying nothing (enumerated first, no battle: its row is made without the sweep's
    # purchase_row) and the three rows the sweep made
    assert lines[0].startswith("interrupted: ranking of the 4 of ") and "purchases done" in lines[0]
    ranked = [line for line in lines if _rank_line(line)]
    assert [line.split()[0] for line in ranked] == ["1", "2", "3", "4"]
    # the same figures as the whole sweep gives those purchases (the first four it enumerates)
    by_purchase = {_purchase_of(line): line.split()[1] for line in full_rows}
    assert {_purchase_of(line) for line in ranked} == {"nothing"} | {spec.describe_purchase(counts)
                                                                     for spec, _, counts, *_ in calls}
    assert all(by_purchase[_purchase_of(line)] == line.split()[1] for line in ranked)
    message = result.stderr.strip().splitlines()
    assert len(message) == 1 and message[0].startswith("oddsim: interrupted: stopped after 4 of ")
    assert "--out" in message[0]


def _rank_line(line: str) -> bool:
    words = line.split()
    return len(words) > 5 and words[0].isdigit() and words[1].endswith("%")


def _purchase_of(line: str) -> str:
    return line.split(" exact ", 1)[1].strip()
